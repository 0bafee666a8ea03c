//! The match runner against real engines (spawned and over TCP) and
//! against small misbehaving fake engines; records round-trip through
//! `gulbara replay`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::{engine_count as n, match_json as run_match, peak_rss_kib, scratch_dir};

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

fn fake(mode: &str) -> String {
    format!(
        "cmd=bash {}/tests/fixtures/fake_engine.sh {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn spawned_engines_play_and_records_replay() {
    let dir = scratch_dir("match");
    let v = run_match(
        &[
            &common::SPAWNED_PAIR[..],
            &["--games", "4", "--seed", "5", "-j", "2", "--records"],
            &[dir.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(v["games"].as_u64(), Some(4));
    assert_eq!(n(&v, "forfeits", 0) + n(&v, "forfeits", 1), 0);
    assert_eq!(
        n(&v, "wins", 0) + n(&v, "wins", 1) + v["stuck"].as_u64().unwrap(),
        4
    );
    assert!(v["ppg"].is_number() && v["se"].is_number());
    // Same engine both sides, mirrored dice: the pairs cancel exactly.
    assert_eq!(v["ppg"].as_f64(), Some(0.0));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    for f in &files {
        let out = Command::new(BIN).arg("replay").arg(f).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("ok 1 games"), "{text}");
        assert!(text.contains("Wins"), "{text}");
    }
    // A tampered record is refused.
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let bad = text.replacen(": 24/", ": 23/", 1);
    let tampered = dir.join("tampered.txt");
    std::fs::write(&tampered, bad).unwrap();
    let out = Command::new(BIN)
        .arg("replay")
        .arg(&tampered)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_over_tcp_plays() {
    // The server listens on port 0 and says where: no port to race for.
    let server = common::Server::start(&[]);
    let addr = &server.addr;
    let tcp = format!("cmd=tcp://{addr}");
    let v = run_match(&[
        "--engine",
        &tcp,
        "name=tcp",
        "option.engine.eval=heuristic",
        "option.engine.ply=1",
        "--engine",
        "cmd=builtin:heuristic",
        "name=inproc",
        "option.engine.ply=1",
        "--games",
        "2",
        "--seed",
        "9",
    ]);
    assert_eq!(v["games"].as_u64(), Some(2));
    assert_eq!(n(&v, "forfeits", 0) + n(&v, "forfeits", 1), 0);
    // The same player on both ends of a mirrored pair.
    assert_eq!(v["ppg"].as_f64(), Some(0.0));
}

/// Match arguments: `engine` (a `cmd=...` word) named `name` against the
/// baseline at 0-ply, two games from seed 4.
fn against_baseline<'a>(engine: &'a str, name: &'a str) -> Vec<&'a str> {
    vec![
        "--engine",
        engine,
        name,
        "--engine",
        "cmd=builtin:heuristic",
        "name=good",
        "option.engine.ply=1",
        "--games",
        "2",
        "--seed",
        "4",
    ]
}

fn misbehaving(mode: &str, extra: &[&str]) -> Value {
    let f = fake(mode);
    let mut args = against_baseline(&f, "name=fake");
    args.extend_from_slice(extra);
    run_match(&args)
}

#[test]
fn a_crashing_engine_forfeits_and_is_restarted() {
    let v = misbehaving("crash", &[]);
    assert_eq!(v["games"].as_u64(), Some(2));
    assert_eq!(n(&v, "forfeits", 0), 2, "{v}");
    assert_eq!(n(&v, "wins", 1), 2);
    assert!(v["ppg"].as_f64().unwrap() < 0.0);
}

#[test]
fn a_silent_engine_times_out_and_forfeits() {
    let v = misbehaving("timeout", &["--timeout-ms", "300"]);
    assert_eq!(n(&v, "forfeits", 0), 2, "{v}");
    assert_eq!(n(&v, "forfeits", 1), 0);
}

#[test]
fn an_illegal_move_forfeits_with_the_line_logged() {
    let out = Command::new(BIN)
        .args(["match", "--engine", &fake("illegal"), "name=fake"])
        .args(["--engine", "cmd=builtin:random", "name=rnd"])
        .args(["--games", "2", "--seed", "4", "--no-progress"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("forfeits 2 - 0"), "{text}");
    assert!(
        text.contains("illegal move 'bestmove 1/off 1/off'"),
        "{text}"
    );
}

/// Runs `gulbara match ARGS --no-progress`, watching its peak resident
/// size while it runs; returns stdout and the largest peak seen (kB).
fn run_match_watched(args: &[&str]) -> (String, Option<u64>) {
    use std::io::Read;
    let mut child = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--no-progress")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("match starts");
    let pid = child.id();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    // Only a guard against a hang, not a speed bound.
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut peak = None;
    let status = loop {
        if let Some(kb) = peak_rss_kib(pid) {
            peak = peak.max(Some(kb));
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the match did not finish; peak RSS so far {peak:?} kB");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    assert!(status.success(), "match failed: {err}");
    (out, peak)
}

/// 100 MB: an unbounded reader holds the 200 MB flood (twice over, as a
/// String) and shows far above it.
const RSS_BOUND_KB: u64 = 100 * 1024;

/// Two games of a flooding fake engine (`kind`: `long` or `lines`)
/// against the baseline: the summary, after checking the runner's peak memory.
fn flood_match(kind: &str, timeout_ms: &str) -> String {
    let cmd = fake(kind);
    let mut args = against_baseline(&cmd, "name=flood");
    args.extend_from_slice(&["--timeout-ms", timeout_ms]);
    let (text, peak) = run_match_watched(&args);
    if let Some(kb) = peak {
        assert!(kb < RSS_BOUND_KB, "runner peak RSS {kb} kB");
    }
    text
}

#[test]
fn an_endless_line_forfeits_with_memory_bounded() {
    // Were the line read whole, the game would still end (by timeout).
    let text = flood_match("long", "5000");
    assert!(text.contains("games 2 "), "{text}");
    assert!(text.contains("forfeits 2 - 0"), "{text}");
    assert!(text.contains("wins 0 - 2"), "{text}");
    assert!(
        text.contains("flood: engine wrote a line longer than 65536 bytes"),
        "{text}"
    );
}

#[test]
fn a_flood_of_short_lines_times_out_with_memory_bounded() {
    let text = flood_match("lines", "1500");
    assert!(text.contains("forfeits 2 - 0"), "{text}");
    assert!(text.contains("did not answer within 1500 ms"), "{text}");
}

#[test]
fn spawned_engines_play_matches_with_the_cube() {
    // The spawned engine is told the session (newsession, setscore,
    // setcube) and answers `go cube`; the referee keeps the score.
    let engine = format!("cmd={BIN}");
    let v = run_match(&[
        "--engine",
        &engine,
        "name=spawned",
        "option.engine.ply=1",
        "--engine",
        "cmd=builtin:heuristic",
        "name=base",
        "option.engine.ply=1",
        "--variant",
        "backgammon",
        "--match-to",
        "3",
        "--cube",
        "on",
        "--games",
        "4",
        "--seed",
        "9",
    ]);
    assert_eq!(v["session"], "match 3 cube on crawford on");
    assert_eq!(v["forfeits"], serde_json::json!([0, 0]), "{v}");
    let m = &v["matches"];
    assert_eq!(m["played"], 4);
    assert_eq!(
        m["wins"][0].as_u64().unwrap() + m["wins"][1].as_u64().unwrap(),
        4
    );
    let doubles = n(&v["cube"], "doubles", 0);
    let answered = ["takes", "drops", "beavers"]
        .iter()
        .map(|k| n(&v["cube"], k, 1))
        .sum::<u64>();
    assert!(doubles > 0, "the spawned engine never doubled: {v}");
    assert_eq!(doubles, answered);
    let mine = ["takes", "drops", "beavers"]
        .iter()
        .map(|k| n(&v["cube"], k, 0))
        .sum::<u64>();
    assert_eq!(n(&v["cube"], "doubles", 1), mine, "{v}");
}

#[test]
fn a_builtin_engine_that_cannot_be_set_up_stops_the_match_before_it_starts() {
    let dir = scratch_dir("builtin-setup");
    let missing = dir.join("no-such.gbnn");
    let weights = format!("option.engine.weights={}", missing.display());
    for (engine, option, said) in [
        (
            "cmd=builtin:net",
            weights.as_str(),
            "engine cand: cannot start engine: engine.weights",
        ),
        (
            "cmd=builtin:chess",
            "option.engine.ply=1",
            "engine cand: cannot start engine: unknown builtin player 'chess'",
        ),
        (
            "cmd=builtin:net",
            "option.engine.ply=9",
            "engine cand: cannot start engine",
        ),
    ] {
        for rotation in [
            &[][..],
            &["--rotation", "portes,plakoto,fevga", "--match-to", "3"],
        ] {
            let out = Command::new(BIN)
                .args([
                    "match",
                    "--variant",
                    "plakoto",
                    "--engine",
                    engine,
                    "name=cand",
                    option,
                ])
                .args([
                    "--engine",
                    "cmd=builtin:net",
                    "name=other",
                    "--games",
                    "20",
                    "--no-progress",
                ])
                .args(rotation)
                .output()
                .expect("match runs");
            assert!(!out.status.success(), "{engine} {option} was accepted");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(said), "{engine} {option}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            assert!(
                out.stdout.is_empty(),
                "no games reported: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}

#[test]
fn bad_session_flags_are_refused() {
    for args in [
        &["--match-to", "0"][..],
        &["--match-to", "100"],
        &["--match-to", "5", "--jacoby"],
        &["--jacoby"],
        &["--cube", "maybe"],
        &["--match-to", "5", "--sprt", "0,0.1"],
    ] {
        let out = Command::new(BIN)
            .arg("match")
            .args(common::RANDOM_PAIR)
            .args(["--games", "2", "--no-progress"])
            .args(args)
            .output()
            .expect("match runs");
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}: no message");
    }
}

#[test]
fn analyse_finds_no_cube_error_of_the_judge_itself() {
    // The network at engine.ply 1 played with the cube; analysed by that
    // same network at --ply 1, its cube decisions are the judge's own.
    let dir = scratch_dir("cube-analyse");
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "backgammon",
            "--match-to",
            "5",
            "--games",
            "2",
            "--seed",
            "1",
            "--no-progress",
        ])
        .args(common::NET_VS_BASE)
        .arg("--records")
        .arg(&dir)
        .output()
        .expect("match runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut net_decisions = 0;
    for n in 1..=2 {
        let text = analyse(&dir.join(format!("match-{n:06}.txt")), &[]);
        net_decisions += net_cube_decisions_without_error(&text);
        assert!(text.contains(" cube: "), "{text}");
    }
    assert!(net_decisions > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gulbara analyse FILE --ply 1 MORE...`: its standard output (it must
/// succeed).
fn analyse(file: &std::path::Path, more: &[&str]) -> String {
    let mut args = vec![
        std::ffi::OsStr::new("analyse"),
        file.as_os_str(),
        "--ply".as_ref(),
        "1".as_ref(),
    ];
    args.extend(more.iter().map(std::ffi::OsStr::new));
    common::gulbara_stdout(std::path::Path::new("."), &args)
}

/// How many cube decisions of the player `net` an analysis counts, none
/// of them an error (it fails otherwise).
fn net_cube_decisions_without_error(text: &str) -> u32 {
    let line = text
        .lines()
        .find(|l| l.starts_with("player net: cube decisions"))
        .unwrap_or_else(|| panic!("no cube line for net:\n{text}"));
    assert!(
        line.contains(
            "missed doubles 0 wrong doubles 0 wrong takes 0 wrong passes 0 total loss 0.000"
        ),
        "{line}"
    );
    line.split_whitespace()
        .nth(4)
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no count in {line}"))
}

/// `analyse --cube-efficiency` judges the cube as an engine with that
/// `engine.cube_efficiency` decides: a network that played at 30 makes no
/// cube error in the eyes of the same network at 30, and the cube
/// decisions' equities are not those of the default (72).
#[test]
fn analyse_judges_the_cube_at_the_efficiency_it_is_given() {
    let dir = scratch_dir("cube-efficiency-analyse");
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "backgammon",
            "--games",
            "2",
            "--seed",
            "3",
            "--cube",
            "on",
            "--no-progress",
            "--engine",
            "cmd=builtin:net",
            "name=net",
            "option.engine.ply=1",
            // Its cube at 0-ply too, as `analyse --ply 1` judges it.
            "option.engine.cube_min_ply=1",
            "option.engine.cube_efficiency=30",
            "--engine",
            "cmd=builtin:heuristic",
            "name=baseline",
            "option.engine.ply=1",
        ])
        .arg("--records")
        .arg(&dir)
        .output()
        .expect("match runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cube_lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(" cube: "))
            .map(str::to_owned)
            .collect()
    };
    let mut decisions = 0;
    let mut differ = false;
    for n in 1..=2 {
        let file = dir.join(format!("game-{n:06}.txt"));
        let at30 = analyse(&file, &["--cube-efficiency", "30"]);
        decisions += net_cube_decisions_without_error(&at30);
        differ |= cube_lines(&at30) != cube_lines(&analyse(&file, &[]));
    }
    assert!(decisions > 0);
    assert!(differ, "the cube equities at 30 are those at the default");
    for bad in ["101", "x", "0.7"] {
        let out = Command::new(BIN)
            .args(["analyse", "--cube-efficiency", bad])
            .arg(dir.join("game-000001.txt"))
            .output()
            .expect("analyse runs");
        assert!(!out.status.success(), "--cube-efficiency {bad} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--cube-efficiency"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gulbara merge FILES --json`, its report (panics when it fails).
fn merged(files: &[&std::path::Path]) -> Value {
    let mut args: Vec<&std::ffi::OsStr> = vec!["merge".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    args.push("--json".as_ref());
    serde_json::from_str(&common::gulbara_stdout(std::path::Path::new("."), &args)).unwrap()
}

/// `gulbara match` of the baseline (`h`) against random moves (`rnd`),
/// `games` games from `seed` in one process, its shard written to `out`.
fn heuristic_vs_random(games: u32, seed: u64, out: &std::path::Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(["match", "--engine", "cmd=builtin:heuristic", "name=h"])
        .args(["--engine", "cmd=builtin:random", "name=rnd"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .args(["-j", "1", "--no-progress", "--out"])
        .arg(out);
    c
}

#[test]
fn a_stopped_matchs_out_file_holds_the_pairs_it_finished() {
    let dir = scratch_dir("partial-out");
    let file = dir.join("m.json");
    // Far more pairs than play before the kill below: the baseline
    // against random moves, in one process.
    let mut child = heuristic_vs_random(200_000, 5135, &file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait (with a generous bound) until the file reports a pair; it is
    // written whole each time (temp file and rename), so it always parses.
    let start = Instant::now();
    let pairs_in = |v: &Value| v["pairs"].as_array().map_or(0, Vec::len);
    loop {
        if let Ok(text) = std::fs::read_to_string(&file) {
            let v: Value = serde_json::from_str(&text).expect("a whole JSON file");
            if pairs_in(&v) >= 1 {
                break;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no pair written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the match ended by itself"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let got = pairs_in(&v);
    assert!(got >= 1);
    assert_eq!(v["partial"], Value::Bool(true), "{v}");
    // Merge counts every pair of the file and says the match is partial.
    let m = merged(&[&file]);
    assert_eq!(m["games"].as_u64(), Some(2 * got as u64), "{m}");
    assert_eq!(m["partial"]["pairs"].as_u64(), Some(got as u64), "{m}");
    assert_eq!(m["partial"]["of"].as_u64(), Some(100_000), "{m}");
    let text = common::gulbara_stdout(
        std::path::Path::new("."),
        &[std::ffi::OsStr::new("merge"), file.as_os_str()],
    );
    assert!(
        text.contains(&format!("partial: {got} of 100000 pairs")),
        "{text}"
    );
    // A run that ends writes the whole shard, as it always has: no
    // `partial` field, and merge reads it as the whole match.
    let whole = dir.join("whole.json");
    let out = heuristic_vs_random(4, 5136, &whole).output().unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&whole).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert!(v.get("partial").is_none(), "{text}");
    assert_eq!(pairs_in(&v), 2);
    // (Since 2026-12-07 the engines' options are recorded too, here none.)
    assert!(text.starts_with(r#"{"engines":["h","rnd"],"format":"gulbara-match-shard-1","games":4,"luck_adjust":false,"options":[[],[]],"pairs":[{"#), "{text}");
    assert!(text.ends_with("\"variant\":\"gulbara\"}\n"), "{text}");
    assert!(!dir.join("whole.json.tmp").exists());
    let m = merged(&[&whole]);
    assert_eq!(m["games"].as_u64(), Some(4));
    assert!(m.get("partial").is_none(), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gulbara match` of random moves (`rnd`) against this build's binary
/// (`net`, at engine.ply 1) behind tests/fixtures/gated_engine.sh: `net`
/// stops answering at its 100th move until the file `gate` exists. 40
/// games from seed 5222 (unless `more` gives `--games` or `--seed`), one
/// process, the shard written to `out`; the `more` arguments after those.
fn gated_match(gate: &std::path::Path, out: &std::path::Path, more: &[&str]) -> Command {
    let gated = format!(
        "cmd=bash {}/tests/fixtures/gated_engine.sh {} 100 {BIN}",
        env!("CARGO_MANIFEST_DIR"),
        gate.display()
    );
    let mut c = Command::new(BIN);
    c.args(["match", "--engine", "cmd=builtin:random", "name=rnd"])
        .args(["--engine", &gated, "name=net", "option.engine.ply=1"]);
    for (flag, default) in [("--games", "40"), ("--seed", "5222")] {
        if !more.contains(&flag) {
            c.args([flag, default]);
        }
    }
    c.args(["-j", "1", "--no-progress"])
        // The gated engine waits for the kill; it must not forfeit first.
        .args(["--timeout-ms", "600000", "--json", "--out"])
        .arg(out)
        .args(more)
        .stdin(Stdio::null());
    c
}

/// Runs a command to its end: its standard output (the test fails, with
/// its standard error, if it fails).
fn succeeds(mut c: Command) -> (String, String) {
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{c:?}: {}\n{err}", out.status);
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

#[test]
fn a_killed_match_resumed_ends_as_an_uninterrupted_run() {
    let dir = scratch_dir("resume");
    let gate = dir.join("gate");
    let file = dir.join("m.json");
    let pairs_in = |f: &std::path::Path| -> Option<(usize, Value)> {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(f).ok()?).ok()?;
        Some((v["pairs"].as_array()?.len(), v))
    };
    // The run to stop: once its file holds a pair, it is killed (it cannot
    // have ended: the gated engine waits, short of the match's moves).
    let mut child = common::Proc(
        gated_match(&gate, &file, &[])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    common::wait_until("a pair in the --out file", || {
        pairs_in(&file).is_some_and(|(n, _)| n >= 1)
    });
    assert!(
        child.0.try_wait().unwrap().is_none(),
        "the match ended by itself"
    );
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    let (got, v) = pairs_in(&file).unwrap();
    assert!((1..20).contains(&got), "{v}");
    assert_eq!(v["partial"], Value::Bool(true), "{v}");
    let stopped = std::fs::read_to_string(&file).unwrap();
    // Foreign files and other matches' files are refused, and left as
    // they are.
    let refused = |out: &std::path::Path, more: &[&str], want: &str| {
        let o = gated_match(&gate, out, more).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{more:?} accepted: {err}");
        assert!(err.contains(want), "{more:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    for (more, want) in [
        (
            &["--resume", "--seed", "5223"][..],
            "its seed is 5222, this run's is 5223",
        ),
        (
            &["--resume", "--games", "42"][..],
            "its games is 40, this run's is 42",
        ),
        (
            &["--resume", "--shard", "1/2"][..],
            "its shard is 0/1, this run's is 1/2",
        ),
        (
            &["--resume", "--luck-adjust"][..],
            "its luck_adjust is false, this run's is true",
        ),
        (
            &["--resume", "--rule", "exempt_rolls=1"][..],
            "its rules is",
        ),
        (
            &["--resume", "--variant", "fevga"][..],
            "its variant is gulbara, this run's is fevga",
        ),
        (&["--resume", "--sprt", "0,0.1"][..], "--sprt"),
    ] {
        refused(&file, more, want);
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stopped);
    let renamed = dir.join("renamed.json");
    std::fs::write(
        &renamed,
        stopped.replace(r#"["rnd","net"]"#, r#"["rnd","other"]"#),
    )
    .unwrap();
    refused(
        &renamed,
        &["--resume"],
        "its engines is rnd vs other, this run's is rnd vs net",
    );
    let foreign = dir.join("foreign.json");
    for text in ["", "{", r#"{"format":"gulbara-rollout-shard-1"}"#, "[1,2]"] {
        std::fs::write(&foreign, text).unwrap();
        refused(&foreign, &["--resume"], "not a gulbara match shard");
    }
    // Resumed (the gate open now), it plays the pairs the file lacks.
    std::fs::write(&gate, "").unwrap();
    let (resumed, err) = succeeds(gated_match(&gate, &file, &["--resume"]));
    assert!(
        err.contains(&format!("{got} of its 20 pairs are there")),
        "{err}"
    );
    // The same match in one go: the same file, byte for byte, and report.
    let whole = dir.join("whole.json");
    let (uninterrupted, _) = succeeds(gated_match(&gate, &whole, &[]));
    let (text, want) = (
        std::fs::read_to_string(&file).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
    );
    assert!(text == want, "resumed:\n{text}\nuninterrupted:\n{want}");
    assert_eq!(pairs_in(&file).unwrap().0, 20);
    assert!(pairs_in(&file).unwrap().1.get("partial").is_none());
    assert_eq!(resumed, uninterrupted);
    let report: Value = serde_json::from_str(&resumed).unwrap();
    assert_eq!(report["games"].as_u64(), Some(40), "{report}");
    // A finished file is not played again: its report, the file as it was.
    let (again, err) = succeeds(gated_match(&gate, &file, &["--resume"]));
    assert!(err.contains("has every pair: nothing to play"), "{err}");
    assert_eq!(again, uninterrupted);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), want);
    // With no file, --resume starts the match afresh.
    let fresh = dir.join("fresh.json");
    let (first, _) = succeeds(gated_match(&gate, &fresh, &["--resume"]));
    assert_eq!(first, uninterrupted);
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), want);
    std::fs::remove_dir_all(&dir).unwrap();
}
