//! The browser board's two requests beside the protocol: a game record read
//! (`POST /api/record`: a record of `gulbara replay`'s format or a gnubg
//! `.mat`, answered with each game's turns and move tokens, which the page
//! then plays into the engine with `position startpos ... moves ...`), and a
//! game analysed (`POST /api/analyse`: the decisions of a record's first
//! game with the equity each lost, as `gulbara analyse` judges them).
//!
//! Both take the text in the body and touch no file. The HTTP side only
//! moves text: reading and judging are [`record_json`] and
//! [`analyse_json`], plain functions of the text.

use serde_json::{Value, json};

use crate::anyrecord::replay_any;
use crate::record::RecordError;
use crate::rules::{Pending, Side};

/// The longest record either request reads.
pub const MAX_RECORD_BYTES: usize = 256 * 1024;
/// The most turns a game sent for analysis may have.
pub const MAX_ANALYSED_TURNS: usize = 600;

fn side_word(s: Side) -> &'static str {
    match s {
        Side::White => "w",
        Side::Black => "b",
    }
}

/// Why a request was refused, in words for the page.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The text is not a record the rules accept.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The text is too long, empty, or has too many turns.
    #[error("{0}")]
    Limit(String),
    /// The game has no `.mat` form.
    #[error("{0}")]
    Mat(#[from] crate::gnubg::mat::MatError),
}

fn check_size(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(ApiError::Limit(format!(
            "the record is longer than {MAX_RECORD_BYTES} bytes"
        )));
    }
    if text.trim().is_empty() {
        return Err(ApiError::Limit("the record is empty".into()));
    }
    Ok(())
}

/// A record's games as the page takes them: the game, its rules, and per
/// game the starter, the move tokens and the turns (`label` is the roll,
/// `r<D>x<N>` for a remainder; a cube action is a turn of its own,
/// `double=<N>:<answer>`, before the doubler's roll).
pub fn record_json(text: &str) -> Result<Value, ApiError> {
    check_size(text)?;
    let (opts, games) = replay_any(text)?;
    let games: Vec<Value> = games
        .iter()
        .map(|g| {
            let mut turns = Vec::new();
            let mut cube = 1u32;
            for t in &g.turns {
                let side = side_word(t.before.to_move);
                if let Some(answer) = t.double {
                    cube *= 2;
                    turns.push(json!({
                        "side": side,
                        "label": format!("double={cube}:{}", answer.word()),
                        "steps": [],
                        "cube": true,
                    }));
                    if answer == crate::cube::CubeAnswer::Beaver {
                        cube *= 2;
                    }
                }
                let label = match (t.roll, t.before.pending) {
                    (Some((a, b)), _) => format!("{a}{b}"),
                    (None, Pending::Remainder { die, count }) => format!("r{die}x{count}"),
                    (None, _) => continue,
                };
                turns.push(json!({ "side": side, "label": label, "steps": t.moves }));
            }
            json!({
                "players": g.players,
                "starter": side_word(g.starter),
                "tokens": g.tokens,
                "turns": turns,
                "result": g.result_line,
            })
        })
        .collect();
    Ok(json!({
        "variant": opts.variant.to_string(),
        "rules": crate::record::rules_tag(&opts),
        "games": games,
    }))
}

/// A record's games written as a gnubg `.mat` file (`POST /api/mat`,
/// answered `{"mat": text}`): backgammon and short nardy only, each game
/// with its score, its cube actions and what it scored.
pub fn mat_json(text: &str) -> Result<Value, ApiError> {
    check_size(text)?;
    let (opts, games) = replay_any(text)?;
    let recorded: Vec<crate::record::RecordedGame> = games
        .iter()
        .map(|g| {
            let mut cube = 1u32;
            let turns = g
                .turns
                .iter()
                .map(|t| {
                    use crate::cube::CubeAnswer;
                    let double = t.double.filter(|a| *a != CubeAnswer::Drop);
                    match double {
                        Some(CubeAnswer::Beaver) => cube = cube.saturating_mul(4),
                        Some(_) => cube = cube.saturating_mul(2),
                        None => {}
                    }
                    crate::record::RecordedTurn {
                        side: t.before.to_move,
                        roll: t.roll,
                        remainder: None,
                        moves: t.moves.clone(),
                        double,
                    }
                })
                .collect();
            let result = g.final_state.result();
            let scored = result.map(|r| u32::from(r.points).saturating_mul(cube));
            crate::record::RecordedGame {
                players: g
                    .players
                    .clone()
                    .map(|p| if p.is_empty() { "player".into() } else { p }),
                opening: None,
                starter: g.starter,
                turns,
                result,
                note: None,
                cube: crate::record::GameCube {
                    score: crate::record::GameScore::of(&g.session),
                    dropped_by: g.dropped_by,
                    scored,
                },
            }
        })
        .collect();
    let tags = vec![("Event".to_string(), "gulbara in the browser".to_string())];
    let mat = crate::gnubg::mat::write(&opts, &tags, &recorded)?;
    Ok(json!({ "mat": mat }))
}

