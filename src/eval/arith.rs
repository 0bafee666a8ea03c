//! The networks' arithmetic, the same bits on every machine.
//!
//! Everything here is plain `f32` addition, multiplication and division in
//! a fixed order (Rust never fuses a multiply-add or reorders a sum on its
//! own), so a result does not depend on the instruction set. The exponential
//! is our own rather than the platform's `expf`, whose last bit differs
//! between C libraries and, in glibc, between CPUs with and without FMA.
//!
//! The hot loops are written once and compiled twice: for the build's
//! baseline target and, on x86-64, with AVX2 enabled, picked at run time.
//! Both are the same operations on the same values lane by lane, so they
//! give the same bits; a test checks it.

/// 1.5 · 2²³: adding it rounds an `f32` below 2²² in size to an integer.
const ROUNDER: f32 = 12_582_912.0;
/// `ROUNDER`'s bits, so `(x + ROUNDER).to_bits() - ROUNDER_BITS` is that integer.
const ROUNDER_BITS: i32 = 0x4B40_0000;
/// ln 2 in two parts (Cody and Waite): `LN2_HI` has few significant bits, so
/// `k · LN2_HI` is exact for the `k` that occur.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;

/// eˣ to within a few units in the last place, for |x| ≤ 87 (beyond that
/// the argument is clamped: e⁸⁸ is near `f32::MAX`, e⁻⁸⁷ near the smallest
/// normal number, and a sigmoid is flat there anyway).
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let x = x.clamp(-87.0, 87.0);
    let t = x * std::f32::consts::LOG2_E + ROUNDER;
    let k = t - ROUNDER;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // Cephes' minimax polynomial for eʳ on |r| ≤ ln 2 / 2.
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let p = (p * (r * r) + r) + 1.0;
    // 2ᵏ built from its bits; k is within −126..=126 after the clamp.
    let k = (t.to_bits() as i32).wrapping_sub(ROUNDER_BITS);
    p * f32::from_bits((k.wrapping_add(127) as u32) << 23)
}

