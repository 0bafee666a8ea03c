//! The bot's connection and its decisions.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::clip::{self, Event, Toggles};
use crate::cube::met::met_for;
use crate::cube::mwc::{MatchScore, dead};
use crate::engine::{Engine, EngineConfig, Setting, SettingError, Settings, SetupError};
use crate::frontends::board_answer::{self, AnswerError, BoardAnswer, session_of};
use crate::gnubg::fibs::{self, BoardDecision, BoardRequest};
use crate::rules::{Side, Variant};

/// `** ` lines in a row, with no board between, before the bot gives up.
const MAX_NOTICES: u32 = 20;

/// How the bot is run.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The server, `HOST:PORT`.
    pub server: String,
    /// The user name.
    pub user: String,
    /// The password.
    pub password: String,
    /// Register the user first (through `guest`), if it is not yet known.
    pub register: bool,
    /// Invite this player (else wait for invitations).
    pub invite: Option<String>,
    /// The match length of an invitation.
    pub length: u32,
    /// Stop after this many matches (0: never).
    pub matches: u32,
    /// Offer doubles when the engine would (else it only answers them).
    pub offer_doubles: bool,
    /// Only log in, set the toggles and log out: an account made ready for
    /// another client.
    pub setup_only: bool,
    /// Give up when the server says nothing for this long.
    pub idle: Duration,
    /// Protocol settings for the engine, `(key, value)`.
    pub settings: Vec<(String, String)>,
}

/// Why the bot stopped.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The connection failed or closed.
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    /// The server said nothing for too long.
    #[error("the server said nothing for {0:?}")]
    Idle(Duration),
    /// The server refused the login.
    #[error("login refused for {0}")]
    Login(String),
    /// The server refused the registration.
    #[error("registration refused: {0}")]
    Register(String),
    /// `game.variant` among the settings: FIBS plays backgammon.
    #[error("engine settings: FIBS plays backgammon")]
    VariantSetting,
    /// A setting is not one the engine knows, or not a value it takes
    /// (the detail as the protocol's `set` would answer it).
    #[error("engine settings: error bad_value {0}")]
    Setting(#[from] SettingError),
    /// The engine refused the settings (weights that do not load).
    #[error("engine settings: {0}")]
    Setup(#[from] SetupError),
    /// A decision could not be made.
    #[error("decision: {0}")]
    Answer(#[from] AnswerError),
    /// The server refused the bot's commands again and again.
    #[error("the server refused {0} commands in a row; the last: {1}")]
    Refused(u32, String),
}

/// What the bot did: one line per match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotReport {
    /// Matches won and lost.
    pub won: u32,
    /// Matches lost.
    pub lost: u32,
    /// Doubles offered by the bot.
    pub doubles: u32,
    /// Doubles it took and dropped.
    pub takes: u32,
    /// Doubles it dropped.
    pub drops: u32,
}

/// A line-oriented connection to the server.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    idle: Duration,
}

impl Conn {
    fn open(server: &str, idle: Duration) -> Result<Conn, BotError> {
        let stream = TcpStream::connect(server)?;
        stream.set_read_timeout(Some(Duration::from_millis(200)))?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream,
            buf: Vec::new(),
            idle,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), BotError> {
        tracing::debug!(line, "to server");
        self.stream.write_all(format!("{line}\r\n").as_bytes())?;
        Ok(())
    }

