//! Command line: no subcommand speaks the protocol on stdin/stdout;
//! `serve` serves it over TCP and/or, with the browser board, over HTTP.
//! More subcommands (bench, match, replay, analyse, selfplay) slot into
//! [`Commands`].

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::server::{self, ServeConfig, connection::DEFAULT_MAX_LINE, tcp};

/// The gulbara engine.
#[derive(Parser, Debug)]
#[command(
    name = "gulbara",
    version,
    about = "Gul bara engine (UBGI-style protocol on stdio or TCP)"
)]
pub struct Cli {
    /// Log filter for stderr (e.g. `info`, `gulbara=debug`); default from
    /// `RUST_LOG`, else `warn` (stdio) or `info` (serve).
    #[arg(long, global = true, value_name = "LEVEL")]
    pub log_level: Option<String>,
    /// What to run; none = the protocol on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Commands>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Serve the protocol over TCP (one session per connection) and/or the
    /// browser board over HTTP (`--http`; the protocol on a WebSocket at /ws).
    Serve(ServeArgs),
    /// Play a match between two engines (mirrored dice pairs).
    Match(crate::tools::MatchArgs),
    /// Combine the shard files of a match or a rollout (`--shard I/N --out
    /// FILE`) into the whole job's report.
    Merge(crate::tools::MergeArgs),
    /// Roll a position out from the command line, whole or one shard
    /// (the protocol's `rollout`; protocol/SPEC.md).
    Rollout(crate::tools::RolloutCliArgs),
    /// Check a game record against the rules and print the final positions.
    Replay(crate::tools::ReplayArgs),
    /// Analyse a game record: preferred plays, equity lost, error rates.
    Analyse(crate::tools::AnalyseArgs),
    /// Play the baseline against itself and write records.
    Selfplay(crate::tools::SelfplayArgs),
    /// Train the network by self-play (resumable; see docs/TRAINING.md).
    Train(crate::tools::TrainArgs),
    /// Refine a network towards its own 1-ply judgement (see docs/TRAINING.md).
    Refine(crate::tools::RefineArgs),
    /// Serve GNU Backgammon's external-player interface (see docs/GNUBG.md).
    GnubgExternal(crate::tools::GnubgExternalArgs),
    /// Generate the race (bear-off) tables, time them, and measure each
    /// game's network and baseline against them (docs/STRENGTH.md).
    Bearoff(crate::racecheck::BearoffArgs),
}

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
    /// Address of the HTTP listener: the browser board at `/` and the
    /// protocol over a WebSocket at `/ws`; `--http` alone is 127.0.0.1:8080.
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
    /// --max-connections).
    #[arg(long)]
    pub max_per_ip: Option<usize>,
    /// Longest a search may run in milliseconds, `go infinite` included
    /// (0 = no cap).
    #[arg(long, default_value_t = tcp::DEFAULT_MAX_SEARCH_MS)]
    pub max_search_ms: u64,
    /// Directory whose regular files clients may load with `set engine.weights
    /// <name>`; without it, clients can only use the shipped weights.
    #[arg(long, value_name = "DIR")]
    pub weights_dir: Option<std::path::PathBuf>,
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
            max_search: (self.max_search_ms > 0).then(|| Duration::from_millis(self.max_search_ms)),
            weights_dir: self.weights_dir.clone(),
        }
    }
}

fn init_logging(level: Option<&str>, default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = match level {
        Some(l) => EnvFilter::try_new(l).unwrap_or_else(|_| EnvFilter::new(default)),
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default)),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// Parses the command line and runs; the binary's `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            eprintln!("gulbara: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    // The server logs its connections; everything else only warnings.
    let default_level = if matches!(cli.command, Some(Commands::Serve(_))) {
        "info"
    } else {
        "warn"
    };
    init_logging(cli.log_level.as_deref(), default_level);
    match cli.command {
        None => {
            server::stdio::run(DEFAULT_MAX_LINE)?;
            Ok(())
        }
        Some(Commands::Serve(a)) => server::serve(a.config()),
        Some(Commands::Match(a)) => crate::tools::run_match_cmd(a),
        Some(Commands::Merge(a)) => crate::tools::run_merge(a),
        Some(Commands::Rollout(a)) => crate::tools::run_rollout_cmd(a),
        Some(Commands::Replay(a)) => crate::tools::run_replay(a),
        Some(Commands::Analyse(a)) => crate::tools::run_analyse(a),
        Some(Commands::Selfplay(a)) => crate::tools::run_selfplay(a),
        Some(Commands::Train(a)) => crate::tools::run_train(a),
        Some(Commands::Refine(a)) => crate::tools::run_refine(a),
        Some(Commands::GnubgExternal(a)) => crate::tools::run_gnubg_external(a),
        Some(Commands::Bearoff(a)) => crate::racecheck::run_bearoff(a),
    }
}
