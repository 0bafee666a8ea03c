//! The rule readings where the sources disagree (Fevga's `prime` and
//! `start_rule`, Plakoto's and Tapa's `pinned_bearoff` and `mother_timing`)
//! end to end: the protocol lists, sets, reads back and refuses them and
//! plays hand-built positions by them; the match runner passes them to real
//! engine processes and writes them in records' `Rules` line, which
//! `replay` reads back; the FIBS bot refuses them (it plays backgammon).
//! Positions are position text in White's numbering (docs/RULES.md,
//! protocol/NOTATION.md); every expectation was worked out by hand.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// The engine's answer to a protocol script on stdin (it ends at `quit`).
fn protocol(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gulbara runs");
    let mut stdin = child.stdin.take().unwrap();
    for line in script.iter().chain(&["quit"]) {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The `legal` answers of a script: per `legal`, its `play` lines and count.
fn legal_answers(lines: &[String]) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut plays = Vec::new();
    for l in lines {
        if let Some(p) = l.strip_prefix("play ") {
            plays.push(p.to_string());
        } else if let Some(rest) = l.strip_prefix("legal count ") {
            let n = rest.split(' ').next().unwrap().parse().unwrap();
            out.push((std::mem::take(&mut plays), n));
        }
    }
    out
}

#[test]
fn the_protocol_lists_sets_and_refuses_the_options() {
    let lines = protocol(&[
        "set game.variant fevga",
        "keys",
        "get rules.prime",
        "get rules.start_rule",
        "set rules.prime ban",
        "set rules.start_rule quarter",
        "get rules.prime",
        "get rules.start_rule",
        "set rules.prime wall",
        "get rules.prime",
        "set rules.pinned_bearoff home",
        "set game.variant tapa",
        "keys",
        "get rules.pinned_bearoff",
        "get rules.mother_timing",
        "set rules.mother_timing end",
        "get rules.mother_timing",
        "set rules.prime ban",
        "set game.variant backgammon",
        "set rules.mother_timing end",
    ]);
    let has = |l: &str| lines.iter().any(|x| x == l);
    let starts = |p: &str| lines.iter().filter(|x| x.starts_with(p)).count();
    assert_eq!(
        starts("key rules.prime enum duty|ban duty "),
        1,
        "{lines:?}"
    );
    assert_eq!(starts("key rules.start_rule enum pass|quarter pass "), 1);
    assert!(has("value rules.prime duty"), "{lines:?}");
    assert!(has("value rules.start_rule pass"));
    assert!(has("value rules.prime ban"));
    assert!(has("value rules.start_rule quarter"));
    // A bad value changes nothing; another game's option is refused.
    assert_eq!(
        starts("error bad_value rules.prime must be one of duty|ban, got 'wall'"),
        1
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| *l == "value rules.prime ban")
            .count(),
        2,
        "{lines:?}"
    );
    assert_eq!(
        starts("error bad_value rules.pinned_bearoff is not an option of fevga"),
        1
    );
    assert_eq!(starts("key rules.pinned_bearoff enum home|refuse home "), 1);
    assert_eq!(starts("key rules.mother_timing enum step|end step "), 1);
    assert!(has("value rules.pinned_bearoff home"));
    assert!(has("value rules.mother_timing step"));
    assert!(has("value rules.mother_timing end"));
    assert_eq!(
        starts("error bad_value rules.prime is not an option of tapa"),
        1
    );
    assert_eq!(
        starts("error bad_value rules.mother_timing is not an option of backgammon"),
        1
    );
}

/// Fevga, White to play 1-1: White holds its 14..18 and a checker on 20;
/// Black has 10 on its start (White's 12) and 5 on its 20 (White's 8),
/// both behind. 20/19 makes six in a row (14..19) with every black checker
/// behind: `duty` allows it (Black is not all on the point behind), `ban`
/// does not, so `duty` has more plays.
#[test]
fn fevga_prime_by_the_protocol() {
    let pos = "position board 0,0,0,0,9,0,0,-5,0,0,0,-10,0,1,1,1,1,1,0,1,0,0,0,0 w 9 9";
    let lines = protocol(&[
        "set game.variant fevga",
        pos,
        "dice 1 1",
        "legal",
        "set rules.prime ban",
        pos,
        "dice 1 1",
        "legal",
    ]);
    let answers = legal_answers(&lines);
    assert_eq!(answers.len(), 2, "{lines:?}");
    let (duty, ban) = (&answers[0], &answers[1]);
    assert!(duty.1 > ban.1, "{lines:?}");
    // The prime with the other three ones played from 5: 20/19 5/4(3).
    let prime = |plays: &[String]| plays.iter().any(|p| p == "20/19 5/4 5/4 5/4");
    assert!(prime(&duty.0), "{:?}", duty.0);
    assert!(!prime(&ban.0), "{:?}", ban.0);
}

/// Fevga, White to play 6-1 with 14 on its start and the runner on 13;
/// Black's start (White's 12) is empty. Under `quarter` 13/12 reaches the
/// opponent's starting quarter and frees the start for 24/18; under `pass`
/// it does not.
#[test]
fn fevga_start_rule_by_the_protocol() {
    let pos = "position board 0,0,0,0,0,0,0,-15,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,14 w 9 9";
    let lines = protocol(&[
        "set game.variant fevga",
        "set rules.prime ban",
        pos,
        "dice 6 1",
        "legal",
        "set rules.start_rule quarter",
        pos,
        "dice 6 1",
        "legal",
    ]);
    let answers = legal_answers(&lines);
    assert_eq!(answers.len(), 2, "{lines:?}");
    let both = |plays: &[String]| {
        plays
            .iter()
            .any(|p| p.contains("13/12") && p.contains("24/18"))
    };
    assert!(!both(&answers[0].0), "{:?}", answers[0].0);
    assert!(both(&answers[1].0), "{:?}", answers[1].0);
}

