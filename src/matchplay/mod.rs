//! Engine-vs-engine matches: mirrored dice pairs, a referee built on the
//! rules core, forfeits for crashes, timeouts and illegal moves, luck
//! adjustment, SPRT, records.

pub mod builtin;
pub mod engine;
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

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Pair number (from 0).
    pub pair: usize,
    /// Which engine played White.
    pub white_engine: usize,
    /// Points for engine 0 (negative when engine 1 won).
    pub points: i32,
    /// Winner engine and whether it was a mars (two points or more; in
    /// backgammon a gammon or a backgammon).
    pub winner: Option<(usize, bool)>,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, String)>,
    /// Sum of each engine's luck (equity) over its rolls.
    pub luck: [f64; 2],
    /// Each engine's cube actions.
    pub cube: [CubeCounts; 2],
    /// The game's result before the cube: 1 single, 2 gammon or mars, 3
    /// backgammon; 0 with no winner, or a dropped double or forfeit.
    pub result_points: u8,
    /// The record of the game.
    pub record: RecordedGame,
    /// The dice seed of the pair.
    pub dice_seed: u64,
}

/// How one game went, without its record: what a shard file keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Which engine played White.
    pub white_engine: usize,
    /// Points for engine 0 (negative when engine 1 won).
    pub points: i32,
    /// Winner engine and whether it was a mars.
    pub winner: Option<(usize, bool)>,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, String)>,
    /// Sum of each engine's luck (equity) over its rolls.
    pub luck: [f64; 2],
    /// Each engine's cube actions.
    pub cube: [CubeCounts; 2],
    /// The game's result before the cube (see [`GameOutcome::result_points`]).
    pub result_points: u8,
}

/// A mirrored pair's two games, or its two matches' games.
#[derive(Clone, Debug, PartialEq)]
pub struct PairOutcome {
    /// Pair number (from 0).
    pub pair: usize,
    /// The dice seed of the pair.
    pub dice_seed: u64,
    /// Its games, engine 0 playing White first (in matches: the first
    /// match's games, then the second's).
    pub games: Vec<GameSummary>,
    /// Its two matches, engine 0 playing White in the first; empty in
    /// money play.
    pub matches: Vec<MatchResult>,
}

impl GameOutcome {
    /// The result without the record.
    pub fn result(&self) -> GameSummary {
        GameSummary {
            white_engine: self.white_engine,
            points: self.points,
            winner: self.winner,
            forfeit: self.forfeit.clone(),
            luck: self.luck,
            cube: self.cube,
            result_points: self.result_points,
        }
    }
}

/// The final report.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Engine names.
    pub names: [String; 2],
    /// The game played (in a rotating match, its first game).
    pub variant: Variant,
    /// A rotating match's games, in order (empty without one).
    pub rotation: Vec<Variant>,
    /// In a match, the winner of each game started the next.
    pub winner_starts: bool,
    /// Games played.
    pub games: usize,
    /// Wins per engine.
    pub wins: [u32; 2],
    /// Mars wins per engine (wins worth two points or more: in backgammon
    /// gammons and backgammons).
    pub mars: [u32; 2],
    /// Backgammon wins (three points) per engine; zero in the other games.
    pub backgammons: [u32; 2],
    /// Games ended by the stuck rule.
    pub stuck: u32,
    /// Forfeits per engine (crash, timeout, illegal move).
    pub forfeits: [u32; 2],
    /// The session the pairs were played in.
    pub session: SessionSpec,
    /// The matches, when pairs were matches.
    pub matches: Option<MatchTally>,
    /// Each engine's cube actions.
    pub cube: [CubeCounts; 2],
    /// Engine 0's points per game (with the cube: the points it scored).
    pub ppg: f64,
    /// Its standard error over mirrored pairs.
    pub se: f64,
    /// Luck-adjusted ppg and its standard error, when asked for.
    pub luck_ppg: Option<(f64, f64)>,
    /// The SPRT outcome, when asked for.
    pub sprt: Option<SprtState>,
    /// Forfeit reasons (first few).
    pub forfeit_log: Vec<String>,
    /// Record files that could not be written (`--records`): the file and
    /// why, the first few. Empty when every record was written.
    pub record_errors: Vec<String>,
    /// Every finished pair, in pair order (what `--out` writes).
    pub pairs: Vec<PairOutcome>,
}

