//! The TCP server: an accept loop with a connection limit, one protocol
//! session per connection, idle timeouts and graceful shutdown.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, broadcast, mpsc};

use super::connection::{Connection, Frame};
use super::shutdown::Shutdown;
use crate::protocol::{Flow, Output, Session};

/// Settings of the TCP server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on (loopback by default).
    pub listen: SocketAddr,
    /// Longest accepted line in bytes.
    pub max_line: usize,
    /// Close a connection after this long without a line (not while it searches);
    /// `None` for never.
    pub idle_timeout: Option<Duration>,
    /// Most connections served at once; more are told so and closed.
    pub max_connections: usize,
}

struct Listener {
    listener: TcpListener,
    limit: Arc<Semaphore>,
    notify_shutdown: broadcast::Sender<()>,
    shutdown_complete_tx: mpsc::Sender<()>,
    config: ServeConfig,
}

/// Serves connections from `listener` until `shutdown` completes, then
/// tells every handler to stop and waits for them.
pub async fn run(listener: TcpListener, config: ServeConfig, shutdown: impl std::future::Future) {
    let (notify_shutdown, _) = broadcast::channel(1);
    let (shutdown_complete_tx, mut shutdown_complete_rx) = mpsc::channel::<()>(1);
    let mut server = Listener {
        listener,
        limit: Arc::new(Semaphore::new(config.max_connections.max(1))),
        notify_shutdown,
        shutdown_complete_tx,
        config,
    };
    tokio::select! {
        res = server.run() => {
            if let Err(e) = res {
                tracing::error!(error = %e, "accept loop failed");
            }
        }
        _ = shutdown => {
            tracing::info!("shutting down");
        }
    }
    let Listener {
        notify_shutdown,
        shutdown_complete_tx,
        ..
    } = server;
    drop(notify_shutdown);
    drop(shutdown_complete_tx);
    let _ = shutdown_complete_rx.recv().await;
    tracing::info!("all connections closed");
}

impl Listener {
    async fn run(&mut self) -> std::io::Result<()> {
        loop {
            let (mut stream, peer) = self.accept().await?;
            let Ok(permit) = self.limit.clone().try_acquire_owned() else {
                tracing::warn!(%peer, "connection limit reached; refusing");
                tokio::spawn(async move {
                    let _ = stream
                        .write_all(b"error bad_state too many connections; try again later\n")
                        .await;
                    let _ = stream.shutdown().await;
                });
                continue;
            };
            let shutdown = Shutdown::new(self.notify_shutdown.subscribe());
            let done = self.shutdown_complete_tx.clone();
            let config = self.config.clone();
            tokio::spawn(async move {
                tracing::info!(%peer, "connection opened");
                handle(stream, config, shutdown).await;
                tracing::info!(%peer, "connection closed");
                drop(permit);
                drop(done);
            });
        }
    }

    async fn accept(&mut self) -> std::io::Result<(TcpStream, SocketAddr)> {
        let mut backoff = 1;
        loop {
            match self.listener.accept().await {
                Ok(x) => return Ok(x),
                Err(e) => {
                    if backoff > 64 {
                        return Err(e);
                    }
                    tracing::warn!(error = %e, "accept failed; retrying");
                }
            }
            tokio::time::sleep(Duration::from_millis(backoff * 10)).await;
            backoff *= 2;
        }
    }
}

async fn write_loop(mut wr: OwnedWriteHalf, mut rx: mpsc::UnboundedReceiver<String>) {
    while let Some(line) = rx.recv().await {
        let mut buf = line;
        buf.push('\n');
        while let Ok(more) = rx.try_recv() {
            buf.push_str(&more);
            buf.push('\n');
        }
        if wr.write_all(buf.as_bytes()).await.is_err() || wr.flush().await.is_err() {
            break;
        }
    }
    let _ = wr.shutdown().await;
}

/// Runs blocking session work without stalling the runtime.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(f)
}

/// Serves one connection until `quit`, end of input, an error, the idle
/// timeout or the server's shutdown. A running search is stopped when the
/// connection ends.
async fn handle(stream: TcpStream, config: ServeConfig, mut shutdown: Shutdown) {
    let _ = stream.set_nodelay(true);
    let (rd, wr) = stream.into_split();
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(write_loop(wr, rx));
    let out: Output = Arc::new(move |line: &str| {
        let _ = tx.send(line.to_string());
    });
    let mut session = Session::new(out);
    let mut conn = Connection::new(rd, config.max_line);
    let idle = config.idle_timeout;
    loop {
        let timer = async {
            match idle {
                Some(d) => tokio::time::sleep(d).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            frame = conn.read_frame() => match frame {
                Ok(Some(Frame::Line(bytes))) => {
                    if blocking(|| session.handle_bytes(&bytes)) == Flow::Quit {
                        break;
                    }
                }
                Ok(Some(Frame::TooLong)) => session.line_too_long(config.max_line),
                Ok(None) => {
                    tracing::debug!("end of input");
                    break;
                }
                Err(e) => {
                    tracing::debug!(error = %e, "read failed");
                    break;
                }
            },
            _ = shutdown.recv() => {
                session.say_line("info string server shutting down");
                break;
            }
            _ = timer => {
                if !session.is_searching() {
                    session.say_line("error bad_state idle timeout; closing the connection");
                    break;
                }
            }
        }
    }
    blocking(|| session.stop_search());
    drop(session);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}
