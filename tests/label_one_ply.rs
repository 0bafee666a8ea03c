//! A label rolled out one ply with the 36 first rolls and scored by the
//! network (`gulbara label --games 36 --truncate 1 --ply 0`) is the
//! engine's own 1-ply judgement of the position (`eval` at `engine.ply 2`,
//! `Search::before_roll` at one ply): the 36 trials are the 36 rolls once
//! each, every roller plays its best 0-ply turn, and the luck correction
//! sums to nothing over all 36, so the label's error is zero. The
//! distilled labels of docs/TRAINING.md rest on this identity.

use std::sync::atomic::AtomicBool;

use gulbara::engine::{FileAccess, Weights, load_net};
use gulbara::rules::{RuleOptions, Variant};
use gulbara::search::{Limits, Search};
use gulbara::training::label::{FindConfig, LabelConfig, find_positions, label_position};

#[test]
fn a_one_ply_rollout_label_is_the_engines_one_ply_judgement() {
    for variant in [Variant::Backgammon, Variant::Tabla] {
        let opts = RuleOptions::for_variant(variant);
        let net = load_net(variant, &Weights::named("shipped"), &FileAccess::default())
            .expect("the shipped network loads");
        let eval = net.evaluator();
        // Self-play positions of every kind, none chosen by hand.
        let find = FindConfig {
            games: 2,
            seed: 7,
            discrepancy: 0.0,
            ..FindConfig::default()
        };
        let found = find_positions(eval.as_ref(), &opts, &find, &mut |_| {});
        assert!(found.len() >= 20, "{variant:?}: {} positions", found.len());
        let stop = AtomicBool::new(false);
        let search = Search::new(eval.as_ref(), opts, &stop);
        let cfg = LabelConfig {
            games: 36,
            truncate: 1,
            plies: 0,
            seed: 3,
        };
        let mut spread = 0.0f64;
        for (i, (_, s)) in found.iter().enumerate() {
            let label = label_position(eval.as_ref(), &opts, s, i as u64, &cfg);
            let p = search.before_roll(s, 1, Limits::default().inner_beam);
            let want = [p.win, p.win_mars, p.lose_mars, p.win_bg, p.lose_bg];
            for (k, (&got, &want)) in label.probs.iter().zip(&want).enumerate() {
                assert!(
                    (got - f64::from(want)).abs() < 1e-5,
                    "{variant:?} position {i}, output {k}: label {got}, 1-ply {want}"
                );
            }
            assert!(
                (label.equity - f64::from(p.equity())).abs() < 1e-4,
                "{variant:?} position {i}: label equity {}, 1-ply {}",
                label.equity,
                p.equity()
            );
            assert!(label.se < 1e-6, "{variant:?} position {i}: se {}", label.se);
            // The identity is not the static judgement's: 1-ply moves away.
            let p0 = search.before_roll(s, 0, Limits::default().inner_beam);
            spread = spread.max((f64::from(p0.win) - label.probs[0]).abs());
        }
        assert!(
            spread > 0.005,
            "{variant:?}: 1-ply never left 0-ply ({spread})"
        );
    }
}
