//! The gnubg-class contact inputs of the hitting games' layout
//! [`HIT_GNUBG_LAYOUT`]: for each side, seventeen measures of the contact
//! between the two armies (break contact, back checker and anchors, the
//! chances and cost of being hit, escapes and containment, mobility,
//! moment, entering, timing, backbone, back game, free pips), added to
//! layout 6's while there is contact. docs/INPUTS.md says what each one
//! means; the definitions are this project's own, written from the
//! published descriptions of gnubg's inputs (not from its code).
//!
//! A side `me` is measured against the other side `them`, everything in
//! `me`'s numbering (its point `p` is `them`'s `25 - p`; the bar is 25).
//! Masks have bit `p - 1` for point `p`.

use super::{InputSink, longest_row, masks_at_least};
use crate::rules::position::Checkers;

/// Inputs per side.
pub const PER_SIDE: usize = 17;

/// What each of a side's inputs is, in order (docs/INPUTS.md).
pub const NAMES: [&str; PER_SIDE] = [
    "break contact",
    "free pips",
    "back checker",
    "back anchor",
    "forward anchor",
    "pip loss",
    "double shots",
    "back escapes",
    "containment",
    "containment squared",
    "mobility",
    "moment",
    "staying out",
    "timing",
    "backbone",
    "back game",
    "back game checkers",
];

/// The input layout of the hitting games' networks with these inputs:
/// layout 6 ([`super::HIT_CONTACT_LAYOUT`]) and, while there is contact,
/// [`PER_SIDE`] inputs per side, the side to move's first.
pub const HIT_GNUBG_LAYOUT: u32 = 7;

/// Points 19–24: the other side's home board, in a side's numbering.
const THEIR_HOME: u32 = 0xFC_0000;

/// One side's checkers and the masks the inputs read.
#[derive(Clone, Copy)]
struct Side {
    c: Checkers,
    /// Points with a checker.
    occupied: u32,
    /// Points with two or more (made points).
    made: u32,
}

impl Side {
    #[inline]
    fn of(c: Checkers) -> Side {
        Side::with_mask(c, c.mask())
    }

    /// The side of `c`, whose occupancy mask `occupied` is at hand.
    #[inline(always)]
    fn with_mask(c: Checkers, occupied: u32) -> Side {
        Side {
            c,
            occupied,
            made: masks_at_least(c)[0],
        }
    }
}

/// A mask seen from the other side: point `p` becomes `25 - p`.
#[inline]
pub(crate) fn turned(m: u32) -> u32 {
    m.reverse_bits() >> 8
}

