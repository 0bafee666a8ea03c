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

/// Training's hidden layer: `acc = sigmoid(b1 + Σ v · w1[i])` over the
/// active inputs `(i, v)` in their order, with the exact [`sigmoid`] (its
/// runs keep their bits; play's layer is [`hidden_layer_fixed`]). `w1` is
/// input-major with rows of `acc.len()`; `b1` is `acc.len()` long.
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
    } else {
        hidden_sums(w1, b1, active, acc);
    }
    acc.iter_mut().for_each(|a| *a = sigmoid(*a));
}

/// [`sigmoid_table`] over `acc`, sixteen lanes at a time
/// ([`sigmoid_table_zmm`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn sigmoid_table_avx512(acc: &mut [f32]) {
    use std::arch::x86_64::{_mm512_loadu_ps, _mm512_storeu_ps};
    let mut chunks = acc.chunks_exact_mut(16);
    for chunk in &mut chunks {
        // SAFETY: the chunk holds 16 floats.
        unsafe {
            let x = _mm512_loadu_ps(chunk.as_ptr());
            _mm512_storeu_ps(chunk.as_mut_ptr(), sigmoid_table_zmm(x));
        }
    }
    for a in chunks.into_remainder() {
        *a = sigmoid_table(*a);
    }
}

/// [`sigmoid_table`] of sixteen lanes: the same operations lane by lane
/// (the coefficients picked by `vpermt2ps` from two registers of 16 each).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn sigmoid_table_zmm(x: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::{
        __m512, _CMP_LT_OQ, _mm512_abs_ps, _mm512_add_ps, _mm512_cmp_ps_mask, _mm512_cvtepi32_ps,
        _mm512_cvttps_epi32, _mm512_loadu_ps, _mm512_mask_blend_ps, _mm512_min_ps, _mm512_mul_ps,
        _mm512_permutex2var_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_sub_ps,
    };
    // SAFETY (all loads): each coefficient row has 32 floats.
    let halves = |k: usize| -> (__m512, __m512) {
        let row = &SIGMOID_COEFS[k];
        unsafe {
            (
                _mm512_loadu_ps(row.as_ptr()),
                _mm512_loadu_ps(row.as_ptr().add(16)),
            )
        }
    };
    let t = _mm512_min_ps(
        _mm512_mul_ps(_mm512_abs_ps(x), _mm512_set1_ps(2.0)),
        _mm512_set1_ps(TABLE_LAST),
    );
    let i = _mm512_cvttps_epi32(t);
    let f = _mm512_sub_ps(t, _mm512_cvtepi32_ps(i));
    let coef = |k: usize| {
        let (lo, hi) = halves(k);
        _mm512_permutex2var_ps(lo, i, hi)
    };
    let mut y = coef(4);
    y = _mm512_add_ps(_mm512_mul_ps(y, f), coef(3));
    y = _mm512_add_ps(_mm512_mul_ps(y, f), coef(2));
    y = _mm512_add_ps(_mm512_mul_ps(y, f), coef(1));
    y = _mm512_add_ps(_mm512_mul_ps(y, f), coef(0));
    let negative = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(x, _mm512_setzero_ps());
    _mm512_mask_blend_ps(negative, y, _mm512_sub_ps(_mm512_set1_ps(1.0), y))
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
    hidden_sums(w1, b1, active, acc);
    acc.iter_mut().for_each(|a| *a = sigmoid(*a));
}

/// The hidden layer's sums, before the sigmoid.
#[inline(always)]
fn hidden_sums(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
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
}

/// The sums of units `start..start + B` of the hidden layer (`acc.len()`
/// units) into their places in `acc`.
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
        if let Some(Ok(row)) = w1.get(from..from + B).map(<&[f32; B]>::try_from) {
            add_row(&mut sums, row, v);
        }
    }
    acc[start..start + B].copy_from_slice(&sums);
}

