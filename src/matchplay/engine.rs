//! A client for one engine that speaks the gulbara protocol: a spawned
//! process (stdin/stdout) or a TCP connection (`tcp://host:port`). Its
//! lines are the protocol's command values written out
//! ([`crate::protocol::cmd`]), so client and server share one grammar.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use crate::cube::CubeAnswer;
use crate::cube::{MatchState, SessionKind, SessionRules};
use crate::game::{CubeRequest, Player, PlayerFault, Turn, TurnRequest};
use crate::notation;
use crate::protocol::cmd::{
    Command as ProtocolCommand, DiceCmd, Double, Go, IsReady, NewSession, PositionCmd, Quit, Set,
    SetCube, SetScore, Ubgi,
};
use crate::rules::Side;

/// The longest line (without its line ending) an engine may write; a longer
/// one is a protocol fault and ends the reading of that engine.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines read from an engine and not yet taken by [`ExternalEngine::expect`]; when
/// the queue is full the reader stops reading (the engine's pipe fills).
pub const LINE_QUEUE: usize = 1024;

/// How an engine is reached and set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// A command line, or `tcp://host:port`.
    pub cmd: String,
    /// A label for reports.
    pub name: String,
    /// `set <key> <value>` sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses the cutechess-style `cmd=... name=... option.k=v` words.
    pub fn parse(words: &[String]) -> Result<EngineSpec, SpecError> {
        let mut cmd = None;
        let mut name = None;
        let mut options = Vec::new();
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(w.clone()))?;
            match k {
                "cmd" => cmd = Some(v.to_string()),
                "name" => name = Some(v.to_string()),
                _ => match k.strip_prefix("option.") {
                    // The match's game and rules are the referee's (`--variant`,
                    // `--rule`), sent to every engine: an engine told others
                    // would play another game than the one judged.
                    Some(key) if key.starts_with("rules.") || key == "game.variant" => {
                        return Err(SpecError::GameOption(key.to_string()));
                    }
                    Some(key) if !key.is_empty() => options.push((key.to_string(), v.to_string())),
                    _ => return Err(SpecError::Unknown(k.to_string())),
                },
            }
        }
        let cmd = cmd.ok_or(SpecError::NoCmd)?;
        let name = name.unwrap_or_else(|| cmd.clone());
        Ok(EngineSpec { cmd, name, options })
    }
}

