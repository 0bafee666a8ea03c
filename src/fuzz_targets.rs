//! Fuzz targets: one function per input format the engine reads, each
//! taking raw bytes, doing the work and checking its invariants with
//! `assert!`, so that a fuzzer sees every violation as a panic.
//!
//! The cargo-fuzz project in `fuzz/` (nightly) calls these functions, and
//! `tests/fuzz_smoke.rs` calls them on stable with random and mutated
//! inputs; `docs/FUZZING.md` says how to run both. The targets never
//! search, never start threads and never read a file their input names,
//! and each caps how much of its input it reads, so one call stays cheap.
//!
//! - [`protocol_lines`]: protocol lines through a [`Session`] over its
//!   [`crate::engine::Engine`], no searches.
//! - [`position_text`]: position text, parsed, written and parsed again.
//! - [`move_list`]: a move list applied to the start or a given position.
//! - [`record`]: a game record, replayed as `gulbara replay` does.
//! - [`weights`]: a weights file, read, written and evaluated.
//! - [`clip_lines`]: the lines a FIBS server sends the FIBS bot.
//! - [`fibs_board`]: one FIBS board line, as FIBS and as gnubg write it.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use crate::eval::Evaluator;
use crate::eval::net::{INPUTS, Net, OUTPUTS};
use crate::notation::{apply_moves, parse_state, parse_state_text, state_text};
use crate::protocol::{Command, FileAccess, Flow, Output, Session, SessionConfig, parse_command};
use crate::rules::options::{ExemptScope, Opening, RemainderRule};
use crate::rules::position::CHECKERS;
use crate::rules::state::STUCK_LIMIT;
use crate::rules::{Checkers, GameState, Pending, RuleOptions, Side};

/// At most this many protocol lines are fed to the session per input.
pub const MAX_LINES: usize = 64;
/// Longer protocol lines are answered as a transport answers an overlong line.
pub const MAX_LINE_BYTES: usize = 4096;
/// At most this many move tokens are applied per input.
pub const MAX_TOKENS: usize = 256;
/// Position texts and records longer than this many bytes are cut.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;

/// The largest roll count position text accepts: a state whose side has
/// rolled more often is written out fine but cannot be read back.
const MAX_TEXT_ROLLS: u32 = 100_000;

fn text_of(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(&data[..data.len().min(MAX_TEXT_BYTES)])
}

/// Checks that one side's checkers are a real set of 15: no carry between
/// nibbles (the nibbles sum to 15) and nothing beyond the bar (nibble 25).
fn check_checkers(c: Checkers, who: &str, pins: bool) {
    // Beyond the bar only the pinning games' pin marks.
    let beyond = if pins { c.unpinned().0 } else { c.0 };
    assert_eq!(beyond >> (4 * 26), 0, "{who}: bits beyond the bar: {c:?}");
    let total: u32 = (0..=25u32).map(|p| ((c.0 >> (4 * p)) & 0xF) as u32).sum();
    assert_eq!(total, u32::from(CHECKERS), "{who}: {total} checkers: {c:?}");
}

/// The state `parse_state_text(state_text(s))` must give back: the text
/// does not hold a rolled roll's dice (a rolled roll or the first stage of
/// a chain), so those read back as "to roll".
fn as_text_reads_back(s: &GameState) -> GameState {
    let mut t = *s;
    if matches!(
        s.pending,
        Pending::Roll2 { .. } | Pending::Chain { first: true, .. }
    ) {
        t.pending = Pending::Roll;
        t.moved_this_turn = false;
    }
    t
}

