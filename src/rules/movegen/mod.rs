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

mod fast;

pub(crate) use fast::{
    Downward, Longest, Masked, SameLimits, delta, equal_dice, fast_paths, highest, legal_sources,
    one_die_ends, open_for, outside_at_least, play2, step_any, up_to,
};

/// Extra restrictions a rule set places on single steps and on the ends of
/// a stage (the head and six-block rules of long nardy). Gul bara has none.
pub trait StepRules {
    /// True when the rule set never forbids a step or an end (both methods
    /// always true), which lets the generator use its fast paths.
    const UNRESTRICTED: bool = false;

    /// Whether the mover, whose checkers were `start` when the stage began
    /// and are `own` now, with blocked points `blocked` and the opponent's
    /// checkers `opp`, may play `step` (already known to be legal under the
    /// common rules).
    #[inline]
    fn allows(&self, _start: Checkers, _own: Checkers, _opp: Checkers, _step: Step) -> bool {
        true
    }

    /// Whether equal dice must be tried in every order of their sources
    /// (a restriction on each landing can make the usual non-increasing
    /// order miss a play); repeated ends are removed by the end set.
    #[inline]
    fn any_order(&self) -> bool {
        false
    }

    /// Whether a play may end the stage at `end` (the mover's view).
    #[inline]
    fn end_allowed(&self, _end: Position) -> bool {
        true
    }

    /// Whether every restriction of the stage depends only on where it
    /// starts and where it ends, never on the order or the choice of steps
    /// that get there ([`StepRules::end_ok`] then says it all): the fast
    /// paths then run, their ends filtered.
    #[inline]
    fn by_ends(&self) -> bool {
        false
    }

    /// With [`StepRules::by_ends`]: whether a play of the stage that began
    /// with the mover's checkers `start` may end at `end`.
    #[inline]
    fn end_ok(&self, _start: Checkers, _end: Position) -> bool {
        true
    }

    /// With [`StepRules::by_ends`]: the most checkers a play may move off
    /// point 24 (long nardy's head). The fast path of equal dice then leaves
    /// out the plays that move more, so that the longest plays it finds are
    /// the longest of those the limit allows; 4 (or more) when there is no
    /// such limit.
    #[inline]
    fn leave_24_limit(&self) -> u8 {
        4
    }
}

/// Gul bara: no restrictions beyond the common ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct GulBaraSteps;
impl StepRules for GulBaraSteps {
    const UNRESTRICTED: bool = true;
}

/// One distinct end of a stage with a play that reaches it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StageEnd {
    /// The position after the play, still seen by the mover.
    pub pos: Position,
    /// One play reaching it.
    pub play: Play,
}

impl StageEnd {
    /// The end of a stage that plays nothing: the position as it stands.
    #[inline(always)]
    pub const fn stay(pos: Position) -> StageEnd {
        StageEnd {
            pos,
            play: Play::EMPTY,
        }
    }
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
pub(crate) struct EndSet {
    slots: Vec<(u128, u32)>,
    stamp: u32,
    len: usize,
}

impl EndSet {
    pub(crate) fn clear(&mut self) {
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
    pub(crate) fn insert(&mut self, key: u128) -> bool {
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
    start: Checkers,
    own: Checkers,
    occ: u32,
    blocked: u32,
    opp: Checkers,
    play: Play,
    /// The rule set's restrictions are set aside (an enumeration whose ends
    /// are filtered afterwards: [`StepRules::by_ends`]).
    free: bool,
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
            start: Checkers::default(),
            own: Checkers::default(),
            occ: 0,
            blocked: 0,
            opp: Checkers::default(),
            play: Play::EMPTY,
            free: false,
        }
    }

    /// Replaces the rule set's restrictions (e.g. for the next turn).
    pub fn set_rules(&mut self, rules: R) {
        self.rules = rules;
    }

