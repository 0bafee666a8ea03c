//! `gulbara match`: a match between two engines, mirrored dice pairs.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{ArgAction, Args};

use super::{LuckEvalArg, SplitArgs, print_report, write_json};
use crate::matchplay::engine::EngineSpec;
use crate::matchplay::stats::Sprt;
use crate::matchplay::{MatchConfig, parse_rules, run_match};
use crate::rules::Variant;

/// Options of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine, cutechess style: `cmd=<command line>|tcp://host:port|builtin:heuristic|builtin:random [name=<label>] [option.<key>=<value> ...]`. Give it twice.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, required = true)]
    pub engine: Vec<String>,
    /// Games to play, in mirrored pairs (an odd number is rounded up).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the whole match (dice of every pair).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    pub jobs: usize,
    /// Milliseconds an engine has for one decision before it forfeits.
    #[arg(long, default_value_t = 30_000)]
    pub timeout_ms: u64,
    /// The game played: gulbara, long_nardy, short_nardy or backgammon. The
    /// referee plays it and both engines are told it (`set game.variant`,
    /// before the `rules.*` options); --rule takes that game's options.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// A rule option `name=value` for the referee and both engines (repeatable).
    #[arg(long = "rule")]
    pub rule: Vec<String>,
    /// Also report a luck-adjusted ppg.
    #[arg(long)]
    pub luck_adjust: bool,
    /// The evaluator judging each roll's luck for --luck-adjust, at 0-ply
    /// (in the games other than Gul bara, always the variant's baseline).
    #[arg(long, value_enum, default_value = "net")]
    pub luck_eval: LuckEvalArg,
    /// Stop early by SPRT on ppg: `p0,p1[,alpha,beta]`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write one record per game into this folder.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub split: SplitArgs,
}

/// Runs `match`.
pub fn run(a: MatchArgs) -> anyhow::Result<()> {
    // Every `cmd=` word starts the next engine's words.
    let mut groups: Vec<Vec<String>> = Vec::new();
    for w in a.engine {
        if w.starts_with("cmd=") || groups.is_empty() {
            groups.push(Vec::new());
        }
        if let Some(g) = groups.last_mut() {
            g.push(w);
        }
    }
    if groups.len() != 2 {
        bail!(
            "give --engine exactly twice, each with cmd=... (got {})",
            groups.len()
        );
    }
    let e0 = EngineSpec::parse(&groups[0])?;
    let e1 = EngineSpec::parse(&groups[1])?;
    let rules = parse_rules(a.variant, &a.rule)?;
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let shard = a
        .split
        .shard
        .unwrap_or(crate::matchplay::shard::Shard::WHOLE);
    if sprt.is_some() && shard.count > 1 {
        bail!("--sprt needs the whole match: it cannot stop a sharded one");
    }
    let cfg = MatchConfig {
        engines: [e0, e1],
        games: a.games,
        seed: a.seed,
        jobs: a.jobs.max(1),
        move_timeout: Duration::from_millis(a.timeout_ms.max(1)),
        rules,
        luck_adjust: a.luck_adjust,
        luck_reference: match a.luck_eval {
            LuckEvalArg::Baseline => crate::matchplay::LuckReference::Baseline,
            LuckEvalArg::Net => crate::matchplay::LuckReference::Net,
        },
        sprt,
        records: a.records,
        progress: !a.no_progress,
        shard,
    };
    let report = run_match(&cfg);
    write_json(&a.split.out, || {
        crate::matchplay::shard_of(&cfg, &report).to_json()
    })?;
    print_report(&report, a.json);
    Ok(())
}