/// The logistic function 1 / (1 + e⁻ˣ).
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// Whether this CPU runs the AVX-512 copy of the hidden layer (checked
/// once, then cached by std).
#[inline]
fn avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the AVX2 copies (checked once, then cached by std).
#[inline]
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The hidden layer: `acc = sigmoid(b1 + Σ v · w1[i])` over the active
/// inputs `(i, v)` in their order. `w1` is input-major with rows of
/// `acc.len()`; `b1` is `acc.len()` long.
#[inline]
pub fn hidden_layer(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if avx512() {
        // SAFETY: the CPU has AVX-512F (checked just above).
        unsafe { hidden_layer_avx512(w1, b1, active, acc) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { hidden_layer_avx2(w1, b1, active, acc) };
        return;
    }
    hidden_layer_body(w1, b1, active, acc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn hidden_layer_avx2(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_body(w1, b1, active, acc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn hidden_layer_avx512(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    // AVX-512's 32 registers hold 128 sums: one pass over the inputs for
    // the 128-hidden networks instead of two (the same bits: each unit
    // still adds its inputs in their order).
    let h = acc.len();
    if h.is_multiple_of(128) {
        for start in (0..h).step_by(128) {
            hidden_block::<128>(w1, b1, active, start, acc);
        }
        return;
    }
    hidden_layer_body(w1, b1, active, acc);
}

/// The AVX2 hidden layer, whatever the CPU has beyond AVX2 (for the tests:
/// `None` when the CPU lacks AVX2).
pub fn hidden_layer_avx2_only(
    w1: &[f32],
    b1: &[f32],
    active: &[(u16, f32)],
    acc: &mut [f32],
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { hidden_layer_avx2(w1, b1, active, acc) };
        return Some(());
    }
    let _ = (w1, b1, active, acc);
    None
}

/// The portable hidden layer (also what the tests compare the AVX2 copy with).
pub fn hidden_layer_portable(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_body(w1, b1, active, acc);
}

#[inline(always)]
fn hidden_layer_body(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    let h = acc.len();
    // Blocks of units whose sums stay in registers across all the inputs;
    // each unit still adds its inputs in their order, so the blocking
    // changes no bit.
    if h.is_multiple_of(64) {
        for start in (0..h).step_by(64) {
            hidden_block::<64>(w1, b1, active, start, acc);
        }
        return;
    }
    if h.is_multiple_of(32) {
        for start in (0..h).step_by(32) {
            hidden_block::<32>(w1, b1, active, start, acc);
        }
        return;
    }
    acc.copy_from_slice(b1);
    for &(i, v) in active {
        let Some(row) = w1.get(i as usize * h..(i as usize + 1) * h) else {
            continue;
        };
        // Most inputs are 1.0, and `a + w` is `a + w * 1.0` to the bit.
        if v == 1.0 {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        } else {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w * v;
            }
        }
    }
    for a in acc.iter_mut() {
        *a = sigmoid(*a);
    }
}

/// Units `start..start + B` of the hidden layer (`acc.len()` units).
#[inline(always)]
fn hidden_block<const B: usize>(
    w1: &[f32],
    b1: &[f32],
    active: &[(u16, f32)],
    start: usize,
    acc: &mut [f32],
) {
    let h = acc.len();
    let mut sums = [0f32; B];
    if let Some(bias) = b1.get(start..start + B) {
        sums.copy_from_slice(bias);
    }
    for &(i, v) in active {
        let from = i as usize * h + start;
        let Some(Ok(row)) = w1.get(from..from + B).map(<&[f32; B]>::try_from) else {
            continue;
        };
        if v == 1.0 {
            for l in 0..B {
                sums[l] += row[l];
            }
        } else {
            for l in 0..B {
                sums[l] += row[l] * v;
            }
        }
    }
    for (a, s) in acc[start..start + B].iter_mut().zip(sums) {
        *a = sigmoid(s);
    }
}

/// The output layer: `out[k] = sigmoid(b2[k] + w2[k] · hidden)`, each dot
/// product in eight lanes summed in a fixed order. `w2` is output-major
/// with rows of `hidden.len()`.
#[inline]
pub fn output_layer<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { output_layer_avx2(w2, b2, hidden) };
    }
    output_layer_body(w2, b2, hidden)
}

/// The output layer with the eight lanes in one AVX register: the same
/// multiplications and additions, lane by lane, as [`output_layer_body`]
/// (written with intrinsics because the compiler splits that loop's lanes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_layer_avx2<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    use std::arch::x86_64::{
        _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_setzero_ps, _mm256_storeu_ps,
    };
    let h = hidden.len();
    let whole = h / 8 * 8;
    // All the outputs' lane sums at once, so each hidden chunk is loaded
    // once and the dot products' additions overlap; each output's lanes
    // still add in the order of the portable copy.
    let mut sums = [_mm256_setzero_ps(); OUT];
    for j in (0..whole).step_by(8) {
        // SAFETY: j + 8 ≤ whole ≤ h = hidden.len().
        let a = unsafe { _mm256_loadu_ps(hidden.as_ptr().add(j)) };
        for (k, sum) in sums.iter_mut().enumerate() {
            let row = &w2[k * h..(k + 1) * h];
            // SAFETY: j + 8 ≤ whole ≤ h = row.len().
            let r = unsafe { _mm256_loadu_ps(row.as_ptr().add(j)) };
            *sum = _mm256_add_ps(*sum, _mm256_mul_ps(r, a));
        }
    }
    let mut out = [0f32; OUT];
    for (k, o) in out.iter_mut().enumerate() {
        let row = &w2[k * h..(k + 1) * h];
        let mut lanes = [0f32; 8];
        // SAFETY: `lanes` has room for eight floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sums[k]) };
        for (r, a) in row[whole..].iter().zip(&hidden[whole..]) {
            lanes[0] += r * a;
        }
        let s = ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5]))
            + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
        *o = sigmoid(s + b2[k]);
    }
    out
}

/// The portable output layer (what the tests compare the AVX2 copy with).
pub fn output_layer_portable<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    output_layer_body(w2, b2, hidden)
}

