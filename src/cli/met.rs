//! `gulbara met`: a match equity table for a game without a published one,
//! from its own gammon and backgammon rates (docs/MATCHES.md, "Match
//! equity tables").

use clap::Args;

use crate::rules::Variant;

/// Options of `met`.
#[derive(Args, Debug)]
pub struct MetArgs {
    /// The game.
    #[arg(long)]
    pub variant: Variant,
    /// The longest match in the table.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub length: u16,
    /// Games of the network against itself that measure the rates.
    #[arg(long, default_value_t = 10_000)]
    pub games: usize,
    /// Seed of their dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games at once.
    #[arg(short = 'j', long, default_value_t = 2)]
    pub jobs: usize,
}

/// Runs `met`: measures the rates, prints the table.
pub fn run(a: MetArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.games >= 2, "--games must be at least 2");
    let rates = crate::matchplay::met_rates::measure(a.variant, a.games, a.seed, a.jobs);
    let table = crate::cube::generate::cubeless_table(usize::from(a.length), &rates);
    print!(
        "{}",
        crate::cube::generate::write_table(a.variant, &rates, &table)
    );
    Ok(())
}
