//! Engine-vs-engine matches: mirrored dice pairs, a referee built on the
//! rules core, forfeits for crashes, timeouts and illegal moves, luck
//! adjustment, SPRT, records, and the result rates a match equity table is
//! made from ([`met_rates`]).

pub mod builtin;
pub mod engine;
pub mod met_rates;
mod records;
pub mod report;
pub mod rule_args;
pub mod sessions;
pub mod shard;
pub mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::cube::CubeAnswer;
use crate::eval::Evaluator;
use crate::game::{
    self, CubeRequest, Forfeit, ForfeitReason, GameObserver, Player, PlayerFault, Turn, TurnRequest,
};
use crate::notation::{apply_turn, move_token_text, state_text};
use crate::record::{Record, RecordedGame, RecordedTurn, game_tags, write_record};
use crate::rules::dice::{GameStart, SeededDice};
use crate::rules::{EvalFamily, GameState, RuleOptions, Side, Variant};
use crate::search::Search;
use crate::sharding::pair_seed;
use builtin::Builtin;
use engine::{EngineError, EngineSpec, ExternalEngine, TextPlayer};
use sessions::{CubeCounts, MatchResult, MatchTally, SessionSpec};
use stats::{Sprt, SprtState, mean_se};

use records::{MAX_RECORD_ERRORS, write_records};
pub use report::{GameOutcome, GameSummary, MatchReport, PairOutcome};
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

/// The engines one worker thread plays with, started when first needed.
struct Seats<'a> {
    cfg: &'a MatchConfig,
    engines: [Option<Box<dyn Player>>; 2],
    /// The rules each engine was started with (a rotating match starts it
    /// anew for a game of another rule set).
    started: [Option<RuleOptions>; 2],
}

impl Seats<'_> {
    fn drop_engine(&mut self, i: usize) {
        if let Some(mut e) = self.engines[i].take() {
            e.quit();
        }
        self.started[i] = None;
    }
}

/// Starts engine `i` of the match: a builtin player or an external engine.
fn start_player(
    cfg: &MatchConfig,
    i: usize,
    rules: &RuleOptions,
) -> Result<Box<dyn Player>, EngineError> {
    let extra = rule_settings(rules);
    let spec = &cfg.engines[i];
    Ok(if let Some(kind) = spec.cmd.strip_prefix("builtin:") {
        let mut all = spec.options.clone();
        all.extend(extra);
        Box::new(Builtin::new(kind, &all)?)
    } else {
        let engine =
            ExternalEngine::start(spec, &extra, cfg.move_timeout.max(Duration::from_secs(10)))?;
        Box::new(TextPlayer::new(engine, cfg.move_timeout))
    })
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

/// One seat of a game: engine `index`, started on its first turn and
/// dropped when it fails (the next game starts it anew).
struct Seat<'a> {
    cfg: &'a MatchConfig,
    index: usize,
    slot: &'a mut Option<Box<dyn Player>>,
    /// The game's rules, and those the seated player was started with.
    rules: RuleOptions,
    started: &'a mut Option<RuleOptions>,
}

impl Seat<'_> {
    /// Asks the seated player, starting it first if need be; a player that
    /// fails is dropped (the next game starts it anew).
    fn ask<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Player) -> Result<T, PlayerFault>,
    ) -> Result<T, PlayerFault> {
        if *self.started != Some(self.rules)
            && let Some(mut p) = self.slot.take()
        {
            p.quit();
        }
        if self.slot.is_none() {
            let started = start_player(self.cfg, self.index, &self.rules)
                .map_err(|e| PlayerFault::Failed(Box::new(e)))?;
            *self.slot = Some(started);
            *self.started = Some(self.rules);
        }
        let Some(player) = self.slot.as_mut() else {
            return Err(PlayerFault::Failed(Box::new(EngineError::Closed)));
        };
        let answer = f(player.as_mut());
        if matches!(answer, Err(PlayerFault::Failed(_)))
            && let Some(mut p) = self.slot.take()
        {
            p.quit();
        }
        answer
    }
}

impl Player for Seat<'_> {
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        self.ask(|p| p.play_turn(ask))
    }

    fn offer_double(&mut self, ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
        self.ask(|p| p.offer_double(ask))
    }

    fn answer_double(&mut self, ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
        self.ask(|p| p.answer_double(ask))
    }
}