/// Play's first layer in fixed point: the rows of the points (the first
/// `int_rows`, most of a position's rows, always of value 1) as `i16` in
/// steps of a power of two, added with wrapping integer additions, which
/// are exact and so the same whatever the order or the instruction set;
/// the biases and the other inputs' rows in `f32`, products in their
/// order. Unit `j` is then `sigmoid_table(ints[j] · units[j] + floats[j])`.
/// Half the bytes of `f32` rows, and additions of one cycle's latency.
#[derive(Clone, Copy)]
pub struct FixedRows<'a> {
    /// The first `int_rows` rows in fixed point, `hidden` wide, row-major.
    pub ints: &'a [i16],
    /// How many rows `ints` holds.
    pub int_rows: usize,
    /// All the rows in `f32` (only those from `int_rows` on are read).
    pub floats: &'a [f32],
    /// The biases.
    pub bias: &'a [f32],
    /// The value of one step of `ints`, unit by unit (powers of two).
    pub units: &'a [f32],
}

/// The hidden layer from [`FixedRows`] into `acc` (`hidden` long), with
/// play's table sigmoid.
#[inline]
pub fn hidden_layer_fixed(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if avx512bw() {
        // SAFETY: the CPU has AVX-512F and BW (checked just above).
        unsafe { hidden_layer_fixed_avx512(rows, active, acc) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { hidden_layer_fixed_avx2(rows, active, acc) };
        return;
    }
    hidden_layer_fixed_portable(rows, active, acc);
}

/// The portable copy of [`hidden_layer_fixed`] (what the tests compare the
/// others with).
pub fn hidden_layer_fixed_portable(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_fixed_body(rows, active, acc);
}

#[inline(always)]
fn hidden_layer_fixed_body(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    fixed_sums::<64>(rows, active, acc);
    acc.iter_mut().for_each(|a| *a = sigmoid_table(*a));
}

/// The AVX2 copy of [`hidden_layer_fixed`], whatever the CPU has beyond
/// AVX2 (for the tests: `None` when the CPU lacks AVX2).
pub fn hidden_layer_fixed_avx2_only(
    rows: FixedRows<'_>,
    active: &[(u16, f32)],
    acc: &mut [f32],
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { hidden_layer_fixed_avx2(rows, active, acc) };
        return Some(());
    }
    let _ = (rows, active, acc);
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn hidden_layer_fixed_avx2(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_fixed_body(rows, active, acc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn hidden_layer_fixed_avx512(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    // 32 registers hold a 128-hidden network's sums (4 of integers, 8 of
    // floats): one pass over the inputs.
    if acc.len().is_multiple_of(128) {
        for start in (0..acc.len()).step_by(128) {
            fixed_block::<128>(rows, active, start, acc);
        }
    } else {
        fixed_sums::<64>(rows, active, acc);
    }
    sigmoid_table_avx512(acc);
}

/// Whether this CPU has AVX-512F and AVX-512BW (the 16-bit additions).
#[inline]
fn avx512bw() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The fixed-point sums in blocks of `B` units (of 32, or one by one, when
/// `B` does not divide the layer).
#[inline(always)]
fn fixed_sums<const B: usize>(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    let h = acc.len();
    if h.is_multiple_of(B) {
        for start in (0..h).step_by(B) {
            fixed_block::<B>(rows, active, start, acc);
        }
    } else if h.is_multiple_of(32) {
        for start in (0..h).step_by(32) {
            fixed_block::<32>(rows, active, start, acc);
        }
    } else {
        for start in 0..h {
            fixed_block::<1>(rows, active, start, acc);
        }
    }
}

/// Units `start..start + B` of [`hidden_layer_fixed`]'s sums, before the
/// sigmoid.
#[inline(always)]
fn fixed_block<const B: usize>(
    rows: FixedRows<'_>,
    active: &[(u16, f32)],
    start: usize,
    acc: &mut [f32],
) {
    let h = acc.len();
    let mut ints = [0i16; B];
    let mut floats = [0f32; B];
    if let Some(Ok(bias)) = rows.bias.get(start..start + B).map(<&[f32; B]>::try_from) {
        floats = *bias;
    }
    for &(i, v) in active {
        let from = i as usize * h + start;
        if (i as usize) < rows.int_rows {
            let Some(Ok(row)) = rows.ints.get(from..from + B).map(<&[i16; B]>::try_from) else {
                continue;
            };
            add_int_row(&mut ints, row);
        } else {
            if let Some(Ok(row)) = rows.floats.get(from..from + B).map(<&[f32; B]>::try_from) {
                add_row(&mut floats, row, v);
            }
        }
    }
    let Some(Ok(units)) = rows.units.get(start..start + B).map(<&[f32; B]>::try_from) else {
        return;
    };
    for (l, a) in acc[start..start + B].iter_mut().enumerate() {
        *a = f32::from(ints[l]) * units[l] + floats[l];
    }
}

/// Play's first-layer sums of one position, `H` units wide, added as the
/// inputs come ([`fused_layers`]): the point rows in fixed point, the other
/// rows in `f32` in the order they come, as [`hidden_layer_fixed`] adds a
/// list of them (the same bits, without the list).
pub(crate) struct FixedSums<'a, const H: usize> {
    rows: FixedRows<'a>,
    ints: [i16; H],
    floats: [f32; H],
}

impl<'a, const H: usize> FixedSums<'a, H> {
    /// Sums of nothing yet: zero, and the biases.
    #[inline(always)]
    fn new(rows: FixedRows<'a>) -> FixedSums<'a, H> {
        let mut sums = FixedSums {
            rows,
            ints: [0; H],
            floats: [0.0; H],
        };
        sums.reset();
        sums
    }

    /// Back to the biases alone.
    #[inline(always)]
    pub(crate) fn reset(&mut self) {
        self.ints = [0; H];
        self.floats = match self.rows.bias.get(..H).map(<&[f32; H]>::try_from) {
            Some(Ok(bias)) => *bias,
            _ => [0.0; H],
        };
    }

    /// Adds fixed-point row `r` (one of the first `int_rows`).
    #[inline(always)]
    pub(crate) fn add_int_row(&mut self, r: usize) {
        debug_assert!(r < self.rows.int_rows);
        if let Some(row) = row_of::<_, H>(self.rows.ints, r) {
            add_int_row(&mut self.ints, row);
        }
    }

    /// Adds `v` times `f32` row `r` (one from `int_rows` on).
    #[inline(always)]
    pub(crate) fn add_float_row(&mut self, r: usize, v: f32) {
        if let Some(row) = row_of::<_, H>(self.rows.floats, r) {
            add_row(&mut self.floats, row, v);
        }
    }
}

/// Row `r` of a table of rows `H` wide, if the table has it.
#[inline(always)]
fn row_of<T, const H: usize>(table: &[T], r: usize) -> Option<&[T; H]> {
    let from = r.checked_mul(H)?;
    table.get(from..from.checked_add(H)?)?.try_into().ok()
}

/// What writes a position's rows into [`FixedSums`] (its features).
pub(crate) trait FillSums<const H: usize> {
    /// Adds the position's rows to `sums` (cleared first).
    fn fill(self, sums: &mut FixedSums<'_, H>);
}

/// What play's fused evaluation ([`fused_layers`]) reads of a network: its
/// first layer's rows and its output layer (`w2` output-major, `b2`).
#[derive(Clone, Copy)]
pub(crate) struct PlayLayers<'a> {
    /// The first layer's rows.
    pub(crate) rows: FixedRows<'a>,
    /// The output layer's weights.
    pub(crate) w2: &'a [f32],
    /// The output layer's biases.
    pub(crate) b2: &'a [f32],
}

/// Play's evaluation of one position, `H` hidden units wide: `fill`'s rows
/// summed as they come ([`FixedSums`]) from `layers`' rows, then the units
/// `sigmoid_table(ints · units + floats)` and [`output_layer_play`]; the
/// bits of [`hidden_layer_fixed`] on the list of the same rows, then
/// [`output_layer_play`], on every copy. The whole evaluation is one
/// function per instruction set, so the sums stay in registers.
#[inline]
pub(crate) fn fused_layers<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    #[cfg(target_arch = "x86_64")]
    if avx512bw() {
        // SAFETY: the CPU has AVX-512F and BW (checked just above).
        return unsafe { fused_layers_avx512(layers, fill) };
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { fused_layers_avx2(layers, fill) };
    }
    fused_layers_body(layers, fill)
}

/// The portable copy of [`fused_layers`] (what the tests compare the others
/// with).
#[cfg(test)]
pub(crate) fn fused_layers_portable<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    fused_layers_body(layers, fill)
}

/// The AVX2 copy of [`fused_layers`], whatever the CPU has beyond AVX2
/// (for the tests: `None` when the CPU lacks AVX2).
#[cfg(test)]
pub(crate) fn fused_layers_avx2_only<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> Option<[f32; OUT]> {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return Some(unsafe { fused_layers_avx2(layers, fill) });
    }
    let _ = (layers, fill);
    None
}

#[inline(always)]
fn fused_layers_body<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    let PlayLayers { rows, w2, b2 } = layers;
    let mut sums = FixedSums::<H>::new(rows);
    fill.fill(&mut sums);
    let units = units_of::<H>(rows);
    let hidden: [f32; H] =
        std::array::from_fn(|l| sigmoid_table(f32::from(sums.ints[l]) * units[l] + sums.floats[l]));
    output_layer_play_body(w2, b2, &hidden)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fused_layers_avx2<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    fused_layers_body(layers, fill)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn fused_layers_avx512<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    use std::arch::x86_64::{
        _mm256_loadu_si256, _mm512_add_ps, _mm512_cvtepi16_epi32, _mm512_cvtepi32_ps,
        _mm512_loadu_ps, _mm512_mul_ps, _mm512_storeu_ps,
    };
    let PlayLayers { rows, w2, b2 } = layers;
    let mut sums = FixedSums::<H>::new(rows);
    fill.fill(&mut sums);
    let units = units_of::<H>(rows);
    let mut hidden = [0f32; H];
    let whole = H / 16 * 16;
    for c in (0..whole).step_by(16) {
        // SAFETY: c + 16 ≤ H, the length of `ints`, `units`, `floats` and
        // `hidden`.
        unsafe {
            let ints = _mm256_loadu_si256(sums.ints.as_ptr().add(c).cast());
            let ints = _mm512_cvtepi32_ps(_mm512_cvtepi16_epi32(ints));
            let x = _mm512_add_ps(
                _mm512_mul_ps(ints, _mm512_loadu_ps(units.as_ptr().add(c))),
                _mm512_loadu_ps(sums.floats.as_ptr().add(c)),
            );
            _mm512_storeu_ps(hidden.as_mut_ptr().add(c), sigmoid_table_zmm(x));
        }
    }
    for l in whole..H {
        hidden[l] = sigmoid_table(f32::from(sums.ints[l]) * units[l] + sums.floats[l]);
    }
    output_layer_play_avx512(w2, b2, &hidden)
}

