//! In-process players for matches without a protocol round trip:
//! `cmd=builtin:heuristic` (the baseline search), `cmd=builtin:net` (the
//! network, `option.engine.weights=<file>` or the shipped one) and `cmd=builtin:random`
//! (a uniformly random legal turn). Used by `selfplay`, the training gate
//! and for quick experiments; real engines are spawned or reached over TCP.
//! Builtin players are [`Player`]s on typed states: they read no position
//! text and write no words.
//!
//! Each player is an [`Engine`] set up from its `option.*` settings, read
//! by the protocol's key/value layer as `set` reads them, so every
//! `engine.*` setting means what it means to the protocol engine (depth,
//! beam, prefilter, race tables, threads, move time, weights). The game is
//! set with `game.variant` (before any `rules.*` option, which then belong
//! to that variant); the weights are loaded as the network of the game
//! played once all options are read.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::engine::EngineError;
use crate::cube::CubeAnswer;
use crate::engine::{Engine, EngineConfig, EvalKind, Setting, Settings, SetupError};
use crate::eval::Evaluator;
use crate::game::{CubeRequest, Player, PlayerFault, Turn, TurnRequest};
use crate::notation::state_text;
use crate::rules::{StageGen, Variant};

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
    engine: Engine,
    /// The engine's evaluator, resolved once (see [`Builtin::evaluator`]).
    eval: Arc<dyn Evaluator>,
}

impl Builtin {
    /// A builtin player from `builtin:<kind>` and `engine.*` / `rules.*`
    /// options. `heuristic` and `net` choose the evaluator (whatever
    /// `engine.eval` says).
    pub fn new(kind: &str, options: &[(String, String)]) -> Result<Builtin, EngineError> {
        let (kind_of, eval) = match kind {
            "heuristic" => (BuiltinKind::Search, EvalKind::Heuristic),
            "net" => (BuiltinKind::Search, EvalKind::Net),
            // Its evaluator is never asked.
            "random" => (BuiltinKind::Random, EvalKind::Heuristic),
            other => {
                return Err(EngineError::UnknownBuiltin(other.to_string()));
            }
        };
        let mut settings = Settings::default();
        for (k, v) in options {
            settings.set(k, v).map_err(EngineError::Setting)?;
        }
        settings.apply(Setting::Eval(eval));
        let engine = Engine::new(settings, EngineConfig::default()).map_err(|e| match e {
            SetupError::Weights(w) => EngineError::Weights(w),
            // A new engine is at the start of its own game, and a phase
            // network's error names its own key.
            SetupError::OtherGame { .. } | SetupError::PhaseWeights { .. } => EngineError::Setup(e),
        })?;
        let eval = engine.evaluator().map_err(EngineError::Weights)?;
        Ok(Builtin {
            kind: kind_of,
            engine,
            eval,
        })
    }

    /// The game this player plays.
    pub fn variant(&self) -> Variant {
        self.engine.settings().rules.variant
    }

    /// The evaluator that judges its positions: its game's network, or
    /// that game's baseline (`builtin:heuristic`).
    pub fn evaluator(&self) -> &dyn Evaluator {
        self.eval.as_ref()
    }

    /// The engine's cube decision in `ask`'s state and session (`None`:
    /// no cube to turn).
    fn cube_decision(
        &mut self,
        ask: &CubeRequest<'_>,
    ) -> Result<Option<crate::cube::CubeDecision>, PlayerFault> {
        self.engine
            .set_state(*ask.state)
            .map_err(|e| PlayerFault::Failed(Box::new(e)))?;
        self.engine.set_session(*ask.session);
        self.engine
            .cube_decision_now()
            .map_err(|e| PlayerFault::Failed(Box::new(e)))
    }
}

