//! The hitting games' enumerations unrolled on packed checkers and point
//! masks, each giving the general enumeration's ends in its order with its
//! plays: without bearing off (two dice, equal dice, entering from the
//! bar), the race, and the general positions without the hash set.

use super::*;

/// Whether `n` steps cannot bear anything off: at least `n` checkers are
/// outside home or on the bar (a step brings at most one of them home).
#[inline]
pub(super) fn far_from_home(own: Checkers, n: u8) -> bool {
    let bar = own.bar();
    bar >= n || outside_at_least(own, own.mask(), n - bar)
}

/// A hitting stage's start as the fast paths read it: the position
/// (mover's view), the mover's occupied points, the points closed to it
/// and the opponent's blots (bit `p - 1`, the mover's numbering).
#[derive(Clone, Copy, Debug)]
pub(super) struct HitMasked {
    pub(super) pos: Position,
    pub(super) occ: u32,
    pub(super) closed: u32,
    pub(super) blots: u32,
}

/// `HIT[t]` added (wrapping) to the opponent's packed checkers sends its blot
/// on the mover's point `t` (1..=24) to its bar.
pub(super) const HIT: [u128; 32] = {
    let mut t = [0u128; 32];
    let mut p = 1;
    while p <= 24 {
        t[p] = (1u128 << (4 * BAR as u32)).wrapping_sub(1u128 << (4 * (25 - p)));
        p += 1;
    }
    t
};

/// The opponent after the blots of `hits` (mover's points, bit `t − 1`)
/// are hit.
#[inline(always)]
pub(super) fn hit_all(opp: u128, mut hits: u32) -> u128 {
    let mut opp = opp;
    while hits != 0 {
        let t = hits.trailing_zeros() as usize + 1;
        hits &= hits - 1;
        opp = opp.wrapping_add(HIT[t & 31]);
    }
    opp
}

/// Two different dice `hi > lo`, nothing on the bar and no step able to
/// bear off. Pushes the ends in the order, and with the plays, of the
/// general enumeration (`hi` first from the highest point down, then `lo`
/// first, first occurrence of each end kept) without its hash set, and
/// returns the dice played.
///
/// Without bearing off, steps of two different checkers are legal in either
/// order and hit the same blots, so every end of the `lo`-first pass was
/// already found, except one checker moved by both dice through `p − lo`.
/// That one is new unless `p − lo` held a checker of the mover (then it is
/// `p − lo` moving `hi` and `p` moving `lo`) or the checker could also go
/// through `p − hi` with neither intermediate point a blot (then the two
/// routes hit the same). Within the `hi`-first pass the only repeat is `p`
/// moving `hi` and `p + lo` moving onto `p`, which is `p + lo` moved by both
/// dice through `p + lo − hi`, found earlier, when that point is no blot.
#[inline(always)]
pub(super) fn pair_no_bearoff(at: HitMasked, hi: u8, lo: u8, out: &mut Vec<StageEnd>) -> u8 {
    let (pos, occ, closed, blots) = (at.pos, at.occ, at.closed, at.blots);
    let own = pos.own.0;
    let opp = pos.opp.0;
    let open_lo = open_for(closed, lo);
    let a_hi = occ & open_for(closed, hi);
    // Checkers q whose route through q − hi hits nothing on the way.
    let clean_hi = a_hi & !(blots << hi);
    for p in Downward(a_hi) {
        let own1 = own.wrapping_add(delta(hi, p));
        let t1 = 1u32 << (p - hi - 1);
        let mut occ1 = occ | t1;
        if (own1 >> (4 * u32::from(p))) & 0xF == 0 {
            occ1 &= !(1 << (p - 1));
        }
        let hit1 = blots & t1;
        let opp1 = if hit1 != 0 {
            opp.wrapping_add(HIT[usize::from((p - hi) & 31)])
        } else {
            opp
        };
        let blots1 = blots & !hit1;
        for q in Downward(occ1 & open_lo & !(clean_hi & (1 << (p + lo - 1)))) {
            let t2 = q - lo;
            let opp2 = if blots1 & (1 << (t2 - 1)) != 0 {
                opp1.wrapping_add(HIT[usize::from(t2 & 31)])
            } else {
                opp1
            };
            out.push(StageEnd {
                pos: Position {
                    own: Checkers(own1.wrapping_add(delta(lo, q))),
                    opp: Checkers(opp2),
                },
                play: play2(p, hi, q, lo),
            });
        }
    }
    let both = lo + hi;
    for p in Downward(
        occ & open_lo
            & open_for(closed, both)
            & !(occ << lo)
            & !(a_hi & !(blots << hi) & !(blots << lo)),
    ) {
        let hits = blots & ((1 << (p - lo - 1)) | (1 << (p - both - 1)));
        out.push(StageEnd {
            pos: Position {
                own: Checkers(
                    own.wrapping_add(delta(lo, p))
                        .wrapping_add(delta(hi, p - lo)),
                ),
                opp: Checkers(hit_all(opp, hits)),
            },
            play: play2(p, lo, p - lo, hi),
        });
    }
    if !out.is_empty() {
        return 2;
    }
    // One die only: the larger if it can be played.
    one_die_ends(
        pos,
        (a_hi, hi),
        (occ & open_lo, lo),
        |to| hit_all(opp, blots & (1 << (to - 1))),
        out,
    )
}

