//! Transports: stdin/stdout ([`stdio`]), TCP ([`tcp`]) and WebSocket with
//! the browser board ([`web`]), beside which the HTTP listener serves the
//! JSON API ([`http_api`]). They only move lines between the outside
//! world and a [`crate::protocol::Session`]; the remote ones share their
//! limits and session loop ([`driver`]).

pub mod connection;
pub mod driver;
pub mod http_api;
pub mod output;
pub mod shutdown;
pub mod stdio;
pub mod tcp;
pub mod web;
pub mod web_api;

pub use tcp::ServeConfig;

use std::net::SocketAddr;
use std::path::PathBuf;

/// Why the server could not start or stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// `--weights-dir` cannot be resolved.
    #[error("--weights-dir {}: {source}", .dir.display())]
    WeightsDir {
        /// The directory given.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `--weights-dir` is not a directory.
    #[error("--weights-dir {}: not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// A listening socket cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The TCP listener failed.
    #[error("accepting connections failed: {0}")]
    Accept(#[source] std::io::Error),
    /// The HTTP listener failed.
    #[error("serving HTTP failed: {0}")]
    Http(#[source] std::io::Error),
    /// The runtime could not start, or the `listening` line not be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Descriptors kept free for the listener, the runtime, stdio and a weights
/// file being read, when `max_connections` is clamped to the limit.
const RESERVED_DESCRIPTORS: u64 = 32;

/// The soft limit on open file descriptors, if known.
fn descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0
            && lim.rlim_cur != libc::RLIM_INFINITY
        {
            // rlim_t is not u64 on every Unix.
            #[allow(clippy::unnecessary_cast)]
            return Some(lim.rlim_cur as u64);
        }
    }
    None
}

/// Checks and completes a configuration before serving: the connection
/// limit is clamped below the descriptor limit, the weights directory made
/// canonical, and a listener that is not on loopback is warned about.
pub fn prepare(mut config: ServeConfig) -> Result<ServeConfig, ServeError> {
    if let Some(limit) = descriptor_limit() {
        let usable = limit.saturating_sub(RESERVED_DESCRIPTORS).max(1) as usize;
        if config.max_connections > usable {
            tracing::warn!(
                requested = config.max_connections,
                serving = usable,
                descriptor_limit = limit,
                "--max-connections is above what the open-file limit allows; clamped"
            );
            config.max_connections = usable;
            config.max_per_ip = config.max_per_ip.min(usable);
        }
    }
    if let Some(dir) = &config.weights_dir {
        let real = dir
            .canonicalize()
            .map_err(|source| ServeError::WeightsDir {
                dir: dir.clone(),
                source,
            })?;
        if !real.is_dir() {
            return Err(ServeError::NotADirectory(dir.clone()));
        }
        config.weights_dir = Some(real);
    }
    for addr in config.listen.iter().chain(config.http.iter()) {
        if !addr.ip().is_loopback() {
            tracing::warn!(
                %addr,
                "listening on an address that is not loopback: anyone who can reach it can use this engine (no authentication); put it behind a firewall or listen on 127.0.0.1"
            );
        }
    }
    Ok(config)
}

/// Binds `addr` and announces it on stdout as `listening <shown>`.
async fn bind(
    addr: SocketAddr,
    show: impl Fn(SocketAddr) -> String,
) -> Result<tokio::net::TcpListener, ServeError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Listen { addr, source })?;
    let bound = listener.local_addr()?;
    {
        use std::io::Write;
        let mut o = std::io::stdout().lock();
        writeln!(o, "listening {}", show(bound))?;
        o.flush()?;
    }
    tracing::info!(addr = %bound, "listening");
    Ok(listener)
}

/// Runs the server until Ctrl-C or SIGTERM: the TCP listener (`listen`),
/// the HTTP one (`http`), or both, sharing one set of connection limits.
/// Prints `listening <addr>` (TCP) and `listening http://<addr>/` (HTTP)
/// on stdout once each socket is bound (useful with port 0). Returns an
/// error (a non-zero exit) when a listening socket fails.
pub fn serve(config: ServeConfig) -> Result<(), ServeError> {
    let config = prepare(config)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = rt.block_on(async move {
        let tcp = match config.listen {
            Some(a) => Some(bind(a, |b| b.to_string()).await?),
            None => None,
        };
        let http = match config.http {
            Some(a) => Some(bind(a, |b| format!("http://{b}/")).await?),
            None => None,
        };
        let slots = driver::Slots::new(&config);
        let (life, members_gone) = driver::Lifecycle::new();
        let served = driver::Served {
            config: config.clone(),
            slots,
            life: life.clone(),
        };
        let tcp_loop = async {
            match tcp {
                Some(l) => tcp::run(l, served.clone())
                    .await
                    .map_err(ServeError::Accept),
                None => std::future::pending().await,
            }
        };
        let http_loop = async {
            match http {
                Some(l) => web::run(l, served.clone()).await.map_err(ServeError::Http),
                None => std::future::pending().await,
            }
        };
        let res = tokio::select! {
            r = tcp_loop => r,
            r = http_loop => r,
            _ = shutdown::signal() => {
                tracing::info!("shutting down");
                Ok(())
            }
        };
        life.shut_down();
        driver::wait_for_members(members_gone).await;
        res
    });
    // Whatever a connection is still doing, the process ends now.
    rt.shutdown_timeout(std::time::Duration::from_millis(300));
    result
}