impl MatchReport {
    /// The report of `pairs` (whole pairs, in pair order): the same
    /// arithmetic in the same order for a match played in one process and
    /// for its shards merged.
    pub fn tally(
        names: [String; 2],
        variant: Variant,
        session: SessionSpec,
        pairs: &[PairOutcome],
        luck_adjust: bool,
    ) -> MatchReport {
        let mut report = MatchReport {
            names,
            variant,
            rotation: Vec::new(),
            winner_starts: false,
            session,
            matches: None,
            cube: Default::default(),
            games: 0,
            wins: [0; 2],
            mars: [0; 2],
            backgammons: [0; 2],
            stuck: 0,
            forfeits: [0; 2],
            ppg: 0.0,
            se: 0.0,
            luck_ppg: None,
            sprt: None,
            forfeit_log: Vec::new(),
            record_errors: Vec::new(),
            pairs: pairs.to_vec(),
        };
        if let Some(length) = session.match_length() {
            let matches: Vec<&[MatchResult]> = pairs.iter().map(|p| p.matches.as_slice()).collect();
            report.matches = Some(MatchTally::of(length, &matches));
        }
        let mut pair_points = Vec::with_capacity(pairs.len());
        let mut pair_adjusted = Vec::with_capacity(pairs.len());
        let mut total = 0i64;
        for p in pairs {
            for g in &p.games {
                report.games += 1;
                total += i64::from(g.points);
                for e in 0..2 {
                    report.cube[e].add(&g.cube[e]);
                }
                if let Some((w, mars)) = g.winner {
                    report.wins[w] += 1;
                    if mars {
                        report.mars[w] += 1;
                    }
                    if g.result_points == 3 {
                        report.backgammons[w] += 1;
                    }
                } else if g.forfeit.is_none() {
                    report.stuck += 1;
                }
                if let Some((f, why)) = &g.forfeit {
                    report.forfeits[*f] += 1;
                    if report.forfeit_log.len() < 20 {
                        report.forfeit_log.push(why.clone());
                    }
                }
            }
            // Per game of the pair (a pair of matches has more than two).
            let n = p.games.len().max(1) as f64;
            pair_points.push(p.games.iter().map(|g| f64::from(g.points)).sum::<f64>() / n);
            pair_adjusted.push(
                p.games
                    .iter()
                    .map(|g| f64::from(g.points) - (g.luck[0] - g.luck[1]))
                    .sum::<f64>()
                    / n,
            );
        }
        report.ppg = if report.games > 0 {
            total as f64 / report.games as f64
        } else {
            0.0
        };
        report.se = mean_se(&pair_points).1;
        if luck_adjust {
            report.luck_ppg = Some(mean_se(&pair_adjusted));
        }
        report
    }

