//! `gulbara supervise`: a network trained on a generation's rolled-out
//! positions (docs/TRAINING.md, "Supervised training").

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::eval::hitnet::HitNet;
use crate::eval::net::{Net, NetOf};
use crate::rules::{EvalFamily, RuleOptions, Variant};
use crate::training::supervise::{EpochLoss, Example, FitConfig, fit, labelled_positions};

/// Options of `supervise`.
#[derive(Args, Debug)]
pub struct SuperviseArgs {
    /// The game.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// The generation's folder (positions.txt.gz and labels.txt.gz).
    #[arg(long)]
    pub data: PathBuf,
    /// The network to start from: `shipped`, a weights file, or `random`.
    #[arg(long, default_value = "shipped")]
    pub from: String,
    /// Hidden units of a `random` start.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// The weights file to write (the best epoch's network).
    #[arg(long)]
    pub out: PathBuf,
    /// The learning curve, one line per epoch (tab-separated).
    #[arg(long)]
    pub curve: Option<PathBuf>,
    /// Most epochs.
    #[arg(long, default_value_t = 60)]
    pub epochs: usize,
    /// Epochs without a better held-out loss before stopping.
    #[arg(long, default_value_t = 6)]
    pub patience: usize,
    /// Positions per minibatch.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 3e-4)]
    pub rate: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 1e-4)]
    pub decay: f32,
    /// Share of positions held out.
    #[arg(long, default_value_t = 0.05)]
    pub holdout: f64,
    /// Seed of the split and the order (and of a random start).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `supervise`.
pub fn run(a: SuperviseArgs) -> anyhow::Result<()> {
    let data = labelled_positions(&a.data, a.variant)?;
    anyhow::ensure!(
        !data.is_empty(),
        "no labelled positions in {}",
        a.data.display()
    );
    let cfg = FitConfig {
        epochs: a.epochs,
        patience: a.patience.max(1),
        batch: a.batch.max(1),
        rate: a.rate,
        decay: a.decay,
        holdout: a.holdout.clamp(0.0, 0.5),
        seed: a.seed,
    };
    let mut lines = vec!["epoch\ttrain_ce\theld_out_ce\theld_out_equity_mae".to_string()];
    let mut log = |e: &EpochLoss| {
        let line = format!(
            "{}\t{:.6}\t{:.6}\t{:.5}",
            e.epoch, e.train, e.held_out, e.equity_error
        );
        eprintln!("supervise: {line}");
        lines.push(line);
    };
    let description = format!(
        "{} network trained supervised on {} ({} positions, from {}, seed {})",
        a.variant,
        a.data.display(),
        data.len(),
        a.from,
        a.seed
    );
    let bytes = match a.variant.spec().eval {
        EvalFamily::Hitting => {
            let mut net: HitNet = start(&a, HitNet::shipped, HitNet::random)?;
            let examples: Vec<Example<5>> = data
                .iter()
                .map(|(s, p)| Example {
                    inputs: crate::eval::hitnet::features(s),
                    // The labels' order is win, win mars, lose mars, win bg,
                    // lose bg; the network's win, win gammon, win bg, lose
                    // gammon, lose bg.
                    target: [p[0], p[1], p[3], p[2], p[4]],
                })
                .collect();
            fit(&mut net, &examples, &cfg, &mut log);
            net.description = description;
            net.to_bytes()
        }
        family => {
            let shipped = if family == EvalFamily::LongNardy {
                Net::long_shipped
            } else {
                Net::shipped
            };
            let mut net: Net = start(&a, shipped, Net::random)?;
            let opts = RuleOptions::for_variant(a.variant);
            let examples: Vec<Example<3>> = data
                .iter()
                .map(|(s, p)| Example {
                    inputs: crate::eval::net::features_for(&net, s, &opts),
                    target: [p[0], p[1], p[2]],
                })
                .collect();
            fit(&mut net, &examples, &cfg, &mut log);
            net.description = description;
            net.to_bytes()
        }
    };
    std::fs::write(&a.out, bytes).with_context(|| format!("cannot write {}", a.out.display()))?;
    if let Some(path) = &a.curve {
        let mut f = std::fs::File::create(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        for l in &lines {
            writeln!(f, "{l}")?;
        }
    }
    println!("{} positions; weights in {}", data.len(), a.out.display());
    Ok(())
}

/// The network to start from.
fn start<const OUT: usize>(
    a: &SuperviseArgs,
    shipped: fn() -> Result<NetOf<OUT>, crate::eval::net::WeightsError>,
    random: fn(usize, u64) -> NetOf<OUT>,
) -> anyhow::Result<NetOf<OUT>> {
    Ok(match a.from.as_str() {
        "shipped" => shipped()?,
        "random" => random(a.hidden, a.seed),
        file => {
            let bytes = std::fs::read(file).with_context(|| format!("cannot read {file}"))?;
            NetOf::<OUT>::from_bytes(&bytes)?
        }
    })
}
