//! Every variant plays complete games through the protocol: the real binary
//! over a pipe (and one game over TCP) plays both sides with seeded dice, each
//! turn's `bestmove` words appended to the `position ... moves` list, until
//! `show` reports the result. The engine's own words must always read back.

mod common;

use common::{LineIo, Server, StdioEngine};

/// A small seeded generator (the test must not depend on `rand`'s streams).
struct Dice(u64);

impl Dice {
    fn die(&mut self) -> u8 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % 6) as u8 + 1
    }
}

/// The `show` lines of the current position (up to `showok`).
fn show(io: &mut dyn LineIo) -> Vec<String> {
    io.send("show");
    let mut lines = Vec::new();
    loop {
        let l = io.recv();
        if l == "showok" {
            return lines;
        }
        lines.push(l);
    }
}

/// Plays one whole game of `variant` and returns the points and the turns.
fn play_game(io: &mut dyn LineIo, variant: &str, seed: u64) -> (u8, usize) {
    play_game_checking(io, variant, seed, &mut |_| {})
}

/// [`play_game`], calling `check` before each roll.
fn play_game_checking(
    io: &mut dyn LineIo,
    variant: &str,
    seed: u64,
    check: &mut dyn FnMut(&mut dyn LineIo),
) -> (u8, usize) {
    io.send(&format!("set game.variant {variant}"));
    io.send("set engine.ply 1");
    io.sync();
    let mut dice = Dice(seed);
    let mut moves: Vec<String> = Vec::new();
    for turn in 0..2000 {
        let lines = show(io);
        if let Some(r) = lines.iter().find(|l| l.starts_with("result ")) {
            let points: u8 = r
                .rsplit(' ')
                .next()
                .and_then(|p| p.parse().ok())
                .expect("points");
            assert!(r.starts_with("result winner "), "{r}");
            return (points, turn);
        }
        if variant != "gulbara" {
            assert!(lines.contains(&format!("variant {variant}")), "{lines:?}");
        }
        // A Gul bara remainder is played before the roll, without dice.
        let remainder = lines.iter().any(|l| l.starts_with("pending remainder"));
        check(io);
        if !remainder {
            let (a, b) = (dice.die(), dice.die());
            io.send(&format!("dice {a} {b}"));
            moves.push(format!("{a}{b}"));
        }
        io.send("go");
        let best = loop {
            let l = io.recv();
            if let Some(b) = l.strip_prefix("bestmove ") {
                break b.to_string();
            }
            assert!(l.starts_with("info "), "{variant} turn {turn}: {l}");
        };
        if best != "pass" {
            moves.extend(best.split(' ').map(str::to_string));
        }
        // The whole game so far as one move list: the engine's own words
        // must read back as a legal continuation.
        io.send(&format!("position startpos moves {}", moves.join(" ")));
        io.sync();
    }
    panic!("{variant}: no result after 2000 turns");
}

#[test]
fn every_variant_plays_whole_games_over_a_pipe() {
    for (variant, max_points) in [
        ("gulbara", 2),
        ("long_nardy", 2),
        ("short_nardy", 2),
        ("backgammon", 3),
    ] {
        let mut e = StdioEngine::start();
        for seed in 1..=2 {
            let (points, turns) = play_game(&mut e, variant, seed);
            assert!((1..=max_points).contains(&points), "{variant}: {points}");
            assert!(turns > 10, "{variant}: a game of {turns} turns");
        }
        e.send("quit");
    }
}

#[test]
fn a_backgammon_game_over_tcp() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    let (points, _) = play_game(&mut c, "backgammon", 7);
    assert!((1..=3).contains(&points));
}

/// The values of `eval`'s line by word: `win`, `winmars`, ... .
fn evaluation(io: &mut dyn LineIo) -> Vec<(String, f64)> {
    io.send("eval");
    let line = loop {
        let l = io.recv();
        if l.starts_with("evaluation ") {
            break l;
        }
        assert!(l.starts_with("info "), "{l}");
    };
    let words: Vec<&str> = line.split(' ').skip(1).collect();
    words
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv[1].parse().expect("a number")))
        .collect()
}

/// `eval` in the games without backgammons (Portes and Tabla play
/// backgammon's network, whose backgammon outputs are not 0) shows no
/// backgammon chances and an equity of `2·win − 1 + winmars − losemars`;
/// in backgammon it shows them and counts them. Before every roll of a
/// whole game each (the printed chances are rounded to 4 decimals).
#[test]
fn eval_counts_backgammons_only_where_the_game_scores_them() {
    let mut e = StdioEngine::start();
    for (variant, seed) in [
        ("portes", 5151),
        ("tabla", 5152),
        ("plakoto", 5153),
        ("backgammon", 5154),
    ] {
        let mut seen = 0;
        play_game_checking(&mut e, variant, seed, &mut |io| {
            let ev = evaluation(io);
            let keys: Vec<&str> = ev.iter().map(|(k, _)| k.as_str()).collect();
            let v = |k: &str| ev.iter().find(|(w, _)| w == k).map(|(_, x)| *x);
            let bg = variant == "backgammon";
            let mut want = vec!["win", "winmars", "losemars"];
            if bg {
                want.extend(["winbg", "losebg"]);
            }
            want.push("equity");
            if bg {
                // Backgammon is played with the cube: the cubeful equity last.
                want.push("cubeful");
            }
            assert_eq!(keys, want, "{variant}");
            let p = |k| v(k).expect("present");
            let mut equity = 2.0 * p("win") - 1.0 + p("winmars") - p("losemars");
            if bg {
                equity += p("winbg") - p("losebg");
            }
            assert!((p("equity") - equity).abs() < 3e-4, "{variant}: {ev:?}");
            seen += 1;
        });
        assert!(seen > 10, "{variant}: {seen} evaluations");
    }
    e.send("quit");
}
