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
                StageDice::Same { die, count } if from_24 < count.min(4) => {
                    let limits = Limits { stop: 0, from_24 };
                    fast_same::<true>(pos, occ, blocked, die, count, limits, out)
                }
                _ => fast_paths(pos, occ, blocked, dice, out),
            };
            let used = match fast.or_else(|| bearoff_paths(pos, occ, blocked, dice, out)) {
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
            && let Some(used) = fast_paths(pos, occ, blocked, dice, out)
                .or_else(|| bearoff_paths(pos, occ, blocked, dice, out))
        {
            return used;
        }
        self.general(pos, occ, blocked, dice, out)
    }

    /// [`MoveGen::generate`] by the general enumeration alone (for tests
    /// that check the fast paths against it).
    #[doc(hidden)]
    pub fn generate_general(
        &mut self,
        pos: Position,
        dice: StageDice,
        out: &mut Vec<StageEnd>,
    ) -> u8 {
        if game_over_stage(pos, out) {
            return 0;
        }
        self.general(pos, pos.own.mask(), pos.blocked(), dice, out)
    }
}

/// Clears `out` and, when the game is over in `pos`, leaves in it the one
/// end of a stage with nothing to play: `pos` by the empty play.
#[inline(always)]
pub(crate) fn game_over_stage(pos: Position, out: &mut Vec<StageEnd>) -> bool {
    out.clear();
    if pos.is_over() {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
        return true;
    }
    false
}

/// The fast paths of a stage with no bearing off possible: `None` when
/// they do not apply. No two plays of the enumeration then reach the same
/// end (see `pair_no_bearoff` and `same_no_bearoff_in`).
#[inline(always)]
pub(crate) fn fast_paths(
    pos: Position,
    occ: u32,
    blocked: u32,
    dice: StageDice,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    match dice {
        StageDice::Pair(a, b)
            if a != b
                && (1..=6).contains(&a)
                && (1..=6).contains(&b)
                && outside_at_least(pos.own, occ, 2) =>
        {
            let (hi, lo) = if a > b { (a, b) } else { (b, a) };
            Some(pair_no_bearoff(pos, occ, blocked, hi, lo, out))
        }
        StageDice::Same { die, count } => {
            fast_same::<false>(pos, occ, blocked, die, count, Limits::NONE, out)
        }
        _ => None,
    }
}

/// The stages the fast paths leave (those that may bear off) for a rule
/// set that forbids nothing (or whose ends are filtered afterwards): the
/// general enumeration unrolled on local state, the same ends in the same
/// order with the same plays and the same number of dice. `None` for dice
/// it does not take (equal pairs, dice outside 1..=6), which go to the
/// general enumeration. Not used by the pinning games, whose pins change
/// what may bear off.
#[inline(always)]
pub(crate) fn bearoff_paths(
    pos: Position,
    occ: u32,
    blocked: u32,
    dice: StageDice,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    match dice {
        StageDice::Pair(a, b) if a != b && (1..=6).contains(&a) && (1..=6).contains(&b) => {
            let (hi, lo) = if a > b { (a, b) } else { (b, a) };
            Some(pair_bearoff(pos, occ, blocked, hi, lo, out))
        }
        StageDice::Same { die, count } if (1..=6).contains(&die) && count > 0 => {
            Some(same_bearoff(pos, occ, blocked, die, count.min(4), out))
        }
        _ => None,
    }
}

/// Sources (bit `p - 1`) from which `die` is legal under the common rules
/// ([`step_ok`] as a mask): moving onto an open point, or bearing off once
/// everything is home, exactly or with a higher die from the highest point.
#[inline(always)]
pub(crate) fn legal_sources(occ: u32, blocked: u32, die: u8) -> u32 {
    let mut m = occ & open_for(blocked, die);
    if occ & !HOME_MASK == 0 && occ != 0 {
        m |= occ & (1 << (die - 1));
        let h = highest(occ);
        if h < die {
            m |= 1 << (h - 1);
        }
    }
    m
}

/// One legal step `from → max(from − die, 0)` of the mover's packed
/// checkers and occupancy.
#[inline(always)]
pub(crate) fn step_any((own, occ): (u128, u32), from: u8, die: u8) -> (u128, u32) {
    let to = from.saturating_sub(die);
    let own1 = own
        .wrapping_sub(1u128 << (4 * u32::from(from)))
        .wrapping_add(1u128 << (4 * u32::from(to)));
    let mut occ1 = occ | ((1u32 << to) >> 1);
    if (own1 >> (4 * u32::from(from))) & 0xF == 0 {
        occ1 &= !(1 << (from - 1));
    }
    (own1, occ1)
}

