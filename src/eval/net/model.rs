//! The network itself: one hidden layer (or two), sigmoid outputs; its forward
//! pass (plain, sparse and the fast table-driven one of play), its training
//! step, and its evaluators.

use super::*;

/// The hidden-layer rows of the fast evaluation: for each side and each
/// point, the sum of its units' rows for every count 1..=15 (in the units'
/// order, `((≥1 + ≥2) + ≥3) + beyond · (n−3)/2`), then the network's own
/// input rows; in `f32` and in fixed point ([`crate::eval::arith::FixedRows`]).
/// Built once per network, on its first fast evaluation.
#[derive(Clone, Default)]
pub struct RowTable(std::sync::OnceLock<PlayRows>);

/// [`RowTable`]'s rows, built.
#[derive(Clone)]
pub(crate) struct PlayRows {
    /// The rows in `f32`.
    pub(crate) floats: Vec<f32>,
    /// The point rows (the first [`TABLE_ROWS`]) in steps of `units`.
    pub(crate) ints: Vec<i16>,
    /// The biases.
    bias: Vec<f32>,
    /// Each hidden unit's step, a power of two: the finest at which its
    /// sum of point rows cannot leave the `i16` range ([`fixed_units`]).
    pub(crate) units: Vec<f32>,
}

impl PlayRows {
    /// The rows as the fixed-point hidden layer reads them.
    pub(crate) fn fixed(&self) -> crate::eval::arith::FixedRows<'_> {
        crate::eval::arith::FixedRows {
            ints: &self.ints,
            int_rows: TABLE_ROWS,
            floats: &self.floats,
            bias: &self.bias,
            units: &self.units,
        }
    }
}

/// The steps of [`PlayRows::ints`], unit by unit, for `rows` (the f32
/// table, `hidden` wide): for each hidden unit the smallest power of two
/// (2⁻¹⁴ at the finest) at which the largest sum of point rows it can
/// reach fits in an `i16`, rounding included: one count's row for each
/// occupied point, with at most 15 checkers a side (the bound is a
/// knapsack over the points). Trained networks get steps of 2⁻⁹ to 2⁻¹²;
/// a file's weights may be as large as [`MAX_WEIGHT`], whose coarse steps
/// still never wrap.
pub(super) fn fixed_units(rows: &[f32], hidden: usize) -> Vec<f32> {
    // Each of at most 30 rounded rows is off by at most half a step; one
    // more step for the bound's own rounding.
    let rounding = 0.5 * 30.0 + 1.0;
    (0..hidden)
        .map(|j| {
            let bound = points_bound(|r| rows[r * hidden + j].abs());
            let mut e = -14;
            while e < 30 && bound * 1.001 / 2f32.powi(e) + rounding > f32::from(i16::MAX) {
                e += 1;
            }
            2f32.powi(e)
        })
        .collect()
}

/// The largest sum of `size(row)` over one row per occupied point, both
/// sides, with at most 15 checkers a side.
pub(super) fn points_bound<T: Copy + Default + PartialOrd + std::ops::Add<Output = T>>(
    size: impl Fn(usize) -> T,
) -> T {
    let mut total = T::default();
    for side in 0..2 {
        // best[c]: the largest sum over points holding c checkers in all.
        let mut best = [T::default(); 16];
        for p in 1..=24u8 {
            let mut next = best;
            for used in 0..15usize {
                for n in 1..=(15 - used) {
                    let v = best[used] + size(table_row(side, p, n as u8));
                    if v > next[used + n] {
                        next[used + n] = v;
                    }
                }
            }
            best = next;
        }
        let most = best
            .into_iter()
            .fold(T::default(), |a, b| if b > a { b } else { a });
        total = total + most;
    }
    total
}

