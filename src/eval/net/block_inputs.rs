//! The blocking games' inputs (long nardy, Fevga): input layout
//! [`RUN_BLOCK_LAYOUT`].
//!
//! Layout 3 ([`super::LONG_LAYOUT`]) sees each side's checkers point by
//! point, its longest row of held points and the checkers behind a row of
//! three or more within a die's reach. What decides these games beyond
//! that: a row of points only blocks checkers that still have to pass it;
//! checkers stuck on the head; whether the rearmost checker can get past the
//! other side's points; and the race to the home. Layout
//! [`RUN_BLOCK_LAYOUT`] is layout 3 and then, for the side to move and then
//! its opponent ("this side", the other "the other side"), [`PER_SIDE`]
//! inputs, then one for both:
//!
//! | offset | input |
//! | --- | --- |
//! | 0 | the longest row of this side's points in front of the other side's rearmost checker (on the other's path, below that checker's point) / 6, at most 1 |
//! | 1 | this side's points among the six in front of the other side's rearmost checker / 6 |
//! | 2 | the other side's checkers with a row of 4 or more of this side's points somewhere in front of them / 15 |
//! | 3 | the same behind a row of 5 or more / 15 |
//! | 4 | the same behind a row of 6 or more / 15 |
//! | 5 | this side's checkers on its head (its 24) / 15 |
//! | 6 | the share of the 36 rolls with which this side's rearmost checker gets past the other side's points within six pips in front of it ([`escape_share`]); 1 when none stands there |
//! | 7 | this side's pips to bring every checker home: the sum over its checkers on its 7–24 of (point − 6), / 270 |
//! | 8 | this side's checkers home (its 1–6) or borne off / 15 |
//! | 9 | 1 when a checker of this side has passed the other side's start (stands on its 11 or lower, or is off): Fevga's starting rule |
//! | 10 | the point of this side's rearmost checker / 24 (0 with none on the board) |
//!
//! and at `2 × PER_SIDE`: 1 when the sides are past each other (every
//! checker of each on its own 1–12 or off: neither can block the other
//! again, a pure race).
//!
//! Both games close a point with a single checker and hit nothing, so a
//! side's points are where its checkers stand. The other side's point `q`
//! is this side's `q ± 12`; both run from their 24 to their 1.

use super::InputSink;
use super::pin_inputs::lands;
use crate::rules::position::Checkers;

/// The blocking games' input layout.
pub const RUN_BLOCK_LAYOUT: u32 = 9;
/// Inputs per side.
pub const PER_SIDE: usize = 11;
/// Inputs of layout [`RUN_BLOCK_LAYOUT`]: layout 3's, [`PER_SIDE`] per
/// side and one for both.
pub const RUN_BLOCK_INPUTS: usize = super::LONG_INPUTS + 2 * PER_SIDE + 1;

const ALL: u32 = 0xFF_FFFF;

/// The highest point (1..=24) of the occupancy mask `m`, 0 when empty.
#[inline]
fn top(m: u32) -> u32 {
    32 - m.leading_zeros()
}

/// Points 1..`p`−1 of a mask (bits below bit `p − 1`).
#[inline]
fn below(p: u32) -> u32 {
    if p == 0 { 0 } else { (1u32 << (p - 1)) - 1 }
}

/// Checkers of `c` on the points of `m`.
#[inline]
fn count_on(c: Checkers, mut m: u32) -> u32 {
    let mut n = 0;
    while m != 0 {
        let p = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        n += u32::from(c.at(p));
    }
    n
}

