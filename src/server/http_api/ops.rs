//! The JSON API's requests and answers, and the five operations on them
//! (`legal`, `move`, `eval`, `cube`, `rollout`), as plain functions of a
//! request: the game is set up on an [`Engine`] with the protocol's own
//! setup commands ([`apply_setup`]), so a position, a session or a rule
//! option means exactly what it means over the line protocol.

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
    Base, Command, Dice, Double, NewSession, Position, Set, SetCube, SetScore, apply_setup,
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

/// The engine a request describes: its game and rules, depth, session,
/// position, moves and dice, set up in that order. Nothing is read from
/// files; searches are capped by `caps`.
pub fn setup(req: &ApiRequest, caps: &Caps) -> Result<Engine, ApiError> {
    let Some(name) = req.game.as_deref() else {
        return Err(ApiError::bad(
            "bad_request",
            format!("the game is missing: one of {}", Variant::NAMES.join(", ")),
        ));
    };
    let variant: Variant = name.parse().map_err(|_| {
        ApiError::bad(
            "unknown_game",
            format!(
                "unknown game {}: one of {}",
                serde_json::Value::from(name),
                Variant::NAMES.join(", ")
            ),
        )
    })?;
    let mut engine = Engine::with_config(EngineConfig {
        files: FileAccess::Remote { weights_dir: None },
        max_search: caps.max_search,
    });
    let set = |e: &mut Engine, c: Command, code| {
        apply_setup(e, c).map_err(|err| ApiError::from_protocol(code, err))
    };
    set(
        &mut engine,
        Command::Set(Set::new("game.variant", variant.to_string())),
        "bad_value",
    )?;
    for (k, v) in &req.rules {
        let value = rule_value(k, v)?;
        set(
            &mut engine,
            Command::Set(Set::new(format!("rules.{k}"), value)),
            "bad_value",
        )?;
    }
    if let Some(p) = req.ply {
        let ply = Ply::new(p)
            .ok_or_else(|| ApiError::bad("bad_value", format!("ply must be 1..3, got {p}")))?;
        engine
            .set(Setting::Ply(ply))
            .map_err(|e| ApiError::bad("bad_value", e.to_string()))?;
    }
    if let Some(s) = &req.session {
        session_setup(&mut engine, s)?;
    }
    let given = [&req.position, &req.gnubgid, &req.xgid]
        .iter()
        .filter(|x| x.is_some())
        .count();
    if given > 1 {
        return Err(ApiError::bad(
            "bad_request",
            "give the position one way: position, gnubgid or xgid",
        ));
    }
    let base = if let Some(p) = &req.position {
        Base::Board(p.split_whitespace().map(str::to_string).collect())
    } else if let Some(id) = &req.gnubgid {
        Base::GnubgId(id.trim().to_string())
    } else if let Some(x) = &req.xgid {
        Base::Xgid(x.trim().to_string())
    } else {
        Base::Start(Side::White)
    };
    set(
        &mut engine,
        Command::Position(Position {
            base,
            moves: req.moves.clone(),
        }),
        "bad_position",
    )
    .map_err(|e| match e.code {
        "bad_state" => ApiError::bad("bad_position", e.message),
        _ => e,
    })?;
    if req.session.as_ref().is_some_and(|s| s.doubled) {
        set(&mut engine, Command::Double(Double), "bad_value")?;
    }
    if let Some(d) = &req.dice {
        let (a, b) = parse_dice(d)?;
        set(
            &mut engine,
            Command::Dice(Dice { d1: a, d2: b }),
            "bad_value",
        )?;
    }
    Ok(engine)
}