impl RowTable {
    /// The rows of `w1` (`hidden` wide) with the table in front, the two
    /// sides' point units starting at inputs `bases`, and the biases `b1`.
    pub(crate) fn rows(
        &self,
        w1: &[f32],
        b1: &[f32],
        hidden: usize,
        bases: [usize; 2],
    ) -> &PlayRows {
        self.0.get_or_init(|| {
            let mut rows = vec![0f32; TABLE_ROWS * hidden + w1.len()];
            for (side, base) in bases.into_iter().enumerate() {
                for p in 1..=24u8 {
                    let unit = |k: usize| {
                        let i = base + (p as usize - 1) * 4 + k;
                        &w1[i * hidden..(i + 1) * hidden]
                    };
                    for n in 1..=15u8 {
                        let r = table_row(side, p, n);
                        let row = &mut rows[r * hidden..(r + 1) * hidden];
                        row.copy_from_slice(unit(0));
                        if n >= 2 {
                            row.iter_mut().zip(unit(1)).for_each(|(a, w)| *a += w);
                        }
                        if n >= 3 {
                            row.iter_mut().zip(unit(2)).for_each(|(a, w)| *a += w);
                        }
                        if n > 3 {
                            let v = f32::from(n - 3) / 2.0;
                            row.iter_mut().zip(unit(3)).for_each(|(a, w)| *a += w * v);
                        }
                    }
                }
            }
            rows[TABLE_ROWS * hidden..].copy_from_slice(w1);
            let units = fixed_units(&rows, hidden);
            let steps = |(j, x): (usize, &f32)| (x / units[j % hidden]).round() as i16;
            PlayRows {
                ints: rows[..TABLE_ROWS * hidden]
                    .iter()
                    .enumerate()
                    .map(steps)
                    .collect(),
                bias: b1.to_vec(),
                floats: rows,
                units,
            }
        })
    }

    /// Forgets the table (the weights changed).
    fn clear(&mut self) {
        self.0 = std::sync::OnceLock::new();
    }
}

// Two networks with the same weights are equal whether or not either has
// built its table yet.
impl PartialEq for RowTable {
    fn eq(&self, _: &RowTable) -> bool {
        true
    }
}

impl std::fmt::Debug for RowTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "RowTable(built)"
        } else {
            "RowTable(not built)"
        })
    }
}

/// How far [`NetOf::deepened`] scales the old outputs' sums down into the
/// sigmoid's nearly straight middle: an output sum of ±8 (a chance of
/// 1 in 3,000) starts off by about 2% of itself.
pub const DEEPEN_SCALE: f32 = 16.0;

/// Hidden activations and outputs of one forward pass (kept for training).
pub struct ForwardOf<const OUT: usize> {
    /// Hidden activations.
    pub hidden: Vec<f32>,
    /// The second hidden layer's activations (empty without one).
    pub hidden2: Vec<f32>,
    /// Output activations.
    pub out: [f32; OUT],
}

/// A forward pass of Gul bara's network.
pub type Forward = ForwardOf<OUTPUTS>;

impl Net {
    /// A network with small random weights from `seed`.
    pub fn random(hidden: usize, seed: u64) -> Net {
        Net::random_layout(LAYOUT_VERSION, INPUTS, hidden, seed)
    }

    /// Outputs as consistent probabilities.
    pub fn probs(out: &[f32; OUTPUTS]) -> Probs {
        // `from_bytes` bounds the weights so no sum overflows; a NaN (from
        // weights built in memory) still gives valid chances, never a panic.
        let or = |x: f32, default: f32| if x.is_nan() { default } else { x };
        let win = or(out[0], 0.5).clamp(0.0, 1.0);
        Probs {
            win,
            win_mars: or(out[1], 0.0).clamp(0.0, win),
            lose_mars: or(out[2], 0.0).clamp(0.0, 1.0 - win),
            ..Probs::default()
        }
    }

    /// The network shipped inside the binary.
    pub fn shipped() -> Result<Net, WeightsError> {
        Net::from_bytes(SHIPPED)
    }

    /// The long-nardy network shipped inside the binary.
    pub fn long_shipped() -> Result<Net, WeightsError> {
        Net::for_game(
            Net::from_bytes(LONG_SHIPPED)?,
            crate::rules::Variant::LongNardy,
        )
    }

    /// `net` if it is `variant`'s network ([`Net::check_game`]), else an
    /// error naming both.
    pub fn for_game(net: Net, variant: crate::rules::Variant) -> Result<Net, WeightsError> {
        net.check_game(variant).map(|()| net)
    }

    /// Whether this network is `variant`'s (its table row's outputs and
    /// input layouts, [`NetShape`]); the error names both.
    pub fn check_game(&self, variant: crate::rules::Variant) -> Result<(), WeightsError> {
        NetShape::of(variant.spec().eval).check(variant, self.layout, OUTPUTS)
    }
}

