//! `gulbara rollout`: a rollout from the command line, whole or one shard.

use clap::Args;

use super::{SplitArgs, write_json};
use crate::engine::{Engine, EngineConfig};
use crate::protocol::{Command, apply_setup, parse_command};

/// Options of `rollout`.
#[derive(Args, Debug)]
pub struct RolloutCliArgs {
    /// A protocol line that sets the game up, in order (repeatable), e.g.
    /// `set game.variant backgammon`, `position startpos`, `dice 31`.
    #[arg(long = "setup", value_name = "LINE")]
    pub setup: Vec<String>,
    /// The candidate plays of the dice set, as `rollout moves` takes them;
    /// none rolls out the position before the roll.
    #[arg(long = "moves", value_name = "PLAYS")]
    pub moves: Vec<String>,
    /// Trials of the whole rollout.
    #[arg(long, default_value_t = 1296)]
    pub games: u32,
    /// Plies per trial before the evaluator scores it (0: play to the end).
    #[arg(long, default_value_t = 0)]
    pub truncate: u32,
    /// The players' ply, root-inclusive as `engine.ply` (1 or 2).
    #[arg(long, default_value_t = 1)]
    pub ply: u8,
    /// The dice seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Turn the luck correction off.
    #[arg(long)]
    pub no_luck: bool,
    /// Worker threads (the results do not depend on their number).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub split: SplitArgs,
}

/// Runs `rollout`: prints the `rolloutok` line(s) of this shard's trials
/// (the whole rollout's when unsharded) and writes the shard file.
pub fn run(a: RolloutCliArgs) -> anyhow::Result<()> {
    let job = crate::analysis::shard::RolloutJob {
        setup: a.setup,
        moves: a.moves,
        games: a.games,
        truncate: a.truncate,
        ply: crate::engine::Ply::new(a.ply)
            .ok_or_else(|| anyhow::anyhow!("--ply must be 1 or 2"))?,
        seed: a.seed,
        luck: !a.no_luck,
        threads: a.threads,
        shard: a.split.shard.unwrap_or(crate::sharding::Shard::WHOLE),
    };
    job.check()?;
    // The setup lines applied to an engine: a line the protocol would
    // answer with an `error` fails the job.
    let mut engine = Engine::with_config(EngineConfig::default());
    for line in &job.setup {
        let applied = parse_command(line).and_then(|cmd| match cmd {
            Command::Empty => Ok(()),
            cmd => apply_setup(&mut engine, cmd),
        });
        if let Err(e) = applied {
            anyhow::bail!("--setup {line:?}: {e}");
        }
    }
    let done = crate::analysis::shard::run(&job, &engine)?;
    write_json(&a.split.out, || done.to_json())?;
    for l in done.result_lines() {
        println!("{l}");
    }
    Ok(())
}
