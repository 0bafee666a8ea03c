//! `gulbara supervise`: a network trained on a generation's rolled-out
//! positions (docs/TRAINING.md, "Supervised generations").

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::eval::hitnet::HitNet;
use crate::eval::net::block_inputs::{RUN_BLOCK_INPUTS, RUN_BLOCK_LAYOUT};
use crate::eval::net::pin_inputs::PIN_LAYOUT;
use crate::eval::net::{HIT_CONTACT_LAYOUT, HIT_GNUBG_LAYOUT, HIT_LAYOUT, LONG_LAYOUT, Net, NetOf};
use crate::rules::{EvalFamily, RuleOptions, Variant};
use crate::training::supervise::{
    EpochLoss, Example, FitConfig, Labelled, Trainable, fit_keeping, labelled_positions,
};

/// Options of `supervise`.
#[derive(Args, Debug)]
pub struct SuperviseArgs {
    /// The game.
    #[arg(long, default_value = "gulbara")]
    pub variant: Variant,
    /// The generation's folder (positions.txt.gz and labels.txt.gz);
    /// repeated, the positions of every folder named, in order.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Read of the folder's `labels/` only the closed shards up to and
    /// including this one (its file name without `.txt.gz`, e.g.
    /// `20261207T144240Z`), leaving out later shards: fits a network again
    /// on the labels it was fitted on. With one `--data` folder only.
    #[arg(long)]
    pub labels_through: Option<String>,
    /// The network to start from: `shipped`, a weights file, or `random`.
    #[arg(long, default_value = "shipped")]
    pub from: String,
    /// Hidden units of a `random` start.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Hidden units added to the starting network before training (their
    /// output weights zero, so training starts from the same outputs).
    #[arg(long, default_value_t = 0)]
    pub widen: usize,
    /// A second hidden layer of this many units, added between the
    /// starting network's hidden layer and its outputs before training
    /// (0: none). Its first units start as the old outputs and each output
    /// reads its old self, so training starts near the old network
    /// (`NetOf::deepened`; docs/TRAINING.md). A starting network with two
    /// layers already keeps its own.
    #[arg(long, default_value_t = 0)]
    pub hidden2: usize,
    /// How `--hidden2`'s layer starts: `line` (the old function, through
    /// the sigmoid's straight middle: `NetOf::deepened`) or `rough` (the
    /// old outputs as units, read back through σ(6(u − 1/2)):
    /// `NetOf::deepened_roughly`, the first start, which the two-layer
    /// candidate of docs/TRAINING.md was fitted from).
    #[arg(long, default_value = "line", value_parser = ["line", "rough"])]
    pub hidden2_start: String,
    /// Hidden-layer inputs to train with, where the starting network's
    /// layout has fewer: `6` gives a hitting network (layout 2) the contact
    /// inputs of layout 6, `7` one of layout 2 or 6 the gnubg-class inputs
    /// of layout 7 (docs/INPUTS.md), their weights starting at zero; `8`
    /// gives Plakoto's (layout 2) the pin inputs of layout 8
    /// (`eval::net::pin_inputs`); `9` gives long nardy's or Fevga's (layout
    /// 3) the blocking inputs of layout 9 (`eval::net::block_inputs`).
    #[arg(long)]
    pub layout: Option<u32>,
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
    #[arg(long, default_value_t = 3e-4, value_parser = super::numbers::positive_f32)]
    pub rate: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 1e-4, value_parser = super::numbers::non_negative_f32)]
    pub decay: f32,
    /// Decay towards the starting network's weights (0: none): the pull
    /// per step is the rate times this times the distance.
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::non_negative_f32)]
    pub anchor: f32,
    /// Share of positions held out.
    #[arg(long, default_value_t = 0.05, value_parser = super::numbers::non_negative_f64)]
    pub holdout: f64,
    /// Hold positions out in runs of this many consecutive ones (about a
    /// game's worth keeps whole games out of training); 1: one by one.
    #[arg(long, default_value_t = 1)]
    pub holdout_block: usize,
    /// Seed of the split and the order (and of a random start).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Choose among the three epochs with the lowest held-out loss by
    /// matches of this many mirrored games (0-ply) against the starting
    /// network; 0 keeps the lowest held-out loss.
    #[arg(long, default_value_t = 0)]
    pub match_games: usize,
    /// Weight of the loss on the differences within a turn's group of plays
    /// (`turn` and `sibling` positions; 0: none): see docs/TRAINING.md.
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::non_negative_f32)]
    pub group_weight: f32,
    /// Train only on the positions of this phase (`contact`, `crashed` or
    /// `race`; the hitting games, `eval::phase`): a network of its own for
    /// that phase. A race network leaves out the all-home races, which the
    /// exact tables answer. The phase counts of the data are printed either
    /// way.
    #[arg(long)]
    pub phase: Option<crate::eval::phase::Phase>,
    /// Games at once in those matches.
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    pub jobs: usize,
    /// The weights the fit moves: `all`; `output`, the output layer only
    /// (hidden-to-output weights and output biases); `bias`, the output
    /// biases only (each output's level; what the network ranks plays by
    /// within a position class stays).
    #[arg(long, value_enum, default_value_t = TrainArg::All)]
    pub train: TrainArg,
    /// Weight of the loss on each position's equity against its label's, in
    /// the group loss's units (0: none): holds the values' level while
    /// `--group-weight` trains the differences; see docs/TRAINING.md.
    #[arg(long, default_value_t = 0.0, value_parser = super::numbers::non_negative_f32)]
    pub level_weight: f32,
}

