//! Supervised training on rolled-out positions ([`super::label`]): the
//! network's sigmoid outputs learn each position's rolled-out outcome
//! distribution by cross-entropy, with AdamW on minibatches, and the epoch
//! with the lowest loss on a held-out set is kept (early stopping).
//!
//! The project's own backpropagation serves: the networks have one hidden
//! layer and a few hundred sparse inputs, so an epoch over 100,000
//! positions takes seconds on one core; a tensor library (candle, burn)
//! would add a large dependency for no speed that matters here.
//!
//! Positions labelled as a group (a turn's top plays, rolled out with the
//! same dice: [`super::label::seed_indices`]) can also be trained on their
//! differences ([`FitConfig::group_weight`]): what decides a play is the
//! gap between a turn's plays, and a loss on single positions does not
//! learn it (in long nardy, training on the groups by cross-entropy alone
//! made the network's choices among them worse).
//!
//! Reproducible: the held-out split and the minibatch order come from the
//! seed, and training runs on one thread.

use std::io::Read;
use std::path::Path;

use crate::eval::net::{Inputs, NetOf};
use crate::rules::{GameState, Scores, Variant};
use crate::splitmix::SplitMix;
use crate::training::TrainError;

/// One training example: the inputs and the target outputs.
pub struct Example<const OUT: usize> {
    /// The network's inputs of the position.
    pub inputs: Inputs,
    /// What the outputs should be.
    pub target: [f32; OUT],
    /// The group the position belongs to (the plays of one turn, labelled
    /// with the same dice), if any; a group's examples are consecutive.
    pub group: Option<u64>,
}

/// Settings of a supervised run.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Most epochs.
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    pub patience: usize,
    /// Positions per minibatch.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// Decoupled weight decay (AdamW) per step, times the rate.
    pub decay: f32,
    /// Decoupled decay towards the starting network's weights per step,
    /// times the rate (0: none). A network trained on a few thousand
    /// games' positions keeps what it knew of the positions they lack.
    pub anchor: f32,
    /// Share of positions held out.
    pub holdout: f64,
    /// Positions held out together: runs of this many consecutive examples
    /// (a generation's positions come game by game, so a run of about a
    /// game's positions keeps the held-out games apart from the trained
    /// ones); 1 splits position by position.
    pub holdout_block: usize,
    /// Seed of the split and the order.
    pub seed: u64,
    /// Weight of the group loss (0: none): for each group, half the
    /// squared error of every member's equity less the group's mean
    /// equity, against the same of the labels. Groups then stay whole in
    /// minibatches, and the best epoch is the one with the lowest held-out
    /// cross-entropy plus this times the held-out group loss.
    pub group_weight: f32,
    /// Which weights the fit moves ([`Trainable`]); the rest stay as the
    /// starting network's.
    pub train: Trainable,
    /// Weight of the level loss (0: none): for every position, half the
    /// squared error of its cubeless equity against the label's, in the
    /// group loss's units. The cross-entropy barely sees an equity moved
    /// through the mars outputs; this holds each value's level while the
    /// group loss moves the differences. The best epoch's score adds this
    /// times the held-out level loss.
    pub level_weight: f32,
    /// The points each kind of win scores in the game trained (its table
    /// row's [`crate::rules::VariantSpec::scores`]): the equity of the
    /// curve's errors, the group loss and the level loss ([`Valuation`]).
    /// The default is backgammon's (win 1, gammon 2, backgammon 3), whose
    /// reading of three outputs is every running game's.
    pub scores: Scores,
}

