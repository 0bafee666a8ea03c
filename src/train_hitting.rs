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

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::Evaluator;
use crate::eval::hitnet::{HitNet, OUTPUTS, exact_outputs, features, flip};
use crate::eval::net::Inputs;
use crate::matchplay::engine::EngineSpec;
use crate::matchplay::{MatchConfig, pair_seed, run_match};
use crate::rules::game::{DiceSource, SeededDice, open_game};
use crate::rules::{GameState, Pending, RuleOptions, Side, Variant};
use crate::search::Search;
use crate::train::{GamesBar, Gate, RunFolder, TrainConfig, counter_in, lambda_returns_with};

/// Plays one self-play game of a hitting game with `net` (fixed during
/// the game): both sides play its best 0-ply turn. Returns the before-roll
/// states in order and the final state (cut off after 2000 turns).
pub fn self_play(net: &HitNet, opts: &RuleOptions, dice_seed: u64) -> (Vec<GameState>, GameState) {
    let mut dice = SeededDice::new(dice_seed);
    let opened = open_game(opts, &mut dice);
    let mut first_roll = opened.first_roll;
    let mut state = GameState::start_of(opts.variant, opened.starter);
    let stop = AtomicBool::new(false);
    let search = Search::new(net as &dyn Evaluator, *opts, &stop);
    let mut seen = Vec::new();
    while state.result().is_none() && seen.len() < 2000 {
        seen.push(state);
        let start = match state.pending {
            Pending::Roll => {
                let (a, b) = first_roll
                    .take()
                    .unwrap_or_else(|| (dice.die(), dice.die()));
                match state.roll(opts, a, b) {
                    Ok(s) => s,
                    Err(_) => break,
                }
            }
            _ => state,
        };
        match search.turns(&start, 1).into_iter().next() {
            Some(c) => state = c.end,
            None => break,
        }
    }
    (seen, state)
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
    let inputs: Vec<Inputs> = seen.iter().map(features).collect();
    let judged: Vec<([f32; OUTPUTS], Side)> = seen
        .iter()
        .zip(&inputs)
        .map(|(s, x)| (net.outputs(x), s.to_move))
        .collect();
    let last_target = if end.result().is_some() {
        exact_outputs(&end, last.to_move)
    } else {
        // Cut off: the network's own judgement of where it stopped.
        let o = net.outputs(&features(&end));
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

/// Gates `weights` (a hitting-game network) against `variant`'s baseline,
/// both at 0-ply, over mirrored dice.
pub fn gate(weights: &Path, variant: Variant, games: usize, seed: u64, jobs: usize) -> (f64, f64) {
    let v = ("game.variant".to_string(), variant.to_string());
    let cfg = MatchConfig {
        engines: [
            EngineSpec {
                cmd: "builtin:net".into(),
                name: "net".into(),
                options: vec![
                    v.clone(),
                    ("engine.ply".into(), "1".into()),
                    ("engine.weights".into(), weights.display().to_string()),
                ],
            },
            EngineSpec {
                cmd: "builtin:heuristic".into(),
                name: "baseline".into(),
                options: vec![v, ("engine.ply".into(), "1".into())],
            },
        ],
        games,
        seed,
        jobs,
        move_timeout: Duration::from_secs(60),
        rules: RuleOptions::for_variant(variant),
        luck_adjust: false,
        luck_reference: Default::default(),
        sprt: None,
        records: None,
        progress: false,
    };
    let r = run_match(&cfg);
    (r.ppg, r.se)
}

/// Runs (or resumes) a training run of `variant`'s network (backgammon or
/// short nardy). `cfg.beam` is unused: these games have no chains.
pub fn train(
    cfg: &TrainConfig,
    variant: Variant,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<Gate>> {
    anyhow::ensure!(variant.hits(), "{variant} has no hitting-game network");
    let (folder, mut net) = RunFolder::open(
        &cfg.dir,
        "games",
        || HitNet::random(cfg.hidden, cfg.seed),
        log,
    )?;
    anyhow::ensure!(
        net.description.is_empty() || net.description.contains(&format!("game={variant}")),
        "{} holds a network of another game: {}",
        folder.ckpt.display(),
        net.description
    );
    let opts = RuleOptions::for_variant(variant);
    let mut done = counter_in(&net, "games");
    let mut gates = Vec::new();
    let best_path = cfg.dir.join("best.gbnn");
    let mut best_ppg = std::fs::read(&best_path)
        .ok()
        .and_then(|b| HitNet::from_bytes(&b).ok())
        .and_then(|b| {
            b.description.split_whitespace().find_map(|w| {
                w.strip_prefix("gate_ppg=")
                    .and_then(|v| v.parse::<f64>().ok())
            })
        })
        .unwrap_or(f64::NEG_INFINITY);
    let started = Instant::now();
    let last = cfg.stop_after.map_or(cfg.games, |s| s.min(cfg.games));
    let bar = GamesBar::new(last, done, cfg.progress);
    let mut log = |line: &str| bar.log(log, line);
    while done < last {
        let upto = (done + cfg.checkpoint_every).min(last);
        while done < upto {
            let frac = done as f32 / cfg.games.max(1) as f32;
            let rate = cfg.rate.0 + (cfg.rate.1 - cfg.rate.0) * frac;
            let dice_seed = pair_seed(cfg.seed ^ 0x4849_5454_0000_0000, done as usize);
            train_game(&mut net, &opts, dice_seed, rate, cfg.lambda);
            done += 1;
            bar.inc();
        }
        net.description = format!(
            "gulbara TD(lambda={}) self-play net: game={variant} layout={} hidden={} games={done} seed={} rate={}..{}",
            cfg.lambda,
            crate::eval::net::HIT_LAYOUT,
            cfg.hidden,
            cfg.seed,
            cfg.rate.0,
            cfg.rate.1
        );
        std::fs::write(&folder.ckpt, net.to_bytes())?;
        if cfg.gate_games > 0 {
            let (ppg, se) = gate(
                &folder.ckpt,
                variant,
                cfg.gate_games,
                cfg.seed.wrapping_add(done),
                2,
            );
            folder.add_gate(done, ppg, se, started.elapsed().as_secs())?;
            bar.gate(ppg, se);
            log(&format!(
                "games {done}: net vs baseline (0-ply) {ppg:+.3} ± {se:.3} ppg"
            ));
            if ppg > best_ppg {
                best_ppg = ppg;
                let mut best = net.clone();
                best.description = format!("{} gate_ppg={ppg:.4}", net.description);
                std::fs::write(&best_path, best.to_bytes())?;
            }
            gates.push(Gate {
                games: done,
                ppg,
                se,
            });
        } else {
            log(&format!("games {done}: checkpoint written"));
        }
    }
    Ok(gates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(dir: &Path, games: u64, stop: Option<u64>) -> TrainConfig {
        TrainConfig {
            hidden: 8,
            games,
            seed: 3,
            rate: (0.1, 0.05),
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
        let (seen, end) = self_play(&net, &opts, 42);
        assert!(end.result().is_some(), "a random network still finishes");
        assert!(seen.len() > 10);
        let mut trained = net.clone();
        assert_eq!(train_game(&mut trained, &opts, 42, 0.1, 0.7), seen.len());
        assert_ne!(trained, net);
    }
}
