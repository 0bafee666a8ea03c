//! The position as the side to move sees it.
//!
//! Both sides run the same way round the board, each in its own numbering: a
//! side's checkers start on its own point 24 and leave from its points 1–6.
//! A [`Position`] keeps each side's checkers in that side's own numbering,
//! packed four bits per point into a `u128` (nibble 0 is the borne-off count,
//! nibbles 1–24 the points), so a position is 32 bytes, `Copy`, and hashes and
//! compares as two integers. Turning the board round for the other side is a
//! swap of the two halves.

/// Number of checkers per side.
pub const CHECKERS: u8 = 15;

/// The bar's nibble in [`Checkers`], and the `from` of a step that enters
/// from the bar (a checker there is 25 points from home).
pub const BAR: u8 = 25;

/// The first bit of the pin marks in [`Checkers`]: nibbles 26–31, unused by
/// the counts, hold one bit per point.
const PIN_SHIFT: u32 = 4 * 26;

/// Mover's point `p` seen from the opponent's numbering (an involution).
#[inline]
pub const fn other_numbering(p: u8) -> u8 {
    ((p + 11) % 24) + 1
}

/// Bit mask of the home quarter (points 1–6) in an occupancy mask where bit
/// `p - 1` stands for point `p`.
pub const HOME_MASK: u32 = 0x3F;

/// Gathers bit `4k` of `x` into bit `k` (k = 0..16).
#[inline(always)]
pub(crate) const fn compress_nibbles(x: u64) -> u32 {
    let x = x & 0x1111_1111_1111_1111;
    let x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    let x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    let x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    ((x | (x >> 24)) & 0xFFFF) as u32
}

/// Checkers of one side in its own numbering, four bits per point.
///
/// Nibble 0 holds the borne-off count, nibble `p` the checkers on point `p`,
/// nibble [`BAR`] the checkers on the bar (always 0 in the games without
/// hitting); in the pinning games, bits 104–127 mark the side's pinned
/// checkers (bit `104 + p - 1` for point `p`), always 0 elsewhere.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Checkers(pub u128);

impl Checkers {
    /// All 15 checkers on point 24: the start.
    pub const START: Checkers = Checkers((CHECKERS as u128) << (4 * 24));

    /// Builds from counts: `points[p - 1]` checkers on point `p`, the rest borne off.
    /// Returns `None` when more than 15 checkers are given.
    pub fn from_counts(points: &[u8; 24]) -> Option<Checkers> {
        let mut total: u32 = 0;
        let mut bits: u128 = 0;
        for (i, &n) in points.iter().enumerate() {
            total += u32::from(n);
            if n > CHECKERS {
                return None;
            }
            bits |= (n as u128) << (4 * (i + 1));
        }
        if total > u32::from(CHECKERS) {
            return None;
        }
        bits |= (u128::from(CHECKERS) - total as u128) & 0xF;
        Some(Checkers(bits))
    }

    /// Builds from counts on the points and the bar, the rest borne off.
    /// Returns `None` when more than 15 checkers are given.
    pub fn from_counts_with_bar(points: &[u8; 24], bar: u8) -> Option<Checkers> {
        let c = Checkers::from_counts(points)?;
        if bar > c.off() {
            return None;
        }
        Some(Checkers(
            c.0 - u128::from(bar) + (u128::from(bar) << (4 * u32::from(BAR))),
        ))
    }

    /// Checkers on the bar.
    #[inline]
    pub const fn bar(self) -> u8 {
        ((self.0 >> (4 * BAR as u32)) & 0xF) as u8
    }

    /// Checkers on point `p` (1..=24, or [`BAR`]).
    #[inline]
    pub const fn at(self, p: u8) -> u8 {
        ((self.0 >> (4 * p as u32)) & 0xF) as u8
    }

    /// Checkers borne off.
    #[inline]
    pub const fn off(self) -> u8 {
        (self.0 & 0xF) as u8
    }

    /// Checkers still in play (on the points or the bar).
    #[inline]
    pub const fn on_board(self) -> u8 {
        CHECKERS - self.off()
    }

    /// Occupancy mask: bit `p - 1` set when point `p` holds a checker.
    #[inline]
    pub const fn mask(self) -> u32 {
        // Fold each nibble onto its low bit, then compress the nibbles' low
        // bits into consecutive bits, one 64-bit half at a time.
        let x = self.0 >> 4;
        let x = x | (x >> 1);
        let x = x | (x >> 2);
        let lo = compress_nibbles(x as u64);
        let hi = compress_nibbles((x >> 64) as u64);
        (lo | (hi << 16)) & 0xFF_FFFF
    }

