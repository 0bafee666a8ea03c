//! Long nardy: Gul bara's board and movement with the head and six-block
//! rules, and doublets that never escalate.
//!
//! Both sides run the same way, as in Gul bara, so the board, the closed
//! points (any opposing checker), bearing off and the must-play rule are the
//! common ones of [`super::movegen`]; this module adds the two restrictions
//! as a [`StepRules`] so the generator stays statically dispatched.

use super::movegen::{MoveGen, StageEnd, StepRules};
use super::options::{HeadFirstTurn, SixBlock};
use super::position::{Checkers, Position};
use super::step::{StageDice, Step};

/// The head: the point every checker starts on.
pub const HEAD: u8 = 24;

/// The long-nardy restrictions for one stage (one turn: nothing escalates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongNardySteps {
    /// How many checkers may leave the head in this turn (1, or 2 on a
    /// first-turn doublet that allows a second).
    pub head_limit: u8,
    /// When the six-block rule is judged.
    pub six_block: SixBlock,
    /// Whether the stage could make a row of six at all
    /// ([`row_of_six_within`]); when it cannot, no end needs the check.
    /// `true` is always safe.
    pub rows_possible: bool,
}

impl Default for LongNardySteps {
    fn default() -> Self {
        LongNardySteps {
            head_limit: 1,
            six_block: SixBlock::EndOfTurn,
            rows_possible: true,
        }
    }
}

impl LongNardySteps {
    /// The restrictions of a turn: `first_turn` when this is the side's
    /// first roll of the game.
    pub fn for_turn(
        pos: Position,
        dice: StageDice,
        first_turn: bool,
        head: HeadFirstTurn,
        six_block: SixBlock,
    ) -> LongNardySteps {
        let mut head_limit = 1;
        if let (true, StageDice::Same { die, count: 4 }) = (first_turn, dice) {
            let second = match head {
                HeadFirstTurn::NeedsSecond => !one_head_checker_plays_four(pos, die),
                HeadFirstTurn::Fixed346 => matches!(die, 3 | 4 | 6),
                HeadFirstTurn::Fixed46 => matches!(die, 4 | 6),
                HeadFirstTurn::AnyDouble => true,
            };
            if second {
                head_limit = 2;
            }
        }
        LongNardySteps {
            head_limit,
            six_block,
            rows_possible: row_of_six_within(pos.own, dice.count(), forbidden_row_starts(pos.opp)),
        }
    }
}

/// Whether a single checker from the head can complete four steps of `die`.
fn one_head_checker_plays_four(pos: Position, die: u8) -> bool {
    if pos.own.at(HEAD) == 0 || HEAD <= 4 * die {
        return false;
    }
    let blocked = pos.blocked();
    (1..=4).all(|k| blocked & (1 << (HEAD - k * die - 1)) == 0)
}

/// Whether `own` could hold, after `steps` more steps, one of the rows of
/// six (in the other side's numbering, as [`has_illegal_block`] and Fevga's
/// starting quarter look at them) that start at the bits of `starts` (bit
/// `i`: points `i + 1..=i + 6`). Each step adds at most one held point, so
/// such a row must already hold `6 - steps`. Judged once per stage, it
/// spares the end-by-end check in most stages.
pub fn row_of_six_within(own: Checkers, steps: u8, starts: u32) -> bool {
    let need = 6u8.saturating_sub(steps);
    let m = own.mask_in_other_numbering();
    let mut s = starts & 0x7_FFFF;
    while s != 0 {
        let i = s.trailing_zeros();
        s &= s - 1;
        if HELD_OF_SIX[((m >> i) & 0x3F) as usize] >= need {
            return true;
        }
    }
    false
}

