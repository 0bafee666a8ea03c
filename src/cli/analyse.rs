//! `gulbara analyse`: a game record judged decision by decision.

use crate::rules::Variant;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::engine::{FileAccess, Ply, Weights, load_net};

/// Options of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The record file.
    pub file: PathBuf,
    /// Search depth, root-inclusive as `engine.ply` (1 = gnubg 0-ply, 2 =
    /// gnubg 1-ply, 3 = gnubg 2-ply).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub ply: u8,
    /// Who judges: the record's game's network (`net`, behind the exact
    /// race tables) or its hand-written baseline (`baseline`).
    #[arg(long, default_value = "net", value_parser = ["net", "baseline"])]
    pub eval: String,
    /// A weights file for the record's game's network (with `--eval net`;
    /// default: the shipped one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Roll out every decision that lost equity, this many games each (the
    /// played and the preferred turn, with the same dice).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::analysis::rollout::MAX_GAMES)))]
    pub rollout: Option<u32>,
    /// Plies per rollout game before the evaluator scores it (0: to the end).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::analysis::rollout::MAX_TRUNCATE)))]
    pub rollout_truncate: u32,
    /// The rollout players' depth, root-inclusive (1 = gnubg 0-ply, 2 = 1-ply).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub rollout_ply: u8,
    /// The rollouts' dice seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads for the rollouts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// The cube's efficiency in contact positions, in hundredths, for the
    /// cube decisions (as `engine.cube_efficiency`; races keep their own).
    #[arg(long, default_value_t = crate::cube::DEFAULT_CONTACT_EFFICIENCY, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub cube_efficiency: u8,
}

/// Runs `analyse`: the record's game's network judges (or its baseline,
/// with `--eval baseline`).
pub fn run(a: AnalyseArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let (opts, games) = crate::anyrecord::replay_any(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    let variant = opts.variant;
    anyhow::ensure!(
        a.eval == "net" || a.weights.is_none(),
        "--weights needs --eval net"
    );
    let judge_for =
        |variant: Variant| -> anyhow::Result<std::sync::Arc<dyn crate::eval::Evaluator>> {
            Ok(if a.eval == "baseline" {
                crate::eval::variants::baseline_shared(variant)
            } else {
                let weights = a.weights.clone().map_or(Weights::Shipped, Weights::File);
                load_net(variant, &weights, &FileAccess::Local)
                    .with_context(|| format!("--weights {weights}"))?
                    .evaluator()
            })
        };
    let rotating = games.iter().any(|g| g.opts != opts);
    // Both depths are in range: clap checked them.
    let ply = |n: u8| Ply::new(n).unwrap_or(Ply::MAX).gnubg();
    let rollout = a
        .rollout
        .map(|games| crate::analysis::rollout::RolloutParams {
            games,
            truncate: a.rollout_truncate,
            plies: ply(a.rollout_ply),
            seed: a.seed,
            threads: usize::from(a.threads),
            ..crate::analysis::rollout::RolloutParams::default()
        });
    let efficiency = f64::from(a.cube_efficiency) / 100.0;
    let an = if rotating {
        anyhow::ensure!(
            a.weights.is_none(),
            "--weights names one game's network: a rotating match's games each take their own"
        );
        crate::analysis::records::analyse_rotation(
            &games,
            &judge_for,
            ply(a.ply),
            rollout.as_ref(),
            efficiency,
        )?
    } else {
        let judge = judge_for(variant)?;
        crate::analysis::records::analyse_replayed_at(
            &opts,
            &games,
            judge.as_ref(),
            ply(a.ply),
            rollout.as_ref(),
            efficiency,
        )
    };
    print!("{}", an.to_text());
    Ok(())
}