impl<const OUT: usize> NetOf<OUT> {
    /// A network of `inputs` inputs for input layout `layout`, with small
    /// random weights from `seed`.
    pub fn random_layout(layout: u32, inputs: usize, hidden: usize, seed: u64) -> NetOf<OUT> {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut r = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        NetOf {
            layout,
            inputs,
            hidden,
            w1: (0..inputs * hidden).map(|_| r(0.1)).collect(),
            b1: (0..hidden).map(|_| r(0.1)).collect(),
            hidden2: 0,
            w_mid: Vec::new(),
            b_mid: Vec::new(),
            w2: (0..OUT * hidden).map(|_| r(0.1)).collect(),
            b2: vec![0.0; OUT],
            description: String::new(),
            rows: RowTable::default(),
        }
    }

    /// The units of the last hidden layer, the one the outputs read.
    pub fn top(&self) -> usize {
        if self.hidden2 > 0 {
            self.hidden2
        } else {
            self.hidden
        }
    }

    /// This network with a second hidden layer of `hidden2` units between
    /// its hidden layer and its outputs (a network with one already: as it
    /// is), starting near this network's function. The first layer is
    /// kept. The new layer's first `OUT` units carry the old outputs' sums
    /// `x` scaled down by [`DEEPEN_SCALE`], where the sigmoid is nearly a
    /// line: `σ(x/s) ≈ 1/2 + x/(4s)`; each output reads its own unit back
    /// with weight `4s` and bias `−2s`, so its sum starts at `x` less about
    /// `x³/(48s²)`. The other new units have small random weights (from
    /// `seed`) and output weights zero. `hidden2` is at least `OUT`.
    pub fn deepened(&self, hidden2: usize, seed: u64) -> NetOf<OUT> {
        self.deepened_with(hidden2, seed, DEEPEN_SCALE, 4.0 * DEEPEN_SCALE)
    }

    /// [`NetOf::deepened`]'s first start, kept so the networks fitted from
    /// it can be rebuilt: the new layer's first `OUT` units are the old
    /// outputs themselves (their weights and biases), the others small and
    /// random (from `seed`), and each output reads its old self through
    /// `σ(6 · (u − 1/2))`, a rough identity on [0, 1] (on backgammon's
    /// labels the fit starts at a held-out cross-entropy of 0.2192 where
    /// the old network has 0.1923, and is back in six epochs).
    pub fn deepened_roughly(&self, hidden2: usize, seed: u64) -> NetOf<OUT> {
        self.deepened_with(hidden2, seed, 1.0, 6.0)
    }

    /// The body of both deepenings: the new layer's first `OUT` units are
    /// the old outputs' weights and biases divided by `scale`, each output
    /// reads its own unit with weight `gain` and bias `−gain/2`; the other
    /// new units are small and random (from `seed`), their output weights
    /// zero. (Dividing by 1.0 leaves a weight as it is, bit for bit.)
    fn deepened_with(&self, hidden2: usize, seed: u64, scale: f32, gain: f32) -> NetOf<OUT> {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        if self.hidden2 > 0 || hidden2 == 0 {
            return self.clone();
        }
        let hidden2 = hidden2.max(OUT);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut r = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        let h = self.hidden;
        let mut w_mid: Vec<f32> = self.w2.iter().map(|w| w / scale).collect();
        let mut b_mid: Vec<f32> = self.b2.iter().map(|b| b / scale).collect();
        w_mid.extend((0..(hidden2 - OUT) * h).map(|_| r(0.1)));
        b_mid.extend((0..hidden2 - OUT).map(|_| r(0.1)));
        let mut w2 = vec![0f32; OUT * hidden2];
        for k in 0..OUT {
            w2[k * hidden2 + k] = gain;
        }
        NetOf {
            layout: self.layout,
            inputs: self.inputs,
            hidden: h,
            w1: self.w1.clone(),
            b1: self.b1.clone(),
            hidden2,
            w_mid,
            b_mid,
            w2,
            b2: vec![-gain / 2.0; OUT],
            description: self.description.clone(),
            rows: RowTable::default(),
        }
    }

