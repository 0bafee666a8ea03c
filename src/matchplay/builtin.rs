//! In-process players for matches without a protocol round trip:
//! `cmd=builtin:heuristic` (the baseline search), `cmd=builtin:net` (the
//! network, `option.engine.weights=<file>` or the shipped one) and `cmd=builtin:random`
//! (a uniformly random legal turn). Used by `selfplay` and for quick
//! experiments; real engines are spawned or reached over TCP. Builtin
//! players are [`Player`]s on typed states: they read no position text and
//! write no words.
//!
//! The game is set with `game.variant` (before any `rules.*` option, which
//! then belong to that variant). `builtin:net` plays the network of that
//! game (Gul bara's, long nardy's, or backgammon and short nardy's), as the
//! protocol engine does.

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::engine::EngineError;
use crate::eval::{Evaluator, GameNet};
use crate::notation::state_text;
use crate::rules::game::{Player, PlayerFault, Turn, TurnRequest};
use crate::rules::{RuleOptions, StageGen, Variant};
use crate::search::{Limits, Search};

/// How a builtin player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    /// An evaluator with search.
    Search,
    /// A random legal turn.
    Random,
}

/// An in-process player.
pub struct Builtin {
    kind: BuiltinKind,
    /// The network asked for (`builtin:net`), of the game played; `None`
    /// for the baseline (see [`Builtin::evaluator`]).
    eval: Option<std::sync::Arc<dyn Evaluator>>,
    rules: RuleOptions,
    limits: Limits,
    seed: u64,
}

impl Builtin {
    /// A builtin player from `builtin:<kind>` and `engine.*` / `rules.*` options.
    pub fn new(kind: &str, options: &[(String, String)]) -> Result<Builtin, EngineError> {
        let kind_of = match kind {
            "heuristic" | "net" => BuiltinKind::Search,
            "random" => BuiltinKind::Random,
            other => {
                return Err(EngineError::Start(format!(
                    "unknown builtin player '{other}' (heuristic, net, random)"
                )));
            }
        };
        let mut b = Builtin {
            kind: kind_of,
            eval: None,
            rules: RuleOptions::default(),
            limits: Limits {
                plies: 1,
                ..Limits::default()
            },
            seed: 0,
        };
        for (k, v) in options {
            let bad = || EngineError::Protocol(format!("error bad_value {k} {v}"));
            if k == "game.variant" {
                let v: Variant = v.parse().map_err(|_| bad())?;
                b.rules = RuleOptions::for_variant(v);
            } else if let Some(r) = k.strip_prefix("rules.") {
                b.rules.set(r, v).map_err(|_| bad())?;
            } else if k == "engine.ply" {
                let p: u8 = v.parse().map_err(|_| bad())?;
                b.limits.plies = p.saturating_sub(1);
            } else if k == "engine.seed" {
                b.seed = v.parse().map_err(|_| bad())?;
            }
        }
        if kind == "net" {
            // The network of the game played: Gul bara's, long nardy's, or
            // the hitting games'.
            let file = options
                .iter()
                .find(|(k, v)| k == "engine.weights" && v != "shipped")
                .map(|(_, path)| {
                    crate::eval::net::read_weights_file(std::path::Path::new(path), false)
                        .map_err(|e| EngineError::Start(e.to_string()))
                })
                .transpose()?;
            let net = GameNet::load(b.rules.variant, file.as_deref())
                .map_err(|e| EngineError::Start(e.to_string()))?;
            b.eval = Some(net.evaluator());
        }
        Ok(b)
    }

    /// The game this player plays.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The evaluator that judges its positions: its network, or the
    /// variant's baseline (`builtin:heuristic`).
    pub fn evaluator(&self) -> &dyn Evaluator {
        match &self.eval {
            Some(e) => &**e,
            None => crate::eval::variants::baseline(self.rules.variant),
        }
    }
}