impl Player for Builtin {
    /// Plays on the typed state; no text is read or written (the random
    /// player's seed hashes the position text, so that its choices stay
    /// those of its seed, the position and the dice).
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        let state = *ask.start;
        let rules = self.engine.settings().rules;
        let steps = match self.kind {
            BuiltinKind::Search => {
                // A state of another game than the engine's (a player set
                // up for another game than the match's) is its failure.
                self.engine
                    .set_state(state)
                    .map_err(|e| PlayerFault::Failed(Box::new(e)))?;
                // At a match score, plays are ranked by what it makes
                // each result worth.
                self.engine.set_session(*ask.session);
                self.engine
                    .best_turns_now()
                    .map_err(|e| PlayerFault::Failed(Box::new(e)))?
                    .into_iter()
                    .next()
                    .map(|c| c.steps)
                    .unwrap_or_default()
            }
            BuiltinKind::Random => {
                // Random stage by stage: every stage's ends equally likely.
                // The choices depend only on the seed, the position and the
                // dice, so a match gives the same games whatever `-j` is.
                let position = state_text(ask.before);
                let seed = self.engine.settings().seed;
                let mut rng = StdRng::seed_from_u64(fnv1a(seed, &position, ask.roll));
                let mut movegen = StageGen::new();
                let mut ends = Vec::new();
                let mover = state.to_move;
                let mut steps = Vec::new();
                let mut s = state;
                while s.result().is_none() && s.to_move == mover {
                    let Some(d) = s.stage_dice() else { break };
                    let n = movegen.generate(&rules, &s, d, &mut ends);
                    let e = ends[rng.random_range(0..ends.len())];
                    steps.extend_from_slice(e.play.steps());
                    s = s.after_stage(&rules, e.pos, n);
                }
                steps
            }
        };
        Ok(Turn::from_steps(&steps))
    }

    /// The engine's cube decision; the random player never doubles.
    fn offer_double(&mut self, ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
        if self.kind == BuiltinKind::Random {
            return Ok(false);
        }
        Ok(self.cube_decision(ask)?.is_some_and(|d| d.action.doubles()))
    }

    /// The engine's answer; the random player always takes.
    fn answer_double(&mut self, ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
        if self.kind == BuiltinKind::Random {
            return Ok(CubeAnswer::Take);
        }
        // With no cube to weigh (cannot happen with a double waiting), take.
        Ok(self
            .cube_decision(ask)?
            .map_or(CubeAnswer::Take, |d| d.action.reply()))
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
    use crate::game::play_game;
    use crate::rules::RuleOptions;
    use crate::rules::dice::SeededDice;

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
            assert_eq!(
                n.engine.settings().rules.opening,
                crate::rules::options::Opening::Single
            );
            // Each game's own network.
            let want = match v.spec().eval {
                crate::rules::EvalFamily::GulBara | crate::rules::EvalFamily::LongNardy => "net",
                crate::rules::EvalFamily::Hitting | crate::rules::EvalFamily::Pinning => "hitnet",
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
                .find(|n| !v.has_option(n))
                .expect("an option of another game");
            let key = format!("rules.{foreign}");
            assert!(Builtin::new("heuristic", &set(&[(&key, "x")])).is_err());
        }
        assert!(Builtin::new("heuristic", &[("game.variant".into(), "chess".into())]).is_err());
    }

    #[test]
    fn builtin_players_honour_every_engine_setting() {
        let opts: Vec<(String, String)> = [
            ("engine.ply", "1"),
            ("engine.beam", "2"),
            ("engine.prefilter", "5"),
            ("engine.threads", "2"),
            ("engine.race", "eval"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut n = Builtin::new("net", &opts).unwrap();
        let limits = n.engine.limits(None);
        assert_eq!(
            (
                limits.plies,
                limits.root_beam,
                limits.root_prefilter,
                limits.threads
            ),
            (0, 2, 5, 2)
        );
        // What it plays is what the search finds with those limits, judged
        // without the race tables (engine.race eval).
        let rules = RuleOptions::default();
        let eval = crate::eval::GameNet::load(Variant::GulBara, None)
            .unwrap()
            .net_evaluator();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let search = crate::search::Search::new(eval.as_ref(), rules, &stop);
        let before = crate::rules::GameState::start(crate::rules::Side::White);
        for (a, b) in [(6, 5), (3, 3), (2, 1), (4, 4)] {
            let start = before.roll(&rules, a, b).unwrap();
            let ask = TurnRequest {
                before: &before,
                roll: Some((a, b)),
                start: &start,
                opts: &rules,
                session: &crate::cube::cubeless(),
            };
            let played = n.play_turn(&ask).unwrap();
            let best = search.best_turn(&start, &limits, &mut |_| {});
            let want = Turn::from_steps(&best[0].steps);
            assert_eq!(played.moves, want.moves, "roll {a}{b}");
        }
        // An unknown setting, or weights that do not load, is an error,
        // never a silent default.
        let bad = [("engine.bogus".to_string(), "1".to_string())];
        assert!(Builtin::new("net", &bad).is_err());
        let missing = [(
            "engine.weights".to_string(),
            "/nonexistent/gulbara.gbnn".to_string(),
        )];
        assert!(Builtin::new("net", &missing).is_err());
    }
}
