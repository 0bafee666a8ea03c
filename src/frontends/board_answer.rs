//! The answer to a FIBS board string: what the side it asks plays, or its
//! cube action, from an [`Engine`]'s search at the board's score and cube.
//! gnubg's external-player bridge ([`super::gnubg_external`]), UBGI draft 0.01's
//! board requests and the FIBS bot share it; each writes the answer in its
//! own notation.

use crate::cube::{CubeDecision, CubeOwner, CubeStateError, MatchState, SessionRules};
use crate::engine::{Engine, SearchError, SetupError};
use crate::gnubg::fibs::{BoardDecision, BoardRequest};
use crate::rules::{GameState, Side, Step, Variant};

/// What the side a board asks should do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardAnswer {
    /// Play these steps (none: no legal play) from `from`, the board's
    /// state with the mover as White.
    Play {
        /// The state the steps start from.
        from: GameState,
        /// The steps, in playing order.
        steps: Vec<Step>,
    },
    /// Double before the roll.
    Double,
    /// Roll without doubling.
    Roll,
    /// Take the double offered.
    Take,
    /// Drop the double offered.
    Drop,
}

/// Why a board could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// The board is not a position of the variant.
    #[error("bad position: {0}")]
    Position(#[from] crate::gnubg::BoardError),
    /// The engine refused the state.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The engine could not search.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The board's score or cube cannot be.
    #[error(transparent)]
    Session(#[from] CubeStateError),
}

/// Answers `req` with `engine` in `variant` (a hitting game). The engine's
/// state and session are set to the board's.
pub fn answer(
    engine: &mut Engine,
    variant: Variant,
    req: &BoardRequest,
) -> Result<BoardAnswer, AnswerError> {
    match req.decision {
        BoardDecision::Cube => {
            let d = cube_decision(engine, variant, req, false)?;
            Ok(match d {
                Some(d) if d.action.doubles() => BoardAnswer::Double,
                _ => BoardAnswer::Roll,
            })
        }
        BoardDecision::Take => {
            // The doubler is on turn, before its roll. Beavers are not
            // offered: a board does not say whether they are allowed.
            let d = cube_decision(engine, variant, req, true)?;
            Ok(match d.map(|d| d.action.answer()) {
                Some("drop") => BoardAnswer::Drop,
                _ => BoardAnswer::Take,
            })
        }
        BoardDecision::Move { dice } => {
            let from = crate::gnubg::state_of(variant, &req.board, Some(dice))?;
            engine.set_state(from)?;
            // At a match score the plays are ranked by what the score
            // makes each result worth.
            engine.set_session(session_of(req, false)?);
            let ranked = engine.best_turns_now()?;
            let steps = ranked.first().map(|c| c.steps.clone()).unwrap_or_default();
            Ok(BoardAnswer::Play { from, steps })
        }
    }
}

/// The session the board describes, the player on turn as White.
pub fn session_of(req: &BoardRequest, doubled: bool) -> Result<MatchState, CubeStateError> {
    let rules = SessionRules {
        cube: true,
        ..SessionRules::default()
    };
    let mut s = if req.match_length == 0 {
        MatchState::money(rules)
    } else {
        let mut m = MatchState::match_to(req.match_length, rules)?;
        let crawford = if req.crawford {
            Some(true)
        } else if req.post_crawford {
            Some(false)
        } else {
            None
        };
        m.set_score(
            req.scores[0],
            req.scores[1],
            crawford.filter(|_| {
                let away = |s: u32| req.match_length.saturating_sub(s);
                (away(req.scores[0]) == 1) != (away(req.scores[1]) == 1)
            }),
        )?;
        m
    };
    let on_turn = usize::from(req.on_turn);
    let owner = match (req.may_double[on_turn], req.may_double[1 - on_turn]) {
        (true, false) if req.cube > 1 => CubeOwner::Side(Side::White),
        (false, true) if req.cube > 1 => CubeOwner::Side(Side::Black),
        _ => CubeOwner::Centre,
    };
    if !s.is_crawford() {
        s.set_cube(req.cube, owner)?;
    }
    if doubled {
        s.double(Side::White)?;
    }
    Ok(s)
}

/// The cube decision of the player on turn: its chances before the roll
/// made cubeful at the board's score and cube.
fn cube_decision(
    engine: &mut Engine,
    variant: Variant,
    req: &BoardRequest,
    doubled: bool,
) -> Result<Option<CubeDecision>, AnswerError> {
    let state = crate::gnubg::state_of(variant, &req.board, None)?;
    engine.set_state(state)?;
    engine.set_session(session_of(req, doubled)?);
    let d = engine.cube_decision_now()?;
    tracing::debug!(decision = ?d, "cube decision");
    Ok(d)
}
