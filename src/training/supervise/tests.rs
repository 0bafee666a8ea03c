use super::*;
use crate::eval::hitnet::{HitNet, features};

#[test]
fn label_shards_are_read_together_in_index_order_and_twice_is_refused() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("gulbara-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("labels")).unwrap();
    let gz = |path: &Path, text: &str| {
        let f = std::fs::File::create(path).unwrap();
        let mut e = flate2::write::GzEncoder::new(f, flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap();
    };
    gz(&dir.join("labels.txt.gz"), "0\ta\n4\tb\n");
    gz(&dir.join("labels/20261206T000000Z.txt.gz"), "2\tc\n");
    gz(&dir.join("labels/20261207T000000Z.txt.gz"), "1\td\n5\te\n");
    // A torn write is not a shard.
    std::fs::write(dir.join("labels/x.txt.gz.new"), "junk").unwrap();
    let lines = label_lines(&dir).unwrap();
    assert_eq!(lines, ["0\ta", "1\td", "2\tc", "4\tb", "5\te"]);
    // Up to a shard: the later ones are left out.
    let lines = label_lines_through(&dir, Some("20261206T000000Z")).unwrap();
    assert_eq!(lines, ["0\ta", "2\tc", "4\tb"]);
    let lines = label_lines_through(&dir, Some("20261207T000000Z")).unwrap();
    assert_eq!(lines, ["0\ta", "1\td", "2\tc", "4\tb", "5\te"]);
    let err = label_lines_through(&dir, Some("20261206"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no closed shard labels/20261206.txt.gz"),
        "{err}"
    );
    gz(&dir.join("labels/20261208T000000Z.txt.gz"), "4\tagain\n");
    let err = label_lines(&dir).unwrap_err().to_string();
    assert!(err.contains("position 4 is labelled twice"), "{err}");
    // The shard after the one named is not read.
    let lines = label_lines_through(&dir, Some("20261207T000000Z")).unwrap();
    assert_eq!(lines, ["0\ta", "1\td", "2\tc", "4\tb", "5\te"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The positions of `games` of `variant`'s baseline self-play, the best
/// end of every turn (`positions`' finder).
fn baseline_positions(
    variant: Variant,
    games: u64,
) -> Vec<(crate::training::label::FoundKind, GameState)> {
    let opts = crate::rules::RuleOptions::for_variant(variant);
    let eval = crate::eval::variants::baseline_shared(variant);
    let cfg = crate::training::label::FindConfig {
        games,
        discrepancy: 0.0,
        best_share: 1.0,
        ..Default::default()
    };
    crate::training::label::find_positions(eval.as_ref(), &opts, &cfg, &mut |_| {})
}

#[test]
fn fitting_learns_targets_and_keeps_the_best_epoch() {
    // Positions of a short self-play game, each with a made-up target
    // that depends on the position: the network must learn it.
    let found = baseline_positions(Variant::Backgammon, 4);
    let examples: Vec<Example<5>> = found
        .iter()
        .map(|(_, s)| {
            let pips: u32 = s.pos.own.pips();
            let w = (pips as f32 / 300.0).clamp(0.05, 0.95);
            Example {
                inputs: features(s),
                target: [w, w / 4.0, 0.0, (1.0 - w) / 4.0, 0.0],
                group: None,
            }
        })
        .collect();
    assert!(examples.len() > 100, "{}", examples.len());
    let mut net = HitNet::random(16, 3);
    let fit_cfg = FitConfig {
        epochs: 30,
        patience: 30,
        rate: 3e-3,
        holdout: 0.2,
        ..FitConfig::default()
    };
    let curve = fit(&mut net, &examples, &fit_cfg, &mut |_| {});
    let first = curve[0];
    let best = curve
        .iter()
        .min_by(|a, b| a.held_out.total_cmp(&b.held_out))
        .copied()
        .expect("a curve");
    assert!(best.held_out < first.held_out * 0.95, "{curve:?}");
    assert!(best.equity_error < first.equity_error, "{curve:?}");
    // The network kept is the best epoch's.
    let mut again = HitNet::random(16, 3);
    let curve2 = fit(&mut again, &examples, &fit_cfg, &mut |_| {});
    assert_eq!(curve, curve2, "reproducible");
    assert_eq!(net, again);
}

#[test]
fn a_group_is_a_run_of_one_group_and_only_with_groups_asked_for() {
    let groups = [
        None,
        Some(4),
        Some(4),
        Some(4),
        None,
        Some(7),
        Some(9),
        Some(9),
    ];
    let by_group = units(&groups, |g| *g, true);
    assert_eq!(by_group, vec![0..1, 1..4, 4..5, 5..6, 6..8]);
    let alone = units(&groups, |g| *g, false);
    assert_eq!(alone.len(), groups.len());
    assert!(alone.iter().enumerate().all(|(i, r)| *r == (i..i + 1)));
    let c = centred(&[1.0, 2.0, 6.0]);
    assert_eq!(c, vec![-2.0, -1.0, 3.0]);
    // The equity's slopes: win counts twice, the marses once either way.
    let three = Valuation::<3>::new(Scores::GAMMON_DOUBLES);
    assert_eq!(three.weights(), &[2.0, 1.0, -1.0]);
    let o = [0.6f32, 0.2, 0.1];
    let base = three.equity(&o);
    for k in 0..3 {
        let mut p = o;
        p[k] += 0.01;
        let slope = (three.equity(&p) - base) / 0.01;
        assert!((slope - f64::from(three.weights()[k])).abs() < 1e-3);
    }
    let five = Valuation::<5>::new(Variant::Backgammon.spec().scores);
    let o5 = [0.6f32, 0.2, 0.05, 0.1, 0.02];
    for k in 0..5 {
        let mut p = o5;
        p[k] += 0.01;
        let slope = (five.equity(&p) - five.equity(&o5)) / 0.01;
        assert!((slope - f64::from(five.weights()[k])).abs() < 1e-3);
    }
}

#[test]
fn the_equity_is_the_games_own_scoring_of_its_own_outputs() {
    let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
    // Three outputs (win, win mars, lose mars), every running game's row:
    // 0.6 wins of which 0.2 mars, 0.1 mars lost: 1·(0.6 − 0.4) + 1·(0.2 −
    // 0.1) = 0.3.
    for v in [Variant::GulBara, Variant::LongNardy, Variant::Fevga] {
        let e = Valuation::<3>::new(v.spec().scores).equity(&[0.6, 0.2, 0.1]);
        assert!(near(e, 0.3), "{v}: {e}");
    }
    // A row that scores a mars 3: 0.2 + 2·0.1 = 0.4.
    let triple_mars = Scores {
        single: 1,
        double: 3,
        triple: None,
    };
    let e = Valuation::<3>::new(triple_mars).equity(&[0.6, 0.2, 0.1]);
    assert!(near(e, 0.4), "{e}");
    // Five outputs (win, win gammon, win backgammon, lose gammon, lose
    // backgammon). Backgammon scores a backgammon 3: 0.2 + (0.2 − 0.1) +
    // (0.05 − 0.02) = 0.33.
    let o5 = [0.6f32, 0.2, 0.05, 0.1, 0.02];
    let bg = Valuation::<5>::new(Variant::Backgammon.spec().scores).equity(&o5);
    assert!(near(bg, 0.33), "{bg}");
    // Plakoto, Portes and short nardy score no backgammon: the same
    // outputs are worth 0.2 + (0.2 − 0.1) = 0.3, whatever the backgammon
    // outputs say.
    for v in [Variant::Plakoto, Variant::Portes, Variant::ShortNardy] {
        let e = Valuation::<5>::new(v.spec().scores).equity(&o5);
        assert!(near(e, 0.3), "{v}: {e}");
        let w = Valuation::<5>::new(v.spec().scores);
        assert_eq!(w.weights(), &[2.0, 1.0, 0.0, -1.0, 0.0], "{v}");
    }
}

#[test]
fn the_curves_equity_error_is_in_the_games_scoring() {
    // A five-output network judged on targets with no backgammons: the
    // epoch-0 equity error, recomputed by hand from the outputs in
    // Plakoto's scoring (win 1, double 2), is the curve's; backgammon's
    // scoring, which adds the backgammon outputs, gives another.
    let net = HitNet::random(8, 11);
    let found = baseline_positions(Variant::Plakoto, 2);
    let examples: Vec<Example<5>> = found
        .iter()
        .map(|(_, st)| Example {
            inputs: crate::eval::hitnet::features_of(net.layout, st),
            target: [0.5, 0.1, 0.0, 0.2, 0.0],
            group: None,
        })
        .collect();
    let by_hand = |e: &Example<5>| {
        let o = net.outputs(&e.inputs);
        let mine = 2.0 * f64::from(o[0]) - 1.0 + f64::from(o[1]) - f64::from(o[3]);
        (mine - (2.0 * 0.5 - 1.0 + 0.1 - 0.2)).abs()
    };
    let cfg = |variant: Variant| FitConfig {
        epochs: 0,
        holdout: 0.5,
        scores: variant.spec().scores,
        ..FitConfig::default()
    };
    let held: Vec<&Example<5>> = examples
        .iter()
        .enumerate()
        .filter(|&(i, _)| is_held_out(&cfg(Variant::Plakoto), i))
        .map(|(_, e)| e)
        .collect();
    assert!(held.len() >= 10, "{}", held.len());
    let want = held.iter().map(|e| by_hand(e)).sum::<f64>() / held.len() as f64;
    let mut plakoto_net = net.clone();
    let curve = fit(
        &mut plakoto_net,
        &examples,
        &cfg(Variant::Plakoto),
        &mut |_| {},
    );
    assert!(
        (curve[0].equity_error - want).abs() < 1e-6,
        "{curve:?} vs {want}"
    );
    let mut bg_net = net.clone();
    let bg = fit(
        &mut bg_net,
        &examples,
        &cfg(Variant::Backgammon),
        &mut |_| {},
    );
    assert!((bg[0].equity_error - want).abs() > 1e-4, "{bg:?} vs {want}");
}

#[test]
fn positions_are_held_out_in_whole_runs() {
    let by_one = FitConfig::default();
    let by_run = FitConfig {
        holdout_block: 25,
        ..FitConfig::default()
    };
    let n = 20_000;
    let out: Vec<bool> = (0..n).map(|i| is_held_out(&by_run, i)).collect();
    for run in out.chunks(25) {
        assert!(run.iter().all(|&h| h == run[0]), "a run split");
    }
    let share = |v: &[bool]| v.iter().filter(|&&h| h).count() as f64 / v.len() as f64;
    assert!((share(&out) - 0.05).abs() < 0.02, "{}", share(&out));
    // Runs of one are the position-by-position split.
    let one: Vec<bool> = (0..n).map(|i| is_held_out(&by_one, i)).collect();
    assert!((share(&one) - 0.05).abs() < 0.01);
    assert!(one.windows(2).any(|w| w[0] != w[1]));
    assert!((0..n).all(|i| one[i] == held_out(by_one.seed, i, by_one.holdout)));
}

#[test]
fn an_anchor_pulls_the_weights_towards_the_start() {
    let mut m = Moments::new(2);
    let start = [1.0f32, -1.0];
    let mut p = [3.0f32, -1.0];
    // No gradient: only the pull acts, a share rate × strength of the
    // distance per step.
    m.step(&mut p, &[0.0, 0.0], 0.1, 0.0, Some((2.0, &start)), 1);
    assert!((p[0] - 2.6).abs() < 1e-5, "{p:?}");
    assert_eq!(p[1], -1.0);
    let mut free = [3.0f32, -1.0];
    Moments::new(2).step(&mut free, &[0.0, 0.0], 0.1, 0.0, None, 1);
    assert_eq!(free, [3.0, -1.0]);
}

#[test]
fn adam_moves_a_parameter_down_its_gradient() {
    let mut m = Moments::new(1);
    let mut p = [1.0f32];
    m.step(&mut p, &[2.0], 0.1, 0.0, None, 1);
    // The first bias-corrected step is the rate times the gradient's sign.
    assert!((p[0] - 0.9).abs() < 1e-5, "{p:?}");
}

/// Every weight of a network in one list (`w1`, `b1`, `w_mid`, `b_mid`,
/// `w2`, `b2`), in `f64`.
fn flat<const OUT: usize>(net: &NetOf<OUT>) -> Vec<f64> {
    [&net.w1, &net.b1, &net.w_mid, &net.b_mid, &net.w2, &net.b2]
        .iter()
        .flat_map(|v| v.iter().map(|&x| f64::from(x)))
        .collect()
}

/// The outputs of a network of shape `net`'s with the weights `p` (as
/// [`flat`] lists them) on the active inputs, in `f64`, the plain way.
fn naive_outputs<const OUT: usize>(
    net: &NetOf<OUT>,
    p: &[f64],
    active: &[(u16, f32)],
) -> [f64; OUT] {
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let (h, h2) = (net.hidden, net.hidden2);
    let (w1, rest) = p.split_at(net.inputs * h);
    let (b1, rest) = rest.split_at(h);
    let (w_mid, rest) = rest.split_at(h2 * h);
    let (b_mid, rest) = rest.split_at(h2);
    let top = if h2 > 0 { h2 } else { h };
    let (w2, b2) = rest.split_at(OUT * top);
    let first: Vec<f64> = (0..h)
        .map(|j| {
            sig(b1[j]
                + active
                    .iter()
                    .map(|&(i, v)| w1[i as usize * h + j] * f64::from(v))
                    .sum::<f64>())
        })
        .collect();
    let second: Vec<f64> = (0..h2)
        .map(|m| sig(b_mid[m] + (0..h).map(|j| w_mid[m * h + j] * first[j]).sum::<f64>()))
        .collect();
    let below = if h2 > 0 { &second } else { &first };
    std::array::from_fn(|k| sig(b2[k] + (0..top).map(|j| w2[k * top + j] * below[j]).sum::<f64>()))
}

/// Central differences of `loss` at the weights `p`, at the indices `at`.
fn finite_differences(p: &[f64], at: &[usize], loss: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    let eps = 1e-5;
    at.iter()
        .map(|&i| {
            let mut q = p.to_vec();
            q[i] = p[i] + eps;
            let up = loss(&q);
            q[i] = p[i] - eps;
            (up - loss(&q)) / (2.0 * eps)
        })
        .collect()
}

/// A two-layer network of the hitting layout with every weight random
/// (not the near line `deepened` starts from), and a position's example.
fn two_layer_case() -> (HitNet, Example<5>) {
    let mut net = HitNet::random(24, 31).deepened(7, 31);
    let mut rng = SplitMix::new(32);
    let mut r = |s: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * s;
    for v in [
        &mut net.w1,
        &mut net.b1,
        &mut net.w_mid,
        &mut net.b_mid,
        &mut net.w2,
        &mut net.b2,
    ] {
        v.iter_mut().for_each(|w| *w = r(0.7));
    }
    let state = crate::rules::GameState::start_of(Variant::Backgammon, crate::rules::Side::White);
    let mut inputs = features(&state);
    // An input of another value than 1, so its factor is checked too.
    inputs.active.push((3, 0.37));
    let e = Example {
        inputs,
        target: [0.55, 0.2, 0.01, 0.15, 0.02],
        group: None,
    };
    (net, e)
}

/// The indices of [`flat`]'s list to check: every weight but `w1`'s,
/// and in `w1` the rows of the active inputs and of one inactive input.
fn checked_indices<const OUT: usize>(net: &NetOf<OUT>, active: &[(u16, f32)]) -> Vec<usize> {
    let h = net.hidden;
    let mut at: Vec<usize> = (net.inputs * h..flat(net).len()).collect();
    for &(i, _) in active.iter().take(6).chain([&(2u16, 0.0)]) {
        at.extend(i as usize * h..(i as usize + 1) * h);
    }
    at
}

#[test]
fn two_layer_backprop_matches_finite_differences() {
    let (net, e) = two_layer_case();
    assert!(
        !e.inputs.active.iter().any(|&(i, _)| i == 2),
        "input 2 inactive"
    );
    let p = flat(&net);
    let at = checked_indices(&net, &e.inputs.active);
    // The supervised loss: each output's cross-entropy (summed, as one
    // example of a minibatch of one), and a group's pull on the equity.
    let pull = 0.3;
    let coef = *Valuation::<5>::new(Variant::Backgammon.spec().scores).weights();
    let loss = |q: &[f64]| {
        let o = naive_outputs(&net, q, &e.inputs.active);
        (0..5)
            .map(|k| {
                let t = f64::from(e.target[k]);
                -(t * o[k].ln() + (1.0 - t) * (1.0 - o[k]).ln()) + pull * f64::from(coef[k]) * o[k]
            })
            .sum::<f64>()
    };
    let want = finite_differences(&p, &at, loss);
    let mut grads = Grads::new(&net);
    let fwd = net.forward(&e.inputs);
    let mut scratch = vec![0f32; net.hidden];
    grads.add(&net, &e, &fwd, pull, &coef, 1.0, &mut scratch);
    let got: Vec<f64> = [
        &grads.w1,
        &grads.b1,
        &grads.w_mid,
        &grads.b_mid,
        &grads.w2,
        &grads.b2,
    ]
    .iter()
    .flat_map(|v| v.iter().map(|&x| f64::from(x)))
    .collect();
    assert_eq!(got.len(), p.len());
    let mut nonzero = 0;
    for (&i, w) in at.iter().zip(&want) {
        assert!(
            (got[i] - w).abs() <= 2e-4 + 2e-3 * w.abs(),
            "weight {i}: backprop {} vs finite differences {w}",
            got[i]
        );
        nonzero += usize::from(w.abs() > 1e-4);
    }
    assert!(nonzero > at.len() / 2, "{nonzero} of {}", at.len());
    // An inactive input's row has no gradient.
    let h = net.hidden;
    assert!(grads.w1[2 * h..3 * h].iter().all(|&g| g == 0.0));
}

#[test]
fn the_td_step_of_two_layers_follows_its_gradient() {
    let (net, e) = two_layer_case();
    let p = flat(&net);
    let at = checked_indices(&net, &e.inputs.active);
    // TD's step: half the squared error of the outputs.
    let loss = |q: &[f64]| {
        let o = naive_outputs(&net, q, &e.inputs.active);
        (0..5)
            .map(|k| (f64::from(e.target[k]) - o[k]).powi(2) / 2.0)
            .sum::<f64>()
    };
    let want = finite_differences(&p, &at, loss);
    let rate = 0.01;
    let mut stepped = net.clone();
    let fwd = net.forward(&e.inputs);
    stepped.train(&e.inputs, &fwd, &e.target, rate);
    let moved: Vec<f64> = flat(&stepped)
        .iter()
        .zip(&p)
        .map(|(a, b)| (b - a) / rate as f64)
        .collect();
    for (&i, w) in at.iter().zip(&want) {
        assert!(
            (moved[i] - w).abs() <= 2e-3 + 2e-3 * w.abs(),
            "weight {i}: step {} vs finite differences {w}",
            moved[i]
        );
    }
    // And the loss goes down.
    assert!(loss(&flat(&stepped)) < loss(&p));
}

#[test]
fn fitting_two_layers_learns_reproducibly() {
    let found = baseline_positions(Variant::Backgammon, 4);
    let examples: Vec<Example<5>> = found
        .iter()
        .map(|(_, s)| {
            let w = (s.pos.own.pips() as f32 / 300.0).clamp(0.05, 0.95);
            Example {
                inputs: features(s),
                target: [w, w / 4.0, 0.0, (1.0 - w) / 4.0, 0.0],
                group: None,
            }
        })
        .collect();
    let fit_cfg = FitConfig {
        epochs: 30,
        patience: 30,
        rate: 3e-3,
        holdout: 0.2,
        ..FitConfig::default()
    };
    let mut net = HitNet::random(16, 3).deepened(8, 3);
    let curve = fit(&mut net, &examples, &fit_cfg, &mut |_| {});
    let best = curve
        .iter()
        .map(|c| c.held_out)
        .fold(f64::INFINITY, f64::min);
    assert!(best < curve[0].held_out * 0.95, "{curve:?}");
    assert_eq!(net.hidden2, 8);
    let mut again = HitNet::random(16, 3).deepened(8, 3);
    assert_eq!(fit(&mut again, &examples, &fit_cfg, &mut |_| {}), curve);
    assert_eq!(net, again, "reproducible");
}

/// Positions of a short self-play game of backgammon, each with a made-up
/// target that depends on its pips; with `group`, runs of three are one
/// group each.
fn pip_examples(group: bool) -> Vec<Example<5>> {
    let found = baseline_positions(Variant::Backgammon, 4);
    found
        .iter()
        .enumerate()
        .map(|(i, (_, s))| {
            let pips: u32 = s.pos.own.pips();
            let w = (pips as f32 / 300.0).clamp(0.05, 0.95);
            Example {
                inputs: features(s),
                target: [w, w / 4.0, 0.0, (1.0 - w) / 4.0, 0.0],
                group: group.then_some(i as u64 / 3),
            }
        })
        .collect()
}

#[test]
fn training_only_the_output_layer_or_its_biases_leaves_the_rest() {
    let examples = pip_examples(false);
    let start = HitNet::random(16, 3);
    let cfg = |train| FitConfig {
        epochs: 5,
        patience: 5,
        rate: 3e-3,
        holdout: 0.2,
        train,
        ..FitConfig::default()
    };
    let mut bias = start.clone();
    let curve = fit(&mut bias, &examples, &cfg(Trainable::Bias), &mut |_| {});
    assert_eq!(bias.w1, start.w1);
    assert_eq!(bias.b1, start.b1);
    assert_eq!(bias.w2, start.w2);
    assert_ne!(bias.b2, start.b2);
    // The levels alone still fit the targets better than the start.
    let best = curve.iter().map(|e| e.held_out).fold(f64::MAX, f64::min);
    assert!(best < curve[0].held_out, "{curve:?}");
    // Without groups every held-out position is a single one.
    assert!(curve.iter().all(|e| e.single_error == e.equity_error));
    let mut output = start.clone();
    fit(&mut output, &examples, &cfg(Trainable::Output), &mut |_| {});
    assert_eq!(output.w1, start.w1);
    assert_eq!(output.b1, start.b1);
    assert_ne!(output.w2, start.w2);
    assert_ne!(output.b2, start.b2);
    let mut all = start.clone();
    fit(&mut all, &examples, &cfg(Trainable::All), &mut |_| {});
    assert_ne!(all.w1, start.w1);
}

#[test]
fn a_level_weight_holds_the_values_level_that_the_group_loss_cannot_see() {
    // Every position in a group of three: the group loss sees only the
    // differences, the level loss each value against its label.
    let examples = pip_examples(true);
    assert!(examples.len() > 100, "{}", examples.len());
    let fitted = |level_weight| {
        let mut net = HitNet::random(16, 3);
        let cfg = FitConfig {
            epochs: 20,
            patience: 20,
            rate: 1e-3,
            holdout: 0.2,
            group_weight: 100.0,
            level_weight,
            ..FitConfig::default()
        };
        fit(&mut net, &examples, &cfg, &mut |_| {})
    };
    let free = fitted(0.0);
    let held = fitted(100.0);
    let last = |c: &[EpochLoss]| *c.last().expect("a curve");
    assert!(
        last(&held).equity_error < 0.8 * last(&free).equity_error,
        "{free:?}\n{held:?}"
    );
    // No position is single here.
    assert!(held.iter().all(|e| e.single_error == 0.0));
}
