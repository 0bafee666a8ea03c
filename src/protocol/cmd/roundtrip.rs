//! Every command written back by its `Display` reads back as itself: the
//! forms of protocol/SPEC.md (aliases included), every client line of the
//! transcripts in protocol/transcripts/, and generated values of every
//! command.

use proptest::prelude::*;

use super::*;
use crate::analysis::rollout::{MAX_CANDIDATES, MAX_GAMES, MAX_TRUNCATE};
use crate::cube::{CubeAnswer, CubeOwner};
use crate::engine::Ply;
use crate::protocol::parse_command;
use crate::rules::{Side, Variant};

/// `line` parses, and its command's line parses to the same command.
fn round_trips(line: &str) -> Command {
    let cmd = parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let written = cmd.to_string();
    assert_eq!(
        parse_command(&written).as_ref(),
        Ok(&cmd),
        "{line:?} was written {written:?}"
    );
    cmd
}

/// One line of each form of protocol/SPEC.md, with each alias, and the
/// line each is written back as.
const FORMS: &[(&str, &str)] = &[
    ("", ""),
    ("ubgi", "ubgi"),
    ("isready", "isready"),
    ("newgame", "newgame"),
    ("quit", "quit"),
    ("stop", "stop"),
    ("keys", "keys"),
    ("variants", "variants"),
    ("show", "show"),
    ("eval", "eval"),
    ("double", "double"),
    ("take", "take"),
    ("drop", "drop"),
    ("pass", "drop"),
    ("beaver", "beaver"),
    ("set engine.ply 2", "set engine.ply 2"),
    ("set engine.weights  a b\tc  ", "set engine.weights a b\tc"),
    (
        "setoption name Variant value backgammon",
        "set Variant backgammon",
    ),
    ("get engine.seed", "get engine.seed"),
    ("position startpos", "position startpos"),
    ("position startpos w", "position startpos"),
    (
        "position startpos b moves 65 24/13",
        "position startpos b moves 65 24/13",
    ),
    (
        "position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3 rem=4x2",
        "position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3 rem=4x2",
    ),
    (
        "position board 0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 b 0 0 moves 31",
        "position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 b 0 0 moves 31",
    ),
    (
        "position gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE moves 31 8/5 6/5",
        "position gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE moves 31 8/5 6/5",
    ),
    (
        "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
        "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    ),
    ("dice 6 5", "dice 6 5"),
    ("dice 33", "dice 3 3"),
    ("go", "go"),
    (
        "go ply 1 movetime 100 nodes 5 infinite",
        "go movetime 100 nodes 5 ply 1 infinite",
    ),
    ("go cube", "go cube"),
    ("go role chequer depth 2 trials 36", "go role chequer ply 2"),
    ("go role checker", "go role chequer"),
    ("go role cube", "go role cube"),
    ("go role turn movetime 10", "go role turn movetime 10"),
    ("legal", "legal"),
    ("legal orders limit 3", "legal orders limit 3"),
    ("legal limit 10000", "legal"),
    ("hint", "hint 5"),
    ("hint probs", "hint 5 probs"),
    ("hint 3 probs", "hint 3 probs"),
    (
        "hint 3 rollout 36 truncate 5 ply 2 seed 2 luck off every 6",
        "hint 3 rollout 36 truncate 5 ply 2 seed 2 luck off every 6",
    ),
    ("hint rollout 36", "hint 5 rollout 36"),
    ("rollout", "rollout games 1296"),
    (
        "rollout games 72 truncate 10 ply 2 seed 9 luck off every 8 moves 24/18 24/13 24/13",
        "rollout games 72 truncate 10 ply 2 seed 9 luck off every 8 moves 24/18 24/13 24/13",
    ),
    ("rollout luck on ply 1", "rollout games 1296"),
    ("newsession type money", "newsession type money"),
    (
        "newsession type money cube on beavers on jacoby off",
        "newsession type money jacoby off beavers on cube on",
    ),
    (
        "newsession type match length 5 crawford off cube on",
        "newsession type match length 5 crawford off cube on",
    ),
    (
        "newsession type match length 7 rotation portes,plakoto,fevga starter throw",
        "newsession type match length 7 rotation portes,plakoto,fevga starter throw",
    ),
    ("setscore 3 2", "setscore 3 2"),
    ("setscore 3 4 crawford", "setscore 3 4 crawford"),
    ("setscore 4 4 postcrawford", "setscore 4 4 postcrawford"),
    ("setcube value 2 owner white", "setcube value 2 owner white"),
    (
        "setcube value 4 owner centre",
        "setcube value 4 owner center",
    ),
    ("setcube value 8 owner p1", "setcube value 8 owner black"),
    ("setturn p0", "setturn p0"),
    ("setturn black", "setturn p1"),
];

#[test]
fn every_form_of_the_spec_is_written_back_as_its_line() {
    for (line, written) in FORMS {
        let cmd = round_trips(line);
        assert_eq!(cmd.to_string(), *written, "{line:?}");
    }
    // Each command of the parser has a form above.
    let words: std::collections::BTreeSet<&str> = FORMS
        .iter()
        .filter_map(|(l, _)| l.split_whitespace().next())
        .collect();
    for word in [
        "ubgi",
        "isready",
        "newgame",
        "quit",
        "stop",
        "keys",
        "variants",
        "show",
        "eval",
        "set",
        "setoption",
        "get",
        "position",
        "dice",
        "go",
        "legal",
        "hint",
        "rollout",
        "newsession",
        "setscore",
        "setcube",
        "setturn",
        "double",
        "take",
        "drop",
        "pass",
        "beaver",
    ] {
        assert!(words.contains(word), "{word} has no form");
    }
}

/// Every `.txt` file under `dir`, recursively.
fn transcripts(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("protocol/transcripts") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            transcripts(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

#[test]
fn every_client_line_of_the_transcripts_round_trips() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut files = Vec::new();
    transcripts(&dir, &mut files);
    assert!(files.len() >= 10, "{files:?}");
    let mut parsed = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a transcript");
        for line in text.lines().filter_map(|l| l.strip_prefix("> ")) {
            if parse_command(line).is_ok() {
                round_trips(line);
                parsed += 1;
            }
        }
    }
    assert!(parsed > 200, "only {parsed} lines");
}

#[test]
fn the_read_only_commands_are_the_ones_that_only_read() {
    let read_only: Vec<&str> = FORMS
        .iter()
        .filter(|(l, _)| parse_command(l).unwrap().read_only())
        .filter_map(|(l, _)| l.split_whitespace().next())
        .collect();
    assert_eq!(
        read_only,
        [
            "ubgi", "isready", "quit", "stop", "keys", "variants", "show", "get", "legal", "legal",
            "legal"
        ]
    );
}

fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9,./=:*()-]{1,8}".prop_filter("not moves", |w| w != "moves")
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

