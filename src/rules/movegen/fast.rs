//! The fast paths of stage generation: the general enumeration of
//! [`MoveGen`](super::MoveGen) unrolled on packed checkers and point masks,
//! the same ends in the same order with the same plays, without its hash
//! set; and the mask and packed-checker helpers the other games' generators
//! share.

use super::StageEnd;
use crate::rules::position::{Checkers, HOME_MASK, Position};
use crate::rules::step::{Play, StageDice, Step};

/// The fast paths of a stage: `None` when they do not apply. Without
/// bearing off possible, no two plays of the enumeration reach the same end
/// (see `pair_no_bearoff` and `same_no_bearoff_in`); equal dice then play
/// under `limits` (`LIMITS` false: none). With `BEAROFF`, also the stages
/// that may bear off, for a rule set that forbids nothing (or whose ends
/// are filtered afterwards): the general enumeration unrolled on local
/// state, the same ends in the same order with the same plays and the same
/// number of dice. Not for the pinning games' bearing off, whose pins
/// change what may bear off. `None` also for dice the general enumeration
/// takes (equal pairs, dice outside 1..=6).
#[inline(always)]
pub(crate) fn fast_paths<const LIMITS: bool, const BEAROFF: bool>(
    at: Masked,
    dice: StageDice,
    limits: SameLimits,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    let Masked { pos, occ, .. } = at;
    match dice {
        StageDice::Pair(a, b) => {
            let (hi, lo) = different_dice(a, b)?;
            if outside_at_least(pos.own, occ, 2) {
                Some(pair_no_bearoff(at, hi, lo, out))
            } else if BEAROFF {
                Some(pair_bearoff(at, hi, lo, out))
            } else {
                None
            }
        }
        StageDice::Same { die, count } if (1..=6).contains(&die) && count > 0 => {
            let count = count.min(4);
            if !outside_at_least(pos.own, occ, count) {
                return BEAROFF.then(|| same_bearoff(at, die, count, out));
            }
            let used = same_no_bearoff_in::<LIMITS>(at, die, count, limits, out);
            if used == 0 {
                out.clear();
                out.push(StageEnd::stay(pos));
            }
            Some(used)
        }
        StageDice::Same { .. } => None,
    }
}

/// A stage's start as the fast paths read it: the position (mover's
/// view), the mover's occupied points and the points closed to it (bit
/// `p - 1`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masked {
    pub(crate) pos: Position,
    pub(crate) occ: u32,
    pub(crate) blocked: u32,
}

/// Two different dice of 1..=6, the larger first; `None` for equal dice
/// or one outside the range (the general enumeration takes those).
#[inline(always)]
fn different_dice(a: u8, b: u8) -> Option<(u8, u8)> {
    if a == b || !(1..=6).contains(&a) || !(1..=6).contains(&b) {
        return None;
    }
    Some(if a > b { (a, b) } else { (b, a) })
}

/// Sources (bit `p - 1`) from which `die` is legal under the common rules
/// (`step_ok` as a mask): moving onto an open point, or bearing off once
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

/// Two different dice `hi > lo`, any position: `MoveGen::pair`'s
/// enumeration (`hi` first, then `lo` first, highest sources first; a step
/// that bears off the last checker counts as both dice) with its repeated
/// ends removed by a scan of the few ends kept, and the larger die when
/// only one fits. Returns the dice played; `out` gets the unchanged
/// position when nothing is playable.
#[inline(always)]
fn pair_bearoff(at: Masked, hi: u8, lo: u8, out: &mut Vec<StageEnd>) -> u8 {
    let Masked { pos, occ, blocked } = at;
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
        for p in Downward(legal_sources(occ, blocked, first)) {
            let s1 = step_any(s0, p, first);
            let mut one = Play::EMPTY;
            one.push(Step::new(p, first));
            if s1.1 == 0 {
                record(out, s1.0, 2, one);
                continue;
            }
            let qs = legal_sources(s1.1, blocked, second);
            if qs == 0 {
                record(out, s1.0, 1, one);
                continue;
            }
            for q in Downward(qs) {
                let s2 = step_any(s1, q, second);
                record(out, s2.0, 2, play2(p, first, q, second));
            }
        }
    }
    if best == 1 && out.iter().any(|e| e.play.steps()[0].die == hi) {
        out.retain(|e| e.play.steps()[0].die == hi);
    }
    if out.is_empty() {
        out.push(StageEnd::stay(pos));
    }
    best
}

/// `count` (1..=4) equal dice, any position: `MoveGen::same`'s
/// enumeration (non-increasing sources, longest plays only, a step that
/// bears off the last checker counting as every die) unrolled, without a
/// hash set: distinct multisets of sources reach distinct ends, bearing
/// off included (the argument of the hitting games' `same_general`).
/// Returns the dice played; `out` gets the unchanged position when nothing
/// is playable.
#[inline(always)]
fn same_bearoff(at: Masked, die: u8, count: u8, out: &mut Vec<StageEnd>) -> u8 {
    let Masked { pos, occ, blocked } = at;
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
        out.push(StageEnd::stay(pos));
    }
    used
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

/// The points of a mask (bit `p - 1`), highest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Downward(pub(crate) u32);