/// Sums each engine's luck over its rolls.
struct LuckWatch<'a> {
    reference: Option<std::sync::Arc<dyn Evaluator + Send + Sync>>,
    opts: &'a RuleOptions,
    white_engine: usize,
    luck: [f64; 2],
}

impl GameObserver for LuckWatch<'_> {
    fn rolled(&mut self, before: &GameState, roll: (u8, u8)) {
        if let Some(reference) = &self.reference {
            let who = if before.to_move == Side::White {
                self.white_engine
            } else {
                1 - self.white_engine
            };
            self.luck[who] += roll_luck(reference.as_ref(), before, self.opts, roll);
        }
    }
}

/// The text of a forfeit by engine `who`.
fn forfeit_text(cfg: &MatchConfig, who: usize, f: &Forfeit) -> String {
    let name = &cfg.engines[who].name;
    match &f.reason {
        ForfeitReason::Player(fault) => format!("{name}: {fault}"),
        ForfeitReason::IllegalAnswer { .. } => format!("{name}: {}", f.reason),
        ForfeitReason::IllegalTurn { turn, error } => {
            let words: Vec<String> = turn.moves.iter().map(|&m| move_token_text(m)).collect();
            format!(
                "{name}: illegal move 'bestmove {}' in {}{}: {error}",
                words.join(" "),
                state_text(&f.before),
                f.roll
                    .map(|(a, b)| format!(" dice {a}{b}"))
                    .unwrap_or_default()
            )
        }
    }
}

/// Plays one game with dice from `dice_seed`, `white_engine` playing White,
/// in `session` (its score and cube at the start).
fn play_game(
    seats: &mut Seats,
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
    session: &crate::cube::MatchState,
    opts: RuleOptions,
    start: GameStart,
) -> GameOutcome {
    let cfg = seats.cfg;
    let engine_of = |s: Side| {
        if s == Side::White {
            white_engine
        } else {
            1 - white_engine
        }
    };
    let mut watch = LuckWatch {
        reference: cfg
            .luck_adjust
            .then(|| cfg.luck_reference.evaluator(opts.variant)),
        opts: &opts,
        white_engine,
        luck: [0.0; 2],
    };
    let [slot0, slot1] = &mut seats.engines;
    let [started0, started1] = &mut seats.started;
    let mut seat0 = Seat {
        cfg,
        index: 0,
        slot: slot0,
        rules: opts,
        started: started0,
    };
    let mut seat1 = Seat {
        cfg,
        index: 1,
        slot: slot1,
        rules: opts,
        started: started1,
    };
    let players: [&mut dyn Player; 2] = if white_engine == 0 {
        [&mut seat0, &mut seat1]
    } else {
        [&mut seat1, &mut seat0]
    };
    let g = game::play_started_game(
        &opts,
        session,
        start,
        &mut SeededDice::new(dice_seed),
        players,
        &mut watch,
    );
    let forfeit = g.forfeit.as_ref().map(|f| {
        let who = engine_of(f.side);
        (who, forfeit_text(cfg, who, f))
    });
    let names = [
        cfg.engines[white_engine].name.clone(),
        cfg.engines[1 - white_engine].name.clone(),
    ];
    let signed = |w: usize, p: u32| {
        let p = i32::try_from(p).unwrap_or(i32::MAX);
        if w == 0 { p } else { -p }
    };
    let (result, points, winner, result_points) = match (&forfeit, g.scored()) {
        // A forfeit loses the game at the cube's value.
        (Some((f, _)), _) => {
            let w = 1 - *f;
            (None, signed(w, g.session.cube()), Some((w, false)), 0)
        }
        (None, Some((side, scored))) => {
            let w = engine_of(side);
            let r = g.result;
            let result_points = if g.dropped { 0 } else { r.points };
            (
                (!g.dropped).then_some(r),
                signed(w, scored),
                Some((w, result_points >= 2)),
                result_points,
            )
        }
        (None, None) => (g.final_state.result(), 0, None, 0),
    };
    let by_side = CubeCounts::of_game(&g);
    let mut cube = [CubeCounts::default(); 2];
    cube[white_engine] = by_side[0];
    cube[1 - white_engine] = by_side[1];
    GameOutcome {
        pair,
        summary: GameSummary {
            white_engine,
            points,
            winner,
            forfeit: forfeit.clone(),
            luck: watch.luck,
            cube,
            result_points,
        },
        record: RecordedGame {
            players: names,
            opening: g.openings.last().copied(),
            starter: g.starter,
            turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
            result,
            note: forfeit.map(|(_, why)| format!("forfeit: {why}")),
            cube: crate::record::GameCube {
                score: crate::record::GameScore::of(session),
                dropped_by: g.dropped.then_some(g.final_state.to_move),
                scored: g.scored().map(|(_, p)| p),
            },
        },
        dice_seed,
    }
}

