//! The offline subcommands: `match`, `replay`, `analyse`, `selfplay`.
//! Each is a clap `Args` struct plus a `run` function; `cli.rs` only
//! dispatches.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{ArgAction, Args, ValueEnum};

use crate::matchplay::engine::EngineSpec;
use crate::matchplay::stats::Sprt;
use crate::matchplay::{MatchConfig, parse_rules, run_match};
use crate::notation::state_text;
use crate::record::replay;
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

/// How a job splits across processes: `--shard` and `--out`.
#[derive(Args, Debug)]
pub struct SplitArgs {
    /// Run only the units numbered I modulo N (`I/N`, from 0/N): a match's
    /// mirrored pairs, a rollout's trials. `gulbara merge` combines the
    /// shards' `--out` files into the whole job's report.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::matchplay::shard::Shard>,
    /// Write every unit's results as JSON (a shard file for `gulbara merge`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `match`.
pub fn run_match_cmd(a: MatchArgs) -> anyhow::Result<()> {
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
    let e0 = EngineSpec::parse(&groups[0]).map_err(anyhow::Error::msg)?;
    let e1 = EngineSpec::parse(&groups[1]).map_err(anyhow::Error::msg)?;
    let rules = parse_rules(a.variant, &a.rule).map_err(anyhow::Error::msg)?;
    let sprt = a
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
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

/// A match report, as JSON or for people.
fn print_report(report: &crate::matchplay::MatchReport, json: bool) {
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
}

/// Writes the JSON `text` makes to `out`, if given, with a final newline.
fn write_json(out: &Option<PathBuf>, text: impl FnOnce() -> String) -> anyhow::Result<()> {
    if let Some(out) = out {
        std::fs::write(out, text() + "\n")
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// Options of `replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file.
    pub file: PathBuf,
}

/// Runs `replay`: checks a record and prints each game's final position
/// (after a `variant <name>` line for the games other than Gul bara, the
/// variant being read from the record).
pub fn run_replay(a: ReplayArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let (opts, games) = replay(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    if opts.variant != Variant::GulBara {
        println!("variant {}", opts.variant);
    }
    for (i, g) in games.iter().enumerate() {
        println!(
            "game {} final {} result {}",
            i + 1,
            state_text(&g.final_state),
            g.result_line.as_deref().unwrap_or("none")
        );
    }
    println!("ok {} games", games.len());
    Ok(())
}

/// Options of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The record file.
    pub file: PathBuf,
    /// Search depth, root-inclusive as `engine.ply` (1 = gnubg 0-ply, 2 =
    /// gnubg 1-ply, 3 = gnubg 2-ply).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub ply: u8,
    /// Who judges: the record's game's network (`net`, behind the exact
    /// race tables) or its hand-written baseline (`baseline`).
    #[arg(long, default_value = "net", value_parser = ["net", "baseline"])]
    pub eval: String,
    /// A weights file for the record's game's network (with `--eval net`;
    /// default: the shipped one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Roll out every decision that lost equity, this many games each (the
    /// played and the preferred turn, with the same dice).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::rollout::MAX_GAMES)))]
    pub rollout: Option<u32>,
    /// Plies per rollout game before the evaluator scores it (0: to the end).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::rollout::MAX_TRUNCATE)))]
    pub rollout_truncate: u32,
    /// The rollout players' depth, root-inclusive (1 = gnubg 0-ply, 2 = 1-ply).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub rollout_ply: u8,
    /// The rollouts' dice seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads for the rollouts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

/// Runs `analyse`: the record's game's network judges (or its baseline,
/// with `--eval baseline`).
pub fn run_analyse(a: AnalyseArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let (opts, games) =
        crate::record::replay(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    let variant = opts.variant;
    anyhow::ensure!(
        a.eval == "net" || a.weights.is_none(),
        "--weights needs --eval net"
    );
    let judge: std::sync::Arc<dyn crate::eval::Evaluator> = if a.eval == "baseline" {
        crate::eval::variants::baseline_shared(variant)
    } else {
        let bytes = match &a.weights {
            Some(path) => Some(
                crate::eval::net::read_weights_file(path, false)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
            ),
            None => None,
        };
        crate::eval::GameNet::load(variant, bytes.as_deref())
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .evaluator()
    };
    let rollout = a.rollout.map(|games| crate::rollout::RolloutParams {
        games,
        truncate: a.rollout_truncate,
        plies: a.rollout_ply.saturating_sub(1).min(1),
        seed: a.seed,
        threads: usize::from(a.threads),
        ..crate::rollout::RolloutParams::default()
    });
    let an = crate::analysis::analyse_replayed(
        &opts,
        &games,
        judge.as_ref(),
        a.ply.saturating_sub(1).min(2),
        rollout.as_ref(),
    );
    print!("{}", an.to_text());
    Ok(())
}

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
    /// The game played: gulbara, long_nardy, short_nardy or backgammon.
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
    pub shard: Option<crate::matchplay::shard::Shard>,
}

/// Options of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard files (`match` or `rollout` with `--shard I/N --out FILE`),
    /// any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the summary as one JSON object, as `match --json` does.
    #[arg(long)]
    pub json: bool,
    /// Write the merged pairs (the whole match's `--out` file).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The largest shard file `merge` reads.
const MAX_SHARD_FILE: u64 = 1 << 30;

/// Runs `merge`: checks that the files are the shards of one match (or of
/// one rollout), each once, and prints the whole job's report (the
/// unsharded run's, bit for bit).
pub fn run_merge(a: MergeArgs) -> anyhow::Result<()> {
    let mut values = Vec::new();
    for f in &a.files {
        let name = f.display().to_string();
        let len = std::fs::metadata(f)
            .with_context(|| format!("cannot read {name}"))?
            .len();
        if len > MAX_SHARD_FILE {
            bail!("{name}: {len} bytes, more than any shard file ({MAX_SHARD_FILE})");
        }
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {name}"))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            crate::matchplay::shard::ShardError::Format {
                file: name.clone(),
                why: format!("JSON: {e}"),
            }
        })?;
        values.push((name, value));
    }
    let rollout = values
        .first()
        .is_some_and(|(_, v)| v["format"] == crate::rollout_shard::FORMAT);
    if rollout {
        let mut shards = Vec::new();
        for (name, v) in &values {
            shards.push((
                name.clone(),
                crate::rollout_shard::RolloutShard::from_json(name, v)?,
            ));
        }
        let whole = crate::rollout_shard::merge(shards)?;
        write_json(&a.out, || whole.to_json())?;
        for l in whole.result_lines() {
            println!("{l}");
        }
        return Ok(());
    }
    let mut shards = Vec::new();
    for (name, v) in &values {
        shards.push((
            name.clone(),
            crate::matchplay::shard::MatchShard::from_value(name, v)?,
        ));
    }
    let whole = crate::matchplay::shard::merge(shards)?;
    write_json(&a.out, || whole.to_json())?;
    let report = crate::matchplay::shard::report_of(&whole);
    print_report(&report, a.json);
    Ok(())
}

/// Options of `rollout`.
#[derive(Args, Debug)]
pub struct RolloutCliArgs {
    /// A protocol line that sets the game up, in order (repeatable), e.g.
    /// `set game.variant backgammon`, `position startpos`, `dice 31`.
    #[arg(long = "setup", value_name = "LINE")]
    pub setup: Vec<String>,
    /// The candidate plays of the dice set, as `rollout moves` takes them;
    /// none rolls out the position before the roll.
    #[arg(long = "moves", value_name = "PLAYS")]
    pub moves: Vec<String>,
    /// Trials of the whole rollout.
    #[arg(long, default_value_t = 1296)]
    pub games: u32,
    /// Plies per trial before the evaluator scores it (0: play to the end).
    #[arg(long, default_value_t = 0)]
    pub truncate: u32,
    /// The players' ply, root-inclusive as `engine.ply` (1 or 2).
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// The dice seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Turn the luck correction off.
    #[arg(long)]
    pub no_luck: bool,
    /// Worker threads (the results do not depend on their number).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub split: SplitArgs,
}

/// Runs `rollout`: prints the `rolloutok` line(s) of this shard's trials
/// (the whole rollout's when unsharded) and writes the shard file.
pub fn run_rollout_cmd(a: RolloutCliArgs) -> anyhow::Result<()> {
    let job = crate::rollout_shard::RolloutJob {
        setup: a.setup,
        moves: a.moves,
        games: a.games,
        truncate: a.truncate,
        ply: a.ply,
        seed: a.seed,
        luck: !a.no_luck,
        threads: a.threads,
        shard: a
            .split
            .shard
            .unwrap_or(crate::matchplay::shard::Shard::WHOLE),
    };
    let done = crate::rollout_shard::run(&job)?;
    write_json(&a.split.out, || done.to_json())?;
    for l in done.result_lines() {
        println!("{l}");
    }
    Ok(())
}

/// Runs `selfplay`: the baseline player of the variant against itself,
/// records written.
pub fn run_selfplay(a: SelfplayArgs) -> anyhow::Result<()> {
    let rules = parse_rules(a.variant, &a.rule).map_err(anyhow::Error::msg)?;
    let spec = |name: &str| EngineSpec {
        cmd: "builtin:heuristic".into(),
        name: name.into(),
        options: vec![("engine.ply".into(), a.ply.to_string())],
    };
    let cfg = MatchConfig {
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
        shard: a.shard.unwrap_or(crate::matchplay::shard::Shard::WHOLE),
    };
    let report = run_match(&cfg);
    print!("{}", report.to_text());
    println!("records in {}", a.records.display());
    Ok(())
}

/// The luck reference on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LuckEvalArg {
    /// The hand-written baseline evaluator.
    Baseline,
    /// The shipped network.
    Net,
}