/// Two different dice `hi > lo`, any position: [`MoveGen::pair`]'s
/// enumeration (`hi` first, then `lo` first, highest sources first; a step
/// that bears off the last checker counts as both dice) with its repeated
/// ends removed by a scan of the few ends kept, and the larger die when
/// only one fits. Returns the dice played; `out` gets the unchanged
/// position when nothing is playable.
#[inline(always)]
fn pair_bearoff(
    pos: Position,
    occ: u32,
    blocked: u32,
    hi: u8,
    lo: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    out.clear();
    let opp = pos.opp;
    let s0 = (pos.own.0, occ);
    let mut best = 0u8;
    let mut record = |out: &mut Vec<StageEnd>, own: u128, used: u8, play: Play| {
        if used < best {
            return;
        }
        if used > best {
            best = used;
            out.clear();
        }
        if out.iter().all(|e| e.pos.own.0 != own) {
            out.push(StageEnd {
                pos: Position {
                    own: Checkers(own),
                    opp,
                },
                play,
            });
        }
    };
    for (first, second) in [(hi, lo), (lo, hi)] {
        let mut ps = legal_sources(occ, blocked, first);
        while ps != 0 {
            let p = highest(ps);
            ps &= !(1 << (p - 1));
            let s1 = step_any(s0, p, first);
            let mut one = Play::EMPTY;
            one.push(Step::new(p, first));
            if s1.1 == 0 {
                record(out, s1.0, 2, one);
                continue;
            }
            let mut qs = legal_sources(s1.1, blocked, second);
            if qs == 0 {
                record(out, s1.0, 1, one);
                continue;
            }
            while qs != 0 {
                let q = highest(qs);
                qs &= !(1 << (q - 1));
                let s2 = step_any(s1, q, second);
                record(out, s2.0, 2, play2(p, first, q, second));
            }
        }
    }
    if best == 1 && out.iter().any(|e| e.play.steps()[0].die == hi) {
        out.retain(|e| e.play.steps()[0].die == hi);
    }
    if out.is_empty() {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
    }
    best
}

/// `count` (1..=4) equal dice, any position: [`MoveGen::same`]'s
/// enumeration (non-increasing sources, longest plays only, a step that
/// bears off the last checker counting as every die) unrolled, without a
/// hash set: distinct multisets of sources reach distinct ends, bearing
/// off included (the argument of the hitting games' `same_general`).
/// Returns the dice played; `out` gets the unchanged position when nothing
/// is playable.
#[inline(always)]
fn same_bearoff(
    pos: Position,
    occ: u32,
    blocked: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    out.clear();
    let opp = pos.opp.0;
    let mut ends = Longest::new(out);
    let s0 = (pos.own.0, occ);
    let mut fa = legal_sources(occ, blocked, die);
    while fa != 0 {
        let a = highest(fa);
        fa &= !(1 << (a - 1));
        let s1 = step_any(s0, a, die);
        if count == 1 || s1.1 == 0 {
            ends.record(s1.0, opp, count, play_same([a], die));
            continue;
        }
        let mut fb = legal_sources(s1.1, blocked, die) & up_to(a);
        if fb == 0 {
            ends.record(s1.0, opp, 1, play_same([a], die));
            continue;
        }
        while fb != 0 {
            let b = highest(fb);
            fb &= !(1 << (b - 1));
            let s2 = step_any(s1, b, die);
            if count == 2 || s2.1 == 0 {
                ends.record(s2.0, opp, count, play_same([a, b], die));
                continue;
            }
            let mut fc = legal_sources(s2.1, blocked, die) & up_to(b);
            if fc == 0 {
                ends.record(s2.0, opp, 2, play_same([a, b], die));
                continue;
            }
            while fc != 0 {
                let c = highest(fc);
                fc &= !(1 << (c - 1));
                let s3 = step_any(s2, c, die);
                if count == 3 || s3.1 == 0 {
                    ends.record(s3.0, opp, count, play_same([a, b, c], die));
                    continue;
                }
                let mut fd = legal_sources(s3.1, blocked, die) & up_to(c);
                if fd == 0 {
                    ends.record(s3.0, opp, 3, play_same([a, b, c], die));
                    continue;
                }
                while fd != 0 {
                    let d = highest(fd);
                    fd &= !(1 << (d - 1));
                    let s4 = step_any(s3, d, die);
                    ends.record(s4.0, opp, 4, play_same([a, b, c, d], die));
                }
            }
        }
    }
    let used = ends.best;
    if used == 0 {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
    }
    used
}

