//! The doubling cube and match play: the state of a session (money or a
//! match to N points, the score, Crawford, the cube), match equity tables,
//! and cubeful equities from the network's cubeless chances.
//!
//! The rules of checker play know nothing of this: a game is played the
//! same whatever the score; the session decides what its result is worth.

pub mod bearoff;
pub mod generate;
pub mod janowski;
pub mod kazaross_xg2;
pub mod met;
pub mod mwc;
pub mod spec;
pub mod state;

pub use janowski::{
    CONTACT_EFFICIENCY, CubeAction, CubeDecision, CubeView, DEFAULT_CONTACT_EFFICIENCY, efficiency,
    efficiency_at, money_decision, money_equity,
};
pub use met::{Met, kazaross_xg2, met_for};
pub use mwc::{MatchCube, MatchScore, match_decision, match_mwc};
pub use spec::{SessionSpec, SessionSpecError, SessionSpecProblem};
pub use state::{
    CubeAnswer, CubeOwner, CubeStateError, MatchState, SessionKind, SessionRules, cubeless,
};

use crate::eval::Probs;
use crate::rules::{GameState, Pending, Side};

/// A cube decision asked for before the roll, as the front ends answer it
/// (the HTTP API, the protocol's `go cube`, the Python package): who
/// decides, and how the answer is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeQuestion {
    /// The side to move, whose cube decision it is.
    pub doubler: Side,
    /// Whether its double is waiting: the answer is the opponent's reply.
    pub answering: bool,
    /// Whether a double would be a redouble (the cube is owned).
    pub redouble: bool,
    /// Whether the session is a match (the decision is in match-winning
    /// chances, not money equity).
    pub in_match: bool,
}

/// Why no cube decision can be asked for now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CubeQuestionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The session plays without the cube.
    #[error("the cube is off in this session")]
    CubeOff,
    /// A stage is to be played: a cube decision comes before the roll.
    #[error("a cube decision comes before the roll ({})", crate::rules::state::pending_text(*.0))]
    NotBeforeRoll(Pending),
}

impl CubeQuestion {
    /// The cube decision of the side to move in `state`, in `session`.
    pub fn before_roll(
        state: &GameState,
        session: &MatchState,
    ) -> Result<CubeQuestion, CubeQuestionError> {
        if state.result().is_some() {
            return Err(CubeQuestionError::GameOver);
        }
        if !session.rules().cube {
            return Err(CubeQuestionError::CubeOff);
        }
        if state.pending != Pending::Roll {
            return Err(CubeQuestionError::NotBeforeRoll(state.pending));
        }
        let doubler = state.to_move;
        Ok(CubeQuestion {
            doubler,
            answering: session.doubled_by() == Some(doubler),
            redouble: session.owner() != CubeOwner::Centre,
            in_match: matches!(session.kind(), SessionKind::Match { .. }),
        })
    }

    /// The best answer to the question: the reply to a waiting double
    /// (`take`, `pass`, `beaver`), else `double` or `nodouble`.
    pub fn best(&self, decision: &CubeDecision) -> &'static str {
        if self.answering {
            decision.action.answer()
        } else if decision.action.doubles() {
            "double"
        } else {
            "nodouble"
        }
    }

    /// The unit of the decision's figures: `mwc` in a match, `money` in
    /// money play.
    pub fn unit(&self) -> &'static str {
        if self.in_match { "mwc" } else { "money" }
    }
}

/// The cube decision of `doubler` (the side to move, before its roll) with
/// its cubeless chances `probs` in `state`, in `session`: money equity in
/// money play, match-winning chances in a match (through Kazaross-XG2).
/// With a double of its waiting, the decision it was (whose `answer` is
/// the opponent's right reply). `None` when it has no cube to turn.
pub fn decide(
    probs: &Probs,
    state: &GameState,
    session: &MatchState,
    doubler: Side,
) -> Option<CubeDecision> {
    decide_at(probs, state, session, doubler, CONTACT_EFFICIENCY)
}

/// [`decide`] with the cube's efficiency `contact` in contact positions
/// (`engine.cube_efficiency`; races keep their own, [`efficiency_at`]).
pub fn decide_at(
    probs: &Probs,
    state: &GameState,
    session: &MatchState,
    doubler: Side,
    contact: f64,
) -> Option<CubeDecision> {
    let waiting = session.doubled_by() == Some(doubler);
    if !waiting && session.may_double(doubler).is_err() {
        return None;
    }
    let view = match session.owner() {
        CubeOwner::Centre => CubeView::Centre,
        CubeOwner::Side(s) if s == doubler => CubeView::Mine,
        CubeOwner::Side(_) => return None,
    };
    let x = efficiency_at(state, contact);
    let rules = session.rules();
    Some(match session.kind() {
        // Small bear-offs: exact equities, not the interpolation.
        SessionKind::Money => bearoff::money_decision(state, view, rules.beavers)
            .unwrap_or_else(|| money_decision(probs, view, x, rules.jacoby, rules.beavers)),
        SessionKind::Match { .. } => {
            let at = MatchCube {
                met: met_for(state.variant, rules.cube),
                score: match_score(session, doubler),
                cube: session.cube(),
                view,
                x,
            };
            match_decision(probs, &at)
        }
    })
}

