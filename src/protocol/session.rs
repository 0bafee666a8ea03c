//! The session state machine: applies parsed commands to a position, dice
//! and settings, runs searches on a worker thread, and writes responses.
//!
//! A session owns no transport: it writes whole lines through an
//! [`Output`] and is fed whole lines by the transport.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::analysis::rollout::{
    MAX_CANDIDATES, Rollout, RolloutParams, Root, Stats, parse_plays, stats_fields,
};
use crate::engine::{
    Engine, EngineConfig, GoParams, Job, JobKind, LoadNetError, SearchError, SetupError,
};
use crate::notation::{self, play_text_at, side_text, state_text, white_view};
use crate::protocol::parser::{Base, Command, ProtocolError, RolloutArgs, parse_command, quote};
use crate::protocol::settings::Settings;
use crate::rules::{GameState, Pending, Side, StageGen, Variant};
use crate::search::{Limits, Progress};

pub use crate::engine::FileAccess;

/// Where a session writes its response lines (without line endings). It
/// must write each line whole and flush it at once; it is called from the
/// reading thread and from the search thread.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// What the transport should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received: close the session.
    Quit,
}

/// How a session is set up by its transport.
#[derive(Clone, Debug, Default)]
pub struct SessionConfig {
    /// What it may read.
    pub files: FileAccess,
    /// The longest a search may run (`go infinite` included), if capped.
    pub max_search: Option<Duration>,
}

/// One protocol session: the lines of one client over an [`Engine`].
pub struct Session {
    out: Output,
    engine: Engine,
}

/// The engine's name and version line.
pub fn id_name() -> String {
    format!("id name gulbara {}", env!("CARGO_PKG_VERSION"))
}

/// The protocol's error for a setting the engine refused.
fn setup_error(e: SetupError) -> ProtocolError {
    match e {
        SetupError::Weights(LoadNetError::NoWeightsDir) => {
            ProtocolError::unsupported(format!("engine.weights: {e}"))
        }
        SetupError::Weights(_) => ProtocolError::bad_value(format!("engine.weights: {e}")),
        SetupError::OtherGame { .. } => ProtocolError::bad_value(e.to_string()),
    }
}

/// The protocol's error for a search the engine could not start.
fn search_error(e: SearchError) -> ProtocolError {
    match e {
        SearchError::Evaluator(_) => ProtocolError::bad_state(format!("engine.weights: {e}")),
        _ => ProtocolError::bad_state(e.to_string()),
    }
}

fn fmt_p(p: f32) -> String {
    format!("{p:.4}")
}

impl Session {
    /// A new session at the start position (White to roll), default settings.
    pub fn new(out: Output) -> Session {
        Session::with_config(out, SessionConfig::default())
    }

    /// A new session with the transport's file policy and search cap.
    pub fn with_config(out: Output, config: SessionConfig) -> Session {
        Session {
            out,
            engine: Engine::with_config(EngineConfig {
                files: config.files,
                max_search: config.max_search,
            }),
        }
    }

    /// The engine the session drives.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The current state (for tests and tools).
    pub fn state(&self) -> &GameState {
        self.engine.state()
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        self.engine.settings()
    }

