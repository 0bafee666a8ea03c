//! Legal-play generation for one stage.
//!
//! A stage is judged on its own: as many of its dice as possible must be
//! played; with two different dice of which only one can be played, the
//! larger must be played if it can be. A step that bears off the last checker
//! ends the game and the play counts as complete. The generator returns every
//! distinct end position once, each with one play that reaches it, plus the
//! number of dice every legal play uses.
//!
//! Equal dice are enumerated with non-increasing source points: every
//! multiset of steps has exactly one such order, that order is the most
//! permissive one (checkers come home and leave higher points as early as
//! possible), so each end is reached once up to bear-off coincidences, which a
//! hash set removes. Rule sets of the same family can restrict single steps
//! through [`StepRules`] without touching the enumeration.

use super::position::{Checkers, HOME_MASK, Position};
use super::step::{Play, StageDice, Step};

/// Extra restrictions a rule set places on single steps (head rule, six-block
/// rule of other tables games). Gul bara has none.
pub trait StepRules {
    /// Whether the mover, with checkers `own` and blocked points `blocked`,
    /// may play `step` (already known to be legal under the common rules).
    #[inline]
    fn allows(&self, _own: Checkers, _blocked: u32, _step: Step) -> bool {
        true
    }
}

/// Gul bara: no restrictions beyond the common ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct GulBaraSteps;
impl StepRules for GulBaraSteps {}

/// One distinct end of a stage with a play that reaches it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StageEnd {
    /// The position after the play, still seen by the mover.
    pub pos: Position,
    /// One play reaching it.
    pub play: Play,
}

/// Whether a single step is legal in `pos` for the mover.
#[inline]
pub fn step_is_legal(pos: Position, step: Step) -> bool {
    let occ = pos.own.mask();
    step_ok(occ, pos.blocked(), step.from, step.die)
}

#[inline(always)]
fn step_ok(occ: u32, blocked: u32, from: u8, die: u8) -> bool {
    if from == 0 || from > 24 || occ & (1 << (from - 1)) == 0 {
        return false;
    }
    if from > die {
        blocked & (1 << (from - die - 1)) == 0
    } else {
        // Bearing off: everything home, and a higher die only from the
        // highest occupied point.
        occ & !HOME_MASK == 0 && (from == die || occ >> from == 0)
    }
}

/// Open-addressing set of end keys, cleared in O(1) by bumping a stamp.
#[derive(Default)]
struct EndSet {
    slots: Vec<(u128, u32)>,
    stamp: u32,
    len: usize,
}

impl EndSet {
    fn clear(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![(0, 0); 256];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| s.1 = 0);
            self.stamp = 1;
        }
        self.len = 0;
    }

    #[inline(always)]
    fn hash(key: u128) -> usize {
        let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
    }

    /// Inserts `key`; false when it was already there.
    #[inline]
    fn insert(&mut self, key: u128) -> bool {
        if self.len * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::hash(key) & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.1 != self.stamp {
                *slot = (key, self.stamp);
                self.len += 1;
                return true;
            }
            if slot.0 == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let stamp = self.stamp;
        self.slots = vec![(0, 0); old.len() * 2];
        self.len = 0;
        for (k, s) in old {
            if s == stamp {
                self.insert(k);
            }
        }
    }
}

/// Reusable stage generator (keeps its buffers between calls).
#[derive(Default)]
pub struct MoveGen<R: StepRules = GulBaraSteps> {
    rules: R,
    seen: EndSet,
    max_used: u8,
    // Working state of the current enumeration.
    own: Checkers,
    occ: u32,
    blocked: u32,
    opp: Checkers,
    play: Play,
}

impl MoveGen<GulBaraSteps> {
    /// A generator for Gul bara.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<R: StepRules> MoveGen<R> {
    /// A generator for another rule set.
    pub fn with_rules(rules: R) -> Self {
        MoveGen {
            rules,
            seen: EndSet::default(),
            max_used: 0,
            own: Checkers::default(),
            occ: 0,
            blocked: 0,
            opp: Checkers::default(),
            play: Play::EMPTY,
        }
    }

