//! Transports: stdin/stdout ([`stdio`]) and TCP ([`tcp`]). They only move
//! lines between the outside world and a [`crate::protocol::Session`].

pub mod connection;
pub mod output;
pub mod shutdown;
pub mod stdio;
pub mod tcp;

pub use tcp::ServeConfig;

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
pub fn prepare(mut config: ServeConfig) -> anyhow::Result<ServeConfig> {
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
            .map_err(|e| anyhow::anyhow!("--weights-dir {}: {e}", dir.display()))?;
        if !real.is_dir() {
            anyhow::bail!("--weights-dir {}: not a directory", dir.display());
        }
        config.weights_dir = Some(real);
    }
    if !config.listen.ip().is_loopback() {
        tracing::warn!(
            addr = %config.listen,
            "listening on an address that is not loopback: anyone who can reach it can use this engine (no authentication); put it behind a firewall or listen on 127.0.0.1"
        );
    }
    Ok(config)
}

/// Runs the TCP server until Ctrl-C or SIGTERM. Prints `listening <addr>`
/// on stdout once the socket is bound (useful with port 0). Returns an
/// error (a non-zero exit) when the listening socket fails.
pub fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let config = prepare(config)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.listen))?;
        let addr = listener.local_addr()?;
        {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            writeln!(o, "listening {addr}")?;
            o.flush()?;
        }
        tracing::info!(%addr, "listening");
        tcp::run(listener, config, shutdown::signal())
            .await
            .map_err(|e| anyhow::anyhow!("accepting connections failed: {e}"))
    });
    // Whatever a connection is still doing, the process ends now.
    rt.shutdown_timeout(std::time::Duration::from_millis(300));
    result
}
