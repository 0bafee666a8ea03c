//! Measuring a game's result rates for its match equity table: the shipped
//! network plays itself through the match runner, and the share of games
//! won by a gammon (mars) or a backgammon is counted
//! ([`crate::cube::generate`] turns the rates into the table).

use super::engine::EngineSpec;
use super::{MatchConfig, run_match};
use crate::cube::generate::Rates;
use crate::rules::{RuleOptions, Variant};

/// Measures `variant`'s result rates over `games` games of the shipped
/// network against itself at 0-ply (gnubg's naming), on mirrored dice.
pub fn measure(variant: Variant, games: usize, seed: u64, jobs: usize) -> Rates {
    let spec = |name: &str| EngineSpec {
        cmd: "builtin:net".into(),
        name: name.into(),
        options: vec![("engine.ply".into(), "1".into())],
    };
    let cfg = MatchConfig::quiet(
        [spec("a"), spec("b")],
        RuleOptions::for_variant(variant),
        games.max(2),
        seed,
        jobs.max(1),
    );
    let r = run_match(&cfg);
    let n = r.games.max(1) as f64;
    let bg = f64::from(r.backgammons[0] + r.backgammons[1]) / n;
    let gammon = f64::from(r.mars[0] + r.mars[1]) / n - bg;
    Rates {
        games: r.games,
        gammon: gammon.max(0.0),
        backgammon: bg,
    }
}
