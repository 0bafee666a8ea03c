//! The session state machine: applies parsed commands to a position, dice
//! and settings, runs searches on a worker thread, and writes responses.
//!
//! A session owns no transport: it writes whole lines through an
//! [`Output`] and is fed whole lines by the transport.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Engine, EngineConfig, Job, JobKind, LoadNetError, SearchError, SetupError};
use crate::protocol::cmd::Set;
use crate::protocol::dialect::{self, Dialect};
use crate::protocol::draft;
use crate::protocol::parser::{Command, ErrorCode, ProtocolError, parse_command};
use crate::protocol::settings::Settings;
use crate::rules::GameState;

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
    /// The dialect the session starts in.
    pub dialect: Dialect,
}

/// One protocol session: the lines of one client over an [`Engine`].
pub struct Session {
    out: Output,
    engine: Engine,
    /// The dialect it speaks now (a native session may switch to v0.1).
    dialect: Dialect,
    /// `setturn`: the player on roll in positions that do not say.
    pub(in crate::protocol) turn: Option<crate::rules::Side>,
}

/// The engine's name and version line.
pub fn id_name() -> String {
    format!("id name gulbara {}", env!("CARGO_PKG_VERSION"))
}

/// The protocol's error for a setting the engine refused.
pub(super) fn setup_error(e: SetupError) -> ProtocolError {
    match e {
        SetupError::Weights(LoadNetError::NoWeightsDir) => {
            ProtocolError::unsupported(format!("engine.weights: {e}"))
        }
        SetupError::Weights(_) => ProtocolError::bad_value(format!("engine.weights: {e}")),
        SetupError::PhaseWeights {
            source: LoadNetError::NoWeightsDir,
            ..
        } => ProtocolError::unsupported(e.to_string()),
        SetupError::PhaseWeights { .. } => ProtocolError::bad_value(e.to_string()),
        SetupError::OtherGame { .. } => ProtocolError::bad_value(e.to_string()),
    }
}

/// The protocol's error for a search the engine could not start.
fn search_error(e: SearchError) -> ProtocolError {
    match e {
        SearchError::Evaluator(_) => ProtocolError::bad_state(format!("engine.weights: {e}")),
        SearchError::Busy(_) => ProtocolError::new(ErrorCode::Busy, e.to_string()),
        _ => ProtocolError::bad_state(e.to_string()),
    }
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
            dialect: config.dialect,
            turn: None,
        }
    }

    /// The dialect the session speaks now.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub(in crate::protocol) fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
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
        Set::new(key, value).apply_to(&mut self.engine)
    }

    pub(in crate::protocol) fn say(&self, line: &str) {
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
        match self.dialect {
            Dialect::Native => self.say(&e.to_string()),
            Dialect::UbgiV01 => self.say(&e.v01_line()),
            // The draft has one word for every failure; the detail goes to
            // the log.
            Dialect::UbgiDraft => {
                tracing::info!(error = %e, "sorry");
                self.say("sorry");
            }
        }
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
        if self.dialect == Dialect::UbgiDraft
            && let Some(board) = draft::board_line(line)
        {
            if let Err(e) = draft::answer_request(self, board) {
                self.error(&e);
            }
            return Flow::Continue;
        }
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

    /// Applies `cmd`: refused while a search runs unless it only reads
    /// the session ([`Command::read_only`]).
    fn apply(&mut self, cmd: Command) -> Result<Flow, ProtocolError> {
        if let Some(running) = self.engine.busy()
            && !cmd.read_only()
        {
            return Err(search_error(SearchError::Busy(running)));
        }
        if self.dialect == Dialect::Native && dialect::speaks_v01(&cmd) {
            tracing::debug!("the client speaks UBGI v0.1");
            self.dialect = Dialect::UbgiV01;
        }
        cmd.apply(self)
    }

    /// Starts `job` on the engine's worker; its final lines are written
    /// when it is done.
    pub(in crate::protocol) fn spawn(
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::cmd::show::board_lines;
    use crate::rules::{Pending, Side};
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
        // The session too: a first double, to 2, by the side to roll.
        let m = *s.engine().session();
        assert_eq!((m.cube(), m.doubled_by()), (1, Some(Side::White)));
        let shown = run(&mut s, &l, "show");
        assert!(
            shown.contains(&"xgid XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:0:0:0:0:10".to_string()),
            "{shown:?}"
        );
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
