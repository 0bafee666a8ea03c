//! Dice and the opening: where dice come from (a seeded RNG, or a recorded
//! list when replaying), the opening throw, and who starts a game.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::options::{Opening, RuleOptions};
use super::state::Side;
#[cfg(test)]
use super::{GameState, StageGen};

/// Where dice come from.
pub trait DiceSource {
    /// One die, 1..=6.
    fn die(&mut self) -> u8;
}

/// Dice from a seeded RNG: the same seed gives the same game. The stream
/// is `StdRng`'s, whose crates Cargo.toml pins exactly so that it stays
/// the same (tests/seeded_streams.rs pins its first dice).
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

/// Who starts a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameStart {
    /// The opening throw decides, played or rerolled as the rules'
    /// `opening` says.
    #[default]
    OpeningThrow,
    /// This side starts and rolls both dice, with no opening throw: the
    /// rule of a tavli or tabla match, where the winner of a game starts
    /// the next.
    By(Side),
}

impl GameStart {
    /// How the game opens: the opening throw (drawn from `dice`) under
    /// `opts`, or the given starter with no throw.
    pub fn open(self, opts: &RuleOptions, dice: &mut dyn DiceSource) -> Opened {
        match self {
            GameStart::OpeningThrow => open_game(opts, dice),
            GameStart::By(starter) => Opened {
                throws: Vec::new(),
                starter,
                first_roll: None,
            },
        }
    }
}

/// For the generators' tests: the position before each roll of `games`
/// seeded random games of `variant` (game `g` on [`SeededDice`] seeded `g`,
/// each stage's end picked at random by a generator seeded `pick_seed`), at
/// most `max_turns` rolls a game.
#[cfg(test)]
pub(crate) fn random_game_positions(
    variant: super::Variant,
    games: u64,
    pick_seed: u64,
    max_turns: usize,
) -> Vec<super::Position> {
    let opts = RuleOptions::for_variant(variant);
    let mut rng = crate::splitmix::SplitMix::new(pick_seed);
    let mut positions = Vec::new();
    for g in 0..games {
        let mut dice = SeededDice::new(g);
        let mut s = GameState::start_of(variant, Side::White);
        let mut stages = StageGen::new();
        let mut ends = Vec::new();
        for _ in 0..max_turns {
            if s.result().is_some() {
                break;
            }
            positions.push(s.pos);
            let Ok(r) = s.roll(&opts, dice.die(), dice.die()) else {
                break;
            };
            s = r;
            while s.result().is_none() && s.stage_dice().is_some() {
                let Some(stage) = s.stage_dice() else { break };
                let n = stages.generate(&opts, &s, stage, &mut ends);
                let pick = rng.below(ends.len());
                s = s.after_stage(&opts, ends[pick].pos, n);
            }
        }
    }
    positions
}