/// The depth a review judges at when none is asked for: root-inclusive
/// as `engine.ply` (2 = gnubg's 1-ply), the engine's own default.
pub const DEFAULT_REVIEW_PLY: u8 = 2;

/// The decisions of a record's first game, judged as `gulbara analyse
/// --ply PLY` judges them (`ply` root-inclusive as `engine.ply`, 1..=3;
/// deeper asks are judged at 3) by the game's shipped network: per
/// decision the turn (1-based, cube actions not counted), the side, the
/// roll, the played and the preferred turn with their equities for the
/// mover, the equity lost, the best turns with their equities, and the
/// roll's luck; every cube decision with its equities, the proper action
/// and the error; per side the totals.
pub fn analyse_json(text: &str, ply: u8) -> Result<Value, ApiError> {
    check_size(text)?;
    let (opts, games) = replay_any(text)?;
    let Some(first) = games.first() else {
        return Err(ApiError::Limit("the record has no game".into()));
    };
    if first.turns.len() > MAX_ANALYSED_TURNS {
        return Err(ApiError::Limit(format!(
            "the game has more than {MAX_ANALYSED_TURNS} turns"
        )));
    }
    let ply = crate::engine::Ply::new(ply.clamp(1, 3)).unwrap_or(crate::engine::Ply::MAX);
    let net = crate::engine::load_net(
        opts.variant,
        &crate::engine::Weights::Shipped,
        &Default::default(),
    )
    .map_err(|e| ApiError::Limit(format!("the network does not load: {e}")))?;
    let eval = net.evaluator();
    let analysis = crate::analysis::records::analyse_replayed(
        &opts,
        std::slice::from_ref(first),
        eval.as_ref(),
        ply.gnubg(),
        None,
    );
    let luck = luck_of_rolls(&opts, first, eval.as_ref());
    // The side of a cube decision: the doubler (on roll before turn
    // `turn`, or at the end when a drop ended the game) doubles or not,
    // the other side answers.
    let side_of = |turn: usize, did: &str| {
        let doubler = first
            .turns
            .get(turn - 1)
            .map_or(first.final_state.to_move, |t| t.before.to_move);
        let side = if matches!(did, "double" | "no double") {
            doubler
        } else {
            doubler.opponent()
        };
        side_word(side)
    };
    let decisions: Vec<Value> = analysis
        .decisions
        .iter()
        .map(|d| {
            json!({
                "turn": d.turn,
                "side": side_word(d.mover),
                "roll": d.roll.map(|(a, b)| format!("{a}{b}")),
                "played": d.played,
                "played_equity": d.played_equity,
                "best": d.best,
                "best_equity": d.best_equity,
                "loss": d.loss(),
                "candidates": d.candidates.iter().map(|(play, e)| json!({ "play": play, "equity": e })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let cube: Vec<Value> = analysis
        .cube
        .iter()
        .map(|c| {
            json!({
                "turn": c.turn,
                "side": side_of(c.turn, c.did),
                "did": c.did,
                "nodouble": c.equities[0],
                "doubletake": c.equities[1],
                "doublepass": c.equities[2],
                "mwc": c.mwc,
                "proper": c.proper,
                "error": c.error.map(|e| e.words()),
                "loss": c.loss,
            })
        })
        .collect();
    let luck: Vec<Value> = luck
        .iter()
        .map(|(turn, side, roll, l)| json!({ "turn": turn, "side": side_word(*side), "roll": roll, "luck": l }))
        .collect();
    Ok(json!({
        "variant": opts.variant.to_string(),
        "ply": ply.get(),
        "decisions": decisions,
        "cube": cube,
        "luck": luck,
        "report": analysis.to_text(),
    }))
}

/// The luck of each roll of `game` (1-based turn, side, roll, luck): the
/// mover's cubeless equity after the best play of the roll it got, less
/// the average of the same over the 36 rolls it could have got, each
/// judged at 0-ply by `eval` (gnubg's definition of luck).
fn luck_of_rolls(
    opts: &crate::rules::RuleOptions,
    game: &crate::record::ReplayedGame,
    eval: &dyn crate::eval::Evaluator,
) -> Vec<(usize, Side, String, f32)> {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let search = crate::search::Search::new(eval, *opts, &stop);
    let limits = crate::search::Limits {
        plies: 0,
        ..crate::search::Limits::default()
    };
    let mut movegen = crate::rules::StageGen::new();
    let mut ends = Vec::new();
    let mut out = Vec::new();
    for (ti, t) in game.turns.iter().enumerate() {
        let Some((a, b)) = t.roll else { continue };
        let mover = t.before.to_move;
        let mut worth = |d1: u8, d2: u8| -> Option<f32> {
            let rolled = t.before.roll(opts, d1, d2).ok()?;
            let s = crate::rules::skip_forced_empty(rolled, opts, &mut movegen, &mut ends);
            if s.result().is_some() || s.to_move != mover || s.stage_dice().is_none() {
                return Some(crate::eval::probs_for(eval, &s, opts, mover).equity());
            }
            let ranked = search.best_turn(&s, &limits, &mut |_| {});
            Some(match ranked.first() {
                Some(c) => c.probs.equity(),
                None => crate::eval::probs_for(eval, &s, opts, mover).equity(),
            })
        };
        let Some(got) = worth(a, b) else { continue };
        let mut sum = 0.0f32;
        let mut weight = 0.0f32;
        for d1 in 1..=6u8 {
            for d2 in 1..=d1 {
                let w = if d1 == d2 { 1.0 } else { 2.0 };
                if let Some(e) = worth(d1, d2) {
                    sum += w * e;
                    weight += w;
                }
            }
        }
        if weight > 0.0 {
            out.push((ti + 1, mover, format!("{a}{b}"), got - sum / weight));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "; [Variant \"backgammon\"]\n\n Game 1\n White : a                                Black : b\n Opening 3-1 starter White\n  1) 31: 8/5 6/5                            64: 24/18 13/9\n  2) 62: 24/18 13/11                        \n Unfinished\n";

    #[test]
    fn a_record_is_read_into_turns_and_tokens() {
        let v = record_json(GAME).expect("the record reads");
        assert_eq!(v["variant"], "backgammon");
        let g = &v["games"][0];
        assert_eq!(g["starter"], "w");
        assert_eq!(g["turns"][0]["label"], "31");
        assert_eq!(g["turns"][1]["side"], "b");
        assert_eq!(g["turns"][1]["steps"][1], "13/9");
        let toks: Vec<&str> = g["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        assert_eq!(toks[..3], ["31", "8/5", "6/5"]);
    }

    #[test]
    fn analysis_judges_every_decision_and_refuses_bad_text() {
        let v = analyse_json(GAME, 1).expect("analysed");
        let d = v["decisions"].as_array().expect("decisions");
        assert_eq!(d.len(), 3);
        for x in d {
            assert!(x["loss"].as_f64().expect("loss") >= 0.0);
        }
        assert!(record_json("").is_err());
        assert!(record_json("  1) 31: 8/1\n").is_err());
        assert!(analyse_json(&"x".repeat(MAX_RECORD_BYTES + 1), 1).is_err());
        // The candidates lead with the best, and each roll has its luck.
        for x in d {
            assert_eq!(x["candidates"][0]["play"], x["best"]);
        }
        assert_eq!(v["luck"].as_array().expect("luck").len(), 3);
        // The same game as a .mat, which reads back as the same turns.
        let mat = mat_json(GAME).expect("a .mat");
        let mat = mat["mat"].as_str().expect("its text");
        assert!(
            mat.contains(" 0 point match") && mat.contains(" Game 1"),
            "{mat}"
        );
        let back = record_json(mat).expect("the .mat reads back");
        assert_eq!(
            back["games"][0]["tokens"],
            record_json(GAME).unwrap()["games"][0]["tokens"]
        );
        // Gul bara has no .mat form.
        let gul = "\n Game 1\n White : a                                Black : b\n Opening 5-3 starter White\n  1) 53: 24/19 24/21                      \n Unfinished\n";
        assert!(record_json(gul).is_ok());
        assert!(mat_json(gul).is_err());
    }
}