    /// The summary as one JSON object.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::json!({
            "engines": self.names,
            "variant": self.variant.to_string(),
            "games": self.games,
            "wins": self.wins,
            "mars": self.mars,
            "stuck": self.stuck,
            "forfeits": self.forfeits,
            "ppg": self.ppg,
            "se": self.se,
            "ci95": [self.ppg - 1.96 * self.se, self.ppg + 1.96 * self.se],
        });
        if self.variant.spec().scores.triple.is_some() {
            v["backgammons"] = serde_json::json!(self.backgammons);
        }
        if let Some((p, s)) = self.luck_ppg {
            v["luck_adjusted_ppg"] = serde_json::json!(p);
            v["luck_adjusted_se"] = serde_json::json!(s);
        }
        if let Some(s) = self.sprt {
            v["sprt"] = serde_json::json!(format!("{s:?}"));
        }
        v["session"] = serde_json::json!(self.session.to_string());
        if !self.rotation.is_empty() {
            v["rotation"] = serde_json::json!(Variant::list_text(&self.rotation));
        }
        if self.matches.is_some() {
            v["next_starter"] = serde_json::json!(if self.winner_starts {
                "winner"
            } else {
                "throw"
            });
        }
        if let Some(m) = &self.matches {
            v["matches"] = serde_json::json!({
                "length": m.length,
                "played": m.played,
                "wins": m.wins,
                "unfinished": m.unfinished,
                "share": m.share,
                "se": m.se,
            });
        }
        if self.session.0.rules().cube {
            let c = |f: fn(&CubeCounts) -> u32| [f(&self.cube[0]), f(&self.cube[1])];
            v["cube"] = serde_json::json!({
                "doubles": c(|x| x.doubles),
                "takes": c(|x| x.takes),
                "drops": c(|x| x.drops),
                "beavers": c(|x| x.beavers),
            });
        }
        v.to_string()
    }

    /// The summary for people (the variant on a line of its own after the
    /// first, for the games other than Gul bara).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "games {}  {} vs {}\nwins {} - {}  (mars {} - {})  stuck {}  forfeits {} - {}\nppg {:+.3} ± {:.3} (95% {:+.3} .. {:+.3})\n",
            self.games,
            self.names[0],
            self.names[1],
            self.wins[0],
            self.wins[1],
            self.mars[0],
            self.mars[1],
            self.stuck,
            self.forfeits[0],
            self.forfeits[1],
            self.ppg,
            self.se,
            self.ppg - 1.96 * self.se,
            self.ppg + 1.96 * self.se
        );
        if self.session != SessionSpec::cubeless() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, &format!("session {}\n", self.session));
        }
        if !self.rotation.is_empty() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(
                at,
                &format!("rotation {}\n", Variant::list_text(&self.rotation)),
            );
        } else if self.variant != Variant::default() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, &format!("variant {}\n", self.variant));
        }
        if self.winner_starts {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, "the winner of each game started the next\n");
        }
        if self.variant.spec().scores.triple.is_some() {
            s.push_str(&format!(
                "backgammons {} - {}\n",
                self.backgammons[0], self.backgammons[1]
            ));
        }
        if let Some((p, e)) = self.luck_ppg {
            s.push_str(&format!("luck-adjusted ppg {p:+.3} ± {e:.3}\n"));
        }
        if let Some(st) = self.sprt {
            s.push_str(&format!("sprt {st:?}\n"));
        }
        if let Some(m) = &self.matches {
            s.push_str(&format!(
                "matches {} to {}  {} {} - {} {}{}\nmatch wins {:.1}% ± {:.1}% (95% {:.1}% .. {:.1}%)\n",
                m.played,
                m.length,
                self.names[0],
                m.wins[0],
                m.wins[1],
                self.names[1],
                if m.unfinished > 0 {
                    format!("  unfinished {}", m.unfinished)
                } else {
                    String::new()
                },
                100.0 * m.share,
                100.0 * m.se,
                100.0 * (m.share - 1.96 * m.se).max(0.0),
                100.0 * (m.share + 1.96 * m.se).min(1.0),
            ));
        }
        if self.session.0.rules().cube {
            let [a, b] = self.cube;
            s.push_str(&format!(
                "cube  doubles {} - {}  takes {} - {}  drops {} - {}  beavers {} - {}\n",
                a.doubles, b.doubles, a.takes, b.takes, a.drops, b.drops, a.beavers, b.beavers
            ));
        }
        for f in &self.forfeit_log {
            s.push_str(&format!("forfeit: {f}\n"));
        }
        s
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