/// Checks the invariants of a game state: 15 checkers a side, one colour
/// per point, the game not over for both, the pending stage well formed
/// (none once the game is over), the stuck count in range, and the
/// position text round trip.
pub fn check_state(s: &GameState) {
    let pins = s.variant.spec().landing == crate::rules::Landing::Pin;
    check_checkers(s.pos.own, "mover", pins);
    check_checkers(s.pos.opp, "opponent", pins);
    if let Err(why) = crate::rules::ruleset::check_position(s.variant, s.pos) {
        panic!("{why}: {s:?}");
    }
    assert!(
        s.pos.own.off() < CHECKERS || s.pos.opp.off() < CHECKERS,
        "both sides have borne off: {s:?}"
    );
    assert!(s.stuck <= STUCK_LIMIT, "stuck count {}", s.stuck);
    let die = 1..=6u8;
    match s.pending {
        Pending::Roll => assert!(!s.moved_this_turn, "moved before rolling: {s:?}"),
        Pending::Roll2 { d1, d2 } => assert!(die.contains(&d1) && die.contains(&d2), "{s:?}"),
        Pending::Chain { die: d, first } => {
            assert!(die.contains(&d) && (first || d >= 2), "{s:?}");
        }
        Pending::Remainder { die: d, count } => {
            assert!(die.contains(&d) && (1..=4).contains(&count), "{s:?}");
        }
    }
    if s.result().is_some() {
        assert_eq!(
            s.pending,
            Pending::Roll,
            "a finished game has a stage: {s:?}"
        );
    }
    if s.rolls.iter().all(|&r| r <= MAX_TEXT_ROLLS) {
        let text = state_text(s);
        match crate::notation::parse_state_text_in(s.variant, &text) {
            Ok(back) => assert_eq!(back, as_text_reads_back(s), "'{text}' reads back otherwise"),
            Err(e) => panic!("'{text}' (written for {s:?}) does not parse: {e}"),
        }
    }
}

/// Whether the protocol target leaves a line out: searches (`go`, `eval`,
/// `hint`, `rollout`) and `quit`.
fn left_out(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    matches!(
        parse_command(text),
        Ok(Command::Go(_)
            | Command::Eval(_)
            | Command::Hint(_)
            | Command::Rollout(_)
            | Command::Quit(_))
    )
}

/// Feeds up to [`MAX_LINES`] lines (split at `\n`, one trailing `\r`
/// dropped, as the transports do) to a fresh session, without the lines
/// `left_out` names. The session has a remote client's file policy with
/// no weights directory, so `set engine.weights <path>` is refused without
/// a look at the file system. Checks that no response line is empty or
/// holds a line break, that no search is left running, that a line answered
/// with an `error` gets only that one line and changes neither the state
/// nor the settings, and that the state stays valid ([`check_state`]).
pub fn protocol_lines(data: &[u8]) {
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = said.clone();
    let out: Output = Arc::new(move |l: &str| {
        if let Ok(mut v) = sink.lock() {
            v.push(l.to_string());
        }
    });
    let config = SessionConfig {
        files: FileAccess::Remote { weights_dir: None },
        max_search: None,
        dialect: Default::default(),
    };
    let mut session = Session::with_config(out, config);
    for raw in data.split(|&b| b == b'\n').take(MAX_LINES) {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if left_out(line) {
            continue;
        }
        let state = *session.engine().state();
        let settings = session.engine().settings().clone();
        if let Ok(mut v) = said.lock() {
            v.clear();
        }
        let flow = if line.len() > MAX_LINE_BYTES {
            session.line_too_long(MAX_LINE_BYTES);
            Flow::Continue
        } else {
            session.handle_bytes(line)
        };
        assert!(!session.is_searching(), "a search started");
        let engine = session.engine();
        let lines = said.lock().map(|v| v.clone()).unwrap_or_default();
        for l in &lines {
            assert!(!l.is_empty(), "an empty response line");
            assert!(
                !l.contains(['\r', '\n']),
                "a response line with a line break: {l:?}"
            );
        }
        if lines.iter().any(|l| l.starts_with("error")) {
            assert_eq!(lines.len(), 1, "an error among other lines: {lines:?}");
            assert!(lines[0].starts_with("error "), "{lines:?}");
            assert_eq!(*engine.state(), state, "an error changed the state");
            assert_eq!(
                *engine.settings(),
                settings,
                "an error changed the settings"
            );
        }
        check_state(engine.state());
        assert_eq!(
            engine.state().variant,
            engine.settings().rules.variant,
            "the state is of another game than the settings"
        );
        if flow == Flow::Quit {
            break;
        }
    }
}

