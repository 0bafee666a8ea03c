//! splitmix64, the project's own seeded generator: its output is fixed by
//! this code, not by a library version, so a seed means the same dice, the
//! same match pairs and the same rollout trials forever.

/// splitmix64's increment (the golden ratio in 64 bits).
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function: a well-mixed 64 bits from any 64 bits.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Output `i` (from 0) of the generator seeded `seed`, without running it:
/// a seed of its own for item `i` of something seeded `seed`.
pub const fn nth(seed: u64, i: u64) -> u64 {
    mix(seed.wrapping_add(i.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// A splitmix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The generator seeded `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A die, 1..=6.
    pub fn die(&mut self) -> u8 {
        // The bias of the modulo is below 1e-18.
        (self.next_u64() % 6) as u8 + 1
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_is_the_generators_output() {
        let mut g = SplitMix::new(42);
        for i in 0..100 {
            assert_eq!(g.next_u64(), nth(42, i));
        }
    }

    #[test]
    fn first_outputs_are_splitmix64s() {
        // The reference values of splitmix64 seeded 0 (Vigna's splitmix64.c).
        let mut g = SplitMix::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }
}