/// The weights a fit moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trainable {
    /// Every weight and bias.
    #[default]
    All,
    /// The output layer: the hidden-to-output weights and the output
    /// biases (the hidden layer stays).
    Output,
    /// The output biases alone: the level of each output, everything the
    /// network ranks by left as it was.
    Bias,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 60,
            patience: 6,
            batch: 64,
            rate: 3e-4,
            decay: 1e-4,
            anchor: 0.0,
            holdout: 0.05,
            holdout_block: 1,
            seed: 1,
            group_weight: 0.0,
            train: Trainable::All,
            level_weight: 0.0,
            scores: crate::rules::Variant::Backgammon.spec().scores,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// The epoch (1-based; 0 is the starting network).
    pub epoch: usize,
    /// Mean cross-entropy per output on the training set.
    pub train: f64,
    /// Mean cross-entropy per output on the held-out set.
    pub held_out: f64,
    /// Mean absolute error of the cubeless equity on the held-out set
    /// (in the game's own scoring, [`FitConfig::scores`]).
    pub equity_error: f64,
    /// Mean absolute error, over the held-out groups' members, of the
    /// equity less its group's mean (0 without groups).
    pub group_error: f64,
    /// Mean absolute error of the cubeless equity over the held-out
    /// positions in no group (0 without any): the level of single values,
    /// which a group loss does not see.
    pub single_error: f64,
}

/// Mean binary cross-entropy per output of `out` against `t`.
fn cross_entropy<const OUT: usize>(out: &[f32; OUT], t: &[f32; OUT]) -> f64 {
    let mut s = 0.0;
    for (o, t) in out.iter().zip(t) {
        let o = f64::from(*o).clamp(1e-7, 1.0 - 1e-7);
        let t = f64::from(*t);
        s -= t * o.ln() + (1.0 - t) * (1.0 - o).ln();
    }
    s / OUT as f64
}

/// The cubeless equity of a network's outputs in one game: the outputs in
/// the hitting networks' order (win, win gammon, win backgammon, lose
/// gammon, lose backgammon) or the running games' (win, win mars, lose
/// mars), each kind of win worth what the game's table row scores it
/// ([`crate::rules::VariantSpec::scores`]). In a game without backgammons
/// (Plakoto, Portes, short nardy) the backgammon outputs count nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuation<const OUT: usize> {
    /// How the equity changes with each output.
    coef: [f32; OUT],
    /// A single game's points: the equity is `Σ coef·o − single`.
    single: f64,
}

impl<const OUT: usize> Valuation<OUT> {
    /// The valuation of a game scoring `scores`.
    pub fn new(scores: Scores) -> Valuation<OUT> {
        let single = f32::from(scores.single);
        let double = f32::from(scores.double) - single;
        let triple = scores
            .triple
            .map_or(0.0, |t| f32::from(t) - f32::from(scores.double));
        let w: &[f32] = match OUT {
            5 => &[2.0 * single, double, triple, -double, -triple],
            _ => &[2.0 * single, double, -double],
        };
        let mut coef = [0f32; OUT];
        for (c, w) in coef.iter_mut().zip(w) {
            *c = *w;
        }
        Valuation {
            coef,
            single: f64::from(scores.single),
        }
    }

    /// How the equity changes with each output.
    pub fn weights(&self) -> &[f32; OUT] {
        &self.coef
    }

    /// The cubeless equity of `o`. (Summed in the order the fits have
    /// always summed it, so that backgammon's and the running games' fits
    /// are the same to the bit.)
    pub fn equity(&self, o: &[f32; OUT]) -> f64 {
        let mut e = f64::from(self.coef[0]) * f64::from(o[0]) - self.single;
        for (c, x) in self.coef.iter().zip(o).skip(1) {
            e += f64::from(*c) * f64::from(*x);
        }
        e
    }
}

