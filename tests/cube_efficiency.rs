//! `engine.cube_efficiency` through the protocol: `go cube`'s money
//! equities are Janowski's interpolation, linear in the efficiency, in
//! contact; races keep gnubg's race values and small bear-offs are exact,
//! whatever the setting.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// `go cube`'s `info cube` figures (no double, double/take) at each
/// efficiency, for the position `position` (a protocol `position` line).
fn cube_at(position: &str, efficiencies: &[u32]) -> Vec<(f64, f64)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gulbara"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gulbara");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |line: &str| writeln!(stdin, "{line}").expect("write");
    send("set game.variant backgammon");
    send("set engine.ply 1");
    send("newsession type money cube on");
    let mut found = Vec::new();
    for x in efficiencies {
        send(&format!("set engine.cube_efficiency {x}"));
        send(position);
        // One search at a time: wait for its answer.
        send("go cube");
        let mut info = None;
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).expect("read") > 0, "gulbara ended");
            let line = line.trim();
            assert!(!line.starts_with("error"), "{line}");
            if let Some(rest) = line.strip_prefix("info cube nodouble ") {
                let w: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(w[1], "doubletake", "{line}");
                info = Some((
                    w[0].parse().expect("nodouble"),
                    w[2].parse().expect("doubletake"),
                ));
            }
            if line.starts_with("bestcube") {
                break;
            }
        }
        found.push(info.expect("an info cube line"));
    }
    send("quit");
    drop(stdin);
    assert!(child.wait().expect("gulbara ends").success());
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