/// Set bits of each 6-bit number (no `popcnt` on the baseline target).
const HELD_OF_SIX: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The starts of the rows of six that the six-block rule forbids against
/// `opp` (bit `i`: points `i + 1..=i + 6` of `opp`'s numbering): those with
/// no opposing checker below them, none while `opp` has borne one off.
pub fn forbidden_row_starts(opp: Checkers) -> u32 {
    let m = opp.mask();
    if opp.off() > 0 || m == 0 {
        return 0;
    }
    // A row starting at or below `opp`'s lowest checker has none ahead.
    (2u32 << m.trailing_zeros()) - 1
}

/// Whether the mover `own` holds six or more points in a row (along the
/// opponent's path) with no opposing checker of `opp` ahead of them.
pub fn has_illegal_block(own: Checkers, opp: Checkers) -> bool {
    // The mover's points in the opponent's numbering: the opponent runs
    // from its 24 down to its 1, so "ahead" of a block is below it.
    let m = own.mask_in_other_numbering();
    // Bit i set: points i+1..=i+6 all held. The lowest such i starts the
    // lowest row of six or more, the one with the fewest points ahead.
    let rows = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & (m >> 5);
    rows != 0 && rows & forbidden_row_starts(opp) != 0
}

impl StepRules for LongNardySteps {
    #[inline]
    fn allows(&self, start: Checkers, own: Checkers, opp: Checkers, step: Step) -> bool {
        if step.from == HEAD && start.at(HEAD) - own.at(HEAD) >= self.head_limit {
            return false;
        }
        if self.rows_possible && self.six_block == SixBlock::PerStep && step.from > step.die {
            let after = own.moved(step.from, step.to());
            return !has_illegal_block(after, opp);
        }
        true
    }

    #[inline]
    fn any_order(&self) -> bool {
        // Per step, a lower checker moving first can break a row that a
        // higher one's landing would otherwise complete.
        self.six_block == SixBlock::PerStep
    }

    #[inline]
    fn end_allowed(&self, end: Position) -> bool {
        !self.rows_possible || !has_illegal_block(end.own, end.opp)
    }

    #[inline]
    fn by_ends(&self) -> bool {
        // A checker never comes back to the head, so the checkers that left
        // it are the head's loss from start to end; judged at the end of the
        // turn, the six-block rule looks at the end only. Judged per step,
        // it depends on the order.
        self.six_block == SixBlock::EndOfTurn
    }

    #[inline]
    fn leave_24_limit(&self) -> u8 {
        // HEAD is 24: the head rule, as the fast path of equal dice can
        // apply it (the rule judges every step, so also every end).
        self.head_limit
    }

    #[inline]
    fn end_ok(&self, start: Checkers, end: Position) -> bool {
        start.at(HEAD).saturating_sub(end.own.at(HEAD)) <= self.head_limit
            && (!self.rows_possible || !has_illegal_block(end.own, end.opp))
    }
}

