//! `gulbara train`: self-play training of a game's network.

use std::path::PathBuf;

use clap::Args;

use crate::rules::{EvalFamily, Variant};

/// Options of `train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Folder for the checkpoint, the best weights and the learning curve
    /// (an existing checkpoint there is resumed).
    #[arg(long, default_value = "training")]
    pub dir: PathBuf,
    /// Total self-play games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Hidden units.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.1, value_parser = super::numbers::positive_f32)]
    pub rate_start: f32,
    /// Learning rate at the end.
    #[arg(long, default_value_t = 0.02, value_parser = super::numbers::non_negative_f32)]
    pub rate_end: f32,
    /// The game at which the learning rate starts falling (default 0). To
    /// go on from a finished run with a new schedule, resume its folder
    /// with a larger --games, --rate-from at its games and the new rates.
    #[arg(long, default_value_t = 0)]
    pub rate_from: u64,
    /// Games between checkpoints and gates.
    #[arg(long, default_value_t = 5_000)]
    pub checkpoint_every: u64,
    /// Gate games against the baseline per checkpoint (0 = none).
    #[arg(long, default_value_t = 400)]
    pub gate_games: usize,
    /// Beam width for chains in self-play.
    #[arg(long, default_value_t = 4)]
    pub beam: usize,
    /// Stop after this many games (at a checkpoint); the learning-rate
    /// schedule still runs over --games, so a stopped run resumes as if never stopped.
    #[arg(long)]
    pub stop_after: Option<u64>,
    /// TD(λ)'s λ (0 = online TD(0), the method of the first shipped net).
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::unit_f32)]
    pub lambda: f32,
    /// The game: gulbara, or backgammon / short_nardy (the hitting games'
    /// network, trained by TD(λ) with λ = --lambda, 0.7 if 0 is given).
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// No progress bar (it is hidden anyway when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Gul bara's input layout for a fresh network: 1, 4 (layout 1 and
    /// each side's unplayable dice) or 5 (layout 4, each side's checkers
    /// that can step each die, and whether contact is over); long nardy
    /// and Fevga: 3, or 9 (layout 3 and the blocking inputs) to train or
    /// resume a layout-9 network.
    #[arg(long, default_value_t = 1)]
    pub layout: u32,
}

/// Runs `train`.
pub fn run(a: TrainArgs) -> anyhow::Result<()> {
    let cfg = crate::training::td::TrainConfig {
        hidden: a.hidden,
        games: a.games,
        seed: a.seed,
        rate: (a.rate_start, a.rate_end),
        rate_from: a.rate_from,
        checkpoint_every: a.checkpoint_every.max(1),
        gate_games: a.gate_games,
        dir: a.dir,
        beam: a.beam.max(1),
        lambda: a.lambda.clamp(0.0, 1.0),
        stop_after: a.stop_after,
        progress: !a.no_progress,
        variant: a.variant,
        layout: a.layout,
    };
    match a.variant.spec().eval {
        EvalFamily::GulBara | EvalFamily::LongNardy => {
            crate::training::td::train(&cfg, &mut |line| eprintln!("{line}"))?;
        }
        EvalFamily::Hitting | EvalFamily::Pinning => {
            let cfg = crate::training::td::TrainConfig {
                lambda: if cfg.lambda > 0.0 { cfg.lambda } else { 0.7 },
                ..cfg
            };
            crate::training::td_hitting::train(&cfg, a.variant, &mut |line| eprintln!("{line}"))?;
        }
    }
    Ok(())
}
