//! Refinement: training the network towards its own judgement one roll
//! deeper. Positions come from self-play with the network at 0-ply; the
//! target of each before-roll position is the 1-ply value the search gives
//! it with the same network (the average over the 21 rolls of the best
//! 0-ply turn). The published experiments for this game found this step
//! worth more than doubling the hidden layer.
//!
//! Reproducible whatever the thread count: a game is played with frozen
//! weights, its targets are computed in parallel from those same weights
//! (a pure function of them), and the updates are then applied in order
//! on one thread.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::eval::Evaluator;
use crate::eval::net::{Net, OUTPUTS, features_for};
use crate::rules::{GameState, RuleOptions, Side};
use crate::search::Search;
use crate::sharding::pair_seed;
use crate::training::TrainError;
use crate::training::td::{
    RunFolder, counter_in, game_end_target, gate, lambda_returns, self_play,
};

/// Settings of a refinement run.
#[derive(Clone, Debug)]
pub struct RefineConfig {
    /// Self-play games whose positions are trained on.
    pub games: u64,
    /// Seed of the dice.
    pub seed: u64,
    /// Learning rate at the start and at the end (linear in between).
    pub rate: (f32, f32),
    /// Beam for chains in the self-play games.
    pub beam: usize,
    /// Beam for chains inside the 1-ply targets.
    pub inner_beam: usize,
    /// Ends of each doublet stage judged inside the 1-ply targets (0: all).
    pub inner_prefilter: usize,
    /// Weight of the game's own λ-return (λ = 0.7) in each target; the
    /// 1-ply value has the rest. 0 is pure refinement.
    pub mix: f32,
    /// Threads computing targets.
    pub threads: usize,
    /// Games between checkpoints and gates.
    pub checkpoint_every: u64,
    /// Gate games per checkpoint against the baseline (0 = none).
    pub gate_games: usize,
    /// Folder for the checkpoint, the best weights and the curve.
    pub dir: PathBuf,
    /// Show a progress bar on stderr (when it is a terminal).
    pub progress: bool,
}

/// The 1-ply judgement of a before-roll `state` for its side to move, as
/// the network's three outputs.
pub fn one_ply_target(
    net: &Net,
    opts: &RuleOptions,
    state: &GameState,
    beam: usize,
    prefilter: usize,
) -> [f32; OUTPUTS] {
    let stop = AtomicBool::new(false);
    let search = Search::new(net as &dyn Evaluator, *opts, &stop).with_prefilter(prefilter);
    let p = search.before_roll(state, 1, beam);
    [p.win, p.win_mars, p.lose_mars]
}

/// Plays one self-play game with `net` (weights frozen during the game),
/// then trains each of its before-roll positions towards its 1-ply target.
/// Returns the number of positions trained.
pub fn refine_game(
    net: &mut Net,
    cfg: &RefineConfig,
    opts: &RuleOptions,
    dice_seed: u64,
    rate: f32,
) -> usize {
    let mut states: Vec<GameState> = Vec::new();
    let (end, _) = self_play(net, opts, dice_seed, cfg.beam, &mut |_, s| states.push(*s));
    let mut targets = vec![[0f32; OUTPUTS]; states.len()];
    let threads = cfg.threads.clamp(1, 64);
    let chunk = states.len().div_ceil(threads).max(1);
    let frozen: &Net = net;
    std::thread::scope(|sc| {
        for (ss, ts) in states.chunks(chunk).zip(targets.chunks_mut(chunk)) {
            sc.spawn(move || {
                for (s, t) in ss.iter().zip(ts.iter_mut()) {
                    *t = one_ply_target(frozen, opts, s, cfg.inner_beam, cfg.inner_prefilter);
                }
            });
        }
    });
    if cfg.mix > 0.0
        && let Some(last) = states.last()
    {
        let judged: Vec<([f32; OUTPUTS], Side)> = states
            .iter()
            .map(|s| (net.forward(&features_for(net, s, opts)).out, s.to_move))
            .collect();
        let fin = game_end_target(net, opts, &end, last.to_move);
        let returns = lambda_returns(&judged, fin, 0.7);
        for (t, r) in targets.iter_mut().zip(&returns) {
            for k in 0..OUTPUTS {
                t[k] = (1.0 - cfg.mix) * t[k] + cfg.mix * r[k];
            }
        }
    }
    for (s, t) in states.iter().zip(&targets) {
        let x = features_for(net, s, opts);
        let fwd = net.forward(&x);
        net.train(&x, &fwd, t, rate);
    }
    states.len()
}

