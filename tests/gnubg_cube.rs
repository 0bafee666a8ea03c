//! gulbara's money cube against GNU Backgammon's own, on hand-checked
//! positions: the same cubeless chances must give the same cubeful
//! equities and the same cube action.
//!
//! gnubg's 0-ply `hint` before a roll prints its cubeless chances (to five
//! digits here) and its cubeful equities of no double, double/take and
//! double/pass, computed from those chances by Janowski's interpolation at
//! its cube efficiency; its `eval` prints the cubeful equity with the cube
//! where it is. gulbara's `cube::money_decision` and `cube::money_equity`
//! are given gnubg's chances, at gulbara's efficiency of the position
//! (`cube::efficiency`), and must agree with it:
//!
//! - contact, race and one-sided bear-off positions (gnubg's evaluator
//!   classes Contact, Race and Bearoff1; efficiencies 0.68, 0.55 + 0.00125
//!   per pip of the side on roll within 0.6..0.7, and 0.6);
//! - the cube in the middle, owned by the side on roll (a redouble), and
//!   owned by the opponent;
//! - the Jacoby rule on and off, beavers allowed and not.
//!
//! Small bear-offs (at most six checkers a side, all home) are not
//! interpolated: gnubg reads exact cubeful equities from its two-sided
//! bear-off database (evaluator class Bearoff2), and gulbara computes the
//! same by a two-sided recursion (`cube::bearoff`); the equities and the
//! actions must agree.
//!
//! The positions: the start; a blitz (two on the bar against a 4-point
//! board, gammonish: too good to double); a closed board with one on the
//! bar; a race of 98 against 85 pips; a bear-off of 12 checkers against 10.
//!
//! Ignored by a plain `cargo test` (it needs gnubg: `apt-get install
//! gnubg`); `--include-ignored`, as `.ci/run` runs, runs it.

mod gnubg_common;

use std::process::Stdio;

use gnubg_common::{gnubg_command, gnubg_path};
use gulbara::cube::{CubeView, bearoff, efficiency, money_decision, money_equity};
use gulbara::eval::Probs;
use gulbara::gnubg::{position_id, state_of};
use gulbara::rules::{GameState, Variant};

/// The positions (gnubg Position IDs, the side on roll first), each with
/// the pip counts checked by hand, and gnubg's evaluator class for it.
const POSITIONS: [(&str, u32, u32, &str); 5] = [
    // The start.
    ("4HPwATDgc/ABMA", 167, 167, "Contact"),
    // 6:3 5:3 4:3 3:2 8:2 13:2 against two on the bar, 24:1 13:5 8:3 6:4.
    ("4Dn4AGjs7gwGAA", 93, 187, "Contact"),
    // 6:3 5:3 4:2 3:2 2:2 8:2 9:1 against one on the bar, 24:2 13:4 8:3 6:5.
    ("4HPwAFi23VkAAA", 76, 179, "Contact"),
    // A race: 6:4 5:3 4:2 8:3 9:3 against 6:3 5:3 4:3 3:2 7:2 10:2.
    ("7O7GAADYPXcAAA", 98, 85, "Race"),
    // Bearing off: two on each home point against 6:3 5:2 4:2 3:1 2:1 1:1.
    ("1XYAANi2DQAAAA", 42, 42, "Bearoff1"),
];

/// The rules gnubg and gulbara are asked under: (Jacoby, beavers).
const RULES: [(bool, bool); 3] = [(false, false), (true, false), (false, true)];

/// One gnubg `hint` before the roll: its chances and cubeful equities.
#[derive(Debug)]
struct Hint {
    probs: Probs,
    no_double: f64,
    double_take: f64,
    double_pass: f64,
    action: String,
}

fn num(s: &str) -> f64 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// gnubg's chances line: `0.52151 0.15392 0.00756 - 0.47849 0.12985 0.00755`.
fn probs_of(line: &str) -> Probs {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(t.len(), 7, "chances line {line:?}");
    Probs {
        win: num(t[0]) as f32,
        win_mars: num(t[1]) as f32,
        win_bg: num(t[2]) as f32,
        lose_mars: num(t[5]) as f32,
        lose_bg: num(t[6]) as f32,
    }
}

/// The equity of a `1. No double           +0.08438` line.
fn equity_of(line: &str) -> f64 {
    let rest = line.split_once(". ").expect("numbered line").1;
    let value = rest
        .split_whitespace()
        .find(|w| w.starts_with(['+', '-']))
        .unwrap_or_else(|| panic!("no equity in {line:?}"));
    num(value)
}