    /// This network with `extra` hidden units more: each new unit's input
    /// weights and bias small and random (from `seed`), its output weights
    /// (or its weights into the second hidden layer) zero, so the widened
    /// network's outputs are this one's until training moves them.
    pub fn widened(&self, extra: usize, seed: u64) -> NetOf<OUT> {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut r = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        let hidden = self.hidden + extra;
        let mut w1 = Vec::with_capacity(self.inputs * hidden);
        for row in self.w1.chunks(self.hidden) {
            w1.extend_from_slice(row);
            w1.extend((0..extra).map(|_| r(0.1)));
        }
        let mut b1 = self.b1.clone();
        b1.extend((0..extra).map(|_| r(0.1)));
        // The rows that read the first layer: the second layer's if there
        // is one, else the outputs'.
        let read = |w: &[f32]| {
            let mut out = Vec::with_capacity(w.len() / self.hidden.max(1) * hidden);
            for row in w.chunks(self.hidden) {
                out.extend_from_slice(row);
                out.extend(std::iter::repeat_n(0.0, extra));
            }
            out
        };
        let (w_mid, w2) = if self.hidden2 > 0 {
            (read(&self.w_mid), self.w2.clone())
        } else {
            (Vec::new(), read(&self.w2))
        };
        NetOf {
            layout: self.layout,
            inputs: self.inputs,
            hidden,
            w1,
            b1,
            hidden2: self.hidden2,
            w_mid,
            b_mid: self.b_mid.clone(),
            w2,
            b2: self.b2.clone(),
            description: self.description.clone(),
            rows: RowTable::default(),
        }
    }

    /// This network read as one of input `layout` with `inputs` inputs, the
    /// new inputs' weights zero: the outputs stay this network's until
    /// training moves them (a layout that adds inputs after the old ones).
    pub fn with_inputs(&self, layout: u32, inputs: usize) -> NetOf<OUT> {
        let mut net = self.clone();
        net.layout = layout;
        net.inputs = inputs.max(self.inputs);
        net.w1.resize(net.inputs * net.hidden, 0.0);
        // The fast rows are built from `w1` on first use.
        net.rows = RowTable::default();
        net
    }

    /// Hidden activations of `x` into `acc` (`hidden` long).
    #[inline]
    fn hidden_into(&self, x: &Inputs, acc: &mut [f32]) {
        crate::eval::arith::hidden_layer(&self.w1, &self.b1, &x.active, acc);
    }

    /// Outputs from hidden activations (see [`crate::eval::arith`]: the same bits
    /// on every machine), through the second hidden layer if there is one.
    #[inline]
    fn outputs_from(&self, hidden: &[f32]) -> [f32; OUT] {
        if self.hidden2 == 0 {
            return crate::eval::arith::output_layer(&self.w2, &self.b2, hidden);
        }
        self.with_top_buffer(|mid| {
            crate::eval::arith::middle_layer(&self.w_mid, &self.b_mid, hidden, mid);
            crate::eval::arith::output_layer(&self.w2, &self.b2, mid)
        })
    }

    /// Play's outputs from play's first hidden layer: its output layer
    /// ([`crate::eval::arith::output_layer_play`]), through the second
    /// hidden layer ([`crate::eval::arith::middle_layer_play`]) if there is
    /// one.
    #[inline]
    pub(crate) fn outputs_from_play(&self, hidden: &[f32]) -> [f32; OUT] {
        if self.hidden2 == 0 {
            return crate::eval::arith::output_layer_play(&self.w2, &self.b2, hidden);
        }
        self.with_top_buffer(|mid| {
            crate::eval::arith::middle_layer_play(&self.w_mid, &self.b_mid, hidden, mid);
            crate::eval::arith::output_layer_play(&self.w2, &self.b2, mid)
        })
    }

    /// `layers` with a zeroed buffer of `hidden2` floats (on the stack up
    /// to 128).
    #[inline(always)]
    fn with_top_buffer(&self, layers: impl FnOnce(&mut [f32]) -> [f32; OUT]) -> [f32; OUT] {
        if self.hidden2 > 128 {
            return layers(&mut vec![0f32; self.hidden2]);
        }
        let mut buf = [0f32; 128];
        layers(&mut buf[..self.hidden2])
    }

    /// Forward pass, keeping the hidden activations for training.
    pub fn forward(&self, x: &Inputs) -> ForwardOf<OUT> {
        let mut acc = vec![0f32; self.hidden];
        self.hidden_into(x, &mut acc);
        if self.hidden2 == 0 {
            let out = crate::eval::arith::output_layer(&self.w2, &self.b2, &acc);
            return ForwardOf {
                hidden: acc,
                hidden2: Vec::new(),
                out,
            };
        }
        let mut mid = vec![0f32; self.hidden2];
        crate::eval::arith::middle_layer(&self.w_mid, &self.b_mid, &acc, &mut mid);
        let out = crate::eval::arith::output_layer(&self.w2, &self.b2, &mid);
        ForwardOf {
            hidden: acc,
            hidden2: mid,
            out,
        }
    }