/// The fast path of equal dice with no bearing off possible, under
/// [`Limits`] (`LIMITS` false: none): `None` when it does not apply.
#[inline(always)]
pub(crate) fn fast_same<const LIMITS: bool>(
    pos: Position,
    occ: u32,
    blocked: u32,
    die: u8,
    count: u8,
    limits: Limits,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    if !(1..=6).contains(&die) || count == 0 || !outside_at_least(pos.own, occ, count.min(4)) {
        return None;
    }
    let used = same_no_bearoff_in::<LIMITS>(pos, occ, blocked, die, count.min(4), limits, out);
    if used > 0 {
        return Some(used);
    }
    out.clear();
    out.push(StageEnd {
        pos,
        play: Play::EMPTY,
    });
    Some(0)
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
                    self.same_unrestricted(die, count.min(4), 24, out);
                } else {
                    self.same(die, count.min(4), 24, out);
                }
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
    /// Returns whether some allowed end was reached.
    fn same(&mut self, die: u8, left: u8, top: u8, out: &mut Vec<StageEnd>) -> bool {
        let used = self.play.len() as u8;
        let mut froms = self.occ & (u32::MAX >> (32 - top as u32));
        let mut any = false;
        while froms != 0 {
            let from = 24 - (froms << 8).leading_zeros() as u8;
            froms &= !(1 << (from - 1));
            if !self.can(from, die) {
                continue;
            }
            let saved = self.apply(from, die);
            if self.occ == 0 || left == 1 {
                // Finished the stage, or bore off the last checker.
                let full = used + left;
                any |= self.record(full, out);
            } else {
                let top = if self.rules.any_order() { 24 } else { from };
                any |= self.same(die, left - 1, top, out);
            }
            self.undo(saved);
        }
        if !any && used > 0 {
            return self.record(used, out);
        }
        any
    }

    /// [`Self::same`] for a rule set that forbids nothing: every end is
    /// allowed, so no result travels up the recursion (Gul bara's bear-offs
    /// take this path; measured faster than the general one).
    fn same_unrestricted(&mut self, die: u8, left: u8, top: u8, out: &mut Vec<StageEnd>) {
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
                self.record(used + left, out);
            } else {
                self.same_unrestricted(die, left - 1, from, out);
            }
            self.undo(saved);
        }
        if !any && used > 0 {
            self.record(used, out);
        }
    }
}

/// Points (bit `p - 1`) from which a die `die` moves to an open point
/// without bearing off.
#[inline(always)]
pub(crate) fn open_for(blocked: u32, die: u8) -> u32 {
    !(blocked << die) & (0xFF_FFFF << die) & 0xFF_FFFF
}

/// Whether at least `n` of the mover's checkers are outside its home
/// quarter. Each step brings at most one checker home and bearing off needs
/// all of them home, so then none of `n` dice can bear off.
#[inline(always)]
pub(crate) fn outside_at_least(own: Checkers, occ: u32, n: u8) -> bool {
    let mut outside = occ & !HOME_MASK;
    if outside.count_ones() >= u32::from(n) {
        return true;
    }
    let mut total = 0;
    while outside != 0 {
        let p = outside.trailing_zeros() as u8 + 1;
        outside &= outside - 1;
        total += own.at(p);
    }
    total >= n
}

/// Highest point (1..=24, or 25 for the bar) of a non-empty mask.
#[inline(always)]
pub(crate) fn highest(mask: u32) -> u8 {
    (32 - mask.leading_zeros()) as u8
}

/// The play of two steps.
#[inline(always)]
pub(crate) fn play2(p: u8, d1: u8, q: u8, d2: u8) -> Play {
    let mut play = Play::EMPTY;
    play.push(Step::new(p, d1));
    play.push(Step::new(q, d2));
    play
}