/// Parses position text; when it parses, checks the state ([`check_state`]:
/// written and parsed again it is the same state), that writing is stable,
/// and that the token form (`parse_state`, as `position board` uses it)
/// agrees.
pub fn position_text(data: &[u8]) {
    let text = text_of(data);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let whole = parse_state_text(&text);
    match parse_state(&tokens) {
        Ok((s, used)) => {
            assert!((4..=tokens.len()).contains(&used), "used {used} tokens");
            if used == tokens.len() {
                assert_eq!(whole.as_ref().ok(), Some(&s), "the two parsers disagree");
            } else {
                assert!(whole.is_err(), "text with extra tokens parsed whole");
            }
        }
        Err(_) => assert!(whole.is_err(), "the two parsers disagree"),
    }
    // The same text in a pinning game (`pins=`) and a hitting one (`bar=`).
    for variant in [
        crate::rules::Variant::Plakoto,
        crate::rules::Variant::Portes,
    ] {
        if let Ok(s) = crate::notation::parse_state_text_in(variant, &text) {
            check_state(&s);
            let written = state_text(&s);
            let back = crate::notation::parse_state_text_in(variant, &written);
            assert_eq!(
                back.as_ref().ok(),
                Some(&s),
                "'{written}' reads back otherwise"
            );
        }
    }
    let Ok(s) = whole else { return };
    check_state(&s);
    let written = state_text(&s);
    match parse_state_text(&written) {
        Ok(back) => {
            assert_eq!(back, s, "'{written}' reads back otherwise");
            assert_eq!(state_text(&back), written, "writing is not stable");
        }
        Err(e) => panic!("'{written}' does not parse: {e}"),
    }
}

/// Rule options from a selector byte: bit 0 `remainder=lost`, bit 1
/// `exempt_scope=game`, bit 2 `opening=reroll`, bit 3 `exempt_rolls=0`
/// (every doublet escalates); ASCII `0` gives the defaults.
pub fn options_from_byte(b: u8) -> RuleOptions {
    let mut o = RuleOptions::default();
    if b & 1 != 0 {
        o.remainder = RemainderRule::Lost;
    }
    if b & 2 != 0 {
        o.exempt_scope = ExemptScope::Game;
    }
    if b & 4 != 0 {
        o.opening = Opening::Reroll;
    }
    if b & 8 != 0 {
        o.exempt_rolls = 0;
    }
    o
}

/// Total pips of both sides and all rolls made: neither may grow or shrink
/// the wrong way while moves are applied.
fn progress(s: &GameState) -> (u32, u32) {
    (s.pos.own.pips() + s.pos.opp.pips(), s.rolls[0] + s.rolls[1])
}

/// Applies a move list. The first byte selects the rule options
/// ([`options_from_byte`]); the rest is text. When its first line parses as
/// position text (or is `startpos b`), play starts there and the other
/// lines are the tokens; otherwise play starts from the start position
/// (White to roll) and all the text is tokens. At most [`MAX_TOKENS`]
/// tokens are applied. On success the state is valid, no pips came back
/// and no roll was uncounted; on failure the error names a token of the
/// list (or its end).
pub fn move_list(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let opts = options_from_byte(sel);
    let text = text_of(rest);
    let (head, tail) = text.split_once('\n').unwrap_or((&text, ""));
    let (start, moves) = match head.trim() {
        "startpos" | "startpos w" => (GameState::start(Side::White), tail),
        "startpos b" => (GameState::start(Side::Black), tail),
        h => match parse_state_text(h) {
            Ok(s) => (s, tail),
            Err(_) => (GameState::start(Side::White), &*text),
        },
    };
    let tokens: Vec<&str> = moves.split_whitespace().take(MAX_TOKENS).collect();
    match apply_moves(start, &opts, &tokens) {
        Ok(s) => {
            check_state(&s);
            let (pips0, rolls0) = progress(&start);
            let (pips, rolls) = progress(&s);
            assert!(pips <= pips0, "pips grew from {pips0} to {pips}");
            assert!(rolls >= rolls0, "rolls fell from {rolls0} to {rolls}");
            assert!(
                rolls - rolls0 <= tokens.len() as u32,
                "more rolls than tokens"
            );
        }
        Err(e) => {
            assert!(
                (1..=tokens.len() + 1).contains(&e.index),
                "error index {} of {} tokens",
                e.index,
                tokens.len()
            );
            match tokens.get(e.index - 1) {
                Some(&t) => assert_eq!(e.token, t, "the error names another token"),
                None => assert!(e.token.is_empty(), "a token named past the end"),
            }
            assert!(
                !e.reason.to_string().is_empty(),
                "an error without a reason"
            );
        }
    }
}

