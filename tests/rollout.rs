//! Rollouts through the protocol session (`rollout`, `hint N rollout G`):
//! exact results, an exact race, thread-count independence, the dice
//! stratification, the luck correction, `stop`, bad input, and Gul bara's
//! chains and remainders.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gulbara::analysis::rollout::StratifiedDice;
use gulbara::protocol::session::{Output, Session};

struct Engine {
    session: Session,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Engine {
    fn new() -> Engine {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let l = lines.clone();
        let out: Output = Arc::new(move |s: &str| l.lock().unwrap().push(s.to_string()));
        Engine {
            session: Session::new(out),
            lines,
        }
    }

    /// Sends a line and waits until its search (if any) is done; returns
    /// every line it printed.
    fn run(&mut self, cmd: &str) -> Vec<String> {
        self.lines.lock().unwrap().clear();
        self.session.handle_line(cmd);
        while self.session.is_searching() {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::mem::take(&mut *self.lines.lock().unwrap())
    }

    /// Waits until the running search has printed a line starting with
    /// `prefix` (its progress), and returns the lines so far.
    fn wait_for(&mut self, prefix: &str) -> Vec<String> {
        let start = std::time::Instant::now();
        loop {
            if self
                .lines
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.starts_with(prefix))
            {
                return std::mem::take(&mut *self.lines.lock().unwrap());
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "never printed {prefix:?}"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Sends a line and returns the lines printed so far (no waiting).
    fn send(&mut self, cmd: &str) -> Vec<String> {
        self.session.handle_line(cmd);
        std::mem::take(&mut *self.lines.lock().unwrap())
    }

    /// `run`, then the only `rolloutok` line.
    fn rollout(&mut self, cmd: &str) -> String {
        let out = self.run(cmd);
        let ok: Vec<&String> = out.iter().filter(|l| l.starts_with("rolloutok ")).collect();
        assert_eq!(ok.len(), 1, "{cmd}: {out:?}");
        ok[0].clone()
    }
}

/// The number after `key` in a response line.
fn field(line: &str, key: &str) -> f64 {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let i = toks
        .iter()
        .position(|t| *t == key)
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    toks[i + 1].parse().unwrap()
}

/// White's single checker on its 12 point against Black's on its own 12
/// (White's 24), everything else borne off: the paths never meet, so the
/// game is a pure race of pips, one checker each.
const RACE_12_12: &str = "0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,-1 w 30 30";

/// The chance that the side to roll wins a one-checker race, needing `a`
/// pips against `b`, both past the exempt rolls (a doublet escalates: d-d
/// moves 4(d + ... + 6) pips, at least 24). An independent recursion.
fn race_win(a: u32, b: u32, memo: &mut std::collections::HashMap<(u32, u32), f64>) -> f64 {
    if let Some(&v) = memo.get(&(a, b)) {
        return v;
    }
    let mut total = 0.0;
    for x in 1..=6u32 {
        for y in 1..=6u32 {
            let pips = if x == y {
                4 * (x..=6).sum::<u32>()
            } else {
                x + y
            };
            total += if pips >= a {
                1.0
            } else {
                1.0 - race_win(b, a - pips, memo)
            };
        }
    }
    let v = total / 36.0;
    memo.insert((a, b), v);
    v
}

#[test]
fn a_certain_win_rolls_out_to_its_value_with_no_error() {
    let mut e = Engine::new();
    // White bears off its last checker with any roll: a mars win.
    e.run("position board 1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 30 30");
    let want = "rolloutok equity 2.0000 se 0.0000 win 1.0000 winmars 1.0000 losemars 0.0000 games 72 rawequity 2.0000 rawse 0.0000";
    assert_eq!(e.rollout("rollout games 72"), want);
    // The same as the candidate play of a roll.
    e.run("dice 2 1");
    assert_eq!(
        e.rollout("rollout games 72 moves 1/off"),
        format!("{want} move 1/off")
    );
}

#[test]
fn a_one_checker_race_is_within_four_se_of_its_exact_chance() {
    let mut memo = std::collections::HashMap::new();
    let exact = 2.0 * race_win(12, 12, &mut memo) - 1.0;
    let mut e = Engine::new();
    e.run(&format!("position board {RACE_12_12}"));
    for luck in ["on", "off"] {
        let l = e.rollout(&format!("rollout games 720 seed 3 luck {luck}"));
        let (eq, se) = (field(&l, "equity"), field(&l, "se"));
        assert!(se > 0.0, "{l}");
        assert!((eq - exact).abs() > 1e-6, "suspiciously exact: {l}");
        assert!(
            (eq - exact).abs() <= 4.0 * se,
            "luck {luck}: {l} vs exact {exact:.4}"
        );
        // No mars in a one-checker race.
        assert_eq!((field(&l, "winmars"), field(&l, "losemars")), (0.0, 0.0));
        assert_eq!(field(&l, "games"), 720.0);
    }
    // Another race: White on its 9, Black on its 8 (White's 20).
    let exact = 2.0 * race_win(9, 8, &mut memo) - 1.0;
    e.run("position board 0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0 w 30 30");
    let l = e.rollout("rollout games 360 seed 5");
    let (eq, se) = (field(&l, "equity"), field(&l, "se"));
    assert!(
        se > 0.0 && (eq - exact).abs() <= 4.0 * se,
        "{l} vs {exact:.4}"
    );
}

#[test]
fn one_thread_and_several_give_the_same_lines() {
    let mut lines = Vec::new();
    for threads in [1, 2] {
        let mut e = Engine::new();
        e.run(&format!("set engine.threads {threads}"));
        let before = e.run("rollout games 40 truncate 3 seed 11 every 10");
        e.run("dice 6 5");
        let plays =
            e.run("rollout games 30 truncate 2 seed 4 every 15 moves 24/18 18/13 24/18 24/19");
        let hint = e.run("hint 2 rollout 20 truncate 2 luck off");
        lines.push((before, plays, hint));
    }
    let (before, plays, hint) = &lines[0];
    assert_eq!(before.len(), 4, "{before:?}");
    assert!(before[3].starts_with("rolloutok ") && before[3].contains(" games 40 "));
    assert_eq!(plays.len(), 2 * 2, "{plays:?}");
    assert!(plays[3].ends_with(" move 24/18 24/19"), "{plays:?}");
    assert!(hint.last().is_some_and(|l| l == "hintok"), "{hint:?}");
    for other in &lines[1..] {
        assert_eq!(&lines[0], other);
    }
}

#[test]
fn the_first_two_rolls_of_1296_trials_are_every_pair_once() {
    for seed in [0u64, 1, 12345] {
        let dice = StratifiedDice::new(seed);
        let pairs: HashSet<[(u8, u8); 2]> = (0..1296).map(|i| dice.first_two(i)).collect();
        assert_eq!(pairs.len(), 1296, "seed {seed}");
        for [a, b] in &pairs {
            assert!((1..=6).contains(&a.0) && (1..=6).contains(&a.1));
            assert!((1..=6).contains(&b.0) && (1..=6).contains(&b.1));
        }
        // And again from trial 1296 on.
        let again: HashSet<_> = (1296..2592).map(|i| dice.first_two(i)).collect();
        assert_eq!(again, pairs);
    }
    // Later rolls differ between trials, and seeds give other dice.
    let d = StratifiedDice::new(0);
    let later: HashSet<Vec<(u8, u8)>> = (0..50)
        .map(|i| d.trial(i).skip(2).take(5).collect())
        .collect();
    assert!(later.len() > 45);
    let firsts = |seed| {
        (0..36)
            .map(|i| StratifiedDice::new(seed).first_two(i))
            .collect::<Vec<_>>()
    };
    assert_ne!(firsts(1), firsts(2));
}

#[test]
fn the_luck_correction_shrinks_the_error_on_the_same_trials() {
    let mut e = Engine::new();
    // Seed 001's bear-off position: 36 pips against 48.
    e.run("position board 1,1,1,2,2,2,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2,0,0,0,0,0,0 w 20 20");
    let on = e.rollout("rollout games 144 seed 2");
    let off = e.rollout("rollout games 144 seed 2 luck off");
    // The same trials: the raw results of one are the results of the other.
    assert_eq!(field(&on, "rawequity"), field(&off, "equity"));
    assert_eq!(field(&on, "rawse"), field(&off, "se"));
    assert!(
        field(&on, "se") < 0.6 * field(&on, "rawse"),
        "luck on {on}, off {off}"
    );
    // And in the middle of a Gul bara game, truncated.
    e.run("position startpos moves 65 24/18 24/19 31 24/23 24/21 42 24/20 20/18");
    let on = e.rollout("rollout games 72 truncate 4 seed 1");
    assert!(field(&on, "se") < field(&on, "rawse"), "{on}");
}

#[test]
fn stop_ends_a_long_rollout_with_the_games_so_far() {
    let mut e = Engine::new();
    e.run("set engine.threads 2");
    let started = e.send("rollout games 1000000 truncate 2 seed 8 every 16");
    assert!(started.is_empty(), "{started:?}");
    // Stopped once it has played some games (its first report).
    e.wait_for("info rollout");
    // The session answers while the rollout runs, and refuses changes.
    assert_eq!(e.send("isready"), ["readyok"]);
    let busy = e.send("position startpos");
    assert!(
        busy[0].starts_with("error bad_state a search (rollout) is running"),
        "{busy:?}"
    );
    let stopped = e.send("stop");
    assert!(!e.session.is_searching());
    let ok: Vec<&String> = stopped
        .iter()
        .filter(|l| l.starts_with("rolloutok "))
        .collect();
    assert_eq!(ok.len(), 1, "{stopped:?}");
    let games = field(ok[0], "games") as u64;
    assert!(games < 1_000_000, "{}", ok[0]);
    // The trials kept are the first `games` ones: the same as a rollout
    // of that many games.
    if games > 0 {
        e.run("set engine.threads 1");
        let again = e.rollout(&format!("rollout games {games} truncate 2 seed 8"));
        assert_eq!(&again, ok[0]);
    }
    // hint ... rollout stops the same way: its ranking of the games so far.
    e.run("dice 6 5");
    assert!(
        e.send("hint 2 rollout 1000000 truncate 1 every 16")
            .is_empty()
    );
    e.wait_for("info rollout");
    let stopped = e.send("stop");
    assert_eq!(
        stopped.last().map(String::as_str),
        Some("hintok"),
        "{stopped:?}"
    );
    let hints: Vec<&String> = stopped.iter().filter(|l| l.starts_with("hint ")).collect();
    assert_eq!(hints.len(), 2, "{stopped:?}");
    assert_eq!(field(hints[0], "games"), field(hints[1], "games"));
    assert!(field(hints[0], "games") < 1e6);
}

#[test]
fn bad_rollouts_are_errors_and_change_nothing() {
    let mut e = Engine::new();
    e.run("position startpos moves 65 24/18 24/19");
    e.run("dice 3 1");
    let before = e.run("show");
    for (cmd, want) in [
        (
            "rollout moves 24/19",
            "error bad_value rollout moves token 1 '24/19'",
        ),
        (
            "rollout moves 24/23 24/21 24/23",
            "error bad_value rollout moves token 4 (end of list)",
        ),
        (
            "rollout moves 31 24/23",
            "error bad_value rollout moves token 1 '31'",
        ),
        (
            "rollout moves x/y",
            "error bad_value rollout moves token 1 'x/y'",
        ),
        ("rollout", "error bad_state dice are set"),
        ("rollout games 0", "error bad_value rollout games must be"),
        (
            "rollout games 99999999",
            "error bad_value rollout games must be",
        ),
        ("rollout ply 3", "error bad_value rollout ply must be 1..2"),
        ("rollout truncate x", "error bad_value rollout truncate"),
        ("rollout moves", "error bad_command rollout moves needs"),
        ("rollout games 5 junk", "error bad_command usage: rollout"),
        (
            "hint 200 rollout 5",
            "error bad_value hint rollout ranks at most",
        ),
    ] {
        let out = e.run(cmd);
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with(want), "{cmd}: {out:?}");
    }
    assert_eq!(e.run("show"), before);
    // Without dice, candidates are refused; after the game, everything.
    e.run("position startpos");
    let out = e.run("rollout moves 24/18");
    assert!(out[0].starts_with("error bad_state no dice"), "{out:?}");
    e.run("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 30 30");
    let out = e.run("rollout");
    assert_eq!(out, ["error bad_state the game is over"]);
}

#[test]
fn hint_rollout_ranks_the_hint_plays_by_their_rollouts() {
    let mut e = Engine::new();
    e.run("set engine.ply 1");
    e.run("position startpos moves 65 24/18 24/19 42 24/20 24/22");
    e.run("dice 4 2");
    let plain = e.run("hint 3");
    let rolled = e.run("hint 3 rollout 36 truncate 2 seed 1");
    let play = |l: &str| l.split(" play ").nth(1).unwrap().to_string();
    let hints: Vec<&String> = rolled.iter().filter(|l| l.starts_with("hint ")).collect();
    assert_eq!(hints.len(), 3, "{rolled:?}");
    assert_eq!(rolled.last().unwrap(), "hintok");
    let a: HashSet<String> = plain[..3].iter().map(|l| play(l)).collect();
    let b: HashSet<String> = hints.iter().map(|l| play(l)).collect();
    assert_eq!(a, b);
    for (k, w) in hints.windows(2).enumerate() {
        assert!(w[0].starts_with(&format!("hint {} equity ", k + 1)));
        assert!(field(w[0], "equity") >= field(w[1], "equity"), "{rolled:?}");
        assert!(field(w[0], "se") > 0.0);
    }
    // Progress lines name the candidates.
    let info = rolled
        .iter()
        .filter(|l| l.starts_with("info rollout ") && l.contains(" move "))
        .count();
    assert_eq!(info, 8 * 3, "{rolled:?}");
}

#[test]
fn gul_bara_remainders_and_escalating_chains_roll_out() {
    let mut e = Engine::new();
    // Black has four 2s (and four 3s ... 6s) to play before its roll.
    e.run("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 b 3 3 rem=4x2");
    let rem = e.rollout("rollout games 36 truncate 3 seed 1");
    assert!(
        field(&rem, "equity") > 0.5,
        "a remainder is worth a lot: {rem}"
    );
    assert!(field(&rem, "equity") < 2.0, "{rem}");
    // Its candidates: every stage of the remainder, then the opponent rolls.
    let out = e.run("hint 2 rollout 12 truncate 2 seed 1");
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("hint ")).collect();
    assert_eq!(hints.len(), 2, "{out:?}");
    for h in hints {
        assert!(field(h, "equity") > 0.0, "{h}");
    }
    // Past the exemption: a doublet escalates in the trials, and as the
    // dice of the root.
    e.run("position board 14,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,-1,0,0,0,1 w 5 5");
    let l = e.rollout("rollout games 72 truncate 4 seed 3");
    assert!(field(&l, "equity").abs() < 3.0, "{l}");
    e.run("dice 3 3");
    // White plays three 3s; one 3 and the 4s, 5s, 6s pass to Black.
    let l = e.rollout("rollout games 36 truncate 3 moves 24/21 21/18 18/15");
    assert!(l.ends_with(" move 24/21 21/18 18/15"), "{l}");
    assert!(field(&l, "equity").abs() < 3.0, "{l}");
    // A whole 1-1 chain from the start (24 steps) against a remainder-free one.
    e.run("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    e.run("dice 1 1");
    let out = e.run("hint 2 rollout 18 truncate 2 seed 2");
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("hint ")).collect();
    assert_eq!(hints.len(), 2, "{out:?}");
    for h in hints {
        assert!(field(h, "equity").abs() < 3.0, "{h}");
        assert!(
            h.split(" play ").nth(1).unwrap().split(' ').count() > 4,
            "{h}"
        );
    }
}