/// Every `Cube analysis` block and every `static:` line of gnubg's output,
/// in order.
fn parse(out: &str) -> (Vec<Hint>, Vec<(Probs, f64)>) {
    let lines: Vec<&str> = out.lines().collect();
    let mut hints = Vec::new();
    let mut evals = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if *line == "Cube analysis" {
            let probs = probs_of(lines[i + 2]);
            let (mut nd, mut dt, mut dp, mut action) = (None, None, None, None);
            for l in &lines[i + 3..(i + 9).min(lines.len())] {
                if let Some(a) = l.strip_prefix("Proper cube action: ") {
                    action = Some(a.split(" (").next().unwrap_or(a).to_string());
                } else if !l.starts_with(|c: char| c.is_ascii_digit()) {
                    continue;
                } else if l.contains("No double") || l.contains("No redouble") {
                    nd = Some(equity_of(l));
                } else if l.contains("ouble, take") {
                    dt = Some(equity_of(l));
                } else if l.contains("ouble, pass") {
                    dp = Some(equity_of(l));
                }
            }
            hints.push(Hint {
                probs,
                no_double: nd.expect("no double"),
                double_take: dt.expect("double, take"),
                double_pass: dp.expect("double, pass"),
                action: action.expect("proper cube action"),
            });
        } else if let Some(rest) = line.strip_prefix("static:") {
            let t: Vec<f64> = rest.split_whitespace().map(num).collect();
            assert_eq!(t.len(), 7, "static line {line:?}");
            let probs = Probs {
                win: t[0] as f32,
                win_mars: t[1] as f32,
                win_bg: t[2] as f32,
                lose_mars: t[3] as f32,
                lose_bg: t[4] as f32,
            };
            evals.push((probs, t[6]));
        }
    }
    (hints, evals)
}