fn base() -> impl Strategy<Value = Base> {
    prop_oneof![
        side().prop_map(Base::Start),
        // Fewer than 24 words: 24 plain ones are joined into the counts.
        prop::collection::vec(word(), 0..23).prop_map(Base::Board),
        word().prop_map(Base::GnubgId),
        word().prop_map(Base::Xgid),
    ]
}

fn ply(max: u8) -> impl Strategy<Value = Ply> {
    (1..=max).prop_map(|n| Ply::new(n).expect("a ply"))
}

fn rollout_args(moves: bool) -> impl Strategy<Value = RolloutArgs> {
    let plays = if moves {
        prop::option::of(prop::collection::vec(word(), 1..5)).boxed()
    } else {
        Just(None).boxed()
    };
    (
        1..=MAX_GAMES,
        0..=MAX_TRUNCATE,
        ply(2),
        prop::option::of(any::<u64>()),
        any::<bool>(),
        0..=MAX_GAMES,
        plays,
    )
        .prop_map(
            |(games, truncate, ply, seed, luck, every, moves)| RolloutArgs {
                games,
                truncate,
                ply,
                seed,
                luck,
                every,
                moves,
            },
        )
}

fn go() -> impl Strategy<Value = Go> {
    (
        prop_oneof![Just(None), Just(Some(0)), Just(Some(1)), Just(Some(2))],
        any::<bool>(),
        prop::option::of(any::<u64>()),
        prop::option::of(any::<u64>()),
        prop::option::of(ply(3)),
        any::<bool>(),
    )
        .prop_map(|(role, cube, movetime, nodes, ply, infinite)| {
            Go(GoParams {
                movetime,
                nodes,
                ply,
                infinite,
                cube: cube || role == Some(1),
                turn: role == Some(2),
                role: role.is_some(),
            })
        })
}