    /// Fills `out` with every distinct end of the stage and returns the
    /// number of dice each legal play uses. With nothing playable, `out`
    /// holds the single unchanged position with the empty play.
    pub fn generate(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        if game_over_stage(pos, out) {
            return 0;
        }
        let occ = pos.own.mask();
        let blocked = pos.blocked();
        let at = Masked { pos, occ, blocked };
        if !R::UNRESTRICTED && self.rules.by_ends() {
            // The restrictions judge ends only, so every play to an end is
            // allowed or none is. The longest plays without the
            // restrictions (the fast paths, or where a checker could bear
            // off the general enumeration set free), those with an allowed
            // end kept, are then the legal plays whenever one is left, in
            // the same order with the same plays; otherwise only shorter
            // plays are allowed, and the restricted enumeration finds them.
            let from_24 = self.rules.leave_24_limit();
            let fast = match dice {
                StageDice::Same { count, .. } if from_24 < count.min(4) => {
                    let limits = SameLimits { stop: 0, from_24 };
                    fast_paths::<true, true>(at, dice, limits, out)
                }
                _ => fast_paths::<false, true>(at, dice, SameLimits::NONE, out),
            };
            let used = match fast {
                Some(used) => used,
                None => {
                    self.free = true;
                    let used = self.general(pos, occ, blocked, dice, out);
                    self.free = false;
                    used
                }
            };
            let start = pos.own;
            out.retain(|e| self.rules.end_ok(start, e.pos));
            if !out.is_empty() {
                return used;
            }
            return self.general(pos, occ, blocked, dice, out);
        }
        if R::UNRESTRICTED
            && let Some(used) = fast_paths::<false, true>(at, dice, SameLimits::NONE, out)
        {
            return used;
        }
        self.general(pos, occ, blocked, dice, out)
    }
}

#[cfg(test)]
impl<R: StepRules> crate::rules::testing::GeneralEnumeration for MoveGen<R> {
    fn general_stage(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        self.general(pos, pos.own.mask(), pos.blocked(), dice, out)
    }
}

/// Clears `out` and, when the game is over in `pos`, leaves in it the one
/// end of a stage with nothing to play: `pos` by the empty play.
#[inline(always)]
pub(crate) fn game_over_stage(pos: Position, out: &mut Vec<StageEnd>) -> bool {
    out.clear();
    if pos.is_over() {
        out.push(StageEnd::stay(pos));
        return true;
    }
    false
}

impl<R: StepRules> MoveGen<R> {
    /// The general enumeration (any rule set, bearing off, one-die plays),
    /// removing repeated ends with a hash set.
    fn general(
        &mut self,
        pos: Position,
        occ: u32,
        blocked: u32,
        dice: StageDice,
        out: &mut Vec<StageEnd>,
    ) -> u8 {
        out.clear();
        self.seen.clear();
        self.max_used = 0;
        self.start = pos.own;
        self.own = pos.own;
        self.opp = pos.opp;
        self.occ = occ;
        self.blocked = blocked;
        self.play = Play::EMPTY;
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
                if R::UNRESTRICTED || self.free {
                    self.same::<true>(die, count.min(4), 24, out);
                } else {
                    self.same::<false>(die, count.min(4), 24, out);
                }
            }
        }
        if out.is_empty() {
            out.push(StageEnd::stay(pos));
        }
        self.max_used
    }

    #[inline(always)]
    fn can(&self, from: u8, die: u8) -> bool {
        step_ok(self.occ, self.blocked, from, die)
            && (self.free
                || self
                    .rules
                    .allows(self.start, self.own, self.opp, Step::new(from, die)))
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

    /// Records the current end, used by a play of `used` dice; false when
    /// the rule set does not let a play end there.
    #[inline(always)]
    fn record(&mut self, used: u8, out: &mut Vec<StageEnd>) -> bool {
        let end = Position {
            own: self.own,
            opp: self.opp,
        };
        if !R::UNRESTRICTED && !self.free && !self.rules.end_allowed(end) {
            return false;
        }
        if used < self.max_used {
            return true;
        }
        if used > self.max_used {
            self.max_used = used;
            out.clear();
            self.seen.clear();
        }
        if self.seen.insert(self.own.0) {
            out.push(StageEnd {
                pos: end,
                play: self.play,
            });
        }
        true
    }

    /// Plays `first` then `second`. A step after which no allowed end can
    /// be reached does not count as playable.
    fn pair(&mut self, first: u8, second: u8, out: &mut Vec<StageEnd>) {
        let froms = self.occ;
        for from in Downward(froms) {
            if !self.can(from, first) {
                continue;
            }
            let saved = self.apply(from, first);
            if self.occ == 0 {
                self.record(2, out);
            } else {
                let mut any = false;
                for from2 in Downward(self.occ) {
                    if self.can(from2, second) {
                        let saved2 = self.apply(from2, second);
                        any |= self.record(2, out);
                        self.undo(saved2);
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
    /// Returns whether some allowed end was reached. `FREE`: the rule set
    /// forbids nothing here (it has no restrictions, or they are set
    /// aside), so every end is allowed and no result travels up the
    /// recursion.
    fn same<const FREE: bool>(
        &mut self,
        die: u8,
        left: u8,
        top: u8,
        out: &mut Vec<StageEnd>,
    ) -> bool {
        let used = self.play.len() as u8;
        let froms = self.occ & (u32::MAX >> (32 - top as u32));
        let mut any = false;
        for from in Downward(froms) {
            if !self.can(from, die) {
                continue;
            }
            any |= FREE;
            let saved = self.apply(from, die);
            if self.occ == 0 || left == 1 {
                // Finished the stage, or bore off the last checker.
                let reached = self.record(used + left, out);
                any |= !FREE && reached;
            } else {
                let top = if !FREE && self.rules.any_order() {
                    24
                } else {
                    from
                };
                let reached = self.same::<FREE>(die, left - 1, top, out);
                any |= !FREE && reached;
            }
            self.undo(saved);
        }
        if !any && used > 0 {
            return self.record(used, out);
        }
        any
    }
}

/// Convenience: every distinct end of a stage and the number of playable dice.
pub fn stage_ends(pos: Position, dice: StageDice) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = MoveGen::new().generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests;
