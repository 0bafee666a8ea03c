//! `gulbara bearoff`: the race tables generated and timed, and each game's
//! network and baseline measured against them.

use clap::Args;

use crate::rules::Variant;

/// Options of `bearoff`.
#[derive(Args, Debug)]
pub struct BearoffArgs {
    /// The game to measure (default: every game).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Random all-home races per game.
    #[arg(long, default_value_t = 20_000)]
    pub samples: usize,
    /// Seed of the random races.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `bearoff`.
pub fn run(a: BearoffArgs) -> anyhow::Result<()> {
    Ok(crate::analysis::racecheck::run_bearoff(
        a.variant, a.samples, a.seed,
    )?)
}