/// The steps of the first `H` units ([`FixedRows::units`]; zero, so the
/// point rows count for nothing, if the table were shorter, which
/// [`crate::eval::net`]'s tables never are).
#[inline(always)]
fn units_of<const H: usize>(rows: FixedRows<'_>) -> [f32; H] {
    match rows.units.get(..H).map(<&[f32; H]>::try_from) {
        Some(Ok(units)) => *units,
        _ => [0.0; H],
    }
}

// Indexed lanes, as `add_row`'s: with an iterator the sums of play's
// fused layers left their registers.
/// `ints += row`, lane by lane, wrapping (exact in any order: the rows'
/// bound keeps every sum in range).
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn add_int_row<const B: usize>(ints: &mut [i16; B], row: &[i16; B]) {
    for l in 0..B {
        ints[l] = ints[l].wrapping_add(row[l]);
    }
}

/// `sums += v · row`, lane by lane. Most inputs are 1.0, and `a + w` is
/// `a + w * 1.0` to the bit, so those skip the multiplication.
#[inline(always)]
fn add_row<const B: usize>(sums: &mut [f32; B], row: &[f32; B], v: f32) {
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
        *o = sigmoid(sum_lanes8(&lanes) + b2[k]);
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
    output_layer_lanes::<OUT, 8>(w2, b2, hidden, sum_lanes8, sigmoid)
}

