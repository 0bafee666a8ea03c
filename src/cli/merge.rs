//! `gulbara merge`: the shards of a match or a rollout added up.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::{print_report, write_json};

/// Options of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard files (`match` or `rollout` with `--shard I/N --out FILE`),
    /// any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the summary as one JSON object, as `match --json` does.
    #[arg(long)]
    pub json: bool,
    /// Write the merged pairs (the whole match's `--out` file).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `merge`: checks that the files are the shards of one match (or of
/// one rollout), each once, and prints the whole job's report (the
/// unsharded run's, bit for bit).
pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let mut values = Vec::new();
    for f in &a.files {
        let name = f.display().to_string();
        let text = super::read_shard_text(f)?
            .with_context(|| format!("cannot read {name}: no such file"))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| crate::sharding::ShardError::Format {
                file: name.clone(),
                kind: crate::sharding::ShardKind::Match,
                why: crate::sharding::FormatError::Json(e),
            })?;
        values.push((name, value));
    }
    let rollout = values
        .first()
        .is_some_and(|(_, v)| v["format"] == crate::analysis::shard::FORMAT);
    if rollout {
        let mut shards = Vec::new();
        for (name, v) in &values {
            shards.push((
                name.clone(),
                crate::analysis::shard::RolloutShard::from_value(name, v)?,
            ));
        }
        let whole = crate::analysis::shard::merge(shards)?;
        write_json(&a.out, || whole.to_json())?;
        for l in whole.result_lines() {
            println!("{l}");
        }
        return Ok(());
    }
    let mut shards = Vec::new();
    for (name, v) in &values {
        shards.push((
            name.clone(),
            crate::matchplay::shard::MatchShard::from_value(name, v)?,
        ));
    }
    let whole = crate::matchplay::shard::merge(shards)?;
    write_json(&a.out, || whole.to_json())?;
    let report = crate::matchplay::shard::report_of(&whole);
    print_report(&report, a.json);
    Ok(())
}
