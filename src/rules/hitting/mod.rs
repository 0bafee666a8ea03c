//! Stage generation for the hitting games (short nardy, backgammon).
//!
//! The sides run in opposite directions: each keeps its checkers in its own
//! numbering (24 → 1, home 1–6, [`BAR`] the bar), and the mover's point `p` is
//! the opponent's point `25 − p`. A point with two or more opposing checkers
//! is closed; landing on a single one (a blot) sends it to the bar. A side
//! with checkers on the bar enters them all (die `d` on its point `25 − d`)
//! before anything else moves. Bearing off and the must-play rule are as in
//! the other games of the family; a play that bears off the last checker has
//! played the dice it used, no more, so a play that uses more dice comes
//! first (gnubg's rule: with 2-1 and a last checker on the 2, an opposing blot
//! on the 1 must be hit on the way off, 2/1*/off, not passed by 2/off).
//!
//! Equal dice are enumerated with non-increasing sources (the bar first), the
//! most permissive order; every multiset of steps then has one order and its
//! own end, bearing off included (see `same_general`), so no hash set is needed.
//! Two different dice that may bear off go through a set of end keys: the
//! mover's checkers plus the mask of points hit.

use super::movegen::{
    Downward, EndSet, Longest, StageEnd, delta, equal_dice, highest, one_die_ends, open_for,
    outside_at_least, play2, up_to,
};
use super::position::{BAR, CHECKERS, Checkers, HOME_MASK, Position};
use super::state::StepProblem;
use super::step::{Play, StageDice, Step};

mod fast;

use fast::*;

/// The mover's point `p` in the opponent's numbering (and back).
#[inline(always)]
pub const fn mirrored(p: u8) -> u8 {
    25 - p
}

/// Reverses the low 24 bits: a mask in one side's numbering (bit `p − 1`
/// for point `p`) turned into the other's.
#[inline(always)]
pub const fn mirror_mask(m: u32) -> u32 {
    (m << 8).reverse_bits() & 0xFF_FFFF
}

/// Points (mover's numbering, bit `p − 1`) the opponent holds with two or more.
#[inline]
pub fn closed_points(pos: Position) -> u32 {
    mirror_mask(at_least_two(pos.opp))
}

/// Points (mover's numbering) where the opponent has a blot.
#[inline]
pub fn blot_points(pos: Position) -> u32 {
    mirror_mask(pos.opp.mask() & !at_least_two(pos.opp))
}

/// Mask (own numbering) of the points holding two or more checkers.
#[inline]
fn at_least_two(c: Checkers) -> u32 {
    // A nibble n >= 2 has bit 1, 2 or 3 set.
    let x = c.0 >> 4;
    let x = (x >> 1) | (x >> 2) | (x >> 3);
    Checkers((x & 0x1111_1111_1111_1111_1111_1111u128) << 4).mask()
}

/// Why a single step is not legal in a hitting game, or `None` when it is.
pub fn step_problem(pos: Position, step: Step) -> Option<StepProblem> {
    let own = pos.own;
    if !(1..=6).contains(&step.die) {
        return Some(StepProblem::NoSuchDie { die: step.die });
    }
    if own.bar() > 0 && step.from != BAR {
        return Some(StepProblem::BarFirst);
    }
    if step.from == 0 || step.from > BAR || own.at(step.from) == 0 {
        return Some(if step.from == BAR {
            StepProblem::NoneOnBar
        } else {
            StepProblem::NoChecker { from: step.from }
        });
    }
    if step.from > step.die {
        let to = step.from - step.die;
        if closed_points(pos) & (1 << (to - 1)) != 0 {
            return Some(StepProblem::Closed { to });
        }
        return None;
    }
    let occ = own.mask();
    if occ & !HOME_MASK != 0 {
        return Some(StepProblem::NotAllHome);
    }
    if step.from != step.die && occ >> step.from != 0 {
        return Some(StepProblem::HigherChecker {
            die: step.die,
            from: step.from,
        });
    }
    None
}

/// Plays one step known to be legal: moves the checker, and a blot it lands
/// on to the opponent's bar.
pub fn apply_step(pos: Position, step: Step) -> Position {
    let to = step.from.saturating_sub(step.die);
    let mut next = pos;
    next.own = pos.own.moved(step.from, to);
    if to > 0 && pos.opp.at(mirrored(to)) == 1 {
        next.opp = pos.opp.moved(mirrored(to), BAR);
    }
    next
}

