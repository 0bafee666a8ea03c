//! The engine's settings, typed: what `set` changes, already parsed. The
//! protocol's key/value layer ([`crate::protocol::settings`]) turns a
//! `(key, value)` pair into one [`Setting`] once; the match runner's
//! in-process players and the gnubg bridge go through the same layer.

use std::fmt;
use std::path::PathBuf;

use crate::rules::{RuleOptions, Variant};
use crate::search::Limits;

/// The evaluator behind `go`, `eval` and `hint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The hand-written evaluator ([`crate::eval::heuristic::Heuristic`]).
    Heuristic,
    /// The trained network ([`crate::eval::net::Net`]), weights from `engine.weights`.
    #[default]
    Net,
}

/// How all-home races are judged (`engine.race`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RaceKind {
    /// From the exact bear-off tables ([`crate::eval::race`]).
    #[default]
    Tables,
    /// By the evaluator `engine.eval` names, like every other position
    /// (for measurements against the tables).
    Eval,
}

/// A search depth counted root-inclusive, as `engine.ply`, `go ply` and
/// `rollout ply` count it: 1 judges each play's end with the evaluator.
///
/// gnubg counts the same depths from 0 (its "0-ply" is our 1), and so do
/// the search and the rollouts inside; [`Ply::gnubg`] is the one place
/// that translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ply(u8);

impl Ply {
    /// The deepest search: 3 (gnubg's 2-ply).
    pub const MAX: Ply = Ply(3);

    /// `n` root-inclusive plies; `None` outside `1..=3`.
    pub const fn new(n: u8) -> Option<Ply> {
        if n >= 1 && n <= Ply::MAX.0 {
            Some(Ply(n))
        } else {
            None
        }
    }

    /// The depth as the protocol writes it (root-inclusive).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The same depth in gnubg's naming, as [`crate::search::Limits::plies`]
    /// and [`crate::analysis::rollout::RolloutParams::plies`] take it.
    pub const fn gnubg(self) -> u8 {
        self.0 - 1
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The network weights `engine.weights` names.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Weights {
    /// The weights inside the binary (`shipped`).
    #[default]
    Shipped,
    /// A weights file: under a remote client's policy, a name inside the
    /// server's weights directory ([`super::FileAccess`]).
    File(PathBuf),
}

impl Weights {
    /// The weights a value of `engine.weights` names: `shipped` or a path.
    pub fn named(value: &str) -> Weights {
        if value == "shipped" {
            Weights::Shipped
        } else {
            Weights::File(PathBuf::from(value))
        }
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Weights::Shipped => f.write_str("shipped"),
            Weights::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// All settings of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game and its rule options (`game.variant`, `rules.*`).
    pub rules: RuleOptions,
    /// `engine.ply`: the search depth.
    pub ply: Ply,
    /// `engine.threads`.
    pub threads: usize,
    /// `engine.seed`: the rollouts' dice and the random player's choices;
    /// the search uses no randomness.
    pub seed: u64,
    /// `engine.movetime`: milliseconds per `go`, 0 = no limit.
    pub movetime: u64,
    /// `engine.eval`.
    pub eval: EvalKind,
    /// `engine.beam`: how many partial turns of an escalating chain go on at the root.
    pub beam: usize,
    /// `engine.prefilter`: ends of each doublet stage at the root judged by
    /// the evaluator (the best by a cheap score), 0 = all.
    pub prefilter: usize,
    /// `engine.blend`: hundredths of a turn's 0-ply chances mixed into its
    /// 1-ply chances in the 1-ply pass (0: plain 1-ply).
    pub blend: u8,
    /// `engine.weights`: the network for `engine.eval net`.
    pub weights: Weights,
    /// `engine.race_weights`: the hitting games' network for races outside
    /// the tables (`shipped`: the shipped one if any, else the contact
    /// network of `engine.weights`).
    pub race_weights: Weights,
    /// `engine.crashed_weights`: the hitting games' network for crashed
    /// positions (`shipped`: the shipped one if any, else the contact
    /// network).
    pub crashed_weights: Weights,
    /// `engine.race`: whether all-home races are answered from the bear-off tables.
    pub race: RaceKind,
    /// `engine.eval_mode`: whether checker play weighs results at the
    /// session's score and cube, or as cubeless money.
    pub eval_mode: EvalMode,
    /// `engine.cube_efficiency`: the cube's efficiency in contact
    /// positions, in hundredths (Janowski's x; races keep gnubg's race
    /// values).
    pub cube_efficiency: u8,
    /// `engine.cube_ply`: the depth cube decisions are judged at, counted
    /// as `engine.ply` is; 0 follows `engine.ply`, raised to
    /// `engine.cube_min_ply`.
    pub cube_ply: u8,
    /// `engine.cube_min_ply`: the least depth cube decisions are judged at
    /// when `engine.cube_ply` is 0 (1 lets them follow `engine.ply` down to
    /// 0-ply).
    pub cube_min_ply: Ply,
}

/// How the search values a game's results (`engine.eval_mode`, UBGI's
/// `EvalMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalMode {
    /// At a match score, each result is worth what the score makes it
    /// worth (match-winning chances); in money play, its points.
    #[default]
    Cubeful,
    /// Every result is worth its points, as in cubeless money play, at any score.
    Cubeless,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rules: RuleOptions::default(),
            ply: Ply(2),
            threads: 1,
            seed: 0,
            movetime: 0,
            eval: EvalKind::Net,
            beam: Limits::default().root_beam,
            prefilter: Limits::default().root_prefilter,
            blend: 0,
            weights: Weights::Shipped,
            race_weights: Weights::Shipped,
            crashed_weights: Weights::Shipped,
            race: RaceKind::Tables,
            eval_mode: EvalMode::Cubeful,
            cube_efficiency: crate::cube::DEFAULT_CONTACT_EFFICIENCY,
            cube_ply: 0,
            cube_min_ply: Ply(2),
        }
    }
}

