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
use std::time::Instant;

use crate::eval::Evaluator;
use crate::eval::net::{
    Forward, Inputs, LONG_INPUTS, LONG_LAYOUT, Net, NetOf, OUTPUTS, features_for,
};
use crate::matchplay::engine::EngineSpec;
use crate::matchplay::{MatchConfig, run_match};
use crate::rules::dice::{DiceSource, SeededDice, open_game};
use crate::rules::{EvalFamily, GameState, Pending, RuleOptions, Side, Variant};
use crate::search::Search;
use crate::sharding::pair_seed;
use crate::training::TrainError;

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
    /// The game at which the linear schedule starts (0: the first). A run
    /// continued with a new schedule starts it where the old one ended;
    /// before it the rate is the start rate.
    pub rate_from: u64,
    /// Games between checkpoints (and gates).
    pub checkpoint_every: u64,
    /// Gate games per checkpoint against the baseline (0 = no gates).
    pub gate_games: usize,
    /// Folder for checkpoints, the best weights and the learning curve.
    pub dir: PathBuf,
    /// Beam width for chains during self-play.
    pub beam: usize,
    /// Stop once this many games are done (at a checkpoint), without
    /// changing the learning-rate schedule, which runs over `games`.
    pub stop_after: Option<u64>,
    /// TD(λ)'s λ. 0 learns online after every turn (TD(0)); above 0 the
    /// game's positions learn at its end towards their λ-returns.
    pub lambda: f32,
    /// Show a progress bar on stderr (when it is a terminal).
    pub progress: bool,
    /// The game: Gul bara, or long nardy (its own input layout). The
    /// hitting games train in [`crate::training::td_hitting`].
    pub variant: Variant,
    /// Gul bara's input layout for a fresh network: 1,
    /// [`crate::eval::net::BLOCK_LAYOUT`] or
    /// [`crate::eval::net::MOBILITY_LAYOUT`] (0: 1). A resumed run keeps
    /// its checkpoint's.
    pub layout: u32,
}

/// The progress bar of `train` and `refine` on stderr: games done, games
/// per second, time left, the last gate's result. Hidden when stderr is
/// not a terminal, or when not `shown`; log lines are written past it.
pub struct GamesBar(indicatif::ProgressBar);

impl GamesBar {
    /// A bar over `total` games, `done` of them done already.
    pub fn new(total: u64, done: u64, shown: bool) -> GamesBar {
        let bar = if shown {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games  {per_sec}  {msg}  [{elapsed_precise}<{eta_precise}]",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.set_position(done);
            b.reset_eta();
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        GamesBar(bar)
    }

    /// One more game done.
    pub fn inc(&self) {
        self.0.inc(1);
    }

    /// Shows a gate's result.
    pub fn gate(&self, ppg: f64, se: f64) {
        self.0
            .set_message(format!("last gate {ppg:+.3} ± {se:.3} ppg"));
    }

    /// Writes a log line without tearing the bar.
    pub fn log(&self, log: &mut dyn FnMut(&str), line: &str) {
        self.0.suspend(|| log(line));
    }
}

impl Drop for GamesBar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
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
        crate::eval::flipped_outputs(out)
    }
}

pub(crate) fn exact_target(state: &GameState, side: Side) -> [f32; OUTPUTS] {
    match state.result() {
        Some(r) => match r.winner {
            Some(w) if w == side => [1.0, if r.points == 2 { 1.0 } else { 0.0 }, 0.0],
            Some(_) => [0.0, 0.0, if r.points == 2 { 1.0 } else { 0.0 }],
            None => [0.5, 0.0, 0.0],
        },
        None => [0.5, 0.0, 0.0],
    }
}