fn session_setup(engine: &mut Engine, s: &SessionIn) -> Result<(), ApiError> {
    let is_match = s.length > 0;
    if !is_match && (s.score.is_some() || s.crawford.is_some()) {
        return Err(ApiError::bad(
            "bad_value",
            "a score or the Crawford game needs a match: give session.length",
        ));
    }
    if is_match && (s.jacoby.is_some() || s.beavers.is_some()) {
        return Err(ApiError::bad(
            "bad_value",
            "the Jacoby rule and beavers are for money play (session.length 0)",
        ));
    }
    let spec = NewSession {
        length: is_match.then_some(s.length),
        jacoby: s.jacoby,
        crawford: None,
        beavers: s.beavers,
        cube: s.cube_on,
        rotation: None,
        winner_starts: None,
    };
    let err = |e| ApiError::from_protocol("bad_value", e);
    // A new session starts a new game; the position is set after it.
    apply_setup(engine, Command::NewSession(spec)).map_err(err)?;
    if is_match && (s.score.is_some() || s.crawford.is_some()) {
        let [white, black] = s.score.unwrap_or([0, 0]);
        apply_setup(
            engine,
            Command::SetScore(SetScore {
                white,
                black,
                crawford: s.crawford,
            }),
        )
        .map_err(err)?;
    }
    if s.cube.is_some() || s.owner.is_some() {
        let owner = match s.owner.as_deref() {
            None | Some("centre" | "center") => CubeOwner::Centre,
            Some("white") => CubeOwner::Side(Side::White),
            Some("black") => CubeOwner::Side(Side::Black),
            Some(o) => {
                return Err(ApiError::bad(
                    "bad_value",
                    format!(
                        "session.owner must be centre, white or black, got {}",
                        serde_json::Value::from(o)
                    ),
                ));
            }
        };
        apply_setup(
            engine,
            Command::SetCube(SetCube {
                value: s.cube.unwrap_or(1),
                owner,
            }),
        )
        .map_err(err)?;
    }
    Ok(())
}

/// What every answer says of the position judged.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// The game.
    pub game: String,
    /// The position as the engine's position text.
    pub position: String,
    /// The side to move: `white` or `black`.
    pub to_move: &'static str,
    /// The dice of the stage to play, if any (`[3, 1]`, `[5, 5, 5, 5]`).
    pub dice: Option<Vec<u8>>,
}

fn judged(state: &GameState) -> Judged {
    Judged {
        game: state.variant.to_string(),
        position: state_text(state),
        to_move: side_word(state.to_move),
        dice: state.stage_dice().map(|d| d.dice()),
    }
}

/// The answer of `legal`.
#[derive(Clone, Debug, Serialize)]
pub struct LegalOut {
    /// The position.
    #[serde(flatten)]
    pub judged: Judged,
    /// Every distinct legal play of the stage, at most `limit`, by text.
    pub plays: Vec<PlayOut>,
    /// How many there are in all.
    pub count: usize,
    /// How many dice each uses.
    pub playable: u8,
    /// Whether `plays` stops short of `count`.
    pub truncated: bool,
}

fn need_stage(state: &GameState) -> Result<(), ApiError> {
    if state.result().is_some() {
        return Err(ApiError::new(422, "bad_state", "the game is over"));
    }
    if state.stage_dice().is_none() {
        return Err(ApiError::new(
            422,
            "bad_state",
            "no dice: give dice (e.g. \"dice\": [3, 1])",
        ));
    }
    Ok(())
}

/// `legal`: the legal plays of the stage to play.
pub fn legal(req: &ApiRequest, caps: &Caps) -> Result<LegalOut, ApiError> {
    let limit = req.limit.unwrap_or(MAX_LEGAL);
    if !(1..=MAX_LEGAL).contains(&limit) {
        return Err(ApiError::bad(
            "bad_value",
            format!("limit must be 1..{MAX_LEGAL}, got {limit}"),
        ));
    }
    let engine = setup(req, caps)?;
    let state = *engine.state();
    need_stage(&state)?;
    let Some(dice) = state.stage_dice() else {
        return Err(ApiError::new(422, "bad_state", "no dice"));
    };
    let opts = engine.settings().rules;
    let mut ends = Vec::new();
    let playable = StageGen::new().generate(&opts, &state, dice, &mut ends);
    let mut plays: Vec<PlayOut> = ends
        .iter()
        .map(|e| {
            let steps = e.play.steps();
            PlayOut {
                play: play_text_at(state.variant, state.pos, steps),
                steps: steps_out(steps),
                position: state_text(&state.after_stage(&opts, e.pos, playable)),
            }
        })
        .collect();
    plays.sort_unstable_by(|a, b| a.play.cmp(&b.play));
    let count = plays.len();
    plays.truncate(limit);
    Ok(LegalOut {
        judged: judged(&state),
        truncated: count > plays.len(),
        plays,
        count,
        playable,
    })
}

/// What the search makes of each result, as the engine's settings say.
fn valuation(e: &Engine) -> Option<[crate::search::Valuation; 2]> {
    match e.settings().eval_mode {
        EvalMode::Cubeful => crate::cube::valuation(e.settings().rules.variant, e.session()),
        EvalMode::Cubeless => None,
    }
}

