//! Command line: no subcommand speaks the protocol on stdin/stdout;
//! `serve` serves it over TCP. More subcommands (bench, match, replay,
//! analyse, selfplay) slot into [`Commands`].

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::server::{self, ServeConfig, connection::DEFAULT_MAX_LINE};

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
    /// Serve the protocol over TCP, one session per connection.
    Serve(ServeArgs),
    /// Play a match between two engines (mirrored dice pairs).
    Match(crate::tools::MatchArgs),
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
}

/// Options of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:7667")]
    pub listen: SocketAddr,
    /// Longest accepted line in bytes; longer lines are answered with an error.
    #[arg(long, default_value_t = DEFAULT_MAX_LINE)]
    pub max_line: usize,
    /// Seconds without a line after which an idle connection is closed (0 = never).
    #[arg(long, default_value_t = 600)]
    pub idle_timeout: u64,
    /// Most connections at once; more are refused with an error line.
    #[arg(long, default_value_t = 64)]
    pub max_connections: usize,
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
        Some(Commands::Serve(a)) => server::serve(ServeConfig {
            listen: a.listen,
            max_line: a.max_line,
            idle_timeout: (a.idle_timeout > 0).then(|| Duration::from_secs(a.idle_timeout)),
            max_connections: a.max_connections,
        }),
        Some(Commands::Match(a)) => crate::tools::run_match_cmd(a),
        Some(Commands::Replay(a)) => crate::tools::run_replay(a),
        Some(Commands::Analyse(a)) => crate::tools::run_analyse(a),
        Some(Commands::Selfplay(a)) => crate::tools::run_selfplay(a),
        Some(Commands::Train(a)) => crate::tools::run_train(a),
        Some(Commands::Refine(a)) => crate::tools::run_refine(a),
    }
}
