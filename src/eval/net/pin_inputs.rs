//! The pinning games' inputs (Plakoto, Tapa): input layout [`PIN_LAYOUT`].
//!
//! Layout 2 (the hitting games', [`crate::eval::hitnet`]) shows a pinned
//! checker only as checkers of both colours on one point, so it cannot say
//! which of two lone checkers is pinned, nor whether a mother is in danger.
//! Layout [`PIN_LAYOUT`] is layout 2 and then, for the side to move and
//! then its opponent (each in its own numbering), [`PER_SIDE`] inputs:
//!
//! | offset | input |
//! | --- | --- |
//! | 0..24 | 1 when this side's checker on point `offset + 1` lies pinned |
//! | 24 | this side's pinned checkers / 6, at most 1 |
//! | 25 | 1 when this side's mother (a checker on its 24) is pinned |
//! | 26 | the share of the other side's 36 rolls that can pin a lone checker of this side ([`pin_share`]) |
//! | 27 | the share of the other side's rolls that can pin this side's mother (a lone checker on its 24) |
//! | 28 | the longest row of points this side closes to the other / 6 ([`longest_prime`]) |
//! | 29 | this side's checkers outside its home (points 7–24) / 15 |
//! | 30 | points where this side pins with a single checker / 4, at most 1 (moving it frees the pinned one) |
//!
//! A point is closed to a side when the other side has two or more
//! checkers there, or one that pins a checker of the first side. A lone
//! checker of a side (one, not pinned, and nothing pinned under it) is
//! pinned by any opposing checker that lands on it. The shares count the
//! rolls on which some checker of the roller could reach such a checker,
//! each step landing on a point open to it (a doublet's four steps, one
//! checker or several; the two dice of a roll taken by one checker in
//! either order or by two); they do not ask whether the rest of the roll
//! can be played, nor the rule that as many dice as possible be played.

use super::InputSink;
use crate::rules::position::Checkers;

/// The pinning games' input layout.
pub const PIN_LAYOUT: u32 = 8;
/// Inputs per side.
pub const PER_SIDE: usize = 31;
/// Inputs of layout [`PIN_LAYOUT`]: layout 2's and [`PER_SIDE`] per side.
pub const PIN_INPUTS: usize = crate::eval::hitnet::INPUTS + 2 * PER_SIDE;

const ALL: u32 = 0xFF_FFFF;

/// A side's checkers seen by the pinning rule, as masks in its numbering
/// (bit `p - 1` for point `p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinView {
    /// Points with a checker of this side that can move (not pinned).
    pub movable: u32,
    /// Points where a lone checker of this side can be pinned.
    pub lone: u32,
    /// Points closed to this side's checkers (the other's made points and
    /// pinners standing on this side's pinned checkers).
    pub closed: u32,
    /// This side's pinned checkers.
    pub pinned: u32,
}

/// Bit `p - 1` of `m` moved to the other side's point `25 - p`.
#[inline]
fn other(m: u32) -> u32 {
    m.reverse_bits() >> 8
}

/// Points (bit `p - 1`) holding `n` or more checkers of `c`.
#[inline]
fn at_least(c: Checkers, n: u8) -> u32 {
    let mut m = 0;
    for p in 1..=24u8 {
        if c.at(p) >= n {
            m |= 1 << (p - 1);
        }
    }
    m
}

/// The view of `me` against `them` (each in its own numbering).
pub fn view(me: Checkers, them: Checkers) -> PinView {
    let pinned = me.pinned_mask();
    let theirs_pinned = them.pinned_mask();
    let mine = me.mask();
    let singles = mine & !at_least(me, 2);
    // Points where the other side's checkers stand, in my numbering.
    let them_here = other(them.mask());
    let them_two = other(at_least(them, 2));
    PinView {
        movable: mine & !pinned,
        // One checker, not pinned, nothing of theirs pinned under it.
        lone: singles & !pinned & !other(theirs_pinned),
        // Their made points, and their pinners over my pinned checkers.
        closed: (them_two | (them_here & pinned)) & ALL,
        pinned,
    }
}