/// An output layer whose dot products run in `L` lanes ([`lane_dot`]),
/// summed by `sum` and squashed by `squash`: training's (8 lanes, exact
/// sigmoid) and play's portable copies (16 lanes, table sigmoid).
#[inline(always)]
fn output_layer_lanes<const OUT: usize, const L: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
    sum: fn(&[f32; L]) -> f32,
    squash: fn(f32) -> f32,
) -> [f32; OUT] {
    let h = hidden.len();
    std::array::from_fn(|k| {
        let lanes = lane_dot::<L>(&w2[k * h..(k + 1) * h], hidden);
        squash(sum(&lanes) + b2[k])
    })
}

/// The dot product of `row` and `hidden` in `L` lanes: lane `l` sums the
/// products at `l`, `l + L`, … in order, lane 0 also the tail.
#[inline(always)]
fn lane_dot<const L: usize>(row: &[f32], hidden: &[f32]) -> [f32; L] {
    let mut lanes = [0f32; L];
    let mut rows = row.chunks_exact(L);
    let mut hs = hidden.chunks_exact(L);
    for (r, a) in (&mut rows).zip(&mut hs) {
        for l in 0..L {
            lanes[l] += r[l] * a[l];
        }
    }
    for (r, a) in rows.remainder().iter().zip(hs.remainder()) {
        lanes[0] += r * a;
    }
    lanes
}

