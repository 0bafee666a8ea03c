//! The players a game is played by: the [`Player`] trait and what it is
//! asked ([`TurnRequest`], [`CubeRequest`]), and players made of a
//! [`Chooser`] that picks one stage end at a time.

use std::error::Error;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::cube::{CubeAnswer, MatchState};
use crate::rules::movegen::StageEnd;
use crate::rules::options::RuleOptions;
use crate::rules::ruleset::StageGen;
use crate::rules::state::GameState;
use crate::rules::step::Step;
use crate::rules::turn::{MoveToken, turn_over};

/// A whole turn of the side to move, as typed move tokens: every stage of
/// a roll (a chain's stages, in order), or every stage of a remainder.
/// Empty when nothing can be played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// The checker moves in play order (`Pass` tokens are ignored).
    pub moves: Vec<MoveToken>,
}

impl Turn {
    /// The turn made of these steps, one move token each.
    pub fn from_steps(steps: &[Step]) -> Turn {
        Turn {
            moves: steps
                .iter()
                .map(|s| MoveToken::Move {
                    from: s.from,
                    to: s.to(),
                })
                .collect(),
        }
    }
}

/// What a player is asked to play.
#[derive(Clone, Copy, Debug)]
pub struct TurnRequest<'a> {
    /// The state before the turn: before the roll, or with the remainder pending.
    pub before: &'a GameState,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// The state the turn is played from (rolled: a stage pending).
    pub start: &'a GameState,
    /// The rules of the game.
    pub opts: &'a RuleOptions,
    /// The session the game is played in: what each result is worth.
    pub session: &'a MatchState,
}

/// What a player is asked at the cube: before the side to move's roll,
/// whether it doubles; or, with its double waiting in `session`, whether
/// the other side takes.
#[derive(Clone, Copy, Debug)]
pub struct CubeRequest<'a> {
    /// The state before the roll; its side to move is the doubler.
    pub state: &'a GameState,
    /// The session: score, cube and owner, and the double if one waits.
    pub session: &'a MatchState,
    /// The rules of the game.
    pub opts: &'a RuleOptions,
}

/// Why a player gave no turn.
#[derive(Debug, thiserror::Error)]
pub enum PlayerFault {
    /// It could not answer: it would not start, crashed, or timed out.
    #[error(transparent)]
    Failed(Box<dyn Error + Send + Sync>),
    /// Its answer is not a legal turn (found while reading the answer).
    #[error(transparent)]
    Illegal(Box<dyn Error + Send + Sync>),
}

/// Something that plays whole turns: an in-process player, an external
/// engine behind the protocol, a scripted or random player.
pub trait Player {
    /// The whole turn of the side to move in `ask.start`.
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault>;

    /// Whether the side to move in `ask.state` doubles before its roll.
    /// Asked only when the session lets it double. A player that knows
    /// nothing of the cube never doubles.
    fn offer_double(&mut self, _ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
        Ok(false)
    }

    /// The answer to the double waiting in `ask.session`, by the side not
    /// to move in `ask.state`. A player that knows nothing of the cube
    /// takes.
    fn answer_double(&mut self, _ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
        Ok(CubeAnswer::Take)
    }

    /// The player is no longer needed (an external engine is asked to quit).
    fn quit(&mut self) {}
}

/// Something that chooses a play one stage at a time: given the state (a
/// stage pending with something playable) and its legal ends, returns an
/// index into `ends`. Plays games through a [`StagePlayer`].
pub trait Chooser {
    /// Picks one end.
    fn choose(&mut self, state: &GameState, ends: &[StageEnd]) -> usize;
}

impl<F: FnMut(&GameState, &[StageEnd]) -> usize> Chooser for F {
    fn choose(&mut self, state: &GameState, ends: &[StageEnd]) -> usize {
        self(state, ends)
    }
}

/// A [`Player`] that asks a [`Chooser`] for each stage of its turn with
/// something playable (an index past the end picks the last end).
pub struct StagePlayer<'a>(pub &'a mut dyn Chooser);

impl Player for StagePlayer<'_> {
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        let mover = ask.start.to_move;
        let mut movegen = StageGen::new();
        let mut ends = Vec::new();
        let mut steps = Vec::new();
        let mut s = *ask.start;
        while !turn_over(&s, mover) {
            let Some(stage) = s.stage_dice() else { break };
            let playable = movegen.generate(ask.opts, &s, stage, &mut ends);
            let pick = if playable == 0 {
                0
            } else {
                self.0.choose(&s, &ends).min(ends.len() - 1)
            };
            let end = ends[pick];
            steps.extend_from_slice(end.play.steps());
            s = s.after_stage(ask.opts, end.pos, playable);
        }
        Ok(Turn::from_steps(&steps))
    }
}

/// A chooser that picks uniformly at random (the random player).
pub struct RandomChooser(pub StdRng);

impl RandomChooser {
    /// A random player from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomChooser(StdRng::seed_from_u64(seed))
    }
}

impl Chooser for RandomChooser {
    fn choose(&mut self, _state: &GameState, ends: &[StageEnd]) -> usize {
        self.0.random_range(0..ends.len())
    }
}