/// Why an engine's words on the command line were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A word without `=`.
    #[error("engine argument '{0}' is not key=value")]
    NotKeyValue(String),
    /// `option.game.variant` or `option.rules.*`.
    #[error("engine option '{0}': the match sets the game and its rules (--variant, --rule)")]
    GameOption(String),
    /// A key other than `cmd`, `name` and `option.*`.
    #[error("unknown engine argument '{0}'")]
    Unknown(String),
    /// No `cmd=`.
    #[error("an engine needs cmd=<command line>")]
    NoCmd,
}

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// It could not be started or reached: the program, or the address.
    #[error("cannot start engine: {what}: {source}")]
    Start {
        /// The command line or the address.
        what: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Its command line is empty.
    #[error("cannot start engine: empty command")]
    EmptyCommand,
    /// No such in-process player.
    #[error("cannot start engine: unknown builtin player '{0}' (heuristic, net, random)")]
    UnknownBuiltin(String),
    /// An in-process player's option is not a setting, or not a value of it.
    // The detail as the protocol's `set` would answer it.
    #[error("cannot start engine: error bad_value {0}")]
    Setting(#[source] crate::engine::SettingError),
    /// An in-process player's engine refused its setup.
    #[error("cannot start engine: {0}")]
    Setup(#[source] crate::engine::SetupError),
    /// An in-process player's weights do not load.
    #[error("cannot start engine: engine.weights: {0}")]
    Weights(#[source] crate::engine::LoadNetError),
    /// It closed its output or the connection.
    #[error("engine closed the connection")]
    Closed,
    /// It did not answer in time.
    #[error("engine did not answer within {0} ms")]
    Timeout(u64),
    /// It answered with an error line or something unexpected.
    #[error("engine said: {0}")]
    Protocol(String),
    /// It wrote a line longer than the limit (its output is no longer read).
    #[error("engine wrote a line longer than {0} bytes")]
    LineTooLong(usize),
}

/// A child without the pipe asked for (cannot happen with `Stdio::piped`).
fn no_pipe(cmd: &str, which: &str) -> EngineError {
    EngineError::Start {
        what: cmd.to_string(),
        source: std::io::Error::other(format!("no {which} pipe")),
    }
}

enum Link {
    Process(Child, std::process::ChildStdin),
    Tcp(TcpStream),
}

/// What the reader thread passes on.
enum Incoming {
    Line(String),
    TooLong,
}

/// An external engine, live: its child process (over pipes) or its TCP
/// connection.
pub struct ExternalEngine {
    link: Link,
    lines: Receiver<Incoming>,
    /// Lines the engine wrote that were not the awaited answer (for logs).
    pub chatter: Vec<String>,
}

/// The outcome of reading one line with [`read_line_bounded`].
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A line is in the buffer (without its `\n`; the last line of the
    /// stream may lack one).
    Line,
    /// The stream ended (or failed) before any byte of a new line.
    End,
    /// More than `max` bytes came without a line ending; the rest of the
    /// line is left unread.
    TooLong,
}

/// Reads one line into `buf` (cleared first), holding at most `max` bytes
/// of it in memory.
fn read_line_bounded<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> LineRead {
    buf.clear();
    loop {
        let available = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return LineRead::End,
        };
        if available.is_empty() {
            return if buf.is_empty() {
                LineRead::End
            } else {
                LineRead::Line
            };
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                if buf.len() + i > max {
                    return LineRead::TooLong;
                }
                buf.extend_from_slice(&available[..i]);
                r.consume(i + 1);
                return LineRead::Line;
            }
            None => {
                let n = available.len();
                if buf.len() + n > max {
                    return LineRead::TooLong;
                }
                buf.extend_from_slice(available);
                r.consume(n);
            }
        }
    }
}

fn reader_thread<R: std::io::Read + Send + 'static>(r: R) -> Receiver<Incoming> {
    let (tx, rx) = sync_channel(LINE_QUEUE);
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            let incoming = match read_line_bounded(&mut r, &mut buf, MAX_LINE_BYTES) {
                LineRead::End => break,
                LineRead::TooLong => Incoming::TooLong,
                LineRead::Line => {
                    let line = String::from_utf8_lossy(&buf);
                    Incoming::Line(line.strip_suffix('\r').unwrap_or(&line).to_string())
                }
            };
            let stop = matches!(incoming, Incoming::TooLong);
            // Blocks while the queue is full; fails once the engine is gone.
            if tx.send(incoming).is_err() || stop {
                break;
            }
        }
    });
    rx
}