    /// The occupancy mask translated into the other side's numbering (its
    /// point `p` is this side's point `p ± 12`): the points this side closes
    /// to the other.
    #[inline]
    pub const fn mask_in_other_numbering(self) -> u32 {
        let m = self.mask();
        ((m << 12) | (m >> 12)) & 0xFF_FFFF
    }

    /// Counts per point, index `p - 1` for point `p`.
    pub fn counts(self) -> [u8; 24] {
        let mut out = [0u8; 24];
        for (i, c) in out.iter_mut().enumerate() {
            *c = self.at(i as u8 + 1);
        }
        out
    }

    /// Pip count: the sum of the distances every checker still has to run
    /// (a checker on the bar has 25 to go).
    pub fn pips(self) -> u32 {
        // Only the occupied points: the evaluators count pips for every
        // position they judge.
        let mut total = 25 * u32::from(self.bar());
        let mut m = self.mask();
        while m != 0 {
            let p = m.trailing_zeros() + 1;
            m &= m - 1;
            total += p * u32::from(self.at(p as u8));
        }
        total
    }

    /// Mask (bit `p - 1` for point `p`, own numbering) of this side's
    /// checkers pinned under an opposing one (the pinning games only: a
    /// pinned checker is alone on its point and cannot move).
    #[inline]
    pub const fn pinned_mask(self) -> u32 {
        (self.0 >> PIN_SHIFT) as u32
    }

    /// Whether this side's checker on point `p` (1..=24) is pinned.
    #[inline]
    pub const fn pinned(self, p: u8) -> bool {
        self.pinned_mask() & (1 << (p - 1)) != 0
    }

    /// The same checkers with the one on point `p` pinned (`true`) or free.
    #[inline]
    pub const fn with_pin(self, p: u8, pinned: bool) -> Checkers {
        let bit = 1u128 << (PIN_SHIFT + p as u32 - 1);
        Checkers(if pinned { self.0 | bit } else { self.0 & !bit })
    }

    /// The same checkers with exactly the pin marks of `mask` (bit `p - 1`
    /// for point `p`).
    #[inline]
    pub const fn with_pinned_mask(self, mask: u32) -> Checkers {
        Checkers(self.unpinned().0 | ((mask as u128) << PIN_SHIFT))
    }

    /// The same checkers with no pin marks.
    #[inline]
    pub const fn unpinned(self) -> Checkers {
        Checkers(self.0 & ((1u128 << PIN_SHIFT) - 1))
    }

    /// Moves one checker from `from` to `to` (0 is off, [`BAR`] the bar).
    /// No legality check.
    #[inline]
    pub fn moved(self, from: u8, to: u8) -> Checkers {
        Checkers(self.0 - (1u128 << (4 * from as u32)) + (1u128 << (4 * to as u32)))
    }
}

/// A position from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Position {
    /// The mover's checkers, in the mover's numbering.
    pub own: Checkers,
    /// The opponent's checkers, in the opponent's own numbering.
    pub opp: Checkers,
}

impl Position {
    /// The starting position (either side to move: the start is symmetric).
    pub const START: Position = Position {
        own: Checkers::START,
        opp: Checkers::START,
    };

    /// The same position seen by the other side.
    #[inline]
    pub const fn flipped(self) -> Position {
        Position {
            own: self.opp,
            opp: self.own,
        }
    }

    /// Points (mover's numbering, bit `p - 1`) the mover may not land on.
    #[inline]
    pub fn blocked(self) -> u32 {
        self.opp.mask_in_other_numbering()
    }

    /// Opponent checkers on the mover's point `p`.
    #[inline]
    pub fn opp_at(self, p: u8) -> u8 {
        self.opp.at(other_numbering(p))
    }

    /// Whether the game is over: either side has borne off all its
    /// checkers, or (the pinning games) a mother is pinned for good (see
    /// [`Position::mothers`]).
    #[inline]
    pub fn is_over(self) -> bool {
        self.own.off() == CHECKERS || self.opp.off() == CHECKERS || self.mothers().is_some()
    }