/// The mover's cubeful worth after `c`: (cubeful, mwc).
fn after_play_worth(c: &Candidate, e: &Engine) -> (Option<f64>, Option<f64>) {
    let state = e.state();
    let next = state.to_move.opponent();
    match crate::cube::cubeful(&c.probs.flipped(), &c.end, e.session(), next) {
        None => (None, None),
        Some((v, true)) => (None, Some(1.0 - v)),
        Some((v, false)) => (Some(-v), None),
    }
}

/// The answer of `move`.
#[derive(Clone, Debug, Serialize)]
pub struct MoveOut {
    /// The position.
    #[serde(flatten)]
    pub judged: Judged,
    /// The depth searched, counted as `engine.ply`.
    pub ply: u8,
    /// The best play's text (`pass` when nothing can be played).
    pub best: String,
    /// The best plays, best first, at most `count`.
    pub plays: Vec<RankedPlay>,
}

fn ranked(e: &Engine, stop: &AtomicBool, count: usize) -> Result<Vec<Candidate>, ApiError> {
    let mut limits = e.limits(None);
    limits.candidates = limits.candidates.max(count);
    limits.deadline = e.deadline_from(Instant::now());
    let eval = e
        .evaluator()
        .map_err(|err| ApiError::new(500, "internal", err.to_string()))?;
    let search = Search::new(eval.as_ref(), e.settings().rules, stop).with_valuation(valuation(e));
    Ok(search.best_turn(e.state(), &limits, &mut |_| {}))
}

/// `move`: the best play and the next best, at a depth.
pub fn best_move(req: &ApiRequest, caps: &Caps, stop: &AtomicBool) -> Result<MoveOut, ApiError> {
    let count = req.count.unwrap_or(DEFAULT_COUNT);
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(ApiError::bad(
            "bad_value",
            format!("count must be 1..{MAX_COUNT}, got {count}"),
        ));
    }
    let e = setup(req, caps)?;
    let state = *e.state();
    need_stage(&state)?;
    let all = ranked(&e, stop, count)?;
    let plays: Vec<RankedPlay> = all
        .iter()
        .take(count)
        .enumerate()
        .map(|(i, c)| {
            let (cubeful, mwc) = after_play_worth(c, &e);
            RankedPlay {
                rank: i + 1,
                play: PlayOut {
                    play: play_text_at(state.variant, state.pos, &c.steps),
                    steps: steps_out(&c.steps),
                    position: state_text(&c.end),
                },
                equity: c.probs.equity().into(),
                cubeful,
                mwc,
                chances: chances(state.variant, &c.probs),
            }
        })
        .collect();
    Ok(MoveOut {
        judged: judged(&state),
        ply: e.settings().ply.get(),
        best: plays
            .first()
            .map(|p| p.play.play.clone())
            .unwrap_or_else(|| "pass".into()),
        plays,
    })
}

/// The answer of `eval`.
#[derive(Clone, Debug, Serialize)]
pub struct EvalOut {
    /// The position.
    #[serde(flatten)]
    pub judged: Judged,
    /// The depth, counted as `engine.ply`.
    pub ply: u8,
    /// With dice: the best play, after which the chances are judged;
    /// without: absent (the chances before the roll).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// The side to move's chances.
    pub chances: Chances,
    /// Its cubeless equity.
    pub equity: f64,
    /// Its cubeful equity (money play with the cube), per cube unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<f64>,
    /// Its match-winning chances (a match).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f64>,
}

/// `eval`: the side to move's chances before its roll, or after its best
/// play when dice are given.
pub fn eval(req: &ApiRequest, caps: &Caps, stop: &AtomicBool) -> Result<EvalOut, ApiError> {
    let e = setup(req, caps)?;
    let state = *e.state();
    let ply = e.settings().ply.get();
    let dice_set = matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. });
    if state.result().is_none() && dice_set {
        let all = ranked(&e, stop, 1)?;
        let Some(best) = all.first() else {
            return Err(ApiError::new(500, "internal", "the search found no play"));
        };
        let (cubeful, mwc) = after_play_worth(best, &e);
        return Ok(EvalOut {
            judged: judged(&state),
            ply,
            after: Some(play_text_at(state.variant, state.pos, &best.steps)),
            chances: chances(state.variant, &best.probs),
            equity: best.probs.equity().into(),
            cubeful,
            mwc,
        });
    }
    let probs = e
        .before_roll_now()
        .map_err(|err| ApiError::new(500, "internal", err.to_string()))?;
    let (cubeful, mwc) = match crate::cube::cubeful(&probs, &state, e.session(), state.to_move) {
        None => (None, None),
        Some((v, true)) => (None, Some(v)),
        Some((v, false)) => (Some(v), None),
    };
    Ok(EvalOut {
        judged: judged(&state),
        ply,
        after: None,
        chances: chances(state.variant, &probs),
        equity: probs.equity().into(),
        cubeful,
        mwc,
    })
}