#[inline(always)]
fn output_layer_body<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    let h = hidden.len();
    let mut out = [0f32; OUT];
    for (k, o) in out.iter_mut().enumerate() {
        let row = &w2[k * h..(k + 1) * h];
        let mut lanes = [0f32; 8];
        let mut rows = row.chunks_exact(8);
        let mut hs = hidden.chunks_exact(8);
        for (r, a) in (&mut rows).zip(&mut hs) {
            for l in 0..8 {
                lanes[l] += r[l] * a[l];
            }
        }
        for (r, a) in rows.remainder().iter().zip(hs.remainder()) {
            lanes[0] += r * a;
        }
        let s = ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5]))
            + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
        *o = sigmoid(s + b2[k]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Units in the last place between `got` and the exact `want`.
    fn ulps(got: f32, want: f64) -> f64 {
        let ulp = f64::from(f32::from_bits((want as f32).to_bits() + 1) - want as f32);
        (f64::from(got) - want).abs() / ulp
    }

    #[test]
    fn exp_is_within_a_few_ulps_of_the_exact_value() {
        let mut worst: f64 = 0.0;
        let mut x = -87.0f32;
        while x <= 87.0 {
            worst = worst.max(ulps(exp(x), f64::from(x).exp()));
            x += 0.000_713;
        }
        assert!(worst <= 3.0, "worst error {worst} ulps");
        assert_eq!(exp(0.0), 1.0);
        // Clamped, finite and positive far out.
        assert!(exp(1e30).is_finite() && exp(-1e30) > 0.0);
        assert!(sigmoid(1e30) == 1.0 && sigmoid(-1e30) >= 0.0);
    }

    #[test]
    fn sigmoid_is_within_a_few_ulps_and_symmetric() {
        let mut x = -30.0f32;
        while x <= 30.0 {
            let want = 1.0 / (1.0 + (-f64::from(x)).exp());
            assert!(ulps(sigmoid(x), want) <= 4.0, "sigmoid({x})");
            // σ(x) + σ(−x) = 1 up to rounding.
            assert!((sigmoid(x) + sigmoid(-x) - 1.0).abs() < 1e-6);
            x += 0.0173;
        }
    }

    #[test]
    fn exp_of_known_values() {
        for (x, want) in [
            (1.0f32, std::f32::consts::E),
            (-1.0, 0.367_879_45),
            (10.0, 22_026.465),
        ] {
            assert!((exp(x) - want).abs() <= want * 3e-7, "exp({x})");
        }
    }

    /// FNV-1a over the bits of `f` on a grid of arguments.
    fn grid_hash(f: impl Fn(f32) -> f32) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for i in -100_000..=100_000 {
            let x = i as f32 * 0.000_97;
            for b in f(x).to_bits().to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    }

    #[test]
    fn the_bits_are_the_same_on_every_machine() {
        // Pinned on the machine that wrote this: a CPU, a target or a
        // compiler that changed a single bit of the arithmetic fails here
        // (and would change what the shipped networks play).
        assert_eq!(grid_hash(exp), GRID_EXP);
        assert_eq!(grid_hash(sigmoid), GRID_SIGMOID);
    }
    const GRID_EXP: u64 = 2874575021511235777;
    const GRID_SIGMOID: u64 = 15073779314324487337;

    /// A small random network, its inputs and a reference computed in f64.
    fn random_layers(hidden: usize, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut s = seed;
        let mut r = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.6
        };
        let w1 = (0..200 * hidden).map(|_| r()).collect();
        let b1 = (0..hidden).map(|_| r()).collect();
        let w2 = (0..5 * hidden).map(|_| r()).collect();
        let b2 = (0..5).map(|_| r()).collect();
        (w1, b1, w2, b2)
    }

    #[test]
    fn the_avx2_and_avx512_copies_give_the_portable_bits() {
        for (hidden, seed) in [(64, 1), (128, 2), (256, 5), (37, 3), (8, 4)] {
            let (w1, b1, w2, b2) = random_layers(hidden, seed);
            for n in 0..50u16 {
                let active: Vec<(u16, f32)> = (0..(n % 40 + 1))
                    .map(|j| {
                        (
                            (j * 5 + n) % 200,
                            if j % 3 == 0 { 0.37 * f32::from(j) } else { 1.0 },
                        )
                    })
                    .collect();
                let mut a = vec![0f32; hidden];
                let mut b = vec![0f32; hidden];
                // The best copy this CPU runs (AVX-512 where it has it).
                hidden_layer(&w1, &b1, &active, &mut a);
                hidden_layer_portable(&w1, &b1, &active, &mut b);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b));
                let mut c = vec![0f32; hidden];
                if hidden_layer_avx2_only(&w1, &b1, &active, &mut c).is_some() {
                    assert_eq!(bits(&c), bits(&b), "AVX2 copy");
                }
                let o: [f32; 5] = output_layer(&w2, &b2, &a);
                let p: [f32; 5] = output_layer_portable(&w2, &b2, &b);
                assert_eq!(o.map(f32::to_bits), p.map(f32::to_bits));
                // And both agree with the plain sum in f64 to float precision.
                for (k, &ok) in o.iter().enumerate() {
                    let s: f64 = (0..hidden)
                        .map(|j| f64::from(w2[k * hidden + j]) * f64::from(a[j]))
                        .sum::<f64>()
                        + f64::from(b2[k]);
                    let want = 1.0 / (1.0 + (-s).exp());
                    assert!((f64::from(ok) - want).abs() < 1e-5);
                }
            }
        }
    }
}
