//! `legal` and `move`, and what every answer says of the position judged.

#[allow(clippy::wildcard_imports)]
use super::*;

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

pub(super) fn judged(state: &GameState) -> Judged {
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

pub(super) fn need_stage(state: &GameState) -> Result<(), ApiError> {
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
pub(super) fn valuation(e: &Engine) -> Option<[crate::search::Valuation; 2]> {
    match e.settings().eval_mode {
        EvalMode::Cubeful => crate::cube::valuation(e.settings().rules.variant, e.session()),
        EvalMode::Cubeless => None,
    }
}

/// The mover's cubeful worth after `c`: (cubeful, mwc).
pub(super) fn after_play_worth(c: &Candidate, e: &Engine) -> (Option<f64>, Option<f64>) {
    let state = e.state();
    let next = state.to_move.opponent();
    match crate::cube::cubeful_at(
        &c.probs.flipped(),
        &c.end,
        e.session(),
        next,
        e.settings().contact_efficiency(),
    ) {
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

pub(super) fn ranked(
    e: &Engine,
    stop: &AtomicBool,
    count: usize,
) -> Result<Vec<Candidate>, ApiError> {
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
