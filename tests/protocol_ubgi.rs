//! The UBGI dialects over a pipe: the real binary started with
//! `--dialect ubgi-0.1` replays protocol/transcripts/ubgi-v0.1/, and with
//! `--dialect ubgi-draft` replays protocol/transcripts/ubgi-draft/. (A
//! native session that switches to v0.1 is in the native transcripts,
//! replayed over every transport.)

mod common;

use std::time::Duration;

use common::{LineIo, StdioEngine, replay, transcripts_in};

fn replay_all(sub: &str, args: &[&str]) {
    let files = transcripts_in(sub);
    for (name, text) in files {
        let mut e = StdioEngine::start_with(args);
        replay(&mut e, &name, &text);
        e.send("quit");
        let status = e.proc.wait_timeout(Duration::from_secs(10));
        assert!(status.is_some_and(|s| s.success()), "{name}: quit");
    }
}

#[test]
fn ubgi_v01_transcripts_replay() {
    replay_all("ubgi-v0.1", &["--dialect", "ubgi-0.1"]);
}

#[test]
fn ubgi_draft_transcripts_replay() {
    replay_all("ubgi-draft", &["--dialect", "ubgi-draft"]);
}

/// The draft has no `isready` of its own, but a board request needs no
/// `readyok` after it: each reply is one line, and nothing else is written.
#[test]
fn a_draft_session_answers_each_board_with_one_line() {
    let mut e = StdioEngine::start_with(&["--dialect", "ubgi-draft"]);
    e.send("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10");
    e.send("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
    e.send("bogus");
    assert_eq!(e.recv(), "8/5 6/5");
    assert_eq!(e.recv(), "roll");
    assert_eq!(e.recv(), "sorry");
    e.send("quit");
    assert!(e.proc.wait_timeout(Duration::from_secs(10)).is_some());
}

/// A native session that never names a game stays in Gul bara: v0.1's
/// position is refused with a clear error, never answered in another game.
#[test]
fn without_a_variant_a_v01_client_gets_a_clear_error() {
    let mut e = StdioEngine::start_with(&["--dialect", "ubgi-0.1"]);
    e.send("position gnubgid 4HPwATDgc/ABMA");
    let l = e.recv();
    assert!(
        l.starts_with("error bad_argument") && l.contains("not gulbara"),
        "{l}"
    );
    e.send("get Variant");
    assert_eq!(e.recv(), "value Variant gulbara");
    e.send("quit");
}
