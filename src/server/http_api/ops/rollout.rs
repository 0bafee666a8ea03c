//! `rollout`: the position, or its plays, rolled out.

#[allow(clippy::wildcard_imports)]
use super::*;

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
                    .map_err(|err| bad(err.reason.to_string()))?;
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