    /// Does what `set <key> <value>` does (the same checks and errors).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), ProtocolError> {
        let setting = self.engine.settings().parse(key, value)?;
        self.engine.set(setting).map_err(setup_error)
    }

    fn say(&self, line: &str) {
        // Every response is one line: a control character that slipped into
        // a message (from a client's text) is escaped, never passed on.
        if line.chars().any(char::is_control) {
            let mut clean = String::with_capacity(line.len() + 8);
            for c in line.chars() {
                if c.is_control() {
                    clean.extend(c.escape_default());
                } else {
                    clean.push(c);
                }
            }
            (self.out)(&clean);
        } else {
            (self.out)(line);
        }
    }

    fn error(&self, e: &ProtocolError) {
        tracing::debug!(error = %e, "command rejected");
        self.say(&e.to_string());
    }

    /// Handles one raw line (bytes, line ending removed): invalid UTF-8
    /// is answered with `error bad_command`.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Flow {
        match std::str::from_utf8(line) {
            Ok(s) => self.handle_line(s),
            Err(_) => {
                self.error(&ProtocolError::bad_command("the line is not valid UTF-8"));
                Flow::Continue
            }
        }
    }

    /// Answers a line that the transport cut because it was longer than `max` bytes.
    pub fn line_too_long(&self, max: usize) {
        self.error(&ProtocolError::bad_command(format!(
            "line too long (more than {max} bytes); ignored"
        )));
    }

    /// Whether a search (`go`, `eval`, `hint` or `rollout`) is running.
    pub fn is_searching(&mut self) -> bool {
        self.engine.is_searching()
    }

    /// Stops a running search and waits for its last lines (a `go` prints
    /// its `bestmove`). Does nothing when idle.
    pub fn stop_search(&mut self) {
        self.engine.stop_search();
    }

    /// The input ended: lets a running search finish and print its result
    /// (a `go infinite` is stopped, as by `stop`), then returns.
    pub fn finish_at_eof(&mut self) {
        self.engine.finish_at_eof();
    }

    /// Writes a line through the session's output (for transport notices).
    pub fn say_line(&self, line: &str) {
        self.say(line);
    }

    /// Handles one line of text.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        tracing::trace!(line, "command");
        match parse_command(line) {
            Ok(cmd) => match self.apply(cmd) {
                Ok(flow) => flow,
                Err(e) => {
                    self.error(&e);
                    Flow::Continue
                }
            },
            Err(e) => {
                self.error(&e);
                Flow::Continue
            }
        }
    }

    fn apply(&mut self, cmd: Command) -> Result<Flow, ProtocolError> {
        let read_only = matches!(
            cmd,
            Command::Empty
                | Command::IsReady
                | Command::Stop
                | Command::Quit
                | Command::Ubgi
                | Command::Keys
                | Command::Get { .. }
                | Command::Show
                | Command::Legal { .. }
        );
        if let Some(running) = self.engine.busy()
            && !read_only
        {
            return Err(search_error(SearchError::Busy(running)));
        }
        match cmd {
            Command::Empty => {}
            Command::IsReady => self.say("readyok"),
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.stop_search();
                return Ok(Flow::Quit);
            }
            Command::Ubgi => {
                self.say(&id_name());
                self.say("id author the gulbara developers");
                self.say("proto 0.2");
                self.keys();
                self.say("ubgiok");
            }
            Command::Keys => self.keys(),
            Command::Get { key } => match self.settings().get(&key) {
                Some(v) => self.say(&format!("value {key} {v}")),
                None => {
                    return Err(ProtocolError::bad_value(format!(
                        "unknown key {} (send keys for the list)",
                        quote(&key)
                    )));
                }
            },
            cmd @ (Command::Set { .. }
            | Command::NewGame
            | Command::Position { .. }
            | Command::Dice(..)) => apply_setup(&mut self.engine, cmd)?,
            Command::Show => self.show(),
            Command::Legal { limit } => self.legal(limit)?,
            Command::Go(p) => self.go(p)?,
            Command::Eval => self.eval()?,
            Command::Hint { count, rollout } => self.hint(count, rollout)?,
            Command::Rollout(args) => self.rollout(args)?,
        }
        Ok(Flow::Continue)
    }

    fn keys(&self) {
        let settings = self.settings();
        for d in settings.current_defs() {
            self.say(&settings.key_line(&d));
        }
    }

    fn legal(&self, limit: usize) -> Result<(), ProtocolError> {
        let state = self.state();
        need_stage(state, "legal")?;
        let Some(dice) = state.stage_dice() else {
            return Ok(());
        };
        let mut movegen = StageGen::new();
        let mut ends = Vec::new();
        let playable = movegen.generate(&self.settings().rules, state, dice, &mut ends);
        // Sorted by text, so the order does not depend on the generator's.
        let (variant, pos) = (state.variant, state.pos);
        let mut plays: Vec<String> = ends
            .iter()
            .map(|e| play_text_at(variant, pos, e.play.steps()))
            .collect();
        plays.sort_unstable();
        for p in plays.iter().take(limit) {
            self.say(&format!("play {p}"));
        }
        let truncated = if ends.len() > limit { " truncated" } else { "" };
        self.say(&format!(
            "legal count {} playable {playable}{truncated}",
            ends.len()
        ));
        Ok(())
    }

    /// Starts `job` on the engine's worker; its final lines are written
    /// when it is done.
    fn spawn(
        &mut self,
        kind: JobKind,
        infinite: bool,
        job: impl FnOnce(&Job<'_>, &Output) -> Vec<String> + Send + 'static,
    ) -> Result<(), ProtocolError> {
        let out = self.out.clone();
        let last = self.out.clone();
        self.engine
            .spawn(
                kind,
                infinite,
                move |j| job(j, &out),
                move |lines: Vec<String>| {
                    for l in lines {
                        last(&l);
                    }
                },
            )
            .map_err(search_error)
    }

    fn go(&mut self, p: GoParams) -> Result<(), ProtocolError> {
        need_stage(self.state(), "go")?;
        let start = Instant::now();
        let limits = self.engine.go_limits(&p, start);
        // The server's cap holds for every search, `go infinite` included.
        let cap = self.engine.deadline_from(start);
        let state = *self.state();
        let text =
            move |steps: &[crate::rules::Step]| play_text_at(state.variant, state.pos, steps);
        let infinite = p.infinite;
        self.spawn(JobKind::Go, infinite, move |job, out| {
            let mut report = |pr: &Progress| {
                let ms = pr.millis;
                let nps = pr.nodes * 1000 / ms.max(1);
                out(&format!(
                    "info depth {} nodes {} nps {nps} time {ms} equity {} pv {}",
                    pr.depth,
                    pr.nodes,
                    fmt_p(pr.best.probs.equity()),
                    text(&pr.best.steps)
                ));
            };
            let ranked = job.search.best_turn(&state, &limits, &mut report);
            if infinite {
                job.stop.wait(cap);
            }
            let best = ranked
                .first()
                .map(|c| text(&c.steps))
                .unwrap_or_else(|| "pass".into());
            vec![format!("bestmove {best}")]
        })
    }

    fn eval(&mut self) -> Result<(), ProtocolError> {
        let state = *self.state();
        let dice_set = matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. });
        if state.result().is_none() && dice_set {
            // Dice set: the chances after the best play.
            let mut limits = self.engine.limits(None);
            limits.deadline = self.engine.deadline_from(Instant::now());
            return self.spawn(JobKind::Eval, false, move |job, _| {
                let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
                let probs = ranked.first().map(|c| c.probs).unwrap_or_default();
                vec![evaluation_line_for(state.variant, &probs)]
            });
        }
        let (plies, beam) = self.engine.before_roll_depth();
        self.spawn(JobKind::Eval, false, move |job, _| {
            vec![evaluation_line_for(
                state.variant,
                &job.search.before_roll(&state, plies, beam),
            )]
        })
    }

    fn hint(&mut self, count: usize, rollout: Option<RolloutArgs>) -> Result<(), ProtocolError> {
        need_stage(self.state(), "hint")?;
        let mut limits = self.engine.limits(None);
        limits.candidates = limits.candidates.max(count);
        limits.deadline = self.engine.deadline_from(Instant::now());
        let state = *self.state();
        if let Some(args) = rollout {
            return self.hint_rollout(count, &args, limits);
        }
        self.spawn(JobKind::Hint, false, move |job, _| {
            let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
            let mut lines: Vec<String> = ranked
                .iter()
                .take(count)
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        "hint {} equity {} play {}",
                        i + 1,
                        fmt_p(c.probs.equity()),
                        play_text_at(state.variant, state.pos, &c.steps)
                    )
                })
                .collect();
            lines.push("hintok".into());
            lines
        })
    }

    /// What `rollout` and `hint ... rollout` play, from their arguments and
    /// the settings.
    fn rollout_params(&self, a: &RolloutArgs) -> RolloutParams {
        RolloutParams {
            games: a.games,
            truncate: a.truncate,
            plies: a.ply.gnubg(),
            seed: a.seed.unwrap_or(self.settings().seed),
            luck: a.luck,
            threads: self.settings().threads,
            every: a.every,
        }
    }

    /// `rollout ...`: the position before the roll, or the candidate plays
    /// `moves` names, rolled out on the worker thread.
    fn rollout(&mut self, a: RolloutArgs) -> Result<(), ProtocolError> {
        let state = *self.state();
        if state.result().is_some() {
            return Err(ProtocolError::bad_state("the game is over"));
        }
        let opts = self.settings().rules;
        let (roots, names) = match &a.moves {
            None => {
                if matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. }) {
                    return Err(ProtocolError::bad_state(format!(
                        "dice are set ({}): name the plays to roll out (rollout moves <play> ...), or use hint <n> rollout <games>",
                        state.pending_description()
                    )));
                }
                (
                    vec![crate::analysis::rollout::before_roll_root(&state)],
                    vec![None],
                )
            }
            Some(words) => {
                need_stage(&state, "rollout moves")?;
                let toks: Vec<&str> = words.iter().map(String::as_str).collect();
                let plays = parse_plays(&state, &opts, &toks).map_err(|e| {
                    let at = match e.index {
                        Some(i) => format!("{i} {}", quote(toks[i - 1])),
                        None => format!("{} (end of list)", toks.len() + 1),
                    };
                    ProtocolError::bad_value(format!("rollout moves token {at}: {}", e.reason))
                })?;
                if plays.len() > MAX_CANDIDATES {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout compares at most {MAX_CANDIDATES} plays, got {}",
                        plays.len()
                    )));
                }
                crate::analysis::rollout::candidate_roots(&state, &plays)
            }
        };
        let params = self.rollout_params(&a);
        let deadline = self.engine.deadline_from(Instant::now());
        self.spawn(JobKind::Rollout, false, move |job, out| {
            let bg = state.variant.spec().scores.triple.is_some();
            let with_move = |s: &Stats, name: &Option<String>| {
                let mut l = stats_fields(s, bg);
                if let Some(n) = name {
                    l.push_str(" move ");
                    l.push_str(n);
                }
                l
            };
            let report = |stats: &[Stats]| {
                for (s, n) in stats.iter().zip(&names) {
                    out(&format!("info rollout {}", with_move(s, n)));
                }
            };
            let ro = Rollout::new(job.eval, job.rules, params);
            let stats = ro.run(&roots, job.stop.flag(), deadline, &report);
            stats
                .iter()
                .zip(&names)
                .map(|(s, n)| format!("rolloutok {}", with_move(s, n)))
                .collect()
        })
    }

    /// `hint <n> rollout <games> ...`: the `n` best plays by the search,
    /// each rolled out, ranked by their rollout equity.
    fn hint_rollout(
        &mut self,
        count: usize,
        a: &RolloutArgs,
        limits: Limits,
    ) -> Result<(), ProtocolError> {
        let state = *self.state();
        let params = self.rollout_params(a);
        let deadline = self.engine.deadline_from(Instant::now());
        self.spawn(JobKind::Hint, false, move |job, out| {
            let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
            let top: Vec<_> = ranked.into_iter().take(count).collect();
            let roots: Vec<Root> = top
                .iter()
                .map(|c| Root {
                    state: c.end,
                    side: state.to_move,
                })
                .collect();
            let names: Vec<String> = top
                .iter()
                .map(|c| play_text_at(state.variant, state.pos, &c.steps))
                .collect();
            let bg = state.variant.spec().scores.triple.is_some();
            let report = |stats: &[Stats]| {
                for (s, n) in stats.iter().zip(&names) {
                    out(&format!("info rollout {} move {n}", stats_fields(s, bg)));
                }
            };
            let ro = Rollout::new(job.eval, job.rules, params);
            let stats = ro.run(&roots, job.stop.flag(), deadline, &report);
            let mut order: Vec<usize> = (0..stats.len()).collect();
            // Stable: equal equities keep the search's order.
            order.sort_by(|&x, &y| stats[y].equity().total_cmp(&stats[x].equity()));
            let mut lines: Vec<String> = order
                .iter()
                .enumerate()
                .map(|(rank, &k)| {
                    format!(
                        "hint {} {} play {}",
                        rank + 1,
                        stats_fields(&stats[k], bg),
                        names[k]
                    )
                })
                .collect();
            lines.push("hintok".into());
            lines
        })
    }

    fn show(&self) {
        let s = self.state();
        for l in board_lines(s) {
            self.say(&l);
        }
        self.say(&format!("position {}", state_text(s)));
        let (w, b) = match s.to_move {
            Side::White => (s.pos.own, s.pos.opp),
            Side::Black => (s.pos.opp, s.pos.own),
        };
        self.say(&format!("tomove {}", side_text(s.to_move)));
        self.say(&format!("pips white {} black {}", w.pips(), b.pips()));
        self.say(&format!("off white {} black {}", w.off(), b.off()));
        // Gul bara's lines stay as they always were; the other games add
        // their name (and the bar in the hitting games).
        if s.variant.spec().landing.has_bar() {
            self.say(&format!("bar white {} black {}", w.bar(), b.bar()));
        }
        if s.variant.spec().gnubg {
            // gnubg's and eXtreme Gammon's texts of the position, the side
            // to move on roll (with its dice when they are rolled).
            let board = crate::gnubg::board_of(s.pos);
            let dice = match s.pending {
                Pending::Roll2 { d1, d2 } => Some((d1, d2)),
                _ => None,
            };
            let info = crate::gnubg::matchid::MatchInfo {
                dice,
                ..Default::default()
            };
            self.say(&format!(
                "gnubgid {}:{}",
                crate::gnubg::position_id::encode(&board),
                crate::gnubg::matchid::encode(&info)
            ));
            self.say(&format!(
                "xgid {}",
                crate::gnubg::xgid::encode(&board, dice)
            ));
        }
        if s.variant != Variant::default() {
            self.say(&format!("variant {}", s.variant));
        }
        self.say(&format!("rolls white {} black {}", s.rolls[0], s.rolls[1]));
        let pending = match s.pending {
            Pending::Roll => "roll".to_string(),
            Pending::Roll2 { d1, d2 } => format!("dice {d1}{d2}"),
            Pending::Chain { die, first: true } => format!("dice {die}{die} escalating"),
            Pending::Chain { die, first: false } => format!("chain {die}"),
            Pending::Remainder { die, count } => format!("remainder {die}x{count}"),
        };
        self.say(&format!("pending {pending}"));
        if let Some(r) = s.result() {
            match r.winner {
                Some(side) => self.say(&format!(
                    "result winner {} points {}",
                    side_text(side),
                    r.points
                )),
                None => self.say("result stuck points 0"),
            }
        }
        self.say("showok");
    }
}

