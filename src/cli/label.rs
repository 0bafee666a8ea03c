//! `gulbara label`: rollout labels for a positions file, sharded by
//! position index and resumable (docs/TRAINING.md).
//!
//! Each label line is `index<TAB>win<TAB>win mars<TAB>lose mars<TAB>win bg
//! <TAB>lose bg<TAB>equity<TAB>se`, appended as soon as the position is
//! done, in the order positions finish. A rerun with the same `--out`
//! skips the indices already there (a torn last line is dropped), so a
//! sitting can stop at any time. A label depends only on its position,
//! its index and the settings, never on the shard, the threads or the
//! sitting.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;

use crate::rules::{GameState, RuleOptions, Variant};
use crate::training::label::{
    FoundKind, LabelConfig, label_position, parse_found, parse_positions, seed_indices,
};

/// Options of `label`.
#[derive(Args, Debug)]
pub struct LabelArgs {
    /// The game the positions are of.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// The positions file (`gulbara positions` writes it).
    #[arg(long)]
    pub positions: PathBuf,
    /// The labels file: appended to, and read first to skip what is done.
    #[arg(long)]
    pub out: PathBuf,
    /// The network the rollouts play and truncate with: `shipped` or a file.
    #[arg(long, default_value = "shipped")]
    pub weights: String,
    /// Trials per position.
    #[arg(long, default_value_t = 324)]
    pub games: u32,
    /// Plies per trial before the network scores it (0: to the end).
    #[arg(long, default_value_t = 10)]
    pub truncate: u32,
    /// The players' gnubg ply (0 or 1).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub ply: u8,
    /// The seed each position's dice seed comes from (with its index).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Label only the positions whose index is I modulo N (`I/N`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::sharding::Shard>,
    /// Threads, each labelling whole positions.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Start no new position after this many minutes (0: no limit).
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::non_negative_f64)]
    pub minutes: f64,
    /// Label at most this many positions in this sitting (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub max: usize,
}

/// The positions of a positions file (gzipped when its name ends in
/// `.gz`), in order.
pub fn read_positions(path: &Path, variant: Variant) -> anyhow::Result<Vec<GameState>> {
    let text = crate::training::supervise::read_text(path)?;
    Ok(parse_positions(
        &text,
        variant,
        &path.display().to_string(),
    )?)
}

/// The positions of a positions file with their kinds, as [`read_positions`]
/// reads them.
pub fn read_found(
    path: &Path,
    variant: Variant,
) -> anyhow::Result<Vec<(Option<FoundKind>, GameState)>> {
    let text = crate::training::supervise::read_text(path)?;
    Ok(parse_found(&text, variant, &path.display().to_string())?)
}

/// The indices a labels file already holds; a torn last line (no newline)
/// is cut off so that appending starts on a fresh line.
fn done_indices(path: &Path) -> anyhow::Result<HashSet<usize>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.set_len(whole as u64)?;
    }
    Ok(text[..whole]
        .lines()
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .collect())
}

/// Runs `label`.
pub fn run(a: LabelArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.games >= 1, "--games must be at least 1");
    let opts = RuleOptions::for_variant(a.variant);
    let weights = crate::engine::Weights::named(&a.weights);
    let net = crate::engine::load_net(a.variant, &weights, &Default::default())
        .context("cannot load the weights")?;
    let eval = net.evaluator();
    let found = read_found(&a.positions, a.variant)?;
    let seeds = seed_indices(&found.iter().map(|(k, _)| *k).collect::<Vec<_>>());
    let positions: Vec<GameState> = found.into_iter().map(|(_, s)| s).collect();
    let shard = a.shard.unwrap_or(crate::sharding::Shard::WHOLE);
    let done = done_indices(&a.out)?;
    let todo: Vec<usize> = shard
        .units(positions.len())
        .filter(|i| !done.contains(i))
        .collect();
    let todo = if a.max > 0 && todo.len() > a.max {
        todo[..a.max].to_vec()
    } else {
        todo
    };
    eprintln!(
        "label: {} positions, {} already labelled, {} to do in this sitting",
        positions.len(),
        done.len(),
        todo.len()
    );
    let cfg = LabelConfig {
        games: a.games,
        truncate: a.truncate,
        plies: a.ply,
        seed: a.seed,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    let out = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let start = Instant::now();
    // A limit too long for a Duration is no limit.
    let limit = (a.minutes > 0.0)
        .then(|| Duration::try_from_secs_f64(a.minutes * 60.0).ok())
        .flatten();
    let work = || {
        loop {
            if failed.load(Ordering::Relaxed) || limit.is_some_and(|l| start.elapsed() >= l) {
                return;
            }
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = todo.get(k) else { return };
            let l = label_position(eval.as_ref(), &opts, &positions[i], seeds[i], &cfg);
            let p = l.probs;
            let line = format!(
                "{i}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\n",
                p[0], p[1], p[2], p[3], p[4], l.equity, l.se
            );
            let written = match out.lock() {
                Ok(mut f) => f.write_all(line.as_bytes()),
                Err(_) => Err(std::io::Error::other("a labelling thread failed")),
            };
            if let Err(e) = written {
                eprintln!("label: cannot append to {}: {e}", a.out.display());
                failed.store(true, Ordering::Relaxed);
                return;
            }
            let f = finished.fetch_add(1, Ordering::Relaxed) + 1;
            if f.is_multiple_of(100) {
                eprintln!(
                    "label: {f}/{} in {:.0} s",
                    todo.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    };
    crate::search::on_threads(a.threads.clamp(1, 64), &work);
    anyhow::ensure!(!failed.load(Ordering::Relaxed), "labelling stopped early");
    println!(
        "{} positions labelled in {:.0} s; {} of {} in {}",
        finished.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64(),
        done.len() + finished.load(Ordering::Relaxed),
        positions.len(),
        a.out.display()
    );
    Ok(())
}