/// The answer of `cube`.
#[derive(Clone, Debug, Serialize)]
pub struct CubeOut {
    /// The position.
    #[serde(flatten)]
    pub judged: Judged,
    /// The depth, counted as `engine.ply`.
    pub ply: u8,
    /// What to do now: `double` or `nodouble` before the roll; `take`,
    /// `drop` or `beaver` when a double waits for its answer.
    pub best: String,
    /// The proper action as gnubg words it (`Double, take`), absent when
    /// there is no cube to turn (the opponent owns it, the Crawford game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// `money` (equities per cube unit) or `mwc` (match-winning chances).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    /// No double.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_double: Option<f64>,
    /// Double, take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_take: Option<f64>,
    /// Double, pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_pass: Option<f64>,
    /// The doubler's cubeless chances before the roll.
    pub chances: Chances,
}

/// `cube`: the cube decision that is due before the roll (or the answer to
/// a double that waits), in the request's session.
pub fn cube(req: &ApiRequest, caps: &Caps) -> Result<CubeOut, ApiError> {
    let e = setup(req, caps)?;
    let state = *e.state();
    let session = *e.session();
    let question = CubeQuestion::before_roll(&state, &session).map_err(|why| {
        let detail = match why {
            CubeQuestionError::CubeOff => format!("{why} (session.cube_on)"),
            CubeQuestionError::NotBeforeRoll(_) => format!("{why}: give no dice"),
            CubeQuestionError::GameOver => why.to_string(),
        };
        ApiError::new(422, "bad_state", detail)
    })?;
    let probs = e
        .before_roll_now()
        .map_err(|err| ApiError::new(500, "internal", err.to_string()))?;
    let base = CubeOut {
        judged: judged(&state),
        ply: e.settings().ply.get(),
        best: "nodouble".into(),
        action: None,
        unit: None,
        no_double: None,
        double_take: None,
        double_pass: None,
        chances: chances(state.variant, &probs),
    };
    let Some(d) = crate::cube::decide(&probs, &state, &session, question.doubler) else {
        return Ok(base);
    };
    Ok(CubeOut {
        best: question.best(&d).into(),
        action: Some(d.action.words(question.redouble)),
        unit: Some(question.unit()),
        no_double: Some(d.no_double),
        double_take: Some(d.double_take),
        double_pass: Some(d.double_pass),
        ..base
    })
}

/// One rolled-out root.
#[derive(Clone, Debug, Serialize)]
pub struct RolloutResult {
    /// The candidate play, absent for the position before the roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<String>,
    /// Trials played.
    pub games: u64,
    /// The mean equity for the side to move (luck-corrected with `luck`).
    pub equity: f64,
    /// Its standard error.
    pub se: f64,
    /// The mean chances.
    pub chances: Chances,
    /// The mean equity without the luck correction.
    pub raw_equity: f64,
    /// Its standard error.
    pub raw_se: f64,
}

/// The answer of `rollout`.
#[derive(Clone, Debug, Serialize)]
pub struct RolloutOut {
    /// The position.
    #[serde(flatten)]
    pub judged: Judged,
    /// The players' depth, counted as `engine.ply`: 1 or 2.
    pub ply: u8,
    /// Trials asked for.
    pub games: u32,
    /// Plies per trial (0: to the end).
    pub truncate: u32,
    /// The dice seed.
    pub seed: u64,
    /// Whether the luck correction is on.
    pub luck: bool,
    /// Whether the server's time cap stopped it before `games` trials.
    pub stopped: bool,
    /// One per root: the position before the roll, or each play.
    pub results: Vec<RolloutResult>,
}

