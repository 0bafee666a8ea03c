//! A cheap hasher for the search's sets of game states.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rules::GameState;

/// A small multiply-rotate hasher for the search's sets of states (the
/// standard SipHash costs more than the evaluation it guards against).
#[derive(Default)]
pub(crate) struct StateHasher(u64);

impl StateHasher {
    #[inline]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
}

impl Hasher for StateHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_u128(&mut self, v: u128) {
        self.add(v as u64);
        self.add((v >> 64) as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits poorly mixed; fold the high ones in.
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
    }
}

/// A set of states hashed with [`StateHasher`].
pub(crate) type StateSet = HashSet<GameState, BuildHasherDefault<StateHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn spreads_nearby_values_over_the_low_bits() {
        // hashbrown picks buckets from the low bits: consecutive inputs
        // must not collide there.
        let build = BuildHasherDefault::<StateHasher>::default();
        let mut buckets = std::collections::HashSet::new();
        for v in 0u128..256 {
            buckets.insert(build.hash_one(v << 4) & 0xFF);
        }
        assert!(buckets.len() > 140, "{} of 256 buckets", buckets.len());
    }
}