/// Whether `step` hits a blot when played in `pos`.
pub fn step_hits(pos: Position, step: Step) -> bool {
    let to = step.from.saturating_sub(step.die);
    to > 0 && pos.opp.at(mirrored(to)) == 1
}

/// Reusable stage generator for the hitting games.
#[derive(Default)]
pub struct HitGen {
    seen: EndSet,
    dedupe: bool,
    max_used: u8,
    own: Checkers,
    opp: Checkers,
    occ: u32,
    closed: u32,
    blots: u32,
    hits: u32,
    play: Play,
    /// Tests only: skip the fast paths.
    general_only: bool,
}

impl HitGen {
    /// A new generator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills `out` with every distinct end of the stage and returns the
    /// number of dice each legal play uses (a play that bears off the last
    /// checker counts as using them all, as in the other games; it is
    /// weighed against the others by the dice it played). With nothing
    /// playable, `out` holds the single unchanged position with the empty
    /// play.
    pub fn generate(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        let used = self.generate_plays(pos, dice, out);
        let all = dice.count().min(4);
        // Only plays short of the dice can have borne the last checker off:
        // the ends are looked at then alone, off the hot path.
        if used > 0 && used < all && out.iter().all(|e| e.pos.own.off() == CHECKERS) {
            all
        } else {
            used
        }
    }

    /// [`HitGen::generate`], returning the dice the longest plays played.
    fn generate_plays(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        if super::movegen::game_over_stage(pos, out) {
            return 0;
        }
        self.own = pos.own;
        self.opp = pos.opp;
        self.occ = pos.own.mask();
        self.closed = closed_points(pos);
        self.blots = blot_points(pos);
        let at = HitMasked {
            pos,
            occ: self.occ,
            closed: self.closed,
            blots: self.blots,
        };
        self.hits = 0;
        self.play = Play::EMPTY;
        self.max_used = 0;
        self.seen.clear();
        match dice {
            StageDice::Pair(a, b) if (1..=6).contains(&a) && (1..=6).contains(&b) => {
                let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
                if !self.general_only
                    && hi != lo
                    && pos.own.bar() == 0
                    && outside_at_least(pos.own, self.occ, 2)
                {
                    return pair_no_bearoff(at, hi, lo, out);
                }
                if !self.general_only {
                    return pair_general(at, hi, lo, &mut self.seen, out);
                }
                self.dedupe = true;
                self.pair(hi, lo, out);
                if hi != lo {
                    self.pair(lo, hi, out);
                }
                if self.max_used == 1 {
                    // Only one die fits: the larger must be played if it can.
                    if out.iter().any(|e| e.play.steps()[0].die == hi) {
                        out.retain(|e| e.play.steps()[0].die == hi);
                    }
                }
            }
            StageDice::Same { die, count } if (1..=6).contains(&die) && count > 0 => {
                let count = count.min(4);
                if !self.general_only {
                    if pos.own.bar() == 0 {
                        if outside_at_least(pos.own, self.occ, count) {
                            let s = (pos.own.0, self.occ, pos.opp.0, self.blots);
                            let used = same_no_bearoff(s, 0, self.closed, die, count, out);
                            if used == 0 {
                                out.push(StageEnd::stay(pos));
                            }
                            return used;
                        }
                        if (self.closed | self.blots) & up_to(highest(self.occ)) == 0 {
                            let used = same_race(pos, self.occ, die, count, out);
                            if used == 0 {
                                out.push(StageEnd::stay(pos));
                            }
                            return used;
                        }
                    } else if let Some(used) = same_from_bar(at, die, count, out) {
                        return used;
                    }
                }
                if !self.general_only {
                    return same_general(at, die, count, out);
                }
                self.dedupe = !far_from_home(pos.own, count);
                self.same(die, count, BAR, out);
            }
            _ => {}
        }
        if out.is_empty() {
            out.push(StageEnd::stay(pos));
        }
        self.max_used
    }

    /// The sources the next step may use: the bar while it holds a checker.
    #[inline(always)]
    fn sources(&self) -> u32 {
        if self.own.bar() > 0 {
            1 << (BAR - 1)
        } else {
            self.occ
        }
    }

