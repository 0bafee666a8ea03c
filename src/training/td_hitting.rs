//! Training the hitting games' network ([`crate::eval::hitnet`]) by
//! self-play with TD(λ), as `train` does for Gul bara (docs/TRAINING.md):
//! both sides play the network's best 0-ply turn; at each game's end every
//! before-roll position learns towards its λ-return, the last one towards
//! the result (win, gammon, backgammon, from each mover's view).
//!
//! Reproducible: game `g`'s dice come from a seed derived from the run's
//! seed and `g`, and training is single-threaded; a checkpoint holds the
//! weights and the games done, so a run stops and resumes to the same
//! weights. Every checkpoint is gated against the variant's baseline with
//! the match runner (0-ply, mirrored dice); the best gate is kept.

use crate::eval::hitnet::{HitNet, OUTPUTS, exact_outputs, features_of, flip};
use crate::eval::net::Inputs;
use crate::rules::{EvalFamily, GameState, RuleOptions, Side, Variant};
use crate::training::TrainError;
use crate::training::td::{Gate, RunFolder, TrainConfig, lambda_returns_with, run_sittings};

/// Plays one self-play game of a hitting game with `net` (fixed during
/// the game): both sides play its best 0-ply turn ([`crate::training::td::self_play`]).
/// Returns the before-roll states in order and the final state (cut off
/// after 2000 turns).
pub fn self_play(
    net: &mut HitNet,
    opts: &RuleOptions,
    dice_seed: u64,
) -> (Vec<GameState>, GameState) {
    let mut seen = Vec::new();
    let (end, _) =
        crate::training::td::self_play(net, opts, dice_seed, 1, &mut |_, s| seen.push(*s));
    (seen, end)
}

/// Plays one game and trains every before-roll position of it towards its
/// λ-return. Returns the number of positions trained.
pub fn train_game(
    net: &mut HitNet,
    opts: &RuleOptions,
    dice_seed: u64,
    rate: f32,
    lambda: f32,
) -> usize {
    let (seen, end) = self_play(net, opts, dice_seed);
    let Some(last) = seen.last() else {
        return 0;
    };
    let inputs: Vec<Inputs> = seen.iter().map(|s| features_of(net.layout, s)).collect();
    let judged: Vec<([f32; OUTPUTS], Side)> = seen
        .iter()
        .zip(&inputs)
        .map(|(s, x)| (net.outputs(x), s.to_move))
        .collect();
    let last_target = if end.result().is_some() {
        exact_outputs(&end, last.to_move)
    } else {
        // Cut off: the network's own judgement of where it stopped.
        let o = net.outputs(&features_of(net.layout, &end));
        if end.to_move == last.to_move {
            o
        } else {
            flip(&o)
        }
    };
    let targets = lambda_returns_with(&judged, last_target, lambda, flip);
    for (x, t) in inputs.iter().zip(&targets) {
        let fwd = net.forward(x);
        net.train(x, &fwd, t, rate);
    }
    seen.len()
}

/// Runs (or resumes) a training run of `variant`'s network (backgammon or
/// short nardy). `cfg.beam` is unused: these games have no chains.
pub fn train(
    cfg: &TrainConfig,
    variant: Variant,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<Gate>, TrainError> {
    if !matches!(
        variant.spec().eval,
        EvalFamily::Hitting | EvalFamily::Pinning
    ) {
        return Err(TrainError::NoHittingNetwork(variant));
    }
    let (folder, net) = RunFolder::open(
        &cfg.dir,
        "games",
        || HitNet::random(cfg.hidden, cfg.seed),
        log,
    )?;
    if !(net.description.is_empty() || net.description.contains(&format!("game={variant}"))) {
        return Err(TrainError::OtherGame {
            path: folder.ckpt.clone(),
            description: net.description,
        });
    }
    let opts = RuleOptions::for_variant(variant);
    let play = &mut |net: &mut HitNet, dice_seed: u64, rate: f32| {
        train_game(net, &opts, dice_seed, rate, cfg.lambda);
    };
    let describe = |net: &HitNet, done: u64| {
        format!(
            "gulbara TD(lambda={}) self-play net: game={variant} layout={} hidden={} games={done} seed={} {}",
            cfg.lambda,
            net.layout,
            cfg.hidden,
            cfg.seed,
            crate::training::td::schedule_words(cfg)
        )
    };
    run_sittings(
        cfg,
        variant,
        &folder,
        net,
        0x4849_5454_0000_0000,
        play,
        &describe,
        log,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn cfg(dir: &Path, games: u64, stop: Option<u64>) -> TrainConfig {
        TrainConfig {
            hidden: 8,
            games,
            seed: 3,
            rate: (0.1, 0.05),
            rate_from: 0,
            checkpoint_every: 5,
            gate_games: 0,
            dir: dir.to_path_buf(),
            beam: 1,
            stop_after: stop,
            lambda: 0.7,
            progress: false,
            variant: Variant::Backgammon,
            layout: 0,
        }
    }

    #[test]
    fn training_is_reproducible_and_resumes_to_the_same_weights() {
        let base = std::env::temp_dir().join(format!("gulbara-hittrain-{}", std::process::id()));
        let (a, b) = (base.join("a"), base.join("b"));
        let _ = std::fs::remove_dir_all(&base);
        train(&cfg(&a, 10, None), Variant::Backgammon, &mut |_| {}).unwrap();
        train(&cfg(&b, 10, Some(5)), Variant::Backgammon, &mut |_| {}).unwrap();
        train(&cfg(&b, 10, None), Variant::Backgammon, &mut |_| {}).unwrap();
        let wa = std::fs::read(a.join("checkpoint.gbnn")).unwrap();
        let wb = std::fs::read(b.join("checkpoint.gbnn")).unwrap();
        assert_eq!(wa, wb);
        let net = HitNet::from_bytes(&wa).unwrap();
        let d = &net.description;
        assert!(
            d.contains("game=backgammon") && d.contains("games=10"),
            "{d}"
        );
        assert_ne!(net, HitNet::random(8, 3));
        // A short-nardy run refuses the backgammon checkpoint.
        assert!(train(&cfg(&a, 20, None), Variant::ShortNardy, &mut |_| {}).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn a_game_trains_towards_its_result() {
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let net = HitNet::random(8, 1);
        let (seen, end) = self_play(&mut net.clone(), &opts, 42);
        assert!(end.result().is_some(), "a random network still finishes");
        assert!(seen.len() > 10);
        let mut trained = net.clone();
        assert_eq!(train_game(&mut trained, &opts, 42, 0.1, 0.7), seen.len());
        assert_ne!(trained, net);
    }
}