/// The share of the 36 rolls on which some checker of `roller` (its view)
/// can land on a point of `targets` (in the roller's numbering), every
/// landing on a point open to it.
pub fn reach_share(roller: &PinView, targets: u32) -> f32 {
    if targets == 0 || roller.movable == 0 {
        return 0.0;
    }
    let mut rolls = 0u32;
    for d1 in 1..=6u32 {
        for d2 in d1..=6u32 {
            if reaches(roller, targets, d1, d2) {
                rolls += if d1 == d2 { 1 } else { 2 };
            }
        }
    }
    rolls as f32 / 36.0
}

/// Whether the roll `d1`-`d2` lets some checker of `roller` land on a
/// point of `targets` ([`reach_share`]'s test for one roll).
#[inline]
pub fn reaches(roller: &PinView, targets: u32, d1: u32, d2: u32) -> bool {
    lands(roller.movable, !roller.closed & ALL, targets, d1, d2)
}

/// Whether the roll `d1`-`d2` lets a checker on a point of `from` (a
/// mask) land on a point of `targets`, every landing on a point of `open`
/// (a doublet's four steps, the two dice in either order). Shared with the
/// blocking games' escapes (`block_inputs`).
#[inline]
pub(super) fn lands(from: u32, open: u32, targets: u32, d1: u32, d2: u32) -> bool {
    let landed = if d1 == d2 {
        let mut r = from;
        let mut any = 0;
        for _ in 0..4 {
            r = (r >> d1) & open;
            any |= r;
        }
        any
    } else {
        let a = (from >> d1) & open;
        let b = (from >> d2) & open;
        a | b | ((a >> d2) & open) | ((b >> d1) & open)
    };
    landed & targets != 0
}

/// The share of `them`'s rolls that can pin a lone checker of `me`, and
/// those that can pin `me`'s lone mother (its 24).
pub fn pin_share(me: Checkers, them: Checkers) -> [f32; 2] {
    let mine = view(me, them);
    let roller = view(them, me);
    // My lone checkers in the roller's numbering.
    let targets = other(mine.lone);
    let mother = targets & 1; // my 24 is its 1
    [reach_share(&roller, targets), reach_share(&roller, mother)]
}

/// The longest row of points `me` closes to `them` (two or more checkers,
/// or one pinning), in `me`'s numbering.
pub fn longest_prime(me: Checkers, them: Checkers) -> u32 {
    let closed = at_least(me, 2) | (me.mask() & other(them.pinned_mask()));
    super::inputs::longest_row(closed)
}

/// Writes layout [`PIN_LAYOUT`]'s inputs beyond layout 2's: the side to
/// move's `own` at `base`, then its opponent's `opp` at `base + PER_SIDE`.
#[inline]
pub(crate) fn write(own: Checkers, opp: Checkers, base: usize, out: &mut impl InputSink) {
    for (k, (me, them)) in [(own, opp), (opp, own)].into_iter().enumerate() {
        let b = base + k * PER_SIDE;
        let pinned = me.pinned_mask();
        let mut m = pinned;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            out.push((b + i) as u16, 1.0);
            m &= m - 1;
        }
        if pinned != 0 {
            out.push((b + 24) as u16, (pinned.count_ones() as f32 / 6.0).min(1.0));
        }
        if me.pinned(24) {
            out.push((b + 25) as u16, 1.0);
        }
        let [any, mother] = pin_share(me, them);
        if any > 0.0 {
            out.push((b + 26) as u16, any);
        }
        if mother > 0.0 {
            out.push((b + 27) as u16, mother);
        }
        let prime = longest_prime(me, them);
        if prime > 0 {
            out.push((b + 28) as u16, prime as f32 / 6.0);
        }
        let outside: u32 = (7..=24u8).map(|p| u32::from(me.at(p))).sum();
        if outside > 0 {
            out.push((b + 29) as u16, outside as f32 / 15.0);
        }
        let lone_pinners = (me.mask() & !at_least(me, 2) & other(them.pinned_mask())).count_ones();
        if lone_pinners > 0 {
            out.push((b + 30) as u16, (lone_pinners as f32 / 4.0).min(1.0));
        }
    }
}

#[cfg(test)]
mod tests;