    /// Reads more bytes; `false` when the read timed out.
    fn fill(&mut self) -> Result<bool, BotError> {
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk) {
            Ok(0) => Err(BotError::Io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            ))),
            Ok(n) => {
                // Telnet's option bytes (IAC, then two) around password prompts.
                let mut i = 0;
                while i < n {
                    if chunk[i] == 0xff {
                        i += 3;
                    } else {
                        self.buf.push(chunk[i]);
                        i += 1;
                    }
                }
                Ok(true)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The next whole line already received, without its line end.
    fn take_line(&mut self) -> Option<String> {
        let at = self.buf.iter().position(|&b| b == b'\n')?;
        let raw: Vec<u8> = self.buf.drain(..=at).collect();
        let text = String::from_utf8_lossy(&raw[..at.min(clip::MAX_LINE)]);
        let text = text.trim_end_matches(['\r', '\n']).to_string();
        tracing::trace!(line = %text, "from server");
        Some(text)
    }

    /// The next whole line if one comes within about `wait`; the bot's
    /// idle limit counts from `since`.
    fn poll_line(&mut self, wait: Duration, since: Instant) -> Result<Option<String>, BotError> {
        let start = Instant::now();
        loop {
            if let Some(text) = self.take_line() {
                return Ok(Some(text));
            }
            if !self.fill()? {
                if since.elapsed() > self.idle {
                    return Err(BotError::Idle(self.idle));
                }
                if start.elapsed() >= wait {
                    return Ok(None);
                }
            }
        }
    }

    /// Reads until the text received holds `what` (a prompt has no line
    /// end); what came before it is dropped.
    fn wait_for(&mut self, what: &str) -> Result<(), BotError> {
        self.wait_any(&[what]).map(|_| ())
    }

    /// Reads until the text received holds one of `whats`: which one, and
    /// the text up to it (dropped from the buffer).
    fn wait_any(&mut self, whats: &[&str]) -> Result<(usize, String), BotError> {
        let start = Instant::now();
        loop {
            let text = String::from_utf8_lossy(&self.buf).into_owned();
            let first = whats
                .iter()
                .enumerate()
                .filter_map(|(i, w)| text.find(w).map(|at| (at, i, w.len())))
                .min();
            if let Some((at, i, len)) = first {
                let cut = (at + len).min(self.buf.len());
                self.buf.drain(..cut);
                return Ok((i, text[..at + len].to_string()));
            }
            if !self.fill()? && start.elapsed() > self.idle {
                return Err(BotError::Idle(self.idle));
            }
        }
    }
}

/// Registers `user` through the `guest` login, as a person does on FIBS.
/// A name already taken is left as it is (the login then says whether
/// the password is right); a password the server refuses is an error.
pub fn register(config: &BotConfig) -> Result<(), BotError> {
    let mut c = Conn::open(&config.server, config.idle)?;
    c.wait_for("login:")?;
    c.send("guest")?;
    c.wait_for("> ")?;
    c.send(&format!("name {}", config.user))?;
    let (i, said) = c.wait_any(&["password: ", "** ", "> "])?;
    if i != 0 {
        tracing::info!(user = %config.user, "not registered: {}", said.trim());
        return Ok(());
    }
    c.send(&config.password)?;
    let (i, said) = c.wait_any(&["retype your password: ", "give your password: "])?;
    if i != 0 {
        return Err(BotError::Register(last_line(&said)));
    }
    c.send(&config.password)?;
    let (i, said) = c.wait_any(&["You are registered.", "** ", "password: "])?;
    if i != 0 {
        return Err(BotError::Register(last_line(&said)));
    }
    tracing::info!(user = %config.user, "registered");
    let _ = c.send("bye");
    Ok(())
}

/// The last non-empty line of a server's text, for an error.
fn last_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .rev()
        .nth(1)
        .or_else(|| text.lines().map(str::trim).rfind(|l| !l.is_empty()))
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect()
}

/// The bot: a connection, an engine and what it is waiting for.
pub struct Bot {
    config: BotConfig,
    engine: Engine,
    conn: Conn,
    report: BotReport,
    /// The last board the server sent: a double or a resignation comes
    /// without a board of its own (and BaldLies has no `board` command),
    /// and is judged on it.
    last_board: Option<String>,
    refusals: u32,
    in_match: bool,
    /// When to invite (again): the player invited may not be logged in
    /// or ready yet.
    invite_at: Option<Instant>,
}

/// How long the bot waits before inviting again a player who cannot be
/// invited yet.
const REINVITE: Duration = Duration::from_secs(2);

/// How long after the player to invite shows up ready the invitation
/// goes: BaldLies loses the start of a match (`No match!` in its log, and
/// no opening roll) when a player is invited while its login is still
/// being processed.
const SETTLE: Duration = Duration::from_secs(2);

/// When no `5` line says the player to invite is there, the bot invites
/// after this long anyway (and again while the server says it cannot).
const UNSEEN: Duration = Duration::from_secs(10);