/// Applies a command that sets the game up (`set`, `newgame`,
/// `position`, `dice`) to `engine`: what a session does with them, and
/// what `gulbara rollout --setup` does with its lines. Any other command
/// is refused (`bad_command`). On error nothing changes.
pub fn apply_setup(engine: &mut Engine, cmd: Command) -> Result<(), ProtocolError> {
    match cmd {
        Command::Set { key, value } => {
            let setting = engine.settings().parse(&key, &value)?;
            engine.set(setting).map_err(setup_error)
        }
        Command::NewGame => {
            engine.new_game();
            Ok(())
        }
        Command::Position { base, moves } => {
            let variant = engine.settings().rules.variant;
            let start = match base {
                Base::Start(side) => GameState::start_of(variant, side),
                Base::Board(toks) => board_state(variant, &toks)?,
                Base::GnubgId(id) => gnubg_state(variant, &id)?,
                Base::Xgid(x) => xgid_state(variant, &x)?,
            };
            let toks: Vec<&str> = moves.iter().map(String::as_str).collect();
            let next =
                notation::apply_moves(start, &engine.settings().rules, &toks).map_err(|e| {
                    let tok = if e.token.is_empty() {
                        "(end of list)".to_string()
                    } else {
                        quote(&e.token)
                    };
                    ProtocolError::bad_value(format!("moves token {} {tok}: {}", e.index, e.reason))
                })?;
            engine.set_state(next).map_err(setup_error)
        }
        Command::Dice(d1, d2) => {
            let state = engine.state();
            if state.result().is_some() {
                return Err(ProtocolError::bad_state("the game is over"));
            }
            match state.pending {
                Pending::Roll => {}
                Pending::Remainder { .. } => {
                    return Err(ProtocolError::bad_state(
                        "a remainder is pending: play it first (go plays it without dice)",
                    ));
                }
                _ => {
                    return Err(ProtocolError::bad_state(format!(
                        "dice are already set ({}); send position to start over",
                        state.pending_description()
                    )));
                }
            }
            let next = state
                .roll(&engine.settings().rules, d1, d2)
                .map_err(|e| ProtocolError::bad_state(e.to_string()))?;
            engine.set_state(next).map_err(setup_error)
        }
        _ => Err(ProtocolError::bad_command(
            "only set, newgame, position and dice set a game up",
        )),
    }
}