/// One step `from → from − die` (no bearing off) on the working state.
#[inline(always)]
pub(super) fn step_fast(
    (own, occ, opp, blots): (u128, u32, u128, u32),
    from: u8,
    die: u8,
) -> (u128, u32, u128, u32) {
    let own1 = own.wrapping_add(delta(die, from));
    let t = 1u32 << (from - die - 1);
    let mut occ1 = occ | t;
    if (own1 >> (4 * u32::from(from))) & 0xF == 0 {
        occ1 &= !(1 << (from - 1));
    }
    if blots & t != 0 {
        (
            own1,
            occ1,
            opp.wrapping_add(HIT[usize::from((from - die) & 31)]),
            blots & !t,
        )
    } else {
        (own1, occ1, opp, blots)
    }
}

/// The play: `pre` entering steps from the bar, then `froms`, all with `die`.
#[inline(always)]
pub(super) fn play_same<const N: usize>(pre: u8, froms: [u8; N], die: u8) -> Play {
    let mut play = Play::EMPTY;
    for _ in 0..pre {
        play.push(Step::new(BAR, die));
    }
    for from in froms {
        play.push(Step::new(from, die));
    }
    play
}

/// `count` (1..=4) equal dice from the working state `s0` (own, occupancy,
/// opponent, blots), nothing on the bar and no step able to bear off, after
/// `pre` checkers entered from the bar: the general enumeration
/// (non-increasing sources, longest plays only, same order and plays)
/// unrolled, without recursion or hash set: distinct multisets of steps
/// reach distinct ends when nothing is borne off (the landings fix the
/// hits). Returns the dice played after the entering ones (0: `out` left
/// empty).
#[inline(always)]
pub(super) fn same_no_bearoff(
    s0: (u128, u32, u128, u32),
    pre: u8,
    closed: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let open = open_for(closed, die);
    let mut ends = Longest::new(out);
    equal_dice(
        (s0, play_same(pre, [], die)),
        (die, count),
        |s, from| step_fast(s, from, die),
        |s| s.1 & open,
        |_, _, _| None,
        |s, used, play| ends.record(s.0, s.2, used, play),
    );
    ends.best
}

/// Equal dice with checkers on the bar: they enter first (all of them, or
/// all the dice), then the rest as [`same_no_bearoff`] when nothing can be
/// borne off. `None` when the general enumeration is needed.
#[inline(always)]
pub(super) fn same_from_bar(
    at: HitMasked,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    let (pos, occ, closed, blots) = (at.pos, at.occ, at.closed, at.blots);
    let entry = BAR - die;
    let bit = 1u32 << (entry - 1);
    if closed & bit != 0 {
        out.push(StageEnd::stay(pos));
        return Some(0);
    }
    let k = pos.own.bar().min(count);
    if k < count && !far_from_home(pos.own, count) {
        return None;
    }
    let k128 = u128::from(k);
    let own = pos
        .own
        .0
        .wrapping_sub(k128 << (4 * BAR as u32))
        .wrapping_add(k128 << (4 * u32::from(entry)));
    let (opp, blots) = if blots & bit != 0 {
        (
            pos.opp.0.wrapping_add(HIT[usize::from(entry & 31)]),
            blots & !bit,
        )
    } else {
        (pos.opp.0, blots)
    };
    let s = (own, occ | bit, opp, blots);
    if k < count {
        let used = same_no_bearoff(s, k, closed, die, count - k, out);
        if used > 0 {
            return Some(used);
        }
    }
    out.push(StageEnd {
        pos: Position {
            own: Checkers(own),
            opp: Checkers(opp),
        },
        play: play_same(k, [], die),
    });
    Some(k)
}

/// Sources (bit `p − 1`) from which `die` is legal when no landing point is
/// closed and nothing is on the bar: moving from above `die`; bearing off
/// once everything is home, exactly or with a higher die from the highest
/// point. The common rules' sources with nothing blocked.
#[inline(always)]
pub(super) fn race_sources(occ: u32, die: u8) -> u32 {
    crate::rules::movegen::legal_sources(occ, 0, die)
}