/// Convenience: every distinct end of a long-nardy stage and the number of
/// playable dice.
pub fn stage_ends(pos: Position, dice: StageDice, rules: LongNardySteps) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = MoveGen::with_rules(rules).generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{GeneralEnumeration, fast_matches_general};

    fn first(dice: StageDice, head: HeadFirstTurn) -> (Vec<StageEnd>, u8) {
        let r = LongNardySteps::for_turn(Position::START, dice, true, head, SixBlock::EndOfTurn);
        stage_ends(Position::START, dice, r)
    }

    #[test]
    fn whites_opening_doublets() {
        for head in [HeadFirstTurn::NeedsSecond, HeadFirstTurn::Fixed346] {
            let same = |die| StageDice::Same { die, count: 4 };
            let (e, n) = first(same(1), head);
            assert_eq!((e.len(), n, e[0].pos.own.at(20)), (1, 4, 1));
            let (e, n) = first(same(2), head);
            assert_eq!((e.len(), n, e[0].pos.own.at(16)), (1, 4, 1));
            let (e, n) = first(same(5), head);
            assert_eq!((e.len(), n, e[0].pos.own.at(4)), (1, 4, 1));
            let (e, n) = first(same(4), head);
            assert_eq!((e.len(), n, e[0].pos.own.at(16)), (1, 4, 2));
            let (e, n) = first(same(6), head);
            assert_eq!((e.len(), n, e[0].pos.own.at(18)), (1, 2, 2));
            let (e, n) = first(same(3), head);
            assert_eq!((e.len(), n), (2, 4));
            for a in 1..=6 {
                for b in 1..a {
                    let (e, n) = first(StageDice::Pair(a, b), head);
                    assert_eq!((e.len(), n), (1, 2), "{a}{b}");
                    assert_eq!(e[0].pos.own.at(HEAD), 14);
                }
            }
        }
    }

    /// The fast paths give exactly the general enumeration's ends, in the
    /// same order with the same plays, and the same number of dice, on
    /// positions of seeded random long-nardy games, for every roll, with
    /// and without the first turn's second head checker.
    #[test]
    fn fast_paths_equal_the_general_enumeration() {
        let positions = crate::rules::dice::random_game_positions(
            crate::rules::Variant::LongNardy,
            60,
            17,
            400,
        );
        assert!(positions.len() > 3000, "{}", positions.len());
        let mut rolls: Vec<StageDice> = Vec::new();
        for a in 1..=6u8 {
            for b in 1..a {
                rolls.push(StageDice::Pair(a, b));
            }
            rolls.push(StageDice::Same { die: a, count: 4 });
        }
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for pos in &positions {
            for &dice in &rolls {
                for first_turn in [false, true] {
                    let rules = LongNardySteps::for_turn(
                        *pos,
                        dice,
                        first_turn,
                        HeadFirstTurn::NeedsSecond,
                        SixBlock::EndOfTurn,
                    );
                    let mut g = MoveGen::with_rules(rules);
                    fast_matches_general(&mut g, *pos, dice, &mut fast, &mut general);
                    checked += fast.len();
                }
            }
        }
        assert!(checked > 100_000, "{checked} ends checked");
    }

    /// A random long-nardy race (every checker of each side in the second
    /// half of its path, its points 1..=12, so neither can block the
    /// other): each side has a random number borne off and the rest on its
    /// points 1..=12, with `home` percent of them in its home (1..=6).
    fn random_race(rng: &mut crate::splitmix::SplitMix, home: usize) -> Position {
        let side = |rng: &mut crate::splitmix::SplitMix| {
            let mut counts = [0u8; 24];
            let off = rng.below(15);
            for _ in off..15 {
                let p = if rng.below(100) < home {
                    rng.below(6)
                } else {
                    rng.below(12)
                };
                counts[p] += 1;
            }
            Checkers::from_counts(&counts).expect("15 checkers at most")
        };
        let own = side(rng);
        let opp = side(rng);
        Position { own, opp }
    }

    /// Races and bear-offs: the fast paths (the bear-off ones included)
    /// give exactly the general enumeration's ends, in the same order with
    /// the same plays and the same number of dice, on 3,000 random race
    /// positions with every roll (also as a stage of 1..=3 equal dice).
    #[test]
    fn race_fast_paths_equal_the_general_enumeration() {
        let mut rng = crate::splitmix::SplitMix::new(0x7261_6365);
        let mut rolls: Vec<StageDice> = Vec::new();
        for a in 1..=6u8 {
            for b in 1..a {
                rolls.push(StageDice::Pair(a, b));
            }
            for count in 1..=4 {
                rolls.push(StageDice::Same { die: a, count });
            }
        }
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        // Stages that could bear off; of those, stages with a checker borne
        // off by a higher die than its point, and with a play of several
        // dice that bears off the last checker in fewer steps.
        let (mut bearoff, mut higher, mut finished) = (0, 0, 0);
        for i in 0..3_000 {
            let pos = random_race(&mut rng, [50, 80, 95, 100][i % 4]);
            assert_eq!(pos.blocked() & pos.own.mask(), 0);
            for &dice in &rolls {
                let rules = LongNardySteps::for_turn(
                    pos,
                    dice,
                    false,
                    HeadFirstTurn::NeedsSecond,
                    SixBlock::EndOfTurn,
                );
                let mut g = MoveGen::with_rules(rules);
                let n_fast = fast_matches_general(&mut g, pos, dice, &mut fast, &mut general);
                let far: u32 = (7..=24).map(|p| u32::from(pos.own.at(p))).sum();
                if !pos.is_over() && far < u32::from(dice.count()) {
                    bearoff += 1;
                    higher += usize::from(
                        fast.iter()
                            .any(|e| e.play.steps().iter().any(|s| s.die > s.from)),
                    );
                    finished += usize::from(
                        fast[0].pos.own.off() == 15 && fast[0].play.len() < usize::from(n_fast),
                    );
                }
            }
        }
        assert!(
            bearoff > 20_000 && higher > 5_000 && finished > 1_000,
            "{bearoff} bear-off stages, {higher} with a higher die, {finished} finished early"
        );
    }

    /// Whenever some play of a stage ends with six in a row, the check
    /// made once before the stage said one was possible.
    #[test]
    fn rows_of_six_are_foreseen_before_the_stage() {
        let positions = crate::rules::dice::random_game_positions(
            crate::rules::Variant::LongNardy,
            100,
            23,
            400,
        );
        let six = |c: Checkers| {
            let m = c.mask_in_other_numbering();
            m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & (m >> 5) != 0
        };
        let (mut rows, mut spared) = (0, 0);
        for pos in &positions {
            for a in 1..=6u8 {
                for b in 1..=a {
                    let dice = if a == b {
                        StageDice::Same { die: a, count: 4 }
                    } else {
                        StageDice::Pair(a, b)
                    };
                    let n = dice.count();
                    let possible = row_of_six_within(pos.own, n, 0x7_FFFF);
                    let forbidden = forbidden_row_starts(pos.opp);
                    let possible_illegal = row_of_six_within(pos.own, n, forbidden);
                    // Gul bara's moves: long nardy's without its restrictions.
                    let mut g = MoveGen::new();
                    let mut out = Vec::new();
                    g.generate_general(*pos, dice, &mut out);
                    let made = out.iter().any(|e| six(e.pos.own));
                    assert!(possible || !made, "{pos:?} {dice:?}");
                    let illegal = out.iter().any(|e| has_illegal_block(e.pos.own, e.pos.opp));
                    assert!(possible_illegal || !illegal, "{pos:?} {dice:?}");
                    rows += usize::from(illegal);
                    spared += usize::from(!possible_illegal);
                }
            }
        }
        assert!(
            rows > 30 && spared > 1000,
            "{rows} rows, {spared} stages spared"
        );
    }

    #[test]
    fn six_in_a_row_needs_an_opponent_ahead() {
        // The mover on its 1..6 (the opponent's 13..18): a block of six.
        let mut own = [0u8; 24];
        own[..6].fill(1);
        own[23] = 9;
        let own = Checkers::from_counts(&own).unwrap();
        let mut opp = [0u8; 24];
        opp[23] = 15;
        let behind = Checkers::from_counts(&opp).unwrap();
        assert!(has_illegal_block(own, behind));
        // One opposing checker on its 5 (past the block): legal.
        opp[23] = 14;
        opp[4] = 1;
        let ahead = Checkers::from_counts(&opp).unwrap();
        assert!(!has_illegal_block(own, ahead));
        // One borne off counts as ahead.
        opp[4] = 0;
        let off = Checkers::from_counts(&opp).unwrap();
        assert!(!has_illegal_block(own, off));
        // A gap breaks the row (the head on 24 continues the mover's 1 for the opponent).
        let five = own.moved(3, 0);
        assert!(!has_illegal_block(five, behind));
    }
}