impl Bot {
    /// Logs in with CLIP and sets the toggles the bot needs.
    pub fn login(config: BotConfig) -> Result<Bot, BotError> {
        let mut settings = Settings::default();
        settings.apply(Setting::Variant(Variant::Backgammon));
        for (k, v) in &config.settings {
            if k == "game.variant" {
                return Err(BotError::VariantSetting);
            }
            settings.set(k, v)?;
        }
        let engine = Engine::new(settings, EngineConfig::default())?;
        let mut conn = Conn::open(&config.server, config.idle)?;
        conn.wait_for("login:")?;
        conn.send(&format!(
            "login gulbara 1008 {} {}",
            config.user, config.password
        ))?;
        let mut bot = Bot {
            config,
            engine,
            conn,
            report: BotReport::default(),
            last_board: None,
            refusals: 0,
            in_match: false,
            invite_at: None,
        };
        bot.await_welcome()?;
        Ok(bot)
    }

    fn await_welcome(&mut self) -> Result<(), BotError> {
        let start = Instant::now();
        loop {
            while let Some(line) = self.conn.take_line() {
                if let Event::Welcome { name } = clip::parse_line(&line) {
                    tracing::info!(%name, "logged in");
                    return self.conn.send("set boardstyle 3");
                }
            }
            // A refused login is answered by the login prompt again.
            if String::from_utf8_lossy(&self.conn.buf).contains("login:") {
                return Err(BotError::Login(self.config.user.clone()));
            }
            if !self.conn.fill()? && start.elapsed() > self.conn.idle {
                return Err(BotError::Idle(self.conn.idle));
            }
        }
    }

    fn set_toggles(&mut self, t: Toggles) -> Result<(), BotError> {
        // Each toggle flips: only the ones that are wrong are sent.
        for (now, want, name) in [
            (t.autoboard, true, "autoboard"),
            (t.double, true, "double"),
            (t.greedy, false, "greedy"),
            (t.ready, true, "ready"),
        ] {
            if now != want {
                self.conn.send(&format!("toggle {name}"))?;
            }
        }
        if self.config.invite.is_some() {
            self.invite_at = Some(Instant::now() + UNSEEN);
        }
        Ok(())
    }

    fn invite(&mut self) -> Result<(), BotError> {
        self.invite_at = None;
        if let Some(who) = self.config.invite.clone() {
            self.conn
                .send(&format!("invite {who} {}", self.config.length))?;
        }
        Ok(())
    }

    /// Plays until the matches asked for are over (or forever).
    pub fn run(mut self) -> Result<BotReport, BotError> {
        let mut heard = Instant::now();
        loop {
            if self.invite_at.is_some_and(|t| Instant::now() >= t) && !self.in_match {
                self.invite()?;
            }
            let Some(line) = self.conn.poll_line(Duration::from_millis(500), heard)? else {
                continue;
            };
            heard = Instant::now();
            match clip::parse_line(&line) {
                Event::OwnInfo(t) if self.config.setup_only => {
                    self.set_toggles(t)?;
                    // The server applies the toggles before it reads this.
                    self.conn.send("bye")?;
                    return Ok(self.report);
                }
                Event::OwnInfo(t) => self.set_toggles(t)?,
                Event::Who {
                    name,
                    ready,
                    playing,
                } if !self.in_match && self.config.invite.as_deref() == Some(name.as_str()) => {
                    tracing::debug!(%name, ready, playing, "the player to invite");
                    self.invite_at = (ready && !playing).then(|| Instant::now() + SETTLE);
                }
                Event::Invitation { from, length } => {
                    let wanted = self.config.invite.is_none() && !self.in_match;
                    tracing::info!(%from, ?length, wanted, "invitation");
                    if wanted {
                        self.conn.send(&format!("join {from}"))?;
                    }
                }
                Event::Joined { who } => {
                    tracing::info!(%who, "match starts");
                    self.in_match = true;
                }
                Event::NewGame => {
                    self.in_match = true;
                    self.last_board = None;
                }
                Event::Board(b) => {
                    self.on_board(&b)?;
                    self.last_board = Some(b);
                }
                // The board came first and was answered.
                Event::RollOrDouble => {}
                Event::Doubled => self.on_double()?,
                Event::ResignOffered { points } => self.on_resign(points)?,
                // The server rolls for the doubler once the double is taken.
                Event::DoubleAccepted => tracing::info!("our double was taken"),
                Event::NextGame => self.conn.send("join")?,
                Event::MatchOver { won } => {
                    self.in_match = false;
                    if won {
                        self.report.won += 1;
                    } else {
                        self.report.lost += 1;
                    }
                    tracing::info!(won, report = ?self.report, "match over");
                    let played = self.report.won + self.report.lost;
                    if self.config.matches > 0 && played >= self.config.matches {
                        let _ = self.conn.send("bye");
                        return Ok(self.report);
                    }
                    if self.config.invite.is_some() {
                        self.invite_at = Some(Instant::now() + SETTLE);
                    }
                }
                Event::Refused(why) => {
                    // Notices come as `** ...` too; a bot that keeps being
                    // refused stops rather than loops.
                    tracing::info!(%why, "server notice");
                    let not_yet = [
                        "There is no one called",
                        "is refusing games",
                        "is already playing",
                    ];
                    if !self.in_match && not_yet.iter().any(|w| why.contains(w)) {
                        self.invite_at = Some(Instant::now() + REINVITE);
                        continue;
                    }
                    self.refusals += 1;
                    if self.refusals >= MAX_NOTICES {
                        return Err(BotError::Refused(self.refusals, why));
                    }
                }
                Event::Welcome { .. } | Event::Who { .. } | Event::Other => {}
            }
        }
    }

