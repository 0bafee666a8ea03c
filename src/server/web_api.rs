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

/// The decisions of a record's first game, judged at 0-ply by the game's
/// shipped network: per decision the turn (1-based, cube actions not
/// counted), the side, the roll, the played and the preferred turn with
/// their equities for the mover, and the equity lost.
pub fn analyse_json(text: &str) -> Result<Value, ApiError> {
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
        0,
        None,
    );
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
            })
        })
        .collect();
    Ok(json!({ "variant": opts.variant.to_string(), "decisions": decisions }))
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
        let v = analyse_json(GAME).expect("analysed");
        let d = v["decisions"].as_array().expect("decisions");
        assert_eq!(d.len(), 3);
        for x in d {
            assert!(x["loss"].as_f64().expect("loss") >= 0.0);
        }
        assert!(record_json("").is_err());
        assert!(record_json("  1) 31: 8/1\n").is_err());
        assert!(analyse_json(&"x".repeat(MAX_RECORD_BYTES + 1)).is_err());
    }
}