/// One step `from → max(from − die, 0)` of the mover's checkers and
/// occupancy, nothing hit.
#[inline(always)]
pub(super) fn step_race(own_occ: (u128, u32), from: u8, die: u8) -> (u128, u32) {
    crate::rules::movegen::step_any(own_occ, from, die)
}

/// Whether all checkers are off after a step.
#[inline(always)]
pub(super) fn all_off(own: u128) -> bool {
    (own & 0xF) as u8 == CHECKERS
}

/// `count` (1..=4) equal dice, nothing on the bar and no landing point closed
/// or a blot (every point below the mover's highest checker is free of the
/// opponent): the general enumeration (non-increasing sources, longest plays
/// only, same order and plays) unrolled, bearing off included, without a
/// hash set (see [`same_general`]). Returns the dice played (0: `out` left empty).
#[inline(always)]
pub(super) fn same_race(
    pos: Position,
    occ: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let opp = pos.opp.0;
    let mut ends = Longest::new(out);
    let s0 = (pos.own.0, occ);
    let mut fa = race_sources(occ, die);
    while fa != 0 {
        let a = highest(fa);
        fa &= !(1 << (a - 1));
        let s1 = step_race(s0, a, die);
        if count == 1 || all_off(s1.0) {
            ends.record(s1.0, opp, 1, play_same(0, [a], die));
            continue;
        }
        let mut fb = race_sources(s1.1, die) & up_to(a);
        if fb == 0 {
            ends.record(s1.0, opp, 1, play_same(0, [a], die));
            continue;
        }
        while fb != 0 {
            let b = highest(fb);
            fb &= !(1 << (b - 1));
            let s2 = step_race(s1, b, die);
            if count == 2 || all_off(s2.0) {
                ends.record(s2.0, opp, 2, play_same(0, [a, b], die));
                continue;
            }
            let mut fc = race_sources(s2.1, die) & up_to(b);
            if fc == 0 {
                ends.record(s2.0, opp, 2, play_same(0, [a, b], die));
                continue;
            }
            while fc != 0 {
                let c = highest(fc);
                fc &= !(1 << (c - 1));
                let s3 = step_race(s2, c, die);
                if count == 3 || all_off(s3.0) {
                    ends.record(s3.0, opp, 3, play_same(0, [a, b, c], die));
                    continue;
                }
                let mut fd = race_sources(s3.1, die) & up_to(c);
                if fd == 0 {
                    ends.record(s3.0, opp, 3, play_same(0, [a, b, c], die));
                    continue;
                }
                while fd != 0 {
                    let d = highest(fd);
                    fd &= !(1 << (d - 1));
                    let s4 = step_race(s3, d, die);
                    ends.record(s4.0, opp, 4, play_same(0, [a, b, c, d], die));
                }
            }
        }
    }
    ends.best
}

/// Working state of the general fast enumeration: the mover's and the
/// opponent's packed checkers, the mover's occupancy (points only) and the
/// opponent's blots left (mover's numbering).
#[derive(Clone, Copy)]
pub(super) struct Work {
    own: u128,
    opp: u128,
    occ: u32,
    blots: u32,
}

/// Sources (bit `p − 1`, the bar bit 24) from which `die` is legal: the bar
/// alone while it holds a checker; bearing off once everything is home,
/// exactly or with a higher die from the highest point.
#[inline(always)]
pub(super) fn legal_sources(s: Work, closed: u32, die: u8) -> u32 {
    if (s.own >> (4 * BAR as u32)) & 0xF != 0 {
        return if closed & (1 << (24 - die)) == 0 {
            1 << 24
        } else {
            0
        };
    }
    let mut m = s.occ & open_for(closed, die);
    if s.occ & !HOME_MASK == 0 && s.occ != 0 {
        m |= s.occ & (1 << (die - 1));
        let h = highest(s.occ);
        if h < die {
            m |= 1 << (h - 1);
        }
    }
    m
}

/// Plays a legal step (entering, moving, hitting, bearing off).
#[inline(always)]
pub(super) fn step_any(s: Work, from: u8, die: u8) -> Work {
    let to = from.saturating_sub(die);
    let own = s
        .own
        .wrapping_sub(1u128 << (4 * u32::from(from)))
        .wrapping_add(1u128 << (4 * u32::from(to)));
    let mut occ = s.occ;
    if from != BAR && (own >> (4 * u32::from(from))) & 0xF == 0 {
        occ &= !(1 << (from - 1));
    }
    let (mut opp, mut blots) = (s.opp, s.blots);
    if to > 0 {
        let t = 1u32 << (to - 1);
        occ |= t;
        if blots & t != 0 {
            blots &= !t;
            opp = opp.wrapping_add(HIT[usize::from(to & 31)]);
        }
    }
    Work {
        own,
        opp,
        occ,
        blots,
    }
}

