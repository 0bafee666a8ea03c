//! Setting up the engine a request describes.

#[allow(clippy::wildcard_imports)]
use super::*;

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
        Command::Position(PositionCmd {
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
            Command::Dice(DiceCmd { d1: a, d2: b }),
            "bad_value",
        )?;
    }
    Ok(engine)
}

pub(super) fn session_setup(engine: &mut Engine, s: &SessionIn) -> Result<(), ApiError> {
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
