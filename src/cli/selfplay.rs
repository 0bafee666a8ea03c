//! `gulbara selfplay`: the baseline against itself, records written.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::matchplay::engine::EngineSpec;
use crate::matchplay::{MatchConfig, check_builtins, parse_rules, run_match};
use crate::rules::Variant;

/// Options of `selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search depth of both sides, root-inclusive as `engine.ply`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub ply: u8,
    /// Games at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    pub jobs: usize,
    /// The game played: gulbara, long_nardy, short_nardy, backgammon, fevga, portes,
    /// tabla, plakoto or tapa.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// A rule option `name=value` of that game (repeatable).
    #[arg(long = "rule")]
    pub rule: Vec<String>,
    /// Write one record per game here.
    #[arg(long, default_value = "selfplay")]
    pub records: PathBuf,
    /// Play only the pairs whose number is I modulo N (`I/N`): the records
    /// of all N shards, put in one folder, are the unsharded run's.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::sharding::Shard>,
}

/// Runs `selfplay`: the baseline player of the variant against itself,
/// records written.
pub fn run(a: SelfplayArgs) -> anyhow::Result<()> {
    let rules = parse_rules(a.variant, &a.rule)?;
    let spec = |name: &str| EngineSpec {
        cmd: "builtin:heuristic".into(),
        name: name.into(),
        options: vec![("engine.ply".into(), a.ply.to_string())],
    };
    let cfg = MatchConfig {
        rotation: Vec::new(),
        winner_starts: false,
        engines: [spec("gulbara-a"), spec("gulbara-b")],
        games: a.games.max(1),
        seed: a.seed,
        jobs: a.jobs.max(1),
        move_timeout: Duration::from_secs(60),
        rules,
        luck_adjust: false,
        luck_reference: Default::default(),
        sprt: None,
        records: Some(a.records.clone()),
        progress: true,
        out: None,
        shard: a.shard.unwrap_or(crate::sharding::Shard::WHOLE),
        session: crate::cube::SessionSpec::cubeless(),
    };
    check_builtins(&cfg)?;
    let report = run_match(&cfg);
    print!("{}", report.to_text());
    if let Some(first) = report.record_errors.first() {
        anyhow::bail!(
            "records not written ({} file(s) or more); the first: {first}",
            report.record_errors.len()
        );
    }
    println!("records in {}", a.records.display());
    Ok(())
}