/// Plays one self-play game: both sides play `net`'s best 0-ply turn,
/// chains planned with a beam of `beam`. `visit` sees every before-roll
/// state (a pending remainder is one too) before it is played and may
/// change the network, which then plays on with the new weights. Returns
/// the final state (a result, or where the game was cut off) and the turns.
///
/// This loop stays off [`crate::game::play_game`] on purpose: it
/// visits (and trains on) every state the search's turns end in, a
/// remainder with nothing playable included, where the driver passes such
/// stages within the turn before them; the weights change between turns of
/// one game; and a game is cut off after 2000 turns. On the driver the
/// visited states, and so the trained weights, would change.
pub fn self_play<const OUT: usize>(
    net: &mut NetOf<OUT>,
    opts: &RuleOptions,
    dice_seed: u64,
    beam: usize,
    visit: &mut dyn FnMut(&mut NetOf<OUT>, &GameState),
) -> (GameState, usize)
where
    for<'a> crate::eval::net::Sparse<'a, OUT>: Evaluator,
{
    let mut dice = SeededDice::new(dice_seed);
    let opened = open_game(opts, &mut dice);
    let mut first_roll = opened.first_roll;
    let mut state = GameState::start_of(opts.variant, opened.starter);
    let stop = AtomicBool::new(false);
    let mut turns = 0;
    while state.result().is_none() && turns < 2000 {
        visit(net, &state);
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
            // The training form of the network, so runs keep their bits.
            let sparse = crate::eval::net::Sparse(&*net);
            let search = Search::new(&sparse as &dyn Evaluator, *opts, &stop);
            search.turns(&start, beam).into_iter().next().map(|c| c.end)
        };
        state = match next {
            Some(s) => s,
            None => break,
        };
        turns += 1;
    }
    (state, turns)
}

/// The target after the last visited position of a game, from `side`'s
/// view: the result, or the network's judgement where the game was cut off.
pub fn game_end_target(
    net: &Net,
    opts: &RuleOptions,
    end: &GameState,
    side: Side,
) -> [f32; OUTPUTS] {
    if end.result().is_some() {
        exact_target(end, side)
    } else {
        let f = net.forward(&features_for(net, end, opts));
        target_from(&f.out, side == end.to_move)
    }
}

/// Plays one self-play game with `net`, learning as it goes (TD(0)):
/// every before-roll position learns towards the next one. Returns the
/// number of turns played.
pub fn train_game(
    net: &mut Net,
    opts: &RuleOptions,
    dice_seed: u64,
    rate: f32,
    beam: usize,
) -> usize {
    let mut prev: Option<(Inputs, Forward, Side)> = None;
    let (end, turns) = self_play(net, opts, dice_seed, beam, &mut |net, state| {
        let x = features_for(net, state, opts);
        let fwd = net.forward(&x);
        if let Some((px, pf, ps)) = prev.take() {
            let t = target_from(&fwd.out, ps == state.to_move);
            net.train(&px, &pf, &t, rate);
        }
        prev = Some((x, fwd, state.to_move));
    });
    if let Some((px, pf, ps)) = prev.take() {
        let t = game_end_target(net, opts, &end, ps);
        net.train(&px, &pf, &t, rate);
    }
    turns
}

/// Plays one self-play game with `net` and then trains every before-roll
/// position of it towards its λ-return (the offline form of TD(λ)): the
/// return of position `t` mixes the judgement of position `t + 1` with
/// weight `1 − λ` and the return of `t + 1` with weight `λ`, the last one
/// being the game's result. Judgements are those the network gave during
/// the game; each update recomputes the forward pass, as earlier updates
/// of the same game have changed the weights. Returns the turns played.
pub fn train_game_lambda(
    net: &mut Net,
    opts: &RuleOptions,
    dice_seed: u64,
    rate: f32,
    beam: usize,
    lambda: f32,
) -> usize {
    let mut seen: Vec<(Inputs, [f32; OUTPUTS], Side)> = Vec::new();
    let (end, turns) = self_play(net, opts, dice_seed, beam, &mut |net, state| {
        let x = features_for(net, state, opts);
        let out = net.forward(&x).out;
        seen.push((x, out, state.to_move));
    });
    let Some(last) = seen.last() else {
        return turns;
    };
    let last = game_end_target(net, opts, &end, last.2);
    let judged: Vec<([f32; OUTPUTS], Side)> = seen.iter().map(|(_, o, s)| (*o, *s)).collect();
    let targets = lambda_returns(&judged, last, lambda);
    for ((x, _, _), t) in seen.iter().zip(&targets) {
        let fwd = net.forward(x);
        net.train(x, &fwd, t, rate);
    }
    turns
}