/// The most games a match may take before it is cut off unfinished (a
/// run of stuck games could otherwise go on without end).
const MAX_GAMES_PER_POINT: u32 = 64;

/// Plays one match of a pair, `white_engine` playing White in every game:
/// game k on dice seeded from `dice_seed` and k, so that both matches of a
/// pair play their k-th games on the same dice. A forfeit loses the match.
fn play_match(
    seats: &mut Seats,
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
) -> (Vec<GameOutcome>, MatchResult) {
    let mut session = seats.cfg.session.0;
    let length = session.length();
    let engine_of = |side: Side| {
        if side == Side::White {
            white_engine
        } else {
            1 - white_engine
        }
    };
    let mut games = Vec::new();
    let mut winner = None;
    // Who starts the next game: the opening throw, or (tavli's and
    // tabla's rule) the last game's winner; a game with no winner leaves
    // the next to the throw.
    let mut start = GameStart::OpeningThrow;
    for k in 0..length.saturating_mul(MAX_GAMES_PER_POINT) {
        let g = play_game(
            seats,
            pair,
            white_engine,
            crate::splitmix::nth(dice_seed, u64::from(k)),
            &session,
            seats.cfg.game_rules(k),
            start,
        );
        let forfeit = g.summary.forfeit.as_ref().map(|(who, _)| *who);
        start = GameStart::OpeningThrow;
        if let Some((w, _)) = g.summary.winner.filter(|_| forfeit.is_none()) {
            let side = if w == white_engine {
                Side::White
            } else {
                Side::Black
            };
            session.score_game(side, g.summary.points.unsigned_abs());
            if seats.cfg.winner_starts {
                start = GameStart::By(side);
            }
        }
        games.push(g);
        winner = forfeit
            .map(|f| 1 - f)
            .or_else(|| session.winner().map(engine_of));
        if winner.is_some() {
            break;
        }
    }
    let mut score = [0; 2];
    for side in [Side::White, Side::Black] {
        score[engine_of(side)] = session.score(side);
    }
    let result = MatchResult {
        white_engine,
        winner,
        score,
    };
    (games, result)
}

/// One seating of a pair: a money game, or a whole match.
struct Seating {
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
    games: Vec<GameOutcome>,
    result: Option<MatchResult>,
}

/// Plays one seating of pair `pair`.
fn play_seating(seats: &mut Seats, pair: usize, white_engine: usize, dice_seed: u64) -> Seating {
    if seats.cfg.session.match_length().is_some() {
        let (games, result) = play_match(seats, pair, white_engine, dice_seed);
        Seating {
            pair,
            white_engine,
            dice_seed,
            games,
            result: Some(result),
        }
    } else {
        let session = seats.cfg.session.0;
        let rules = seats.cfg.rules;
        let g = play_game(
            seats,
            pair,
            white_engine,
            dice_seed,
            &session,
            rules,
            GameStart::OpeningThrow,
        );
        Seating {
            pair,
            white_engine,
            dice_seed,
            games: vec![g],
            result: None,
        }
    }
}

