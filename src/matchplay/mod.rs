//! Engine-vs-engine matches: mirrored dice pairs, a referee built on the
//! rules core, forfeits for crashes, timeouts and illegal moves, luck
//! adjustment, SPRT, records, and the result rates a match equity table is
//! made from ([`met_rates`]).

pub mod builtin;
pub mod engine;
pub mod met_rates;
mod records;
pub mod report;
pub mod resume;
pub mod rule_args;
mod seating;
pub mod sessions;
pub mod shard;
pub mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use crate::eval::Evaluator;
use crate::notation::apply_turn;
use crate::record::{Record, RecordedGame, game_tags, write_record};
use crate::rules::{EvalFamily, GameState, RuleOptions, Variant};
use crate::search::Search;
use crate::sharding::pair_seed;
use engine::{EngineError, EngineSpec};
use seating::{Seating, Seats, play_seating, start_player};
use sessions::{CubeCounts, MatchResult, MatchTally, SessionSpec};
use stats::{Sprt, SprtState, mean_se};

use records::{MAX_RECORD_ERRORS, RecordWriteError, write_records};
pub use report::{GameOutcome, GameSummary, MatchReport, PairOutcome};
pub use resume::{Resume, ResumeError, resume_of};
pub use rule_args::{RuleArgError, parse_rules, rule_settings};

/// The evaluator that judges luck (at 0-ply, chains planned with a beam of 4).
/// `Net` is Gul bara's network; in the other games both choices judge with
/// the variant's hand-written baseline, a yardstick that stays put when a
/// game's network is retrained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LuckReference {
    /// The hand-written baseline evaluator.
    Baseline,
    /// The shipped network.
    #[default]
    Net,
}