/// The λ-return of every position of a game, each from its mover's view.
/// `judged` holds the network's judgement of each position and its mover;
/// `last` is the target after the last position (the result), from that
/// position's mover's view.
pub fn lambda_returns(
    judged: &[([f32; OUTPUTS], Side)],
    last: [f32; OUTPUTS],
    lambda: f32,
) -> Vec<[f32; OUTPUTS]> {
    lambda_returns_with(judged, last, lambda, |o| target_from(o, false))
}

/// [`lambda_returns`] for any number of outputs: `flip` turns outputs into
/// the other side's view.
pub fn lambda_returns_with<const OUT: usize>(
    judged: &[([f32; OUT], Side)],
    last: [f32; OUT],
    lambda: f32,
    flip: impl Fn(&[f32; OUT]) -> [f32; OUT],
) -> Vec<[f32; OUT]> {
    let view = |o: &[f32; OUT], same: bool| if same { *o } else { flip(o) };
    let mut ret = last;
    let mut targets = vec![[0f32; OUT]; judged.len()];
    for t in (0..judged.len()).rev() {
        targets[t] = ret;
        if t > 0 {
            let same = judged[t - 1].1 == judged[t].1;
            let v = view(&judged[t].0, same);
            let g = view(&ret, same);
            for k in 0..OUT {
                ret[k] = (1.0 - lambda) * v[k] + lambda * g[k];
            }
        }
    }
    targets
}

/// Checkpoint file names in `dir`.
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.gbnn")
}