/// Plays a match.
pub fn run_match(cfg: &MatchConfig) -> MatchReport {
    let pairs = cfg.games.div_ceil(2).max(1);
    let owned: Vec<usize> = cfg.shard.units(pairs).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Seating>();
    let unit = if cfg.session.match_length().is_some() {
        "matches"
    } else {
        "games"
    };
    let bar = if cfg.progress {
        let b = indicatif::ProgressBar::new((owned.len() * 2) as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed_precise}}<{{eta_precise}}]"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let mut sprt_state = None;
    let mut done: Vec<PairOutcome> = Vec::new();
    let mut record_errors = Vec::new();
    if let Some(dir) = &cfg.records
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        record_errors.push(format!("{}: {e}", dir.display()));
    }
    std::thread::scope(|sc| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            let stop = &stop;
            let owned = &owned;
            sc.spawn(move || {
                let mut seats = Seats {
                    cfg,
                    engines: [None, None],
                    started: [None, None],
                };
                loop {
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
                            return;
                        }
                    }
                }
                for e in 0..2 {
                    seats.drop_engine(e);
                }
            });
        }
        drop(tx);
        let mut by_pair: std::collections::BTreeMap<usize, Vec<Seating>> = Default::default();
        // Running figures for the progress bar and the SPRT (in the order
        // the pairs finish); the report itself is tallied at the end.
        let mut pair_points = Vec::new();
        let mut wins = [0u32; 2];
        for seating in rx {
            let won = match seating.result {
                Some(m) => m.winner,
                None => seating
                    .games
                    .iter()
                    .find_map(|g| g.summary.winner.map(|(w, _)| w)),
            };
            if let Some(w) = won {
                wins[w] += 1;
            }
            if let Some(dir) = &cfg.records
                && let Err(e) = write_records(cfg, dir, &seating)
            {
                tracing::error!(error = %e, "record not written");
                if record_errors.len() < MAX_RECORD_ERRORS {
                    record_errors.push(e);
                }
            }
            let pair = seating.pair;
            let entry = by_pair.entry(pair).or_default();
            entry.push(seating);
            if entry.len() == 2 {
                entry.sort_by_key(|s| s.white_engine);
                let games: Vec<GameSummary> = entry
                    .iter()
                    .flat_map(|s| s.games.iter().map(GameOutcome::result))
                    .collect();
                let n = games.len().max(1) as f64;
                pair_points.push(games.iter().map(|g| f64::from(g.points)).sum::<f64>() / n);
                done.push(PairOutcome {
                    pair,
                    dice_seed: entry[0].dice_seed,
                    games,
                    matches: entry.iter().filter_map(|s| s.result).collect(),
                });
                by_pair.remove(&pair);
                if let Some(s) = &cfg.sprt {
                    let st = s.state(&pair_points);
                    if st != SprtState::Continue {
                        sprt_state = Some(st);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            let (m, se) = mean_se(&pair_points);
            bar.set_message(format!(
                "{} {}-{} {}  ppg {:+.3} ± {:.3}",
                cfg.engines[0].name, wins[0], wins[1], cfg.engines[1].name, m, se
            ));
            bar.inc(1);
        }
        bar.finish_and_clear();
    });
    done.sort_by_key(|p| p.pair);
    let mut report = MatchReport::tally(
        names,
        cfg.rules.variant,
        cfg.session,
        &done,
        cfg.luck_adjust,
    );
    report.sprt = sprt_state;
    report.record_errors = record_errors;
    report.rotation = cfg.rotation_variants();
    report.winner_starts = cfg.winner_starts && cfg.session.match_length().is_some();
    if cfg.sprt.is_some() && report.sprt.is_none() {
        report.sprt = Some(SprtState::Continue);
    }
    report
}