/// Plakoto, White to play 2-1 with 5, 5 and 4 on its 1, 2 and 3 and a
/// checker on its 5 pinned under a black one; Black's 14 others on White's
/// 12. `home` bears off around the pinned checker; `refuse` moves within
/// the home only.
#[test]
fn plakoto_pinned_bearoff_by_the_protocol() {
    let pos = "position board 5,5,4,0,-1,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0,0,0,0 w 9 9 pins=5";
    let lines = protocol(&[
        "set game.variant plakoto",
        pos,
        "dice 2 1",
        "legal",
        "set rules.pinned_bearoff refuse",
        pos,
        "dice 2 1",
        "legal",
    ]);
    let answers = legal_answers(&lines);
    assert_eq!(answers.len(), 2, "{lines:?}");
    let off = |plays: &[String]| plays.iter().filter(|p| p.contains("/off")).count();
    assert!(off(&answers[0].0) > 0, "{:?}", answers[0].0);
    assert_eq!(off(&answers[1].0), 0, "{:?}", answers[1].0);
}

/// Plakoto, White to play 6-5: Black's mother alone on White's 1, White
/// with none on its own start. 6/1 pins it: at the step the game ends
/// there (a play of one step); at the end the 6 must be played too.
#[test]
fn plakoto_mother_timing_by_the_protocol() {
    let pos = "position board -1,0,0,0,0,10,0,5,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0 w 9 9";
    let lines = protocol(&[
        "set game.variant plakoto",
        pos,
        "dice 6 5",
        "legal",
        "set rules.mother_timing end",
        pos,
        "dice 6 5",
        "legal",
    ]);
    let answers = legal_answers(&lines);
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(
        answers[0].0.iter().any(|p| p == "6/1"),
        "{:?}",
        answers[0].0
    );
    assert!(
        !answers[1].0.iter().any(|p| p == "6/1"),
        "{:?}",
        answers[1].0
    );
    assert!(answers[1].0.iter().all(|p| p.split(' ').count() == 2));
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("gulbara runs")
}

/// A two-game match of `variant` with `rules` between two engine processes
/// (the gulbara binary at 0-ply): the engines are told the rules (the
/// referee refuses a turn they forbid), the records carry them, and
/// `replay` reads the records back.
fn match_with_rules(variant: &str, rules: &[&str], want_tag: &str) {
    let dir = common::scratch_dir(&format!("readings-{variant}"));
    let mut args = vec!["match", "--variant", variant];
    args.extend(common::SPAWNED_PAIR);
    args.extend([
        "--games",
        "2",
        "--seed",
        "5",
        "--records",
        dir.to_str().unwrap(),
        "--json",
        "--no-progress",
    ]);
    for r in rules {
        args.extend_from_slice(&["--rule", r]);
    }
    let out = run(&args);
    assert!(
        out.status.success(),
        "match failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    // Neither engine ever played a turn the rules forbid.
    assert_eq!(summary["forfeits"], serde_json::json!([0, 0]), "{summary}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.contains(want_tag), "{text}");
        let replay = run(&["replay", f.to_str().unwrap()]);
        assert!(
            replay.status.success(),
            "replay {}: {}",
            f.display(),
            String::from_utf8_lossy(&replay.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_match_runner_plays_and_records_fevgas_readings() {
    match_with_rules(
        "fevga",
        &["prime=ban", "start_rule=quarter"],
        "; [Rules \"variant=fevga opening=reroll six_block=end_of_turn prime=ban start_rule=quarter\"]",
    );
}

#[test]
fn the_match_runner_plays_and_records_plakotos_readings() {
    match_with_rules(
        "plakoto",
        &["pinned_bearoff=refuse", "mother_timing=end"],
        "; [Rules \"variant=plakoto opening=reroll pinned_bearoff=refuse mother_timing=end\"]",
    );
}

#[test]
fn the_match_runner_refuses_another_games_reading() {
    let out = run(&["match", "--variant", "plakoto"]
        .into_iter()
        .chain(common::RANDOM_PAIR)
        .chain([
            "--games",
            "2",
            "--rule",
            "prime=duty",
            "--json",
            "--no-progress",
        ])
        .collect::<Vec<_>>());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("prime is not a rule option of plakoto"),
        "{err}"
    );
}

/// The FIBS bot plays backgammon: a Fevga or Plakoto reading is refused
/// before it connects (the server named is never reached).
#[test]
fn the_fibs_bot_refuses_the_readings() {
    for (set, game) in [
        ("rules.prime=duty", "prime"),
        ("rules.pinned_bearoff=refuse", "pinned_bearoff"),
    ] {
        let out = run(&[
            "fibs",
            "--server",
            "127.0.0.1:1",
            "--user",
            "bot",
            "--password",
            "pw",
            "--set",
            set,
        ]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("rules.{game} is not an option of backgammon")),
            "{err}"
        );
    }
}