/// Two different dice `hi > lo` when no step can bear off. Pushes the ends
/// of the longest plays in the order (and with the plays) of the general
/// enumeration and returns the number of dice they use.
///
/// Without bearing off the two steps of different checkers are legal in
/// either order, so the ends are: `p` moves `hi` and `q` moves `lo` for every
/// such pair of checkers (distinct ends, except that a `q` equal to `p - hi`
/// or `q - lo` equal to `p` gives one checker moved by both dice), plus each
/// checker moved by both dice, through `p - hi` or `p - lo`. The general
/// enumeration plays `hi` first from the highest point down, then `lo`
/// first; this keeps its first occurrence of each end.
#[inline(always)]
fn pair_no_bearoff(
    pos: Position,
    occ: u32,
    blocked: u32,
    hi: u8,
    lo: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let own = pos.own;
    let open_hi = open_for(blocked, hi);
    let open_lo = open_for(blocked, lo);
    let a_hi = occ & open_hi;
    let start = out.len();
    // `hi` first from p, then `lo` from q.
    let mut ps = a_hi;
    while ps != 0 {
        let p = highest(ps);
        ps &= !(1 << (p - 1));
        let (own1, occ1) = step_no_bearoff(own.0, occ, p, hi);
        // q = p + lo moving onto p: one checker moved by both dice, already
        // found through q - hi when q could move `hi`.
        let mut qs = occ1 & open_lo & !(a_hi & (1 << (p + lo - 1)));
        while qs != 0 {
            let q = highest(qs);
            qs &= !(1 << (q - 1));
            out.push(StageEnd {
                pos: Position {
                    own: Checkers(own1.wrapping_add(delta(lo, q))),
                    opp: pos.opp,
                },
                play: play2(p, hi, q, lo),
            });
        }
    }
    // `lo` first: only one checker moved by both dice through p - lo is new,
    // when p - hi is closed (or p cannot move `hi`) and no checker stood on
    // p - lo to make it a pair of the first pass.
    let both = lo + hi;
    let mut ps = occ & open_lo & !a_hi & !(occ << lo) & open_for(blocked, both);
    while ps != 0 {
        let p = highest(ps);
        ps &= !(1 << (p - 1));
        out.push(StageEnd {
            pos: Position {
                own: Checkers(
                    own.0
                        .wrapping_add(delta(lo, p))
                        .wrapping_add(delta(hi, p - lo)),
                ),
                opp: pos.opp,
            },
            play: play2(p, lo, p - lo, hi),
        });
    }
    if out.len() > start {
        return 2;
    }
    // One die only: the larger if it can be played (a checker that moves
    // `hi` could not move on, or the play would have used both dice).
    let (mut ps, die) = if a_hi != 0 {
        (a_hi, hi)
    } else {
        (occ & open_lo, lo)
    };
    if ps == 0 {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
        return 0;
    }
    while ps != 0 {
        let p = highest(ps);
        ps &= !(1 << (p - 1));
        let mut play = Play::EMPTY;
        play.push(Step::new(p, die));
        out.push(StageEnd {
            pos: Position {
                own: Checkers(pos.own.0.wrapping_add(delta(die, p))),
                opp: pos.opp,
            },
            play,
        });
    }
    1
}

/// `DELTA[die][from]` added (wrapping) to a side's packed checkers moves one
/// checker from `from` to `from - die` (`from > die`; `from` 25 is the
/// bar, for the hitting games). Padded to powers of two so that masked
/// indices need no bounds checks.
const DELTA: [[u128; 32]; 8] = {
    let mut t = [[0u128; 32]; 8];
    let mut die = 1;
    while die <= 6 {
        let mut from = die + 1;
        while from <= 25 {
            t[die][from] = (1u128 << (4 * (from - die))).wrapping_sub(1u128 << (4 * from));
            from += 1;
        }
        die += 1;
    }
    t
};

/// The [`DELTA`] entry for `die` (1..=6) and `from` (`die < from <= 25`).
#[inline(always)]
pub(crate) fn delta(die: u8, from: u8) -> u128 {
    DELTA[usize::from(die & 7)][usize::from(from & 31)]
}

/// Moves a checker `from` → `from - die` (no bearing off) in packed checkers
/// and their occupancy mask.
#[inline(always)]
fn step_no_bearoff(own: u128, occ: u32, from: u8, die: u8) -> (u128, u32) {
    let own1 = own.wrapping_add(delta(die, from));
    let mut occ1 = occ | (1 << (from - die - 1));
    if (own1 >> (4 * u32::from(from))) & 0xF == 0 {
        occ1 &= !(1 << (from - 1));
    }
    (own1, occ1)
}