/// Whether `state` has a stage to play, or why there is nothing to play
/// (for the error of `what`).
fn need_stage(state: &GameState, what: &str) -> Result<(), ProtocolError> {
    if state.result().is_some() {
        return Err(ProtocolError::bad_state("the game is over"));
    }
    if state.stage_dice().is_none() {
        return Err(ProtocolError::bad_state(format!(
            "no dice: send dice <d1> <d2> before {what}"
        )));
    }
    Ok(())
}

/// `evaluation win <p> winmars <p> losemars <p> equity <e>`.
pub fn evaluation_line(p: &crate::eval::Probs) -> String {
    format!(
        "evaluation win {} winmars {} losemars {} equity {}",
        fmt_p(p.win),
        fmt_p(p.win_mars),
        fmt_p(p.lose_mars),
        fmt_p(p.equity())
    )
}

/// `evaluation_line`, with `winbg <p> losebg <p>` before the equity in
/// backgammon.
pub fn evaluation_line_for(variant: Variant, p: &crate::eval::Probs) -> String {
    if variant.spec().scores.triple.is_none() {
        return evaluation_line(p);
    }
    format!(
        "evaluation win {} winmars {} losemars {} winbg {} losebg {} equity {}",
        fmt_p(p.win),
        fmt_p(p.win_mars),
        fmt_p(p.lose_mars),
        fmt_p(p.win_bg),
        fmt_p(p.lose_bg),
        fmt_p(p.equity())
    )
}

