//! Helpers the rules' unit tests share: seeded positions and the check
//! that a generator's fast paths agree with its general enumeration.

use super::movegen::{MoveGen, StageEnd, StepRules, game_over_stage};
use super::position::{Checkers, Position};
use super::step::StageDice;

/// The next number below `n` of a 64-bit linear congruential generator
/// (Knuth's MMIX constants), advancing `seed`.
pub(crate) fn below(seed: &mut u64, n: u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 33) % n
}

/// One side's checkers from `(point, count)` pairs, the rest borne off.
pub(crate) fn at(points: &[(u8, u8)]) -> Checkers {
    let mut c = [0u8; 24];
    for &(p, n) in points {
        c[p as usize - 1] = n;
    }
    Checkers::from_counts(&c).unwrap()
}

/// A stage generator with fast paths and the general enumeration that
/// tests check them against.
pub(crate) trait GeneralEnumeration {
    /// The general enumeration alone of a stage in a game not over, `out`
    /// cleared.
    fn general_stage(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8;

    /// The generator's `generate` by the general enumeration alone.
    fn generate_general(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        if game_over_stage(pos, out) {
            return 0;
        }
        self.general_stage(pos, dice, out)
    }
}

/// Generates the stage of `dice` in `pos` by `g`'s fast paths into `fast`
/// and by its general enumeration into `general`, asserts that both give
/// the same ends in the same order with the same plays and dice, and
/// returns the number of dice played.
pub(crate) fn fast_matches_general<R: StepRules>(
    g: &mut MoveGen<R>,
    pos: Position,
    dice: StageDice,
    fast: &mut Vec<StageEnd>,
    general: &mut Vec<StageEnd>,
) -> u8 {
    let n_fast = g.generate(pos, dice, fast);
    let n_general = g.generate_general(pos, dice, general);
    assert_eq!(n_fast, n_general, "{pos:?} {dice:?}");
    assert_eq!(fast, general, "{pos:?} {dice:?}");
    n_fast
}
