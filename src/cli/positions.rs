//! `gulbara positions`: before-roll positions found by self-play, for
//! supervised training (docs/TRAINING.md).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::rules::{RuleOptions, Variant};
use crate::training::label::{FindConfig, find_positions};

/// Options of `positions`.
#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// The game: gulbara, long_nardy, short_nardy, backgammon, fevga, portes, tabla,
    /// plakoto or tapa.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// Self-play games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the dice and the sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The network that plays: `shipped` or a weights file.
    #[arg(long, default_value = "shipped")]
    pub weights: String,
    /// Equity gap between 1-ply and 0-ply that keeps a position as a
    /// discrepancy (0: none looked for).
    #[arg(long, default_value_t = 0.08, value_parser = super::numbers::non_negative_f32)]
    pub discrepancy: f32,
    /// Share of turns whose best end is kept (`best`).
    #[arg(long, default_value_t = 0.25)]
    pub best_share: f64,
    /// Share of turns whose middle-ranked end is kept (`middle`).
    #[arg(long, default_value_t = 0.1)]
    pub middle_share: f64,
    /// Share of turns whose top plays' ends are kept together, as a `turn`
    /// and its `sibling`s labelled with the same dice (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub sibling_share: f64,
    /// How many of a turn's top plays such a group keeps (2 to 16).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(2..=16))]
    pub siblings: u16,
    /// The positions file to write (one `kind<TAB>position text` line each).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `positions`.
pub fn run(a: PositionsArgs) -> anyhow::Result<()> {
    let opts = RuleOptions::for_variant(a.variant);
    let weights = crate::engine::Weights::named(&a.weights);
    let net = crate::engine::load_net(a.variant, &weights, &Default::default())
        .context("cannot load the weights")?;
    let eval = net.evaluator();
    for (name, share) in [
        ("--best-share", a.best_share),
        ("--middle-share", a.middle_share),
        ("--sibling-share", a.sibling_share),
    ] {
        anyhow::ensure!(
            (0.0..=1.0).contains(&share),
            "{name} must be between 0 and 1, got {share}"
        );
    }
    let cfg = FindConfig {
        games: a.games,
        seed: a.seed,
        discrepancy: a.discrepancy.max(0.0),
        best_share: a.best_share,
        middle_share: a.middle_share,
        sibling_share: a.sibling_share,
        siblings: a.siblings as usize,
        ..FindConfig::default()
    };
    // Settings left at their defaults are not written, so the header of a
    // generation found before they existed is found again byte for byte.
    let defaults = FindConfig::default();
    let mut extra = String::new();
    if cfg.best_share != defaults.best_share {
        extra.push_str(&format!(" best_share={}", cfg.best_share));
    }
    if cfg.middle_share != defaults.middle_share {
        extra.push_str(&format!(" middle_share={}", cfg.middle_share));
    }
    if cfg.sibling_share > 0.0 {
        extra.push_str(&format!(
            " sibling_share={} siblings={}",
            cfg.sibling_share, cfg.siblings
        ));
    }
    let step = (a.games / 20).max(1);
    let found = find_positions(eval.as_ref(), &opts, &cfg, &mut |g| {
        if g.is_multiple_of(step) {
            eprintln!("positions: {g}/{} games", a.games);
        }
    });
    let file = std::fs::File::create(&a.out)
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    writeln!(
        w,
        "# gulbara positions variant={} games={} seed={} weights={} discrepancy={}{extra} positions={}",
        a.variant,
        a.games,
        a.seed,
        a.weights,
        cfg.discrepancy,
        found.len()
    )?;
    for (kind, s) in &found {
        writeln!(w, "{}\t{}", kind.word(), crate::notation::state_text(s))?;
    }
    w.flush()?;
    println!("{} positions in {}", found.len(), a.out.display());
    Ok(())
}
