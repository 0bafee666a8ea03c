//! Command line: no subcommand speaks the protocol on stdin/stdout; every
//! subcommand is one file here, its clap `Args` and its `run`, and this
//! module only parses and dispatches.

pub mod analyse;
pub mod bearoff;
pub mod fibs;
pub mod gnubg_external;
pub mod label;
pub mod match_cmd;
pub mod merge;
pub mod met;
pub mod numbers;
pub mod positions;
pub mod refine;
pub mod replay;
pub mod rollout;
pub mod selfplay;
pub mod serve;
pub mod supervise;
pub mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::server::{self, connection::DEFAULT_MAX_LINE};

/// The gulbara engine.
#[derive(Parser, Debug)]
#[command(
    name = "gulbara",
    version,
    about = "An engine for the tables games: Gul bara, long nardy, short nardy, backgammon (UBGI-style protocol on stdio, TCP or WebSocket)"
)]
pub struct Cli {
    /// Log filter for stderr (e.g. `info`, `gulbara=debug`); default from
    /// `RUST_LOG`, else `warn` (stdio) or `info` (serve).
    #[arg(long, global = true, value_name = "LEVEL")]
    pub log_level: Option<String>,
    /// The game the protocol on stdin/stdout starts in (as `set
    /// game.variant NAME`), for GUIs and runners that expect it; default
    /// gulbara.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<crate::rules::Variant>,
    /// The dialect of the protocol on stdin/stdout: gulbara (the native
    /// protocol, which also answers UBGI v0.1 from its first v0.1 command),
    /// ubgi-0.1 (bgci's UBGI v0.1 from the first line) or ubgi-draft (UBGI
    /// draft 0.01: bare FIBS board and XGID lines; starts in backgammon).
    #[arg(long, value_enum, default_value_t = crate::protocol::Dialect::Native)]
    pub dialect: crate::protocol::Dialect,
    /// What to run; none = the protocol on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Commands>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Serve the protocol over TCP (one session per connection) and/or the
    /// browser board over HTTP (`--http`; the protocol on a WebSocket at /ws).
    Serve(serve::ServeArgs),
    /// Play a match between two engines (mirrored dice pairs).
    Match(match_cmd::MatchArgs),
    /// Combine the shard files of a match or a rollout (`--shard I/N --out
    /// FILE`) into the whole job's report.
    Merge(merge::MergeArgs),
    /// Roll a position out from the command line, whole or one shard
    /// (the protocol's `rollout`; protocol/SPEC.md).
    Rollout(rollout::RolloutCliArgs),
    /// Check a game record against the rules and print the final positions.
    Replay(replay::ReplayArgs),
    /// Analyse a game record: preferred plays, equity lost, error rates.
    Analyse(analyse::AnalyseArgs),
    /// Play the baseline against itself and write records.
    Selfplay(selfplay::SelfplayArgs),
    /// Train the network by self-play (resumable; see docs/TRAINING.md).
    Train(train::TrainArgs),
    /// Refine a network towards its own 1-ply judgement (see docs/TRAINING.md).
    Refine(refine::RefineArgs),
    /// Find before-roll positions by self-play for supervised training
    /// (see docs/TRAINING.md).
    Positions(positions::PositionsArgs),
    /// Label a positions file by rollouts, sharded and resumable (see
    /// docs/TRAINING.md).
    Label(label::LabelArgs),
    /// Train a network on a generation's labelled positions (see
    /// docs/TRAINING.md).
    Supervise(supervise::SuperviseArgs),
    /// Play on a FIBS server as a bot (CLIP; see docs/CLIENTS.md).
    Fibs(fibs::FibsArgs),
    /// Serve GNU Backgammon's external-player interface (see docs/GNUBG.md).
    GnubgExternal(gnubg_external::GnubgExternalArgs),
    /// Generate the race (bear-off) tables, time them, and measure each
    /// game's network and baseline against them (docs/STRENGTH.md).
    Bearoff(bearoff::BearoffArgs),
    /// A match equity table for a game without a published one, from its own gammon rates (docs/MATCHES.md)
    Met(met::MetArgs),
}