/// The runs of `set` that are one group each (a lone position is a run of
/// one), as index ranges; with `grouped` false, every position alone.
fn units<T>(
    set: &[T],
    group: impl Fn(&T) -> Option<u64>,
    grouped: bool,
) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for i in 0..set.len() {
        let g = group(&set[i]);
        match out.last_mut() {
            Some(r) if grouped && g.is_some() && group(&set[r.start]) == g => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// Each member's equity less its group's mean, for the outputs and for
/// the targets.
fn centred(eq: &[f64]) -> Vec<f64> {
    let mean = eq.iter().sum::<f64>() / eq.len().max(1) as f64;
    eq.iter().map(|e| e - mean).collect()
}

/// The held-out split: example `i` is held out when its hash says so.
fn held_out(seed: u64, i: usize, share: f64) -> bool {
    let h = crate::splitmix::nth(seed ^ 0x4E1D_0075, i as u64);
    ((h >> 11) as f64) < share * (1u64 << 53) as f64
}

/// Whether example `i` is held out under `cfg` (by runs of
/// [`FitConfig::holdout_block`]).
fn is_held_out(cfg: &FitConfig, i: usize) -> bool {
    held_out(cfg.seed, i / cfg.holdout_block.max(1), cfg.holdout)
}

/// Losses of `net` over `set`.
struct Losses {
    /// The mean cross-entropy.
    ce: f64,
    /// The mean equity error.
    equity: f64,
    /// The mean group error ([`EpochLoss::group_error`]).
    group: f64,
    /// The mean group loss per group member ([`FitConfig::group_weight`]).
    group_loss: f64,
    /// The mean equity error of the positions in no group.
    single: f64,
    /// The mean level loss per position ([`FitConfig::level_weight`]).
    level_loss: f64,
}

/// The [`Losses`] of `net` over `set`.
fn losses<const OUT: usize>(
    net: &NetOf<OUT>,
    set: &[&Example<OUT>],
    value: &Valuation<OUT>,
) -> Losses {
    let (mut ce, mut eq) = (0.0, 0.0);
    let (mut gerr, mut gloss, mut members) = (0.0, 0.0, 0usize);
    let (mut serr, mut singles, mut lloss) = (0.0, 0usize, 0.0);
    for unit in units(set, |e| e.group, true) {
        let outs: Vec<[f32; OUT]> = set[unit.clone()]
            .iter()
            .map(|e| net.outputs(&e.inputs))
            .collect();
        for (e, out) in set[unit.clone()].iter().zip(&outs) {
            ce += cross_entropy(out, &e.target);
            let err = (value.equity(out) - value.equity(&e.target)).abs();
            eq += err;
            lloss += err * err / 2.0;
            if e.group.is_none() {
                serr += err;
                singles += 1;
            }
        }
        if unit.len() >= 2 {
            let mine = centred(&outs.iter().map(|o| value.equity(o)).collect::<Vec<_>>());
            let theirs = centred(
                &set[unit]
                    .iter()
                    .map(|e| value.equity(&e.target))
                    .collect::<Vec<_>>(),
            );
            for (m, t) in mine.iter().zip(&theirs) {
                gerr += (m - t).abs();
                gloss += (m - t) * (m - t) / 2.0;
                members += 1;
            }
        }
    }
    let n = set.len().max(1) as f64;
    let m = members.max(1) as f64;
    Losses {
        ce: ce / n,
        equity: eq / n,
        group: gerr / m,
        group_loss: gloss / m,
        single: serr / singles.max(1) as f64,
        level_loss: lloss / n,
    }
}

/// Adam's moments of one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One AdamW step of `params` down `grad` (the mean gradient of the
    /// batch); `t` is the step number from 1. With `anchor`, the weights
    /// are also pulled towards `start` (the same length as `params`).
    fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        rate: f32,
        decay: f32,
        anchor: Option<(f32, &[f32])>,
        t: i32,
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let mh = *m / c1;
            let vh = *v / c2;
            *p -= rate * (mh / (vh.sqrt() + EPS) + decay * *p);
        }
        if let Some((strength, start)) = anchor {
            for (p, s) in params.iter_mut().zip(start) {
                *p -= rate * strength * (*p - s);
            }
        }
    }
}

