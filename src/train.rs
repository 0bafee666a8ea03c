//! Training the network by self-play with temporal-difference learning
//! (TD(0), as TD-Gammon): both sides play the network's best 0-ply turn;
//! after every turn the judgement of the state before it moves towards the
//! judgement of the state after it, and at the end towards the result.
//!
//! Reproducible: game `g`'s dice come from a seed derived from the run's
//! seed and `g`, training is single-threaded, so the same command line gives
//! the same weights; a checkpoint holds the weights and the games done, so
//! a run can stop and resume. Every checkpoint is gated against the
//! baseline evaluator through the match runner; the best one is kept.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::eval::Evaluator;
use crate::eval::net::{Forward, Inputs, Net, OUTPUTS, features};
use crate::matchplay::engine::EngineSpec;
use crate::matchplay::{MatchConfig, pair_seed, run_match};
use crate::rules::game::{DiceSource, SeededDice, open_game};
use crate::rules::{GameState, Pending, RuleOptions, Side};
use crate::search::Search;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hidden units.
    pub hidden: usize,
    /// Total self-play games.
    pub games: u64,
    /// Seed of the run (initial weights and dice).
    pub seed: u64,
    /// Learning rate at the start and at the end (linear in between).
    pub rate: (f32, f32),
    /// Games between checkpoints (and gates).
    pub checkpoint_every: u64,
    /// Gate games per checkpoint against the baseline (0 = no gates).
    pub gate_games: usize,
    /// Folder for checkpoints, the best weights and the learning curve.
    pub dir: PathBuf,
    /// Beam width for chains during self-play.
    pub beam: usize,
}

/// Outcome of one gate.
#[derive(Clone, Debug)]
pub struct Gate {
    /// Games trained so far.
    pub games: u64,
    /// Points per game of the network against the baseline (both 0-ply).
    pub ppg: f64,
    /// Standard error.
    pub se: f64,
}

fn target_from(out: &[f32; OUTPUTS], same_side: bool) -> [f32; OUTPUTS] {
    if same_side {
        *out
    } else {
        [1.0 - out[0], out[2], out[1]]
    }
}

fn exact_target(state: &GameState, side: Side) -> [f32; OUTPUTS] {
    match state.result() {
        Some(r) => match r.winner {
            Some(w) if w == side => [1.0, if r.points == 2 { 1.0 } else { 0.0 }, 0.0],
            Some(_) => [0.0, 0.0, if r.points == 2 { 1.0 } else { 0.0 }],
            None => [0.5, 0.0, 0.0],
        },
        None => [0.5, 0.0, 0.0],
    }
}

/// Plays one self-play game with `net`, learning as it goes. Returns the
/// number of turns played.
pub fn train_game(
    net: &mut Net,
    opts: &RuleOptions,
    dice_seed: u64,
    rate: f32,
    beam: usize,
) -> usize {
    let mut dice = SeededDice::new(dice_seed);
    let opened = open_game(opts, &mut dice);
    let mut first_roll = opened.first_roll;
    let starter = opened.starter;
    let mut state = GameState::start(starter);
    let stop = AtomicBool::new(false);
    let mut prev: Option<(Inputs, Forward, Side)> = None;
    let mut turns = 0;
    while state.result().is_none() && turns < 2000 {
        // A before-roll state: learn the previous one towards it.
        let x = features(&state, opts);
        let fwd = net.forward(&x);
        if let Some((px, pf, ps)) = prev.take() {
            let t = target_from(&fwd.out, ps == state.to_move);
            net.train(&px, &pf, &t, rate);
        }
        let side = state.to_move;
        prev = Some((x, fwd, side));
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
        let next = {
            let search = Search::new(&*net as &dyn Evaluator, *opts, &stop);
            search.turns(&start, beam).into_iter().next().map(|c| c.end)
        };
        state = match next {
            Some(s) => s,
            None => break,
        };
        turns += 1;
    }
    if let Some((px, pf, ps)) = prev.take() {
        let t = if state.result().is_some() {
            exact_target(&state, ps)
        } else {
            let f = net.forward(&features(&state, opts));
            target_from(&f.out, ps == state.to_move)
        };
        net.train(&px, &pf, &t, rate);
    }
    turns
}

