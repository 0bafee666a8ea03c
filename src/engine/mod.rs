//! The engine: one game with its rule options, the evaluator that judges
//! it (network, weights, race tables), the search settings and limits, and
//! the worker that runs a search and can stop it.
//!
//! Every front end reaches the search through an [`Engine`]: the protocol
//! session ([`crate::protocol::Session`]) over its lines, the gnubg bridge,
//! `gulbara rollout`, the match runner's in-process players (and through
//! them the training gate), and the fuzz targets. Settings come typed
//! ([`Settings`], [`Setting`]); the key table ([`keys`]) is the one place
//! that parses them from text, for the protocol and every other front end.

pub mod keys;
pub mod settings;
pub mod weights;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cube::{MatchState, SessionRules};
use crate::eval::phase::Phase;
use crate::eval::{Evaluator, GameNet, Probs};
use crate::rules::{GameState, Side, Variant};
use crate::search::{Candidate, Limits, Search};

pub use keys::SettingError;
pub use settings::{EvalKind, Ply, RaceKind, Setting, Settings, Weights};
pub use weights::{FileAccess, LoadNetError, load_net, with_phase_net};
use worker::Worker;
pub use worker::{Job, JobKind, StopSignal};

/// How an engine is set up by its front end.
#[derive(Clone, Debug, Default)]
pub struct EngineConfig {
    /// What it may read.
    pub files: FileAccess,
    /// The longest a search may run (`go infinite` included), if capped.
    pub max_search: Option<Duration>,
}

/// Why a setting or a state was refused; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The weights `engine.weights` names do not load as the game's network.
    #[error(transparent)]
    Weights(#[from] LoadNetError),
    /// The weights `engine.race_weights` or `engine.crashed_weights` names
    /// do not load as that phase's network.
    #[error("engine.{}_weights: {source}", phase.name())]
    PhaseWeights {
        /// The phase whose network was named.
        phase: Phase,
        /// Why it did not load.
        source: LoadNetError,
    },
    /// A state of another game than the engine's.
    #[error("a {state} position in a {engine} game")]
    OtherGame {
        /// The state's game.
        state: Variant,
        /// The engine's game.
        engine: Variant,
    },
}

/// Why a search could not start.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A search is running already.
    #[error("a search ({}) is running; send stop first", .0.name())]
    Busy(JobKind),
    /// Nothing to play: the game is over, or no dice are rolled.
    #[error("nothing to play: the game is over or no dice are rolled")]
    NoStage,
    /// The evaluator the settings name does not load.
    #[error(transparent)]
    Evaluator(#[from] LoadNetError),
    /// The worker thread could not be started.
    #[error("cannot start a search thread: {0}")]
    Spawn(#[source] std::io::Error),
}

/// The arguments of a search for the best play (the protocol's `go`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `movetime <ms>`.
    pub movetime: Option<u64>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `ply <n>`; `None`: `engine.ply`.
    pub ply: Option<Ply>,
    /// `infinite`: no result before a stop.
    pub infinite: bool,
    /// `cube`: the cube decision that is due, not a play.
    pub cube: bool,
    /// `role turn` (UBGI v0.1): the cube decision before the roll and the
    /// play of the dice, answered `bestturn`.
    pub turn: bool,
    /// `role ...` was given: a UBGI v0.1 request.
    pub role: bool,
}

/// One engine: a game, its settings, its networks and at most one search.
pub struct Engine {
    config: EngineConfig,
    settings: Settings,
    /// The networks `engine.weights` named, each while a game of its own
    /// was set (by [`GameNet::slot`]); `None`: the shipped one.
    nets: [Option<GameNet>; crate::rules::ShippedNet::COUNT],
    state: GameState,
    /// Money play or a match, the score and the cube.
    session: MatchState,
    /// A rotating match's games and the place of the current one.
    rotation: Option<Rotation>,
    worker: Option<Worker>,
}

/// A rotating match (Greek tavli, Bulgarian tabla): its games in order, and
/// which of the session's games is being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotation {
    /// The games, in the order they rotate.
    pub games: Vec<Variant>,
    /// The session's games started so far, less one: game `played` (from
    /// 0) is `games[played % games.len()]`.
    pub played: usize,
    /// The winner of each game starts the next (tavli's and tabla's
    /// rule): `newgame` after a won game puts the winner to roll.
    pub winner_starts: bool,
}