/// Trains `net` on `examples` (see the module's words); returns the curve,
/// epoch 0 being the starting network. `net` ends as the best epoch's.
pub fn fit<const OUT: usize>(
    net: &mut NetOf<OUT>,
    examples: &[Example<OUT>],
    cfg: &FitConfig,
    log: &mut dyn FnMut(&EpochLoss),
) -> Vec<EpochLoss> {
    let (curve, _) = fit_keeping(net, examples, cfg, 1, log);
    curve
}

/// The gradients of one minibatch, one vector a parameter vector.
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w_mid: Vec<f32>,
    b_mid: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// Scratch room of the second hidden layer's size.
    delta_mid: Vec<f32>,
}

impl Grads {
    fn new<const OUT: usize>(net: &NetOf<OUT>) -> Grads {
        Grads {
            w1: vec![0f32; net.w1.len()],
            b1: vec![0f32; net.hidden],
            w_mid: vec![0f32; net.w_mid.len()],
            b_mid: vec![0f32; net.b_mid.len()],
            w2: vec![0f32; net.w2.len()],
            b2: vec![0f32; OUT],
            delta_mid: vec![0f32; net.hidden2],
        }
    }

    fn clear(&mut self) {
        for g in [
            &mut self.w1,
            &mut self.b1,
            &mut self.w_mid,
            &mut self.b_mid,
            &mut self.w2,
            &mut self.b2,
        ] {
            g.iter_mut().for_each(|x| *x = 0.0);
        }
    }

    /// Adds one example's gradient: its forward pass `fwd`, target
    /// `target`, the group loss's `pull` on its equity, each scaled by
    /// `scale`. `delta_hidden` is scratch room of the hidden layer's size.
    #[allow(clippy::too_many_arguments)]
    fn add<const OUT: usize>(
        &mut self,
        net: &NetOf<OUT>,
        e: &Example<OUT>,
        fwd: &crate::eval::net::ForwardOf<OUT>,
        pull: f64,
        coef: &[f32; OUT],
        scale: f32,
        delta_hidden: &mut [f32],
    ) {
        let h = net.hidden;
        // Sigmoid and cross-entropy: the output's error is o − t;
        // the group loss adds its pull through the equity.
        let mut d_out = [0f32; OUT];
        for (k, d) in d_out.iter_mut().enumerate() {
            let o = fwd.out[k];
            *d = ((o - e.target[k]) + pull as f32 * coef[k] * o * (1.0 - o)) * scale;
        }
        if net.hidden2 > 0 {
            self.add_two_layers(net, e, fwd, &d_out, delta_hidden);
            return;
        }
        for (j, dh) in delta_hidden.iter_mut().enumerate() {
            let mut s = 0.0;
            for (kk, d) in d_out.iter().enumerate() {
                s += net.w2[kk * h + j] * d;
            }
            let a = fwd.hidden[j];
            *dh = s * a * (1.0 - a);
        }
        for (kk, d) in d_out.iter().enumerate() {
            for (g, a) in self.w2[kk * h..(kk + 1) * h].iter_mut().zip(&fwd.hidden) {
                *g += d * a;
            }
            self.b2[kk] += d;
        }
        for &(i, v) in &e.inputs.active {
            let row = &mut self.w1[i as usize * h..(i as usize + 1) * h];
            for (g, d) in row.iter_mut().zip(delta_hidden.iter()) {
                *g += d * v;
            }
        }
        for (g, d) in self.b1.iter_mut().zip(delta_hidden.iter()) {
            *g += d;
        }
    }
}