/// Points at or below `top` (1..=25) as a mask.
#[inline(always)]
pub(crate) fn up_to(top: u8) -> u32 {
    u32::MAX >> (32 - u32::from(top))
}

/// The play of equal dice `die` from the given sources, in order.
#[inline(always)]
fn play_same<const N: usize>(froms: [u8; N], die: u8) -> Play {
    let mut play = Play::EMPTY;
    for from in froms {
        play.push(Step::new(from, die));
    }
    play
}

/// Collects the ends of the longest plays of an enumeration that reaches
/// each end once (no hash set): a longer play drops the shorter ones.
pub(crate) struct Longest<'a> {
    /// Dice used by the plays kept.
    pub(crate) best: u8,
    out: &'a mut Vec<StageEnd>,
}

impl<'a> Longest<'a> {
    /// Collects into `out`, which must be empty.
    #[inline(always)]
    pub(crate) fn new(out: &'a mut Vec<StageEnd>) -> Self {
        Longest { best: 0, out }
    }

    /// Records the end with the mover's and the opponent's packed checkers
    /// `own` and `opp`, reached by `play` using `used` dice.
    #[inline(always)]
    pub(crate) fn record(&mut self, own: u128, opp: u128, used: u8, play: Play) {
        if used < self.best {
            return;
        }
        if used > self.best {
            self.best = used;
            self.out.clear();
        }
        self.out.push(StageEnd {
            pos: Position {
                own: Checkers(own),
                opp: Checkers(opp),
            },
            play,
        });
    }
}

/// What [`same_no_bearoff_in`] adds to the plain enumeration of equal dice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Points whose landing ends the play (and the game) at once, the play
    /// then counting as every die: a step onto one of them is recorded and
    /// nothing follows it.
    pub(crate) stop: u32,
    /// The most steps that may leave point 24 (long nardy's head rule).
    /// Point 24 is the highest, so in non-increasing order those steps come
    /// first and nothing ever lands there.
    pub(crate) from_24: u8,
}

impl Limits {
    /// No limits.
    pub(crate) const NONE: Limits = Limits {
        stop: 0,
        from_24: 4,
    };
}

