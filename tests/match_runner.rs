//! The match runner against real engines (spawned and over TCP) and
//! against small misbehaving fake engines; records round-trip through
//! `gulbara replay`.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

fn fake(mode: &str) -> String {
    format!(
        "cmd=bash {}/tests/fixtures/fake_engine.sh {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs `gulbara match ... --json` and returns the summary.
fn run_match(args: &[&str]) -> Value {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .args(["--json", "--no-progress"])
        .output()
        .expect("match runs");
    assert!(
        out.status.success(),
        "match failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("bad JSON '{text}': {e}"))
}

fn n(v: &Value, key: &str, i: usize) -> u64 {
    v[key][i].as_u64().unwrap()
}

#[test]
fn spawned_engines_play_and_records_replay() {
    let dir = std::env::temp_dir().join(format!("gulbara-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = format!("cmd={BIN}");
    let v = run_match(&[
        "--engine",
        &engine,
        "name=a",
        "option.engine.ply=1",
        "--engine",
        &engine,
        "name=b",
        "option.engine.ply=1",
        "--games",
        "4",
        "--seed",
        "5",
        "-j",
        "2",
        "--records",
        dir.to_str().unwrap(),
    ]);
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

struct Server(Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn engine_over_tcp_plays() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let addr = format!("127.0.0.1:{port}");
    let _server = Server(
        Command::new(BIN)
            .args(["serve", "--listen", &addr])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < deadline, "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
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

fn misbehaving(mode: &str, extra: &[&str]) -> Value {
    let f = fake(mode);
    let mut args = vec![
        "--engine",
        &f,
        "name=fake",
        "--engine",
        "cmd=builtin:heuristic",
        "name=good",
        "option.engine.ply=1",
        "--games",
        "2",
        "--seed",
        "4",
    ];
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