/// How `me`'s points block `them`: the longest row of `me`'s points in
/// front of `them`'s rearmost checker, `me`'s points among the six in front
/// of it, and `them`'s checkers with a row of 4+, 5+ and 6+ of `me`'s
/// points somewhere in front of them (each side in its own numbering).
pub fn blocking(me: Checkers, them: Checkers) -> (u32, u32, [u32; 3]) {
    // My points in their numbering: the points closed to them.
    let closed = me.mask_in_other_numbering();
    let theirs = them.mask();
    let rear = top(theirs);
    let ahead = closed & below(rear);
    let row = super::inputs::longest_row(ahead);
    let near = ahead & !below(rear.saturating_sub(6));
    // Bit s of `run`: points s+1..=s+k closed (k = 4, 5, 6 in turn).
    let mut run = closed & (closed >> 1) & (closed >> 2) & (closed >> 3);
    let mut trapped = [0u32; 3];
    for (i, k) in (4..=6u32).enumerate() {
        if run == 0 {
            break;
        }
        // The lowest row ends on point lo + k: checkers above it are behind.
        let lo = run.trailing_zeros();
        trapped[i] = count_on(them, theirs & !below(lo + k + 1));
        run &= run >> 1;
    }
    (row, near.count_ones(), trapped)
}

/// The share of the 36 rolls with which `me`'s rearmost checker gets past
/// `them`'s points within six pips in front of it: lands, one checker and
/// every step on a point `them` leaves open, below the lowest of those
/// points. 1 when none of the six points in front of it holds a checker of
/// `them`, 0 when `me` has no checker on the board. Bearing off is not
/// counted (a checker passes only by landing on a point).
pub fn escape_share(me: Checkers, them: Checkers) -> f32 {
    let rear = top(me.mask());
    if rear == 0 {
        return 0.0;
    }
    let closed = them.mask_in_other_numbering();
    let in_front = closed & below(rear) & !below(rear.saturating_sub(6));
    if in_front == 0 {
        return 1.0;
    }
    let lowest = in_front.trailing_zeros() + 1;
    let targets = below(lowest);
    let from = 1u32 << (rear - 1);
    let open = !closed & ALL;
    let mut rolls = 0;
    for d1 in 1..=6u32 {
        for d2 in d1..=6u32 {
            if lands(from, open, targets, d1, d2) {
                rolls += if d1 == d2 { 1 } else { 2 };
            }
        }
    }
    rolls as f32 / 36.0
}

/// `me`'s pips to bring every checker home (the sum over its checkers on
/// 7–24 of point − 6), and its checkers home or borne off.
pub fn race_home(me: Checkers) -> (u32, u32) {
    let mut m = me.mask() & !0x3F;
    let mut pips = 0;
    while m != 0 {
        let p = m.trailing_zeros() + 1;
        m &= m - 1;
        pips += (p - 6) * u32::from(me.at(p as u8));
    }
    let home = count_on(me, me.mask() & 0x3F) + u32::from(me.off());
    (pips, home)
}

/// Writes layout [`RUN_BLOCK_LAYOUT`]'s inputs beyond layout 3's: the side
/// to move's `own` at `base`, its opponent's `opp` at `base + PER_SIDE`,
/// then the one for both.
#[inline]
pub(crate) fn write(own: Checkers, opp: Checkers, base: usize, out: &mut impl InputSink) {
    let mut push = |i: usize, v: f32| {
        if v != 0.0 {
            out.push(i as u16, v);
        }
    };
    for (k, (me, them)) in [(own, opp), (opp, own)].into_iter().enumerate() {
        let b = base + k * PER_SIDE;
        let (row, near, trapped) = blocking(me, them);
        push(b, (row as f32 / 6.0).min(1.0));
        push(b + 1, near as f32 / 6.0);
        for (i, n) in trapped.into_iter().enumerate() {
            push(b + 2 + i, n as f32 / 15.0);
        }
        push(b + 5, f32::from(me.at(24)) / 15.0);
        push(b + 6, escape_share(me, them));
        let (pips, home) = race_home(me);
        push(b + 7, pips as f32 / 270.0);
        push(b + 8, home as f32 / 15.0);
        if me.off() > 0 || me.mask() & below(12) != 0 {
            push(b + 9, 1.0);
        }
        push(b + 10, top(me.mask()) as f32 / 24.0);
    }
    if (own.mask() | opp.mask()) & !below(13) == 0 {
        push(base + 2 * PER_SIDE, 1.0);
    }
}

#[cfg(test)]
mod tests;