/// Eight lanes summed in a fixed order.
#[inline(always)]
fn sum_lanes8(l: &[f32; 8]) -> f32 {
    ((l[0] + l[4]) + (l[1] + l[5])) + ((l[2] + l[6]) + (l[3] + l[7]))
}

/// Play's output layer: `out[k] = sigmoid_table(b2[k] + w2[k] · hidden)`,
/// each dot product in sixteen lanes (one AVX-512 register) summed in a
/// fixed order, the outputs squashed by [`sigmoid_table`]. The same bits on
/// every machine; not training's [`output_layer`], whose eight lanes and
/// exact sigmoid its runs keep.
#[inline]
pub fn output_layer_play<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    #[cfg(target_arch = "x86_64")]
    if avx512() {
        // SAFETY: the CPU has AVX-512F (checked just above).
        return unsafe { output_layer_play_avx512(w2, b2, hidden) };
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { output_layer_play_avx2(w2, b2, hidden) };
    }
    output_layer_play_body(w2, b2, hidden)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_layer_play_avx2<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    output_layer_play_body(w2, b2, hidden)
}

/// [`output_layer_play`]'s AVX-512 copy: the lanes of
/// [`output_layer_play_body`] in one register per output, summed in
/// registers in [`sum_lanes16`]'s order, and the outputs squashed side by
/// side in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn output_layer_play_avx512<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    use std::arch::x86_64::{
        __m128, _mm_add_ps, _mm_hadd_ps, _mm_setzero_ps, _mm256_add_ps, _mm256_castpd_ps,
        _mm256_castps256_ps128, _mm256_extractf128_ps, _mm512_add_ps, _mm512_castpd512_pd256,
        _mm512_castps_pd, _mm512_extractf64x4_pd, _mm512_insertf32x4, _mm512_loadu_ps,
        _mm512_maskz_loadu_ps, _mm512_mul_ps, _mm512_setzero_ps, _mm512_storeu_ps,
    };
    let h = hidden.len();
    if !h.is_multiple_of(16) || OUT > 16 || w2.len() < OUT * h || b2.len() < OUT {
        // Not a network of this crate's (64 or 128 hidden units, 3 or 5
        // outputs); kept correct.
        return output_layer_play_body(w2, b2, hidden);
    }
    let mut sums = [_mm512_setzero_ps(); OUT];
    for j in (0..h).step_by(16) {
        // SAFETY: j + 16 ≤ h = hidden.len(), and each output's row of `w2`
        // (checked above) is h long.
        unsafe {
            let a = _mm512_loadu_ps(hidden.as_ptr().add(j));
            for (k, sum) in sums.iter_mut().enumerate() {
                let r = _mm512_loadu_ps(w2.as_ptr().add(k * h + j));
                *sum = _mm512_add_ps(*sum, _mm512_mul_ps(r, a));
            }
        }
    }
    // Lanes l + 8 onto l, then l + 4 onto l: four sums per output, whose
    // pairs `hadd` adds, and then the pairs' sums: `sum_lanes16`'s tree.
    let quarters: [__m128; OUT] = sums.map(|s| {
        let d = _mm512_castps_pd(s);
        let eighths = _mm256_add_ps(
            _mm256_castpd_ps(_mm512_castpd512_pd256(d)),
            _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(d)),
        );
        _mm_add_ps(
            _mm256_castps256_ps128(eighths),
            _mm256_extractf128_ps::<1>(eighths),
        )
    });
    let quarter = |k: usize| quarters.get(k).copied().unwrap_or(_mm_setzero_ps());
    // The outputs' sums side by side in one register, built in registers
    // (a wide load of narrow stores would wait for them to reach the
    // cache), the biases added lane by lane.
    let mut pre = _mm512_setzero_ps();
    for g in 0..OUT.div_ceil(4) {
        let k = 4 * g;
        let total = _mm_hadd_ps(
            _mm_hadd_ps(quarter(k), quarter(k + 1)),
            _mm_hadd_ps(quarter(k + 2), quarter(k + 3)),
        );
        pre = match g {
            0 => _mm512_insertf32x4::<0>(pre, total),
            1 => _mm512_insertf32x4::<1>(pre, total),
            2 => _mm512_insertf32x4::<2>(pre, total),
            _ => _mm512_insertf32x4::<3>(pre, total),
        };
    }
    let mut out = [0f32; 16];
    // SAFETY: b2 has at least OUT ≤ 16 floats (checked above), and the
    // mask reads only those; `out` holds sixteen floats.
    unsafe {
        let bias = _mm512_maskz_loadu_ps(((1u32 << OUT) - 1) as u16, b2.as_ptr());
        let y = sigmoid_table_zmm(_mm512_add_ps(pre, bias));
        _mm512_storeu_ps(out.as_mut_ptr(), y);
    }
    std::array::from_fn(|k| out[k])
}