/// The state of `position board <tokens>` in `variant`.
fn board_state(variant: Variant, toks: &[String]) -> Result<GameState, ProtocolError> {
    let toks: Vec<&str> = toks.iter().map(String::as_str).collect();
    let (state, used) = notation::parse_state_in(variant, &toks)
        .map_err(|e| ProtocolError::bad_value(format!("bad position: {e}")))?;
    if used != toks.len() {
        return Err(ProtocolError::bad_value(format!(
            "bad position: unexpected {} after the position (moves must follow 'moves')",
            quote(toks[used])
        )));
    }
    Ok(state)
}

/// The state of `position gnubgid <ID>[:<MatchID>]`: the side on roll is
/// White, to roll, or, when the Match ID says its dice are rolled (and no
/// double waits for an answer), to play them.
fn gnubg_state(variant: Variant, id: &str) -> Result<GameState, ProtocolError> {
    let bad = |what: &str, e: &dyn std::fmt::Display| {
        ProtocolError::bad_value(format!("bad gnubg {what} {}: {e}", quote(id)))
    };
    if !variant.spec().gnubg {
        return Err(bad(
            "Position ID",
            &crate::gnubg::BoardError::Variant(variant),
        ));
    }
    let (pos_id, match_id) = match id.split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (id, None),
    };
    let board = crate::gnubg::position_id::decode(pos_id).map_err(|e| bad("Position ID", &e))?;
    let dice = match match_id {
        Some(m) => {
            let info = crate::gnubg::matchid::decode(m).map_err(|e| bad("Match ID", &e))?;
            info.dice.filter(|_| !info.doubled && info.resigned == 0)
        }
        None => None,
    };
    crate::gnubg::state_of(variant, &board, dice).map_err(|e| bad("Position ID", &e))
}