/// Options of `train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Folder for the checkpoint, the best weights and the learning curve
    /// (an existing checkpoint there is resumed).
    #[arg(long, default_value = "training")]
    pub dir: PathBuf,
    /// Total self-play games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Hidden units.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.1)]
    pub rate_start: f32,
    /// Learning rate at the end.
    #[arg(long, default_value_t = 0.02)]
    pub rate_end: f32,
    /// The game at which the learning rate starts falling (default 0). To
    /// go on from a finished run with a new schedule, resume its folder
    /// with a larger --games, --rate-from at its games and the new rates.
    #[arg(long, default_value_t = 0)]
    pub rate_from: u64,
    /// Games between checkpoints and gates.
    #[arg(long, default_value_t = 5_000)]
    pub checkpoint_every: u64,
    /// Gate games against the baseline per checkpoint (0 = none).
    #[arg(long, default_value_t = 400)]
    pub gate_games: usize,
    /// Beam width for chains in self-play.
    #[arg(long, default_value_t = 4)]
    pub beam: usize,
    /// Stop after this many games (at a checkpoint); the learning-rate
    /// schedule still runs over --games, so a stopped run resumes as if never stopped.
    #[arg(long)]
    pub stop_after: Option<u64>,
    /// TD(λ)'s λ (0 = online TD(0), the method of the first shipped net).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f32,
    /// The game: gulbara, or backgammon / short_nardy (the hitting games'
    /// network, trained by TD(λ) with λ = --lambda, 0.7 if 0 is given).
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Gul bara's input layout for a fresh network: 1, 4 (layout 1 and
    /// each side's unplayable dice) or 5 (layout 4, each side's checkers
    /// that can step each die, and whether contact is over).
    #[arg(long, default_value_t = 1)]
    pub layout: u32,
}

