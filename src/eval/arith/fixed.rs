//! Play's first layer in fixed point ([`FixedRows`], [`FixedSums`]) and
//! play's fused evaluation of a position ([`fused_layers`]), with their
//! AVX2 and AVX-512 copies.

use super::*;

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
pub(super) fn hidden_layer_fixed_body(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
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
pub(super) fn hidden_layer_fixed_avx2(rows: FixedRows<'_>, active: &[(u16, f32)], acc: &mut [f32]) {
    hidden_layer_fixed_body(rows, active, acc);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn hidden_layer_fixed_avx512(
    rows: FixedRows<'_>,
    active: &[(u16, f32)],
    acc: &mut [f32],
) {
    // 32 registers hold a 128-hidden network's sums (4 of integers, 8 of
    // floats): one pass over the inputs per 128 units.
    fixed_sums::<128>(rows, active, acc);
    sigmoid_table_avx512(acc);
}

/// Whether this CPU has AVX-512F and AVX-512BW (the 16-bit additions).
#[inline]
pub(super) fn avx512bw() -> bool {
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

/// The fixed-point sums in blocks of `B` units, the units left over in
/// blocks of 32, 16 and 8, then one by one (400 units: three passes over
/// the inputs of 128 and one of 16, where it had taken 400 of one). Each
/// unit adds the same rows in the same order whatever its block, so the
/// blocks give the same bits.
#[inline(always)]
pub(super) fn fixed_sums<const B: usize>(
    rows: FixedRows<'_>,
    active: &[(u16, f32)],
    acc: &mut [f32],
) {
    let h = acc.len();
    let mut start = 0;
    while start + B <= h {
        fixed_block::<B>(rows, active, start, acc);
        start += B;
    }
    while start + 32 <= h {
        fixed_block::<32>(rows, active, start, acc);
        start += 32;
    }
    if start + 16 <= h {
        fixed_block::<16>(rows, active, start, acc);
        start += 16;
    }
    if start + 8 <= h {
        fixed_block::<8>(rows, active, start, acc);
        start += 8;
    }
    for start in start..h {
        fixed_block::<1>(rows, active, start, acc);
    }
}

/// [`hidden_layer_fixed`] one unit at a time (the reference of the
/// blocks' bits).
#[cfg(test)]
pub(crate) fn hidden_layer_fixed_by_unit(
    rows: FixedRows<'_>,
    active: &[(u16, f32)],
    acc: &mut [f32],
) {
    for start in 0..acc.len() {
        fixed_block::<1>(rows, active, start, acc);
    }
    acc.iter_mut().for_each(|a| *a = sigmoid_table(*a));
}

/// Units `start..start + B` of [`hidden_layer_fixed`]'s sums, before the
/// sigmoid.
#[inline(always)]
pub(super) fn fixed_block<const B: usize>(
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
pub(super) fn row_of<T, const H: usize>(table: &[T], r: usize) -> Option<&[T; H]> {
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
pub(super) fn fused_layers_body<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    let PlayLayers { rows, w2, b2 } = layers;
    output_layer_play_body(w2, b2, &fused_hidden_body(rows, fill))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn fused_layers_avx2<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    fused_layers_body(layers, fill)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn fused_layers_avx512<const H: usize, const OUT: usize>(
    layers: PlayLayers<'_>,
    fill: impl FillSums<H>,
) -> [f32; OUT] {
    let PlayLayers { rows, w2, b2 } = layers;
    output_layer_play_avx512(w2, b2, &fused_hidden_avx512(rows, fill))
}

/// The steps of the first `H` units ([`FixedRows::units`]; zero, so the
/// point rows count for nothing, if the table were shorter, which
/// [`crate::eval::net`]'s tables never are).
#[inline(always)]
pub(super) fn units_of<const H: usize>(rows: FixedRows<'_>) -> [f32; H] {
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
pub(super) fn add_int_row<const B: usize>(ints: &mut [i16; B], row: &[i16; B]) {
    for l in 0..B {
        ints[l] = ints[l].wrapping_add(row[l]);
    }
}

/// `sums += v · row`, lane by lane. Most inputs are 1.0, and `a + w` is
/// `a + w * 1.0` to the bit, so those skip the multiplication.
#[inline(always)]
pub(super) fn add_row<const B: usize>(sums: &mut [f32; B], row: &[f32; B], v: f32) {
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

/// Play's first hidden layer of one position, `H` units wide: the
/// activations [`fused_layers`] computes before its output layer, for a
/// network of two hidden layers to go on from (the same bits as
/// [`hidden_layer_fixed`] on the list of the same rows, on every copy).
#[inline]
pub(crate) fn fused_hidden<const H: usize>(
    rows: FixedRows<'_>,
    fill: impl FillSums<H>,
) -> [f32; H] {
    #[cfg(target_arch = "x86_64")]
    if avx512bw() {
        // SAFETY: the CPU has AVX-512F and BW (checked just above).
        return unsafe { fused_hidden_avx512(rows, fill) };
    }
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { fused_hidden_avx2(rows, fill) };
    }
    fused_hidden_body(rows, fill)
}

/// The portable copy of [`fused_hidden`] (what the tests compare the
/// others with).
#[cfg(test)]
pub(crate) fn fused_hidden_portable<const H: usize>(
    rows: FixedRows<'_>,
    fill: impl FillSums<H>,
) -> [f32; H] {
    fused_hidden_body(rows, fill)
}

#[inline(always)]
pub(super) fn fused_hidden_body<const H: usize>(
    rows: FixedRows<'_>,
    fill: impl FillSums<H>,
) -> [f32; H] {
    let mut sums = FixedSums::<H>::new(rows);
    fill.fill(&mut sums);
    let units = units_of::<H>(rows);
    std::array::from_fn(|l| sigmoid_table(f32::from(sums.ints[l]) * units[l] + sums.floats[l]))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn fused_hidden_avx2<const H: usize>(
    rows: FixedRows<'_>,
    fill: impl FillSums<H>,
) -> [f32; H] {
    fused_hidden_body(rows, fill)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn fused_hidden_avx512<const H: usize>(
    rows: FixedRows<'_>,
    fill: impl FillSums<H>,
) -> [f32; H] {
    use std::arch::x86_64::{
        _mm256_loadu_si256, _mm512_add_ps, _mm512_cvtepi16_epi32, _mm512_cvtepi32_ps,
        _mm512_loadu_ps, _mm512_mul_ps, _mm512_storeu_ps,
    };
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
    hidden
}