    /// The pinning games' mother rule: a side whose last checker on its
    /// start (its 24) is pinned loses, unless the pinner still has checkers
    /// on its own start (then it may yet pin that mother too: both pinned
    /// is a draw). `Some([mover lost, opponent lost])` when the rule ends
    /// the game (both: a draw), `None` while it does not.
    #[inline]
    pub fn mothers(self) -> Option<[bool; 2]> {
        const MOTHER: u32 = 1 << 23;
        if (self.own.pinned_mask() | self.opp.pinned_mask()) & MOTHER == 0 {
            return None;
        }
        let (mine, theirs) = (self.own.pinned(24), self.opp.pinned(24));
        match (mine, theirs) {
            (true, true) => Some([true, true]),
            (true, false) if self.opp.at(24) == 0 => Some([true, false]),
            (false, true) if self.own.at(24) == 0 => Some([false, true]),
            _ => None,
        }
    }
}

/// The longest run of set bits in a 6-bit window, for every window.
const LONGEST_RUN: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut w = 0;
    while w < 64 {
        let (mut run, mut best, mut b) = (0u8, 0u8, 0);
        while b < 6 {
            if w & (1 << b) != 0 {
                run += 1;
                if run > best {
                    best = run;
                }
            } else {
                run = 0;
            }
            b += 1;
        }
        t[w] = best;
        w += 1;
    }
    t
};

/// The longest row of closed points among the six in front of point `p`
/// (`p − 6 ..= p − 1`), with `blocks` a mask in the same numbering (bit
/// `q − 1` for point `q`). `p` must be 7..=24: nearer points can bear off.
#[inline]
pub fn longest_block_in_front(blocks: u32, p: u8) -> u8 {
    debug_assert!((7..=24).contains(&p));
    LONGEST_RUN[((blocks >> (p - 7)) & 0x3F) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pips_are_the_plain_sum_over_every_point_and_the_bar() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // 15 checkers spread at random over off, the points and the bar.
            let mut c = Checkers(0);
            let mut y = x;
            for _ in 0..15 {
                let slot = (y % 26) as u32;
                y /= 26;
                if y == 0 {
                    y = x.rotate_left(17) | 1;
                }
                if (c.0 >> (4 * slot)) & 0xF < 15 {
                    c.0 += 1 << (4 * slot);
                }
            }
            let plain: u32 = (1..=25u8).map(|p| u32::from(c.at(p)) * u32::from(p)).sum();
            assert_eq!(c.pips(), plain, "{:#x}", c.0);
        }
    }

    #[test]
    fn start_counts_and_pips() {
        let p = Position::START;
        assert_eq!(p.own.at(24), 15);
        assert_eq!(p.own.off(), 0);
        assert_eq!(p.own.pips(), 360);
        assert_eq!(p.own.mask(), 1 << 23);
        // Black's start (its 24) is White's 12.
        assert_eq!(p.blocked(), 1 << 11);
    }

    #[test]
    fn numbering_is_an_involution() {
        for p in 1..=24 {
            let q = other_numbering(p);
            assert!((1..=24).contains(&q));
            assert_eq!(other_numbering(q), p);
        }
        assert_eq!(other_numbering(24), 12);
        assert_eq!(other_numbering(1), 13);
    }

    #[test]
    fn mask_matches_counts() {
        let mut counts = [0u8; 24];
        counts[0] = 3;
        counts[15] = 1;
        counts[16] = 2;
        counts[23] = 9;
        let c = Checkers::from_counts(&counts).unwrap();
        assert_eq!(c.mask(), 1 | (1 << 15) | (1 << 16) | (1 << 23));
        assert_eq!(c.off(), 0);
        assert_eq!(c.counts(), counts);
        let moved = c.moved(24, 0);
        assert_eq!(moved.off(), 1);
        assert_eq!(moved.at(24), 8);
    }

    #[test]
    fn mask_agrees_with_at_on_many_placements() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            let mut counts = [0u8; 24];
            for _ in 0..CHECKERS {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let p = (seed >> 33) % 30;
                if p < 24 {
                    counts[p as usize] += 1;
                }
            }
            let c = Checkers::from_counts(&counts).unwrap();
            let expected = (1..=24u8)
                .filter(|&p| c.at(p) > 0)
                .fold(0u32, |m, p| m | (1 << (p - 1)));
            assert_eq!(c.mask(), expected, "{counts:?}");
        }
    }

    #[test]
    fn too_many_checkers_rejected() {
        let mut counts = [0u8; 24];
        counts[0] = 10;
        counts[1] = 6;
        assert!(Checkers::from_counts(&counts).is_none());
    }
}
