//! Transports: stdin/stdout ([`stdio`]) and TCP ([`tcp`]). They only move
//! lines between the outside world and a [`crate::protocol::Session`].

pub mod connection;
pub mod shutdown;
pub mod stdio;
pub mod tcp;

pub use tcp::ServeConfig;

/// Runs the TCP server until Ctrl-C or SIGTERM. Prints `listening <addr>`
/// on stdout once the socket is bound (useful with port 0).
pub fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
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
        tcp::run(listener, config, shutdown::signal()).await;
        Ok(())
    })
}
