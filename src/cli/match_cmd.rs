//! `gulbara match`: a match between two engines, mirrored dice pairs.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{ArgAction, Args, ValueEnum};

use super::{LuckEvalArg, SplitArgs, print_report, write_json};
use crate::cube::{MatchState, SessionRules, SessionSpec};
use crate::matchplay::engine::EngineSpec;
use crate::matchplay::stats::Sprt;
use crate::matchplay::{
    MatchConfig, Resume, check_builtins, parse_rules, resume_of, run_match_from,
};
use crate::rules::Variant;

/// Options of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine, cutechess style: `cmd=<command line>|tcp://host:port|builtin:heuristic|builtin:random [name=<label>] [option.<key>=<value> ...]`. Give it twice.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, required = true)]
    pub engine: Vec<String>,
    /// Games to play, in mirrored pairs (an odd number is rounded up);
    /// with --match-to, matches to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Play matches to this many points (1-99): each pair is two matches,
    /// seats swapped, whose k-th games are played on the same dice. The
    /// report gives the matches won ± standard error.
    #[arg(long, value_name = "N")]
    pub match_to: Option<u32>,
    /// The doubling cube. Off by default in money play (so that ppg stays
    /// comparable with cubeless runs); in matches, the game's own default
    /// (on in backgammon, off in Gul bara and the nardy games).
    #[arg(long, value_enum)]
    pub cube: Option<OnOff>,
    /// Money play with the cube: the Jacoby rule (gammons count single
    /// until the cube is turned).
    #[arg(long)]
    pub jacoby: bool,
    /// Money play with the cube: beavers allowed.
    #[arg(long)]
    pub beavers: bool,
    /// Matches: the Crawford rule (on by default).
    #[arg(long, value_enum, default_value = "on")]
    pub crawford: OnOff,
    /// Seed of the whole match (dice of every pair).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    pub jobs: usize,
    /// Milliseconds an engine has for one decision before it forfeits.
    #[arg(long, default_value_t = 30_000)]
    pub timeout_ms: u64,
    /// The game played: gulbara, long_nardy, short_nardy, backgammon,
    /// fevga, portes, tabla, plakoto or tapa. The
    /// referee plays it and both engines are told it (`set game.variant`,
    /// before the `rules.*` options); --rule takes that game's options.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// A rule option `name=value` for the referee and both engines (repeatable).
    #[arg(long = "rule")]
    pub rule: Vec<String>,
    /// A rotating match (with --match-to): its games, in order, each played
    /// under its own default rules: `portes,plakoto,fevga` (Greek tavli) or
    /// `tabla,tapa,gulbara` (Bulgarian tabla). Game k of a match is the
    /// (k mod n)-th of the list.
    #[arg(long, value_delimiter = ',', value_name = "GAME,GAME,...")]
    pub rotation: Vec<Variant>,
    /// Who starts each game of a match after the first: `winner`, the
    /// winner of the game before, rolling both dice with no opening throw
    /// (the rule of tavli and tabla); `throw`, an opening throw every game.
    /// The default is `winner` with --rotation, `throw` otherwise.
    #[arg(long, value_enum, value_name = "winner|throw")]
    pub next_starter: Option<NextStarterArg>,
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
    /// Go on with the match of the --out FILE a stopped run left: its
    /// pairs are kept and only the others are played, each on the dice it
    /// always has, so the finished file is the one an uninterrupted run
    /// writes. The file must be of this same match (engine names, game,
    /// rules, seed, games, luck adjustment, session, shard), else the run
    /// is refused. A file with every pair is not played again (its report
    /// is printed); no file starts the match afresh. Not with --sprt.
    #[arg(long, requires = "out")]
    pub resume: bool,
    #[command(flatten)]
    pub split: SplitArgs,
}

/// On or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    /// On.
    On,
    /// Off.
    Off,
}