    /// Fills `out` with every distinct end of the stage and returns the
    /// number of dice each legal play uses. With nothing playable, `out`
    /// holds the single unchanged position with the empty play.
    pub fn generate(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        out.clear();
        self.seen.clear();
        self.max_used = 0;
        self.own = pos.own;
        self.opp = pos.opp;
        self.occ = pos.own.mask();
        self.blocked = pos.blocked();
        self.play = Play::EMPTY;
        if pos.is_over() {
            out.push(StageEnd {
                pos,
                play: Play::EMPTY,
            });
            return 0;
        }
        match dice {
            StageDice::Pair(a, b) => {
                let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
                self.pair(hi, lo, out);
                self.pair(lo, hi, out);
                if self.max_used == 1 {
                    // Only one die fits: the larger must be played if it can.
                    let has_hi = out.iter().any(|e| e.play.steps()[0].die == hi);
                    if has_hi {
                        out.retain(|e| e.play.steps()[0].die == hi);
                    }
                }
            }
            StageDice::Same { die, count } => {
                self.same(die, count.min(4), 24, out);
            }
        }
        if out.is_empty() {
            out.push(StageEnd {
                pos,
                play: Play::EMPTY,
            });
        }
        self.max_used
    }

    #[inline(always)]
    fn can(&self, from: u8, die: u8) -> bool {
        step_ok(self.occ, self.blocked, from, die)
            && self
                .rules
                .allows(self.own, self.blocked, Step::new(from, die))
    }

    #[inline(always)]
    fn apply(&mut self, from: u8, die: u8) -> (Checkers, u32) {
        let saved = (self.own, self.occ);
        let to = from.saturating_sub(die);
        self.own = self.own.moved(from, to);
        if self.own.at(from) == 0 {
            self.occ &= !(1 << (from - 1));
        }
        if to > 0 {
            self.occ |= 1 << (to - 1);
        }
        self.play.push(Step::new(from, die));
        saved
    }

    #[inline(always)]
    fn undo(&mut self, saved: (Checkers, u32)) {
        self.own = saved.0;
        self.occ = saved.1;
        self.play.pop();
    }

    /// Records the current end, used by a play of `used` dice.
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
        if self.seen.insert(self.own.0) {
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
        let mut froms = self.occ;
        while froms != 0 {
            let from = 32 - froms.leading_zeros() as u8;
            froms &= !(1 << (from - 1));
            if !self.can(from, first) {
                continue;
            }
            let saved = self.apply(from, first);
            if self.occ == 0 {
                self.record(2, out);
            } else {
                let mut any = false;
                let mut seconds = self.occ;
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
        let mut froms = self.occ & (u32::MAX >> (32 - top as u32));
        let mut any = false;
        while froms != 0 {
            let from = 24 - (froms << 8).leading_zeros() as u8;
            froms &= !(1 << (from - 1));
            if !self.can(from, die) {
                continue;
            }
            any = true;
            let saved = self.apply(from, die);
            if self.occ == 0 || left == 1 {
                // Finished the stage, or bore off the last checker.
                let full = used + left;
                self.record(full, out);
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

/// Convenience: every distinct end of a stage and the number of playable dice.
pub fn stage_ends(pos: Position, dice: StageDice) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = MoveGen::new().generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos_from(own: &[(u8, u8)], opp_white_view: &[(u8, u8)]) -> Position {
        let mut o = [0u8; 24];
        for &(p, n) in own {
            o[p as usize - 1] = n;
        }
        let mut b = [0u8; 24];
        for &(p, n) in opp_white_view {
            let q = super::super::position::other_numbering(p);
            b[q as usize - 1] = n;
        }
        Position {
            own: Checkers::from_counts(&o).unwrap(),
            opp: Checkers::from_counts(&b).unwrap(),
        }
    }

    #[test]
    fn start_65_has_two_ends() {
        let (ends, n) = stage_ends(Position::START, StageDice::Pair(6, 5));
        assert_eq!(n, 2);
        // 24/18 24/19, or 24/18/13 (the 24/19/13 path reaches the same end).
        assert_eq!(ends.len(), 2);
    }

    #[test]
    fn start_66_blocked_at_12() {
        let (ends, n) = stage_ends(Position::START, StageDice::Same { die: 6, count: 4 });
        assert_eq!(n, 4);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos.own.at(18), 4);
    }

    #[test]
    fn larger_die_when_only_one_fits() {
        // A lone checker on 13 (the rest borne off), the opponent on 2:
        // 13/7/2 and 13/8/2 both end on the closed point, so one die only,
        // and it must be the 6.
        let p = pos_from(&[(13, 1)], &[(2, 1)]);
        let (ends, n) = stage_ends(p, StageDice::Pair(6, 5));
        assert_eq!(n, 1);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos.own.at(7), 1);
        assert_eq!(ends[0].play.steps(), &[Step::new(13, 6)]);
    }

    #[test]
    fn bear_off_last_checker_counts_as_full() {
        let p = pos_from(&[(2, 1)], &[(20, 1)]);
        let (ends, n) = stage_ends(p, StageDice::Pair(6, 5));
        assert_eq!(n, 2);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos.own.off(), 15);
        assert_eq!(ends[0].play.len(), 1);
    }
}
