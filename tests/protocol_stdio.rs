//! The protocol over a pipe: the real binary with no arguments.

mod common;

use std::time::Duration;

use common::{LineIo, StdioEngine, replay, transcripts};

#[test]
fn transcripts_replay_over_a_pipe() {
    for (name, text) in transcripts() {
        let mut e = StdioEngine::start();
        replay(&mut e, &name, &text);
        e.send("quit");
        let status = e.proc.wait_timeout(Duration::from_secs(10));
        assert!(status.is_some_and(|s| s.success()), "{name}: quit");
    }
}

#[test]
fn garbage_overlong_and_invalid_utf8_never_break_the_session() {
    let mut e = StdioEngine::start();
    e.send("position startpos moves 65 24/13");
    let before = e.ask("show", 11);
    e.send_bytes(b"\xff\xfe\xfd\n");
    assert!(e.recv().starts_with("error bad_command"));
    e.send_bytes(b"position \xc3\x28 startpos\n");
    assert!(e.recv().starts_with("error bad_command"));
    e.send_bytes(b"\x00\x01\x02 \x1b[2J\n");
    assert!(e.recv().starts_with("error bad_command"));
    e.send_bytes(b"go\tmovetime\t\t\n");
    assert!(e.recv().starts_with("error bad_command"));
    let long = vec![b'a'; 200_000];
    e.send_bytes(&long);
    e.send_bytes(b"\n");
    let l = e.recv();
    assert!(l.starts_with("error bad_command line too long"), "{l}");
    e.send("position startpos moves 65 24/13 99/1");
    assert!(e.recv().starts_with("error bad_value moves token 3"));
    e.send("dice 9 9");
    assert!(e.recv().starts_with("error bad_value"));
    e.send("position board 15,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0");
    assert!(e.recv().starts_with("error bad_value"));
    e.sync();
    // CRLF endings and runs of spaces and tabs.
    e.send_bytes(b"  \t show \t\r\n");
    let after: Vec<String> = (0..11).map(|_| e.recv()).collect();
    assert_eq!(before, after, "the position changed");
    e.sync();
}

#[test]
fn illegal_moves_leave_the_position_unchanged() {
    let mut e = StdioEngine::start();
    e.send("position startpos moves 65 24/18 24/19 31 24/23 24/21");
    let before = e.ask("show", 11);
    e.send("position startpos moves 65 24/18 24/19 31 24/23 24/23");
    let err = e.recv();
    assert!(
        err.starts_with("error bad_value moves token 6 '24/23'"),
        "{err}"
    );
    let after = e.ask("show", 11);
    assert_eq!(before, after);
}

fn chain_position(e: &mut StdioEngine) {
    // White's 1-1 past the exemption: a 24-step chain, slowest at ply 2.
    e.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    e.send("dice 1 1");
    e.sync();
}

#[test]
fn stop_during_go_infinite_gives_exactly_one_bestmove() {
    let mut e = StdioEngine::start();
    chain_position(&mut e);
    // At engine.ply 2 the search reports depths 1 and 2, then holds its
    // bestmove until stop.
    e.send("go infinite ply 2");
    let searched = e.recv_until("info depth 2 ");
    assert!(
        !searched.iter().any(|l| l.starts_with("bestmove")),
        "{searched:?}"
    );
    // The search is over, and still no bestmove comes by itself: the
    // session still counts the search as running (a second go is
    // refused), isready is answered meanwhile, and nothing else is said.
    e.send("isready");
    e.send("go");
    assert_eq!(e.recv(), "readyok");
    let refused = e.recv();
    assert!(
        refused.starts_with("error bad_state a search (go) is running"),
        "{refused}"
    );
    e.send("stop");
    let got = e.recv_until("bestmove");
    assert_eq!(got.len(), 1, "{got:?}");
    e.sync();
    // A second stop has nothing to stop.
    e.send("stop");
    e.sync();
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut e = StdioEngine::start();
    chain_position(&mut e);
    e.send("go infinite");
    e.send("quit");
    let status = e.proc.wait_timeout(Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()));
}

#[test]
fn end_of_input_lets_the_search_finish() {
    let mut e = StdioEngine::start();
    e.send("dice 6 5");
    e.send("go ply 1");
    e.close_input();
    let got = e.recv_until("bestmove");
    assert!(got.last().unwrap().starts_with("bestmove 24/"));
    let status = e.proc.wait_timeout(Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()));
}

#[test]
fn ply_3_is_a_real_2_ply_and_answers_movetime_and_stop() {
    let mut e = StdioEngine::start();
    e.send("set game.variant backgammon");
    e.send("set engine.ply 3");
    e.send("position startpos");
    e.send("dice 4 3");
    e.send("go");
    let got = e.recv_until("bestmove");
    // The 0-ply, 1-ply and 2-ply passes report in turn; the 2-ply is not
    // passed off as 1-ply any more.
    for depth in 1..=3 {
        let want = format!("info depth {depth} ");
        assert!(got.iter().any(|l| l.starts_with(&want)), "{got:?}");
    }
    assert!(!got.iter().any(|l| l.contains("searched as")), "{got:?}");
    // A short movetime in a long escalating chain still answers one move.
    e.send("set game.variant gulbara");
    chain_position(&mut e);
    e.send("go movetime 20");
    let got = e.recv_until("bestmove");
    assert_eq!(got.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    // And stop during a 2-ply search answers at once with one move.
    chain_position(&mut e);
    e.send("go infinite");
    e.send("stop");
    let got = e.recv_until("bestmove");
    assert_eq!(got.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    e.sync();
}

#[test]
fn the_variant_flag_starts_the_engine_in_that_game() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::bin())
        .arg("--variant")
        .arg("backgammon")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // gnubg's Position ID is a backgammon position: refused in Gul bara.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"get game.variant\nposition gnubgid 4HPwATDgc/ABMA\nget game.variant\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "value game.variant backgammon",
            "value game.variant backgammon"
        ]
    );
    // An unknown game is refused at once, with the names it knows.
    let bad = Command::new(common::bin())
        .args(["--variant", "chess"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("gulbara|long_nardy|short_nardy|backgammon|fevga|portes|tabla|plakoto|tapa"),
        "{err}"
    );
}