impl Player for Builtin {
    /// Plays on the typed state; no text is read or written (the random
    /// player's seed hashes the position text, so that its choices stay
    /// those of its seed, the position and the dice).
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        let state = *ask.start;
        let stop = AtomicBool::new(false);
        let search = Search::new(self.evaluator(), self.rules, &stop);
        let steps = match self.kind {
            BuiltinKind::Search => search
                .best_turn(&state, &self.limits, &mut |_| {})
                .into_iter()
                .next()
                .map(|c| c.steps)
                .unwrap_or_default(),
            BuiltinKind::Random => {
                // Random stage by stage: every stage's ends equally likely.
                // The choices depend only on the seed, the position and the
                // dice, so a match gives the same games whatever `-j` is.
                let position = state_text(ask.before);
                let mut rng = StdRng::seed_from_u64(fnv1a(self.seed, &position, ask.roll));
                let mut movegen = StageGen::new();
                let mut ends = Vec::new();
                let mover = state.to_move;
                let mut steps = Vec::new();
                let mut s = state;
                while s.result().is_none() && s.to_move == mover {
                    let Some(d) = s.stage_dice() else { break };
                    let n = movegen.generate(&self.rules, &s, d, &mut ends);
                    let e = ends[rng.random_range(0..ends.len())];
                    steps.extend_from_slice(e.play.steps());
                    s = s.after_stage(&self.rules, e.pos, n);
                }
                steps
            }
        };
        Ok(Turn::from_steps(&steps))
    }
}

/// FNV-1a over the seed, the position text and the dice.
fn fnv1a(seed: u64, position: &str, dice: Option<(u8, u8)>) -> u64 {
    let (a, b) = dice.unwrap_or((0, 0));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in seed
        .to_le_bytes()
        .iter()
        .chain(position.as_bytes())
        .chain(&[a, b])
    {
        h ^= u64::from(*byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::{SeededDice, play_game};

    #[test]
    fn builtin_players_play_whole_games_on_the_driver() {
        let opts = RuleOptions::default();
        for seed in 0..4 {
            let mut h = Builtin::new("heuristic", &[]).unwrap();
            let mut r =
                Builtin::new("random", &[("engine.seed".into(), seed.to_string())]).unwrap();
            let g = play_game(&opts, &mut SeededDice::new(seed), [&mut h, &mut r], &mut ());
            assert!(g.forfeit.is_none(), "seed {seed}: {:?}", g.forfeit);
            assert!(g.final_state.result().is_some());
        }
    }

    #[test]
    fn builtin_players_play_every_variant_with_its_evaluator() {
        for v in Variant::ALL {
            let opts = RuleOptions::for_variant(v);
            let set = |extra: &[(&str, &str)]| {
                let mut o = vec![("game.variant".to_string(), v.to_string())];
                o.extend(extra.iter().map(|(k, x)| (k.to_string(), x.to_string())));
                o
            };
            let mut n = Builtin::new("net", &set(&[("rules.opening", "single")])).unwrap();
            assert_eq!(n.variant(), v);
            assert_eq!(n.rules.opening, crate::rules::options::Opening::Single);
            // Each game's own network.
            let want = match v.spec().eval {
                crate::rules::EvalFamily::GulBara | crate::rules::EvalFamily::LongNardy => "net",
                crate::rules::EvalFamily::Hitting => "hitnet",
            };
            assert_eq!(n.evaluator().name(), want);
            let h = Builtin::new("heuristic", &set(&[])).unwrap();
            assert_eq!(
                h.evaluator().name(),
                crate::eval::variants::baseline(v).name()
            );
            let mut r = Builtin::new("random", &set(&[])).unwrap();
            for seed in 0..2 {
                let g = play_game(&opts, &mut SeededDice::new(seed), [&mut n, &mut r], &mut ());
                assert!(g.forfeit.is_none(), "{v} seed {seed}: {:?}", g.forfeit);
                let res = g.final_state.result().unwrap();
                assert!(res.points >= 1 && res.points <= v.spec().scores.max());
            }
            // Another game's option is refused.
            let foreign = Variant::ALL
                .iter()
                .flat_map(|w| w.option_names())
                .find(|n| !v.option_names().contains(n))
                .expect("an option of another game");
            let key = format!("rules.{foreign}");
            assert!(Builtin::new("heuristic", &set(&[(&key, "x")])).is_err());
        }
        assert!(Builtin::new("heuristic", &[("game.variant".into(), "chess".into())]).is_err());
    }
}
