//! The TCP server: an accept loop (retrying passing accept errors), one
//! protocol session per connection with lines framed by [`Connection`] (the
//! line limit and deadline). The connection limits, bounded output with
//! backpressure, the idle deadline and the shutdown are shared with the
//! WebSocket transport ([`super::driver`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tracing::Instrument;

use super::connection::Connection;
use super::driver::{self, Lifecycle, Member, Served, Slot, Slots, drive};

/// Default seconds without a whole line before an idle connection is closed.
pub const DEFAULT_IDLE_TIMEOUT_S: u64 = 120;
/// Default seconds an unfinished line may take to be finished.
pub const DEFAULT_LINE_TIMEOUT_S: u64 = 30;
/// Default seconds a client may leave its output unread before it is closed.
pub const DEFAULT_WRITE_TIMEOUT_S: u64 = 30;
/// Default cap on one search's length in milliseconds (`go infinite` too).
pub const DEFAULT_MAX_SEARCH_MS: u64 = 300_000;
/// Most bytes of output queued for one connection; a connection whose
/// output would go beyond it is closed.
pub const MAX_QUEUED_OUTPUT: usize = 1 << 20;

/// Settings of the server (TCP and HTTP/WebSocket listeners alike).
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address of the TCP protocol listener, if any (loopback by default).
    pub listen: Option<SocketAddr>,
    /// Address of the HTTP listener (the page at `/`, the protocol over a
    /// WebSocket at `/ws`), if any.
    pub http: Option<SocketAddr>,
    /// Longest accepted line in bytes.
    pub max_line: usize,
    /// Close a connection after this long without a whole line (not while it
    /// searches); `None` for never.
    pub idle_timeout: Option<Duration>,
    /// Close a connection whose unfinished line is not finished within this
    /// long; `None` for never.
    pub line_timeout: Option<Duration>,
    /// Close a connection that leaves its output unread this long.
    pub write_timeout: Duration,
    /// Most connections served at once; more are told so and closed.
    pub max_connections: usize,
    /// Most connections from one IP address at once (loopback addresses
    /// only with `limit_loopback`).
    pub max_per_ip: usize,
    /// Whether loopback clients (127.0.0.0/8, ::1) count against
    /// `max_per_ip` too. Off by default: the server is meant for scripts and
    /// GUIs on the same machine, which share only `max_connections`.
    pub limit_loopback: bool,
    /// Cap on a search's length (`go infinite` stops and answers).
    pub max_search: Option<Duration>,
    /// The canonical directory `set engine.weights` may read from, if any.
    pub weights_dir: Option<PathBuf>,
    /// The most games one rollout of the JSON API may ask for.
    pub max_rollout_games: u32,
    /// The sites whose pages may use the JSON API (`*`: any); empty: only
    /// the server's own pages and clients that are not browsers.
    pub cors: Vec<String>,
}

/// A quarter of the slots, at least one.
pub fn default_max_per_ip(max_connections: usize) -> usize {
    (max_connections / 4).max(1)
}

struct Listener {
    listener: TcpListener,
    slots: Slots,
    life: Arc<Lifecycle>,
    config: ServeConfig,
}

/// Serves TCP connections from `listener` until the accept loop fails (a
/// failure of the listening socket itself); the caller ends it at shutdown
/// by dropping this future and shutting `life` down.
pub async fn run(listener: TcpListener, served: Served) -> std::io::Result<()> {
    let mut server = Listener {
        listener,
        slots: served.slots,
        life: served.life,
        config: served.config,
    };
    let res = server.run().await;
    if let Err(e) = &res {
        tracing::error!(error = %e, "accept loop failed");
    }
    res
}

/// Accept errors that concern one connection or a passing shortage (out of
/// descriptors or memory), not the listening socket: retried with a capped
/// back-off while the existing clients are served.
pub(super) fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock | TimedOut | OutOfMemory
    ) {
        return true;
    }
    #[cfg(unix)]
    if let Some(code) = e.raw_os_error() {
        return [
            libc::EMFILE,
            libc::ENFILE,
            libc::ENOBUFS,
            libc::ENOMEM,
            libc::EPROTO,
            libc::EPERM,
            libc::ENETDOWN,
            libc::ENOPROTOOPT,
            libc::EHOSTDOWN,
            libc::ENONET,
            libc::EHOSTUNREACH,
            libc::EOPNOTSUPP,
            libc::ENETUNREACH,
        ]
        .contains(&code);
    }
    false
}

impl Listener {
    async fn run(&mut self) -> std::io::Result<()> {
        loop {
            let (stream, peer) = self.accept().await?;
            let Some(member) = self.life.join() else {
                tokio::spawn(refuse(stream, "server shutting down"));
                continue;
            };
            match self.slots.take(peer.ip()) {
                Ok(slot) => {
                    let config = self.config.clone();
                    // Everything the connection logs is under its span.
                    let span = tracing::info_span!("connection", %peer);
                    tokio::spawn(
                        async move {
                            tracing::info!(%peer, "connection opened");
                            handle(stream, config, member, slot).await;
                            tracing::info!(%peer, "connection closed");
                        }
                        .instrument(span),
                    );
                }
                Err(why) => {
                    tracing::warn!(%peer, why, "refusing a connection");
                    tokio::spawn(refuse(stream, why));
                }
            }
        }
    }

    async fn accept(&mut self) -> std::io::Result<(TcpStream, SocketAddr)> {
        const FIRST: Duration = Duration::from_millis(5);
        const MOST: Duration = Duration::from_secs(1);
        let mut backoff = FIRST;
        let mut failing_since: Option<Instant> = None;
        loop {
            match self.listener.accept().await {
                Ok(x) => {
                    if let Some(t) = failing_since {
                        tracing::info!(
                            after_ms = t.elapsed().as_millis() as u64,
                            "accepting again"
                        );
                    }
                    return Ok(x);
                }
                Err(e) if is_transient(&e) => {
                    if failing_since.is_none() {
                        tracing::warn!(error = %e, "accept failed; retrying with a back-off");
                        failing_since = Some(Instant::now());
                    }
                }
                Err(e) => return Err(e),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MOST);
        }
    }
}

/// Tells a client there is no slot for it, then closes.
async fn refuse(stream: TcpStream, why: &'static str) {
    driver::refuse(stream.into_split().1, why).await;
}

/// Serves one TCP connection: its lines framed with the line limit and
/// deadline, its output through the shared queue (see [`drive`]).
async fn handle(stream: TcpStream, config: ServeConfig, member: Member, slot: Slot) {
    let _ = stream.set_nodelay(true);
    let (rd, wr) = stream.into_split();
    let conn = Connection::new(rd, config.max_line).with_line_timeout(config.line_timeout);
    drive(conn, wr, &config, member, slot).await;
}