    /// The last board, read; `None` before the first.
    fn last_request(&self) -> Option<BoardRequest> {
        let b = self.last_board.as_deref()?;
        fibs::parse_fibs(b).ok()
    }

    /// The opponent doubled: take or drop, judged on the last board (the
    /// opponent on turn, before its roll).
    fn on_double(&mut self) -> Result<(), BotError> {
        let Some(mut req) = self.last_request() else {
            tracing::warn!("a double before any board: taken");
            return self.conn.send("accept");
        };
        req.decision = BoardDecision::Take;
        req.on_turn = 0;
        req.player = 1;
        let take = !matches!(
            board_answer::answer(&mut self.engine, Variant::Backgammon, &req)?,
            BoardAnswer::Drop
        );
        if take {
            self.report.takes += 1;
        } else {
            self.report.drops += 1;
        }
        tracing::info!(take, "double offered");
        self.conn.send(if take { "accept" } else { "reject" })
    }

    /// The opponent offers to resign for `points`: judged on the last board.
    fn on_resign(&mut self, points: u32) -> Result<(), BotError> {
        let accept = match self.last_request() {
            Some(req) => accept_resignation(&mut self.engine, &req, points)?,
            None => false,
        };
        tracing::info!(points, accept, "resignation offered");
        self.conn.send(if accept { "accept" } else { "reject" })
    }

    fn on_board(&mut self, line: &str) -> Result<(), BotError> {
        // The same board again, with nothing between, is the same decision.
        // (The same board after others is a new one: when both sides could
        // not move, the turn comes back to a board just like the last.)
        if self.last_board.as_deref() == Some(line) {
            return Ok(());
        }
        self.refusals = 0;
        let req = match fibs::parse_fibs(line) {
            Ok(r) => r,
            Err(e) => {
                // Between games the turn is 0: nothing to decide.
                tracing::debug!(error = %e, "board not read");
                return Ok(());
            }
        };
        // "You" are player 1 in a board read as FIBS writes it.
        if req.player != 1 {
            return Ok(());
        }
        let command = match req.decision {
            BoardDecision::Cube => {
                // The opponent's cube: the server rolls for us.
                let ours = req.may_double[1];
                if !ours && req.cube > 1 && !req.crawford {
                    None
                } else if !self.config.offer_doubles {
                    Some("roll".to_string())
                } else {
                    match board_answer::answer(&mut self.engine, Variant::Backgammon, &req)? {
                        BoardAnswer::Double => {
                            self.report.doubles += 1;
                            Some("double".to_string())
                        }
                        _ => Some("roll".to_string()),
                    }
                }
            }
            BoardDecision::Take => {
                match board_answer::answer(&mut self.engine, Variant::Backgammon, &req)? {
                    BoardAnswer::Drop => {
                        self.report.drops += 1;
                        Some("reject".to_string())
                    }
                    _ => {
                        self.report.takes += 1;
                        Some("accept".to_string())
                    }
                }
            }
            BoardDecision::Move { .. } => {
                match board_answer::answer(&mut self.engine, Variant::Backgammon, &req)? {
                    BoardAnswer::Play { steps, .. } => {
                        let direction = clip::board_direction(line).unwrap_or(-1);
                        clip::move_command(&steps, direction)
                    }
                    _ => None,
                }
            }
        };
        if let Some(c) = command {
            tracing::debug!(command = %c, "decision");
            self.conn.send(&c)?;
        }
        Ok(())
    }
}

