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

use crate::anyrecord::ReadAnyError;
use crate::anyrecord::replay_any;
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
pub enum BoardRequestError {
    /// The text is not a record the rules accept.
    #[error("{0}")]
    Record(#[from] ReadAnyError),
    /// The text is longer than [`MAX_RECORD_BYTES`].
    #[error("the record is longer than {MAX_RECORD_BYTES} bytes")]
    TooLong,
    /// The text is blank.
    #[error("the record is empty")]
    Empty,
    /// The record has no game to analyse.
    #[error("the record has no game")]
    NoGame,
    /// The game has more than [`MAX_ANALYSED_TURNS`] turns.
    #[error("the game has more than {MAX_ANALYSED_TURNS} turns")]
    TooManyTurns,
    /// The game's network does not load.
    #[error("the network does not load: {0}")]
    Network(#[source] crate::engine::LoadNetError),
    /// The caller stopped the analysis.
    #[error("the analysis was stopped")]
    Stopped,
    /// The game has no `.mat` form.
    #[error("{0}")]
    Mat(#[from] crate::gnubg::mat::MatError),
}

fn check_size(text: &str) -> Result<(), BoardRequestError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(BoardRequestError::TooLong);
    }
    if text.trim().is_empty() {
        return Err(BoardRequestError::Empty);
    }
    Ok(())
}

/// A record's games as the page takes them: the game, its rules, and per
/// game the starter, the move tokens and the turns (`label` is the roll,
/// `r<D>x<N>` for a remainder; a cube action is a turn of its own,
/// `double=<N>:<answer>`, before the doubler's roll).
pub fn record_json(text: &str) -> Result<Value, BoardRequestError> {
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
pub fn mat_json(text: &str) -> Result<Value, BoardRequestError> {
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
pub fn analyse_json(text: &str, ply: u8) -> Result<Value, BoardRequestError> {
    analyse_json_with(text, ply, &mut |_, _| true)
}

/// [`analyse_json`], telling `progress(k, n)` after each of the game's `n`
/// turns is judged (its checker play, the cube decision before it and its
/// roll's luck); a `false` from it stops the analysis (the client is
/// gone).
///
/// The turns are judged one at a time, each as a game of that one turn
/// whose session is the one of its moment (the cube as the doubles before
/// it left it), so the judgements are those of [`analyse_replayed`] on the
/// whole game: checker play does not depend on the session, and each cube
/// decision depends only on its turn and the session then (a unit test
/// compares the two).
///
/// The luck of each roll is also given scaled as gnubg scales it: in money
/// play times the cube of its moment (points), in a match as the
/// match-winning chances it gained (`luck_unit` says which), with the
/// game's result in the same unit for White (`result_scaled`) once it is
/// over.
///
/// [`analyse_replayed`]: crate::analysis::records::analyse_replayed
pub fn analyse_json_with(
    text: &str,
    ply: u8,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Value, BoardRequestError> {
    check_size(text)?;
    let (opts, games) = replay_any(text)?;
    let Some(first) = games.first() else {
        return Err(BoardRequestError::NoGame);
    };
    if first.turns.len() > MAX_ANALYSED_TURNS {
        return Err(BoardRequestError::TooManyTurns);
    }
    let ply = crate::engine::Ply::new(ply.clamp(1, 3)).unwrap_or(crate::engine::Ply::MAX);
    let net = crate::engine::load_net(
        opts.variant,
        &crate::engine::Weights::Shipped,
        &Default::default(),
    )
    .map_err(BoardRequestError::Network)?;
    let eval = net.evaluator();
    let (analysis, luck, end_session) =
        judge_turn_by_turn(&opts, first, eval.as_ref(), ply.gnubg(), progress)?;
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
        .map(|l| {
            json!({
                "turn": l.turn,
                "side": side_word(l.side),
                "roll": l.roll,
                "luck": l.luck,
                "scaled": l.scaled,
                "cube": l.cube,
            })
        })
        .collect();
    let is_match = first.session.length() > 0;
    Ok(json!({
        "variant": opts.variant.to_string(),
        "ply": ply.get(),
        "decisions": decisions,
        "cube": cube,
        "luck": luck,
        "luck_unit": if is_match { "mwc" } else { "points" },
        "result_scaled": result_scaled(&opts, first, &end_session),
        "report": analysis.to_text(),
    }))
}

/// One roll's luck: the mover's cubeless equity it gained, and the same
/// scaled by the cube of its moment (money: points) or as match-winning
/// chances (a match).
struct RollLuck {
    turn: usize,
    side: Side,
    roll: String,
    luck: f32,
    scaled: f64,
    cube: u32,
}

/// Judges `game` a turn at a time (see [`analyse_json_with`]): the
/// analysis, the luck of each roll, and the session after the last turn.
fn judge_turn_by_turn(
    opts: &crate::rules::RuleOptions,
    game: &crate::record::ReplayedGame,
    eval: &dyn crate::eval::Evaluator,
    plies: u8,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<
    (
        crate::analysis::records::Analysis,
        Vec<RollLuck>,
        crate::cube::MatchState,
    ),
    BoardRequestError,
> {
    use crate::analysis::records::{Analysis, analyse_replayed};
    use crate::cube::CubeAnswer;
    let mut out = Analysis {
        variant: opts.variant,
        ..Analysis::default()
    };
    let mut luck = Vec::new();
    let mut session = game.session;
    let one = |turns: Vec<crate::record::ReplayedTurn>,
               by_winner: bool,
               dropped_by: Option<Side>,
               session: crate::cube::MatchState| crate::record::ReplayedGame {
        opts: game.opts,
        players: game.players.clone(),
        turns,
        final_state: game.final_state,
        starter: game.starter,
        by_winner,
        tokens: Vec::new(),
        result_line: None,
        dropped_by,
        session,
    };
    let merge = |part: Analysis, turn: usize, out: &mut Analysis| {
        for mut d in part.decisions {
            d.turn = turn;
            out.decisions.push(d);
        }
        for mut c in part.cube {
            c.turn = turn;
            out.cube.push(c);
        }
        for (name, p) in part.players {
            let s = out.players.entry(name).or_default();
            s.decisions += p.decisions;
            s.total_loss += p.total_loss;
            s.cube_decisions += p.cube_decisions;
            s.cube_loss += p.cube_loss;
            for (a, b) in s.cube_errors.iter_mut().zip(p.cube_errors) {
                *a += b;
            }
        }
    };
    let n = game.turns.len();
    for (k, t) in game.turns.iter().enumerate() {
        // The game's first turn keeps the game's own opening (no cube
        // decision before a played opening throw); a later turn is a
        // roll like any other, with the cube decision before it.
        let by_winner = if k == 0 { game.by_winner } else { true };
        let part = analyse_replayed(
            opts,
            std::slice::from_ref(&one(vec![t.clone()], by_winner, None, session)),
            eval,
            plies,
            None,
        );
        // The analysis turned the cube when it judged the double made
        // here: the next turns see the cube it left.
        let doubled = part.cube.iter().any(|c| c.did == "double");
        merge(part, k + 1, &mut out);
        if let (Some(answer), true) = (t.double, doubled) {
            let _ = session.double(t.before.to_move);
            let _ = match answer {
                CubeAnswer::Beaver => session.beaver(),
                _ => session.take(),
            };
        }
        // The roll comes after the cube action before it.
        if let Some(l) = luck_of_turn(opts, t, eval, &session) {
            luck.push(RollLuck { turn: k + 1, ..l });
        }
        if !progress(k + 1, n) {
            return Err(BoardRequestError::Stopped);
        }
    }
    // A dropped double ended the game after its last turn.
    if game.dropped_by.is_some() {
        let part = analyse_replayed(
            opts,
            std::slice::from_ref(&one(Vec::new(), game.by_winner, game.dropped_by, session)),
            eval,
            plies,
            None,
        );
        merge(part, n + 1, &mut out);
    }
    Ok((out, luck, session))
}

/// The match-winning chances of `side` with the cubeless chances `p` at
/// the score of `session`, the cube as it is and dead (no later double).
fn mwc_of(
    variant: crate::rules::Variant,
    p: &crate::eval::Probs,
    session: &crate::cube::MatchState,
    side: Side,
) -> f64 {
    let score = crate::cube::MatchScore {
        me: session.away(side).unwrap_or(1),
        opp: session.away(side.opponent()).unwrap_or(1),
        post_crawford: session.is_post_crawford(),
    };
    let met = crate::cube::met_for(variant, session.rules().cube);
    let c = i64::from(session.cube());
    let scores = variant.spec().scores;
    let (one, two) = (i64::from(scores.single), i64::from(scores.double));
    let three = i64::from(scores.max());
    let (win, wm, wb) = (f64::from(p.win), f64::from(p.win_mars), f64::from(p.win_bg));
    let (lm, lb) = (f64::from(p.lose_mars), f64::from(p.lose_bg));
    let m = |k: i64| score.after(met, k * c);
    (win - wm) * m(one)
        + (wm - wb) * m(two)
        + wb * m(three)
        + (1.0 - win - lm) * m(-one)
        + (lm - lb) * m(-two)
        + lb * m(-three)
}

/// The luck of turn `t`'s roll (the turn field left 0): the mover's
/// cubeless equity after the best play of the roll it got, less the
/// average of the same over the 36 rolls it could have got, each judged at
/// 0-ply by `eval` (gnubg's definition of luck); scaled in money play by
/// the cube of `session`, in a match as the match-winning chances (the
/// same difference of each end's chances at the score and cube).
fn luck_of_turn(
    opts: &crate::rules::RuleOptions,
    t: &crate::record::ReplayedTurn,
    eval: &dyn crate::eval::Evaluator,
    session: &crate::cube::MatchState,
) -> Option<RollLuck> {
    let (a, b) = t.roll?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let search = crate::search::Search::new(eval, *opts, &stop);
    let limits = crate::search::Limits {
        plies: 0,
        ..crate::search::Limits::default()
    };
    let mut movegen = crate::rules::StageGen::new();
    let mut ends = Vec::new();
    let mover = t.before.to_move;
    let is_match = session.length() > 0;
    // The mover's cubeless equity after the roll, and its match-winning
    // chances at the score in a match.
    let mut worth = |d1: u8, d2: u8| -> Option<(f32, f64)> {
        let rolled = t.before.roll(opts, d1, d2).ok()?;
        let s = crate::rules::skip_forced_empty(rolled, opts, &mut movegen, &mut ends);
        let probs = if s.result().is_some() || s.to_move != mover || s.stage_dice().is_none() {
            crate::eval::probs_for(eval, &s, opts, mover)
        } else {
            let ranked = search.best_turn(&s, &limits, &mut |_| {});
            match ranked.first() {
                Some(c) => c.probs,
                None => crate::eval::probs_for(eval, &s, opts, mover),
            }
        };
        let mwc = if is_match {
            mwc_of(opts.variant, &probs, session, mover)
        } else {
            0.0
        };
        Some((probs.equity(), mwc))
    };
    let (got, got_mwc) = worth(a, b)?;
    let (mut sum, mut sum_mwc, mut weight) = (0.0f32, 0.0f64, 0.0f32);
    for d1 in 1..=6u8 {
        for d2 in 1..=d1 {
            let w = if d1 == d2 { 1.0 } else { 2.0 };
            if let Some((e, m)) = worth(d1, d2) {
                sum += w * e;
                sum_mwc += f64::from(w) * m;
                weight += w;
            }
        }
    }
    if weight <= 0.0 {
        return None;
    }
    let luck = got - sum / weight;
    let scaled = if is_match {
        got_mwc - sum_mwc / f64::from(weight)
    } else {
        f64::from(luck) * f64::from(session.cube())
    };
    Some(RollLuck {
        turn: 0,
        side: mover,
        roll: format!("{a}{b}"),
        luck,
        scaled,
        cube: session.cube(),
    })
}

/// White's result of a finished game in the unit of the scaled luck:
/// points in money play; in a match, the match-winning chances it gained
/// (after the game, less before it at the start score). `None` while
/// the game goes on or when it ended with no winner.
fn result_scaled(
    opts: &crate::rules::RuleOptions,
    game: &crate::record::ReplayedGame,
    end: &crate::cube::MatchState,
) -> Option<f64> {
    let (winner, points) = match (game.dropped_by, game.final_state.result()) {
        // The side whose double was dropped wins the cube before it.
        (Some(doubler), _) => (doubler, end.cube()),
        (None, Some(r)) => (r.winner?, u32::from(r.points) * end.cube()),
        (None, None) => return None,
    };
    let sign = if winner == Side::White { 1.0 } else { -1.0 };
    if game.session.length() == 0 {
        return Some(sign * f64::from(points));
    }
    let start = &game.session;
    let score = crate::cube::MatchScore {
        me: start.away(Side::White).unwrap_or(1),
        opp: start.away(Side::Black).unwrap_or(1),
        post_crawford: start.is_post_crawford(),
    };
    let met = crate::cube::met_for(opts.variant, start.rules().cube);
    let won = if winner == Side::White {
        i64::from(points)
    } else {
        -i64::from(points)
    };
    Some(score.after(met, won) - score.after(met, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "; [Variant \"backgammon\"]\n\n Game 1\n White : a                                Black : b\n Opening 3-1 starter White\n  1) 31: 8/5 6/5                            64: 24/18 13/9\n  2) 62: 24/18 13/11                        \n Unfinished\n";

    /// A money game and a match with the cube turned twice (a double, a
    /// take, a redouble and a take).
    fn cube_game(session: &str) -> String {
        format!(
            "; [Variant \"backgammon\"]\n; [Session \"{session}\"]\n\n Game 1\n White : a                                Black : b\n{}",
            " Opening 3-1 starter White\n  1) 31: 8/5 6/5                            64: 24/18 13/9\n  2) double=2:take 62: 24/18 13/11          double=4:take 55: 13/8 13/8 6/1* 6/1\n Unfinished\n"
        )
    }

    #[test]
    fn turn_by_turn_judges_as_the_whole_game_and_tells_each_turn() {
        for (session, score) in [
            ("money cube on jacoby off beavers off", ""),
            ("match 5 cube on crawford on", " Score 2-3 to 5\n"),
        ] {
            let text = cube_game(session).replace(" Opening", &format!("{score} Opening"));
            let (opts, games) = replay_any(&text).expect("the record replays");
            let net = crate::engine::load_net(
                opts.variant,
                &crate::engine::Weights::Shipped,
                &Default::default(),
            )
            .expect("the network");
            let eval = net.evaluator();
            let whole =
                crate::analysis::records::analyse_replayed(&opts, &games, eval.as_ref(), 0, None);
            let mut told = Vec::new();
            let (parts, luck, end) =
                judge_turn_by_turn(&opts, &games[0], eval.as_ref(), 0, &mut |k, n| {
                    told.push((k, n));
                    true
                })
                .expect("judged");
            assert_eq!(told, [(1, 4), (2, 4), (3, 4), (4, 4)], "{session}");
            let key = |a: &crate::analysis::records::Analysis| {
                (
                    a.decisions
                        .iter()
                        .map(|d| format!("{} {} {} {:.6}", d.turn, d.played, d.best, d.loss()))
                        .collect::<Vec<_>>(),
                    a.cube
                        .iter()
                        .map(|c| {
                            format!(
                                "{} {} {:?} {:.6} {:?}",
                                c.turn, c.did, c.error, c.loss, c.equities
                            )
                        })
                        .collect::<Vec<_>>(),
                )
            };
            assert_eq!(key(&parts), key(&whole), "{session}");
            assert_eq!(parts.to_text(), whole.to_text(), "{session}");
            // Both doubles were judged, and the cube ends at 4.
            assert_eq!(
                parts.cube.iter().filter(|c| c.did == "double").count(),
                2,
                "{session}"
            );
            assert_eq!(end.cube(), 4);
            // Each roll's luck at the cube of its moment: 1, 1, 2, then 4.
            let cubes: Vec<u32> = luck.iter().map(|l| l.cube).collect();
            assert_eq!(cubes, [1, 1, 2, 4], "{session}");
            for l in &luck {
                if session.starts_with("money") {
                    let want = f64::from(l.luck) * f64::from(l.cube);
                    assert!((l.scaled - want).abs() < 1e-9, "{session}");
                } else {
                    // Match-winning chances: within what a roll can swing.
                    assert!(l.scaled.abs() <= 1.0, "{session}");
                }
            }
        }
    }

    #[test]
    fn a_stopped_analysis_says_so() {
        let mut calls = 0;
        let r = analyse_json_with(
            &cube_game("money cube on jacoby off beavers off"),
            1,
            &mut |_, _| {
                calls += 1;
                false
            },
        );
        assert_eq!(calls, 1);
        assert!(r.unwrap_err().to_string().contains("stopped"));
    }

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