/// `count` (1..=4) equal dice when no step can bear off: the general
/// enumeration (non-increasing source points, longest plays only) without
/// its hash set, under [`Limits`] (`LIMITS` false: none, compiled away).
/// Distinct multisets of steps reach distinct ends when nothing is borne
/// off, so no end repeats. Returns the dice played (0: `out` empty). The sources never increase, so the steps from 24 are the first
/// ones and a stopping landing (only on a point at most one die away from
/// bearing off, so at the lowest source a step can have) comes last among
/// the steps of its multiset: each legal multiset still has its one order.
#[inline(always)]
pub(crate) fn same_no_bearoff_in<const LIMITS: bool>(
    pos: Position,
    occ: u32,
    blocked: u32,
    die: u8,
    count: u8,
    limits: Limits,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let open = open_for(blocked, die);
    let opp = pos.opp.0;
    let mut ends = Longest::new(out);
    let own0 = pos.own.0;
    // Sources allowed after `n` steps from 24.
    let after_24 = |n: u8| -> u32 {
        if LIMITS && n >= limits.from_24 {
            !(1 << 23)
        } else {
            u32::MAX
        }
    };
    let stops = |from: u8| LIMITS && limits.stop & (1 << (from - die - 1)) != 0;
    let mut fa = occ & open & after_24(0);
    while fa != 0 {
        let a = highest(fa);
        fa &= !(1 << (a - 1));
        let (own1, occ1) = step_no_bearoff(own0, occ, a, die);
        if count == 1 || stops(a) {
            ends.record(own1, opp, count, play_same([a], die));
            continue;
        }
        let n1 = u8::from(a == 24);
        let mut fb = occ1 & open & up_to(a) & after_24(n1);
        if fb == 0 {
            ends.record(own1, opp, 1, play_same([a], die));
            continue;
        }
        while fb != 0 {
            let b = highest(fb);
            fb &= !(1 << (b - 1));
            let (own2, occ2) = step_no_bearoff(own1, occ1, b, die);
            if count == 2 || stops(b) {
                ends.record(own2, opp, count, play_same([a, b], die));
                continue;
            }
            let n2 = n1 + u8::from(b == 24);
            let mut fc = occ2 & open & up_to(b) & after_24(n2);
            if fc == 0 {
                ends.record(own2, opp, 2, play_same([a, b], die));
                continue;
            }
            while fc != 0 {
                let c = highest(fc);
                fc &= !(1 << (c - 1));
                let (own3, occ3) = step_no_bearoff(own2, occ2, c, die);
                if count == 3 || stops(c) {
                    ends.record(own3, opp, count, play_same([a, b, c], die));
                    continue;
                }
                let n3 = n2 + u8::from(c == 24);
                let mut fd = occ3 & open & up_to(c) & after_24(n3);
                if fd == 0 {
                    ends.record(own3, opp, 3, play_same([a, b, c], die));
                    continue;
                }
                while fd != 0 {
                    let d = highest(fd);
                    fd &= !(1 << (d - 1));
                    let own4 = own3.wrapping_add(delta(die, d));
                    ends.record(own4, opp, 4, play_same([a, b, c, d], die));
                }
            }
        }
    }
    ends.best
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

    /// Gul bara through the general enumeration only.
    #[derive(Clone, Copy, Default)]
    struct GeneralOnly;
    impl StepRules for GeneralOnly {}

    /// A random position: each side's checkers spread over its own points
    /// (weighted towards `home_bias` of them at home), no point shared.
    /// With `spread`, the opponent takes as many points as it can (primes).
    fn random_position(seed: &mut u64, home_bias: u64, spread: bool) -> Position {
        let mut next = |n: u64| {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*seed >> 33) % n
        };
        let mut own = [0u8; 24];
        let mut opp = [0u8; 24];
        let own_off = next(4) * next(5);
        let opp_off = next(4) * next(5);
        for side in 0..2 {
            let off = if side == 0 { own_off } else { opp_off };
            for _ in off..15 {
                for _ in 0..50 {
                    let p = if next(100) < home_bias {
                        next(6) as u8 + 1
                    } else {
                        next(24) as u8 + 1
                    };
                    let q = super::super::position::other_numbering(p);
                    let (mine, other) = if side == 0 {
                        (&mut own, &opp)
                    } else {
                        (&mut opp, &own)
                    };
                    let crowd = spread && side == 1 && mine[p as usize - 1] > 0;
                    if other[q as usize - 1] == 0 && !crowd {
                        mine[p as usize - 1] += 1;
                        break;
                    }
                }
            }
        }
        Position {
            own: Checkers::from_counts(&own).unwrap(),
            opp: Checkers::from_counts(&opp).unwrap(),
        }
    }

    fn all_stages() -> Vec<StageDice> {
        let mut v = Vec::new();
        for a in 0..=7u8 {
            for b in 0..=7u8 {
                v.push(StageDice::Pair(a, b));
            }
            for count in 0..=5 {
                v.push(StageDice::Same { die: a, count });
            }
        }
        v
    }

    /// The fast paths give exactly what the general enumeration gives: the
    /// same ends, in the same order, with the same plays.
    #[test]
    fn fast_paths_match_general_enumeration() {
        let mut fast = MoveGen::new();
        let mut general = MoveGen::with_rules(GeneralOnly);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut seed = 7;
        let stages = all_stages();
        // Fast-path cases seen: pairs with one die, pairs with none, doublets
        // with some but not all dice.
        let mut seen = [0u32; 3];
        for i in 0..4_000 {
            let pos = random_position(&mut seed, [0, 30, 70, 95][i % 4], i % 8 >= 4);
            for &dice in &stages {
                if matches!(
                    dice,
                    StageDice::Same { count: 0, .. }
                        | StageDice::Same { die: 0, .. }
                        | StageDice::Pair(0, _)
                        | StageDice::Pair(_, 0)
                ) {
                    continue;
                }
                let n = fast.generate(pos, dice, &mut a);
                let m = general.generate(pos, dice, &mut b);
                assert_eq!((n, &a), (m, &b), "{pos:?} {dice:?}");
                if !pos.is_over() && outside_at_least(pos.own, pos.own.mask(), 4) {
                    match dice {
                        StageDice::Pair(x, y) if x != y && x <= 6 && y <= 6 && n < 2 => {
                            seen[usize::from(n)] += 1
                        }
                        StageDice::Same { count, die } if die <= 6 && n > 0 && n < count.min(4) => {
                            seen[2] += 1
                        }
                        _ => {}
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 10), "fast-path coverage {seen:?}");
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
