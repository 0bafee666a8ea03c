//! `engine.cube_efficiency` through the protocol: `go cube`'s money
//! equities are Janowski's interpolation, linear in the efficiency, in
//! contact; races keep gnubg's race values and small bear-offs are exact,
//! whatever the setting.

mod common;

/// `go cube`'s `info cube` figures (no double, double/take) at each
/// efficiency, for the position `position` (a protocol `position` line).
fn cube_at(position: &str, efficiencies: &[u32]) -> Vec<(f64, f64)> {
    let mut lines = vec![
        "set game.variant backgammon".to_string(),
        "set engine.ply 1".to_string(),
        "newsession type money cube on".to_string(),
    ];
    for x in efficiencies {
        lines.push(format!("set engine.cube_efficiency {x}"));
        lines.push(position.to_string());
        lines.push("go cube".to_string());
    }
    let got = common::session_replies(&lines);
    assert!(!got.iter().any(|l| l.starts_with("error")), "{got:?}");
    let found: Vec<(f64, f64)> = got
        .iter()
        .filter_map(|line| {
            let rest = line.strip_prefix("info cube nodouble ")?;
            let w: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!(w[1], "doubletake", "{line}");
            Some((
                w[0].parse().expect("nodouble"),
                w[2].parse().expect("doubletake"),
            ))
        })
        .collect();
    assert_eq!(found.len(), efficiencies.len(), "{got:?}");
    found
}

#[test]
fn contact_equities_are_linear_in_the_efficiency() {
    let got = cube_at("position gnubgid 4HPwATDgc/ABMA", &[0, 68, 76, 100]);
    let (nd0, dt0) = got[0];
    // Printed to 4 decimals: the line through x = 0 and x = 0.68 must give
    // x = 0.76 and x = 1.
    for (i, x) in [(2, 0.76), (3, 1.0)] {
        let nd = nd0 + (got[1].0 - nd0) * x / 0.68;
        let dt = dt0 + (got[1].1 - dt0) * x / 0.68;
        assert!((got[i].0 - nd).abs() < 5e-4, "{got:?}");
        assert!((got[i].1 - dt).abs() < 1e-3, "{got:?}");
    }
    // The live cube is worth something to the side with access to it: a
    // more efficient cube raises the no double equity at the start.
    assert!(got[3].0 > got[1].0 && got[1].0 > got[0].0, "{got:?}");
}

#[test]
fn races_and_small_bearoffs_ignore_it() {
    // A race (98 against 85 pips) and 6-4-2 against 5-3.
    for position in [
        "position gnubgid 7O7GAADYPXcAAA",
        "position gnubgid JAAAkAQAAAAAAA",
    ] {
        let got = cube_at(position, &[0, 68, 100]);
        assert!(got.iter().all(|g| *g == got[0]), "{position}: {got:?}");
    }
}
