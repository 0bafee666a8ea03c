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
/// registers in [`sum_lanes16`]'s order ([`dots_zmm`]), and the outputs
/// squashed side by side in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn output_layer_play_avx512<const OUT: usize>(
    w2: &[f32],
    b2: &[f32],
    hidden: &[f32],
) -> [f32; OUT] {
    use std::arch::x86_64::{_mm512_add_ps, _mm512_maskz_loadu_ps, _mm512_storeu_ps};
    let h = hidden.len();
    if !h.is_multiple_of(16) || OUT > 16 || w2.len() < OUT * h || b2.len() < OUT {
        // Not a network of this crate's (64 or 128 hidden units, 3 or 5
        // outputs); kept correct.
        return output_layer_play_body(w2, b2, hidden);
    }
    let mut out = [0f32; 16];
    // SAFETY: h is a multiple of 16 and `w2` holds OUT ≤ 16 rows of h
    // (checked above); b2 has at least OUT floats, and the mask reads only
    // those; `out` holds sixteen floats.
    unsafe {
        let pre = dots_zmm::<OUT>(w2, hidden);
        let bias = _mm512_maskz_loadu_ps(((1u32 << OUT) - 1) as u16, b2.as_ptr());
        let y = sigmoid_table_zmm(_mm512_add_ps(pre, bias));
        _mm512_storeu_ps(out.as_mut_ptr(), y);
    }
    let mut o = [0f32; OUT];
    o.copy_from_slice(&out[..OUT]);
    o
}

/// The unit whose dot product [`dots_zmm`] accumulates in register `s`:
/// its sums' reduction leaves register `s`'s total in lane
/// `4 · (s mod 4) + s / 4` (a 4 × 4 transpose), so this order puts unit
/// `u`'s in lane `u`.
#[cfg(target_arch = "x86_64")]
const SLOT_UNIT: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// The dot products of the first `N` ≤ 16 rows of `w` (rows of
/// `hidden.len()`, a multiple of 16) with `hidden`, before the bias, side
/// by side in one register (lane `u` unit `u`, lanes from `N` on zero):
/// each in sixteen lanes as [`lane_dot`], the lanes summed in
/// [`sum_lanes16`]'s order, sixteen registers at a time. The reduction
/// adds the halves of pairs of registers, then the quarters, then the
/// pairs of the eighths twice over (as `hadd` would), with shuffles
/// between, so that the sums stay in registers: fifteen additions for the
/// sixteen dot products (the same additions, lane by lane, as
/// [`sum_lanes16`] on each).
///
/// # Safety
/// `hidden.len()` is a multiple of 16 and `w` holds at least
/// `N · hidden.len()` floats; `N` ≤ 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn dots_zmm<const N: usize>(
    w: &[f32],
    hidden: &[f32],
) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::{
        _mm512_add_ps, _mm512_loadu_ps, _mm512_mul_ps, _mm512_setzero_ps, _mm512_shuffle_f32x4,
    };
    debug_assert!(N <= 16 && hidden.len().is_multiple_of(16) && w.len() >= N * hidden.len());
    let h = hidden.len();
    let mut sums = [_mm512_setzero_ps(); 16];
    for j in (0..h).step_by(16) {
        // SAFETY: j + 16 ≤ h = hidden.len(), and each of the first N rows
        // of `w` is h long (the caller's promise).
        unsafe {
            let a = _mm512_loadu_ps(hidden.as_ptr().add(j));
            for (s, sum) in sums.iter_mut().enumerate() {
                let unit = SLOT_UNIT[s];
                if unit < N {
                    let r = _mm512_loadu_ps(w.as_ptr().add(unit * h + j));
                    *sum = _mm512_add_ps(*sum, _mm512_mul_ps(r, a));
                }
            }
        }
    }
    // No closures or `array::map` below: those are functions of their
    // own, which took and returned the registers through memory.
    // Lanes l + 8 onto l: register pairs (a, b) into one of a's eight sums
    // then b's (128-bit blocks a0 + a2, a1 + a3, b0 + b2, b1 + b3).
    let mut halves = [_mm512_setzero_ps(); 8];
    for (k, half) in halves.iter_mut().enumerate() {
        let (a, b) = (sums[2 * k], sums[2 * k + 1]);
        *half = _mm512_add_ps(
            _mm512_shuffle_f32x4::<0b01_00_01_00>(a, b),
            _mm512_shuffle_f32x4::<0b11_10_11_10>(a, b),
        );
    }
    // Lanes l + 4 onto l: block q of register k holds register 4k + q's
    // four sums.
    let mut quarters = [_mm512_setzero_ps(); 4];
    for (k, quarter) in quarters.iter_mut().enumerate() {
        let (c, d) = (halves[2 * k], halves[2 * k + 1]);
        *quarter = _mm512_add_ps(
            _mm512_shuffle_f32x4::<0b10_00_10_00>(c, d),
            _mm512_shuffle_f32x4::<0b11_01_11_01>(c, d),
        );
    }
    // The four sums' pairs, then the pairs' sums: lane 4q + r ends with
    // register 4r + q's total.
    let pairs = [
        hadd_zmm(quarters[0], quarters[1]),
        hadd_zmm(quarters[2], quarters[3]),
    ];
    hadd_zmm(pairs[0], pairs[1])
}

