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
    EndSet, Longest, StageEnd, delta, highest, open_for, outside_at_least, play2, up_to,
};
use super::position::{BAR, CHECKERS, Checkers, HOME_MASK, Position};
use super::step::{Play, StageDice, Step};

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
pub fn step_problem(pos: Position, step: Step) -> Option<String> {
    let own = pos.own;
    if !(1..=6).contains(&step.die) {
        return Some(format!("no die {}", step.die));
    }
    if own.bar() > 0 && step.from != BAR {
        return Some("checkers on the bar must enter first".into());
    }
    if step.from == 0 || step.from > BAR || own.at(step.from) == 0 {
        return Some(if step.from == BAR {
            "no checker of the mover on the bar".into()
        } else {
            format!("no checker of the mover on {}", step.from)
        });
    }
    if step.from > step.die {
        let to = step.from - step.die;
        if closed_points(pos) & (1 << (to - 1)) != 0 {
            return Some(format!("point {to} is closed by the opponent"));
        }
        return None;
    }
    let occ = own.mask();
    if occ & !HOME_MASK != 0 {
        return Some("cannot bear off before all checkers are home".into());
    }
    if step.from != step.die && occ >> step.from != 0 {
        return Some(format!(
            "a {} bears off from {} only when no checker stands higher",
            step.die, step.from
        ));
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
                    return pair_no_bearoff(pos, self.occ, self.closed, self.blots, hi, lo, out);
                }
                if !self.general_only {
                    return pair_general(
                        pos,
                        self.occ,
                        self.closed,
                        self.blots,
                        hi,
                        lo,
                        &mut self.seen,
                        out,
                    );
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
                                out.push(StageEnd {
                                    pos,
                                    play: Play::EMPTY,
                                });
                            }
                            return used;
                        }
                        if (self.closed | self.blots) & up_to(highest(self.occ)) == 0 {
                            let used = same_race(pos, self.occ, die, count, out);
                            if used == 0 {
                                out.push(StageEnd {
                                    pos,
                                    play: Play::EMPTY,
                                });
                            }
                            return used;
                        }
                    } else if let Some(used) =
                        same_from_bar(pos, self.occ, self.closed, self.blots, die, count, out)
                    {
                        return used;
                    }
                }
                if !self.general_only {
                    return same_general(pos, self.occ, self.closed, self.blots, die, count, out);
                }
                self.dedupe = !far_from_home(pos.own, count);
                self.same(die, count, BAR, out);
            }
            _ => {}
        }
        if out.is_empty() {
            out.push(StageEnd {
                pos,
                play: Play::EMPTY,
            });
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
        let mut froms = self.sources();
        while froms != 0 {
            let from = 32 - froms.leading_zeros() as u8;
            froms &= !(1 << (from - 1));
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
        let mut froms = self.sources() & (u32::MAX >> (32 - u32::from(top)));
        let mut any = false;
        while froms != 0 {
            let from = 32 - froms.leading_zeros() as u8;
            froms &= !(1 << (from - 1));
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

/// Whether `n` steps cannot bear anything off: at least `n` checkers are
/// outside home or on the bar (a step brings at most one of them home).
#[inline]
fn far_from_home(own: Checkers, n: u8) -> bool {
    let bar = own.bar();
    bar >= n || outside_at_least(own, own.mask(), n - bar)
}

/// `HIT[t]` added (wrapping) to the opponent's packed checkers sends its blot
/// on the mover's point `t` (1..=24) to its bar.
const HIT: [u128; 32] = {
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
fn hit_all(opp: u128, mut hits: u32) -> u128 {
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
fn pair_no_bearoff(
    pos: Position,
    occ: u32,
    closed: u32,
    blots: u32,
    hi: u8,
    lo: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let own = pos.own.0;
    let opp = pos.opp.0;
    let open_lo = open_for(closed, lo);
    let a_hi = occ & open_for(closed, hi);
    // Checkers q whose route through q − hi hits nothing on the way.
    let clean_hi = a_hi & !(blots << hi);
    let mut ps = a_hi;
    while ps != 0 {
        let p = highest(ps);
        ps &= !(1 << (p - 1));
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
        let mut qs = occ1 & open_lo & !(clean_hi & (1 << (p + lo - 1)));
        while qs != 0 {
            let q = highest(qs);
            qs &= !(1 << (q - 1));
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
    let mut ps = occ
        & open_lo
        & open_for(closed, both)
        & !(occ << lo)
        & !(a_hi & !(blots << hi) & !(blots << lo));
    while ps != 0 {
        let p = highest(ps);
        ps &= !(1 << (p - 1));
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
                own: Checkers(own.wrapping_add(delta(die, p))),
                opp: Checkers(hit_all(opp, blots & (1 << (p - die - 1)))),
            },
            play,
        });
    }
    1
}

/// One step `from → from − die` (no bearing off) on the working state.
#[inline(always)]
fn step_fast(
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
fn play_same<const N: usize>(pre: u8, froms: [u8; N], die: u8) -> Play {
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
fn same_no_bearoff(
    s0: (u128, u32, u128, u32),
    pre: u8,
    closed: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
    let open = open_for(closed, die);
    let mut ends = Longest::new(out);
    let mut fa = s0.1 & open;
    while fa != 0 {
        let a = highest(fa);
        fa &= !(1 << (a - 1));
        let s1 = step_fast(s0, a, die);
        let mut fb = s1.1 & open & up_to(a);
        if count == 1 || fb == 0 {
            ends.record(s1.0, s1.2, pre + 1, play_same(pre, [a], die));
            continue;
        }
        while fb != 0 {
            let b = highest(fb);
            fb &= !(1 << (b - 1));
            let s2 = step_fast(s1, b, die);
            let mut fc = s2.1 & open & up_to(b);
            if count == 2 || fc == 0 {
                ends.record(s2.0, s2.2, pre + 2, play_same(pre, [a, b], die));
                continue;
            }
            while fc != 0 {
                let c = highest(fc);
                fc &= !(1 << (c - 1));
                let s3 = step_fast(s2, c, die);
                let mut fd = s3.1 & open & up_to(c);
                if count == 3 || fd == 0 {
                    ends.record(s3.0, s3.2, pre + 3, play_same(pre, [a, b, c], die));
                    continue;
                }
                while fd != 0 {
                    let d = highest(fd);
                    fd &= !(1 << (d - 1));
                    let s4 = step_fast(s3, d, die);
                    ends.record(s4.0, s4.2, pre + 4, play_same(pre, [a, b, c, d], die));
                }
            }
        }
    }
    ends.best
}

/// Equal dice with checkers on the bar: they enter first (all of them, or
/// all the dice), then the rest as [`same_no_bearoff`] when nothing can be
/// borne off. `None` when the general enumeration is needed.
#[inline(always)]
fn same_from_bar(
    pos: Position,
    occ: u32,
    closed: u32,
    blots: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> Option<u8> {
    let entry = BAR - die;
    let bit = 1u32 << (entry - 1);
    if closed & bit != 0 {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
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
fn race_sources(occ: u32, die: u8) -> u32 {
    super::movegen::legal_sources(occ, 0, die)
}

/// One step `from → max(from − die, 0)` of the mover's checkers and
/// occupancy, nothing hit.
#[inline(always)]
fn step_race(own_occ: (u128, u32), from: u8, die: u8) -> (u128, u32) {
    super::movegen::step_any(own_occ, from, die)
}

/// Whether all checkers are off after a step.
#[inline(always)]
fn all_off(own: u128) -> bool {
    (own & 0xF) as u8 == CHECKERS
}

/// `count` (1..=4) equal dice, nothing on the bar and no landing point closed
/// or a blot (every point below the mover's highest checker is free of the
/// opponent): the general enumeration (non-increasing sources, longest plays
/// only, same order and plays) unrolled, bearing off included, without a
/// hash set (see [`same_general`]). Returns the dice played (0: `out` left empty).
#[inline(always)]
fn same_race(pos: Position, occ: u32, die: u8, count: u8, out: &mut Vec<StageEnd>) -> u8 {
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
struct Work {
    own: u128,
    opp: u128,
    occ: u32,
    blots: u32,
}

/// Sources (bit `p − 1`, the bar bit 24) from which `die` is legal: the bar
/// alone while it holds a checker; bearing off once everything is home,
/// exactly or with a higher die from the highest point.
#[inline(always)]
fn legal_sources(s: Work, closed: u32, die: u8) -> u32 {
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
fn step_any(s: Work, from: u8, die: u8) -> Work {
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
struct Distinct<'a> {
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
#[allow(clippy::too_many_arguments)]
fn pair_general(
    pos: Position,
    occ: u32,
    closed: u32,
    blots: u32,
    hi: u8,
    lo: u8,
    seen: &mut EndSet,
    out: &mut Vec<StageEnd>,
) -> u8 {
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
        let mut fs = legal_sources(s0, closed, first);
        while fs != 0 {
            let p = highest(fs);
            fs &= !(1 << (p - 1));
            let s1 = step_any(s0, p, first);
            let mut one = Play::EMPTY;
            one.push(Step::new(p, first));
            if (s1.own & 0xF) as u8 == CHECKERS {
                ends.record(s1, 1, one);
                continue;
            }
            let mut qs = legal_sources(s1, closed, second);
            if qs == 0 {
                ends.record(s1, 1, one);
                continue;
            }
            while qs != 0 {
                let q = highest(qs);
                qs &= !(1 << (q - 1));
                ends.record(step_any(s1, q, second), 2, play2(p, first, q, second));
            }
        }
    }
    let used = ends.best;
    if used == 1 && out.iter().any(|e| e.play.steps()[0].die == hi) {
        out.retain(|e| e.play.steps()[0].die == hi);
    }
    if out.is_empty() {
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
    }
    used
}

/// Up to `left` more steps of `die` from sources at or below `top`
/// (non-increasing), as [`HitGen::same`].
fn same_rec(ends: &mut Longest, closed: u32, s: Work, die: u8, left: u8, top: u8, play: Play) {
    let used = play.len() as u8;
    let mut fs = legal_sources(s, closed, die) & (u32::MAX >> (32 - u32::from(top)));
    if fs == 0 {
        if used > 0 {
            ends.record(s.own, s.opp, used, play);
        }
        return;
    }
    while fs != 0 {
        let p = highest(fs);
        fs &= !(1 << (p - 1));
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
#[allow(clippy::too_many_arguments)]
fn same_general(
    pos: Position,
    occ: u32,
    closed: u32,
    blots: u32,
    die: u8,
    count: u8,
    out: &mut Vec<StageEnd>,
) -> u8 {
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
        out.push(StageEnd {
            pos,
            play: Play::EMPTY,
        });
    }
    used
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
mod tests {
    use super::*;

    fn pos(own: &[(u8, u8)], own_bar: u8, opp: &[(u8, u8)], opp_bar: u8) -> Position {
        let side = |list: &[(u8, u8)], bar| {
            let mut c = [0u8; 24];
            for &(p, n) in list {
                c[p as usize - 1] = n;
            }
            Checkers::from_counts_with_bar(&c, bar).unwrap()
        };
        Position {
            own: side(own, own_bar),
            opp: side(opp, opp_bar),
        }
    }

    #[test]
    fn start_counts_per_roll() {
        let expected = [
            (2, 1, 15),
            (3, 1, 16),
            (4, 1, 14),
            (5, 1, 8),
            (6, 1, 10),
            (3, 2, 17),
            (4, 2, 18),
            (5, 2, 8),
            (6, 2, 14),
            (4, 3, 17),
            (5, 3, 9),
            (6, 3, 14),
            (5, 4, 9),
            (6, 4, 14),
            (6, 5, 7),
            (1, 1, 42),
            (2, 2, 75),
            (3, 3, 73),
            (4, 4, 52),
            (5, 5, 4),
            (6, 6, 11),
        ];
        for (a, b, n) in expected {
            let (ends, used) = stage_ends(START, StageDice::from_roll(a, b));
            assert_eq!(ends.len(), n, "{a}{b}");
            assert_eq!(used, if a == b { 4 } else { 2 });
        }
    }

    #[test]
    fn masks_mirror() {
        assert_eq!(mirror_mask(1), 1 << 23);
        assert_eq!(mirror_mask(1 << 23), 1);
        // The opponent's 6 (5 checkers) and 8 (3) close the mover's 19 and 17;
        // its 24 (2) and 13 (5) close 1 and 12.
        assert_eq!(closed_points(START), (1 << 18) | (1 << 16) | 1 | (1 << 11));
        assert_eq!(blot_points(START), 0);
    }

    #[test]
    fn a_hit_goes_to_the_bar_and_the_bar_enters_first() {
        // Mover on 13 and the bar; an opponent blot on its 6 (the mover's 19),
        // and two on its 1 (the mover's 24, closed): only the 6 enters, hitting.
        let p = pos(&[(13, 1)], 1, &[(6, 1), (1, 2)], 0);
        let (ends, used) = stage_ends(p, StageDice::Pair(6, 1));
        assert_eq!(used, 2);
        assert_eq!(ends.len(), 2);
        for e in &ends {
            assert_eq!(e.play.steps()[0], Step::new(BAR, 6), "{:?}", e.play);
            assert_eq!(e.pos.own.bar(), 0);
            assert_eq!(e.pos.opp.bar(), 1);
            assert_eq!(e.pos.opp.at(6), 0);
        }
    }

    #[test]
    fn dance_on_a_closed_board() {
        let closed: Vec<(u8, u8)> = (1..=6).map(|q| (q, 2)).collect();
        let p = pos(&[(13, 1)], 1, &closed, 0);
        let (ends, used) = stage_ends(p, StageDice::Pair(6, 5));
        assert_eq!(used, 0);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos, p);
    }
    /// A random hitting-game position: both sides over points (bias towards
    /// home), blots and points alike, with some checkers on the bars.
    fn random_position(seed: &mut u64, home_bias: u64) -> Position {
        let mut next = |n: u64| {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*seed >> 33) % n
        };
        let mut own = [0u8; 24];
        let mut opp = [0u8; 24];
        let mut bars = [0u8; 2];
        for (side, bar) in bars.iter_mut().enumerate() {
            let off = next(4) * next(5);
            *bar = if next(4) == 0 { next(3) as u8 } else { 0 };
            let spread = next(2) == 0;
            for _ in (off + u64::from(*bar))..15 {
                for _ in 0..50 {
                    let p = if next(100) < home_bias {
                        next(6) as u8 + 1
                    } else {
                        next(24) as u8 + 1
                    };
                    let (mine, other) = if side == 0 {
                        (&mut own, &opp)
                    } else {
                        (&mut opp, &own)
                    };
                    let crowd = spread && mine[p as usize - 1] > 0;
                    if other[mirrored(p) as usize - 1] == 0 && !crowd {
                        mine[p as usize - 1] += 1;
                        break;
                    }
                }
            }
        }
        Position {
            own: Checkers::from_counts_with_bar(&own, bars[0]).unwrap(),
            opp: Checkers::from_counts_with_bar(&opp, bars[1]).unwrap(),
        }
    }

    /// A random race or bear-off position: the mover mostly home (none, one
    /// or two checkers outside, some borne off), the opponent above the
    /// mover's checkers, now and then one opposing checker among them
    /// (contact: the general paths).
    fn random_race(seed: &mut u64) -> Position {
        let mut next = |n: u64| {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*seed >> 33) % n
        };
        let mut own = [0u8; 24];
        let mut opp = [0u8; 24];
        let outside = next(3) as usize;
        let top = 7 + next(12) as usize; // the mover's highest possible point
        let off = next(15) as usize;
        for i in off..15 {
            let p = if i < off + outside {
                7 + next(top as u64 - 6) as usize
            } else {
                1 + next(6) as usize
            };
            own[p - 1] += 1;
        }
        let high = own.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        let opp_off = 2 + next(13) as usize; // room for the contact checkers
        for _ in opp_off..15 {
            // Opponent's points 1..=24 − high: the mover's points above `high`.
            let p = 1 + next((24 - high) as u64) as usize;
            opp[p - 1] += 1;
        }
        if next(8) == 0 && high > 1 {
            // One opposing checker (or two) on a free point below `high`.
            let t = 1 + next(high as u64 - 1) as usize;
            if own[t - 1] == 0 {
                opp[25 - t - 1] += 1 + next(2) as u8;
            }
        }
        Position {
            own: Checkers::from_counts_with_bar(&own, 0).unwrap(),
            opp: Checkers::from_counts_with_bar(&opp, 0).unwrap(),
        }
    }

    #[test]
    fn fast_paths_match_general_enumeration() {
        let mut stages = Vec::new();
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                stages.push(StageDice::Pair(a, b));
            }
            for count in 1..=4 {
                stages.push(StageDice::Same { die: a, count });
            }
        }
        let mut fast = HitGen::new();
        let mut general = HitGen::new();
        general.general_only = true;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut seed = 7;
        let mut fast_calls = 0;
        let mut race_calls = 0;
        for i in 0..30_000 {
            let pos = if i == 0 {
                START
            } else if i >= 20_000 {
                random_race(&mut seed)
            } else {
                random_position(&mut seed, [0, 30, 70, 100][i % 4])
            };
            for &dice in &stages {
                let na = fast.generate(pos, dice, &mut a);
                let nb = general.generate(pos, dice, &mut b);
                assert_eq!((na, &a), (nb, &b), "{pos:?} {dice:?}");
                let occ = pos.own.mask();
                if pos.own.bar() == 0 && outside_at_least(pos.own, occ, 2) {
                    fast_calls += 1;
                }
                let free = (closed_points(pos) | blot_points(pos)) & up_to(highest(occ)) == 0;
                if pos.own.bar() == 0
                    && !pos.is_over()
                    && free
                    && !outside_at_least(pos.own, occ, 4)
                {
                    race_calls += 1;
                }
            }
        }
        assert!(fast_calls > 100_000, "{fast_calls}");
        assert!(race_calls > 100_000, "{race_calls}");
    }
}
