//! The TCP server: an accept loop with connection limits (in all and per
//! address), one protocol session per connection, bounded output with
//! backpressure, line and idle deadlines, and graceful shutdown.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, mpsc};

use super::connection::{Connection, Frame};
use super::output::{OutputQueue, write_loop};
use super::shutdown::Shutdown;
use crate::protocol::{FileAccess, Flow, Output, Session, SessionConfig};

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
/// How long the server waits for its connections at shutdown before it
/// exits anyway (well inside the 2 s a supervisor may allow).
const SHUTDOWN_GRACE: Duration = Duration::from_millis(1200);

/// Settings of the TCP server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on (loopback by default).
    pub listen: SocketAddr,
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
    /// Most connections from one IP address at once.
    pub max_per_ip: usize,
    /// Cap on a search's length (`go infinite` stops and answers).
    pub max_search: Option<Duration>,
    /// The canonical directory `set engine.weights` may read from, if any.
    pub weights_dir: Option<PathBuf>,
}

/// A quarter of the slots, at least one.
pub fn default_max_per_ip(max_connections: usize) -> usize {
    (max_connections / 4).max(1)
}

/// Connections open per address.
type PerIp = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A connection's hold on the server's limits, given back when dropped.
struct Slot {
    _permit: OwnedSemaphorePermit,
    ip: IpAddr,
    per_ip: PerIp,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut m) = self.per_ip.lock()
            && let Some(n) = m.get_mut(&self.ip)
        {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

struct Listener {
    listener: TcpListener,
    limit: Arc<Semaphore>,
    per_ip: PerIp,
    notify_shutdown: broadcast::Sender<()>,
    shutdown_complete_tx: mpsc::Sender<()>,
    config: ServeConfig,
}

/// Serves connections from `listener` until `shutdown` completes, then
/// tells every handler to stop and waits for them (at most a moment).
/// An error is a failure of the listening socket itself.
pub async fn run(
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl std::future::Future,
) -> std::io::Result<()> {
    let (notify_shutdown, _) = broadcast::channel(1);
    let (shutdown_complete_tx, mut shutdown_complete_rx) = mpsc::channel::<()>(1);
    let mut server = Listener {
        listener,
        limit: Arc::new(Semaphore::new(config.max_connections.max(1))),
        per_ip: Arc::default(),
        notify_shutdown,
        shutdown_complete_tx,
        config,
    };
    let result = tokio::select! {
        res = server.run() => {
            if let Err(e) = &res {
                tracing::error!(error = %e, "accept loop failed");
            }
            res
        }
        _ = shutdown => {
            tracing::info!("shutting down");
            Ok(())
        }
    };
    let Listener {
        notify_shutdown,
        shutdown_complete_tx,
        ..
    } = server;
    drop(notify_shutdown);
    drop(shutdown_complete_tx);
    match tokio::time::timeout(SHUTDOWN_GRACE, shutdown_complete_rx.recv()).await {
        Ok(_) => tracing::info!("all connections closed"),
        Err(_) => tracing::warn!("connections still closing; exiting anyway"),
    }
    result
}

/// Accept errors that concern one connection or a passing shortage (out of
/// descriptors or memory), not the listening socket: retried with a capped
/// back-off while the existing clients are served.
fn is_transient(e: &std::io::Error) -> bool {
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
            match self.take_slot(peer.ip()) {
                Ok(slot) => {
                    let shutdown = Shutdown::new(self.notify_shutdown.subscribe());
                    let done = self.shutdown_complete_tx.clone();
                    let config = self.config.clone();
                    tokio::spawn(async move {
                        tracing::info!(%peer, "connection opened");
                        handle(stream, config, shutdown, slot).await;
                        tracing::info!(%peer, "connection closed");
                        drop(done);
                    });
                }
                Err(why) => {
                    tracing::warn!(%peer, why, "refusing a connection");
                    tokio::spawn(refuse(stream, why));
                }
            }
        }
    }

    /// A slot for a connection from `ip`, or why there is none.
    fn take_slot(&self, ip: IpAddr) -> Result<Slot, &'static str> {
        let Ok(mut per_ip) = self.per_ip.lock() else {
            return Err("too many connections; try again later");
        };
        let n = per_ip.get(&ip).copied().unwrap_or(0);
        if n >= self.config.max_per_ip.max(1) {
            return Err("too many connections from your address; try again later");
        }
        let Ok(permit) = self.limit.clone().try_acquire_owned() else {
            return Err("too many connections; try again later");
        };
        per_ip.insert(ip, n + 1);
        Ok(Slot {
            _permit: permit,
            ip,
            per_ip: self.per_ip.clone(),
        })
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

