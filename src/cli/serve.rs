//! `gulbara serve`: the protocol over TCP and the browser board over HTTP.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::server::{self, ServeConfig, connection::DEFAULT_MAX_LINE, http_api, tcp};

/// The TCP listener's port when `serve` is given no address.
pub const DEFAULT_PORT: u16 = 7667;

/// Options of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address of the TCP protocol listener (a warning is logged for one that
    /// is not loopback). Default 127.0.0.1:7667 when --http is not given;
    /// with --http only, no TCP listener runs unless this is given too.
    #[arg(long)]
    pub listen: Option<SocketAddr>,
    /// Address of the HTTP listener: the browser board at `/`, the
    /// protocol over a WebSocket at `/ws` and the JSON API at `/api/v1/`; `--http` alone is 127.0.0.1:8080.
    /// Sessions there share the limits below with the TCP ones.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    pub http: Option<SocketAddr>,
    /// Longest accepted line in bytes; longer lines are answered with an error.
    #[arg(long, default_value_t = DEFAULT_MAX_LINE)]
    pub max_line: usize,
    /// Seconds without a whole line after which a connection that is not
    /// searching is closed (0 = never). Bytes of an unfinished line do not count.
    #[arg(long, default_value_t = tcp::DEFAULT_IDLE_TIMEOUT_S)]
    pub idle_timeout: u64,
    /// Seconds within which a line, once begun, must be finished (0 = no limit).
    #[arg(long, default_value_t = tcp::DEFAULT_LINE_TIMEOUT_S)]
    pub line_timeout: u64,
    /// Seconds a client may leave its output unread before it is closed (at least 1).
    #[arg(long, default_value_t = tcp::DEFAULT_WRITE_TIMEOUT_S)]
    pub write_timeout: u64,
    /// Most connections at once; more are refused with an error line.
    /// Clamped below the open-file limit.
    #[arg(long, default_value_t = 64)]
    pub max_connections: usize,
    /// Most connections from one IP address at once (default: a quarter of
    /// --max-connections). Loopback clients share only --max-connections,
    /// unless --limit-loopback.
    #[arg(long)]
    pub max_per_ip: Option<usize>,
    /// Hold loopback clients (127.0.0.0/8, ::1) to --max-per-ip too.
    #[arg(long)]
    pub limit_loopback: bool,
    /// Longest a search may run in milliseconds, `go infinite` included
    /// (0 = no cap).
    #[arg(long, default_value_t = tcp::DEFAULT_MAX_SEARCH_MS)]
    pub max_search_ms: u64,
    /// Directory whose regular files clients may load with `set engine.weights
    /// <name>`; without it, clients can only use the shipped weights.
    #[arg(long, value_name = "DIR")]
    pub weights_dir: Option<std::path::PathBuf>,
    /// Most games one rollout of the JSON API (`POST /api/v1/rollout`) may
    /// ask for (at least 1).
    #[arg(long, default_value_t = http_api::DEFAULT_MAX_ROLLOUT_GAMES)]
    pub max_rollout_games: u32,
    /// A site whose pages may use the JSON API across origins (CORS), as
    /// `https://example.org`, or `*` for any; repeatable. Off by default:
    /// requests from other sites' pages are refused.
    #[arg(long, value_name = "ORIGIN")]
    pub cors: Vec<String>,
}

impl ServeArgs {
    /// The server configuration these options describe.
    pub fn config(&self) -> ServeConfig {
        let secs = |s: u64| (s > 0).then(|| Duration::from_secs(s));
        // Without either listener, the TCP one on its usual port (as before --http).
        let listen = match (self.listen, self.http) {
            (None, None) => Some(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT))),
            (l, _) => l,
        };
        ServeConfig {
            listen,
            http: self.http,
            max_line: self.max_line,
            idle_timeout: secs(self.idle_timeout),
            line_timeout: secs(self.line_timeout),
            write_timeout: Duration::from_secs(self.write_timeout.max(1)),
            max_connections: self.max_connections.max(1),
            max_per_ip: self
                .max_per_ip
                .unwrap_or_else(|| tcp::default_max_per_ip(self.max_connections))
                .max(1),
            limit_loopback: self.limit_loopback,
            max_search: (self.max_search_ms > 0).then(|| Duration::from_millis(self.max_search_ms)),
            weights_dir: self.weights_dir.clone(),
            max_rollout_games: self.max_rollout_games.max(1),
            cors: self.cors.clone(),
        }
    }
}

/// Runs `serve`.
pub fn run(a: ServeArgs) -> anyhow::Result<()> {
    Ok(server::serve(a.config())?)
}