impl Grads {
    /// [`Grads::add`] for a network of two hidden layers, from the
    /// gradient `d_out` of the output layer's sums.
    fn add_two_layers<const OUT: usize>(
        &mut self,
        net: &NetOf<OUT>,
        e: &Example<OUT>,
        fwd: &crate::eval::net::ForwardOf<OUT>,
        d_out: &[f32; OUT],
        delta_hidden: &mut [f32],
    ) {
        let (h, h2) = (net.hidden, net.hidden2);
        for (m, dm) in self.delta_mid.iter_mut().enumerate() {
            let mut s = 0.0;
            for (k, d) in d_out.iter().enumerate() {
                s += net.w2[k * h2 + m] * d;
            }
            let a = fwd.hidden2[m];
            *dm = s * a * (1.0 - a);
        }
        for (k, d) in d_out.iter().enumerate() {
            for (g, a) in self.w2[k * h2..(k + 1) * h2].iter_mut().zip(&fwd.hidden2) {
                *g += d * a;
            }
            self.b2[k] += d;
        }
        delta_hidden.iter_mut().for_each(|x| *x = 0.0);
        for (m, dm) in self.delta_mid.iter().enumerate() {
            let row = &net.w_mid[m * h..(m + 1) * h];
            let grow = &mut self.w_mid[m * h..(m + 1) * h];
            for ((g, dh), (w, a)) in grow
                .iter_mut()
                .zip(delta_hidden.iter_mut())
                .zip(row.iter().zip(&fwd.hidden))
            {
                *g += dm * a;
                *dh += w * dm;
            }
            self.b_mid[m] += dm;
        }
        for (dh, a) in delta_hidden.iter_mut().zip(&fwd.hidden) {
            *dh *= a * (1.0 - a);
        }
        for &(i, v) in &e.inputs.active {
            let row = &mut self.w1[i as usize * h..(i as usize + 1) * h];
            for (g, d) in row.iter_mut().zip(delta_hidden.iter()) {
                *g += d * v;
            }
        }
        for (g, d) in self.b1.iter_mut().zip(delta_hidden.iter()) {
            *g += d;
        }
    }
}

/// Adam's moments of each parameter vector of a network.
struct NetMoments {
    w1: Moments,
    b1: Moments,
    w_mid: Moments,
    b_mid: Moments,
    w2: Moments,
    b2: Moments,
}

impl NetMoments {
    fn new<const OUT: usize>(net: &NetOf<OUT>) -> NetMoments {
        NetMoments {
            w1: Moments::new(net.w1.len()),
            b1: Moments::new(net.hidden),
            w_mid: Moments::new(net.w_mid.len()),
            b_mid: Moments::new(net.b_mid.len()),
            w2: Moments::new(net.w2.len()),
            b2: Moments::new(OUT),
        }
    }

    /// Step `t` of `net` down `g` (weights decayed, biases not), pulled
    /// towards `start_net` when an anchor is set.
    fn step<const OUT: usize>(
        &mut self,
        net: &mut NetOf<OUT>,
        g: &Grads,
        cfg: &FitConfig,
        start_net: Option<&NetOf<OUT>>,
        t: i32,
    ) {
        let anchor = cfg.anchor;
        let s = start_net;
        let (a1, ab1, a2, ab2) = (
            s.map(|s| (anchor, &s.w1[..])),
            s.map(|s| (anchor, &s.b1[..])),
            s.map(|s| (anchor, &s.w2[..])),
            s.map(|s| (anchor, &s.b2[..])),
        );
        if cfg.train == Trainable::All {
            self.w1.step(&mut net.w1, &g.w1, cfg.rate, cfg.decay, a1, t);
            self.b1.step(&mut net.b1, &g.b1, cfg.rate, 0.0, ab1, t);
            if net.hidden2 > 0 {
                let (am, abm) = (
                    s.map(|s| (anchor, &s.w_mid[..])),
                    s.map(|s| (anchor, &s.b_mid[..])),
                );
                self.w_mid
                    .step(&mut net.w_mid, &g.w_mid, cfg.rate, cfg.decay, am, t);
                self.b_mid
                    .step(&mut net.b_mid, &g.b_mid, cfg.rate, 0.0, abm, t);
            }
        }
        if cfg.train != Trainable::Bias {
            self.w2.step(&mut net.w2, &g.w2, cfg.rate, cfg.decay, a2, t);
        }
        self.b2.step(&mut net.b2, &g.b2, cfg.rate, 0.0, ab2, t);
    }
}