/// Tells a client there is no slot for it, then closes (never waits long).
async fn refuse(mut stream: TcpStream, why: &'static str) {
    let line = format!("error bad_state {why}\n");
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = stream.write_all(line.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Runs blocking session work without stalling the runtime.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(f)
}

/// Why the reading loop of a connection ended.
enum Close {
    /// `quit`, end of input or a read error: nothing more to say.
    Quietly,
    /// The connection is told this line, then closed.
    Saying(&'static str),
    /// Its output can no longer be delivered.
    OutputLost,
}

/// Serves one connection until `quit`, end of input, an error, a deadline,
/// unread output or the server's shutdown. A running search is stopped when
/// the connection ends. The slot is given back before the socket closes, so
/// a client that has seen the close can connect again at once.
async fn handle(stream: TcpStream, config: ServeConfig, mut shutdown: Shutdown, slot: Slot) {
    let _ = stream.set_nodelay(true);
    let (rd, wr) = stream.into_split();
    let queue = Arc::new(OutputQueue::new(MAX_QUEUED_OUTPUT));
    let writer = tokio::spawn(write_loop(wr, queue.clone(), config.write_timeout));
    let out: Output = {
        let queue = queue.clone();
        Arc::new(move |line: &str| queue.push(line))
    };
    let mut session = Session::with_config(
        out,
        SessionConfig {
            files: FileAccess::Remote {
                weights_dir: config.weights_dir.clone(),
            },
            max_search: config.max_search,
        },
    );
    let mut conn = Connection::new(rd, config.max_line).with_line_timeout(config.line_timeout);
    let mut last_line = Instant::now();
    let close = loop {
        if queue.is_lost() {
            break Close::OutputLost;
        }
        if queue.is_backlogged() {
            // Backpressure: no more commands until the client reads its answers.
            tokio::select! {
                _ = queue.reader_wakeup() => continue,
                _ = shutdown.recv() => break Close::Saying("info string server shutting down"),
            }
        }
        let idle_at = config.idle_timeout.map(|d| last_line + d);
        let timer = async {
            match idle_at {
                Some(t) => tokio::time::sleep_until(t.into()).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            frame = conn.read_frame() => match frame {
                Ok(Some(Frame::Line(bytes))) => {
                    last_line = Instant::now();
                    if blocking(|| session.handle_bytes(&bytes)) == Flow::Quit {
                        break Close::Quietly;
                    }
                }
                Ok(Some(Frame::TooLong)) => {
                    last_line = Instant::now();
                    session.line_too_long(config.max_line);
                }
                Ok(None) => {
                    tracing::debug!("end of input");
                    break Close::Quietly;
                }
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                    break Close::Saying("error bad_state line not finished in time; closing the connection");
                }
                Err(e) => {
                    tracing::debug!(error = %e, "read failed");
                    break Close::Quietly;
                }
            },
            _ = shutdown.recv() => break Close::Saying("info string server shutting down"),
            _ = queue.reader_wakeup() => {}
            _ = timer => {
                if !session.is_searching() {
                    break Close::Saying("error bad_state idle timeout; closing the connection");
                }
                // A search runs (capped by max_search): wait another period.
                last_line = Instant::now();
            }
        }
    };
    match close {
        Close::Quietly => {}
        Close::Saying(line) => session.say_line(line),
        Close::OutputLost => tracing::warn!("client does not read its output; closing"),
    }
    blocking(|| session.stop_search());
    drop(session);
    queue.finish();
    let grace = if shutdown.is_shutdown() {
        Duration::from_millis(500)
    } else {
        config.write_timeout
    };
    let wr = match tokio::time::timeout(grace, writer).await {
        Ok(Ok(wr)) => wr,
        _ => None,
    };
    drop(slot);
    if let Some(mut wr) = wr {
        let _ = tokio::time::timeout(Duration::from_secs(1), wr.shutdown()).await;
    }
}