/// The settings every engine of a match is sent after its own options:
/// `game.variant` (left out for Gul bara, the protocol's default, so that
/// engines that know no other game keep working), then every `rules.*`
/// option of that variant. Setting the variant first matters: it puts the
/// rules back to the variant's defaults.
pub fn rule_settings(rules: &RuleOptions) -> Vec<(String, String)> {
    let variant = (rules.variant != Variant::default())
        .then(|| ("game.variant".to_string(), rules.variant.to_string()));
    variant
        .into_iter()
        .chain(
            rules
                .variant
                .option_names()
                .iter()
                .map(|n| (format!("rules.{n}"), rules.get(n).unwrap_or_default())),
        )
        .collect()
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
        white_engine,
        points,
        winner,
        forfeit: forfeit.clone(),
        luck: watch.luck,
        cube,
        result_points,
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
        let forfeit = g.forfeit.as_ref().map(|(who, _)| *who);
        start = GameStart::OpeningThrow;
        if let Some((w, _)) = g.winner.filter(|_| forfeit.is_none()) {
            let side = if w == white_engine {
                Side::White
            } else {
                Side::Black
            };
            session.score_game(side, g.points.unsigned_abs());
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

/// The most record write errors a report keeps.
const MAX_RECORD_ERRORS: usize = 10;

/// Writes `seating`'s record (one file per money game, one per match)
/// into `dir`, and a gnubg `.mat` beside it where gnubg has the game; the
/// first file that cannot be written, and why.
fn write_records(
    cfg: &MatchConfig,
    dir: &std::path::Path,
    seating: &Seating,
) -> Result<(), String> {
    let write = |path: std::path::PathBuf, text: String| {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    let n = seating.pair * 2 + seating.white_engine + 1;
    let mut tags = vec![("Event".to_string(), "gulbara match".to_string())];
    tags.extend(game_tags(&cfg.rules));
    if !cfg.rotation.is_empty() {
        tags.push((
            "Rotation".into(),
            Variant::list_text(&cfg.rotation_variants()),
        ));
    }
    tags.extend(crate::record::session_tags(&cfg.session.0));
    tags.extend([
        ("Seed".into(), seating.dice_seed.to_string()),
        ("MatchSeed".into(), cfg.seed.to_string()),
        ("Round".into(), n.to_string()),
        ("Player 1".into(), cfg.engines[0].name.clone()),
        ("Player 2".into(), cfg.engines[1].name.clone()),
    ]);
    let rec = Record {
        tags,
        games: seating.games.iter().map(|g| g.record.clone()).collect(),
    };
    let stem = if cfg.session.match_length().is_some() {
        format!("match-{n:06}")
    } else {
        format!("game-{n:06}")
    };
    write(dir.join(format!("{stem}.txt")), write_record(&rec))?;
    // Backgammon and short nardy also as gnubg's .mat (`import mat`).
    if cfg.rules.variant.spec().gnubg && cfg.rotation.is_empty() {
        match crate::gnubg::mat::write(&cfg.rules, &rec.tags, &rec.games) {
            Ok(mat) => write(dir.join(format!("{stem}.mat")), mat)?,
            Err(e) => tracing::warn!(error = %e, "no .mat record"),
        }
    }
    Ok(())
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
                None => seating.games.iter().find_map(|g| g.winner.map(|(w, _)| w)),
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

/// For the CLI: turns a rule option list `k=v` of `variant`'s options into
/// options (the variant's defaults for the rest).
pub fn parse_rules(variant: Variant, args: &[String]) -> Result<RuleOptions, RuleArgError> {
    let mut o = RuleOptions::for_variant(variant);
    for a in args {
        let (k, v) = a
            .split_once('=')
            .ok_or_else(|| RuleArgError::NotKeyValue(a.clone()))?;
        o.set(k, v)?;
    }
    Ok(o)
}

/// Why a `--rule` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleArgError {
    /// Not `name=value`.
    #[error("--rule takes name=value, got '{0}'")]
    NotKeyValue(String),
    /// Not an option of the game, or not a value of it.
    #[error(transparent)]
    Option(#[from] crate::rules::options::OptionError),
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