/// The examples trained on and those held out (the training set itself
/// when there are too few positions to hold any out).
fn split_held_out<'a, const OUT: usize>(
    examples: &'a [Example<OUT>],
    cfg: &FitConfig,
) -> (Vec<&'a Example<OUT>>, Vec<&'a Example<OUT>>) {
    let (mut train, mut hold): (Vec<&Example<OUT>>, Vec<&Example<OUT>>) = (Vec::new(), Vec::new());
    for (i, e) in examples.iter().enumerate() {
        if is_held_out(cfg, i) {
            hold.push(e);
        } else {
            train.push(e);
        }
    }
    // Too few positions to hold any out: the training set judges the epochs.
    if hold.is_empty() {
        hold = train.clone();
    }
    (train, hold)
}

/// The group loss's pull on the equity of each member of a unit (its
/// examples `unit`, forward passes `fwds`): none without a group weight
/// `gw` or for a unit of one.
fn group_pull<const OUT: usize>(
    value: &Valuation<OUT>,
    gw: f32,
    unit: &[&Example<OUT>],
    fwds: &[crate::eval::net::ForwardOf<OUT>],
) -> Vec<f64> {
    if gw > 0.0 && unit.len() >= 2 {
        let mine = centred(
            &fwds
                .iter()
                .map(|f| value.equity(&f.out))
                .collect::<Vec<_>>(),
        );
        let theirs = centred(
            &unit
                .iter()
                .map(|e| value.equity(&e.target))
                .collect::<Vec<_>>(),
        );
        mine.iter()
            .zip(&theirs)
            .map(|(m, t)| f64::from(gw) * (m - t))
            .collect()
    } else {
        vec![0.0; unit.len()]
    }
}