/// The state of `position xgid <XGID>`: the side on turn is White, to roll
/// or to play the dice the XGID gives.
fn xgid_state(variant: Variant, text: &str) -> Result<GameState, ProtocolError> {
    let bad = |e: &dyn std::fmt::Display| {
        ProtocolError::bad_value(format!("bad XGID {}: {e}", quote(text)))
    };
    if !variant.spec().gnubg {
        return Err(bad(&crate::gnubg::BoardError::Variant(variant)));
    }
    let x = crate::gnubg::xgid::decode(text).map_err(|e| bad(&e))?;
    crate::gnubg::state_of(variant, &x.board, x.dice).map_err(|e| bad(&e))
}

/// The ASCII board of `show`: four lines starting with `board`, points
/// 13..24 on top and 12..1 below (White's numbering), `15W` for fifteen
/// White checkers, `3B` for three Black ones, `.` for an empty point.
pub fn board_lines(state: &GameState) -> Vec<String> {
    let v = white_view(state);
    let cell = |p: usize| -> String {
        let c = v[p - 1];
        let t = match c {
            0 => ".".to_string(),
            n if n > 0 => format!("{n}W"),
            n => format!("{}B", -n),
        };
        format!("{t:>4}")
    };
    let num = |p: usize| format!("{p:>4}");
    let row = |pts: &[usize], f: &dyn Fn(usize) -> String| -> String {
        let a: String = pts[..6].iter().map(|&p| f(p)).collect();
        let b: String = pts[6..].iter().map(|&p| f(p)).collect();
        format!("board{a} |{b}")
    };
    let top: Vec<usize> = (13..=24).collect();
    let bottom: Vec<usize> = (1..=12).rev().collect();
    vec![
        row(&top, &num),
        row(&top, &cell),
        row(&bottom, &cell),
        row(&bottom, &num),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn session() -> (Session, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let l = lines.clone();
        let out: Output = Arc::new(move |s: &str| l.lock().unwrap().push(s.to_string()));
        (Session::new(out), lines)
    }

    fn run(s: &mut Session, lines: &Arc<Mutex<Vec<String>>>, cmd: &str) -> Vec<String> {
        lines.lock().unwrap().clear();
        s.handle_line(cmd);
        while s.is_searching() {
            std::thread::sleep(Duration::from_millis(1));
        }
        lines.lock().unwrap().clone()
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let (mut s, l) = session();
        run(&mut s, &l, "position startpos moves 65 24/13");
        let before = *s.state();
        let r = run(&mut s, &l, "position startpos moves 65 24/18 13/8");
        assert!(
            r[0].starts_with("error bad_value moves token 3 '13/8'"),
            "{r:?}"
        );
        assert_eq!(*s.state(), before);
    }

    #[test]
    fn go_needs_dice_and_answers_once() {
        let (mut s, l) = session();
        let r = run(&mut s, &l, "go");
        assert!(r[0].starts_with("error bad_state"), "{r:?}");
        run(&mut s, &l, "dice 6 5");
        let r = run(&mut s, &l, "go ply 1");
        assert_eq!(r.iter().filter(|x| x.starts_with("bestmove ")).count(), 1);
    }

    #[test]
    fn gnubg_and_xg_texts_set_dice_and_show_back() {
        let (mut s, l) = session();
        run(&mut s, &l, "set game.variant backgammon");
        // The start with 5-2 rolled, as gnubg prints it.
        run(&mut s, &l, "position gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE");
        assert_eq!(s.state().pending, Pending::Roll2 { d1: 5, d2: 2 });
        let shown = run(&mut s, &l, "show");
        assert!(shown.contains(&"gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE".to_string()));
        assert!(
            shown.contains(&"xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10".to_string())
        );
        // A double waiting for its answer: the position, to roll.
        run(
            &mut s,
            &l,
            "position xgid XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:0:10",
        );
        assert_eq!(s.state().pending, Pending::Roll);
        let before = *s.state();
        for bad in [
            "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10",
            "position gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAA!",
            "position gnubgid 4HPwATDgc/ABMA:",
        ] {
            let r = run(&mut s, &l, bad);
            assert!(r[0].starts_with("error bad_value"), "{bad}: {r:?}");
            assert_eq!(*s.state(), before, "{bad}");
        }
        run(&mut s, &l, "set game.variant gulbara");
        let r = run(
            &mut s,
            &l,
            "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        );
        assert!(r[0].contains("not gulbara"), "{r:?}");
    }

    #[test]
    fn each_game_loads_only_its_own_weights() {
        let dir = std::env::temp_dir().join(format!("gulbara-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gul = dir.join("gulbara.gbnn");
        let bg = dir.join("backgammon.gbnn");
        std::fs::write(&gul, crate::eval::net::SHIPPED).unwrap();
        std::fs::write(&bg, crate::eval::hitnet::SHIPPED).unwrap();
        let (mut s, l) = session();
        run(&mut s, &l, "set game.variant backgammon");
        let r = run(&mut s, &l, &format!("set engine.weights {}", gul.display()));
        assert!(r[0].contains("weights of another game"), "{r:?}");
        assert!(run(&mut s, &l, &format!("set engine.weights {}", bg.display())).is_empty());
        // The network and the baseline judge the start differently.
        let net = run(&mut s, &l, "eval");
        run(&mut s, &l, "set engine.eval heuristic");
        let base = run(&mut s, &l, "eval");
        assert!(net[0].starts_with("evaluation win "), "{net:?}");
        assert_ne!(net, base);
        run(&mut s, &l, "set game.variant long_nardy");
        let r = run(&mut s, &l, &format!("set engine.weights {}", bg.display()));
        assert!(r[0].starts_with("error bad_value"), "{r:?}");
        run(&mut s, &l, "set game.variant gulbara");
        let r = run(&mut s, &l, &format!("set engine.weights {}", bg.display()));
        assert!(r[0].starts_with("error bad_value"), "{r:?}");
        assert!(run(&mut s, &l, &format!("set engine.weights {}", gul.display())).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn board_has_four_rows() {
        let b = board_lines(&GameState::start(Side::White));
        assert_eq!(b.len(), 4);
        assert!(b[1].ends_with("15W"));
        assert!(b[2].starts_with("board 15B"));
    }
}
