//! `engine.cube_ply` and `engine.cube_min_ply` through the protocol: cube
//! decisions are judged at their own depth, counted as `engine.ply` is,
//! while checker play keeps `engine.ply`'s; `engine.cube_ply 0` follows
//! `engine.ply`, but not below `engine.cube_min_ply` (by default 2, gnubg's
//! 1-ply).

mod common;

use common::session_replies as replies;

/// Money positions before the roll (gnubg Position IDs): the cube's
/// decision differs between 0-ply and 1-ply in at least one of them.
const POSITIONS: [&str; 3] = ["4HPwATDgc/ABMA", "4HPhASLgc/ABMA", "sGfwATDgc/ABMA"];

/// Money positions before the roll (position text) where the verdicts of
/// 0-ply and 1-ply differ (found among generation 2's self-play positions,
/// docs/journal/2026-12-07-cube-floor.md):
/// - White has two checkers off and 58 pips' lead, its last checker on
///   Black's ace point, against Black's anchors on White's ace and five
///   points: a back game. 0-ply doubles (Double, take); 1-ply does not,
///   and neither does gnubg 2-ply, by 0.23 (no double +0.180, double/take
///   −0.049), the hand-checked one.
/// - A blitz of White's on Black's blots: 0-ply no double, 1-ply Double,
///   take.
/// - A bear-in against two of Black's checkers: 0-ply Double, take, 1-ply
///   Double, pass.
const DISAGREE: [&str; 3] = [
    "-2,3,-1,0,-2,3,0,4,0,0,-1,0,2,0,0,0,0,-2,-2,0,-1,-2,-2,1 w 0 0",
    "3,-1,4,2,2,-1,-1,0,0,0,0,-2,0,0,-2,1,0,0,-3,0,-2,0,-3,1 w 0 0",
    "0,0,3,-1,-3,4,3,2,0,1,0,1,0,0,0,0,0,0,-2,-2,-2,-2,-2,-1 w 0 0",
];

/// `go cube`'s `info cube` line for each position (`position` arguments)
/// after `settings` (`set` lines).
fn verdicts(settings: &[String], positions: &[String]) -> Vec<String> {
    let mut lines = vec![
        "set game.variant backgammon".to_string(),
        "newsession type money cube on".to_string(),
    ];
    lines.extend(settings.iter().cloned());
    for p in positions {
        lines.push(format!("position {p}"));
        lines.push("go cube".to_string());
    }
    let got = replies(&lines);
    assert!(!got.iter().any(|l| l.starts_with("error")), "{got:?}");
    let info: Vec<String> = got
        .into_iter()
        .filter(|l| l.starts_with("info cube"))
        .collect();
    assert_eq!(info.len(), positions.len(), "{info:?}");
    info
}

/// The `set` lines of `pairs`.
fn sets(pairs: &[(&str, u8)]) -> Vec<String> {
    pairs
        .iter()
        .map(|(k, v)| format!("set engine.{k} {v}"))
        .collect()
}

/// [`verdicts`] of [`POSITIONS`].
fn cube_lines(pairs: &[(&str, u8)]) -> Vec<String> {
    let positions: Vec<String> = POSITIONS.iter().map(|p| format!("gnubgid {p}")).collect();
    verdicts(&sets(pairs), &positions)
}

/// [`verdicts`] of [`DISAGREE`], at the contact efficiency they were
/// found at, 0.68 (`engine.cube_efficiency 68`; the default since is 72,
/// at which the back game's 0-ply verdict is no longer a double).
fn disagree_lines(pairs: &[(&str, u8)]) -> Vec<String> {
    let positions: Vec<String> = DISAGREE.iter().map(|p| format!("board {p}")).collect();
    let mut settings = sets(&[("cube_efficiency", 68)]);
    settings.extend(sets(pairs));
    verdicts(&settings, &positions)
}

/// The action words of an `info cube` line (`... action Double, take`).
fn action(line: &str) -> &str {
    line.split_once(" action ").map_or("", |(_, a)| a)
}