/// Refines `start` (or resumes the checkpoint in `cfg.dir`). `log` gets
/// one line per checkpoint. Returns the final weights.
pub fn refine(
    start: Net,
    cfg: &RefineConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Net, TrainError> {
    let (folder, mut net) = RunFolder::open(&cfg.dir, "refined", || start, log)?;
    let ckpt = &folder.ckpt;
    // The description of the network refined from, without earlier
    // refinement fields, so the file says what it was made from.
    let origin = net
        .description
        .split(" | refine:")
        .next()
        .unwrap_or_default()
        .to_string();
    let opts = RuleOptions::default();
    let mut done = counter_in(&net, "refined");
    let started = Instant::now();
    let mut positions = 0usize;
    let bar = crate::training::td::GamesBar::new(cfg.games, done, cfg.progress);
    let mut log = |line: &str| bar.log(log, line);
    while done < cfg.games {
        let upto = (done + cfg.checkpoint_every.max(1)).min(cfg.games);
        while done < upto {
            let frac = done as f32 / cfg.games.max(1) as f32;
            let rate = cfg.rate.0 + (cfg.rate.1 - cfg.rate.0) * frac;
            let seed = pair_seed(cfg.seed ^ 0x5EF1_7E00_0000_0000, done as usize);
            positions += refine_game(&mut net, cfg, &opts, seed, rate);
            done += 1;
            bar.inc();
        }
        net.description = format!(
            "{origin} | refine: 1-ply targets, refined={done} seed={} rate={}..{} beam={} inner_beam={} inner_prefilter={} mix={}",
            cfg.seed,
            cfg.rate.0,
            cfg.rate.1,
            cfg.beam,
            cfg.inner_beam,
            cfg.inner_prefilter,
            cfg.mix
        );
        std::fs::write(ckpt, net.to_bytes())?;
        let secs = started.elapsed().as_secs();
        if cfg.gate_games > 0 {
            let (ppg, se) = gate(ckpt, cfg.gate_games, cfg.seed.wrapping_add(done), 2);
            folder.add_gate(done, ppg, se, secs)?;
            bar.gate(ppg, se);
            log(&format!(
                "refined {done} games ({positions} positions this sitting, {secs} s): vs baseline (0-ply) {ppg:+.3} ± {se:.3} ppg"
            ));
        } else {
            log(&format!(
                "refined {done} games ({positions} positions this sitting, {secs} s)"
            ));
        }
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(threads: usize) -> RefineConfig {
        RefineConfig {
            games: 1,
            seed: 1,
            rate: (0.05, 0.05),
            beam: 2,
            inner_beam: 1,
            inner_prefilter: 8,
            mix: 0.0,
            threads,
            checkpoint_every: 1,
            gate_games: 0,
            dir: PathBuf::new(),
            progress: false,
        }
    }

    #[test]
    fn refinement_does_not_depend_on_the_thread_count() {
        let opts = RuleOptions::default();
        let mut a = Net::random(8, 11);
        let mut b = a.clone();
        let na = refine_game(&mut a, &cfg(1), &opts, 42, 0.05);
        let nb = refine_game(&mut b, &cfg(3), &opts, 42, 0.05);
        assert!(na > 0);
        assert_eq!(na, nb);
        assert_eq!(a, b);
        assert_ne!(a, Net::random(8, 11));
    }

    #[test]
    fn one_ply_target_is_a_sound_judgement_near_the_static_one() {
        let opts = RuleOptions::default();
        let net = Net::shipped().expect("shipped weights");
        let s = crate::notation::parse_state_text(
            "2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10",
        )
        .expect("state");
        let t = one_ply_target(&net, &opts, &s, 1, 0);
        assert!(t.iter().all(|v| (0.0..=1.0).contains(v)));
        assert!(t[1] <= t[0] && t[2] <= 1.0 - t[0]);
        let static_win = net.eval(&s, &opts).win;
        assert!(
            (t[0] - static_win).abs() < 0.2,
            "1-ply {} vs 0-ply {static_win}",
            t[0]
        );
    }
}