impl Rotation {
    /// The game being played.
    pub fn current(&self) -> Variant {
        self.games[self.played % self.games.len()]
    }
}

impl Engine {
    /// An engine with the default settings at the start of Gul bara
    /// (White to roll).
    pub fn with_config(config: EngineConfig) -> Engine {
        Engine {
            config,
            settings: Settings::default(),
            nets: [const { None }; crate::rules::ShippedNet::COUNT],
            state: GameState::start(Side::White),
            session: default_session(Variant::default()),
            rotation: None,
            worker: None,
        }
    }

    /// An engine with `settings`, at the start of their game (White to
    /// roll); the weights they name are loaded as that game's network.
    pub fn new(settings: Settings, config: EngineConfig) -> Result<Engine, SetupError> {
        let mut engine = Engine::with_config(config);
        let weights = settings.weights.clone();
        let race_weights = settings.race_weights.clone();
        let crashed_weights = settings.crashed_weights.clone();
        engine.settings = settings;
        engine.state = GameState::start_of(engine.settings.rules.variant, Side::White);
        engine.session = default_session(engine.settings.rules.variant);
        if weights != Weights::Shipped {
            engine.set(Setting::Weights(weights))?;
        }
        if race_weights != Weights::Shipped {
            engine.set(Setting::RaceWeights(race_weights))?;
        }
        if crashed_weights != Weights::Shipped {
            engine.set(Setting::CrashedWeights(crashed_weights))?;
        }
        Ok(engine)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The front end's file policy and search cap.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The current state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Applies one setting; on error nothing changes. A new game variant
    /// starts a game of it; new weights are loaded (and checked) as the
    /// network of the current game, which keeps them when another game is
    /// set and set back.
    pub fn set(&mut self, setting: Setting) -> Result<(), SetupError> {
        match setting {
            Setting::Weights(w) => {
                let variant = self.settings.rules.variant;
                let mut net = load_net(variant, &w, &self.config.files)?;
                // The phase networks named before stay.
                if let Some(old) = &self.nets[GameNet::slot(variant)] {
                    net = net.keeping_phases_of(old);
                }
                self.nets[GameNet::slot(variant)] = Some(net);
                self.settings.weights = w;
            }
            Setting::RaceWeights(w) => {
                self.set_phase_net(Phase::Race, &w)?;
                self.settings.race_weights = w;
            }
            Setting::CrashedWeights(w) => {
                self.set_phase_net(Phase::Crashed, &w)?;
                self.settings.crashed_weights = w;
            }
            Setting::Variant(v) => {
                self.settings.apply(Setting::Variant(v));
                self.session = default_session(v);
                self.rotation = None;
                self.new_game();
            }
            other => self.settings.apply(other),
        }
        Ok(())
    }

    /// Loads the weights `w` names as `phase`'s network of the current
    /// game; on error nothing changes.
    fn set_phase_net(&mut self, phase: Phase, w: &Weights) -> Result<(), SetupError> {
        let variant = self.settings.rules.variant;
        let slot = GameNet::slot(variant);
        let net = match &self.nets[slot] {
            Some(net) => net.clone(),
            None => load_net(variant, &Weights::Shipped, &self.config.files)?,
        };
        let net = with_phase_net(net, variant, phase, w, &self.config.files)
            .map_err(|source| SetupError::PhaseWeights { phase, source })?;
        self.nets[slot] = Some(net);
        Ok(())
    }

    /// The session: money play or a match, the score, the cube.
    pub fn session(&self) -> &MatchState {
        &self.session
    }

    /// What the search makes of each result: at a match score, its
    /// match-winning worth, unless `engine.eval_mode` is cubeless.
    fn valuation(&self) -> Option<[crate::search::Valuation; 2]> {
        match self.settings.eval_mode {
            settings::EvalMode::Cubeful => {
                crate::cube::valuation(self.settings.rules.variant, &self.session)
            }
            settings::EvalMode::Cubeless => None,
        }
    }

    /// Sets the session (a new one, or a changed score or cube).
    pub fn set_session(&mut self, session: MatchState) {
        self.session = session;
    }

    /// A new game at the start (White to roll).
    pub fn new_game(&mut self) {
        self.state = GameState::start_of(self.settings.rules.variant, Side::White);
    }

    /// Starts a rotating match: `session` (a match), its first game (the
    /// first of `games`, under its default rules) at the start. Refused
    /// with an empty rotation.
    /// `winner_starts`: the winner of each game starts the next.
    pub fn start_rotation(
        &mut self,
        games: Vec<Variant>,
        session: MatchState,
        winner_starts: bool,
    ) -> bool {
        let Some(&first) = games.first() else {
            return false;
        };
        self.settings.apply(Setting::Variant(first));
        self.session = session;
        self.rotation = Some(Rotation {
            games,
            played: 0,
            winner_starts,
        });
        self.new_game();
        true
    }

    /// The next game: in a rotating match, the rotation's next game (its
    /// default rules, the session kept), with the last game's winner to
    /// roll when the rotation says the winner starts; otherwise a new game
    /// of the current one.
    pub fn next_game(&mut self) {
        let mut starter = Side::White;
        if let Some(r) = &mut self.rotation {
            if r.winner_starts
                && let Some(w) = self.state.result().and_then(|res| res.winner)
            {
                starter = w;
            }
            r.played += 1;
            let v = r.current();
            self.settings.apply(Setting::Variant(v));
        }
        self.state = GameState::start_of(self.settings.rules.variant, starter);
    }

    /// Ends a rotating match, if one is being played: the game in play
    /// stays the engine's game, and `newgame` starts another of it.
    pub fn end_rotation(&mut self) {
        self.rotation = None;
    }

    /// The rotating match being played, if any.
    pub fn rotation(&self) -> Option<&Rotation> {
        self.rotation.as_ref()
    }

    /// Puts the engine at `state`, stopping any search. The state's game
    /// must be the engine's.
    pub fn set_state(&mut self, state: GameState) -> Result<(), SetupError> {
        if state.variant != self.settings.rules.variant {
            return Err(SetupError::OtherGame {
                state: state.variant,
                engine: self.settings.rules.variant,
            });
        }
        self.stop_search();
        self.state = state;
        Ok(())
    }

    /// The evaluator the settings name for the current game: its network
    /// (the one `engine.weights` named while that game was set, else the
    /// shipped one) or, with `engine.eval heuristic`, its hand-written
    /// baseline; all-home races from the bear-off tables unless
    /// `engine.race eval`.
    pub fn evaluator(&self) -> Result<Arc<dyn Evaluator>, LoadNetError> {
        let variant = self.settings.rules.variant;
        let tables = self.settings.race == RaceKind::Tables;
        if self.settings.eval == EvalKind::Heuristic {
            return Ok(crate::eval::variants::baseline_shared_with(variant, tables));
        }
        let net = match &self.nets[GameNet::slot(variant)] {
            Some(net) => net.clone(),
            None => load_net(variant, &Weights::Shipped, &self.config.files)?,
        };
        Ok(net.evaluator_with(tables))
    }

    /// The limits of a search `ply` deep (`None`: `engine.ply`) with the
    /// settings' beam, prefilter and threads.
    pub fn limits(&self, ply: Option<Ply>) -> Limits {
        self.settings.limits(ply.unwrap_or(self.settings.ply))
    }

    /// The limits of a `go` begun at `start`: the depth, nodes and move
    /// time asked for (or set), and the front end's cap on every search.
    pub fn go_limits(&self, p: &GoParams, start: Instant) -> Limits {
        let mut limits = self.limits(p.ply);
        limits.nodes = p.nodes;
        let movetime = p
            .movetime
            .or((self.settings.movetime > 0).then_some(self.settings.movetime));
        if !p.infinite {
            limits.deadline = movetime.map(|ms| start + Duration::from_millis(ms));
        }
        limits.deadline = earliest(limits.deadline, self.deadline_from(start));
        limits
    }

    /// The front end's cap on a search begun at `start`, if any.
    pub fn deadline_from(&self, start: Instant) -> Option<Instant> {
        self.config.max_search.map(|d| start + d)
    }

    /// The depth and chain beam a position before its roll is judged with.
    pub fn before_roll_depth(&self) -> (u8, usize) {
        (self.limits(None).plies, Limits::default().inner_beam)
    }

    /// The depth and chain beam a cube decision is judged with
    /// (`engine.cube_ply`, or `engine.ply` but never below
    /// `engine.cube_min_ply`: [`Settings::cube_depth`]).
    pub fn cube_depth(&self) -> (u8, usize) {
        (
            self.settings.cube_depth().gnubg(),
            Limits::default().inner_beam,
        )
    }

    /// The turns a `go` without arguments would rank for the current
    /// stage, best first, searched on this thread with the same settings,
    /// limits and evaluator: for front ends that answer decisions one at
    /// a time.
    pub fn best_turns_now(&self) -> Result<Vec<Candidate>, SearchError> {
        if self.state.result().is_some() || self.state.stage_dice().is_none() {
            return Err(SearchError::NoStage);
        }
        let limits = self.go_limits(&GoParams::default(), Instant::now());
        let eval = self.evaluator()?;
        let flag = AtomicBool::new(false);
        let search =
            Search::new(eval.as_ref(), self.settings.rules, &flag).with_valuation(self.valuation());
        Ok(search.best_turn(&self.state, &limits, &mut |_| {}))
    }

    /// The side to move's chances before its roll, as `eval` judges them
    /// without dice, computed on this thread.
    pub fn before_roll_now(&self) -> Result<Probs, SearchError> {
        self.before_roll_at(self.before_roll_depth())
    }

    /// The side to move's chances before its roll at the cube decisions'
    /// depth ([`Engine::cube_depth`]), computed on this thread.
    pub fn cube_probs_now(&self) -> Result<Probs, SearchError> {
        self.before_roll_at(self.cube_depth())
    }

    /// The side to move's chances before its roll at `(plies, beam)`,
    /// computed on this thread.
    fn before_roll_at(&self, (plies, beam): (u8, usize)) -> Result<Probs, SearchError> {
        let eval = self.evaluator()?;
        let flag = AtomicBool::new(false);
        let search =
            Search::new(eval.as_ref(), self.settings.rules, &flag).with_valuation(self.valuation());
        Ok(search.before_roll(&self.state, plies, beam))
    }

    /// The cube decision of the side to move in the engine's state (before
    /// its roll) in the engine's session, computed on this thread: with a
    /// double of its waiting, the decision it was, whose
    /// [`CubeAction::answer`](crate::cube::CubeAction::answer) is the
    /// other side's reply. `None` when it has no cube to turn.
    pub fn cube_decision_now(&self) -> Result<Option<crate::cube::CubeDecision>, SearchError> {
        let probs = self.cube_probs_now()?;
        Ok(crate::cube::decide_at(
            &probs,
            &self.state,
            &self.session,
            self.state.to_move,
            self.settings.contact_efficiency(),
        ))
    }

    /// Starts `job` on the worker thread, judged by the evaluator the
    /// settings name, with the current rules. When it is done, the engine
    /// is idle again and then `finish` gets its result (on the worker
    /// thread). An `infinite` job is stopped at the end of the input
    /// ([`Engine::finish_at_eof`]) rather than waited for.
    pub fn spawn<T: Send + 'static>(
        &mut self,
        kind: JobKind,
        infinite: bool,
        job: impl FnOnce(&Job<'_>) -> T + Send + 'static,
        finish: impl FnOnce(T) + Send + 'static,
    ) -> Result<(), SearchError> {
        if let Some(running) = self.busy() {
            return Err(SearchError::Busy(running));
        }
        let eval = self.evaluator()?;
        let rules = self.settings.rules;
        let valuation = self.valuation();
        let stop = Arc::new(StopSignal::default());
        let done = Arc::new(AtomicBool::new(false));
        let (signal, done_flag) = (stop.clone(), done.clone());
        let handle = std::thread::Builder::new()
            .name(format!("gulbara-{}", kind.name()))
            .spawn(move || {
                let job_ctx = Job {
                    search: Search::new(eval.as_ref(), rules, signal.flag())
                        .with_valuation(valuation),
                    eval: eval.as_ref(),
                    rules,
                    stop: &signal,
                };
                let result = job(&job_ctx);
                done_flag.store(true, Ordering::Release);
                finish(result);
            })
            .map_err(SearchError::Spawn)?;
        self.worker = Some(Worker {
            kind,
            infinite,
            stop,
            done,
            handle,
        });
        Ok(())
    }

    /// The running job's kind, if a job is running (a finished one is
    /// joined first).
    pub fn busy(&mut self) -> Option<JobKind> {
        self.reap();
        self.worker.as_ref().map(|w| w.kind)
    }

    /// Whether a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.busy().is_some()
    }

