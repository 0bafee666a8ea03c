//! `gulbara gnubg-external`: GNU Backgammon's external-player interface.

use clap::Args;

use crate::rules::Variant;

/// Options of `gnubg-external`.
#[derive(Args, Debug)]
pub struct GnubgExternalArgs {
    /// Address to listen on: `HOST:PORT` (loopback by default; port 0 picks
    /// a free one, printed on stderr), or a Unix socket path. gnubg connects
    /// with `set player N external ADDRESS`.
    #[arg(long, default_value = "127.0.0.1:7668")]
    pub listen: crate::frontends::gnubg_external::ListenAddr,
    /// The game: backgammon or short_nardy.
    #[arg(long, default_value = "backgammon")]
    pub variant: Variant,
    /// A protocol setting `KEY=VALUE` applied as `set KEY VALUE` (repeatable),
    /// e.g. `--set engine.ply=2`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Runs `gnubg-external`: answers gnubg's decisions, one connection at a time.
pub fn run(a: GnubgExternalArgs) -> anyhow::Result<()> {
    let settings = super::set_pairs(&a.set)?;
    let bridge = crate::frontends::gnubg_external::Bridge::new(a.variant, &settings)
        .map_err(|e| anyhow::anyhow!("gnubg-external: {e}"))?;
    Ok(crate::frontends::gnubg_external::serve(a.listen, bridge)?)
}