/// Collects the ends of the longest plays, each once (the mover's checkers
/// and the points hit identify an end).
pub(super) struct Distinct<'a> {
    blots0: u32,
    best: u8,
    seen: &'a mut EndSet,
    out: &'a mut Vec<StageEnd>,
}

impl Distinct<'_> {
    #[inline(always)]
    fn record(&mut self, s: Work, used: u8, play: Play) {
        if used < self.best {
            return;
        }
        if used > self.best {
            self.best = used;
            self.out.clear();
            self.seen.clear();
        }
        let hits = self.blots0 & !s.blots;
        if self.seen.insert(s.own | (u128::from(hits) << 104)) {
            self.out.push(StageEnd {
                pos: Position {
                    own: Checkers(s.own),
                    opp: Checkers(s.opp),
                },
                play,
            });
        }
    }
}

/// Two dice, any position: [`HitGen::pair`]'s enumeration (`hi` first,
/// then `lo` first, highest sources first) on local state, ends through a
/// hash set. Returns the dice played; `out` gets the unchanged position
/// when nothing is playable.
pub(super) fn pair_general(
    at: HitMasked,
    hi: u8,
    lo: u8,
    seen: &mut EndSet,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let (pos, occ, closed, blots) = (at.pos, at.occ, at.closed, at.blots);
    seen.clear();
    let s0 = Work {
        own: pos.own.0,
        opp: pos.opp.0,
        occ,
        blots,
    };
    let mut ends = Distinct {
        blots0: blots,
        best: 0,
        seen,
        out,
    };
    let orders = [(hi, lo), (lo, hi)];
    for &(first, second) in &orders[..if hi != lo { 2 } else { 1 }] {
        for p in Downward(legal_sources(s0, closed, first)) {
            let s1 = step_any(s0, p, first);
            let mut one = Play::EMPTY;
            one.push(Step::new(p, first));
            if (s1.own & 0xF) as u8 == CHECKERS {
                ends.record(s1, 1, one);
                continue;
            }
            let qs = legal_sources(s1, closed, second);
            if qs == 0 {
                ends.record(s1, 1, one);
                continue;
            }
            for q in Downward(qs) {
                ends.record(step_any(s1, q, second), 2, play2(p, first, q, second));
            }
        }
    }
    let used = ends.best;
    if used == 1 && out.iter().any(|e| e.play.steps()[0].die == hi) {
        out.retain(|e| e.play.steps()[0].die == hi);
    }
    if out.is_empty() {
        out.push(StageEnd::stay(pos));
    }
    used
}

/// Up to `left` more steps of `die` from sources at or below `top`
/// (non-increasing), as [`HitGen::same`].
pub(super) fn same_rec(
    ends: &mut Longest,
    closed: u32,
    s: Work,
    die: u8,
    left: u8,
    top: u8,
    play: Play,
) {
    let used = play.len() as u8;
    let fs = legal_sources(s, closed, die) & up_to(top);
    if fs == 0 {
        if used > 0 {
            ends.record(s.own, s.opp, used, play);
        }
        return;
    }
    for p in Downward(fs) {
        let s1 = step_any(s, p, die);
        let mut play1 = play;
        play1.push(Step::new(p, die));
        if left == 1 || (s1.own & 0xF) as u8 == CHECKERS {
            ends.record(s1.own, s1.opp, used + 1, play1);
        } else {
            same_rec(ends, closed, s1, die, left - 1, p, play1);
        }
    }
}

/// Equal dice, any position: the general enumeration on local state, the
/// ends of the longest plays each once without a hash set. Returns the dice
/// played; `out` gets the unchanged position when nothing is playable.
///
/// Every play is enumerated once as a non-increasing sequence of sources,
/// and distinct multisets of sources reach distinct ends, bearing off
/// included. The mover's checkers after steps from the sources `m` (counts
/// per point, the bar 25) are the start less `T m`, where `T` takes a checker
/// from `s` to `max(s − die, 0)` (0: borne off); `T` is triangular with ones
/// on its diagonal (`max(s − die, 0) < s`), so `T m` determines `m`.
pub(super) fn same_general(at: HitMasked, die: u8, count: u8, out: &mut Vec<StageEnd>) -> u8 {
    let (pos, occ, closed, blots) = (at.pos, at.occ, at.closed, at.blots);
    let s0 = Work {
        own: pos.own.0,
        opp: pos.opp.0,
        occ,
        blots,
    };
    let mut ends = Longest::new(out);
    same_rec(&mut ends, closed, s0, die, count, BAR, Play::EMPTY);
    let used = ends.best;
    if out.is_empty() {
        out.push(StageEnd::stay(pos));
    }
    used
}