/// The session of the match's pairs from the command line.
fn session_of(a: &MatchArgs, variant: Variant) -> anyhow::Result<SessionSpec> {
    let in_match = a.match_to.is_some();
    if in_match && (a.jacoby || a.beavers) {
        bail!("--jacoby and --beavers are rules of money play, not of matches (--match-to)");
    }
    let cube = match a.cube {
        Some(c) => c == OnOff::On,
        None => in_match && variant.spec().cube,
    };
    if !cube && (a.jacoby || a.beavers) {
        bail!("--jacoby and --beavers need the cube (--cube on)");
    }
    let rules = SessionRules {
        cube,
        jacoby: a.jacoby,
        beavers: a.beavers,
        crawford: a.crawford == OnOff::On,
    };
    Ok(SessionSpec(match a.match_to {
        None => MatchState::money(rules),
        Some(n) => MatchState::match_to(n, rules)?,
    }))
}

/// Runs `match`.
pub fn run(mut a: MatchArgs) -> anyhow::Result<()> {
    // Every `cmd=` word starts the next engine's words.
    let mut groups: Vec<Vec<String>> = Vec::new();
    for w in std::mem::take(&mut a.engine) {
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
    if !a.rotation.is_empty() {
        if a.match_to.is_none() {
            bail!("--rotation plays matches: give --match-to N");
        }
        if !a.rule.is_empty() {
            bail!("--rotation plays each game under its default rules: --rule does not apply");
        }
        if a.rotation.len() > 16 {
            bail!("--rotation takes at most 16 games");
        }
        a.variant = a.rotation[0];
    }
    let winner_starts = match a.next_starter {
        Some(NextStarterArg::Winner) => {
            if a.match_to.is_none() {
                bail!("--next-starter winner is a rule of matches: give --match-to N");
            }
            true
        }
        Some(NextStarterArg::Throw) => false,
        None => !a.rotation.is_empty(),
    };
    let rules = parse_rules(a.variant, &a.rule)?;
    let rotation: Vec<crate::rules::RuleOptions> = a
        .rotation
        .iter()
        .map(|&v| crate::rules::RuleOptions::for_variant(v))
        .collect();
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let shard = a.split.shard.unwrap_or(crate::sharding::Shard::WHOLE);
    if sprt.is_some() && shard.count > 1 {
        bail!("--sprt needs the whole match: it cannot stop a sharded one");
    }
    let session = session_of(&a, rules.variant)?;
    if sprt.is_some() && session.match_length().is_some() {
        bail!("--sprt tests points per game: it does not stop matches (--match-to)");
    }
    let cfg = MatchConfig {
        session,
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
        out: a.split.out.clone(),
        progress: !a.no_progress,
        shard,
        rotation,
        winner_starts,
    };
    if a.resume && cfg.sprt.is_some() {
        bail!(
            "--resume plays the pairs a stopped run lacks: --sprt, whose stop depends on the order pairs finish in, cannot go on"
        );
    }
    let done = match (&cfg.out, a.resume) {
        (Some(out), true) => {
            let name = out.display().to_string();
            let text = super::read_shard_text(out)?;
            match resume_of(&cfg, &name, text.as_deref())? {
                Resume::Fresh => Vec::new(),
                Resume::Partial(pairs) => {
                    eprintln!(
                        "resuming {name}: {} of its {} pairs are there",
                        pairs.len(),
                        cfg.owned_pairs()
                    );
                    pairs
                }
                Resume::Finished(whole) => {
                    eprintln!("{name} has every pair: nothing to play (its report follows)");
                    let report = crate::matchplay::shard::report_of(&whole);
                    print_report(&report, a.json);
                    return Ok(());
                }
            }
        }
        _ => Vec::new(),
    };
    check_builtins(&cfg)?;
    let report = run_match_from(&cfg, done);
    write_json(&a.split.out, || {
        crate::matchplay::shard_of(&cfg, &report).to_json()
    })?;
    print_report(&report, a.json);
    if let Some(first) = report.record_errors.first() {
        bail!(
            "records not written ({} file(s) or more); the first: {first}",
            report.record_errors.len()
        );
    }
    Ok(())
}

/// Who starts each game of a match after the first (`--next-starter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NextStarterArg {
    /// The winner of the game before, with no opening throw.
    Winner,
    /// The opening throw, every game.
    Throw,
}