/// [`fit`], also returning the `keep` epochs with the lowest held-out
/// loss (epoch 0 excluded), best first, with their networks: the
/// candidates a match then chooses between.
pub fn fit_keeping<const OUT: usize>(
    net: &mut NetOf<OUT>,
    examples: &[Example<OUT>],
    cfg: &FitConfig,
    keep: usize,
    log: &mut dyn FnMut(&EpochLoss),
) -> (Vec<EpochLoss>, Vec<(EpochLoss, NetOf<OUT>)>) {
    let (train, hold) = split_held_out(examples, cfg);
    let h = net.hidden;
    let mut grads = Grads::new(net);
    let mut moments = NetMoments::new(net);
    let mut curve = Vec::new();
    let gw = cfg.group_weight.max(0.0);
    // The objective an epoch is judged by: the cross-entropy, and with a
    // group weight the group loss too.
    let lw = cfg.level_weight.max(0.0);
    let judged = |l: &Losses| l.ce + f64::from(gw) * l.group_loss + f64::from(lw) * l.level_loss;
    let value = Valuation::<OUT>::new(cfg.scores);
    let start = losses(net, &train, &value);
    let held = losses(net, &hold, &value);
    let first = EpochLoss {
        epoch: 0,
        train: start.ce,
        held_out: held.ce,
        equity_error: held.equity,
        group_error: held.group,
        single_error: held.single,
    };
    log(&first);
    curve.push(first);
    let mut best = (judged(&held), net.clone());
    let mut kept: Vec<(f64, EpochLoss, NetOf<OUT>)> = Vec::new();
    let mut since_best = 0;
    // Without a group weight every position is its own unit, and the
    // order and minibatches are exactly those of training position by
    // position.
    let train_units = units(&train, |e| e.group, gw > 0.0);
    let mut order: Vec<usize> = (0..train_units.len()).collect();
    let mut rng = SplitMix::new(cfg.seed);
    let mut t = 0i32;
    let mut delta_hidden = vec![0f32; h];
    let coef = *value.weights();
    // The starting weights, kept only when an anchor pulls towards them.
    let start_net = (cfg.anchor > 0.0).then(|| net.clone());
    let batch = cfg.batch.max(1);
    let mut members: Vec<usize> = Vec::with_capacity(batch);
    let mut fwds = Vec::new();
    let mut next = 0usize;
    for epoch in 1..=cfg.epochs {
        // Fisher–Yates with the run's generator.
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let mut train_ce = 0.0;
        while next < order.len() {
            // A minibatch: whole units until it holds `batch` positions.
            let first_unit = next;
            members.clear();
            while next < order.len() && members.len() < batch {
                members.extend(train_units[order[next]].clone());
                next += 1;
            }
            grads.clear();
            let scale = 1.0 / members.len() as f32;
            for &u in &order[first_unit..next] {
                let unit = &train[train_units[u].clone()];
                fwds.clear();
                fwds.extend(unit.iter().map(|e| net.forward(&e.inputs)));
                let pull = group_pull(&value, gw, unit, &fwds);
                for ((e, fwd), pull) in unit.iter().zip(&fwds).zip(&pull) {
                    train_ce += cross_entropy(&fwd.out, &e.target);
                    let level = f64::from(lw) * (value.equity(&fwd.out) - value.equity(&e.target));
                    grads.add(net, e, fwd, pull + level, &coef, scale, &mut delta_hidden);
                }
            }
            t += 1;
            moments.step(net, &grads, cfg, start_net.as_ref(), t);
        }
        next = 0;
        let held = losses(net, &hold, &value);
        let e = EpochLoss {
            epoch,
            train: train_ce / train.len().max(1) as f64,
            held_out: held.ce,
            equity_error: held.equity,
            group_error: held.group,
            single_error: held.single,
        };
        log(&e);
        curve.push(e);
        let score = judged(&held);
        kept.push((score, e, net.clone()));
        kept.sort_by(|a, b| a.0.total_cmp(&b.0));
        kept.truncate(keep.max(1));
        if score < best.0 {
            best = (score, net.clone());
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= cfg.patience {
                break;
            }
        }
    }
    let kept = kept.into_iter().map(|(_, e, n)| (e, n)).collect();
    *net = best.1;
    (curve, kept)
}

