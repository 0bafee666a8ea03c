//! The game driver: opening throw, rolls, stages, chains, remainders, result.
//!
//! Dice come from a [`DiceSource`]: a seeded RNG for reproducible games, or
//! a recorded list when replaying. Decisions come from a chooser that picks
//! one of a stage's legal ends; stages with nothing playable pass by
//! themselves.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::movegen::{MoveGen, StageEnd};
use super::options::{Opening, RuleOptions};
use super::state::{GameResult, GameState, Pending, Side};
use super::step::{StageDice, Step};

/// Where dice come from.
pub trait DiceSource {
    /// One die, 1..=6.
    fn die(&mut self) -> u8;
}

/// Dice from a seeded RNG: the same seed gives the same game.
pub struct SeededDice(StdRng);

impl SeededDice {
    /// Dice from `seed`.
    pub fn new(seed: u64) -> Self {
        SeededDice(StdRng::seed_from_u64(seed))
    }
}

impl DiceSource for SeededDice {
    fn die(&mut self) -> u8 {
        self.0.random_range(1..=6)
    }
}

/// One stage as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageRecord {
    /// Who played it.
    pub side: Side,
    /// The stage's dice.
    pub dice: StageDice,
    /// Whether it was a remainder stage.
    pub remainder: bool,
    /// The steps (empty when nothing was playable).
    pub steps: Vec<Step>,
}

/// One roll and what followed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// Who rolled (for a remainder, who played it).
    pub side: Side,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// Stages in order.
    pub stages: Vec<StageRecord>,
}

/// A played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The opening throws (White's die first), ties included.
    pub openings: Vec<(u8, u8)>,
    /// The side that started.
    pub starter: Side,
    /// Turns in order (remainders are turns of their own).
    pub turns: Vec<TurnRecord>,
    /// The result.
    pub result: GameResult,
    /// The final state.
    pub final_state: GameState,
}

/// Something that chooses a play: given the state (a stage pending) and its
/// legal ends (more than one play possible or not), returns an index into `ends`.
pub trait Chooser {
    /// Picks one end.
    fn choose(&mut self, state: &GameState, ends: &[StageEnd]) -> usize;
}

impl<F: FnMut(&GameState, &[StageEnd]) -> usize> Chooser for F {
    fn choose(&mut self, state: &GameState, ends: &[StageEnd]) -> usize {
        self(state, ends)
    }
}

/// Throws the opening: pairs until they differ. Returns the throws and the starter.
pub fn opening_throw(dice: &mut dyn DiceSource) -> (Vec<(u8, u8)>, Side) {
    let mut throws = Vec::new();
    loop {
        let w = dice.die();
        let b = dice.die();
        throws.push((w, b));
        if w != b {
            return (throws, if w > b { Side::White } else { Side::Black });
        }
    }
}

/// How a game opens: the opening throws, the starter, and the starter's
/// first roll when the opening throw is played as it fell
/// (`Opening::Single`); `None` when the starter rolls anew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The opening throws (White's die first), ties included.
    pub throws: Vec<(u8, u8)>,
    /// The side that starts.
    pub starter: Side,
    /// The starter's first roll, as (starter's die, other die).
    pub first_roll: Option<(u8, u8)>,
}

/// Throws the opening and decides the first roll under `opts`.
pub fn open_game(opts: &RuleOptions, dice: &mut dyn DiceSource) -> Opened {
    let (throws, starter) = opening_throw(dice);
    let &(w, b) = throws.last().unwrap_or(&(2, 1));
    let first_roll = match opts.opening {
        Opening::Single => Some(if starter == Side::White {
            (w, b)
        } else {
            (b, w)
        }),
        Opening::Reroll => None,
    };
    Opened {
        throws,
        starter,
        first_roll,
    }
}

/// Plays a whole game. `choosers[0]` plays White, `choosers[1]` Black.
pub fn play_game(
    opts: &RuleOptions,
    dice: &mut dyn DiceSource,
    choosers: [&mut dyn Chooser; 2],
) -> GameRecord {
    let [white, black] = choosers;
    let players: [&mut dyn Chooser; 2] = [white, black];
    let Opened {
        throws: openings,
        starter,
        mut first_roll,
    } = open_game(opts, dice);
    let mut state = GameState::start(starter);
    let mut movegen = MoveGen::new();
    let mut ends = Vec::new();
    let mut turns: Vec<TurnRecord> = Vec::new();
    while state.result().is_none() {
        match state.pending {
            Pending::Roll => {
                let (d1, d2) = first_roll
                    .take()
                    .unwrap_or_else(|| (dice.die(), dice.die()));
                // Rolling is always allowed in the Roll state of a live game.
                let Ok(next) = state.roll(opts, d1, d2) else {
                    break;
                };
                state = next;
                turns.push(TurnRecord {
                    side: state.to_move,
                    roll: Some((d1, d2)),
                    stages: Vec::new(),
                });
            }
            // A remainder is one turn of its own, all its stages together.
            Pending::Remainder { .. } if !is_in_remainder_turn(&turns, state.to_move) => {
                turns.push(TurnRecord {
                    side: state.to_move,
                    roll: None,
                    stages: Vec::new(),
                });
            }
            _ => {}
        }
        let Some(stage) = state.stage_dice() else {
            continue;
        };
        let playable = movegen.generate(state.pos, stage, &mut ends);
        let remainder = matches!(state.pending, Pending::Remainder { .. });
        let pick = if playable == 0 {
            0
        } else {
            players[state.to_move.index()]
                .choose(&state, &ends)
                .min(ends.len() - 1)
        };
        let end = ends[pick];
        if let Some(t) = turns.last_mut() {
            t.stages.push(StageRecord {
                side: state.to_move,
                dice: stage,
                remainder,
                steps: end.play.steps().to_vec(),
            });
        }
        state = state.after_stage(opts, end.pos, playable);
    }
    let result = state.result().unwrap_or(GameResult {
        winner: None,
        points: 0,
    });
    GameRecord {
        openings,
        starter,
        turns,
        result,
        final_state: state,
    }
}

/// Whether the last turn is already a remainder turn of `side`.
fn is_in_remainder_turn(turns: &[TurnRecord], side: Side) -> bool {
    turns
        .last()
        .is_some_and(|t| t.roll.is_none() && t.side == side)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_games_are_reproducible_and_end() {
        let opts = RuleOptions::default();
        for seed in 0..20 {
            let mut a1 = RandomChooser::new(seed);
            let mut b1 = RandomChooser::new(seed + 100);
            let g1 = play_game(&opts, &mut SeededDice::new(seed), [&mut a1, &mut b1]);
            let mut a2 = RandomChooser::new(seed);
            let mut b2 = RandomChooser::new(seed + 100);
            let g2 = play_game(&opts, &mut SeededDice::new(seed), [&mut a2, &mut b2]);
            assert_eq!(g1, g2);
            let r = g1.result;
            assert!(r.winner.is_some() || r.points == 0);
            assert!(r.points <= 2);
        }
    }
}