    /// The outputs of `x` (the same bits as [`Net::forward`], without
    /// allocating for networks of up to [`MAX_HIDDEN`] hidden units).
    pub fn outputs(&self, x: &Inputs) -> [f32; OUT] {
        self.outputs_of(&x.active)
    }

    /// [`NetOf::outputs`] of the active inputs `(index, value)`: training's
    /// layers.
    pub fn outputs_of(&self, active: &[(u16, f32)]) -> [f32; OUT] {
        self.with_hidden_buffer(|acc| {
            crate::eval::arith::hidden_layer(&self.w1, &self.b1, active, acc);
            self.outputs_from(acc)
        })
    }

    /// `layers` with a zeroed buffer of `hidden` floats (on the stack for
    /// networks of up to [`MAX_HIDDEN`] hidden units).
    #[inline(always)]
    fn with_hidden_buffer(&self, layers: impl FnOnce(&mut [f32]) -> [f32; OUT]) -> [f32; OUT] {
        if self.hidden > MAX_HIDDEN {
            return layers(&mut vec![0f32; self.hidden]);
        }
        // The shipped networks' sizes first: zeroing a buffer of
        // MAX_HIDDEN floats costs more than their output layer, and one of
        // 128 (a call to memset) a tenth of a 64-hidden evaluation.
        if self.hidden == 64 {
            return layers(&mut [0f32; 64]);
        }
        if self.hidden <= 128 {
            let mut buf = [0f32; 128];
            return layers(&mut buf[..self.hidden]);
        }
        let mut buf = [0f32; MAX_HIDDEN];
        layers(&mut buf[..self.hidden])
    }

    /// Play's rows of this network ([`RowTable`]), the point units of the
    /// two sides starting at inputs `bases`.
    pub(crate) fn play_rows(&self, bases: [usize; 2]) -> &PlayRows {
        self.rows.rows(&self.w1, &self.b1, self.hidden, bases)
    }

