//! `engine.cube_ply` through the protocol: cube decisions are judged at
//! their own depth, counted as `engine.ply` is, while checker play keeps
//! `engine.ply`'s; 0 follows `engine.ply`.

mod common;

use common::session_replies as replies;

/// Money positions before the roll (gnubg Position IDs): the cube's
/// decision differs between 0-ply and 1-ply in at least one of them.
const POSITIONS: [&str; 3] = ["4HPwATDgc/ABMA", "4HPhASLgc/ABMA", "sGfwATDgc/ABMA"];

/// `go cube`'s `info cube` line for each position at the given settings.
fn cube_lines(ply: u8, cube_ply: u8) -> Vec<String> {
    let mut lines = vec![
        "set game.variant backgammon".to_string(),
        "newsession type money cube on".to_string(),
        format!("set engine.ply {ply}"),
        format!("set engine.cube_ply {cube_ply}"),
    ];
    for p in POSITIONS {
        lines.push(format!("position gnubgid {p}"));
        lines.push("go cube".to_string());
    }
    let got = replies(&lines);
    assert!(!got.iter().any(|l| l.starts_with("error")), "{got:?}");
    let info: Vec<String> = got
        .into_iter()
        .filter(|l| l.starts_with("info cube"))
        .collect();
    assert_eq!(info.len(), POSITIONS.len(), "{info:?}");
    info
}

#[test]
fn cube_decisions_take_the_cube_ply() {
    let zero = cube_lines(1, 0);
    let one = cube_lines(2, 0);
    // The test can tell the depths apart.
    assert_ne!(zero, one);
    // A 0-ply player judging its cube at 1-ply judges it as the 1-ply player.
    assert_eq!(cube_lines(1, 2), one);
    // And the other way round.
    assert_eq!(cube_lines(2, 1), zero);
    // The setting that names the depth engine.ply already has changes nothing.
    assert_eq!(cube_lines(2, 2), one);
}

#[test]
fn checker_play_keeps_engine_ply() {
    let best = |cube_ply: u8| {
        let got = replies(&[
            "set game.variant backgammon".to_string(),
            "set engine.ply 1".to_string(),
            format!("set engine.cube_ply {cube_ply}"),
            "position gnubgid 4HPwATDgc/ABMA".to_string(),
            "dice 5 2".to_string(),
            "go".to_string(),
        ]);
        // The search's answer without its timings (`nps`, `time`): the
        // depth, nodes, equity and line, and the best move.
        got.into_iter()
            .filter(|l| l.starts_with("info") || l.starts_with("bestmove"))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < w.len() {
                    if matches!(w[i], "nps" | "time") {
                        i += 2;
                    } else {
                        kept.push(w[i]);
                        i += 1;
                    }
                }
                kept.join(" ")
            })
            .collect::<Vec<_>>()
    };
    let plain = best(0);
    assert!(plain.iter().any(|l| l.starts_with("bestmove")), "{plain:?}");
    assert_eq!(best(3), plain);
}

#[test]
fn out_of_range_is_refused_and_changes_nothing() {
    let got = replies(&[
        "set engine.cube_ply 2".to_string(),
        "set engine.cube_ply 4".to_string(),
        "set engine.cube_ply x".to_string(),
        "get engine.cube_ply".to_string(),
    ]);
    let errors: Vec<&String> = got.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 2, "{got:?}");
    assert!(errors[0].contains("engine.cube_ply"), "{got:?}");
    assert!(
        got.contains(&"value engine.cube_ply 2".to_string()),
        "{got:?}"
    );
}
