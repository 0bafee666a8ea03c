//! The JSON API's requests and answers, and the five operations on them
//! (`legal`, `move`, `eval`, `cube`, `rollout`), as plain functions of a
//! request: the game is set up on an [`Engine`] with the protocol's own
//! setup commands ([`apply_setup`]), so a position, a session or a rule
//! option means exactly what it means over the line protocol.

mod judge;
mod play;
mod rollout;
mod setup;

pub use judge::{CubeOut, EvalOut, cube, eval};
pub use play::{Judged, LegalOut, MoveOut, best_move, legal};
use play::{after_play_worth, judged, need_stage, ranked};
pub use rollout::{RolloutOut, RolloutResult, rollout};
pub use setup::setup;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::analysis::rollout::{MAX_CANDIDATES, MAX_TRUNCATE, Rollout, RolloutParams, Stats};
use crate::cube::{CubeOwner, CubeQuestion, CubeQuestionError};
use crate::engine::settings::EvalMode;
use crate::engine::{Engine, EngineConfig, FileAccess, Ply, Setting};
use crate::eval::Probs;
use crate::notation::{play_text_at, state_text};
use crate::protocol::cmd::{
    Base, Command, DiceCmd, Double, NewSession, PositionCmd, Set, SetCube, SetScore, apply_setup,
};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::rules::{GameState, Pending, Side, StageGen, Step, Variant};
use crate::search::{Candidate, Search};

/// The most plays `move` lists (`count`).
pub const MAX_COUNT: usize = 100;
/// The default of `move`'s `count`.
pub const DEFAULT_COUNT: usize = 5;
/// The most plays `legal` lists (`limit`), and its default.
pub const MAX_LEGAL: usize = 10_000;
/// The default number of rollout games (capped by the server's cap).
pub const DEFAULT_ROLLOUT_GAMES: u32 = 1296;

/// A refusal: the HTTP status, a stable code and a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// A stable, machine-readable code (`bad_json`, `unknown_game`, ...).
    pub code: &'static str,
    /// What was wrong, in words.
    pub message: String,
}

impl ApiError {
    /// A refusal with `status`, `code` and `message`.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(400, code, message)
    }

    /// A protocol error as the API words it: `bad_state` (422) for a request
    /// that is fine but not in this position, otherwise `code` (400).
    fn from_protocol(code: &'static str, e: ProtocolError) -> ApiError {
        match e.code {
            ErrorCode::BadState | ErrorCode::Busy => ApiError::new(422, "bad_state", e.detail),
            _ => ApiError::bad(code, e.detail),
        }
    }
}

/// The session a request is judged in: money play or a match, the score,
/// the cube.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SessionIn {
    /// The match length in points; 0 or absent: money play.
    #[serde(default)]
    pub length: u32,
    /// White's and Black's points (a match).
    pub score: Option<[u32; 2]>,
    /// Whether this game is the Crawford game (a match; absent: the usual
    /// reading of the score).
    pub crawford: Option<bool>,
    /// The cube's value (a power of two).
    pub cube: Option<u32>,
    /// Who owns the cube: `centre`, `white` or `black`.
    pub owner: Option<String>,
    /// Whether the cube is in play at all (absent: the game's default).
    pub cube_on: Option<bool>,
    /// The Jacoby rule (money play).
    pub jacoby: Option<bool>,
    /// Beavers (money play).
    pub beavers: Option<bool>,
    /// The side to move has doubled and the other side's answer is due.
    #[serde(default)]
    pub doubled: bool,
}

/// A request to any of the operations; each reads the fields it needs
/// (see the OpenAPI document) and refuses names it does not know.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiRequest {
    /// The game: `gulbara`, `long_nardy`, `backgammon`, ...
    pub game: Option<String>,
    /// `rules.*` options of the game, without the prefix.
    #[serde(default)]
    pub rules: BTreeMap<String, serde_json::Value>,
    /// The engine's position text.
    pub position: Option<String>,
    /// A gnubg Position ID, optionally `:MatchID`.
    pub gnubgid: Option<String>,
    /// An XGID.
    pub xgid: Option<String>,
    /// Move tokens played from the position first.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The dice: `[3, 1]` or `"31"`.
    pub dice: Option<serde_json::Value>,
    /// Search depth counted as `engine.ply`: 1 (the network alone, gnubg's
    /// 0-ply), 2 or 3.
    pub ply: Option<u8>,
    /// The session (money or match, score, cube).
    pub session: Option<SessionIn>,
    /// `move`: how many plays to list.
    pub count: Option<usize>,
    /// `legal`: the most plays to list.
    pub limit: Option<usize>,
    /// `rollout`: trials.
    pub games: Option<u32>,
    /// `rollout`: plies per trial (0: to the end).
    pub truncate: Option<u32>,
    /// `rollout`: the dice seed.
    pub seed: Option<u64>,
    /// `rollout`: the luck correction.
    pub luck: Option<bool>,
    /// `rollout`: candidate plays to roll out (with dice), else the
    /// position before the roll.
    pub plays: Option<Vec<String>>,
}