/// Replays a game record as `gulbara replay` does (without printing). When
/// it replays, every state met is valid, each game's tokens applied in one
/// go from its start reach the same final state, and a recorded result
/// other than `Unfinished` belongs to a finished game.
pub fn record(data: &[u8]) {
    let text = text_of(data);
    let Ok((opts, games)) = crate::anyrecord::replay_any(&text) else {
        return;
    };
    for g in &games {
        for t in &g.turns {
            check_state(&t.before);
        }
        check_state(&g.final_state);
        let tokens: Vec<&str> = g.tokens.iter().map(String::as_str).collect();
        assert_eq!(
            apply_moves(GameState::start(g.starter), &opts, &tokens),
            Ok(g.final_state),
            "the game's tokens in one go end elsewhere"
        );
        if let Some(line) = &g.result_line
            && line != "Unfinished"
        {
            assert!(g.final_state.result().is_some(), "'{line}' for a live game");
        }
        // What `gulbara replay` prints for the game.
        assert!(!state_text(&g.final_state).is_empty());
    }
}

/// A few states to evaluate weights on: the start, a race, a remainder.
fn eval_states() -> [GameState; 3] {
    let start = GameState::start(Side::White);
    let mut race = start;
    race.pos.own = Checkers::from_counts(&{
        let mut c = [0u8; 24];
        c[..6].copy_from_slice(&[3, 3, 3, 2, 2, 2]);
        c
    })
    .unwrap_or(Checkers::START);
    let mut rem = start;
    rem.pending = Pending::Remainder { die: 3, count: 2 };
    rem.rolls = [5, 5];
    [start, race, rem]
}

/// Reads a weights file. When it reads, checks the shapes, that writing it
/// gives the same bytes (or, where the description was not UTF-8 and was
/// read lossily, a file that reads as the same network), and that the
/// network's chances for a few states are finite, within 0..1 and
/// consistent (mars chances within the win and loss chances).
pub fn weights(data: &[u8]) {
    let Ok(net) = Net::from_bytes(data) else {
        return;
    };
    let h = net.hidden;
    assert!((1..=4096).contains(&h), "{h} hidden units");
    // Each layout has its own number of inputs (Gul bara's 1 and 4, long nardy's 3).
    assert!(net.inputs >= INPUTS, "{} inputs", net.inputs);
    assert_eq!(net.w1.len(), net.inputs * h);
    assert_eq!(net.b1.len(), h);
    let h2 = net.hidden2;
    assert!(h2 <= 4096, "{h2} units in the second hidden layer");
    assert_eq!(net.w_mid.len(), h2 * h);
    assert_eq!(net.b_mid.len(), h2);
    let top = net.top();
    assert_eq!(net.w2.len(), OUTPUTS * top);
    assert_eq!(net.b2.len(), OUTPUTS);
    // The length was checked before anything was allocated.
    let floats = net.inputs * h + h + h2 * h + h2 + OUTPUTS * top + OUTPUTS;
    let header = if h2 > 0 { 32 } else { 28 };
    assert!(data.len() >= header + 4 * floats);
    let bytes = net.to_bytes();
    if bytes != data {
        let desc = &data[header..data.len() - 4 * floats];
        assert!(
            std::str::from_utf8(desc).is_err(),
            "a UTF-8 description, yet the bytes differ"
        );
    }
    match Net::from_bytes(&bytes) {
        Ok(again) => assert!(again == net, "written and read back, the network differs"),
        Err(e) => panic!("written weights do not read back: {e}"),
    }
    let opts = RuleOptions::default();
    for s in eval_states() {
        let p = net.eval(&s, &opts);
        for (name, v) in [
            ("win", p.win),
            ("win_mars", p.win_mars),
            ("lose_mars", p.lose_mars),
        ] {
            assert!(v.is_finite() && (0.0..=1.0).contains(&v), "{name} = {v}");
        }
        assert!(
            p.win_mars <= p.win,
            "win_mars {} > win {}",
            p.win_mars,
            p.win
        );
        assert!(
            p.lose_mars <= 1.0 - p.win,
            "lose_mars {} > 1 - win {}",
            p.lose_mars,
            p.win
        );
    }
}