    /// Joins a worker that has finished.
    fn reap(&mut self) {
        if self.worker.as_ref().is_some_and(Worker::finished)
            && let Some(w) = self.worker.take()
        {
            let _ = w.handle.join();
        }
    }

    /// Stops a running search and waits for it to hand on its result (a
    /// stopped search still has one). Does nothing when idle.
    pub fn stop_search(&mut self) {
        if let Some(w) = self.worker.take() {
            w.stop_and_join();
        }
    }

    /// The input ended: lets a running search finish and hand on its
    /// result (an infinite one is stopped), then returns.
    pub fn finish_at_eof(&mut self) {
        if self.worker.as_ref().is_some_and(|w| w.infinite) {
            self.stop_search();
        } else if let Some(w) = self.worker.take() {
            let _ = w.handle.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// The session a game starts in: money play, its cube as the variant's
/// table says.
pub fn default_session(variant: Variant) -> MatchState {
    MatchState::money(SessionRules {
        cube: variant.spec().cube,
        ..SessionRules::default()
    })
}

/// The earlier of two optional deadlines.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_of_a_new_engine_name_its_game_and_weights() {
        let mut s = Settings::default();
        s.apply(Setting::Variant(Variant::Backgammon));
        let e = Engine::new(s.clone(), EngineConfig::default()).unwrap();
        assert_eq!(e.state().variant, Variant::Backgammon);
        assert_eq!(e.settings(), &s);
        // A weights file that does not load is an error, never the baseline.
        s.weights = Weights::File("/nonexistent/gulbara.gbnn".into());
        assert!(matches!(
            Engine::new(s, EngineConfig::default()),
            Err(SetupError::Weights(_))
        ));
    }

    #[test]
    fn each_game_keeps_the_weights_named_while_it_was_set() {
        let dir = std::env::temp_dir().join(format!("gulbara-engine-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bg = dir.join("backgammon.gbnn");
        std::fs::write(&bg, crate::eval::hitnet::SHIPPED).unwrap();
        let mut e = Engine::with_config(EngineConfig::default());
        let file = Weights::File(bg.clone());
        // Gul bara refuses the hitting games' network; nothing changes.
        assert!(e.set(Setting::Weights(file.clone())).is_err());
        assert_eq!(e.settings(), &Settings::default());
        e.set(Setting::Variant(Variant::ShortNardy)).unwrap();
        e.set(Setting::Weights(file.clone())).unwrap();
        e.set(Setting::Variant(Variant::GulBara)).unwrap();
        assert_eq!(e.evaluator().unwrap().name(), "net");
        e.set(Setting::Variant(Variant::Backgammon)).unwrap();
        assert_eq!(e.evaluator().unwrap().name(), "hitnet");
        e.set(Setting::Eval(EvalKind::Heuristic)).unwrap();
        assert_ne!(e.evaluator().unwrap().name(), "hitnet");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `engine.race_weights` gives the hitting games a race network: races
    /// outside the tables are judged by it, the rest as before; it stays
    /// when `engine.weights` changes; Gul bara refuses a file.
    #[test]
    fn a_race_network_judges_the_races_only() {
        use crate::eval::hitnet::HitNet;
        use crate::rules::{Pending, Position, RuleOptions};
        let dir = std::env::temp_dir().join(format!("gulbara-race-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let race = dir.join("race.gbnn");
        let race_net = HitNet::random(8, 45);
        std::fs::write(&race, race_net.to_bytes()).unwrap();
        let file = Weights::File(race.clone());
        let mut e = Engine::with_config(EngineConfig::default());
        // Gul bara has no race network: the error names the phase's key.
        let refused = e.set(Setting::RaceWeights(file.clone()));
        assert!(matches!(
            refused,
            Err(SetupError::PhaseWeights {
                phase: Phase::Race,
                ..
            })
        ));
        let text = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(text.starts_with("engine.race_weights: "), "{text}");
        assert_eq!(e.settings(), &Settings::default());
        e.set(Setting::Variant(Variant::Backgammon)).unwrap();
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let shipped = crate::eval::hitnet::shipped_shared().unwrap();
        let mut contact = GameState::start_of(Variant::Backgammon, Side::White);
        contact.pending = Pending::Roll;
        let mut counts = [0u8; 24];
        counts[8] = 3;
        counts[5] = 6;
        counts[3] = 6;
        let runner = crate::rules::position::Checkers::from_counts(&counts).unwrap();
        let mut home = [0u8; 24];
        home[0] = 5;
        home[1] = 5;
        home[5] = 5;
        let home = crate::rules::position::Checkers::from_counts(&home).unwrap();
        let mut race_state = contact;
        race_state.pos = Position {
            own: runner,
            opp: home,
        };
        let before = e.evaluator().unwrap();
        assert_eq!(
            before.eval(&race_state, &opts),
            shipped.eval(&race_state, &opts)
        );
        e.set(Setting::RaceWeights(file.clone())).unwrap();
        assert_eq!(e.settings().race_weights, file);
        for _ in 0..2 {
            let after = e.evaluator().unwrap();
            assert_eq!(
                after.eval(&race_state, &opts),
                race_net.eval(&race_state, &opts)
            );
            assert_eq!(after.eval(&contact, &opts), shipped.eval(&contact, &opts));
            // New contact weights keep the race network.
            e.set(Setting::Weights(Weights::Shipped)).unwrap();
        }
        // shipped: no race network of its own again.
        e.set(Setting::RaceWeights(Weights::Shipped)).unwrap();
        assert_eq!(
            e.evaluator().unwrap().eval(&race_state, &opts),
            shipped.eval(&race_state, &opts)
        );
        // engine.crashed_weights: a crashed board (eight on the ace point,
        // four on the deuce) is judged by the crashed network, the race
        // still by the contact one.
        let crashed = dir.join("crashed.gbnn");
        let crashed_net = HitNet::random(8, 46);
        std::fs::write(&crashed, crashed_net.to_bytes()).unwrap();
        e.set(Setting::CrashedWeights(Weights::File(crashed.clone())))
            .unwrap();
        let mut low = [0u8; 24];
        low[0] = 8;
        low[1] = 4;
        low[4] = 1;
        low[12] = 2;
        let mut crashed_state = contact;
        crashed_state.pos.own = crate::rules::position::Checkers::from_counts(&low).unwrap();
        assert_eq!(
            crate::eval::phase::phase(&crashed_state),
            crate::eval::phase::Phase::Crashed
        );
        let with_crashed = e.evaluator().unwrap();
        assert_eq!(
            with_crashed.eval(&crashed_state, &opts),
            crashed_net.eval(&crashed_state, &opts)
        );
        assert_eq!(
            with_crashed.eval(&race_state, &opts),
            shipped.eval(&race_state, &opts)
        );
        e.set(Setting::CrashedWeights(Weights::Shipped)).unwrap();
        // A new engine with the option applies it.
        let mut s = Settings::default();
        s.apply(Setting::Variant(Variant::Backgammon));
        s.race_weights = file;
        let e = Engine::new(s, EngineConfig::default()).unwrap();
        assert_eq!(
            e.evaluator().unwrap().eval(&race_state, &opts),
            race_net.eval(&race_state, &opts)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_job_hands_on_its_result_and_the_engine_is_idle_again() {
        let mut e = Engine::with_config(EngineConfig::default());
        e.set(Setting::Ply(Ply::new(1).unwrap())).unwrap();
        let state = GameState::start(Side::White)
            .roll(&e.settings().rules, 6, 5)
            .unwrap();
        e.set_state(state).unwrap();
        let limits = e.limits(None);
        let (tx, rx) = std::sync::mpsc::channel();
        e.spawn(
            JobKind::Go,
            false,
            move |job| job.search.best_turn(&state, &limits, &mut |_| {}).len(),
            move |n| tx.send(n).unwrap(),
        )
        .unwrap();
        let ranked = rx.recv().unwrap();
        assert!(ranked > 0);
        e.finish_at_eof();
        assert!(!e.is_searching());
        assert_eq!(e.best_turns_now().unwrap().len(), ranked);
    }
}