/// The rolls, each once: (first die, second die, how many of the 36).
const ROLLS: [(u32, u32, u32); 21] = {
    let mut out = [(0, 0, 0); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[k] = (a, b, if a == b { 1 } else { 2 });
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// For each window of the twelve points in front of a checker on `p` (bit
/// `i` set when the other side holds point `p - 12 + i`: bit 11 is the
/// point next to it), how many of the 36 rolls carry the checker past the
/// farthest of those points (the lowest), landing only on open points
/// (points beyond the window count as open). An empty window: 36.
/// Built when the program is compiled (a table read, not a lazily built
/// one, so a look-up has no check whether it is built yet).
static ESCAPES: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut w = 0;
    while w < 4096 {
        t[w] = escapes_of_window(w as u32);
        w += 1;
    }
    t
};

/// [`ESCAPES`]' entry for window `w`, counted with masks: the checker on
/// bit 24, the window on bits 12–23, open ground below (bits 0–11).
const fn escapes_of_window(w: u32) -> u8 {
    if w == 0 {
        return 36;
    }
    let open = !(w << 12) & 0x1FF_FFFF;
    let past = (1u32 << (w.trailing_zeros() + 12)) - 1;
    let from = 1u32 << 24;
    let mut n = 0;
    let mut k = 0;
    while k < ROLLS.len() {
        let (a, b, weight) = ROLLS[k];
        k += 1;
        let reached = if a == b {
            let r1 = (from >> a) & open;
            let r2 = (r1 >> a) & open;
            let r3 = (r2 >> a) & open;
            r1 | r2 | r3 | ((r3 >> a) & open)
        } else {
            let (ra, rb) = ((from >> a) & open, (from >> b) & open);
            ra | rb | (((ra >> b) | (rb >> a)) & open)
        };
        if reached & past != 0 {
            n += weight;
        }
    }
    n as u8
}

/// Of the 36 rolls, how many let a checker on point `p` (13–25) get past
/// the points `blocks` holds among the twelve in front of it
/// ([`ESCAPES`]).
#[cfg(test)]
fn escapes_from(blocks: u32, p: u32) -> u8 {
    ESCAPES[((blocks >> (p - 13)) & 0xFFF) as usize]
}

/// For each roll of [`ROLLS`], the points of `targets` some checker of
/// `sources` (moving down) can land on, each landing on the way on an
/// `open` point; `bar` checkers on the bar limit the first checker's steps
/// as [`crate::eval::hitnet`]'s shot count does (only the entering checker
/// is counted then). The reference of [`hit_tally`].
#[cfg(test)]
fn landings(sources: u32, bar: u8, targets: u32, open: u32) -> [u32; 21] {
    let steps = |doublet: bool| crate::eval::hitnet::steps_of_the_first_checker(doublet, bar);
    let upto = |k: u32| if steps(true) >= k { u32::MAX } else { 0 };
    let (m2, m3, m4) = (upto(2), upto(3), upto(4));
    let second = if steps(false) == 2 { u32::MAX } else { 0 };
    let one: [u32; 7] = std::array::from_fn(|d| if d == 0 { 0 } else { (sources >> d) & open });
    ROLLS.map(|(a, b, _)| {
        let (a, b) = (a as usize, b as usize);
        let reached = if a == b {
            let r2 = (one[a] >> a) & open & m2;
            let r3 = (r2 >> a) & open & m3;
            one[a] | r2 | r3 | ((r3 >> a) & open & m4)
        } else {
            one[a] | one[b] | (((one[a] >> b) | (one[b] >> a)) & open & second)
        };
        reached & targets
    })
}

/// Over the 36 rolls, what [`landings`] gives, tallied as the inputs
/// read it, without the list: the rolls that land on some target, those
/// that land on two or more, and the sum over the rolls of the highest
/// target landed on (its point number, 0 for none).
#[inline(always)]
fn hit_tally(sources: u32, bar: u8, targets: u32, open: u32) -> HitTally {
    let steps = |doublet: bool| crate::eval::hitnet::steps_of_the_first_checker(doublet, bar);
    let upto = |k: u32| if steps(true) >= k { u32::MAX } else { 0 };
    let (m2, m3, m4) = (upto(2), upto(3), upto(4));
    let second = if steps(false) == 2 { u32::MAX } else { 0 };
    let one: [u32; 7] = std::array::from_fn(|d| if d == 0 { 0 } else { (sources >> d) & open });
    let mut t = HitTally::default();
    // `h` the targets a roll of weight `w` lands on; no branch: an empty
    // `h` adds nothing to any count (32 leading zeros, no second bit).
    let mut tally = |h: u32, w: u32| {
        t.any += w * u32::from(h != 0);
        t.double += w * u32::from(h & h.wrapping_sub(1) != 0);
        t.loss += w * (32 - h.leading_zeros());
    };
    for (a, &r1) in one.iter().enumerate().skip(1) {
        let r2 = (r1 >> a) & open & m2;
        let r3 = (r2 >> a) & open & m3;
        tally((r1 | r2 | r3 | ((r3 >> a) & open & m4)) & targets, 1);
    }
    for a in 1..=5 {
        for b in a + 1..=6 {
            let two = ((one[a] >> b) | (one[b] >> a)) & open & second;
            tally((one[a] | one[b] | two) & targets, 2);
        }
    }
    t
}

/// [`hit_tally`]'s counts (of the 36 rolls).
#[derive(Clone, Copy, Default)]
struct HitTally {
    /// Rolls that land on a target.
    any: u32,
    /// Rolls that land on two targets or more.
    double: u32,
    /// The highest target landed on (its point), summed over the rolls.
    loss: u32,
}

/// The seventeen inputs of `me` against `them` ([`NAMES`]' order).
pub fn side_inputs(me: Checkers, them: Checkers) -> [f32; PER_SIDE] {
    measure(Side::of(me), Side::of(them)).0
}

/// Both sides' inputs ([`side_inputs`]: `own` against `opp`, then `opp`
/// against `own`), with the sides' occupancy masks at hand, and with each
/// side's share of the 36 rolls on which the other hits one of its blots
/// (layout 6's shots, [`crate::eval::hitnet::contact_units`]: the same
/// count, from the same landings), and each side's made points (two or
/// more checkers; bit `p - 1` for its point `p`), so that a caller needs
/// not count them again.
#[inline(always)]
pub(crate) fn both_sides(
    own: Checkers,
    own_mask: u32,
    opp: Checkers,
    opp_mask: u32,
) -> ([[f32; PER_SIDE]; 2], [f32; 2], [u32; 2]) {
    let (own, opp) = (
        Side::with_mask(own, own_mask),
        Side::with_mask(opp, opp_mask),
    );
    let (a, shots_a) = measure(own, opp);
    let (b, shots_b) = measure(opp, own);
    ([a, b], [shots_a, shots_b], [own.made, opp.made])
}

/// The denominators of [`measure`]'s sixteen quotients, lane by lane: the
/// inputs that are a count over a constant, and the shots.
const DENOMINATORS: [f32; 16] = [
    152.0,
    167.0,
    25.0,
    24.0,
    12.0,
    36.0 * 24.0,
    36.0,
    36.0,
    36.0,
    36.0 * 15.0,
    6.0,
    167.0,
    6.0,
    4.0,
    8.0,
    36.0,
];

/// The seventeen inputs of `me` against `them`, and the share of the 36
/// rolls on which `them` hits a blot of `me` (layout 6's shots).
///
/// Every input but the moment is a whole count over a constant: the counts
/// are gathered in one array and divided lane by lane ([`DENOMINATORS`]),
/// which gives each quotient's bits as a division of its own would.
#[inline]
fn measure(me: Side, them: Side) -> ([f32; PER_SIDE], f32) {
    let mut x = [0f32; PER_SIDE];
    // The counts, in [`DENOMINATORS`]' lanes.
    let mut num = [0u32; 16];
    let c = me.c;
    let bar = u32::from(c.bar());
    // Their points and checkers in my numbering.
    let their_made = turned(them.made);
    let their_occupied = turned(them.occupied);
    // Their rearmost checker, in my numbering (their bar is my 0; with
    // nothing left of theirs, nothing is left to pass).
    let rear = if them.c.bar() > 0 {
        0
    } else if their_occupied == 0 {
        25
    } else {
        their_occupied.trailing_zeros() + 1
    };

    // One pass over my points: break contact and free pips, my pips,
    // timing (checkers outside my home board to my 6 point, spares beyond
    // two on a home point to my 1), without a branch per point.
    let escapes_from = |p: u32| ESCAPES[((their_made >> (p - 13)) & 0xFFF) as usize];
    let (mut behind, mut free) = (bar * (25 - rear), 0u32);
    let mut pips = 25 * bar;
    let mut timing = 19 * bar;
    let mut m = me.occupied;
    while m != 0 {
        let p = m.trailing_zeros() + 1;
        m &= m - 1;
        let n = u32::from(c.at(p as u8));
        behind += n * p.saturating_sub(rear);
        free += if p > rear { 0 } else { n * p };
        pips += n * p;
        timing += n * p.saturating_sub(6)
            + if p > 6 {
                0
            } else {
                n.saturating_sub(2) * (p - 1)
            };
    }
    // Mobility: my checkers on 13–24 (and the bar) by their escapes.
    let mut mobility = bar * u32::from(escapes_from(25));
    let mut m = me.occupied & 0xFF_F000;
    while m != 0 {
        let p = m.trailing_zeros() + 1;
        m &= m - 1;
        mobility += u32::from(c.at(p as u8)) * u32::from(escapes_from(p));
    }
    num[0] = behind;
    num[1] = free;

    // Back checker, back anchor, forward anchor.
    num[2] = if bar > 0 {
        25
    } else {
        32 - me.occupied.leading_zeros()
    };
    num[3] = 32 - me.made.leading_zeros();
    let far_anchors = me.made & 0xFF_F000;
    if far_anchors != 0 {
        num[4] = 24 - far_anchors.trailing_zeros();
    }

    // Their shots at my blots, in their numbering: double shots, and the
    // pips the costliest hit of a roll sends back (my blot on my p, their
    // q = 25 - p, goes from p pips to 25: it loses q); and the rolls that
    // hit at all.
    let my_blots = turned(me.occupied & !me.made);
    if my_blots != 0 {
        let sources = if them.c.bar() > 0 {
            1 << 24
        } else {
            them.occupied
        };
        let t = hit_tally(
            sources,
            them.c.bar(),
            my_blots,
            !turned(me.made) & 0xFF_FFFF,
        );
        num[5] = t.loss;
        num[6] = t.double;
        num[15] = t.any;
    }

    // Escapes: from my 24 point, and the worst point of 15–24.
    num[7] = u32::from(escapes_from(24));
    let mut worst = 36;
    for p in 15..=24 {
        worst = worst.min(escapes_from(p));
    }
    num[8] = u32::from(worst);
    num[9] = mobility;

    // Moment: the spread of my checkers behind their mean, pips / left:
    // the sum of n·(p − pips/left)², counted in whole numbers as
    // n·(left·p − pips)² / left².
    let left = u32::from(c.on_board());
    if let Some(floor_mean) = pips.checked_div(left) {
        let mut spread = 0u64;
        let mut at = |p: u32, n: u32| {
            if left * p > pips {
                let d = u64::from(left * p - pips);
                spread += u64::from(n) * d * d;
            }
        };
        // Only points above the mean can count.
        let mut m = me.occupied & !((1u32 << floor_mean) - 1);
        while m != 0 {
            let p = m.trailing_zeros() + 1;
            m &= m - 1;
            at(p, u32::from(c.at(p as u8)));
        }
        at(25, bar);
        x[11] = (spread as f64 / f64::from(left * left) / (15.0 * 64.0)) as f32;
    }

    // Staying out: no die enters on their closed home points.
    num[10] = (their_made & THEIR_HOME).count_ones();
    num[11] = timing;

    // Backbone: the longest row of my made points.
    num[12] = longest_row(me.made);

    // Back game: my points in their home board.
    let anchors = (me.made & THEIR_HOME).count_ones();
    if anchors >= 2 {
        num[13] = anchors - 1;
    } else if anchors == 1 {
        num[14] = (19..=24).map(|p| u32::from(c.at(p))).sum::<u32>() + bar;
    }

    // The quotients, lane by lane (each the bits of its own division).
    let q: [f32; 16] = std::array::from_fn(|i| num[i] as f32 / DENOMINATORS[i]);
    x[..8].copy_from_slice(&q[..8]);
    x[8] = 1.0 - q[8];
    x[9] = x[8] * x[8];
    x[10] = q[9];
    x[12] = q[10] * q[10];
    x[13] = q[11];
    x[14] = q[12];
    x[15] = q[13];
    x[16] = q[14];
    (x, q[15])
}

/// Writes both sides' inputs (the side to move's `own` first, `inputs`
/// from [`both_sides`]) from input `base` on, the zeros left out.
#[inline(always)]
pub(crate) fn write(inputs: &[[f32; PER_SIDE]; 2], base: usize, out: &mut impl InputSink) {
    for (k, x) in inputs.iter().enumerate() {
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                out.push((base + k * PER_SIDE + i) as u16, v);
            }
        }
    }
}

#[cfg(test)]
mod tests;
