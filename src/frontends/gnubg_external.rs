//! `gulbara gnubg-external`: gnubg's external-player interface.
//!
//! gnubg (`set player N external HOST:PORT`) connects once and keeps the
//! connection; per decision it sends one FIBS board string ([`super::fibs`])
//! followed by a line end and a NUL, and reads one line back:
//!
//! - a checker play in gnubg's combined notation ([`crate::gnubg::movetext`]),
//!   or an empty line when nothing can be played;
//! - `roll` for a cube decision: the engine is cubeless and never doubles;
//! - `take` or `drop` for a double: it takes when its cubeless equity
//!   after taking, with the doubler to roll, is above −0.5 (a drop loses
//!   1, a take at twice the stake loses less than 1 exactly then).
//!
//! gnubg crashes on a reply it cannot parse and records a well-formed
//! illegal play as no move, so every play is checked before it is sent: the
//! text is parsed back and must end where the searched play ends. A board
//! string the bridge cannot read is answered `Error (...)`, which gnubg
//! prints and gets past. Nothing else is ever written on the socket; logs
//! go to stderr.

use std::io::{BufWriter, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::Duration;

use super::board_answer::{self, AnswerError, BoardAnswer};
use crate::engine::{Engine, EngineConfig, Setting, SettingError, Settings, SetupError};
use crate::gnubg::fibs::{self, BoardRequest};
use crate::gnubg::movetext;
use crate::rules::{Position, Step, Variant};

/// Why a decision could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// The board string is not one the bridge reads.
    #[error("bad board string: {0}")]
    Board(#[from] fibs::FibsError),
    /// The board is not a position of the variant.
    #[error("bad position: {0}")]
    Position(#[from] crate::gnubg::BoardError),
    /// A setting is not one the engine knows, or not a value it takes
    /// (the detail as the protocol's `set` would answer it).
    #[error("error bad_value {0}")]
    Setting(#[from] SettingError),
    /// `game.variant` among the settings: the variant is the bridge's own.
    #[error("error bad_value game.variant is set with --variant")]
    VariantSetting,
    /// The engine refused the settings (weights that do not load).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The board could not be answered.
    #[error(transparent)]
    Answer(#[from] AnswerError),
    /// The searched play did not survive its own round trip through
    /// gnubg's notation (a bug: nothing is sent that gnubg could misread).
    #[error("internal: the play {0:?} does not read back as the play searched")]
    Notation(String),
}

/// Answers gnubg's decisions with an engine's search.
pub struct Bridge {
    engine: Engine,
    variant: Variant,
}

impl Bridge {
    /// A bridge playing `variant` (backgammon or short nardy), with the
    /// protocol settings given as `(key, value)` pairs applied in order,
    /// as `set` would apply them.
    pub fn new(variant: Variant, settings: &[(String, String)]) -> Result<Bridge, BridgeError> {
        if !variant.spec().gnubg {
            return Err(BridgeError::Position(crate::gnubg::BoardError::Variant(
                variant,
            )));
        }
        let mut typed = Settings::default();
        typed.apply(Setting::Variant(variant));
        for (k, v) in settings {
            if k == "game.variant" {
                return Err(BridgeError::VariantSetting);
            }
            typed.set(k, v)?;
        }
        let engine = Engine::new(typed, EngineConfig::default())?;
        Ok(Bridge { engine, variant })
    }

    /// The reply to one message from gnubg (without its line end): a play,
    /// `roll`, `take`, `drop`, an empty line for no move, or `Error (...)`.
    pub fn answer(&mut self, message: &str) -> String {
        match self.decide(message) {
            Ok(reply) => reply,
            Err(e) => {
                tracing::warn!(error = %e, "cannot answer gnubg");
                // gnubg prints a reply that starts "Error (" and goes on;
                // the text stays on one short line without parentheses.
                let msg: String = e
                    .to_string()
                    .chars()
                    .filter(|c| !c.is_control() && *c != '(' && *c != ')')
                    .take(200)
                    .collect();
                format!("Error (gulbara: {msg})")
            }
        }
    }

    /// The answer to one board string.
    pub fn decide(&mut self, message: &str) -> Result<String, BridgeError> {
        tracing::trace!(
            board = message.trim_end_matches(['\0', '\n', '\r']),
            "from gnubg"
        );
        let req = fibs::parse(message)?;
        tracing::debug!(?req.decision, player = req.player, "decision");
        self.reply(&req)
    }

    /// The answer to one board string, in gnubg's notation.
    fn reply(&mut self, req: &BoardRequest) -> Result<String, BridgeError> {
        let text = match board_answer::answer(&mut self.engine, self.variant, req)? {
            BoardAnswer::Double => "double",
            BoardAnswer::Roll => "roll",
            BoardAnswer::Take => "take",
            BoardAnswer::Drop => "drop",
            BoardAnswer::Play { from, steps } => return self.play_text(from.pos, &steps),
        };
        Ok(text.into())
    }

    /// The play in gnubg's combined notation, checked by reading it back.
    fn play_text(&self, pos: Position, steps: &[Step]) -> Result<String, BridgeError> {
        let text = movetext::combined(pos, steps);
        let searched = steps
            .iter()
            .fold(pos, |p, &s| self.variant.apply_step(p, s));
        let read_back: Option<Position> = movetext::parse(&text)
            .ok()
            .and_then(|hops| movetext::apply_hops(pos, &hops));
        if read_back != Some(searched) {
            return Err(BridgeError::Notation(text));
        }
        Ok(text)
    }
}

/// The longest message accepted before its NUL, in bytes.
const MAX_MESSAGE: usize = fibs::MAX_LEN;

/// Answers one connection until gnubg closes it. Messages end in a NUL or
/// a line end (gnubg sends both); an over-long one ends the connection.
pub fn serve_connection(
    bridge: &mut Bridge,
    mut reader: impl Read,
    writer: impl Write,
) -> std::io::Result<()> {
    let mut writer = BufWriter::new(writer);
    let mut pending: Vec<u8> = Vec::with_capacity(256);
    let mut buf = [0u8; 4096];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &b in &buf[..n] {
            if b == 0 || b == b'\n' {
                let message = String::from_utf8_lossy(&pending).trim().to_string();
                pending.clear();
                if message.is_empty() {
                    continue;
                }
                let reply = bridge.answer(&message);
                tracing::info!(reply = %reply, "answer");
                writer.write_all(reply.as_bytes())?;
                writer.write_all(b"\n")?;
                writer.flush()?;
            } else if pending.len() >= MAX_MESSAGE {
                tracing::warn!("message longer than {MAX_MESSAGE} bytes; closing");
                writer.write_all(b"Error (gulbara: message too long)\n")?;
                writer.flush()?;
                return Ok(());
            } else {
                pending.push(b);
            }
        }
    }
}

/// Where the bridge listens: gnubg's `HOST:PORT` (TCP), or, as gnubg reads
/// an address without a colon, a Unix socket path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListenAddr {
    /// A TCP address.
    Tcp(SocketAddr),
    /// A Unix socket path (created; an existing socket file is replaced).
    Unix(PathBuf),
}

/// A `--listen` value that is no address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is neither HOST:PORT (an IP address and a port) nor a Unix socket path")]
pub struct ListenAddrError(String);

impl std::str::FromStr for ListenAddr {
    type Err = ListenAddrError;
    fn from_str(s: &str) -> Result<Self, ListenAddrError> {
        if let Ok(a) = s.parse::<SocketAddr>() {
            return Ok(ListenAddr::Tcp(a));
        }
        if s.contains(':') || s.is_empty() {
            return Err(ListenAddrError(s.to_string()));
        }
        Ok(ListenAddr::Unix(PathBuf::from(s)))
    }
}

/// Why the bridge cannot listen.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// The address or path cannot be bound.
    #[error("cannot listen on {what}: {source}")]
    Bind {
        /// The address or socket path, as shown.
        what: String,
        /// Why.
        source: std::io::Error,
    },
    /// A Unix socket asked for where there are none.
    #[error("Unix sockets ({}) need a Unix system", .0.display())]
    NoUnixSockets(PathBuf),
}

/// Serves gnubg on `listen`, one connection at a time, waiting for the
/// next when one closes; returns only on a listener error.
pub fn serve(listen: ListenAddr, mut bridge: Bridge) -> Result<(), ListenError> {
    match listen {
        ListenAddr::Tcp(addr) => {
            let listener = TcpListener::bind(addr).map_err(|source| ListenError::Bind {
                what: addr.to_string(),
                source,
            })?;
            if !addr.ip().is_loopback() {
                tracing::warn!(%addr, "listening beyond loopback: anyone who reaches it can drive the engine");
            }
            // Scripts read the address (the port when 0 was asked) from stderr.
            eprintln!(
                "gnubg-external listening on {}",
                listener.local_addr().unwrap_or(addr)
            );
            loop {
                match listener.accept() {
                    Ok((stream, peer)) => {
                        tracing::info!(%peer, "gnubg connected");
                        let _ = stream.set_nodelay(true);
                        let ended = stream
                            .try_clone()
                            .and_then(|r| serve_connection(&mut bridge, r, stream));
                        log_end(ended);
                    }
                    Err(e) => accept_failed(&e),
                }
            }
        }
        #[cfg(unix)]
        ListenAddr::Unix(path) => {
            use std::os::unix::fs::FileTypeExt;
            use std::os::unix::net::UnixListener;
            // Only a stale socket is removed, never another kind of file.
            if let Ok(meta) = std::fs::symlink_metadata(&path)
                && meta.file_type().is_socket()
            {
                std::fs::remove_file(&path).map_err(|source| ListenError::Bind {
                    what: path.display().to_string(),
                    source,
                })?;
            }
            let listener = UnixListener::bind(&path).map_err(|source| ListenError::Bind {
                what: path.display().to_string(),
                source,
            })?;
            eprintln!("gnubg-external listening on {}", path.display());
            loop {
                match listener.accept() {
                    Ok((stream, _)) => {
                        tracing::info!("gnubg connected");
                        let ended = stream
                            .try_clone()
                            .and_then(|r| serve_connection(&mut bridge, r, stream));
                        log_end(ended);
                    }
                    Err(e) => accept_failed(&e),
                }
            }
        }
        #[cfg(not(unix))]
        ListenAddr::Unix(path) => Err(ListenError::NoUnixSockets(path)),
    }
}

fn log_end(ended: std::io::Result<()>) {
    match ended {
        Ok(()) => tracing::info!("gnubg closed the connection"),
        Err(e) => tracing::warn!(error = %e, "connection ended"),
    }
}

fn accept_failed(e: &std::io::Error) {
    tracing::warn!(error = %e, "accept failed");
    // Out of descriptors, say: do not spin.
    std::thread::sleep(Duration::from_millis(50));
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_21: &str = "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:2:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    #[test]
    fn answers_each_kind_of_decision() {
        let mut b = Bridge::new(Variant::Backgammon, &[]).unwrap();
        let play = b.decide(START_21).unwrap();
        let hops = movetext::parse(&play).unwrap();
        assert!(!hops.is_empty());
        // The cube: always roll.
        let cube = START_21.replace(":1:2:1:2:1:1:1:1:0:", ":1:0:0:0:0:1:1:1:0:");
        assert_eq!(b.decide(&cube).unwrap(), "roll");
        // A double at the start: the equity is near 0, so take.
        let take = START_21.replace(":1:2:1:2:1:1:1:1:0:", ":-1:0:0:0:0:1:1:1:1:");
        assert_eq!(b.decide(&take).unwrap(), "take");
    }

    #[test]
    fn a_dance_is_an_empty_line_and_a_lost_race_is_dropped() {
        // Player 1 on the bar against a closed board (player 0 holds its
        // points 1..6, board[24..19]), rolls 6-6: nothing to play.
        let mut f: Vec<String> = START_21.split(':').map(String::from).collect();
        for v in f.iter_mut().skip(6).take(26) {
            *v = "0".into();
        }
        for p in 19..=24 {
            f[6 + p] = "-2".into();
        }
        f[6 + 25] = "1".into(); // player 1's bar
        f[6 + 13] = "14".into(); // player 1's point 13
        f[33] = "6".into();
        f[34] = "6".into();
        let mut b = Bridge::new(Variant::Backgammon, &[]).unwrap();
        assert_eq!(b.decide(&f.join(":")).unwrap(), "");
        // The same board, player 0 (three checkers off already) doubles and
        // player 1 decides: gammoned more often than not, a drop.
        f[32] = "-1".into();
        f[33] = "0".into();
        f[34] = "0".into();
        f[40] = "1".into();
        assert_eq!(b.decide(&f.join(":")).unwrap(), "drop");
    }

    #[test]
    fn listen_addresses_as_gnubg_reads_them() {
        assert_eq!(
            "127.0.0.1:7668".parse::<ListenAddr>(),
            Ok(ListenAddr::Tcp("127.0.0.1:7668".parse().unwrap()))
        );
        assert_eq!(
            "/tmp/gulbara.sock".parse::<ListenAddr>(),
            Ok(ListenAddr::Unix("/tmp/gulbara.sock".into()))
        );
        assert!("localhost:7668".parse::<ListenAddr>().is_err());
        assert!("".parse::<ListenAddr>().is_err());
    }

    #[test]
    fn a_connection_answers_each_message_and_stops_an_endless_one() {
        let mut b = Bridge::new(Variant::Backgammon, &[]).unwrap();
        let cube = START_21.replace(":1:2:1:2:1:1:1:1:0:", ":1:0:0:0:0:1:1:1:0:");
        let input = format!("{cube}\n\0{cube}\n\0");
        let mut out = Vec::new();
        serve_connection(&mut b, input.as_bytes(), &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "roll\nroll\n");
        let endless = "board:".repeat(1000);
        let mut out = Vec::new();
        serve_connection(&mut b, endless.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Error (gulbara: message too long)\n"
        );
    }

    #[test]
    fn bad_input_is_an_error_reply() {
        let mut b = Bridge::new(Variant::ShortNardy, &[]).unwrap();
        let r = b.answer("board:1:2");
        assert!(r.starts_with("Error (gulbara: "), "{r}");
        assert!(r.ends_with(')'));
        assert!(!r[7..r.len() - 1].contains(['(', ')']));
        assert!(Bridge::new(Variant::GulBara, &[]).is_err());
        let bad = [("engine.ply".to_string(), "9".to_string())];
        assert!(Bridge::new(Variant::Backgammon, &bad).is_err());
    }
}
