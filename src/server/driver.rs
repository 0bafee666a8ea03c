//! What every remote transport shares: the connection limits ([`Slots`]),
//! the server's lifecycle (shutdown broadcast, waiting for handlers), the
//! session a remote client gets, and the loop that drives one session from
//! a source of lines to a sink of lines ([`drive`]). TCP ([`super::tcp`])
//! and WebSocket ([`super::web`]) only adapt their streams to it, so both
//! keep exactly the same limits.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, mpsc};

use super::connection::Frame;
use super::output::{LineSink, OutputQueue, write_loop};
use super::shutdown::Shutdown;
use super::tcp::{MAX_QUEUED_OUTPUT, ServeConfig};
use crate::protocol::{FileAccess, Flow, Output, Session, SessionConfig};

/// How long the server waits for its connections at shutdown before it
/// exits anyway (well inside the 2 s a supervisor may allow).
const SHUTDOWN_GRACE: Duration = Duration::from_millis(1200);

/// Connections open per address.
type PerIp = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// The server's connection limits, in all and per address, shared by every
/// listener (TCP and WebSocket sessions count against the same numbers).
#[derive(Clone)]
pub struct Slots {
    limit: Arc<Semaphore>,
    per_ip: PerIp,
    max_per_ip: usize,
    limit_loopback: bool,
}

/// A connection's hold on the server's limits, given back when dropped.
pub struct Slot {
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

impl Slots {
    /// The limits of `config`.
    pub fn new(config: &ServeConfig) -> Slots {
        Slots {
            limit: Arc::new(Semaphore::new(config.max_connections.max(1))),
            per_ip: Arc::default(),
            max_per_ip: config.max_per_ip.max(1),
            limit_loopback: config.limit_loopback,
        }
    }

    /// A slot for a connection from `ip`, or the reason (a protocol error
    /// line's detail) there is none. Loopback addresses are held to the
    /// per-address limit only with `limit_loopback`.
    pub fn take(&self, ip: IpAddr) -> Result<Slot, &'static str> {
        let Ok(mut per_ip) = self.per_ip.lock() else {
            return Err("too many connections; try again later");
        };
        let n = per_ip.get(&ip).copied().unwrap_or(0);
        let limited = self.limit_loopback || !ip.is_loopback();
        if limited && n >= self.max_per_ip {
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
}

/// Tells a client there is no slot for it (`error bad_state <why>`), then
/// closes; never waits long, whatever the client does.
pub async fn refuse<W: LineSink>(mut sink: W, why: &str) {
    let line = format!("error bad_state {why}");
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = sink.write_lines(vec![line]).await;
        sink.close().await;
    })
    .await;
}

/// What every listener serves with: the settings, the connection slots,
/// and the server's life (its shutdown).
#[derive(Clone)]
pub struct Served {
    /// The server's settings.
    pub config: super::tcp::ServeConfig,
    /// The connection slots, shared by the listeners.
    pub slots: Slots,
    /// Tells the sessions to stop at shutdown.
    pub life: Arc<Lifecycle>,
}

/// The server's lifecycle: handlers join it to hear of the shutdown, and
/// the server waits (briefly) for them to leave. Held in a mutex so that a
/// listener whose state outlives the accept loop (axum's router) lets go of
/// it at shutdown.
pub struct Lifecycle {
    inner: Mutex<Option<(broadcast::Sender<()>, mpsc::Sender<()>)>>,
}

/// A handler's membership: it hears the shutdown, and the server knows it
/// is gone when this is dropped.
pub struct Member {
    /// The shutdown signal.
    pub shutdown: Shutdown,
    done: mpsc::Sender<()>,
}

impl Lifecycle {
    /// A lifecycle, and the receiver that completes when every member left
    /// after [`Lifecycle::shut_down`].
    pub fn new() -> (Arc<Lifecycle>, mpsc::Receiver<()>) {
        let (notify, _) = broadcast::channel(1);
        let (done, rx) = mpsc::channel(1);
        (
            Arc::new(Lifecycle {
                inner: Mutex::new(Some((notify, done))),
            }),
            rx,
        )
    }

    /// Joins a new handler; `None` once the server is shutting down.
    pub fn join(&self) -> Option<Member> {
        let g = self.inner.lock().ok()?;
        let (notify, done) = g.as_ref()?;
        Some(Member {
            shutdown: Shutdown::new(notify.subscribe()),
            done: done.clone(),
        })
    }

    /// Tells every member to stop (their broadcast closes).
    pub fn shut_down(&self) {
        if let Ok(mut g) = self.inner.lock() {
            g.take();
        }
    }
}

/// After [`Lifecycle::shut_down`]: waits for the members to leave, at most
/// a moment.
pub async fn wait_for_members(mut rx: mpsc::Receiver<()>) {
    match tokio::time::timeout(SHUTDOWN_GRACE, rx.recv()).await {
        Ok(_) => tracing::info!("all connections closed"),
        Err(_) => tracing::warn!("connections still closing; exiting anyway"),
    }
}

/// The session a remote client gets: output through `out`, no file access
/// beyond the server's weights directory, the server's search cap.
pub fn remote_session(out: Output, config: &ServeConfig) -> Session {
    Session::with_config(
        out,
        SessionConfig {
            files: FileAccess::Remote {
                weights_dir: config.weights_dir.clone(),
            },
            max_search: config.max_search,
            dialect: Default::default(),
        },
    )
}

/// Where a connection's input lines come from. `read_frame` must be
/// cancel-safe: a frame is never lost when the future is dropped early.
pub trait FrameSource: Send {
    /// The next frame; `None` at the end of input. An error of kind
    /// `TimedOut` means a line was begun and not finished in time.
    fn read_frame(&mut self) -> impl Future<Output = std::io::Result<Option<Frame>>> + Send;
}

impl FrameSource for super::connection::Connection {
    fn read_frame(&mut self) -> impl Future<Output = std::io::Result<Option<Frame>>> + Send {
        super::connection::Connection::read_frame(self)
    }
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

/// Serves one session from `reader` to `writer` until `quit`, end of input,
/// an error, a deadline, unread output or the server's shutdown. A running
/// search is stopped when the connection ends. The slot is given back
/// before the sink is closed, so a client that has seen the close can
/// connect again at once.
pub async fn drive<R: FrameSource, W: LineSink>(
    mut reader: R,
    writer: W,
    config: &ServeConfig,
    member: Member,
    slot: Slot,
) {
    let Member { mut shutdown, done } = member;
    let queue = Arc::new(OutputQueue::new(MAX_QUEUED_OUTPUT));
    let writer = tokio::spawn(write_loop(writer, queue.clone(), config.write_timeout));
    let out: Output = {
        let queue = queue.clone();
        Arc::new(move |line: &str| queue.push(line))
    };
    let mut session = remote_session(out, config);
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
            frame = reader.read_frame() => match frame {
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
    if let Some(wr) = wr {
        let _ = tokio::time::timeout(Duration::from_secs(1), wr.close()).await;
    }
    drop(done);
}