/// Sixteen lanes summed in a fixed order.
#[inline(always)]
fn sum_lanes16(l: &[f32; 16]) -> f32 {
    sum_lanes8(&std::array::from_fn(|i| l[i] + l[i + 8]))
}

/// The portable copy of [`output_layer_play`] (what the tests compare the
/// others with).
pub fn output_layer_play_portable<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    output_layer_play_body(w2, b2, hidden)
}

#[inline(always)]
fn output_layer_play_body<const OUT: usize>(w2: &[f32], b2: &[f32], hidden: &[f32]) -> [f32; OUT] {
    output_layer_lanes::<OUT, 16>(w2, b2, hidden, sum_lanes16, sigmoid_table)
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
    fn the_table_sigmoid_is_within_its_bound_everywhere() {
        let exact = |x: f32| 1.0 / (1.0 + (-f64::from(x)).exp());
        let mut worst: f64 = 0.0;
        let mut x = -40.0f32;
        while x <= 40.0 {
            worst = worst.max((f64::from(sigmoid_table(x)) - exact(x)).abs());
            x += 0.000_37;
        }
        // Every segment's ends, from both sides, and the far tails.
        for k in 0..=64 {
            let x = k as f32 / 2.0;
            for y in [x, -x, f32::from_bits(x.to_bits().saturating_sub(1))] {
                worst = worst.max((f64::from(sigmoid_table(y)) - exact(y)).abs());
            }
        }
        assert!(worst <= 1.5e-7, "worst error {worst}");
        assert!(sigmoid_table(1e30) > 0.999_999 && sigmoid_table(-1e30) < 1e-6);
        assert_eq!(sigmoid_table(f32::INFINITY), sigmoid_table(1e30));
        assert!(sigmoid_table(f32::NAN).is_finite());
        // In play's hidden layer's AVX-512 copy too (any length: whole
        // registers and the tail): no inputs, so each unit is its bias.
        let grid: Vec<f32> = (-3000..2999).map(|i| i as f32 * 0.011).collect();
        let units = vec![1f32; grid.len()];
        let rows = FixedRows {
            ints: &[],
            int_rows: 0,
            floats: &[],
            bias: &grid,
            units: &units,
        };
        let mut a = vec![0f32; grid.len()];
        hidden_layer_fixed(rows, &[], &mut a);
        for (x, y) in grid.iter().zip(&a) {
            assert_eq!(y.to_bits(), sigmoid_table(*x).to_bits(), "at {x}");
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
        assert_eq!(grid_hash(sigmoid_table), GRID_SIGMOID_TABLE);
    }
    const GRID_SIGMOID_TABLE: u64 = 6642639490187167408;
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
    fn the_fixed_point_layer_is_the_same_on_every_copy_and_near_the_exact_sum() {
        for (hidden, seed) in [(64, 1), (128, 2), (256, 5), (37, 3), (8, 4)] {
            let (w1, b1, _, _) = random_layers(hidden, seed);
            // The first 100 rows in fixed point, the others in f32.
            let int_rows = 100;
            let units: Vec<f32> = (0..hidden)
                .map(|j| 2f32.powi(-9 - (j % 4) as i32))
                .collect();
            let ints: Vec<i16> = w1[..int_rows * hidden]
                .iter()
                .enumerate()
                .map(|(k, w)| (w / units[k % hidden]).round() as i16)
                .collect();
            let rows = FixedRows {
                ints: &ints,
                int_rows,
                floats: &w1,
                bias: &b1,
                units: &units,
            };
            for n in 0..50u16 {
                let active: Vec<(u16, f32)> = (0..(n % 40 + 1))
                    .map(|j| {
                        let i = (j * 5 + n) % 200;
                        (
                            i,
                            if i >= 100 && j % 3 == 0 {
                                0.37 * f32::from(j)
                            } else {
                                1.0
                            },
                        )
                    })
                    .collect();
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let mut a = vec![0f32; hidden];
                let mut b = vec![0f32; hidden];
                hidden_layer_fixed(rows, &active, &mut a);
                hidden_layer_fixed_portable(rows, &active, &mut b);
                assert_eq!(bits(&a), bits(&b), "{hidden} hidden");
                let mut c = vec![0f32; hidden];
                if hidden_layer_fixed_avx2_only(rows, &active, &mut c).is_some() {
                    assert_eq!(bits(&c), bits(&b), "AVX2 copy, {hidden} hidden");
                }
                // Each fixed-point row is within half a step of its weight.
                for (j, &got) in a.iter().enumerate() {
                    let mut sum = f64::from(b1[j]);
                    let mut slack = 1e-5;
                    for &(i, v) in &active {
                        sum += f64::from(w1[i as usize * hidden + j]) * f64::from(v);
                        if (i as usize) < int_rows {
                            slack += 0.5 * f64::from(units[j]);
                        }
                    }
                    let want = 1.0 / (1.0 + (-sum).exp());
                    // The sigmoid's slope is at most 1/4.
                    assert!(
                        (f64::from(got) - want).abs() <= slack / 4.0 + 2e-7,
                        "{hidden}/{j}"
                    );
                }
            }
        }
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
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let mut a = vec![0f32; hidden];
                let mut b = vec![0f32; hidden];
                // The best copy this CPU runs (AVX-512 where it has it).
                hidden_layer(&w1, &b1, &active, &mut a);
                hidden_layer_portable(&w1, &b1, &active, &mut b);
                assert_eq!(bits(&a), bits(&b));
                let mut c = vec![0f32; hidden];
                if hidden_layer_avx2_only(&w1, &b1, &active, &mut c).is_some() {
                    assert_eq!(bits(&c), bits(&b), "AVX2 copy");
                }
                let o: [f32; 5] = output_layer(&w2, &b2, &a);
                let p: [f32; 5] = output_layer_portable(&w2, &b2, &a);
                assert_eq!(o.map(f32::to_bits), p.map(f32::to_bits));
                let play: [f32; 5] = output_layer_play(&w2, &b2, &a);
                let portable: [f32; 5] = output_layer_play_portable(&w2, &b2, &a);
                assert_eq!(play.map(f32::to_bits), portable.map(f32::to_bits));
                for (x, y) in play.iter().zip(&o) {
                    assert!((x - y).abs() < 1e-6, "play's output layer {x} vs {y}");
                }
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
