//! The output layers (training's and play's), with their AVX2 and AVX-512
//! copies.

use super::*;

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
pub(super) fn output_layer_avx2<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
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
pub(super) fn output_layer_body<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    output_layer_lanes::<OUT, 8>(w2, b2, hidden, sum_lanes8, sigmoid)
}

/// An output layer whose dot products run in `L` lanes ([`lane_dot`]),
/// summed by `sum` and squashed by `squash`: training's (8 lanes, exact
/// sigmoid) and play's portable copies (16 lanes, table sigmoid).
#[inline(always)]
pub(super) fn output_layer_lanes<const OUT: usize, const L: usize>(
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
pub(super) fn lane_dot<const L: usize>(row: &[f32], hidden: &[f32]) -> [f32; L] {
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
pub(super) fn sum_lanes8(l: &[f32; 8]) -> f32 {
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
pub(super) fn output_layer_play_avx2<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    output_layer_play_body(w2, b2, hidden)
}

/// [`output_layer_play`]'s AVX-512 copy: the lanes of
/// [`output_layer_play_body`] in one register per output, summed in
/// registers in [`sum_lanes16`]'s order, and the outputs squashed side by
/// side in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn output_layer_play_avx512<const OUT: usize>(
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
pub(super) fn sum_lanes16(l: &[f32; 16]) -> f32 {
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
pub(super) fn output_layer_play_body<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    output_layer_lanes::<OUT, 16>(w2, b2, hidden, sum_lanes16, sigmoid_table)
}

/// Training's second hidden layer: `out[m] = sigmoid(b[m] + w[m] · hidden)`,
/// each dot product in eight lanes summed as [`output_layer`]'s. `w` is
/// unit-major with rows of `hidden.len()`; `b` and `out` are as long as
/// the layer. Each sixteen units are one [`output_layer`] of sixteen
/// outputs (its vector copies), the units left over plain Rust: the same
/// bits either way.
#[inline]
pub fn middle_layer(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    let h = hidden.len();
    let whole = sixteens(w, b, h, out.len());
    for g in 0..whole {
        let units = g * 16..(g + 1) * 16;
        let o: [f32; 16] = output_layer(
            &w[units.start * h..units.end * h],
            &b[units.clone()],
            hidden,
        );
        out[units].copy_from_slice(&o);
    }
    let rest = whole * 16;
    middle_layer_lanes::<8>(
        w.get(rest * h..).unwrap_or(&[]),
        b.get(rest..).unwrap_or(&[]),
        hidden,
        &mut out[rest..],
        sum_lanes8,
        sigmoid,
    );
}

/// How many whole groups of sixteen units `w` and `b` hold for a layer of
/// `units` reading `h` inputs.
#[inline(always)]
fn sixteens(w: &[f32], b: &[f32], h: usize, units: usize) -> usize {
    let have = w.len().checked_div(h).unwrap_or(0);
    units.min(have).min(b.len()) / 16
}

/// Play's second hidden layer: `out[m] = sigmoid_table(b[m] + w[m] ·
/// hidden)`, each dot product in sixteen lanes summed as
/// [`output_layer_play`]'s: each sixteen units are one
/// [`output_layer_play`] of sixteen outputs (its AVX-512 copy holds their
/// sums in registers), the units left over plain Rust. The same bits on
/// every machine.
#[inline]
pub fn middle_layer_play(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    let h = hidden.len();
    let whole = sixteens(w, b, h, out.len());
    for g in 0..whole {
        let units = g * 16..(g + 1) * 16;
        let o: [f32; 16] = output_layer_play(
            &w[units.start * h..units.end * h],
            &b[units.clone()],
            hidden,
        );
        out[units].copy_from_slice(&o);
    }
    let rest = whole * 16;
    middle_layer_lanes::<16>(
        w.get(rest * h..).unwrap_or(&[]),
        b.get(rest..).unwrap_or(&[]),
        hidden,
        &mut out[rest..],
        sum_lanes16,
        sigmoid_table,
    );
}

/// The portable copy of [`middle_layer_play`] (what the tests compare the
/// others with).
pub fn middle_layer_play_portable(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    middle_layer_lanes::<16>(w, b, hidden, out, sum_lanes16, sigmoid_table);
}

/// A second hidden layer whose dot products run in `L` lanes
/// ([`lane_dot`]), summed by `sum` and squashed by `squash`. Units beyond
/// `w`'s rows or `b` are left as they are.
#[inline(always)]
pub(super) fn middle_layer_lanes<const L: usize>(
    w: &[f32],
    b: &[f32],
    hidden: &[f32],
    out: &mut [f32],
    sum: fn(&[f32; L]) -> f32,
    squash: fn(f32) -> f32,
) {
    let h = hidden.len();
    if h == 0 {
        return;
    }
    for ((o, row), bias) in out.iter_mut().zip(w.chunks_exact(h)).zip(b) {
        let lanes = lane_dot::<L>(row, hidden);
        *o = squash(sum(&lanes) + bias);
    }
}
