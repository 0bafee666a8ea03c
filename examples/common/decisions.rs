//! The positions the probes examine, shared by `examples/oneply_probe.rs`
//! and `examples/lookahead_probe.rs` (included with `#[path]`; not an
//! example of its own).

use gulbara::rules::{GameState, RuleOptions, Side, Variant};
use gulbara::search::{Limits, Search};
use gulbara::splitmix::SplitMix;

/// `n` decisions from seeded 0-ply self-play: every third roll (on average)
/// that leaves two or more turns, as (the state before the roll, the rolled
/// state). Games that end, or run past 400 rolls, start again.
pub fn sample(
    search: &Search<'_>,
    variant: Variant,
    opts: RuleOptions,
    seed: u64,
    n: usize,
) -> Vec<(GameState, GameState)> {
    let zero = Limits::default();
    let mut rng = SplitMix::new(seed);
    let mut positions = Vec::new();
    'games: while positions.len() < n {
        let mut s = GameState::start_of(variant, Side::White);
        for _ in 0..400 {
            if s.result().is_some() {
                continue 'games;
            }
            let Ok(r) = s.roll(&opts, rng.die(), rng.die()) else {
                continue 'games;
            };
            let ranked = search.best_turn(&r, &zero, &mut |_| {});
            if ranked.is_empty() {
                continue 'games;
            }
            if ranked.len() > 1 && rng.below(3) == 0 {
                positions.push((s, r));
                if positions.len() >= n {
                    break 'games;
                }
            }
            s = ranked[0].end;
        }
    }
    positions
}

/// The probes' first three arguments: the game, how many positions, the
/// seed (each with its default), and every argument for the rest.
pub fn game_count_seed(variant: &str, n: usize, seed: u64) -> (Vec<String>, Variant, usize, u64) {
    let args: Vec<String> = std::env::args().collect();
    let variant: Variant = args
        .get(1)
        .map(String::as_str)
        .unwrap_or(variant)
        .parse()
        .expect("a game");
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(n);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(seed);
    (args, variant, n, seed)
}