/// Runs `train`.
pub fn run_train(a: TrainArgs) -> anyhow::Result<()> {
    let cfg = crate::train::TrainConfig {
        hidden: a.hidden,
        games: a.games,
        seed: a.seed,
        rate: (a.rate_start, a.rate_end),
        rate_from: a.rate_from,
        checkpoint_every: a.checkpoint_every.max(1),
        gate_games: a.gate_games,
        dir: a.dir,
        beam: a.beam.max(1),
        lambda: a.lambda.clamp(0.0, 1.0),
        stop_after: a.stop_after,
        progress: !a.no_progress,
        variant: a.variant,
        layout: a.layout,
    };
    match a.variant {
        Variant::GulBara | Variant::LongNardy => {
            crate::train::train(&cfg, &mut |line| eprintln!("{line}"))?;
        }
        v => {
            let cfg = crate::train::TrainConfig {
                lambda: if cfg.lambda > 0.0 { cfg.lambda } else { 0.7 },
                ..cfg
            };
            crate::train_hitting::train(&cfg, v, &mut |line| eprintln!("{line}"))?;
        }
    }
    Ok(())
}

/// Options of `refine`.
#[derive(Args, Debug)]
pub struct RefineArgs {
    /// Weights to refine: `shipped` or a file.
    #[arg(long, default_value = "shipped")]
    pub from: String,
    /// Folder for the checkpoint and the curve (an existing checkpoint
    /// there is resumed instead of starting from `--from`).
    #[arg(long, default_value = "refining")]
    pub dir: PathBuf,
    /// Self-play games whose positions are trained on.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.02)]
    pub rate_start: f32,
    /// Learning rate at the end.
    #[arg(long, default_value_t = 0.005)]
    pub rate_end: f32,
    /// Beam for chains in the self-play games.
    #[arg(long, default_value_t = 4)]
    pub beam: usize,
    /// Beam for chains inside the 1-ply targets.
    #[arg(long, default_value_t = 1)]
    pub inner_beam: usize,
    /// Ends of each doublet stage judged inside the 1-ply targets (0 = all).
    #[arg(long, default_value_t = 0)]
    pub inner_prefilter: usize,
    /// Weight of the game's λ-return (λ = 0.7) mixed into each 1-ply target.
    #[arg(long, default_value_t = 0.0)]
    pub mix: f32,
    /// Threads computing targets (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Games between checkpoints and gates.
    #[arg(long, default_value_t = 1_000)]
    pub checkpoint_every: u64,
    /// Gate games against the baseline per checkpoint (0 = none).
    #[arg(long, default_value_t = 0)]
    pub gate_games: usize,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs `refine`.
pub fn run_refine(a: RefineArgs) -> anyhow::Result<()> {
    let start = if a.from == "shipped" {
        crate::eval::net::Net::shipped()?
    } else {
        crate::eval::net::Net::from_bytes(&std::fs::read(&a.from)?)?
    };
    // Refinement reads layout 1's inputs: Gul bara's first network only.
    anyhow::ensure!(
        start.layout == crate::eval::net::LAYOUT_VERSION,
        "refine works on Gul bara networks of input layout 1; {} has layout {}",
        a.from,
        start.layout
    );
    let cfg = crate::refine::RefineConfig {
        games: a.games,
        seed: a.seed,
        rate: (a.rate_start, a.rate_end),
        beam: a.beam.max(1),
        inner_beam: a.inner_beam.max(1),
        inner_prefilter: a.inner_prefilter,
        mix: a.mix.clamp(0.0, 1.0),
        threads: a.threads.max(1),
        checkpoint_every: a.checkpoint_every.max(1),
        gate_games: a.gate_games,
        dir: a.dir,
        progress: !a.no_progress,
    };
    crate::refine::refine(start, &cfg, &mut |line| eprintln!("{line}"))?;
    Ok(())
}

/// Options of `gnubg-external`.
#[derive(Args, Debug)]
pub struct GnubgExternalArgs {
    /// Address to listen on: `HOST:PORT` (loopback by default; port 0 picks
    /// a free one, printed on stderr), or a Unix socket path. gnubg connects
    /// with `set player N external ADDRESS`.
    #[arg(long, default_value = "127.0.0.1:7668")]
    pub listen: crate::gnubg::external::ListenAddr,
    /// The game: backgammon or short_nardy.
    #[arg(long, default_value = "backgammon")]
    pub variant: Variant,
    /// A protocol setting `KEY=VALUE` applied as `set KEY VALUE` (repeatable),
    /// e.g. `--set engine.ply=2`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Runs `gnubg-external`: answers gnubg's decisions, one connection at a time.
pub fn run_gnubg_external(a: GnubgExternalArgs) -> anyhow::Result<()> {
    let mut settings = Vec::new();
    for kv in &a.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--set {kv}: expected KEY=VALUE"))?;
        settings.push((k.trim().to_string(), v.trim().to_string()));
    }
    let bridge = crate::gnubg::external::Bridge::new(a.variant, &settings)
        .map_err(|e| anyhow::anyhow!("gnubg-external: {e}"))?;
    crate::gnubg::external::serve(a.listen, bridge)
}