    #[inline(always)]
    fn can(&self, from: u8, die: u8) -> bool {
        if from > die {
            self.closed & (1 << (from - die - 1)) == 0
        } else {
            from != BAR
                && self.own.bar() == 0
                && self.occ & !HOME_MASK == 0
                && (from == die || self.occ >> from == 0)
        }
    }

    #[inline(always)]
    fn apply(&mut self, from: u8, die: u8) -> (Checkers, Checkers, u32, u32, u32) {
        let saved = (self.own, self.opp, self.occ, self.blots, self.hits);
        let to = from.saturating_sub(die);
        self.own = self.own.moved(from, to);
        if from != BAR && self.own.at(from) == 0 {
            self.occ &= !(1 << (from - 1));
        }
        if to > 0 {
            let bit = 1 << (to - 1);
            self.occ |= bit;
            if self.blots & bit != 0 {
                self.blots &= !bit;
                self.hits |= bit;
                self.opp = self.opp.moved(mirrored(to), BAR);
            }
        }
        self.play.push(Step::new(from, die));
        saved
    }

    #[inline(always)]
    fn undo(&mut self, saved: (Checkers, Checkers, u32, u32, u32)) {
        (self.own, self.opp, self.occ, self.blots, self.hits) = saved;
        self.play.pop();
    }

    #[inline(always)]
    fn record(&mut self, used: u8, out: &mut Vec<StageEnd>) {
        if used < self.max_used {
            return;
        }
        if used > self.max_used {
            self.max_used = used;
            out.clear();
            self.seen.clear();
        }
        // Bits 104.. of the packed checkers are unused: the hits go there.
        if !self.dedupe
            || self
                .seen
                .insert(self.own.0 | (u128::from(self.hits) << 104))
        {
            out.push(StageEnd {
                pos: Position {
                    own: self.own,
                    opp: self.opp,
                },
                play: self.play,
            });
        }
    }

    /// Plays `first` then `second`.
    fn pair(&mut self, first: u8, second: u8, out: &mut Vec<StageEnd>) {
        let froms = self.sources();
        for from in Downward(froms) {
            if !self.can(from, first) {
                continue;
            }
            let saved = self.apply(from, first);
            if self.own.off() == CHECKERS {
                // The last checker is off with one die: one die played, so
                // a play that uses both (say, hitting on the way off) goes
                // first, as gnubg has it.
                self.record(1, out);
            } else {
                let mut any = false;
                let mut seconds = self.sources();
                while seconds != 0 {
                    let from2 = 32 - seconds.leading_zeros() as u8;
                    seconds &= !(1 << (from2 - 1));
                    if self.can(from2, second) {
                        let saved2 = self.apply(from2, second);
                        self.record(2, out);
                        self.undo(saved2);
                        any = true;
                    }
                }
                if !any {
                    self.record(1, out);
                }
            }
            self.undo(saved);
        }
    }

    /// Plays up to `left` more dice of `die`, sources at or below `top`.
    fn same(&mut self, die: u8, left: u8, top: u8, out: &mut Vec<StageEnd>) {
        let used = self.play.len() as u8;
        let froms = self.sources() & (u32::MAX >> (32 - u32::from(top)));
        let mut any = false;
        for from in Downward(froms) {
            if !self.can(from, die) {
                continue;
            }
            any = true;
            let saved = self.apply(from, die);
            if left == 1 || self.own.off() == CHECKERS {
                // The dice actually played, the last checker off or not.
                self.record(used + 1, out);
            } else {
                self.same(die, left - 1, from, out);
            }
            self.undo(saved);
        }
        if !any && used > 0 {
            self.record(used, out);
        }
    }
}

/// The standard start of the hitting games, either side to move.
pub const START: Position = {
    // 2 on 24, 5 on 13, 3 on 8, 5 on 6, in each side's own numbering.
    let c = Checkers(
        (2u128 << (4 * 24)) | (5u128 << (4 * 13)) | (3u128 << (4 * 8)) | (5u128 << (4 * 6)),
    );
    Position { own: c, opp: c }
};

/// Convenience: every distinct end of a stage and the number of playable dice.
pub fn stage_ends(pos: Position, dice: StageDice) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = HitGen::new().generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests;