impl ExternalEngine {
    /// Starts (or connects to) the engine, does the handshake and sends its options.
    pub fn start(
        spec: &EngineSpec,
        extra: &[(String, String)],
        timeout: Duration,
    ) -> Result<ExternalEngine, EngineError> {
        let mut engine = if let Some(addr) = spec.cmd.strip_prefix("tcp://") {
            let stream = TcpStream::connect(addr).map_err(|source| EngineError::Start {
                what: addr.to_string(),
                source,
            })?;
            let _ = stream.set_nodelay(true);
            let read = stream.try_clone().map_err(|source| EngineError::Start {
                what: addr.to_string(),
                source,
            })?;
            ExternalEngine {
                link: Link::Tcp(stream),
                lines: reader_thread(read),
                chatter: Vec::new(),
            }
        } else {
            let words = shell_words(&spec.cmd);
            let (prog, args) = words.split_first().ok_or(EngineError::EmptyCommand)?;
            let mut child = Command::new(prog)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|source| EngineError::Start {
                    what: spec.cmd.clone(),
                    source,
                })?;
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| no_pipe(&spec.cmd, "stdin"))?;
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| no_pipe(&spec.cmd, "stdout"))?;
            ExternalEngine {
                link: Link::Process(child, stdin),
                lines: reader_thread(stdout),
                chatter: Vec::new(),
            }
        };
        engine.send_command(Ubgi)?;
        engine.expect(|l| l == "ubgiok", timeout)?;
        // The match's game and rules first: an option such as
        // `engine.weights` is checked against the game being played.
        for (k, v) in extra.iter().chain(&spec.options) {
            engine.send_command(Set::new(k, v))?;
        }
        engine.send_command(IsReady)?;
        let answer = engine.expect(|l| l == "readyok" || l.starts_with("error "), timeout)?;
        if answer.starts_with("error ") {
            return Err(EngineError::Protocol(answer));
        }
        Ok(engine)
    }

    /// Sends one command, as its protocol line.
    pub fn send_command(&mut self, cmd: impl Into<ProtocolCommand>) -> Result<(), EngineError> {
        self.send(&cmd.into().to_string())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let data = format!("{line}\n");
        let r = match &mut self.link {
            Link::Process(_, stdin) => stdin.write_all(data.as_bytes()).and_then(|_| stdin.flush()),
            Link::Tcp(s) => s.write_all(data.as_bytes()),
        };
        r.map_err(|_| EngineError::Closed)
    }

    /// Waits for a line matching `want`; other lines are kept as chatter,
    /// except `error` lines, which fail at once. Fails once `timeout` has
    /// passed, however many other lines keep coming, and at a line longer
    /// than [`MAX_LINE_BYTES`].
    pub fn expect(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Checked here too: `recv_timeout` hands over a waiting line
            // even when no time is left, so an engine writing lines without
            // end would otherwise never time out.
            if left.is_zero() {
                return Err(EngineError::Timeout(timeout.as_millis() as u64));
            }
            match self.lines.recv_timeout(left) {
                Ok(Incoming::TooLong) => return Err(EngineError::LineTooLong(MAX_LINE_BYTES)),
                Ok(Incoming::Line(line)) => {
                    if want(&line) {
                        return Ok(line);
                    }
                    if line.starts_with("error ") {
                        return Err(EngineError::Protocol(line));
                    }
                    if self.chatter.len() < 64 {
                        self.chatter.push(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout(timeout.as_millis() as u64));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Closed),
            }
        }
    }

    /// Asks for the best turn: returns the words after `bestmove`.
    pub fn best_move(
        &mut self,
        position: &str,
        dice: Option<(u8, u8)>,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        self.chatter.clear();
        self.send_command(PositionCmd::board(position))?;
        if let Some((d1, d2)) = dice {
            self.send_command(DiceCmd { d1, d2 })?;
        }
        self.send_command(Go::default())?;
        let line = self.expect(|l| l.starts_with("bestmove"), timeout)?;
        Ok(line
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect())
    }

    /// Asks for the cube decision in `position` (before its side to move's
    /// roll): with `answering`, after `double`, the answer to that side's
    /// double. Returns the word after `bestcube`.
    pub fn best_cube(
        &mut self,
        position: &str,
        answering: bool,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        self.chatter.clear();
        self.send_command(PositionCmd::board(position))?;
        if answering {
            self.send_command(Double)?;
        }
        self.send_command(Go::cube())?;
        let line = self.expect(|l| l.starts_with("bestcube"), timeout)?;
        Ok(line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string())
    }

    /// Says goodbye and reaps the process.
    pub fn quit(mut self) {
        let _ = self.send_command(Quit);
        if let Link::Process(child, _) = &mut self.link {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        match &mut self.link {
            Link::Process(child, _) => {
                if let Ok(None) = child.try_wait() {
                    let _ = child.kill();
                    let _ = child.wait();
                }
            }
            // Ends the reader thread's blocking read as well.
            Link::Tcp(s) => {
                let _ = s.shutdown(Shutdown::Both);
            }
        }
    }
}

/// Splits a command line into words, honouring single and double quotes.
pub fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                has = true;
            }
            None if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            None => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// An external engine seated as a [`Player`]: the typed state is sent as
/// position text and dice, the `bestmove` words come back as a typed turn
/// (read with [`notation::apply_turn`], so an illegal answer is told in the
/// words the engine used).
pub struct TextPlayer {
    engine: Option<ExternalEngine>,
    move_timeout: Duration,
    /// The session last announced with `newsession` (its kind and rules).
    announced: Option<(SessionKind, SessionRules)>,
}

impl TextPlayer {
    /// Seats `engine`, which has `move_timeout` for each turn.
    pub fn new(engine: ExternalEngine, move_timeout: Duration) -> TextPlayer {
        TextPlayer {
            engine: Some(engine),
            move_timeout,
            announced: None,
        }
    }