impl LuckReference {
    /// The evaluator itself, for games of `variant`.
    pub fn evaluator(self, variant: Variant) -> std::sync::Arc<dyn Evaluator + Send + Sync> {
        if variant.spec().eval != EvalFamily::GulBara {
            return crate::eval::variants::baseline_shared(variant);
        }
        // All-home races are judged from the bear-off tables, as in play.
        match self {
            LuckReference::Baseline => crate::eval::variants::baseline_shared(variant),
            LuckReference::Net => {
                let shipped = crate::engine::Weights::Shipped;
                match crate::engine::load_net(variant, &shipped, &Default::default()) {
                    Ok(net) => net.evaluator(),
                    // The shipped weights are checked by the tests; should
                    // they ever fail to load, luck is judged by the baseline,
                    // and the log says so.
                    Err(e) => {
                        tracing::error!(error = %e, "the shipped network does not load; luck judged by the baseline");
                        crate::eval::variants::baseline_shared(variant)
                    }
                }
            }
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; the first is the one whose ppg is reported.
    pub engines: [EngineSpec; 2],
    /// Games to play (rounded up to whole mirrored pairs).
    pub games: usize,
    /// Seed of the whole match.
    pub seed: u64,
    /// Games played at once (pairs are the unit of work).
    pub jobs: usize,
    /// Time an engine has for one decision.
    pub move_timeout: Duration,
    /// The rules, the game played (`rules.variant`) among them, applied by
    /// the referee and sent to both engines.
    pub rules: RuleOptions,
    /// Report a luck-adjusted ppg as well.
    pub luck_adjust: bool,
    /// The evaluator that judges the luck of each roll.
    pub luck_reference: LuckReference,
    /// Stop early by SPRT.
    pub sprt: Option<Sprt>,
    /// Write one record per game here.
    pub records: Option<PathBuf>,
    /// Keep this shard file ([`shard::MatchShard`]) as the match goes:
    /// rewritten (atomically) after the first complete pair, then at most
    /// every [`OUT_EVERY`] (more seldom for a large file:
    /// [`OUT_COST_FACTOR`], [`OUT_BYTES_PER_SECOND`]), marked partial, so
    /// that a run stopped early leaves the pairs it finished for `gulbara
    /// merge` and `match --resume` ([`run_match_from`]). The whole file is
    /// the caller's to write at the end ([`shard_of`]).
    pub out: Option<PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// The pairs this process plays (all of them unless sharded).
    pub shard: crate::sharding::Shard,
    /// What a pair is: two money games, or two matches (seats swapped,
    /// game k of both on the same dice); with or without the cube.
    pub session: SessionSpec,
    /// A rotating match (`--rotation`): game k of each match is played under
    /// `rotation[k % len]` (Tavli's Portes, Plakoto, Fevga; Bulgaria's Tabla,
    /// Tapa, Gul bara). Empty: every game under `rules`.
    pub rotation: Vec<RuleOptions>,
    /// In a match, the winner of each game starts the next, rolling both
    /// dice with no opening throw (tavli's and tabla's rule); otherwise
    /// every game opens with the opening throw.
    pub winner_starts: bool,
}

impl MatchConfig {
    /// The rules of game `k` (from 0) of a match.
    pub fn game_rules(&self, k: u32) -> RuleOptions {
        if self.rotation.is_empty() {
            self.rules
        } else {
            self.rotation[k as usize % self.rotation.len()]
        }
    }

    /// The rotation's games, in order (empty without one).
    pub fn rotation_variants(&self) -> Vec<Variant> {
        self.rotation.iter().map(|r| r.variant).collect()
    }

    /// How many mirrored pairs this run's shard owns (of the match's
    /// `games`, two to a pair, at least one pair).
    pub fn owned_pairs(&self) -> usize {
        self.shard.units(self.games.div_ceil(2).max(1)).count()
    }
}

impl MatchConfig {
    /// A quiet match of `engines` under `rules` for in-process uses (the
    /// training gate, table generation): cubeless money games, a minute per
    /// decision, no luck adjustment, SPRT, records or progress bar, the
    /// whole match in this process.
    pub fn quiet(
        engines: [EngineSpec; 2],
        rules: RuleOptions,
        games: usize,
        seed: u64,
        jobs: usize,
    ) -> MatchConfig {
        MatchConfig {
            engines,
            games,
            seed,
            jobs,
            move_timeout: Duration::from_secs(60),
            rules,
            luck_adjust: false,
            luck_reference: LuckReference::default(),
            sprt: None,
            records: None,
            progress: false,
            out: None,
            shard: crate::sharding::Shard::WHOLE,
            session: SessionSpec::cubeless(),
            rotation: Vec::new(),
            winner_starts: false,
        }
    }
}

/// Plays the side to move's turn from `start` (a stage pending) with the
/// engine's words: they must make up exactly that turn.
pub fn referee_turn(
    start: &GameState,
    opts: &RuleOptions,
    words: &[String],
) -> Result<GameState, crate::notation::TurnWordsError> {
    let toks: Vec<&str> = words.iter().map(String::as_str).collect();
    apply_turn(start, opts, &toks)
}

/// Luck of rolling `roll` in `state` (side to move about to roll), for the
/// roller: its best 0-ply turn's equity minus the average over all rolls.
pub fn roll_luck(
    reference: &dyn Evaluator,
    state: &GameState,
    opts: &RuleOptions,
    roll: (u8, u8),
) -> f64 {
    let stop = AtomicBool::new(false);
    let search = Search::new(reference, *opts, &stop);
    let mut avg = 0.0;
    let mut actual = 0.0;
    for o in search.roll_outcomes(state, 4, 0) {
        let v = f64::from(o.probs.equity());
        avg += v * f64::from(o.weight) / 36.0;
        if o.is(roll) {
            actual = v;
        }
    }
    actual - avg
}

/// A builtin engine that cannot be set up for the match.
#[derive(Debug, thiserror::Error)]
#[error("engine {name}: {cause}")]
pub struct BuiltinSetupError {
    /// The engine's name in the match.
    pub name: String,
    /// Why it cannot start. Kept as a field, not as the error's source:
    /// an [`EngineError`]'s message already carries its own sources, and a
    /// chain would print each of them again.
    pub cause: EngineError,
}

/// Sets up each builtin engine once under every rule set the match plays,
/// before any game: its settings and weights are the same for every game,
/// so an error there would only forfeit them all. External engines are not
/// started here; one that fails in a game forfeits it, as before.
pub fn check_builtins(cfg: &MatchConfig) -> Result<(), BuiltinSetupError> {
    let games = cfg.rotation.len().max(1) as u32;
    for i in 0..2 {
        if !cfg.engines[i].cmd.starts_with("builtin:") {
            continue;
        }
        for k in 0..games {
            start_player(cfg, i, &cfg.game_rules(k)).map_err(|cause| BuiltinSetupError {
                name: cfg.engines[i].name.clone(),
                cause,
            })?;
        }
    }
    Ok(())
}

/// How often at most a match rewrites its `--out` file as it goes
/// ([`MatchConfig::out`]).
pub const OUT_EVERY: Duration = Duration::from_secs(1);

/// After writing its `--out` file as it goes, a match waits at least this
/// many times as long as the write took before the next (and at least
/// [`OUT_EVERY`]): the writes of a large shard take at most about 1/20 of
/// the time of the thread that tallies the pairs.
pub const OUT_COST_FACTOR: u32 = 20;

/// ... and at least as long as the file's bytes take at this rate: the
/// writes of a large shard add up to at most about a MiB a second (a
/// 40,000-game shard's 6.5 MB file is written every 6 s or so near its
/// end, not every second).
pub const OUT_BYTES_PER_SECOND: u64 = 1 << 20;

/// Plays a match.
pub fn run_match(cfg: &MatchConfig) -> MatchReport {
    run_match_from(cfg, Vec::new())
}

/// Plays the rest of a match whose pairs `done` were played before (read
/// from a stopped run's `--out` file, [`resume_of`]): the pairs of
/// `cfg.shard` not among them, each on the dice it always has, and reports
/// them all, as if the match had been played in one go. Meant without an
/// SPRT (`cfg.sprt`): its stop depends on the order the pairs finish in,
/// and the pairs of `done` would come to it first, in pair order.
pub fn run_match_from(cfg: &MatchConfig, done: Vec<PairOutcome>) -> MatchReport {
    let pairs = cfg.games.div_ceil(2).max(1);
    let played: std::collections::BTreeSet<usize> = done.iter().map(|p| p.pair).collect();
    let owned: Vec<usize> = cfg
        .shard
        .units(pairs)
        .filter(|i| !played.contains(i))
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Seating>();
    let bar = progress_bar(cfg, owned.len() + done.len());
    bar.inc(2 * done.len() as u64);
    let mut tally = Tally::default();
    for p in done {
        // The progress bar's wins: each seating's game or match.
        let winners: Vec<usize> = if p.matches.is_empty() {
            p.games
                .iter()
                .filter_map(|g| g.winner.map(|(w, _)| w))
                .collect()
        } else {
            p.matches.iter().filter_map(|m| m.winner).collect()
        };
        for w in winners {
            tally.wins[w] += 1;
        }
        tally.add_pair(cfg, p);
    }
    if let Some(dir) = &cfg.records
        && let Err(source) = std::fs::create_dir_all(dir)
    {
        let e = RecordWriteError {
            path: dir.clone(),
            source,
        };
        tally.record_errors.push(e.to_string());
    }
    std::thread::scope(|sc| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop, owned) = (&next, &stop, &owned);
            sc.spawn(move || play_pairs(cfg, owned, next, stop, &tx));
        }
        drop(tx);
        for seating in rx {
            tally.take(cfg, seating, &stop);
            let (m, se) = mean_se(&tally.pair_points);
            bar.set_message(format!(
                "{} {}-{} {}  ppg {:+.3} ± {:.3}",
                cfg.engines[0].name, tally.wins[0], tally.wins[1], cfg.engines[1].name, m, se
            ));
            bar.inc(1);
        }
        bar.finish_and_clear();
    });
    tally.report(cfg)
}