#[test]
fn cube_decisions_take_the_cube_ply() {
    // 0-ply without the floor, as before engine.cube_min_ply.
    let zero = cube_lines(&[("ply", 1), ("cube_min_ply", 1)]);
    let one = cube_lines(&[("ply", 2)]);
    // The test can tell the depths apart.
    assert_ne!(zero, one);
    // A 0-ply player judging its cube at 1-ply judges it as the 1-ply player.
    assert_eq!(cube_lines(&[("ply", 1), ("cube_ply", 2)]), one);
    // And the other way round: an explicit depth is kept below the floor.
    assert_eq!(cube_lines(&[("ply", 2), ("cube_ply", 1)]), zero);
    assert_eq!(cube_lines(&[("ply", 1), ("cube_ply", 1)]), zero);
    // The setting that names the depth engine.ply already has changes nothing.
    assert_eq!(cube_lines(&[("ply", 2), ("cube_ply", 2)]), one);
}

#[test]
fn a_zero_ply_player_judges_its_cube_at_one_ply() {
    let floor = disagree_lines(&[("ply", 1)]);
    let one = disagree_lines(&[("ply", 1), ("cube_ply", 2)]);
    let zero = disagree_lines(&[("ply", 1), ("cube_min_ply", 1)]);
    // The positions tell the depths apart by the action taken, not only by
    // the equities.
    for (z, o) in zero.iter().zip(&one) {
        assert_ne!(action(z), action(o), "{z} / {o}");
        assert!(!action(z).is_empty(), "{z}");
    }
    // The default judges as an explicit engine.cube_ply 2 ...
    assert_eq!(floor, one);
    // ... and engine.cube_min_ply 1 as 0-ply did before the floor.
    assert_eq!(zero, disagree_lines(&[("ply", 1), ("cube_ply", 1)]));
    // The hand-checked back game: 0-ply doubles, 1-ply does not.
    assert_eq!(action(&zero[0]), "Double, take", "{zero:?}");
    assert_eq!(action(&floor[0]), "No double, take", "{floor:?}");
}

#[test]
fn the_floor_raises_a_shallower_depth_only() {
    // A floor of 3 raises a 1-ply player's cube to 2-ply, as engine.cube_ply 3.
    let raised = cube_lines(&[("ply", 2), ("cube_min_ply", 3)]);
    assert_eq!(raised, cube_lines(&[("ply", 2), ("cube_ply", 3)]));
    assert_ne!(raised, cube_lines(&[("ply", 2)]));
    // A floor below engine.ply changes nothing.
    assert_eq!(
        cube_lines(&[("ply", 2), ("cube_min_ply", 1)]),
        cube_lines(&[("ply", 2), ("cube_min_ply", 2)])
    );
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

#[test]
fn cube_min_ply_is_checked_and_listed() {
    let got = replies(&[
        "get engine.cube_min_ply",
        "set engine.cube_min_ply 3",
        "set engine.cube_min_ply 0",
        "set engine.cube_min_ply 4",
        "set engine.cube_min_ply -1",
        "set engine.cube_min_ply two",
        "set engine.cube_min_ply",
        "get engine.cube_min_ply",
        "keys",
    ]);
    // The default is 2 (gnubg's 1-ply).
    assert_eq!(got[0], "value engine.cube_min_ply 2", "{got:?}");
    let errors: Vec<&String> = got.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 5, "{got:?}");
    for e in &errors[..4] {
        assert!(
            e.starts_with("error bad_value engine.cube_min_ply must be a whole number in 1..3"),
            "{e}"
        );
    }
    // A refused value changes nothing.
    assert!(
        got.contains(&"value engine.cube_min_ply 3".to_string()),
        "{got:?}"
    );
    let key = got
        .iter()
        .find(|l| l.starts_with("key engine.cube_min_ply "))
        .expect("listed");
    assert!(
        key.starts_with("key engine.cube_min_ply int 1..3 3 "),
        "{key}"
    );
}