/// What the server allows a request.
#[derive(Clone, Debug)]
pub struct Caps {
    /// The longest a search or rollout may run.
    pub max_search: Option<Duration>,
    /// The most rollout games one request may ask for.
    pub max_rollout_games: u32,
}

/// One step: the checker's point (the mover's numbering, 25 the bar), the
/// die, and where it lands (0: borne off).
#[derive(Clone, Debug, Serialize)]
pub struct StepOut {
    /// The point left.
    pub from: u8,
    /// The point reached (0: borne off).
    pub to: u8,
    /// The die.
    pub die: u8,
}

/// The mover's chances.
#[derive(Clone, Debug, Serialize)]
pub struct Chances {
    /// Winning (mars wins included).
    pub win: f64,
    /// Winning a mars (gammon).
    pub win_mars: f64,
    /// Losing a mars.
    pub lose_mars: f64,
    /// Winning a backgammon (backgammon only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_bg: Option<f64>,
    /// Losing a backgammon (backgammon only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lose_bg: Option<f64>,
}

fn chances(variant: Variant, p: &Probs) -> Chances {
    chances5(
        variant,
        [
            p.win.into(),
            p.win_mars.into(),
            p.lose_mars.into(),
            p.win_bg.into(),
            p.lose_bg.into(),
        ],
    )
}

fn chances5(variant: Variant, p: [f64; 5]) -> Chances {
    let bg = variant.spec().scores.triple.is_some();
    Chances {
        win: p[0],
        win_mars: p[1],
        lose_mars: p[2],
        win_bg: bg.then_some(p[3]),
        lose_bg: bg.then_some(p[4]),
    }
}

/// A play with its steps and the position it reaches.
#[derive(Clone, Debug, Serialize)]
pub struct PlayOut {
    /// The play as the protocol writes it (`8/5 6/5`, `pass`).
    pub play: String,
    /// Its steps in order.
    pub steps: Vec<StepOut>,
    /// The position after it (position text).
    pub position: String,
}

/// One of `move`'s ranked plays.
#[derive(Clone, Debug, Serialize)]
pub struct RankedPlay {
    /// 1 for the best.
    pub rank: usize,
    /// The play, its steps and where it leads.
    #[serde(flatten)]
    pub play: PlayOut,
    /// The mover's cubeless equity after it.
    pub equity: f64,
    /// The mover's cubeful equity (money play with the cube), per cube unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<f64>,
    /// The mover's match-winning chances (a match).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f64>,
    /// The mover's chances after it.
    pub chances: Chances,
}

fn steps_out(steps: &[Step]) -> Vec<StepOut> {
    steps
        .iter()
        .map(|s| StepOut {
            from: s.from,
            to: s.to(),
            die: s.die,
        })
        .collect()
}

fn side_word(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The dice of `v`: `[d1, d2]` or `"d1d2"`.
fn parse_dice(v: &serde_json::Value) -> Result<(u8, u8), ApiError> {
    let bad = || {
        ApiError::bad(
            "bad_value",
            format!("dice must be two numbers 1..6 as [3, 1] or \"31\", got {v}"),
        )
    };
    let (a, b) = match v {
        serde_json::Value::Array(a) if a.len() == 2 => {
            let d = |x: &serde_json::Value| x.as_u64().filter(|d| (1..=6).contains(d));
            match (d(&a[0]), d(&a[1])) {
                (Some(x), Some(y)) => (x as u8, y as u8),
                _ => return Err(bad()),
            }
        }
        serde_json::Value::String(s) => crate::notation::parse_roll(s.trim()).ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    Ok((a, b))
}

fn rule_value(key: &str, v: &serde_json::Value) -> Result<String, ApiError> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        _ => Err(ApiError::bad(
            "bad_value",
            format!("rules.{key} must be a string or a number, got {v}"),
        )),
    }
}