/// Within this, accepting and playing on are worth the same (the chances
/// are single-precision), and the resignation is accepted.
const TIE: f64 = 1e-4;

/// Whether "You" (player 1 of a FIBS board) should accept a resignation
/// worth `points`: its worth against playing on, the cube dead at its
/// value, the chances judged at the cube decisions' depth (an answer to a
/// resignation is a pass or a take). Money play: points against the cubeless equity times the cube;
/// a match: match-winning chances after each, by the Kazaross-XG2 table.
pub fn accept_resignation(
    engine: &mut Engine,
    req: &BoardRequest,
    points: u32,
) -> Result<bool, AnswerError> {
    let state = crate::gnubg::state_of(Variant::Backgammon, &req.board, None)?;
    engine.set_state(state)?;
    let session = session_of(req, false)?;
    engine.set_session(session);
    let mover = engine.cube_probs_now()?;
    let ours = if req.on_turn == 1 {
        mover
    } else {
        mover.flipped()
    };
    let cube = req.cube.max(1);
    if req.match_length == 0 {
        let playing_on = f64::from(ours.equity()) * f64::from(cube);
        return Ok(f64::from(points) >= playing_on - TIE);
    }
    // In the board's session the player on turn is White.
    let us = if req.on_turn == 1 {
        Side::White
    } else {
        Side::Black
    };
    let score = MatchScore {
        me: session.away(us).unwrap_or(1),
        opp: session.away(us.opponent()).unwrap_or(1),
        post_crawford: session.is_post_crawford(),
    };
    let met = met_for(Variant::Backgammon, true);
    let playing_on = dead(&ours, met, &score, i64::from(cube));
    let accepted = score.after(met, i64::from(points));
    Ok(accepted >= playing_on - TIE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "You" have two checkers left on the 1-point, the opponent all 15 in
    /// its home board: "You" win a gammon, not a backgammon, all but surely.
    fn gammon_board(match_length: u32, on_turn: i8) -> BoardRequest {
        let mut b = [0i8; 26];
        b[1] = 2;
        b[20] = -15;
        let board: Vec<String> = b.iter().map(i8::to_string).collect();
        let line = format!(
            "board:You:opp:{match_length}:0:0:{}:{on_turn}:0:0:0:0:1:1:1:0:1:-1:0:25:13:0:0:0:0:0:0:0",
            board.join(":")
        );
        fibs::parse_fibs(&line).unwrap()
    }

    #[test]
    fn resignations_are_judged_by_what_playing_on_is_worth() {
        let mut engine = Engine::new(
            {
                let mut s = Settings::default();
                s.apply(Setting::Variant(Variant::Backgammon));
                s
            },
            EngineConfig::default(),
        )
        .unwrap();
        for on_turn in [1, -1] {
            // Money: a single game is less than the gammon to come.
            let req = gammon_board(0, on_turn);
            assert!(!accept_resignation(&mut engine, &req, 1).unwrap());
            assert!(accept_resignation(&mut engine, &req, 2).unwrap());
            assert!(accept_resignation(&mut engine, &req, 3).unwrap());
            // A 5-point match at 0-0: the same.
            let req = gammon_board(5, on_turn);
            assert!(!accept_resignation(&mut engine, &req, 1).unwrap());
            assert!(accept_resignation(&mut engine, &req, 2).unwrap());
        }
        // A 1-point match: one point wins it, so a single resignation is
        // as good as the gammon.
        let req = gammon_board(1, 1);
        assert!(accept_resignation(&mut engine, &req, 1).unwrap());
    }
}