fn switch() -> impl Strategy<Value = Option<bool>> {
    prop::option::of(any::<bool>())
}

fn new_session() -> impl Strategy<Value = NewSession> {
    let money = (switch(), switch(), switch()).prop_map(|(jacoby, beavers, cube)| NewSession {
        jacoby,
        beavers,
        cube,
        ..NewSession::default()
    });
    let rotation = prop::option::of((
        prop::collection::vec(prop::sample::select(Variant::ALL.to_vec()), 1..=16),
        switch(),
    ));
    let matches = (any::<u32>(), switch(), switch(), rotation).prop_map(
        |(length, crawford, cube, rotation)| NewSession {
            length: Some(length),
            crawford,
            cube,
            winner_starts: rotation.as_ref().and_then(|r| r.1),
            rotation: rotation.map(|r| r.0),
            ..NewSession::default()
        },
    );
    prop_oneof![money, matches]
}

fn hint() -> impl Strategy<Value = Hint> {
    prop_oneof![
        (1..=1000usize, any::<bool>()).prop_map(|(count, probs)| Hint {
            count,
            rollout: None,
            probs
        }),
        (1..=MAX_CANDIDATES, rollout_args(false)).prop_map(|(count, r)| Hint {
            count,
            rollout: Some(r),
            probs: false
        }),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let key = "[a-zA-Z][a-zA-Z0-9_.]{0,15}";
    let value = "[!-~]([ -~]{0,10}[!-~])?";
    prop_oneof![
        Just(Command::Empty),
        Just(Command::Ubgi(Ubgi)),
        Just(Command::IsReady(IsReady)),
        Just(Command::NewGame(NewGame)),
        Just(Command::Quit(Quit)),
        Just(Command::Stop(Stop)),
        Just(Command::Keys(Keys)),
        Just(Command::Variants(Variants)),
        Just(Command::Show(Show)),
        Just(Command::Eval(Eval)),
        Just(Command::Double(Double)),
        prop::sample::select(vec![CubeAnswer::Take, CubeAnswer::Drop, CubeAnswer::Beaver])
            .prop_map(|a| Command::Answer(Answer(a))),
        (key, value).prop_map(|(k, v)| Command::Set(Set::new(k, v))),
        key.prop_map(|key| Command::Get(Get { key })),
        (base(), prop::collection::vec(word(), 0..6))
            .prop_map(|(base, moves)| Command::Position(PositionCmd { base, moves })),
        (1..=6u8, 1..=6u8).prop_map(|(d1, d2)| Command::Dice(DiceCmd { d1, d2 })),
        go().prop_map(Command::Go),
        (any::<usize>(), any::<bool>())
            .prop_map(|(limit, orders)| Command::Legal(Legal { limit, orders })),
        hint().prop_map(Command::Hint),
        rollout_args(true).prop_map(Command::Rollout),
        new_session().prop_map(Command::NewSession),
        (any::<u32>(), any::<u32>(), switch()).prop_map(|(white, black, crawford)| {
            Command::SetScore(SetScore {
                white,
                black,
                crawford,
            })
        }),
        (
            any::<u32>(),
            prop_oneof![Just(CubeOwner::Centre), side().prop_map(CubeOwner::Side)]
        )
            .prop_map(|(value, owner)| Command::SetCube(SetCube { value, owner })),
        side().prop_map(|s| Command::SetTurn(SetTurn(s))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_command_reads_back_as_itself(cmd in command()) {
        let line = cmd.to_string();
        prop_assert_eq!(parse_command(&line), Ok(cmd), "{:?}", line);
    }

    #[test]
    fn lines_of_any_words_round_trip(words in prop::collection::vec(
        prop_oneof![
            prop::sample::select(vec![
                "go", "role", "cube", "turn", "chequer", "ply", "depth", "1", "2", "rollout",
                "hint", "probs", "games", "moves", "luck", "off", "legal", "orders", "limit",
                "newsession", "type", "match", "money", "length", "crawford", "on", "position",
                "startpos", "board", "b", "w", "setscore", "postcrawford", "3", "24/18",
            ]).prop_map(str::to_string),
            word(),
        ],
        1..8,
    )) {
        let line = words.join(" ");
        if let Ok(cmd) = parse_command(&line) {
            let written = cmd.to_string();
            prop_assert_eq!(parse_command(&written), Ok(cmd), "{:?} written {:?}", line, written);
        }
    }
}