    /// What play's fused evaluation reads of this network.
    pub(super) fn play_layers(&self, bases: [usize; 2]) -> crate::eval::arith::PlayLayers<'_> {
        crate::eval::arith::PlayLayers {
            rows: self.play_rows(bases).fixed(),
            w2: &self.w2,
            b2: &self.b2,
        }
    }

    /// The outputs of the table rows `(index, value)` ([`TableSink`]'s
    /// list), the point units of the two sides starting at inputs `bases`.
    pub(crate) fn outputs_of_rows(&self, bases: [usize; 2], active: &[(u16, f32)]) -> [f32; OUT] {
        let play = self.play_rows(bases);
        let rows = play.fixed();
        self.with_hidden_buffer(|acc| {
            crate::eval::arith::hidden_layer_fixed(rows, active, acc);
            self.outputs_from_play(acc)
        })
    }

    /// Play's outputs of the position `features` writes, the point units
    /// of the two sides starting at inputs `bases`: the bits of
    /// [`NetOf::outputs_of_rows`] on [`TableSink`]'s list of the same
    /// inputs, summed as they come for the shipped networks' sizes (64 and
    /// 128 hidden units), through the list for any other.
    pub(crate) fn play_outputs(&self, bases: [usize; 2], features: impl Features) -> [f32; OUT] {
        if self.hidden2 > 0 {
            // Two hidden layers: the first as the fused evaluation sums it,
            // then the rest plain.
            let rows = self.play_rows(bases).fixed();
            return match self.hidden {
                64 => {
                    self.outputs_from_play(&crate::eval::arith::fused_hidden::<64>(rows, features))
                }
                128 => {
                    self.outputs_from_play(&crate::eval::arith::fused_hidden::<128>(rows, features))
                }
                _ => with_inputs_buffer(|active| {
                    features.write(&mut TableSink(active));
                    self.outputs_of_rows(bases, active)
                }),
            };
        }
        let layers = self.play_layers(bases);
        match self.hidden {
            64 => crate::eval::arith::fused_layers::<64, OUT>(layers, features),
            128 => crate::eval::arith::fused_layers::<128, OUT>(layers, features),
            _ => with_inputs_buffer(|active| {
                features.write(&mut TableSink(active));
                self.outputs_of_rows(bases, active)
            }),
        }
    }

    /// One gradient step of the squared error towards `target` at `x`.
    pub fn train(&mut self, x: &Inputs, fwd: &ForwardOf<OUT>, target: &[f32; OUT], rate: f32) {
        self.rows.clear();
        if self.hidden2 > 0 {
            let mut d_out = [0f32; OUT];
            for (k, d) in d_out.iter_mut().enumerate() {
                let o = fwd.out[k];
                *d = -(target[k] - o) * o * (1.0 - o) * rate;
            }
            let g = self.gradient(&x.active, fwd, &d_out);
            g.apply(self);
            return;
        }
        let h = self.hidden;
        let mut delta_out = [0f32; OUT];
        for k in 0..OUT {
            let o = fwd.out[k];
            delta_out[k] = (target[k] - o) * o * (1.0 - o);
        }
        let mut delta_hidden = vec![0f32; h];
        for (j, dh) in delta_hidden.iter_mut().enumerate() {
            let mut s = 0.0;
            for (k, d) in delta_out.iter().enumerate() {
                s += self.w2[k * h + j] * d;
            }
            let a = fwd.hidden[j];
            *dh = s * a * (1.0 - a);
        }
        for (k, d) in delta_out.iter().enumerate() {
            let row = &mut self.w2[k * h..(k + 1) * h];
            for (w, a) in row.iter_mut().zip(&fwd.hidden) {
                *w += rate * d * a;
            }
            self.b2[k] += rate * d;
        }
        for &(i, v) in &x.active {
            let row = &mut self.w1[i as usize * h..(i as usize + 1) * h];
            for (w, d) in row.iter_mut().zip(&delta_hidden) {
                *w += rate * d * v;
            }
        }
        for (b, d) in self.b1.iter_mut().zip(&delta_hidden) {
            *b += rate * d;
        }
    }
}

/// The gradient of a loss of one example with respect to the weights of a
/// network, sparse in the first layer: its rows of the example's active
/// inputs only.
pub struct Gradient {
    /// The active inputs `(index, value)` whose rows of `w1` the gradient
    /// has: row `i` of `w1` gets `value · d_hidden`.
    pub active: Vec<(u16, f32)>,
    /// The gradient of the first layer's sums (and so of `b1`).
    pub d_hidden: Vec<f32>,
    /// The gradient of `w_mid` (`hidden2 × hidden`; empty without a second
    /// layer).
    pub w_mid: Vec<f32>,
    /// The gradient of the second layer's sums (and so of `b_mid`).
    pub d_mid: Vec<f32>,
    /// The gradient of `w2`.
    pub w2: Vec<f32>,
    /// The gradient of the output sums (and so of `b2`).
    pub d_out: Vec<f32>,
}

impl Gradient {
    /// `net` moved by minus this gradient.
    fn apply<const OUT: usize>(&self, net: &mut NetOf<OUT>) {
        let h = net.hidden;
        for &(i, v) in &self.active {
            let row = &mut net.w1[i as usize * h..(i as usize + 1) * h];
            for (w, d) in row.iter_mut().zip(&self.d_hidden) {
                *w -= d * v;
            }
        }
        let sub = |p: &mut [f32], g: &[f32]| p.iter_mut().zip(g).for_each(|(p, g)| *p -= g);
        sub(&mut net.b1, &self.d_hidden);
        sub(&mut net.w_mid, &self.w_mid);
        sub(&mut net.b_mid, &self.d_mid);
        sub(&mut net.w2, &self.w2);
        sub(&mut net.b2, &self.d_out);
    }
}