/// The score of `session` seen from `side` (a side that has no score to
/// reach counts as 1 away).
fn match_score(session: &MatchState, side: Side) -> MatchScore {
    MatchScore {
        me: session.away(side).unwrap_or(1),
        opp: session.away(side.opponent()).unwrap_or(1),
        post_crawford: session.is_post_crawford(),
    }
}

/// What each result is worth to each side in `session`, in units of a
/// single win at the current cube: at a match score, from the match equity
/// table (so a gammon is worth what the score makes it worth); `None` in
/// money play, where the cubeless points rank plays.
pub fn valuation(
    variant: crate::rules::Variant,
    session: &MatchState,
) -> Option<[crate::search::Valuation; 2]> {
    let SessionKind::Match { .. } = session.kind() else {
        return None;
    };
    let of = |side: Side| {
        let score = match_score(session, side);
        let c = i64::from(session.cube());
        let met = met_for(variant, session.rules().cube);
        let m = |points: i64| score.after(met, points);
        let (w1, l1) = (m(c), m(-c));
        let mid = (w1 + l1) / 2.0;
        let unit = ((w1 - l1) / 2.0).max(1e-9);
        let v = |k: i64| ((m(k * c) - mid) / unit) as f32;
        crate::search::Valuation {
            win: [v(1), v(2), v(3)],
            lose: [v(-1), v(-2), v(-3)],
        }
    };
    Some([of(Side::White), of(Side::Black)])
}

/// The cubeful worth of `roller`'s chances `probs` before its roll in
/// `session`: money equity per unit of the cube, or match-winning chances
/// (`true`) in a match. `None` when the session has no cube and is money
/// play (the cubeless equity is the answer).
pub fn cubeful(
    probs: &Probs,
    state: &GameState,
    session: &MatchState,
    roller: Side,
) -> Option<(f64, bool)> {
    cubeful_at(probs, state, session, roller, CONTACT_EFFICIENCY)
}

/// [`cubeful`] with the cube's efficiency `contact` in contact positions
/// (`engine.cube_efficiency`).
pub fn cubeful_at(
    probs: &Probs,
    state: &GameState,
    session: &MatchState,
    roller: Side,
    contact: f64,
) -> Option<(f64, bool)> {
    let view = match session.owner() {
        CubeOwner::Centre => CubeView::Centre,
        CubeOwner::Side(s) if s == roller => CubeView::Mine,
        CubeOwner::Side(_) => CubeView::Theirs,
    };
    let rules = session.rules();
    // No cube to turn: the game is played out at this cube.
    let x = if rules.cube && !session.is_crawford() {
        efficiency_at(state, contact)
    } else {
        0.0
    };
    match session.kind() {
        SessionKind::Money if rules.cube => {
            let exact = bearoff::money_equity(state, view);
            Some((
                exact.unwrap_or_else(|| money_equity(probs, view, x, rules.jacoby)),
                false,
            ))
        }
        SessionKind::Money => None,
        SessionKind::Match { .. } => {
            let at = MatchCube {
                met: met_for(state.variant, rules.cube),
                score: match_score(session, roller),
                cube: session.cube(),
                view,
                x,
            };
            Some((match_mwc(probs, &at), true))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn gammons_are_worth_what_the_score_makes_them() {
        let rules = SessionRules::default();
        // Double match point: a gammon wins the match as a single does.
        let mut m = MatchState::match_to(5, rules).unwrap();
        m.set_score(4, 4, Some(false)).unwrap();
        let [w, b] = valuation(Variant::Backgammon, &m).unwrap();
        assert_eq!(w.win[1], w.win[0]);
        assert_eq!(b.lose[1], b.lose[0]);
        // Early in a long match a gammon is worth about two singles.
        let m = MatchState::match_to(25, rules).unwrap();
        let [w, _] = valuation(Variant::Backgammon, &m).unwrap();
        assert!((w.win[1] - 2.0).abs() < 0.2, "{w:?}");
        assert!((w.lose[1] + 2.0).abs() < 0.2, "{w:?}");
        // Money play ranks by the cubeless points.
        assert!(valuation(Variant::Backgammon, &MatchState::money(rules)).is_none());
    }
}