/// `_mm_hadd_ps` in each 128-bit block: `[a0 + a1, a2 + a3, b0 + b1, b2 + b3]`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn hadd_zmm(
    a: std::arch::x86_64::__m512,
    b: std::arch::x86_64::__m512,
) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::{_mm512_add_ps, _mm512_shuffle_ps};
    _mm512_add_ps(
        _mm512_shuffle_ps::<0b10_00_10_00>(a, b),
        _mm512_shuffle_ps::<0b11_01_11_01>(a, b),
    )
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
/// [`output_layer_play`]'s. The AVX-512 copy takes sixteen units at a time
/// (`dots_zmm`: their sums stay in registers) and squashes them side by
/// side, the units left over plain Rust; the same bits on every machine.
#[inline]
pub fn middle_layer_play(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if avx512() {
        // SAFETY: the CPU has AVX-512F (checked just above).
        unsafe { middle_layer_play_avx512(w, b, hidden, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { middle_layer_play_avx2(w, b, hidden, out) };
        return;
    }
    middle_layer_play_portable(w, b, hidden, out);
}

/// The AVX2 copy of [`middle_layer_play`], whatever the CPU has beyond
/// AVX2 (for the tests: `None` when the CPU lacks AVX2).
pub fn middle_layer_play_avx2_only(
    w: &[f32],
    b: &[f32],
    hidden: &[f32],
    out: &mut [f32],
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { middle_layer_play_avx2(w, b, hidden, out) };
        return Some(());
    }
    let _ = (w, b, hidden, out);
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn middle_layer_play_avx2(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    middle_layer_lanes::<16>(w, b, hidden, out, sum_lanes16, sigmoid_table);
}

/// [`middle_layer_play`]'s AVX-512 copy.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn middle_layer_play_avx512(w: &[f32], b: &[f32], hidden: &[f32], out: &mut [f32]) {
    use std::arch::x86_64::{_mm512_add_ps, _mm512_loadu_ps, _mm512_storeu_ps};
    let h = hidden.len();
    let whole = if h.is_multiple_of(16) {
        sixteens(w, b, h, out.len())
    } else {
        0
    };
    for g in 0..whole {
        let units = g * 16..(g + 1) * 16;
        let (Some(rows), Some(bias), Some(dst)) = (
            w.get(units.start * h..units.end * h),
            b.get(units.clone()),
            out.get_mut(units),
        ) else {
            break;
        };
        // SAFETY: h is a multiple of 16 and `rows` holds sixteen rows of h
        // (checked above); `bias` and `dst` hold sixteen floats.
        unsafe {
            let pre = _mm512_add_ps(dots_zmm::<16>(rows, hidden), _mm512_loadu_ps(bias.as_ptr()));
            _mm512_storeu_ps(dst.as_mut_ptr(), sigmoid_table_zmm(pre));
        }
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