/// The shard file of a finished run of `cfg` (its key, shard and pairs).
pub fn shard_of(cfg: &MatchConfig, report: &MatchReport) -> shard::MatchShard {
    shard::MatchShard {
        key: shard::MatchKey {
            names: report.names.clone(),
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
        },
        shard: cfg.shard,
        pairs: report.pairs.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_accepts_exact_turns_only() {
        let o = RuleOptions::default();
        let s = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
        let w = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert!(referee_turn(&s, &o, &w("24/18 24/19")).is_ok());
        assert!(referee_turn(&s, &o, &w("24/13")).is_ok());
        assert!(referee_turn(&s, &o, &w("24/18")).is_err());
        assert!(referee_turn(&s, &o, &w("24/18 24/19 12/7")).is_err());
        assert!(referee_turn(&s, &o, &w("pass")).is_err());
        assert!(referee_turn(&s, &o, &w("hello")).is_err());
    }

    #[test]
    fn pair_seeds_differ() {
        assert_ne!(pair_seed(1, 0), pair_seed(1, 1));
        assert_ne!(pair_seed(1, 0), pair_seed(2, 0));
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
    }

    #[test]
    fn luck_of_all_rolls_averages_to_zero() {
        use crate::search::ROLLS;
        let o = RuleOptions::default();
        let s = crate::notation::parse_state_text(
            "2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10",
        )
        .unwrap();
        let mut total = 0.0;
        for &(a, b, w) in ROLLS.iter() {
            total +=
                roll_luck(&crate::eval::heuristic::Heuristic, &s, &o, (a, b)) * f64::from(w) / 36.0;
        }
        assert!(total.abs() < 1e-6, "{total}");
        let net = LuckReference::Net.evaluator(Variant::GulBara);
        let mut total = 0.0;
        let mut spread = 0.0;
        for &(a, b, w) in ROLLS.iter() {
            let l = roll_luck(net.as_ref(), &s, &o, (a, b));
            total += l * f64::from(w) / 36.0;
            spread += l.abs();
        }
        assert!(total.abs() < 1e-6, "{total}");
        assert!(spread > 0.1, "rolls differ in value: {spread}");
    }
}

#[cfg(test)]
mod match_tests {
    use super::*;

    fn spec(cmd: &str, name: &str, opts: &[(&str, &str)]) -> EngineSpec {
        EngineSpec {
            cmd: cmd.into(),
            name: name.into(),
            options: opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn builtin_match_is_reproducible_and_counts_add_up() {
        let cfg = MatchConfig {
            engines: [
                spec("builtin:heuristic", "h0", &[("engine.ply", "1")]),
                spec("builtin:random", "random", &[]),
            ],
            games: 8,
            seed: 11,
            jobs: 2,
            move_timeout: Duration::from_secs(10),
            rules: RuleOptions::default(),
            luck_adjust: true,
            luck_reference: LuckReference::Net,
            sprt: None,
            records: None,
            progress: false,
            shard: crate::sharding::Shard::WHOLE,
            session: SessionSpec::cubeless(),
            rotation: Vec::new(),
            winner_starts: false,
        };
        let a = run_match(&cfg);
        assert_eq!(a.games, 8);
        assert_eq!(a.forfeits, [0, 0]);
        assert_eq!(a.wins[0] + a.wins[1] + a.stuck, 8);
        // The same games whatever the number of jobs (the random player
        // draws from the position, not from a per-process stream).
        let b = run_match(&MatchConfig {
            jobs: 1,
            ..cfg.clone()
        });
        assert_eq!((a.wins, a.mars, a.ppg), (b.wins, b.mars, b.ppg));
        assert!(a.luck_ppg.is_some());
    }

    #[test]
    fn every_variant_plays_with_luck_judged_by_its_baseline() {
        // Gul bara's family judges luck by its network (above).
        let by_baseline = Variant::ALL
            .into_iter()
            .filter(|v| v.spec().eval != EvalFamily::GulBara);
        for v in by_baseline {
            let cfg = MatchConfig {
                engines: [
                    spec("builtin:net", "net", &[("engine.ply", "1")]),
                    spec("builtin:random", "random", &[]),
                ],
                games: 4,
                seed: 5,
                jobs: 2,
                move_timeout: Duration::from_secs(10),
                rules: RuleOptions::for_variant(v),
                luck_adjust: true,
                luck_reference: LuckReference::Net,
                sprt: None,
                records: None,
                progress: false,
                shard: crate::sharding::Shard::WHOLE,
                session: SessionSpec::cubeless(),
                rotation: Vec::new(),
                winner_starts: false,
            };
            let a = run_match(&cfg);
            assert_eq!(a.variant, v);
            assert_eq!(a.games, 4);
            assert_eq!(a.forfeits, [0, 0], "{v}: {:?}", a.forfeit_log);
            assert_eq!(a.wins[0] + a.wins[1], 4, "{v}");
            assert!(a.ppg.abs() <= f64::from(v.spec().scores.max()));
            assert!(a.luck_ppg.is_some());
            let json: serde_json::Value = serde_json::from_str(&a.to_json()).unwrap();
            assert_eq!(json["variant"], v.to_string());
            let b = run_match(&MatchConfig { jobs: 1, ..cfg });
            assert_eq!((a.wins, a.mars, a.ppg), (b.wins, b.mars, b.ppg));
            assert_eq!(a.luck_ppg, b.luck_ppg);
        }
        // Luck in another game is judged by that game's baseline.
        let s = GameState::start_of(Variant::Backgammon, Side::White);
        let o = RuleOptions::for_variant(Variant::Backgammon);
        let by_net = roll_luck(
            LuckReference::Net.evaluator(Variant::Backgammon).as_ref(),
            &s,
            &o,
            (6, 5),
        );
        let by_baseline = roll_luck(
            crate::eval::variants::baseline(Variant::Backgammon),
            &s,
            &o,
            (6, 5),
        );
        assert_eq!(by_net, by_baseline);
    }

    #[test]
    fn matches_with_the_cube_reach_the_length_and_their_records_replay() {
        let dir = std::env::temp_dir().join(format!("gulbara-cube-matches-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cfg = MatchConfig {
            engines: [
                spec("builtin:net", "net", &[("engine.ply", "1")]),
                spec("builtin:heuristic", "base", &[("engine.ply", "1")]),
            ],
            games: 6,
            seed: 3,
            jobs: 2,
            move_timeout: Duration::from_secs(10),
            rules: RuleOptions::for_variant(Variant::Backgammon),
            luck_adjust: false,
            luck_reference: LuckReference::Net,
            sprt: None,
            records: Some(dir.clone()),
            progress: false,
            shard: crate::sharding::Shard::WHOLE,
            session: "match 5 cube on crawford on".parse().unwrap(),
            rotation: Vec::new(),
            winner_starts: false,
        };
        let a = run_match(&cfg);
        let m = a.matches.expect("match figures");
        assert_eq!((m.length, m.played), (5, 6));
        assert_eq!(m.wins[0] + m.wins[1] + m.unfinished, 6);
        for p in &a.pairs {
            assert_eq!(p.matches.len(), 2);
            assert_eq!(
                p.matches.iter().map(|m| m.white_engine).collect::<Vec<_>>(),
                [0, 1]
            );
            for r in &p.matches {
                let w = r.winner.expect("a finished match");
                assert!(r.score[w] >= 5 && r.score[1 - w] < 5, "{r:?}");
            }
        }
        // Every double was answered, by the other engine.
        let [c0, c1] = a.cube;
        assert!(c0.doubles + c1.doubles > 0, "no double in six matches");
        assert_eq!(c0.doubles, c1.takes + c1.drops + c1.beavers);
        assert_eq!(c1.doubles, c0.takes + c0.drops + c0.beavers);
        // The same matches whatever the number of jobs.
        let b = run_match(&MatchConfig {
            jobs: 1,
            records: None,
            ..cfg.clone()
        });
        assert_eq!(b.matches, a.matches);
        assert_eq!((a.cube, a.ppg, a.games), (b.cube, b.ppg, b.games));
        // One record per match, every game in it, replaying to its result.
        let mut replayed = 0;
        for n in 1..=6 {
            let text = std::fs::read_to_string(dir.join(format!("match-{n:06}.txt"))).unwrap();
            assert!(text.contains("[Session \"match 5 cube on crawford on\"]"));
            let (_, games) = crate::record::replay(&text).unwrap();
            let mat = std::fs::read_to_string(dir.join(format!("match-{n:06}.mat"))).unwrap();
            assert!(mat.contains(" 5 point match"));
            let (_, from_mat) = crate::anyrecord::replay_any(&mat).unwrap();
            assert_eq!(games.len(), from_mat.len());
            for (g, h) in games.iter().zip(&from_mat) {
                assert_eq!(g.final_state, h.final_state);
                assert_eq!(g.dropped_by, h.dropped_by);
                let doubles = |g: &crate::record::ReplayedGame| -> Vec<_> {
                    g.turns.iter().map(|t| t.double).collect()
                };
                assert_eq!(doubles(g), doubles(h));
            }
            replayed += games.len();
        }
        assert_eq!(replayed, a.games);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A rotating match plays its games in the rotation's order, each
    /// under its own rules, and its records say so and replay game by game.
    #[test]
    fn a_rotating_match_plays_its_games_in_turn() {
        let dir = std::env::temp_dir().join(format!("gulbara-rotation-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rotation: Vec<RuleOptions> = [Variant::Portes, Variant::Plakoto, Variant::Fevga]
            .into_iter()
            .map(RuleOptions::for_variant)
            .collect();
        let cfg = MatchConfig {
            engines: [
                spec("builtin:net", "net", &[("engine.ply", "1")]),
                spec("builtin:random", "random", &[]),
            ],
            games: 4,
            seed: 11,
            jobs: 2,
            move_timeout: Duration::from_secs(10),
            rules: rotation[0],
            luck_adjust: false,
            luck_reference: LuckReference::Net,
            sprt: None,
            records: Some(dir.clone()),
            progress: false,
            shard: crate::sharding::Shard::WHOLE,
            session: "match 5 cube off crawford on".parse().unwrap(),
            rotation: rotation.clone(),
            winner_starts: true,
        };
        let a = run_match(&cfg);
        assert_eq!(a.forfeits, [0, 0], "{:?}", a.forfeit_log);
        assert_eq!(
            a.rotation,
            [Variant::Portes, Variant::Plakoto, Variant::Fevga]
        );
        assert!(
            a.to_text().contains("rotation portes,plakoto,fevga\n"),
            "{}",
            a.to_text()
        );
        assert!(
            a.to_text()
                .contains("the winner of each game started the next\n")
        );
        let m = a.matches.expect("match figures");
        assert_eq!(m.played, 4);
        let mut longest = 0;
        let mut by_winner = 0;
        for n in 1..=4 {
            let text = std::fs::read_to_string(dir.join(format!("match-{n:06}.txt"))).unwrap();
            assert!(text.contains("; [Rotation \"portes,plakoto,fevga\"]"));
            let (opts, games) = crate::record::replay(&text).unwrap();
            assert_eq!(opts.variant, Variant::Portes);
            for (k, g) in games.iter().enumerate() {
                assert_eq!(g.opts, rotation[k % 3], "match {n} game {}", k + 1);
                assert_eq!(g.final_state.variant, rotation[k % 3].variant);
            }
            // The first game opens with the throw; each later one is
            // started by the last game's winner, with no throw.
            let openings: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with(" Opening "))
                .collect();
            assert_eq!(openings.len(), games.len());
            assert!(
                !openings[0].starts_with(" Opening winner"),
                "{}",
                openings[0]
            );
            for (k, pair) in games.windows(2).enumerate() {
                let last_winner = pair[0].final_state.result().and_then(|r| r.winner);
                if let Some(w) = last_winner {
                    assert_eq!(pair[1].starter, w, "match {n} game {}", k + 2);
                    assert!(openings[k + 1].starts_with(" Opening winner starter"));
                    by_winner += 1;
                }
            }
            longest = longest.max(games.len());
            // No .mat: gnubg has no Plakoto nor Fevga.
            assert!(!dir.join(format!("match-{n:06}.mat")).exists());
        }
        assert!(
            longest >= 3,
            "a match of {longest} games never reached Fevga"
        );
        assert!(by_winner >= 2, "{by_winner} games started by a winner");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rule_settings_name_the_variant_first() {
        let mut o = RuleOptions::for_variant(Variant::LongNardy);
        o.set("six_block", "per_step").unwrap();
        let keys: Vec<String> = rule_settings(&o)
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        assert_eq!(
            keys,
            [
                "game.variant long_nardy",
                "rules.opening reroll",
                "rules.head_first_turn needs_second",
                "rules.six_block per_step"
            ]
        );
        let g = rule_settings(&RuleOptions::default());
        assert_eq!(g.len(), 4);
        assert!(g.iter().all(|(k, _)| k.starts_with("rules.")));
        assert!(parse_rules(Variant::Backgammon, &["opening=reroll".into()]).is_ok());
        assert!(parse_rules(Variant::Backgammon, &["remainder=lost".into()]).is_err());
        assert!(parse_rules(Variant::ShortNardy, &["opening".into()]).is_err());
    }
}