impl<const OUT: usize> NetOf<OUT> {
    /// Backpropagation of one example whose forward pass is `fwd` (on the
    /// active inputs `active`), given the loss's gradient `d_out` with
    /// respect to the output layer's sums (before its sigmoid): the
    /// gradient with respect to every weight, through both hidden layers
    /// if there are two.
    pub fn gradient(
        &self,
        active: &[(u16, f32)],
        fwd: &ForwardOf<OUT>,
        d_out: &[f32; OUT],
    ) -> Gradient {
        let h = self.hidden;
        let top = self.top();
        let below: &[f32] = if self.hidden2 > 0 {
            &fwd.hidden2
        } else {
            &fwd.hidden
        };
        let mut w2 = vec![0f32; OUT * top];
        for (k, d) in d_out.iter().enumerate() {
            for (g, a) in w2[k * top..(k + 1) * top].iter_mut().zip(below) {
                *g = d * a;
            }
        }
        // The gradient of the top hidden layer's sums.
        let d_top: Vec<f32> = (0..top)
            .map(|j| {
                let s: f32 = d_out
                    .iter()
                    .enumerate()
                    .map(|(k, d)| self.w2[k * top + j] * d)
                    .sum();
                s * below[j] * (1.0 - below[j])
            })
            .collect();
        let (d_hidden, w_mid, d_mid) = if self.hidden2 > 0 {
            let mut w_mid = vec![0f32; self.hidden2 * h];
            let mut back = vec![0f32; h];
            for (m, d) in d_top.iter().enumerate() {
                let row = &self.w_mid[m * h..(m + 1) * h];
                for (j, (g, a)) in w_mid[m * h..(m + 1) * h]
                    .iter_mut()
                    .zip(&fwd.hidden)
                    .enumerate()
                {
                    *g = d * a;
                    back[j] += row[j] * d;
                }
            }
            let d_hidden = back
                .iter()
                .zip(&fwd.hidden)
                .map(|(s, a)| s * a * (1.0 - a))
                .collect();
            (d_hidden, w_mid, d_top)
        } else {
            (d_top, Vec::new(), Vec::new())
        };
        Gradient {
            active: active.to_vec(),
            d_hidden,
            w_mid,
            d_mid,
            w2,
            d_out: d_out.to_vec(),
        }
    }
}

/// Where the two sides' point units start in a three-output layout.
pub(super) const BASES: [usize; 2] = [0, 98];

impl Net {
    /// The fast evaluation's inputs of `state` into `active` (cleared
    /// first): one table row per occupied point, then the other inputs,
    /// for [`Net::outputs_of_table`]. (The bench times the two apart.)
    pub fn table_inputs_into(
        &self,
        state: &GameState,
        opts: &RuleOptions,
        active: &mut Vec<(u16, f32)>,
    ) {
        features_by_layout(self.layout, state, opts, &mut TableSink(active));
    }

    /// Play's outputs of `state` (`NetOf::play_outputs`): what
    /// [`Evaluator::eval`] computes.
    pub fn play_outputs_of(&self, state: &GameState, opts: &RuleOptions) -> [f32; OUTPUTS] {
        let features = LayoutFeatures {
            layout: self.layout,
            state,
            opts,
        };
        self.play_outputs(BASES, features)
    }

    /// The outputs of [`Net::table_inputs_into`]'s rows: the bits of
    /// [`Net::play_outputs_of`].
    pub fn outputs_of_table(&self, active: &[(u16, f32)]) -> [f32; OUTPUTS] {
        self.outputs_of_rows(BASES, active)
    }
}

impl Evaluator for Net {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        Net::probs(&self.play_outputs_of(state, opts)).settled(state)
    }

    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        out.extend(
            states
                .iter()
                .map(|s| Net::probs(&self.play_outputs_of(s, opts)).settled(s)),
        );
    }

    fn name(&self) -> &'static str {
        "net"
    }
}

/// A network evaluated the way it is trained: the sparse inputs and one
/// row per input ([`NetOf::outputs`]), as [`NetOf::forward`] computes, and
/// its outputs as they are (no [`Probs::settled`]). Self-play in training
/// uses it, so a run gives the same weights as the binaries from before the
/// play evaluation ([`RowTable`], whose sums are grouped differently and
/// can differ in the last bits, and the settled mars chances).
pub struct Sparse<'a, const OUT: usize>(pub &'a NetOf<OUT>);

impl Evaluator for Sparse<'_, OUTPUTS> {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        with_inputs_buffer(|active| {
            features_for_into(self.0, state, opts, active);
            Net::probs(&self.0.outputs_of(active))
        })
    }

    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        with_inputs_buffer(|active| {
            for s in states {
                features_for_into(self.0, s, opts, active);
                out.push(Net::probs(&self.0.outputs_of(active)));
            }
        });
    }

    fn name(&self) -> &'static str {
        "net"
    }
}