/// Checkpoint file names in `dir`.
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.gbnn")
}

fn games_done(net: &Net) -> u64 {
    net.description
        .split_whitespace()
        .find_map(|w| w.strip_prefix("games=").and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Gates `weights` against the baseline at 0-ply.
pub fn gate(weights: &Path, games: usize, seed: u64, jobs: usize) -> (f64, f64) {
    let cfg = MatchConfig {
        engines: [
            EngineSpec {
                cmd: "builtin:net".into(),
                name: "net".into(),
                options: vec![
                    ("engine.ply".into(), "1".into()),
                    ("engine.weights".into(), weights.display().to_string()),
                ],
            },
            EngineSpec {
                cmd: "builtin:heuristic".into(),
                name: "baseline".into(),
                options: vec![("engine.ply".into(), "1".into())],
            },
        ],
        games,
        seed,
        jobs,
        move_timeout: Duration::from_secs(60),
        rules: RuleOptions::default(),
        luck_adjust: false,
        sprt: None,
        records: None,
        progress: false,
    };
    let r = run_match(&cfg);
    (r.ppg, r.se)
}

/// Runs (or resumes) a training run. `log` receives one line per checkpoint.
pub fn train(cfg: &TrainConfig, log: &mut dyn FnMut(&str)) -> anyhow::Result<Vec<Gate>> {
    std::fs::create_dir_all(&cfg.dir)?;
    let ckpt = checkpoint_path(&cfg.dir);
    let mut net = if ckpt.exists() {
        let n = Net::from_bytes(&std::fs::read(&ckpt)?)?;
        log(&format!(
            "resuming from {} at {} games",
            ckpt.display(),
            games_done(&n)
        ));
        n
    } else {
        Net::random(cfg.hidden, cfg.seed)
    };
    let opts = RuleOptions::default();
    let mut done = games_done(&net);
    let curve_path = cfg.dir.join("curve.csv");
    if !curve_path.exists() {
        std::fs::write(&curve_path, "games,ppg,se,seconds\n")?;
    }
    let mut gates = Vec::new();
    let mut best_ppg = f64::NEG_INFINITY;
    let best_path = cfg.dir.join("best.gbnn");
    if let Ok(b) = std::fs::read(&best_path)
        && let Ok(bn) = Net::from_bytes(&b)
        && let Some(p) = bn.description.split_whitespace().find_map(|w| {
            w.strip_prefix("gate_ppg=")
                .and_then(|v| v.parse::<f64>().ok())
        })
    {
        best_ppg = p;
    }
    let started = Instant::now();
    while done < cfg.games {
        let upto = (done + cfg.checkpoint_every).min(cfg.games);
        while done < upto {
            let frac = done as f32 / cfg.games.max(1) as f32;
            let rate = cfg.rate.0 + (cfg.rate.1 - cfg.rate.0) * frac;
            train_game(
                &mut net,
                &opts,
                pair_seed(cfg.seed ^ 0x7D1C_E5EE_D000_0000, done as usize),
                rate,
                cfg.beam,
            );
            done += 1;
        }
        net.description = format!(
            "gulbara TD(0) self-play net: hidden={} games={} seed={} rate={}..{} beam={}",
            cfg.hidden, done, cfg.seed, cfg.rate.0, cfg.rate.1, cfg.beam
        );
        std::fs::write(&ckpt, net.to_bytes())?;
        if cfg.gate_games > 0 {
            let (ppg, se) = gate(&ckpt, cfg.gate_games, cfg.seed.wrapping_add(done), 2);
            let line = format!("{done},{ppg:.4},{se:.4},{}", started.elapsed().as_secs());
            let mut curve = std::fs::read_to_string(&curve_path).unwrap_or_default();
            curve.push_str(&line);
            curve.push('\n');
            std::fs::write(&curve_path, curve)?;
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

    #[test]
    fn training_is_reproducible() {
        let opts = RuleOptions::default();
        let mut a = Net::random(8, 3);
        let mut b = Net::random(8, 3);
        for g in 0..3 {
            train_game(&mut a, &opts, 100 + g, 0.1, 2);
            train_game(&mut b, &opts, 100 + g, 0.1, 2);
        }
        assert_eq!(a, b);
        assert_ne!(a, Net::random(8, 3));
    }
}