impl Iterator for Downward {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let p = highest(self.0);
        self.0 &= !(1 << (p - 1));
        Some(p)
    }
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
fn pair_no_bearoff(at: Masked, hi: u8, lo: u8, out: &mut Vec<StageEnd>) -> u8 {
    let Masked { pos, occ, blocked } = at;
    let own = pos.own;
    let open_hi = open_for(blocked, hi);
    let open_lo = open_for(blocked, lo);
    let a_hi = occ & open_hi;
    let start = out.len();
    // `hi` first from p, then `lo` from q.
    for p in Downward(a_hi) {
        let (own1, occ1) = step_no_bearoff(own.0, occ, p, hi);
        // q = p + lo moving onto p: one checker moved by both dice, already
        // found through q - hi when q could move `hi`.
        for q in Downward(occ1 & open_lo & !(a_hi & (1 << (p + lo - 1)))) {
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
    for p in Downward(occ & open_lo & !a_hi & !(occ << lo) & open_for(blocked, both)) {
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
    one_die_ends(pos, (a_hi, hi), (occ & open_lo, lo), |_| pos.opp.0, out)
}

/// The ends of a stage of two different dice `hi > lo` that can play one
/// die only, given the checkers able to move each (`a_hi`, `a_lo`): every
/// step of the larger if any, else of the smaller, from the highest point
/// down; the empty play if neither moves. `opp_after(to)` is the
/// opponent's packed checkers after a step lands on `to`. Returns the dice
/// played (1 or 0).
#[inline(always)]
pub(crate) fn one_die_ends(
    pos: Position,
    (a_hi, hi): (u32, u8),
    (a_lo, lo): (u32, u8),
    opp_after: impl Fn(u8) -> u128,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let (ps, die) = if a_hi != 0 { (a_hi, hi) } else { (a_lo, lo) };
    if ps == 0 {
        out.push(StageEnd::stay(pos));
        return 0;
    }
    for p in Downward(ps) {
        let mut play = Play::EMPTY;
        play.push(Step::new(p, die));
        out.push(StageEnd {
            pos: Position {
                own: Checkers(pos.own.0.wrapping_add(delta(die, p))),
                opp: Checkers(opp_after(p - die)),
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

/// The unrolled enumeration of `count` (1..=4) equal dice `die` that the
/// fast paths share: non-increasing sources, each multiset of steps once,
/// no recursion or hash set. From the state `s0` reached by `play0` (the
/// hitting games' entering steps, or nothing), `sources(s)` says where a
/// step may start (this keeps those at or below the last source),
/// `step(s, from)` plays it, and `stop(s, from, used)` is the dice a play
/// that ends at once after that step counts as (`None`: it goes on).
/// `record(s, used, play)` gets every end of a play that stops: after
/// `count` steps, when `stop` says so, or when no step follows, in the
/// order of the general enumeration.
#[inline(always)]
pub(crate) fn equal_dice<S: Copy>(
    (s0, play0): (S, Play),
    (die, count): (u8, u8),
    step: impl Fn(S, u8) -> S,
    sources: impl Fn(&S) -> u32,
    stop: impl Fn(&S, u8, u8) -> Option<u8>,
    mut record: impl FnMut(&S, u8, Play),
) {
    let with = |mut play: Play, from: u8| {
        play.push(Step::new(from, die));
        play
    };
    for a in Downward(sources(&s0)) {
        let (s1, p1) = (step(s0, a), with(play0, a));
        for b in Downward(then(&s1, (a, p1, count == 1), &sources, &stop, &mut record)) {
            let (s2, p2) = (step(s1, b), with(p1, b));
            for c in Downward(then(&s2, (b, p2, count == 2), &sources, &stop, &mut record)) {
                let (s3, p3) = (step(s2, c), with(p2, c));
                for d in Downward(then(&s3, (c, p3, count == 3), &sources, &stop, &mut record)) {
                    let s4 = step(s3, d);
                    then(&s4, (d, with(p3, d), true), &sources, &stop, &mut record);
                }
            }
        }
    }
}

/// [`equal_dice`] after the step from `from` to `s` by `play` (`last`: the
/// stage's last die): no sources when the play ends there (recorded), else
/// the next step's.
#[inline(always)]
fn then<S>(
    s: &S,
    (from, play, last): (u8, Play, bool),
    sources: &impl Fn(&S) -> u32,
    stop: &impl Fn(&S, u8, u8) -> Option<u8>,
    record: &mut impl FnMut(&S, u8, Play),
) -> u32 {
    let used = play.len() as u8;
    if last {
        record(s, used, play);
        return 0;
    }
    if let Some(all) = stop(s, from, used) {
        record(s, all, play);
        return 0;
    }
    let next = sources(s) & up_to(from);
    if next == 0 {
        record(s, used, play);
    }
    next
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
pub(crate) struct SameLimits {
    /// Points whose landing ends the play (and the game) at once, the play
    /// then counting as every die: a step onto one of them is recorded and
    /// nothing follows it.
    pub(crate) stop: u32,
    /// The most steps that may leave point 24 (long nardy's head rule).
    /// Point 24 is the highest, so in non-increasing order those steps come
    /// first and nothing ever lands there.
    pub(crate) from_24: u8,
}

impl SameLimits {
    /// No limits.
    pub(crate) const NONE: SameLimits = SameLimits {
        stop: 0,
        from_24: 4,
    };
}

/// `count` (1..=4) equal dice when no step can bear off: the general
/// enumeration (non-increasing source points, longest plays only) without
/// its hash set, under [`SameLimits`] (`LIMITS` false: none, compiled away).
/// Distinct multisets of steps reach distinct ends when nothing is borne
/// off, so no end repeats. Returns the dice played (0: `out` empty). The sources never increase, so the steps from 24 are the first
/// ones and a stopping landing (only on a point at most one die away from
/// bearing off, so at the lowest source a step can have) comes last among
/// the steps of its multiset: each legal multiset still has its one order.
#[inline(always)]
pub(crate) fn same_no_bearoff_in<const LIMITS: bool>(
    at: Masked,
    die: u8,
    count: u8,
    limits: SameLimits,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let Masked { pos, occ, blocked } = at;
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