/// The progress bar of a run of `seatings` pairs (hidden without
/// `--progress`).
fn progress_bar(cfg: &MatchConfig, pairs: usize) -> indicatif::ProgressBar {
    if !cfg.progress {
        return indicatif::ProgressBar::hidden();
    }
    let unit = if cfg.session.match_length().is_some() {
        "matches"
    } else {
        "games"
    };
    let b = indicatif::ProgressBar::new((pairs * 2) as u64);
    b.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed_precise}}<{{eta_precise}}]"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    b
}

/// One worker thread: takes the next of the `owned` pairs until none is
/// left or `stop` is set, and sends both seatings of each.
fn play_pairs(
    cfg: &MatchConfig,
    owned: &[usize],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &Sender<Seating>,
) {
    let mut seats = Seats {
        cfg,
        engines: [None, None],
        started: [None, None],
    };
    'pairs: loop {
        let k = next.fetch_add(1, Ordering::SeqCst);
        let Some(&i) = owned.get(k) else {
            break;
        };
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let seed = pair_seed(cfg.seed, i);
        for white in [0, 1] {
            let seating = play_seating(&mut seats, i, white, seed);
            if tx.send(seating).is_err() {
                break 'pairs;
            }
        }
    }
    for e in 0..2 {
        seats.drop_engine(e);
    }
}

