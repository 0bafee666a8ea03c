//! `gulbara refine`: a network refined towards its 1-ply judgement.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

/// Options of `refine`.
#[derive(Args, Debug)]
pub struct RefineArgs {
    /// Weights to refine: `shipped` or a file.
    #[arg(long, default_value = "shipped")]
    pub from: String,
    /// Folder for the checkpoint and the curve (an existing checkpoint
    /// there is resumed instead of starting from `--from`).
    #[arg(long, default_value = "refining")]
    pub dir: PathBuf,
    /// Self-play games whose positions are trained on.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.02, value_parser = super::numbers::positive_f32)]
    pub rate_start: f32,
    /// Learning rate at the end.
    #[arg(long, default_value_t = 0.005, value_parser = super::numbers::non_negative_f32)]
    pub rate_end: f32,
    /// Beam for chains in the self-play games.
    #[arg(long, default_value_t = 4)]
    pub beam: usize,
    /// Beam for chains inside the 1-ply targets.
    #[arg(long, default_value_t = 1)]
    pub inner_beam: usize,
    /// Ends of each doublet stage judged inside the 1-ply targets (0 = all).
    #[arg(long, default_value_t = 0)]
    pub inner_prefilter: usize,
    /// Weight of the game's λ-return (λ = 0.7) mixed into each 1-ply target.
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::unit_f32)]
    pub mix: f32,
    /// Threads computing targets (the result does not depend on it).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Games between checkpoints and gates.
    #[arg(long, default_value_t = 1_000)]
    pub checkpoint_every: u64,
    /// Gate games against the baseline per checkpoint (0 = none).
    #[arg(long, default_value_t = 0)]
    pub gate_games: usize,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs `refine`.
pub fn run(a: RefineArgs) -> anyhow::Result<()> {
    // Refinement plays Gul bara: any of its networks (its inputs are read
    // by the network's own layout), never another game's.
    let weights = crate::engine::Weights::named(&a.from);
    let loaded = crate::engine::load_net(
        crate::rules::Variant::GulBara,
        &weights,
        &crate::engine::FileAccess::Local,
    )
    .with_context(|| format!("refine plays Gul bara; --from {}", a.from))?;
    let crate::eval::GameNet::GulBara(net) = loaded else {
        anyhow::bail!("refine plays Gul bara; --from {} is another game's", a.from);
    };
    let start = (*net).clone();
    let cfg = crate::training::refine::RefineConfig {
        games: a.games,
        seed: a.seed,
        rate: (a.rate_start, a.rate_end),
        beam: a.beam.max(1),
        inner_beam: a.inner_beam.max(1),
        inner_prefilter: a.inner_prefilter,
        mix: a.mix.clamp(0.0, 1.0),
        threads: a.threads.max(1),
        checkpoint_every: a.checkpoint_every.max(1),
        gate_games: a.gate_games,
        dir: a.dir,
        progress: !a.no_progress,
    };
    crate::training::refine::refine(start, &cfg, &mut |line| eprintln!("{line}"))?;
    Ok(())
}
