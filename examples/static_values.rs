//! The network's own (0-ply) value of every position of a positions file,
//! one `index<TAB>equity` line each (index counted from 0, as `label`
//! counts it): the static judgement to set beside `label`'s look-ahead
//! values (`--games 36 --truncate 1` is the 1-ply value) and against a
//! quality sample's reference rollouts (docs/TRAINING.md).
//!
//! ```sh
//! cargo run --release --example static_values -- long_nardy sample.txt shipped > static.txt
//! ```
//! (game, positions file, weights: `shipped` or a file)

use anyhow::{Context, Result};
use gulbara::eval::probs_for;
use gulbara::rules::{RuleOptions, Variant};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, game, file, weights] = args.as_slice() else {
        anyhow::bail!("usage: static_values GAME POSITIONS WEIGHTS");
    };
    let variant: Variant = game.parse().map_err(|e| anyhow::anyhow!("{game}: {e:?}"))?;
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
    let net = gulbara::engine::load_net(
        variant,
        &gulbara::engine::Weights::named(weights),
        &Default::default(),
    )
    .with_context(|| format!("cannot load the weights {weights}"))?;
    let eval = net.evaluator();
    let opts = RuleOptions::for_variant(variant);
    let positions = gulbara::training::label::parse_positions(&text, variant, file)?;
    for (i, s) in positions.iter().enumerate() {
        let p = probs_for(eval.as_ref(), s, &opts, s.to_move);
        println!("{i}\t{:.5}", p.equity());
    }
    Ok(())
}