/// The text of a file, gunzipped when its name ends in `.gz`.
pub fn read_text(path: &Path) -> Result<String, TrainError> {
    let bytes = std::fs::read(path).map_err(|source| TrainError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(|source| TrainError::NotGzip {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(s)
    } else {
        String::from_utf8(bytes).map_err(|source| TrainError::NotUtf8 {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// A labelled position of a generation's folder.
#[derive(Clone, Copy, Debug)]
pub struct Labelled {
    /// The position, before its roll.
    pub state: GameState,
    /// The rolled-out chances: win, win mars, lose mars, win backgammon,
    /// lose backgammon.
    pub probs: [f32; 5],
    /// For a `turn` or `sibling`, the index of the `turn` line its group
    /// starts at.
    pub group: Option<u64>,
}

/// The label lines of a generation's folder, sorted by position index:
/// `labels.txt.gz` (or `labels.txt`), the labels of the sittings before
/// shards, then every closed shard in `labels/` (`*.txt.gz`, one a
/// sitting, never rewritten). A position labelled twice is an error.
pub fn label_lines(dir: &Path) -> Result<Vec<String>, TrainError> {
    label_lines_through(dir, None)
}

/// [`label_lines`], reading of `labels/` only the closed shards up to and
/// including the one named `through` (its file name without `.txt.gz`;
/// `None`: every shard), so a network can be fitted again on the labels
/// it was fitted on after later shards were added. A `through` the folder
/// does not hold is an error.
pub fn label_lines_through(dir: &Path, through: Option<&str>) -> Result<Vec<String>, TrainError> {
    let mut files = Vec::new();
    for name in ["labels.txt.gz", "labels.txt"] {
        if dir.join(name).exists() {
            files.push(dir.join(name));
            break;
        }
    }
    let shards = dir.join("labels");
    if shards.is_dir() {
        let unreadable = |source| TrainError::Read {
            path: shards.clone(),
            source,
        };
        let mut more: Vec<_> = std::fs::read_dir(&shards)
            .map_err(unreadable)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(unreadable)?;
        more.retain(|p| p.to_string_lossy().ends_with(".txt.gz"));
        more.sort();
        if let Some(name) = through {
            let last = shards.join(format!("{name}.txt.gz"));
            let Some(at) = more.iter().position(|p| *p == last) else {
                return Err(TrainError::NoShard {
                    dir: dir.to_path_buf(),
                    name: name.to_string(),
                });
            };
            more.truncate(at + 1);
        }
        files.extend(more);
    } else if let Some(name) = through {
        return Err(TrainError::NoShard {
            dir: dir.to_path_buf(),
            name: name.to_string(),
        });
    }
    if files.is_empty() {
        return Err(TrainError::NoLabels {
            dir: dir.to_path_buf(),
        });
    }
    let mut keyed: Vec<(usize, String)> = Vec::new();
    for file in &files {
        for (n, line) in read_text(file)?.lines().enumerate() {
            let index = line
                .split('\t')
                .next()
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| TrainError::LabelIndex {
                    file: file.clone(),
                    line: n + 1,
                    text: line.to_string(),
                })?;
            keyed.push((index, line.to_string()));
        }
    }
    keyed.sort_by_key(|(i, _)| *i);
    if let Some(w) = keyed.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(TrainError::LabelledTwice {
            dir: dir.to_path_buf(),
            index: w[0].0,
        });
    }
    Ok(keyed.into_iter().map(|(_, l)| l).collect())
}

/// The labelled positions of a generation's folder (`positions.txt.gz`
/// and its labels, read by [`label_lines`]): each position with its
/// five rolled-out chances (win, win mars, lose mars, win backgammon, lose
/// backgammon), and for a `turn` or `sibling` its group: the index of the
/// `turn` line it belongs to. `through` limits the closed shards read
/// ([`label_lines_through`]).
pub fn labelled_positions(
    dir: &Path,
    variant: Variant,
    through: Option<&str>,
) -> Result<Vec<Labelled>, TrainError> {
    use crate::training::label::{FoundKind, parse_found, seed_indices};
    // The committed files are gzipped; a sitting's working files are not.
    let pick = |name: &str| {
        let gz = dir.join(format!("{name}.gz"));
        if gz.exists() { gz } else { dir.join(name) }
    };
    let positions_file = pick("positions.txt");
    let found = parse_found(
        &read_text(&positions_file)?,
        variant,
        &positions_file.display().to_string(),
    )?;
    let kinds: Vec<Option<FoundKind>> = found.iter().map(|(k, _)| *k).collect();
    let heads = seed_indices(&kinds);
    let labels = label_lines_through(dir, through)?;
    let mut out = Vec::new();
    for (n, line) in labels.iter().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let bad = || TrainError::BadLabel {
            line: n + 1,
            text: line.to_string(),
        };
        if f.len() < 6 {
            return Err(bad());
        }
        let i: usize = f[0].parse().map_err(|_| bad())?;
        let mut p = [0f32; 5];
        for (k, x) in p.iter_mut().enumerate() {
            *x = f[k + 1].parse().map_err(|_| bad())?;
        }
        let (kind, state) = found.get(i).ok_or_else(bad)?;
        let group = matches!(kind, Some(FoundKind::Turn | FoundKind::Sibling)).then(|| heads[i]);
        out.push(Labelled {
            state: *state,
            probs: p,
            group,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