/// The `--train` choices ([`Trainable`]).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum TrainArg {
    /// Every weight.
    All,
    /// The output layer.
    Output,
    /// The output biases.
    Bias,
}

/// Runs `supervise`.
pub fn run(a: SuperviseArgs) -> anyhow::Result<()> {
    let (data, folders) = read_data(&a)?;
    let cfg = fit_config(&a);
    let groups = data.iter().filter(|d| d.group.is_some()).count();
    anyhow::ensure!(
        a.group_weight <= 0.0 || groups > 0,
        "--group-weight: none of {folders}'s labelled positions is in a group (`positions --sibling-share`)"
    );
    let mut lines = vec![
        "epoch\ttrain_ce\theld_out_ce\theld_out_equity_mae\theld_out_group_mae\theld_out_single_equity_mae"
            .to_string(),
    ];
    let mut log = |e: &EpochLoss| {
        let line = format!(
            "{}\t{:.6}\t{:.6}\t{:.5}\t{:.5}\t{:.5}",
            e.epoch, e.train, e.held_out, e.equity_error, e.group_error, e.single_error
        );
        eprintln!("supervise: {line}");
        lines.push(line);
    };
    let description = format!(
        "{} network trained supervised on {} ({} positions, from {}{}{}, seed {})",
        a.variant,
        folders,
        data.len(),
        a.from,
        if a.widen > 0 {
            format!(" widened by {} hidden units", a.widen)
        } else {
            String::new()
        },
        if a.hidden2 > 0 {
            format!(", a second hidden layer of {} units added", a.hidden2)
        } else {
            String::new()
        },
        a.seed
    );
    let bytes = train(&a, &data, &cfg, &mut log, &description)?;
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

/// The labelled positions of every `--data` folder, in order, and the
/// folders' names joined for messages.
fn read_data(a: &SuperviseArgs) -> anyhow::Result<(Vec<Labelled>, String)> {
    anyhow::ensure!(
        a.phase.is_none() || matches!(a.variant.spec().eval, EvalFamily::Hitting),
        "--phase: {} has one network for every phase (phases are the hitting games')",
        a.variant
    );
    anyhow::ensure!(
        a.labels_through.is_none() || a.data.len() == 1,
        "--labels-through: name one --data folder"
    );
    let mut data = Vec::new();
    for (folder, dir) in a.data.iter().enumerate() {
        // A group is named by its folder and its `turn` line.
        data.extend(
            labelled_positions(dir, a.variant, a.labels_through.as_deref())?
                .into_iter()
                .map(|l| Labelled {
                    group: l.group.map(|g| ((folder as u64) << 40) | g),
                    ..l
                }),
        );
    }
    let folders = a
        .data
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    anyhow::ensure!(!data.is_empty(), "no labelled positions in {folders}");
    let data = of_phase(a, data)?;
    anyhow::ensure!(
        !data.is_empty(),
        "no labelled positions of phase {} in {folders}",
        a.phase.map_or("any", |p| p.name())
    );
    Ok((data, folders))
}

/// The phase counts of `data` (printed), and the positions of `--phase`.
fn of_phase(a: &SuperviseArgs, data: Vec<Labelled>) -> anyhow::Result<Vec<Labelled>> {
    use crate::eval::phase::{Phase, phase};
    if !matches!(a.variant.spec().eval, EvalFamily::Hitting) {
        return Ok(data);
    }
    let tables = |l: &Labelled| crate::eval::race::is_race(&l.state);
    let mut counts = [0usize; 3];
    let mut all_home = 0usize;
    for l in &data {
        let p = phase(&l.state);
        counts[Phase::ALL.iter().position(|&q| q == p).unwrap_or(0)] += 1;
        all_home += usize::from(tables(l));
    }
    eprintln!(
        "supervise: {} positions: contact {}, crashed {}, race {} (of which all home, the tables' {})",
        data.len(),
        counts[0],
        counts[1],
        counts[2],
        all_home
    );
    let Some(want) = a.phase else {
        return Ok(data);
    };
    let kept: Vec<Labelled> = data
        .into_iter()
        .filter(|l| phase(&l.state) == want && !(want == Phase::Race && tables(l)))
        .collect();
    eprintln!("supervise: training on the {} {want} positions", kept.len());
    Ok(kept)
}

/// The fit's settings from the options, each clamped to its range.
fn fit_config(a: &SuperviseArgs) -> FitConfig {
    FitConfig {
        epochs: a.epochs,
        patience: a.patience.max(1),
        batch: a.batch.max(1),
        rate: a.rate,
        decay: a.decay,
        anchor: a.anchor.max(0.0),
        holdout: a.holdout.clamp(0.0, 0.5),
        holdout_block: a.holdout_block.max(1),
        seed: a.seed,
        group_weight: a.group_weight.max(0.0),
        train: match a.train {
            TrainArg::All => Trainable::All,
            TrainArg::Output => Trainable::Output,
            TrainArg::Bias => Trainable::Bias,
        },
        level_weight: a.level_weight.max(0.0),
        scores: a.variant.spec().scores,
    }
}

/// The starting hitting (or pinning) network, given the inputs of
/// `--layout` where it asks for more.
fn hit_start(a: &SuperviseArgs) -> anyhow::Result<HitNet> {
    let mut net: HitNet = start(a, HitNet::random)?;
    match a.layout {
        None => {}
        Some(l) if l == net.layout => {}
        Some(HIT_CONTACT_LAYOUT) if net.layout == HIT_LAYOUT => {
            net = net.with_inputs(HIT_CONTACT_LAYOUT, crate::eval::hitnet::CONTACT_INPUTS);
        }
        Some(HIT_GNUBG_LAYOUT) if net.layout == HIT_LAYOUT || net.layout == HIT_CONTACT_LAYOUT => {
            net = net.with_inputs(HIT_GNUBG_LAYOUT, crate::eval::hitnet::GNUBG_INPUTS);
        }
        Some(PIN_LAYOUT)
            if net.layout == HIT_LAYOUT && matches!(a.variant.spec().eval, EvalFamily::Pinning) =>
        {
            net = net.with_inputs(PIN_LAYOUT, crate::eval::net::pin_inputs::PIN_INPUTS);
        }
        Some(l) => anyhow::bail!(
            "--layout {l}: a network of layout {} can be given layout {HIT_CONTACT_LAYOUT} (from {HIT_LAYOUT}), {HIT_GNUBG_LAYOUT} (from {HIT_LAYOUT} or {HIT_CONTACT_LAYOUT}), or {PIN_LAYOUT} (from {HIT_LAYOUT}, the pinning games) only",
            net.layout
        ),
    }
    // Only a network the game's engine loads (its table row's shape).
    crate::eval::net::NetShape::of(a.variant.spec().eval).check(
        a.variant,
        net.layout,
        crate::eval::hitnet::OUTPUTS,
    )?;
    Ok(net)
}

/// Trains the game's network on `data`: the weights kept.
fn train(
    a: &SuperviseArgs,
    data: &[Labelled],
    cfg: &FitConfig,
    log: &mut dyn FnMut(&EpochLoss),
    description: &str,
) -> anyhow::Result<Vec<u8>> {
    if matches!(
        a.variant.spec().eval,
        EvalFamily::Hitting | EvalFamily::Pinning
    ) {
        let mut net = hit_start(a)?;
        let examples: Vec<Example<5>> = data
            .iter()
            .map(|l| {
                let p = l.probs;
                Example {
                    inputs: crate::eval::hitnet::features_of(net.layout, &l.state),
                    group: l.group,
                    // The labels' order is win, win mars, lose mars, win bg,
                    // lose bg; the network's win, win gammon, win bg, lose
                    // gammon, lose bg.
                    target: [p[0], p[1], p[3], p[2], p[4]],
                }
            })
            .collect();
        fit_and_choose(a, &mut net, &examples, cfg, log, description)
    } else {
        let mut net: Net = start(a, Net::random)?;
        net.check_game(a.variant)?;
        match a.layout {
            None => {}
            Some(l) if l == net.layout => {}
            Some(RUN_BLOCK_LAYOUT)
                if net.layout == LONG_LAYOUT
                    && matches!(a.variant.spec().eval, EvalFamily::LongNardy) =>
            {
                net = net.with_inputs(RUN_BLOCK_LAYOUT, RUN_BLOCK_INPUTS);
            }
            Some(l) => anyhow::bail!(
                "--layout {l}: a network of layout {} can take new inputs only as a hitting network (layout {HIT_LAYOUT}) or as layout {RUN_BLOCK_LAYOUT} from {LONG_LAYOUT} (long nardy, Fevga)",
                net.layout
            ),
        }
        let opts = RuleOptions::for_variant(a.variant);
        let examples: Vec<Example<3>> = data
            .iter()
            .map(|l| Example {
                inputs: crate::eval::net::features_for(&net, &l.state, &opts),
                group: l.group,
                target: [l.probs[0], l.probs[1], l.probs[2]],
            })
            .collect();
        fit_and_choose(a, &mut net, &examples, cfg, log, description)
    }
}

/// Fits `net` on `examples` and chooses the weights kept among the three
/// best epochs ([`choose`]).
fn fit_and_choose<const OUT: usize>(
    a: &SuperviseArgs,
    net: &mut NetOf<OUT>,
    examples: &[Example<OUT>],
    cfg: &FitConfig,
    log: &mut dyn FnMut(&EpochLoss),
    description: &str,
) -> anyhow::Result<Vec<u8>> {
    let start_bytes = net.to_bytes();
    let (_, kept) = fit_keeping(net, examples, cfg, 3, log);
    let kept = kept.into_iter().map(|(e, n)| (e, n.to_bytes())).collect();
    choose(a, start_bytes, net.to_bytes(), kept, description)
}

/// The weights kept: the lowest held-out loss's (`best`), or with
/// `--match-games` the candidate that scores most against the starting
/// network; the description set either way.
fn choose(
    a: &SuperviseArgs,
    start: Vec<u8>,
    best: Vec<u8>,
    candidates: Vec<(EpochLoss, Vec<u8>)>,
    description: &str,
) -> anyhow::Result<Vec<u8>> {
    let describe = |bytes: &[u8], epoch: usize| -> anyhow::Result<Vec<u8>> {
        Ok(match a.variant.spec().eval {
            EvalFamily::Hitting | EvalFamily::Pinning => {
                let mut n = HitNet::from_bytes(bytes)?;
                n.description = format!("{description}, epoch {epoch}");
                n.to_bytes()
            }
            _ => {
                let mut n = Net::from_bytes(bytes)?;
                n.description = format!("{description}, epoch {epoch}");
                n.to_bytes()
            }
        })
    };
    if a.match_games == 0 || candidates.is_empty() {
        let epoch = candidates.first().map_or(0, |(e, _)| e.epoch);
        return describe(&best, epoch);
    }
    let dir = std::env::temp_dir().join(format!("gulbara-supervise-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let start_path = dir.join("start.gbnn");
    std::fs::write(&start_path, &start)?;
    let mut scored = Vec::new();
    for (e, bytes) in &candidates {
        let path = dir.join(format!("epoch-{}.gbnn", e.epoch));
        std::fs::write(&path, bytes)?;
        // A phase's network plays as that phase's network of the shipped one.
        let key = match a.phase {
            Some(crate::eval::phase::Phase::Race) => "engine.race_weights",
            Some(crate::eval::phase::Phase::Crashed) => "engine.crashed_weights",
            _ => "engine.weights",
        };
        let spec = |name: &str, weights: &std::path::Path| crate::matchplay::engine::EngineSpec {
            cmd: "builtin:net".into(),
            name: name.into(),
            options: vec![
                ("engine.ply".into(), "1".into()),
                (key.into(), weights.display().to_string()),
            ],
        };
        let cfg = crate::matchplay::MatchConfig {
            rotation: Vec::new(),
            winner_starts: false,
            engines: [spec("candidate", &path), spec("start", &start_path)],
            games: a.match_games.max(2),
            seed: a.seed,
            jobs: a.jobs.max(1),
            move_timeout: std::time::Duration::from_secs(60),
            rules: crate::matchplay::parse_rules(a.variant, &[])?,
            luck_adjust: false,
            luck_reference: Default::default(),
            sprt: None,
            records: None,
            progress: false,
            out: None,
            shard: crate::sharding::Shard::WHOLE,
            session: crate::cube::SessionSpec::cubeless(),
        };
        let report = crate::matchplay::run_match(&cfg);
        eprintln!(
            "supervise: epoch {} against the start: {:+.4} ± {:.4} ppg over {} games",
            e.epoch, report.ppg, report.se, report.games
        );
        scored.push((report.ppg, e.epoch, bytes.clone()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (ppg, epoch, bytes) = scored.swap_remove(0);
    eprintln!("supervise: kept epoch {epoch} ({ppg:+.4} ppg against the start)");
    describe(&bytes, epoch)
}

/// The network to start from.
fn start<const OUT: usize>(
    a: &SuperviseArgs,
    random: fn(usize, u64) -> NetOf<OUT>,
) -> anyhow::Result<NetOf<OUT>> {
    anyhow::ensure!(
        a.widen <= 1024,
        "--widen {}: at most 1024 hidden units more",
        a.widen
    );
    anyhow::ensure!(
        a.hidden2 <= 1024,
        "--hidden2 {}: at most 1024 units",
        a.hidden2
    );
    let net = match a.from.as_str() {
        // The game's own shipped network (Plakoto's for the pinning games,
        // Fevga's for Fevga).
        "shipped" => NetOf::<OUT>::from_bytes(crate::eval::shipped_bytes(a.variant.spec().net))?,
        "random" => random(a.hidden, a.seed),
        file => {
            let bytes = std::fs::read(file).with_context(|| format!("cannot read {file}"))?;
            NetOf::<OUT>::from_bytes(&bytes)?
        }
    };
    let net = if a.widen > 0 {
        net.widened(a.widen, a.seed)
    } else {
        net
    };
    Ok(if a.hidden2 == 0 {
        net
    } else if a.hidden2_start == "rough" {
        net.deepened_roughly(a.hidden2, a.seed)
    } else {
        net.deepened(a.hidden2, a.seed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `hit_start` of `gulbara supervise ARGS`.
    fn hit_start_of(args: &[&str]) -> anyhow::Result<HitNet> {
        let mut all = vec![
            "gulbara",
            "supervise",
            "--data",
            "unused",
            "--out",
            "unused",
        ];
        all.extend_from_slice(args);
        let cli = crate::cli::Cli::try_parse_from(all)?;
        match cli.command {
            Some(crate::cli::Commands::Supervise(a)) => hit_start(&a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_start_the_games_engine_would_refuse_is_refused() {
        // The pinning games read layouts 2 and 8, not the hitting games'
        // contact layouts; the hitting games not the pinning layout.
        for args in [
            &["--variant", "plakoto", "--from", "random", "--layout", "6"][..],
            &["--variant", "plakoto", "--from", "random", "--layout", "7"],
            &["--variant", "tapa", "--from", "src/eval/backgammon.gbnn"],
            &["--variant", "backgammon", "--from", "src/eval/plakoto.gbnn"],
        ] {
            let e = hit_start_of(args).expect_err("refused");
            assert!(
                e.to_string().contains("weights of another game"),
                "{args:?}: {e}"
            );
        }
        for args in [
            &["--variant", "plakoto", "--from", "random", "--layout", "8"][..],
            &["--variant", "plakoto", "--from", "random"],
            &["--variant", "portes", "--from", "random", "--layout", "7"],
            &[
                "--variant",
                "backgammon",
                "--from",
                "src/eval/backgammon.gbnn",
            ],
        ] {
            assert!(hit_start_of(args).is_ok(), "{args:?}");
        }
    }
}
