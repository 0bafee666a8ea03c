//! Training's hidden layer, in `f32` with the exact sigmoid, and its
//! AVX2 and AVX-512 copies.

use super::*;

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
pub(super) fn hidden_layer_avx2(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_body(w1, b1, active, acc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(super) fn hidden_layer_avx512(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
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
pub(super) fn sigmoid_table_avx512(acc: &mut [f32]) {
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
pub(super) fn sigmoid_table_zmm(x: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
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
pub(super) fn hidden_layer_body(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_sums(w1, b1, active, acc);
    acc.iter_mut().for_each(|a| *a = sigmoid(*a));
}

/// The hidden layer's sums, before the sigmoid.
#[inline(always)]
pub(super) fn hidden_sums(w1: &[f32], b1: &[f32], active: &[(u16, f32)], acc: &mut [f32]) {
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
pub(super) fn hidden_block<const B: usize>(
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
