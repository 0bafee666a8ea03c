//! Graceful shutdown: every connection handler listens on a broadcast
//! channel that the server closes once Ctrl-C or SIGTERM arrives.

use tokio::sync::broadcast;

/// A handler's view of the server-wide shutdown signal.
#[derive(Debug)]
pub struct Shutdown {
    is_shutdown: bool,
    notify: broadcast::Receiver<()>,
}

impl Shutdown {
    /// Wraps a receiver of the server's shutdown broadcast.
    pub fn new(notify: broadcast::Receiver<()>) -> Shutdown {
        Shutdown {
            is_shutdown: false,
            notify,
        }
    }

    /// Whether the shutdown signal was received.
    pub fn is_shutdown(&self) -> bool {
        self.is_shutdown
    }

    /// Waits for the shutdown signal (returns at once if it was received).
    pub async fn recv(&mut self) {
        if self.is_shutdown {
            return;
        }
        // Closed or a value: either way the server is going down.
        let _ = self.notify.recv().await;
        self.is_shutdown = true;
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM.
pub async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