fn init_logging(level: Option<&str>, default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = match level {
        Some(l) => EnvFilter::try_new(l).unwrap_or_else(|_| EnvFilter::new(default)),
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default)),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// The `--set KEY=VALUE` options of a subcommand, as `(key, value)` pairs.
fn set_pairs(set: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    set.iter()
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--set {kv}: expected KEY=VALUE"))?;
            Ok((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Parses the command line and runs; the binary's `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gulbara: {}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, `outer: cause: cause`, each cause
/// named once: a cause whose text its outer error already ends with (an
/// error that shows its source and also returns it) is not repeated.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.ends_with(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    // The server logs its connections; everything else only warnings.
    let default_level = if matches!(cli.command, Some(Commands::Serve(_))) {
        "info"
    } else {
        "warn"
    };
    init_logging(cli.log_level.as_deref(), default_level);
    anyhow::ensure!(
        cli.variant.is_none() || cli.command.is_none(),
        "--variant before a subcommand is the stdio engine's; give the subcommand its own --variant after its name"
    );
    anyhow::ensure!(
        cli.dialect == crate::protocol::Dialect::Native || cli.command.is_none(),
        "--dialect is the stdio engine's; it goes before no subcommand"
    );
    match cli.command {
        None => {
            server::stdio::run(DEFAULT_MAX_LINE, cli.variant, cli.dialect)?;
            Ok(())
        }
        Some(Commands::Serve(a)) => serve::run(a),
        Some(Commands::Match(a)) => match_cmd::run(a),
        Some(Commands::Merge(a)) => merge::run(a),
        Some(Commands::Rollout(a)) => rollout::run(a),
        Some(Commands::Replay(a)) => replay::run(a),
        Some(Commands::Analyse(a)) => analyse::run(a),
        Some(Commands::Selfplay(a)) => selfplay::run(a),
        Some(Commands::Train(a)) => train::run(a),
        Some(Commands::Refine(a)) => refine::run(a),
        Some(Commands::Positions(a)) => positions::run(a),
        Some(Commands::Label(a)) => label::run(a),
        Some(Commands::Supervise(a)) => supervise::run(a),
        Some(Commands::GnubgExternal(a)) => gnubg_external::run(a),
        Some(Commands::Fibs(a)) => fibs::run(a),
        Some(Commands::Bearoff(a)) => bearoff::run(a),
        Some(Commands::Met(a)) => met::run(a),
    }
}

/// How a job splits across processes: `--shard` and `--out`.
#[derive(Args, Debug)]
pub struct SplitArgs {
    /// Run only the units numbered I modulo N (`I/N`, from 0/N): a match's
    /// mirrored pairs, a rollout's trials. `gulbara merge` combines the
    /// shards' `--out` files into the whole job's report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::sharding::Shard>,
    /// Write every unit's results as JSON (a shard file for `gulbara merge`).
    /// A match keeps the file as it goes (after its first complete pair,
    /// then at most once a second, more seldom for a large file), marked `"partial":true` until the end, so a stopped match's
    /// file holds the pairs it finished (`match --resume` goes on with it).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Writes the JSON `text` makes to `out`, if given, with a final newline
/// (atomically: a reader never sees half a file).
fn write_json(out: &Option<PathBuf>, text: impl FnOnce() -> String) -> anyhow::Result<()> {
    if let Some(out) = out {
        crate::sharding::write_atomically(out, (text() + "\n").as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// The largest shard file `merge` and `match --resume` read.
const MAX_SHARD_FILE: u64 = 1 << 30;

/// The text of the shard file `path` (`None`: there is no such file).
fn read_shard_text(path: &std::path::Path) -> anyhow::Result<Option<String>> {
    let name = path.display();
    let len = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
    };
    if len > MAX_SHARD_FILE {
        anyhow::bail!("{name}: {len} bytes, more than any shard file ({MAX_SHARD_FILE})");
    }
    std::fs::read_to_string(path)
        .map(Some)
        .with_context(|| format!("cannot read {name}"))
}

/// The luck reference on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LuckEvalArg {
    /// The hand-written baseline evaluator.
    Baseline,
    /// The shipped network.
    Net,
}

/// A match report, as JSON or for people.
fn print_report(report: &crate::matchplay::MatchReport, json: bool) {
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
}