/// One change of the settings, parsed and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `game.variant`: a new game of that variant, its rules at their defaults.
    Variant(Variant),
    /// `rules.*`: the rule options (of the current variant).
    Rules(RuleOptions),
    /// `engine.ply`.
    Ply(Ply),
    /// `engine.threads`.
    Threads(usize),
    /// `engine.seed`.
    Seed(u64),
    /// `engine.movetime`, in milliseconds (0: no limit).
    Movetime(u64),
    /// `engine.eval`.
    Eval(EvalKind),
    /// `engine.weights`: loaded (and checked) by the engine when applied.
    Weights(Weights),
    /// `engine.race_weights`: loaded (and checked) by the engine when applied.
    RaceWeights(Weights),
    /// `engine.crashed_weights`: loaded (and checked) by the engine when applied.
    CrashedWeights(Weights),
    /// `engine.beam`.
    Beam(usize),
    /// `engine.prefilter`.
    Prefilter(usize),
    /// `engine.blend`, in hundredths.
    Blend(u8),
    /// `engine.race`.
    Race(RaceKind),
    /// `engine.eval_mode`.
    EvalMode(EvalMode),
    /// `engine.cube_efficiency`, in hundredths.
    CubeEfficiency(u8),
    /// `engine.cube_ply`: 0 (follow `engine.ply`) or a depth of its own.
    CubePly(u8),
    /// `engine.cube_min_ply`: the least depth of cube decisions that follow
    /// `engine.ply`.
    CubeMinPly(Ply),
}

impl Settings {
    /// Applies one change as a value: no file is read here (the engine
    /// loads the weights a [`Setting::Weights`] names).
    pub fn apply(&mut self, setting: Setting) {
        match setting {
            Setting::Variant(v) => self.rules = RuleOptions::for_variant(v),
            Setting::Rules(r) => self.rules = r,
            Setting::Ply(p) => self.ply = p,
            Setting::Threads(n) => self.threads = n,
            Setting::Seed(s) => self.seed = s,
            Setting::Movetime(ms) => self.movetime = ms,
            Setting::Eval(e) => self.eval = e,
            Setting::Weights(w) => self.weights = w,
            Setting::RaceWeights(w) => self.race_weights = w,
            Setting::CrashedWeights(w) => self.crashed_weights = w,
            Setting::Beam(n) => self.beam = n,
            Setting::Prefilter(n) => self.prefilter = n,
            Setting::Blend(x) => self.blend = x,
            Setting::Race(r) => self.race = r,
            Setting::EvalMode(m) => self.eval_mode = m,
            Setting::CubeEfficiency(x) => self.cube_efficiency = x,
            Setting::CubePly(p) => self.cube_ply = p,
            Setting::CubeMinPly(p) => self.cube_min_ply = p,
        }
    }

    /// The depth cube decisions are judged at: `engine.cube_ply`, or
    /// where it is 0 `engine.ply`, but never less than
    /// `engine.cube_min_ply`.
    pub fn cube_depth(&self) -> Ply {
        Ply::new(self.cube_ply).unwrap_or(self.ply.max(self.cube_min_ply))
    }

    /// The cube's efficiency in contact positions (`engine.cube_efficiency`).
    pub fn contact_efficiency(&self) -> f64 {
        f64::from(self.cube_efficiency) / 100.0
    }

    /// The search limits of a search `ply` deep with these settings: the
    /// root beam, the prefilter and the threads; no node or time limit.
    pub fn limits(&self, ply: Ply) -> Limits {
        Limits {
            plies: ply.gnubg(),
            root_beam: self.beam,
            root_prefilter: self.prefilter,
            blend: f32::from(self.blend) / 100.0,
            threads: self.threads,
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_translate_to_gnubg_naming() {
        assert_eq!(Ply::new(0), None);
        assert_eq!(Ply::new(4), None);
        let gnubg: Vec<u8> = (1..=3).map(|n| Ply::new(n).unwrap().gnubg()).collect();
        assert_eq!(gnubg, [0, 1, 2]);
        assert_eq!(Settings::default().limits(Ply::MAX).plies, 2);
    }

    #[test]
    fn default_limits_are_the_search_defaults() {
        // In-process players and the protocol search alike with the
        // defaults: what the search's own defaults are, at gnubg's 1-ply.
        let s = Settings::default();
        let l = s.limits(s.ply);
        let d = Limits::default();
        assert_eq!(
            (l.plies, l.root_beam, l.root_prefilter, l.threads),
            (1, d.root_beam, d.root_prefilter, d.threads)
        );
    }

    #[test]
    fn weights_names_round_trip() {
        for v in ["shipped", "a/b.gbnn", "/abs/x.gbnn"] {
            assert_eq!(Weights::named(v).to_string(), v);
        }
        assert_eq!(Weights::named("shipped"), Weights::Shipped);
    }
}
