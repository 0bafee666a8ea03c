//! `gulbara replay`: checks a game record and prints each game's final position.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::anyrecord::replay_any;
use crate::notation::state_text;
use crate::rules::Variant;

/// Options of `replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file.
    pub file: PathBuf,
}

/// Runs `replay`: checks a record and prints each game's final position
/// (after a `variant <name>` line for the games other than Gul bara, the
/// variant being read from the record).
pub fn run(a: ReplayArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let (opts, games) =
        replay_any(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    let rotating = games.iter().any(|g| g.opts != opts);
    if opts.variant != Variant::default() || rotating {
        println!("variant {}", opts.variant);
    }
    for (i, g) in games.iter().enumerate() {
        // A rotating match names each game's variant.
        let game = if rotating {
            format!(" variant {}", g.opts.variant)
        } else {
            String::new()
        };
        println!(
            "game {}{game} final {} result {}",
            i + 1,
            state_text(&g.final_state),
            g.result_line.as_deref().unwrap_or("none")
        );
    }
    println!("ok {} games", games.len());
    Ok(())
}