/// What the seatings of a run add up to, as they come in.
#[derive(Default)]
struct Tally {
    /// Seatings of pairs not finished yet.
    by_pair: std::collections::BTreeMap<usize, Vec<Seating>>,
    /// Finished pairs.
    done: Vec<PairOutcome>,
    /// Running figures for the progress bar and the SPRT (in the order
    /// the pairs finish); the report itself is tallied at the end.
    pair_points: Vec<f64>,
    wins: [u32; 2],
    sprt_state: Option<SprtState>,
    record_errors: Vec<String>,
    /// The texts of the finished pairs, by pair, for the `--out` file.
    texts: std::collections::BTreeMap<usize, shard::PairJson>,
    /// When the `--out` file was last written as the match went, and how
    /// long the next write waits.
    out_written: Option<(std::time::Instant, Duration)>,
}

impl Tally {
    /// Takes one seating: writes its records, and when its pair is
    /// complete adds the pair and asks the SPRT (setting `stop` when it
    /// has decided).
    fn take(&mut self, cfg: &MatchConfig, seating: Seating, stop: &AtomicBool) {
        let won = match seating.result {
            Some(m) => m.winner,
            None => seating
                .games
                .iter()
                .find_map(|g| g.summary.winner.map(|(w, _)| w)),
        };
        if let Some(w) = won {
            self.wins[w] += 1;
        }
        if let Some(dir) = &cfg.records
            && let Err(e) = write_records(cfg, dir, &seating)
        {
            tracing::error!(error = %e, "record not written");
            if self.record_errors.len() < MAX_RECORD_ERRORS {
                self.record_errors.push(e.to_string());
            }
        }
        let pair = seating.pair;
        let entry = self.by_pair.entry(pair).or_default();
        entry.push(seating);
        if entry.len() < 2 {
            return;
        }
        entry.sort_by_key(|s| s.white_engine);
        let games: Vec<GameSummary> = entry
            .iter()
            .flat_map(|s| s.games.iter().map(GameOutcome::result))
            .collect();
        let done = PairOutcome {
            pair,
            dice_seed: entry[0].dice_seed,
            games,
            matches: entry.iter().filter_map(|s| s.result).collect(),
        };
        self.by_pair.remove(&pair);
        self.add_pair(cfg, done);
        self.write_out(cfg);
        if let Some(s) = &cfg.sprt {
            let st = s.state(&self.pair_points);
            if st != SprtState::Continue {
                self.sprt_state = Some(st);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Adds a finished pair (its points for the progress bar and the
    /// SPRT, its text for the `--out` file).
    fn add_pair(&mut self, cfg: &MatchConfig, pair: PairOutcome) {
        let n = pair.games.len().max(1) as f64;
        self.pair_points
            .push(pair.games.iter().map(|g| f64::from(g.points)).sum::<f64>() / n);
        if cfg.out.is_some() {
            self.texts.insert(pair.pair, shard::PairJson::of(&pair));
        }
        self.done.push(pair);
    }

    /// Rewrites the `--out` file with the pairs finished so far, unless
    /// the last write was less than [`OUT_EVERY`] ago, or than
    /// [`OUT_COST_FACTOR`] times as long as that write took, or than its
    /// bytes take at [`OUT_BYTES_PER_SECOND`]. A file that cannot be
    /// written is logged; the run goes on (the file at the end says it).
    fn write_out(&mut self, cfg: &MatchConfig) {
        let Some(out) = &cfg.out else {
            return;
        };
        if let Some((at, gap)) = self.out_written
            && at.elapsed() < gap
        {
            return;
        }
        let start = std::time::Instant::now();
        let file = shard_with(cfg, Vec::new());
        let partial = self.texts.len() < cfg.owned_pairs();
        let text = shard::shard_json(&file.key, file.shard, partial, self.texts.values()) + "\n";
        if let Err(e) = crate::sharding::write_atomically(out, text.as_bytes()) {
            tracing::error!(error = %e, file = %out.display(), "match file not written");
        }
        let took = start.elapsed();
        tracing::debug!(
            pairs = self.texts.len(),
            bytes = text.len(),
            micros = took.as_micros() as u64,
            "match file written"
        );
        let by_size = Duration::from_secs_f64(text.len() as f64 / OUT_BYTES_PER_SECOND as f64);
        let gap = OUT_EVERY.max(took * OUT_COST_FACTOR).max(by_size);
        self.out_written = Some((std::time::Instant::now(), gap));
    }

    /// The report of the finished run.
    fn report(mut self, cfg: &MatchConfig) -> MatchReport {
        self.done.sort_by_key(|p| p.pair);
        let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
        let mut report = MatchReport::tally(
            names,
            cfg.rules.variant,
            cfg.session,
            &self.done,
            cfg.luck_adjust,
        );
        report.sprt = self.sprt_state;
        report.record_errors = self.record_errors;
        report.rotation = cfg.rotation_variants();
        report.winner_starts = cfg.winner_starts && cfg.session.match_length().is_some();
        if cfg.sprt.is_some() && report.sprt.is_none() {
            report.sprt = Some(SprtState::Continue);
        }
        report
    }
}

/// The shard file of a finished run of `cfg` (its key, shard and pairs):
/// partial when the run stopped before its last pair (an SPRT decided).
pub fn shard_of(cfg: &MatchConfig, report: &MatchReport) -> shard::MatchShard {
    shard_with(cfg, report.pairs.clone())
}

/// The shard file of `cfg` holding `pairs` (in pair order): partial when
/// they are fewer than the shard's.
pub(crate) fn shard_with(cfg: &MatchConfig, pairs: Vec<PairOutcome>) -> shard::MatchShard {
    let owned = cfg.owned_pairs();
    shard::MatchShard {
        partial: pairs.len() < owned,
        key: shard::MatchKey {
            names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
            variant: cfg.rules.variant,
            // A rotation is part of what was played: shards of another
            // rotation do not merge.
            rules: rule_settings(&cfg.rules)
                .into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .chain(
                    (!cfg.rotation.is_empty()).then(|| {
                        format!("rotation={}", Variant::list_text(&cfg.rotation_variants()))
                    }),
                )
                .chain(cfg.winner_starts.then(|| "next_starter=winner".to_string()))
                .collect(),
            seed: cfg.seed,
            games: cfg.games,
            luck_adjust: cfg.luck_adjust,
            session: cfg.session,
            options: Some(
                cfg.engines
                    .each_ref()
                    .map(|e| e.options.iter().map(|(k, v)| format!("{k}={v}")).collect()),
            ),
        },
        shard: cfg.shard,
        pairs,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod match_tests;