/// gnubg's text mode on `cmds`: its output.
fn run_gnubg(cmds: &str) -> String {
    let gnubg = gnubg_path();
    let (mut cmd, _home) = gnubg_command(&gnubg);
    let mut child = cmd
        .args(["-t", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gnubg");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("gnubg's stdin");
        stdin.write_all(cmds.as_bytes()).expect("write to gnubg");
    }
    let out = child.wait_with_output().expect("gnubg ran");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The commands before the positions: gnubg's 0-ply, no player of its own,
/// and no question when a `new session` replaces the last (each set of
/// rules needs a session of its own: gnubg keeps the Jacoby rule a session
/// began with for all its games).
const SETUP: &str = "set threads 1\nset output digits 5\nset player 0 human\nset player 1 human\n\
                     set confirm new off\n\
                     set evaluation chequerplay evaluation plies 0\n\
                     set evaluation cubedecision evaluation plies 0\n\
                     set evaluation cubedecision evaluation prune off\n";

/// Each position: the cube in the middle, then the side on roll's at 2,
/// then the opponent's at 2 (gnubg, player 0, on roll).
fn position_cmds(id: &str) -> String {
    format!(
        "set turn 0\nset board {id}\nset cube value 1\nset cube centre\nhint\n\
         set cube value 2\nset cube owner 0\nhint\nset cube owner 1\neval\n"
    )
}

fn close(ours: f64, theirs: f64, what: &str) {
    // gnubg's chances are rounded to five digits; its equities too.
    assert!(
        (ours - theirs).abs() < 3e-4,
        "{what}: gulbara {ours:+.5} gnubg {theirs:+.5}"
    );
}

/// The backgammon position of gnubg's Position ID `id`, checked to have
/// the pip counts written beside it.
fn position(id: &str, own_pips: u32, opp_pips: u32) -> GameState {
    let board = position_id::decode(id).expect("a Position ID");
    let state = state_of(Variant::Backgammon, &board, None).expect("a position");
    assert_eq!(
        (state.pos.own.pips(), state.pos.opp.pips()),
        (own_pips, opp_pips),
        "{id}"
    );
    state
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn money_cube_equities_and_actions_agree_with_gnubg() {
    let mut cmds = String::from(SETUP);
    for (jacoby, beavers) in RULES {
        let on = |b: bool| if b { "on" } else { "off" };
        cmds += &format!(
            "set jacoby {}\nset beavers {}\nnew session\n",
            on(jacoby),
            if beavers { 3 } else { 0 }
        );
        for (id, ..) in POSITIONS {
            cmds += &position_cmds(id);
        }
    }
    let out = run_gnubg(&cmds);
    let (hints, evals) = parse(&out);
    let n = RULES.len() * POSITIONS.len();
    assert_eq!(hints.len(), 2 * n, "gnubg's hints:\n{out}");
    assert_eq!(evals.len(), n, "gnubg's evals:\n{out}");
    for (r, (jacoby, beavers)) in RULES.into_iter().enumerate() {
        for (k, (id, own_pips, opp_pips, class)) in POSITIONS.into_iter().enumerate() {
            let state = position(id, own_pips, opp_pips);
            let x = efficiency(&state);
            let at = r * POSITIONS.len() + k;
            for (view, hint) in [
                (CubeView::Centre, &hints[2 * at]),
                (CubeView::Mine, &hints[2 * at + 1]),
            ] {
                let what = format!("{id} ({class}) {view:?} jacoby {jacoby} beavers {beavers}");
                let d = money_decision(&hint.probs, view, x, jacoby, beavers);
                close(d.no_double, hint.no_double, &format!("{what}: no double"));
                // gnubg prints the take's equity even where the taker
                // should beaver.
                let take = 2.0 * money_equity(&hint.probs, CubeView::Theirs, x, jacoby);
                close(take, hint.double_take, &format!("{what}: double, take"));
                close(
                    d.double_pass,
                    hint.double_pass,
                    &format!("{what}: double, pass"),
                );
                assert_eq!(
                    d.action.words(view == CubeView::Mine),
                    hint.action,
                    "{what}: {d:?} {hint:?}"
                );
            }
            let (probs, cubeful) = &evals[at];
            close(
                money_equity(probs, CubeView::Theirs, x, jacoby),
                *cubeful,
                &format!("{id} ({class}) the opponent's cube, jacoby {jacoby}"),
            );
        }
    }
    // gnubg judged each position with the evaluator the table says.
    for class in ["Contact", "Race", "Bearoff1"] {
        assert!(
            out.matches(&format!("Evaluator: \t{class}")).count() >= RULES.len(),
            "{class}:\n{out}"
        );
    }
}

/// Small bear-offs (gnubg's two-sided database): by hand, the pips; the
/// side on roll first.
const SMALL: [(&str, u32, u32); 5] = [
    // 6:1 4:1 2:1 against 5:1 3:1.
    ("JAAAkAQAAAAAAA", 12, 8),
    // 6:2 5:2 4:1 2:1 against 6:1 5:1 4:2 3:1 1:1: six checkers each.
    ("aQUAAGkDAAAAAA", 28, 23),
    // 5:2 3:1 1:1 against 6:1 4:2 2:2.
    ("ZgIAQDIAAAAAAA", 14, 18),
    // 6:1 5:1 against 4:1 2:1.
    ("EgAAgAIAAAAAAA", 11, 6),
    // 4:1 3:1 2:1 against 6:2 5:2 3:2.
    ("zAYAABUAAAAAAA", 9, 28),
];

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn small_bearoffs_agree_with_gnubgs_two_sided_database() {
    let mut cmds = String::from(SETUP);
    cmds += "set jacoby off\nset beavers 0\nnew session\n";
    for (id, ..) in SMALL {
        cmds += &position_cmds(id);
    }
    let out = run_gnubg(&cmds);
    let (hints, evals) = parse(&out);
    assert_eq!(hints.len(), 2 * SMALL.len(), "gnubg's hints:\n{out}");
    assert_eq!(evals.len(), SMALL.len(), "gnubg's evals:\n{out}");
    assert_eq!(
        out.matches("Evaluator: \tBearoff2").count(),
        SMALL.len(),
        "gnubg's classes:\n{out}"
    );
    let mut interpolation_off = 0.0f64;
    for (k, (id, own_pips, opp_pips)) in SMALL.into_iter().enumerate() {
        let state = position(id, own_pips, opp_pips);
        assert!(bearoff::covers(&state), "{id}");
        for (view, hint) in [
            (CubeView::Centre, &hints[2 * k]),
            (CubeView::Mine, &hints[2 * k + 1]),
        ] {
            let what = format!("{id} {view:?}");
            let d = bearoff::money_decision(&state, view, false).expect("covered");
            // gnubg's database keeps its equities to about 1e-4.
            let near = |a: f64, b: f64, w: &str| {
                assert!(
                    (a - b).abs() < 1e-3,
                    "{what} {w}: gulbara {a:+.5} gnubg {b:+.5}"
                )
            };
            near(d.no_double, hint.no_double, "no double");
            near(d.double_take, hint.double_take, "double, take");
            near(d.double_pass, hint.double_pass, "double, pass");
            // A sure win with no gammon to play for: no double and
            // double/pass are worth the same; gnubg words the tie "Double,
            // pass", gulbara "Too good to double, pass" (the answer, a
            // drop, and the equity are the same).
            let tie = d.no_double == d.double_pass && hint.action.ends_with("ouble, pass");
            if !tie {
                assert_eq!(
                    d.action.words(view == CubeView::Mine),
                    hint.action,
                    "{what}: {d:?} {hint:?}"
                );
            }
            // What the interpolation would have said, from gnubg's chances.
            let x = efficiency(&state);
            let take = 2.0 * money_equity(&hint.probs, CubeView::Theirs, x, false);
            interpolation_off = interpolation_off.max((take - hint.double_take).abs());
        }
        let theirs = bearoff::money_equity(&state, CubeView::Theirs).expect("covered");
        assert!(
            (theirs - evals[k].1).abs() < 1e-3,
            "{id} the opponent's cube: gulbara {theirs:+.5} gnubg {:+.5}",
            evals[k].1
        );
    }
    // The exact equities are worth having: Janowski's interpolation at
    // 0.6 misses some take by more than 0.02 here.
    assert!(interpolation_off > 0.02, "{interpolation_off}");
}
