//! The networks' arithmetic, the same bits on every machine.
//!
//! Everything here is plain `f32` addition, multiplication and division in
//! a fixed order (Rust never fuses a multiply-add or reorders a sum on its
//! own), so a result does not depend on the instruction set. The exponential
//! is our own rather than the platform's `expf`, whose last bit differs
//! between C libraries and, in glibc, between CPUs with and without FMA.
//!
//! Play's point rows are the exception: `i16` sums with wrapping integer
//! additions ([`hidden_layer_fixed`]), exact and so the same bits in any
//! order.
//!
//! The hot loops are written once and compiled for the build's baseline
//! target and, on x86-64, with AVX2 and with AVX-512 enabled, picked at run
//! time. All are the same operations on the same values lane by lane, so
//! they give the same bits; tests check it.

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

/// The largest `2|x|` the table reads: just below its 32 segments' end.
const TABLE_LAST: f32 = 31.999_998;

/// The logistic function from a table of quartics: for |x| in
/// [k/2, (k+1)/2), k < 32, a quartic in f = 2|x| − k (Horner, plain
/// multiplications and additions), beyond 16 the last segment's end, and
/// 1 − σ(|x|) for negative x. Within 1.5·10⁻⁷ of the exact value (a test;
/// `scripts/sigmoid_table.py` wrote the coefficients and measures it too).
#[inline(always)]
pub fn sigmoid_table(x: f32) -> f32 {
    // `min` returns the table's end for a NaN, as `_mm512_min_ps` does.
    let t = (x.abs() * 2.0).min(TABLE_LAST);
    let i = t as usize;
    let f = t - i as f32;
    let c = &SIGMOID_COEFS;
    let mut y = c[4][i & 31];
    y = y * f + c[3][i & 31];
    y = y * f + c[2][i & 31];
    y = y * f + c[1][i & 31];
    y = y * f + c[0][i & 31];
    if x < 0.0 { 1.0 - y } else { y }
}

/// The sigmoid's quartic per half-unit segment of |x|, coefficient by
/// coefficient (`scripts/sigmoid_table.py` wrote them).
const SIGMOID_COEFS: [[f32; 32]; 5] = [
    [
        5.000001e-01,
        6.2245935e-01,
        7.3105854e-01,
        8.1757444e-01,
        8.80797e-01,
        9.241418e-01,
        9.5257413e-01,
        9.7068775e-01,
        9.820138e-01,
        9.890131e-01,
        9.933072e-01,
        9.9592984e-01,
        9.9752736e-01,
        9.984988e-01,
        9.9908894e-01,
        9.994472e-01,
        9.9966466e-01,
        9.9979657e-01,
        9.998766e-01,
        9.9992514e-01,
        9.999546e-01,
        9.9997246e-01,
        9.999833e-01,
        9.9998987e-01,
        9.9999386e-01,
        9.9999624e-01,
        9.9999774e-01,
        9.999986e-01,
        9.9999917e-01,
        9.999995e-01,
        9.999997e-01,
        9.999998e-01,
    ],
    [
        1.2499426e-01,
        1.1750052e-01,
        9.830839e-02,
        7.4576095e-02,
        5.2498437e-02,
        3.505238e-02,
        2.258829e-02,
        1.4226297e-02,
        8.831136e-03,
        5.432947e-03,
        3.3239124e-03,
        2.02671e-03,
        1.2332065e-03,
        7.494344e-04,
        4.5509214e-04,
        2.7622524e-04,
        1.6761194e-04,
        1.016886e-04,
        6.1687126e-05,
        3.7418762e-05,
        2.2696964e-05,
        1.3766896e-05,
        8.3502255e-06,
        5.064734e-06,
        3.0719411e-06,
        1.8632354e-06,
        1.1301128e-06,
        6.8544927e-07,
        4.1574643e-07,
        2.5216312e-07,
        1.5294472e-07,
        9.276569e-08,
    ],
    [
        4.622283e-05,
        -7.1831797e-03,
        -1.13763325e-02,
        -1.1864309e-02,
        -1.0008648e-02,
        -7.4377917e-03,
        -5.1111784e-03,
        -3.3464138e-03,
        -2.1266763e-03,
        -1.3270825e-03,
        -8.189485e-04,
        -5.019599e-04,
        -3.0640088e-04,
        -1.8656183e-04,
        -1.1342137e-04,
        -6.889156e-05,
        -4.1820953e-05,
        -2.5378984e-05,
        -1.5398024e-05,
        -9.3411745e-06,
        -5.666371e-06,
        -3.4370714e-06,
        -2.084779e-06,
        -1.2645153e-06,
        -7.6697944e-07,
        -4.65201e-07,
        -2.821603e-07,
        -1.711395e-07,
        -1.03801575e-07,
        -6.295892e-08,
        -3.8186542e-08,
        -2.3161318e-08,
    ],
    [
        -2.7354325e-03,
        -2.0438316e-03,
        -6.8447285e-04,
        3.9169381e-04,
        8.479288e-04,
        8.590198e-04,
        6.856243e-04,
        4.8685417e-04,
        3.2407462e-04,
        2.0779434e-04,
        1.3031728e-04,
        8.065206e-05,
        4.9518374e-05,
        3.025708e-05,
        1.8434162e-05,
        1.1211257e-05,
        6.8111644e-06,
        4.1353023e-06,
        2.5097052e-06,
        1.5227716e-06,
        9.2381316e-07,
        5.6039664e-07,
        3.3992555e-07,
        2.0618552e-07,
        1.2506159e-07,
        7.585506e-08,
        4.600892e-08,
        2.7906038e-08,
        1.6925934e-08,
        1.0266119e-08,
        6.226724e-09,
        3.7766976e-09,
    ],
    [
        1.5406021e-04,
        3.2570463e-04,
        2.684102e-04,
        1.1923613e-04,
        7.0867436e-06,
        -4.1285188e-05,
        -4.9096314e-05,
        -4.0725477e-05,
        -2.9275658e-05,
        -1.9573761e-05,
        -1.2572364e-05,
        -7.890488e-06,
        -4.8849724e-06,
        -2.9997393e-06,
        -1.8330768e-06,
        -1.1168553e-06,
        -6.7926464e-07,
        -4.1267919e-07,
        -2.5055456e-07,
        -1.5206176e-07,
        -9.226425e-08,
        -5.597365e-08,
        -3.395436e-08,
        -2.0596065e-08,
        -1.2492763e-08,
        -7.577467e-09,
        -4.5960453e-09,
        -2.7876885e-09,
        -1.6908296e-09,
        -1.0255418e-09,
        -6.220227e-10,
        -3.772738e-10,
    ],
];

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

mod fixed;
mod float;
mod output;

pub use fixed::*;
pub use float::*;
pub use output::*;

#[cfg(test)]
mod tests;