    /// The engine, once `session` has been told it: `newsession` when its
    /// kind or rules changed, then the score and the cube. A money session
    /// without the cube is told nothing, so that engines which know no
    /// session commands play cubeless money games as before.
    fn engine_in(&mut self, session: &MatchState) -> Result<&mut ExternalEngine, PlayerFault> {
        let engine = self
            .engine
            .as_mut()
            .ok_or(PlayerFault::Failed(Box::new(EngineError::Closed)))?;
        let plain = session.kind() == SessionKind::Money && !session.rules().cube;
        if plain && self.announced.is_none() {
            return Ok(engine);
        }
        let failed = |e: EngineError| PlayerFault::Failed(Box::new(e));
        let key = (session.kind(), session.rules());
        if self.announced != Some(key) {
            engine
                .send_command(NewSession::of(session))
                .map_err(failed)?;
            self.announced = Some(key);
        }
        if let SessionKind::Match { .. } = session.kind() {
            let score = SetScore {
                white: session.score(Side::White),
                black: session.score(Side::Black),
                crawford: Some(session.is_crawford()),
            };
            engine.send_command(score).map_err(failed)?;
        }
        if session.rules().cube {
            let cube = SetCube {
                value: session.cube(),
                owner: session.owner(),
            };
            engine.send_command(cube).map_err(failed)?;
        }
        Ok(engine)
    }

    /// The engine's `bestcube` word in `ask`'s state and session.
    fn best_cube(&mut self, ask: &CubeRequest<'_>) -> Result<String, PlayerFault> {
        let answering = ask.session.doubled_by().is_some();
        let position = notation::state_text(ask.state);
        let timeout = self.move_timeout;
        self.engine_in(ask.session)?
            .best_cube(&position, answering, timeout)
            .map_err(|e| PlayerFault::Failed(Box::new(e)))
    }
}

/// An engine's `bestcube` word that does not answer what it was asked.
#[derive(Debug, thiserror::Error)]
#[error("'bestcube {word}' does not answer {asked} in {position}")]
pub struct IllegalCubeAnswer {
    /// The word after `bestcube`.
    pub word: String,
    /// What it was asked.
    pub asked: &'static str,
    /// The position text.
    pub position: String,
}

/// An engine's answer that is not exactly the turn it was asked for.
#[derive(Debug, thiserror::Error)]
#[error(
    "illegal move 'bestmove {}' in {position}{}: {error}",
    .words.join(" "),
    .roll.map(|(a, b)| format!(" dice {a}{b}")).unwrap_or_default()
)]
pub struct IllegalAnswer {
    /// The words after `bestmove`.
    pub words: Vec<String>,
    /// The position text the engine was given.
    pub position: String,
    /// The dice it was given, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// What is wrong with the words.
    pub error: notation::TurnWordsError,
}

impl Player for TextPlayer {
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        let timeout = self.move_timeout;
        let engine = self.engine_in(ask.session)?;
        let position = notation::state_text(ask.before);
        let words = engine
            .best_move(&position, ask.roll, timeout)
            .map_err(|e| PlayerFault::Failed(Box::new(e)))?;
        let toks: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Err(error) = notation::apply_turn(ask.start, ask.opts, &toks) {
            return Err(PlayerFault::Illegal(Box::new(IllegalAnswer {
                words,
                position,
                roll: ask.roll,
                error,
            })));
        }
        // Every word parses: the whole list was just applied.
        let moves = toks
            .iter()
            .filter_map(|t| notation::parse_move_token(t).ok())
            .collect();
        Ok(Turn { moves })
    }

    fn offer_double(&mut self, ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
        match self.best_cube(ask)?.as_str() {
            "double" => Ok(true),
            "nodouble" => Ok(false),
            word => Err(PlayerFault::Illegal(Box::new(IllegalCubeAnswer {
                word: word.to_string(),
                asked: "double or nodouble",
                position: notation::state_text(ask.state),
            }))),
        }
    }

    fn answer_double(&mut self, ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
        match self.best_cube(ask)?.as_str() {
            "take" => Ok(CubeAnswer::Take),
            "drop" | "pass" => Ok(CubeAnswer::Drop),
            "beaver" => Ok(CubeAnswer::Beaver),
            word => Err(PlayerFault::Illegal(Box::new(IllegalCubeAnswer {
                word: word.to_string(),
                asked: "take, drop or beaver",
                position: notation::state_text(ask.state),
            }))),
        }
    }

    fn quit(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

#[cfg(test)]
mod tests;