/// The lines a FIBS server sends a CLIP client, each read into the bot's
/// event; a board among them goes through [`fibs_board`].
pub fn clip_lines(data: &[u8]) {
    use crate::frontends::fibs::clip::{Event, parse_line};
    let text = text_of(data);
    for line in text.split('\n').take(MAX_LINES) {
        match parse_line(line) {
            Event::Board(b) => fibs_board(b.as_bytes()),
            Event::Invitation { from, length } => {
                assert!(!from.is_empty() && !from.contains(' '), "{from:?}");
                if let Some(n) = length {
                    assert!(line.contains(&format!("a {n} point match")), "{line:?}");
                }
            }
            Event::ResignOffered { points } => {
                assert!(line.contains(&format!("win {points} point")), "{line:?}");
            }
            _ => {}
        }
    }
}

/// One FIBS board line, read as a FIBS server and as gnubg write it: a
/// board read is a real backgammon board (15 checkers a side at most), its
/// dice are dice, and what the answer needs from it (the state, the
/// session) is built or refused, never a panic. A move of the board's
/// direction is written in its numbering, from 1 to 24, `bar` or `off`.
pub fn fibs_board(data: &[u8]) {
    use crate::frontends::board_answer::session_of;
    use crate::gnubg::fibs::{BoardDecision, Flavour, parse_as};
    let text = text_of(data);
    for flavour in [Flavour::Fibs, Flavour::Gnubg] {
        let Ok(req) = parse_as(&text, flavour) else {
            continue;
        };
        assert!(req.board.validate().is_ok(), "{flavour:?}: {req:?}");
        assert!(req.on_turn <= 1 && req.player <= 1);
        if let BoardDecision::Move { dice: (a, b) } = req.decision {
            assert!((1..=6).contains(&a) && (1..=6).contains(&b));
        }
        let _ = session_of(&req, req.decision == BoardDecision::Take);
        let Ok(state) = crate::gnubg::state_of(crate::rules::Variant::Backgammon, &req.board, None)
        else {
            continue;
        };
        let steps: Vec<crate::rules::Step> = [(25u8, 3u8), (13, 5), (3, 3)]
            .into_iter()
            .filter(|&(from, _)| from == 25 || state.pos.own.counts()[usize::from(from) - 1] > 0)
            .map(|(from, die)| crate::rules::Step::new(from, die))
            .collect();
        let direction = crate::frontends::fibs::clip::board_direction(&text).unwrap_or(-1);
        if let Some(cmd) = crate::frontends::fibs::clip::move_command(&steps, direction) {
            for pair in cmd.trim_start_matches("move ").split(' ') {
                for end in pair.split('-') {
                    let ok = matches!(end, "bar" | "off")
                        || end.parse::<u8>().is_ok_and(|p| (1..=24).contains(&p));
                    assert!(ok, "{cmd}");
                }
            }
        }
    }
}