/// The number after `key=` in a weights description (0 when absent): how
/// far the run that wrote it had got.
pub(crate) fn counter_in<const OUT: usize>(net: &NetOf<OUT>, key: &str) -> u64 {
    net.description
        .split_whitespace()
        .find_map(|w| {
            w.strip_prefix(key)
                .and_then(|r| r.strip_prefix('='))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// A training or refinement run's folder: its checkpoint (resumed when
/// there) and its curve of gates.
pub(crate) struct RunFolder {
    /// The checkpoint file.
    pub ckpt: PathBuf,
    /// The curve file (`games,ppg,se,seconds`).
    pub curve: PathBuf,
}

impl RunFolder {
    /// Opens `dir` (created if missing) and returns the network to go on
    /// with: the checkpoint there, or `fresh()` when there is none. `counter`
    /// names the description field that says how far the checkpoint got.
    pub(crate) fn open<const OUT: usize>(
        dir: &Path,
        counter: &str,
        fresh: impl FnOnce() -> NetOf<OUT>,
        log: &mut dyn FnMut(&str),
    ) -> Result<(RunFolder, NetOf<OUT>), TrainError> {
        std::fs::create_dir_all(dir)?;
        let folder = RunFolder {
            ckpt: checkpoint_path(dir),
            curve: dir.join("curve.csv"),
        };
        let net = if folder.ckpt.exists() {
            let n = NetOf::<OUT>::from_bytes(&std::fs::read(&folder.ckpt)?)?;
            log(&format!(
                "resuming from {} at {} games",
                folder.ckpt.display(),
                counter_in(&n, counter)
            ));
            n
        } else {
            fresh()
        };
        if !folder.curve.exists() {
            std::fs::write(&folder.curve, "games,ppg,se,seconds\n")?;
        }
        Ok((folder, net))
    }

    /// Appends one gate to the curve.
    pub(crate) fn add_gate(&self, games: u64, ppg: f64, se: f64, secs: u64) -> std::io::Result<()> {
        let mut curve = std::fs::read_to_string(&self.curve).unwrap_or_default();
        curve.push_str(&format!("{games},{ppg:.4},{se:.4},{secs}\n"));
        std::fs::write(&self.curve, curve)
    }
}

/// Gates `weights` against the baseline at 0-ply (Gul bara).
pub fn gate(weights: &Path, games: usize, seed: u64, jobs: usize) -> (f64, f64) {
    gate_in(Variant::default(), weights, games, seed, jobs)
}

/// Gates `weights` against `variant`'s baseline, both at 0-ply, over
/// mirrored dice.
pub fn gate_in(
    variant: Variant,
    weights: &Path,
    games: usize,
    seed: u64,
    jobs: usize,
) -> (f64, f64) {
    // Gul bara's engines take no game.variant, as before the other games.
    let game: Vec<(String, String)> = if variant == Variant::default() {
        Vec::new()
    } else {
        vec![("game.variant".into(), variant.to_string())]
    };
    let with = |extra: &[(&str, String)]| {
        let mut o = game.clone();
        o.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
        o
    };
    let cfg = MatchConfig::quiet(
        [
            EngineSpec {
                cmd: "builtin:net".into(),
                name: "net".into(),
                options: with(&[
                    ("engine.ply", "1".into()),
                    ("engine.weights", weights.display().to_string()),
                ]),
            },
            EngineSpec {
                cmd: "builtin:heuristic".into(),
                name: "baseline".into(),
                options: with(&[("engine.ply", "1".into())]),
            },
        ],
        RuleOptions::for_variant(variant),
        games,
        seed,
        jobs,
    );
    let r = run_match(&cfg);
    (r.ppg, r.se)
}

/// Runs (or resumes) a training run. `log` receives one line per checkpoint.
pub fn train(cfg: &TrainConfig, log: &mut dyn FnMut(&str)) -> Result<Vec<Gate>, TrainError> {
    if matches!(
        cfg.variant.spec().eval,
        EvalFamily::Hitting | EvalFamily::Pinning
    ) {
        return Err(TrainError::TrainsInHitting(cfg.variant));
    }
    use crate::eval::net::block_inputs::{RUN_BLOCK_INPUTS, RUN_BLOCK_LAYOUT};
    use crate::eval::net::{
        BLOCK_INPUTS, BLOCK_LAYOUT, LAYOUT_VERSION, MOBILITY_INPUTS, MOBILITY_LAYOUT,
    };
    // Long nardy and Fevga: layout 3, or 9 (layout 3 and the blocking
    // inputs, docs/INPUTS.md) when asked for.
    let want_layout = match (cfg.variant.spec().eval, cfg.layout) {
        (EvalFamily::LongNardy, RUN_BLOCK_LAYOUT) => RUN_BLOCK_LAYOUT,
        (EvalFamily::LongNardy, _) => LONG_LAYOUT,
        (_, BLOCK_LAYOUT) => BLOCK_LAYOUT,
        (_, MOBILITY_LAYOUT) => MOBILITY_LAYOUT,
        (_, 0 | 1) => LAYOUT_VERSION,
        (_, layout) => return Err(TrainError::Layout { layout }),
    };
    let fresh = || match want_layout {
        LONG_LAYOUT => Net::random_layout(LONG_LAYOUT, LONG_INPUTS, cfg.hidden, cfg.seed),
        RUN_BLOCK_LAYOUT => {
            Net::random_layout(RUN_BLOCK_LAYOUT, RUN_BLOCK_INPUTS, cfg.hidden, cfg.seed)
        }
        BLOCK_LAYOUT => Net::random_layout(BLOCK_LAYOUT, BLOCK_INPUTS, cfg.hidden, cfg.seed),
        MOBILITY_LAYOUT => {
            Net::random_layout(MOBILITY_LAYOUT, MOBILITY_INPUTS, cfg.hidden, cfg.seed)
        }
        _ => Net::random(cfg.hidden, cfg.seed),
    };
    let (folder, net) = RunFolder::open(&cfg.dir, "games", fresh, log)?;
    if net.layout != want_layout {
        return Err(TrainError::OtherLayout {
            path: folder.ckpt.clone(),
            layout: net.layout,
        });
    }
    let opts = RuleOptions::for_variant(cfg.variant);
    let play = &mut |net: &mut Net, dice_seed: u64, rate: f32| {
        if cfg.lambda > 0.0 {
            train_game_lambda(net, &opts, dice_seed, rate, cfg.beam, cfg.lambda);
        } else {
            train_game(net, &opts, dice_seed, rate, cfg.beam);
        }
    };
    // TD(0) runs, and Gul bara's layout 1, keep the description the shipped
    // files were made with.
    let method = if cfg.lambda > 0.0 {
        format!("TD(lambda={})", cfg.lambda)
    } else {
        "TD(0)".to_string()
    };
    let describe = |net: &Net, done: u64| {
        let game = if cfg.variant == Variant::default() && net.layout == LAYOUT_VERSION {
            String::new()
        } else {
            format!(" game={} layout={}", cfg.variant, net.layout)
        };
        format!(
            "gulbara {method} self-play net:{game} hidden={} games={} seed={} {} beam={}",
            cfg.hidden,
            done,
            cfg.seed,
            schedule_words(cfg),
            cfg.beam
        )
    };
    run_sittings(
        cfg,
        cfg.variant,
        &folder,
        net,
        0x7D1C_E5EE_D000_0000,
        play,
        &describe,
        log,
    )
}

/// The learning rate of game `done` (counted from 0): `cfg.rate.0` up to
/// `cfg.rate_from`, then linear down to `cfg.rate.1` at `cfg.games`.
pub fn scheduled_rate(cfg: &TrainConfig, done: u64) -> f32 {
    let span = cfg.games.saturating_sub(cfg.rate_from).max(1);
    let frac = done.saturating_sub(cfg.rate_from) as f32 / span as f32;
    cfg.rate.0 + (cfg.rate.1 - cfg.rate.0) * frac
}

/// The schedule's words in a network's description: the rates, and where
/// the schedule starts when that is not the first game (so the files of
/// runs with the default schedule read as before).
pub fn schedule_words(cfg: &TrainConfig) -> String {
    if cfg.rate_from == 0 {
        format!("rate={}..{}", cfg.rate.0, cfg.rate.1)
    } else {
        format!(
            "rate={}..{} rate_from={}",
            cfg.rate.0, cfg.rate.1, cfg.rate_from
        )
    }
}

/// The games of a training run from where its network `net` stands (its
/// description's `games=`): `cfg.checkpoint_every` games a checkpoint,
/// stopping at `cfg.games` or `cfg.stop_after`, the learning rate falling
/// linearly over `cfg.games`, game `g`'s dice seeded by `pair_seed(cfg.seed
/// ^ salt, g)` and played by `play(net, dice seed, rate)`. At each
/// checkpoint the network takes `describe(net, games done)` as its
/// description and is written; with gates, it then plays `variant`'s
/// baseline, the curve gets the result and the best gate is kept as
/// `best.gbnn`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_sittings<const OUT: usize>(
    cfg: &TrainConfig,
    variant: Variant,
    folder: &RunFolder,
    mut net: NetOf<OUT>,
    salt: u64,
    play: &mut dyn FnMut(&mut NetOf<OUT>, u64, f32),
    describe: &dyn Fn(&NetOf<OUT>, u64) -> String,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<Gate>, TrainError> {
    let ckpt = &folder.ckpt;
    let mut done = counter_in(&net, "games");
    let mut gates = Vec::new();
    let best_path = ckpt.with_file_name("best.gbnn");
    let mut best_ppg = std::fs::read(&best_path)
        .ok()
        .and_then(|b| NetOf::<OUT>::from_bytes(&b).ok())
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
            let rate = scheduled_rate(cfg, done);
            let dice_seed = pair_seed(cfg.seed ^ salt, done as usize);
            play(&mut net, dice_seed, rate);
            done += 1;
            bar.inc();
        }
        net.description = describe(&net, done);
        std::fs::write(ckpt, net.to_bytes())?;
        if cfg.gate_games > 0 {
            let (ppg, se) = gate_in(
                variant,
                ckpt,
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

    #[test]
    fn lambda_training_is_reproducible_and_differs_from_td0() {
        let opts = RuleOptions::default();
        let mut a = Net::random(8, 3);
        let mut b = Net::random(8, 3);
        let mut c = Net::random(8, 3);
        for g in 0..3 {
            train_game_lambda(&mut a, &opts, 100 + g, 0.1, 2, 0.7);
            train_game_lambda(&mut b, &opts, 100 + g, 0.1, 2, 0.7);
            train_game(&mut c, &opts, 100 + g, 0.1, 2);
        }
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, Net::random(8, 3));
    }

    #[test]
    fn lambda_rate_zero_keeps_the_weights() {
        let opts = RuleOptions::default();
        let net = Net::random(8, 5);
        let mut probe = net.clone();
        train_game_lambda(&mut probe, &opts, 77, 0.0, 2, 1.0);
        assert_eq!(probe, net, "rate 0 must not change the weights");
        train_game_lambda(&mut probe, &opts, 77, 0.5, 2, 1.0);
        assert_ne!(probe, net);
    }

    #[test]
    fn a_stopped_run_resumes_to_the_same_weights() {
        let base = std::env::temp_dir().join(format!("gulbara-train-{}", std::process::id()));
        let cfg = |dir: &str, stop_after: Option<u64>| TrainConfig {
            stop_after,
            ..tiny(base.join(dir), 4)
        };
        let mut quiet = |_: &str| {};
        train(&cfg("whole", None), &mut quiet).expect("whole run");
        train(&cfg("split", Some(2)), &mut quiet).expect("first sitting");
        let half =
            Net::from_bytes(&std::fs::read(checkpoint_path(&base.join("split"))).unwrap()).unwrap();
        assert_eq!(counter_in(&half, "games"), 2);
        train(&cfg("split", None), &mut quiet).expect("second sitting");
        let read = |d: &str| std::fs::read(checkpoint_path(&base.join(d))).unwrap();
        assert_eq!(read("whole"), read("split"));
        let _ = std::fs::remove_dir_all(&base);
    }

    /// A tiny Gul bara run in `dir`: 4 hidden units, beam 1, no gates.
    fn tiny(dir: PathBuf, games: u64) -> TrainConfig {
        TrainConfig {
            hidden: 4,
            games,
            seed: 5,
            rate: (0.1, 0.02),
            rate_from: 0,
            checkpoint_every: 1,
            gate_games: 0,
            dir,
            beam: 1,
            lambda: 0.7,
            stop_after: None,
            progress: false,
            variant: Variant::GulBara,
            layout: 0,
        }
    }

    #[test]
    fn fevga_trains_and_resumes_layout_9_only_when_asked() {
        use crate::eval::net::block_inputs::{RUN_BLOCK_INPUTS, RUN_BLOCK_LAYOUT};
        let base = std::env::temp_dir().join(format!("gulbara-blocks-{}", std::process::id()));
        let cfg = |games: u64, layout: u32| TrainConfig {
            variant: Variant::Fevga,
            layout,
            checkpoint_every: 2,
            ..tiny(base.clone(), games)
        };
        let read = || Net::from_bytes(&std::fs::read(checkpoint_path(&base)).unwrap()).unwrap();
        let mut quiet = |_: &str| {};
        train(&cfg(2, RUN_BLOCK_LAYOUT), &mut quiet).expect("a fresh layout-9 run");
        let first = read();
        assert_eq!(
            (first.layout, first.inputs),
            (RUN_BLOCK_LAYOUT, RUN_BLOCK_INPUTS)
        );
        assert!(first.description.contains("game=fevga layout=9"));
        assert_eq!(counter_in(&first, "games"), 2);
        // Without --layout 9 the folder's network is refused, not retrained
        // as another layout.
        match train(&cfg(4, 0), &mut quiet) {
            Err(TrainError::OtherLayout { layout, .. }) => assert_eq!(layout, RUN_BLOCK_LAYOUT),
            other => panic!("expected OtherLayout, got {other:?}"),
        }
        assert_eq!(read().to_bytes(), first.to_bytes());
        train(&cfg(4, RUN_BLOCK_LAYOUT), &mut quiet).expect("the layout-9 run resumed");
        let after = read();
        assert_eq!(counter_in(&after, "games"), 4);
        assert_eq!(after.layout, RUN_BLOCK_LAYOUT);
        assert_ne!(after.w1, first.w1);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_schedule_starts_at_rate_from() {
        let mut cfg = TrainConfig {
            rate: (0.02, 0.002),
            rate_from: 200,
            ..tiny(PathBuf::new(), 300)
        };
        assert_eq!(scheduled_rate(&cfg, 0), 0.02);
        assert_eq!(scheduled_rate(&cfg, 200), 0.02);
        assert!((scheduled_rate(&cfg, 250) - 0.011).abs() < 1e-6);
        assert!((scheduled_rate(&cfg, 300) - 0.002).abs() < 1e-6);
        assert_eq!(schedule_words(&cfg), "rate=0.02..0.002 rate_from=200");
        cfg.rate_from = 0;
        assert!((scheduled_rate(&cfg, 150) - 0.011).abs() < 1e-6);
        assert_eq!(schedule_words(&cfg), "rate=0.02..0.002");
    }

    #[test]
    fn a_finished_run_goes_on_with_a_new_schedule() {
        let base = std::env::temp_dir().join(format!("gulbara-cont-{}", std::process::id()));
        let cfg = |games: u64, rate: (f32, f32), rate_from: u64| TrainConfig {
            seed: 6,
            rate,
            rate_from,
            checkpoint_every: 2,
            ..tiny(base.clone(), games)
        };
        let mut quiet = |_: &str| {};
        train(&cfg(2, (0.1, 0.02), 0), &mut quiet).expect("first run");
        let first = Net::from_bytes(&std::fs::read(checkpoint_path(&base)).unwrap()).unwrap();
        train(&cfg(4, (0.02, 0.002), 2), &mut quiet).expect("continuation");
        let after = Net::from_bytes(&std::fs::read(checkpoint_path(&base)).unwrap()).unwrap();
        assert_eq!(counter_in(&after, "games"), 4);
        assert!(after.description.contains("rate=0.02..0.002 rate_from=2"));
        assert_ne!(first.to_bytes(), after.to_bytes());
        // The continuation is the first run's network trained on games 2
        // and 3 at the new schedule's rates.
        let opts = RuleOptions::default();
        let mut by_hand = first.clone();
        for g in 2..4u64 {
            let rate = scheduled_rate(&cfg(4, (0.02, 0.002), 2), g);
            let seed = pair_seed(6 ^ 0x7D1C_E5EE_D000_0000, g as usize);
            train_game_lambda(&mut by_hand, &opts, seed, rate, 1, 0.7);
        }
        by_hand.description = after.description.clone();
        assert_eq!(by_hand, after);
        let _ = std::fs::remove_dir_all(&base);
    }
}
