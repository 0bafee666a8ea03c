//! `eval` and `cube`: the position's worth and the cube decision.

#[allow(clippy::wildcard_imports)]
use super::*;

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
    let (cubeful, mwc) = match crate::cube::cubeful_at(
        &probs,
        &state,
        e.session(),
        state.to_move,
        e.settings().contact_efficiency(),
    ) {
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
        .cube_probs_now()
        .map_err(|err| ApiError::new(500, "internal", err.to_string()))?;
    let base = CubeOut {
        judged: judged(&state),
        ply: e.settings().cube_depth().get(),
        best: "nodouble".into(),
        action: None,
        unit: None,
        no_double: None,
        double_take: None,
        double_pass: None,
        chances: chances(state.variant, &probs),
    };
    let Some(d) = crate::cube::decide_at(
        &probs,
        &state,
        &session,
        question.doubler,
        e.settings().contact_efficiency(),
    ) else {
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