/// `rollout`: the position before the roll, or the plays named, rolled
/// out within the server's caps.
pub fn rollout(req: &ApiRequest, caps: &Caps, stop: &AtomicBool) -> Result<RolloutOut, ApiError> {
    let games = req
        .games
        .unwrap_or(DEFAULT_ROLLOUT_GAMES.min(caps.max_rollout_games));
    if !(1..=caps.max_rollout_games).contains(&games) {
        return Err(ApiError::bad(
            "bad_value",
            format!(
                "games must be 1..{} on this server, got {games}",
                caps.max_rollout_games
            ),
        ));
    }
    let truncate = req.truncate.unwrap_or(0);
    if truncate > MAX_TRUNCATE {
        return Err(ApiError::bad(
            "bad_value",
            format!("truncate must be 0..{MAX_TRUNCATE}, got {truncate}"),
        ));
    }
    let ply = req.ply.unwrap_or(1);
    if !(1..=2).contains(&ply) {
        return Err(ApiError::bad(
            "bad_value",
            format!("a rollout's ply must be 1 or 2, got {ply}"),
        ));
    }
    // The players' depth is the rollout's own; the engine's is not used.
    let mut setup_req = req.clone();
    setup_req.ply = None;
    let e = setup(&setup_req, caps)?;
    let state = *e.state();
    if state.result().is_some() {
        return Err(ApiError::new(422, "bad_state", "the game is over"));
    }
    let opts = e.settings().rules;
    let (roots, names) = match &req.plays {
        None => {
            if matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. }) {
                return Err(ApiError::new(
                    422,
                    "bad_state",
                    format!(
                        "dice are set ({}): name the plays to roll out in plays",
                        state.pending_description()
                    ),
                ));
            }
            (
                vec![crate::analysis::rollout::before_roll_root(&state)],
                vec![None],
            )
        }
        Some(words) => {
            need_stage(&state)?;
            if words.is_empty() {
                return Err(ApiError::bad("bad_value", "plays is empty"));
            }
            if words.len() > MAX_CANDIDATES {
                return Err(ApiError::bad(
                    "bad_value",
                    format!(
                        "a rollout compares at most {MAX_CANDIDATES} plays, got {}",
                        words.len()
                    ),
                ));
            }
            let mut plays = Vec::with_capacity(words.len());
            for (n, w) in words.iter().enumerate() {
                let toks: Vec<&str> = w.split_whitespace().collect();
                let bad = |why: String| {
                    ApiError::bad(
                        "bad_value",
                        format!("plays[{n}] {}: {why}", serde_json::Value::from(w.as_str())),
                    )
                };
                let mut one = crate::analysis::rollout::parse_plays(&state, &opts, &toks)
                    .map_err(|err| bad(err.reason))?;
                if one.len() != 1 {
                    return Err(bad(format!("{} plays in one string", one.len())));
                }
                plays.append(&mut one);
            }
            if plays.len() > MAX_CANDIDATES {
                return Err(ApiError::bad(
                    "bad_value",
                    format!(
                        "a rollout compares at most {MAX_CANDIDATES} plays, got {}",
                        plays.len()
                    ),
                ));
            }
            crate::analysis::rollout::candidate_roots(&state, &plays)
        }
    };
    let seed = req.seed.unwrap_or(e.settings().seed);
    let luck = req.luck.unwrap_or(true);
    let params = RolloutParams::at_root_ply(ply, games, truncate, seed, luck);
    let eval = e
        .evaluator()
        .map_err(|err| ApiError::new(500, "internal", err.to_string()))?;
    let deadline = e.deadline_from(Instant::now());
    let ro = Rollout::new(eval.as_ref(), opts, params);
    let stats: Vec<Stats> = ro.run(&roots, stop, deadline, &|_: &[Stats]| {});
    let stopped = stats.iter().any(|s| s.games < u64::from(games));
    let results = stats
        .iter()
        .zip(names)
        .map(|(s, play)| RolloutResult {
            play,
            games: s.games,
            equity: s.equity(),
            se: s.se(),
            chances: chances5(state.variant, s.probs()),
            raw_equity: s.raw_equity(),
            raw_se: s.raw_se(),
        })
        .collect();
    Ok(RolloutOut {
        judged: judged(&state),
        ply,
        games,
        truncate,
        seed,
        luck,
        stopped,
        results,
    })
}
