//! The fuzz targets of `src/fuzz_targets.rs` on stable: each is called with
//! random bytes and with structured inputs (transcript lines, position
//! texts, legal move lists and records from random games, weights files),
//! mutated at the token and at the byte level, so that the smoke reaches
//! past the first parse error. `fuzz/` runs the same targets under
//! cargo-fuzz on nightly (`docs/FUZZING.md`).

use std::fmt;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use gulbara::eval::net::{Net, SHIPPED};
use gulbara::fuzz_targets::{self as ft, options_from_byte};
use gulbara::game::{RandomChooser, play_choosers};
use gulbara::notation::{apply_moves, state_text, step_text};
use gulbara::record::{Record, RecordedGame, RecordedTurn, rules_tag, write_record};
use gulbara::rules::dice::SeededDice;
use gulbara::rules::{GameState, MoveGen, RuleOptions, Side, StageDice, StageEnd};

const TRANSCRIPTS: [&str; 8] = [
    include_str!("../protocol/transcripts/pinning.txt"),
    include_str!("../protocol/transcripts/backgammon.txt"),
    include_str!("../protocol/transcripts/long_nardy.txt"),
    include_str!("../protocol/transcripts/short_nardy.txt"),
    include_str!("../protocol/transcripts/basics.txt"),
    include_str!("../protocol/transcripts/escalating.txt"),
    include_str!("../protocol/transcripts/position.txt"),
    include_str!("../protocol/transcripts/search.txt"),
];
const CORPUS: &str = include_str!("../benches/corpus.txt");

/// Words a token mutation may put in.
const WORDS: &[&str] = &[
    "position",
    "startpos",
    "board",
    "moves",
    "dice",
    "legal",
    "limit",
    "show",
    "set",
    "get",
    "setoption",
    "name",
    "value",
    "isready",
    "newgame",
    "keys",
    "ubgi",
    "stop",
    "w",
    "b",
    "65",
    "66",
    "11",
    "33",
    "21",
    "24/18",
    "24/13",
    "6/off",
    "1/off",
    "13/7",
    "pass",
    "chain=3",
    "rem=4x2",
    "stuck=99",
    "stuck=100",
    "rules.remainder",
    "rules.exempt_rolls",
    "engine.ply",
    "lost",
    "game",
    "0",
    "-15",
    "15",
    "100000",
    "100001",
    "",
    "--",
    "r5x2:",
    "53:",
    "1)",
    "Game",
    "Wins",
    "\t",
    "\u{e9}",
    "\u{0}",
];

/// An input that prints as text.
#[derive(Clone)]
struct Input(Vec<u8>);

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.0))
    }
}

fn transcript_lines() -> Vec<&'static str> {
    TRANSCRIPTS
        .iter()
        .flat_map(|t| t.lines())
        .filter_map(|l| l.strip_prefix("> "))
        .collect()
}

fn corpus_lines() -> Vec<&'static str> {
    CORPUS.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// Token mutations: drop, repeat, swap or replace a token (split at `sep`).
fn mutate_tokens(rng: &mut StdRng, text: &str, sep: char, rounds: usize) -> String {
    let mut toks: Vec<String> = text.split(sep).map(str::to_string).collect();
    for _ in 0..rounds {
        if toks.is_empty() {
            toks.push(String::new());
        }
        let i = rng.random_range(0..toks.len());
        match rng.random_range(0..6) {
            0 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 => {
                let j = rng.random_range(0..toks.len());
                toks.swap(i, j);
            }
            3 => toks[i] = WORDS[rng.random_range(0..WORDS.len())].to_string(),
            4 => toks.insert(i, WORDS[rng.random_range(0..WORDS.len())].to_string()),
            _ => {
                // A digit changed in place.
                let t: String = toks[i]
                    .chars()
                    .map(|c| {
                        if c.is_ascii_digit() && rng.random_range(0..3) == 0 {
                            char::from(b'0' + rng.random_range(0..10u8))
                        } else {
                            c
                        }
                    })
                    .collect();
                toks[i] = t;
            }
        }
    }
    toks.join(&sep.to_string())
}

/// Byte mutations: flips, interesting bytes, deletions, insertions, a cut.
fn mutate_bytes(rng: &mut StdRng, mut b: Vec<u8>, rounds: usize) -> Vec<u8> {
    const INTERESTING: &[u8] = b" ,-/0123456789\n\r\t=x:wb\xff\x00\x7f\x80";
    for _ in 0..rounds {
        if b.is_empty() {
            b.push(b'0');
        }
        let i = rng.random_range(0..b.len());
        match rng.random_range(0..6) {
            0 => b[i] ^= 1 << rng.random_range(0..8),
            1 => b[i] = INTERESTING[rng.random_range(0..INTERESTING.len())],
            2 => {
                b.remove(i);
            }
            3 => b.insert(i, INTERESTING[rng.random_range(0..INTERESTING.len())]),
            4 => b.truncate(i),
            _ => {
                let j = rng.random_range(i..b.len());
                let piece = b[i..=j].to_vec();
                b.splice(i..i, piece);
            }
        }
    }
    b
}

/// Mutates either tokens or bytes or both, sometimes not at all.
fn mutate(rng: &mut StdRng, text: &str, sep: char) -> Vec<u8> {
    match rng.random_range(0..4) {
        0 => text.as_bytes().to_vec(),
        1 => {
            let r = rng.random_range(1..4);
            mutate_tokens(rng, text, sep, r).into_bytes()
        }
        2 => {
            let r = rng.random_range(1..4);
            mutate_bytes(rng, text.as_bytes().to_vec(), r)
        }
        _ => {
            let r = rng.random_range(1..3);
            let t = mutate_tokens(rng, text, sep, r);
            let r = rng.random_range(1..3);
            mutate_bytes(rng, t.into_bytes(), r)
        }
    }
}

fn random_options(rng: &mut StdRng) -> (u8, RuleOptions) {
    let sel = b'0' | rng.random_range(0..16u8);
    (sel, options_from_byte(sel))
}

/// A legal move list from `start`: up to `stages` rolls and stages of
/// random play, and the state it reaches.
fn walk_tokens(
    rng: &mut StdRng,
    start: GameState,
    opts: &RuleOptions,
    stages: usize,
) -> (Vec<String>, GameState) {
    let mut s = start;
    let mut mg = MoveGen::new();
    let mut ends = Vec::new();
    let mut toks = Vec::new();
    for _ in 0..stages {
        if s.result().is_some() {
            break;
        }
        s = match s.stage_dice() {
            None => {
                let (a, b) = (rng.random_range(1..=6u8), rng.random_range(1..=6u8));
                toks.push(format!("{a}{b}"));
                s.roll(opts, a, b).expect("a live game rolls")
            }
            Some(dice) => {
                let n = mg.generate(s.pos, dice, &mut ends);
                let e = ends[rng.random_range(0..ends.len())];
                toks.extend(e.play.steps().iter().map(|&st| step_text(st)));
                s.after_stage(opts, e.pos, n)
            }
        };
    }
    // End on a roll's boundary: a list cut inside a stage is refused.
    while s.result().is_none() && s.stage_dice().is_some() {
        let dice = s.stage_dice().expect("a stage");
        let n = mg.generate(s.pos, dice, &mut ends);
        let e = ends[rng.random_range(0..ends.len())];
        toks.extend(e.play.steps().iter().map(|&st| step_text(st)));
        s = s.after_stage(opts, e.pos, n);
    }
    (toks, s)
}

fn random_start(rng: &mut StdRng) -> (String, GameState) {
    let lines = corpus_lines();
    match rng.random_range(0..3) {
        0 => ("startpos".into(), GameState::start(Side::White)),
        1 => ("startpos b".into(), GameState::start(Side::Black)),
        _ => {
            let l = lines[rng.random_range(0..lines.len())];
            let s = gulbara::notation::parse_state_text(l).expect("corpus line");
            (l.to_string(), s)
        }
    }
}

fn move_list_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let (sel, opts) = random_options(&mut rng);
    let (head, start) = random_start(&mut rng);
    let n = rng.random_range(1..40);
    let (toks, _) = walk_tokens(&mut rng, start, &opts, n);
    let mut b = vec![sel];
    b.extend_from_slice(head.as_bytes());
    b.push(b'\n');
    b.extend(mutate(&mut rng, &toks.join(" "), ' '));
    Input(b)
}

/// Random play from `s` for up to `plies` rolls and stages, or to the
/// game's end: `rng` throws the dice and picks one of the ends `generate`
/// lists (it returns how many dice they play).
fn random_play(
    rng: &mut StdRng,
    mut s: GameState,
    opts: &RuleOptions,
    plies: i32,
    mut generate: impl FnMut(&GameState, StageDice, &mut Vec<StageEnd>) -> u8,
) -> GameState {
    let mut ends = Vec::new();
    for _ in 0..plies {
        if s.result().is_some() {
            break;
        }
        s = match s.stage_dice() {
            None => s
                .roll(opts, rng.random_range(1..=6), rng.random_range(1..=6))
                .expect("roll"),
            Some(d) => {
                let k = generate(&s, d, &mut ends);
                let e = ends[rng.random_range(0..ends.len())];
                s.after_stage(opts, e.pos, k)
            }
        };
    }
    s
}

fn position_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let text = match rng.random_range(0..4) {
        0 => {
            let lines = corpus_lines();
            lines[rng.random_range(0..lines.len())].to_string()
        }
        1 => {
            // A Plakoto state met in random play: pins= and pinned checkers.
            let opts = RuleOptions::for_variant(gulbara::rules::Variant::Plakoto);
            let start = GameState::start_of(opts.variant, Side::White);
            let mut stages = gulbara::rules::StageGen::new();
            let plies = rng.random_range(0..160);
            let s = random_play(&mut rng, start, &opts, plies, |s, d, ends| {
                stages.generate(&opts, s, d, ends)
            });
            state_text(&s)
        }
        _ => {
            // A state met in random play, with its optional fields.
            let (_, opts) = random_options(&mut rng);
            let n = rng.random_range(0..120);
            let (_, start) = random_start(&mut rng);
            let mut mg = MoveGen::new();
            let s = random_play(&mut rng, start, &opts, n, |s, d, ends| {
                mg.generate(s.pos, d, ends)
            });
            state_text(&s)
        }
    };
    let sep = if rng.random_range(0..2) == 0 {
        ' '
    } else {
        ','
    };
    Input(mutate(&mut rng, &text, sep))
}

fn protocol_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let lines = transcript_lines();
    let k = rng.random_range(1..12);
    let mut out: Vec<u8> = Vec::new();
    for _ in 0..k {
        let line = match rng.random_range(0..4) {
            0 => {
                // A legal position line from random play.
                let (_, opts) = random_options(&mut rng);
                let (head, start) = random_start(&mut rng);
                let n = rng.random_range(1..20);
                let (toks, _) = walk_tokens(&mut rng, start, &opts, n);
                let base = if head.starts_with("startpos") {
                    head
                } else {
                    format!("board {head}")
                };
                format!("position {base} moves {}", toks.join(" "))
            }
            _ => lines[rng.random_range(0..lines.len())].to_string(),
        };
        out.extend(mutate(&mut rng, &line, ' '));
        out.extend_from_slice(if rng.random_range(0..8) == 0 {
            b"\r\n"
        } else {
            b"\n"
        });
    }
    Input(out)
}

fn record_text(seed: u64, opts: &RuleOptions) -> String {
    let mut a = RandomChooser::new(seed);
    let mut b = RandomChooser::new(seed ^ 0x5eed);
    let g = play_choosers(opts, &mut SeededDice::new(seed), &mut a, &mut b);
    let game = RecordedGame {
        players: ["alpha".into(), "beta".into()],
        opening: g.openings.last().copied(),
        starter: g.starter,
        turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
        result: Some(g.result),
        note: None,
        cube: Default::default(),
    };
    write_record(&Record {
        tags: vec![("Rules".into(), rules_tag(opts))],
        games: vec![game],
    })
}

fn record_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let (_, opts) = random_options(&mut rng);
    let text = record_text(seed, &opts);
    Input(match rng.random_range(0..3) {
        0 => text.into_bytes(),
        1 => {
            // One line mutated.
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            let i = rng.random_range(0..lines.len());
            let m = mutate(&mut rng, &lines[i], ' ');
            lines[i] = String::from_utf8_lossy(&m).into_owned();
            lines.join("\n").into_bytes()
        }
        _ => mutate(&mut rng, &text, ' '),
    })
}

/// Board lines the FIBS bot and the draft read: BaldLies's, the FIBS
/// documentation's, mirrored, doubled, at a score, with the Crawford flags.
const FIBS_BOARDS: [&str; 4] = [
    "board:You:alice:3:0:0:0:0:0:2:0:2:3:2:0:0:0:1:-1:0:0:0:-3:-3:0:-3:-3:2:2:0:-2:1:-1:5:2:0:0:1:1:1:0:-1:1:25:0:0:0:0:1:2:0:0:0",
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:0:0:1:1:-1:0:25:0:0:0:0:2:0:0:0",
    "board:You:bob:5:4:3:0:0:0:2:0:2:3:2:0:0:1:0:0:0:0:0:-3:-3:0:-4:-3:2:3:0:-2:0:-1:0:0:3:1:2:1:0:0:-1:1:25:0:0:0:0:0:0:0:1:0",
];

fn fibs_board_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let b = FIBS_BOARDS[rng.random_range(0..FIBS_BOARDS.len())];
    Input(mutate(&mut rng, b, ':'))
}

fn clip_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let game = include_str!("../fuzz/corpus/clip_lines/seed-a-game");
    let mut lines: Vec<String> = game.lines().map(str::to_string).collect();
    let i = rng.random_range(0..lines.len());
    let m = mutate(&mut rng, &lines[i], ' ');
    lines[i] = String::from_utf8_lossy(&m).into_owned();
    Input(lines.join("\n").into_bytes())
}

fn weights_input(seed: u64) -> Input {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b = if rng.random_range(0..4) == 0 {
        SHIPPED.to_vec()
    } else {
        let mut net = Net::random(rng.random_range(1..=12), seed);
        net.description = ["", "tiny", "caf\u{e9}"][rng.random_range(0..3)].to_string();
        net.to_bytes()
    };
    for _ in 0..rng.random_range(0..4) {
        let i = rng.random_range(0..b.len());
        match rng.random_range(0..6) {
            0 => b[i] ^= 1 << rng.random_range(0..8),
            1 => b[i] = [0x00, 0x7f, 0x80, 0xff, 0x3f, 0xc0][rng.random_range(0..6)],
            2 => b.truncate(i),
            3 => b.push(rng.random()),
            4 => {
                // A header field set at random: hidden units or the description length.
                let f = [16, 24][rng.random_range(0..2)];
                let v: u32 = if rng.random_range(0..2) == 0 {
                    rng.random_range(0..20)
                } else {
                    rng.random()
                };
                if b.len() >= f + 4 {
                    b[f..f + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            _ => {
                // A weight set to a large finite value of either sign.
                let k = 28 + 4 * rng.random_range(0..(b.len().saturating_sub(28) / 4).max(1));
                let v: f32 = [1e30, -1e30, 3e38, -3e38, 1e-40][rng.random_range(0..5)];
                if b.len() >= k + 4 {
                    b[k..k + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    Input(b)
}

/// The proptest configuration: `cases` cases (times `GULBARA_FUZZ_SCALE`,
/// default 1), from a fixed seed (`GULBARA_FUZZ_SEED` to vary it), so that
/// `cargo test` always runs the same inputs.
fn cfg(cases: u32) -> ProptestConfig {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let scale = env("GULBARA_FUZZ_SCALE").unwrap_or(1).clamp(1, 10_000) as u32;
    ProptestConfig {
        cases: cases.saturating_mul(scale),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(env("GULBARA_FUZZ_SEED").unwrap_or(0x6b61_7261)),
        ..ProptestConfig::default()
    }
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..300)
}

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn random_bytes_protocol(b in bytes()) { ft::protocol_lines(&b); }

    #[test]
    fn random_bytes_position(b in bytes()) { ft::position_text(&b); }

    #[test]
    fn random_bytes_moves(b in bytes()) { ft::move_list(&b); }

    #[test]
    fn random_bytes_record(b in bytes()) { ft::record(&b); }

    #[test]
    fn random_bytes_weights(b in bytes()) { ft::weights(&b); }

    #[test]
    fn random_bytes_clip(b in bytes()) { ft::clip_lines(&b); }

    #[test]
    fn random_bytes_fibs_board(b in bytes()) { ft::fibs_board(&b); }
}

proptest! {
    #![proptest_config(cfg(400))]

    #[test]
    fn structured_protocol(i in any::<u64>().prop_map(protocol_input)) {
        ft::protocol_lines(&i.0);
    }

    #[test]
    fn structured_position(i in any::<u64>().prop_map(position_input)) {
        ft::position_text(&i.0);
    }

    #[test]
    fn structured_moves(i in any::<u64>().prop_map(move_list_input)) {
        ft::move_list(&i.0);
    }

    #[test]
    fn structured_record(i in any::<u64>().prop_map(record_input)) {
        ft::record(&i.0);
    }

    #[test]
    fn structured_weights(i in any::<u64>().prop_map(weights_input)) {
        ft::weights(&i.0);
    }

    #[test]
    fn structured_fibs_board(i in any::<u64>().prop_map(fibs_board_input)) {
        ft::fibs_board(&i.0);
    }

    #[test]
    fn structured_clip(i in any::<u64>().prop_map(clip_input)) {
        ft::clip_lines(&i.0);
    }
}

/// The generators make what they claim before mutation: legal move lists
/// and records that replay, so the structured smoke starts from valid input.
#[test]
fn generators_make_valid_inputs() {
    for seed in 0..20u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let (_, opts) = random_options(&mut rng);
        let (_, start) = random_start(&mut rng);
        let (toks, end) = walk_tokens(&mut rng, start, &opts, 60);
        let t: Vec<&str> = toks.iter().map(String::as_str).collect();
        assert_eq!(apply_moves(start, &opts, &t), Ok(end), "seed {seed}");
        let text = record_text(seed, &opts);
        assert!(gulbara::anyrecord::replay_any(&text).is_ok(), "seed {seed}");
    }
    assert!(Net::from_bytes(SHIPPED).is_ok());
}

/// A fuzz target by its `fuzz/` name.
type Target = (&'static str, fn(&[u8]));

/// Every committed seed of `fuzz/corpus/<target>/`, through its target.
#[test]
fn fuzz_corpus_seeds() {
    let targets: [Target; 7] = [
        ("protocol_lines", ft::protocol_lines),
        ("position_text", ft::position_text),
        ("move_list", ft::move_list),
        ("record", ft::record),
        ("weights", ft::weights),
        ("clip_lines", ft::clip_lines),
        ("fibs_board", ft::fibs_board),
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut seen = 0;
    for (name, target) in targets {
        let Ok(dir) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        for entry in dir.flatten() {
            if entry.file_name().to_string_lossy().starts_with("seed-") {
                target(&std::fs::read(entry.path()).unwrap());
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no seeds under {}", root.display());
}

/// Hand-picked inputs: transcript lines, corpus positions, edge cases.
#[test]
fn fixed_inputs() {
    for l in transcript_lines() {
        ft::protocol_lines(l.as_bytes());
    }
    ft::protocol_lines(transcript_lines().join("\n").as_bytes());
    ft::protocol_lines(&[b'x'; 5000]);
    ft::protocol_lines(b"\xff\xfe\n\r\n\n");
    ft::protocol_lines(
        b"set engine.weights /etc/passwd\nget engine.weights\nset engine.weights shipped",
    );
    for l in corpus_lines().iter().step_by(50) {
        ft::position_text(l.as_bytes());
        ft::move_list(format!("0{l}\n65 24/18 24/19").as_bytes());
    }
    // A roll count at the limit of position text, then one more roll.
    let big = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 100000 100000";
    ft::position_text(big.as_bytes());
    ft::move_list(format!("0{big}\n65 24/18 24/19").as_bytes());
    ft::protocol_lines(format!("position board {big} moves 65 24/18 24/19\nshow").as_bytes());
    ft::record(record_text(1, &RuleOptions::default()).as_bytes());
    ft::weights(SHIPPED);
    ft::weights(&Net::random(1, 1).to_bytes());
}

/// Finite but huge weights: the hidden sums overflow to +inf and -inf, their
/// sum is NaN, and `Net::probs` used to clamp with a NaN bound, which
/// panicked. Found by the `weights` target: such a file is now refused, and
/// a network built in memory with such weights still gives valid chances.
#[test]
fn huge_finite_weights_give_valid_chances() {
    use gulbara::eval::Evaluator;
    let mut net = Net::from_bytes(SHIPPED).unwrap();
    let h = net.hidden;
    // The start position: 15 checkers on point 24 for each side, inputs 95
    // and 98 + 95, each of value 6.
    net.w1[95 * h] = 1e38;
    net.w1[(98 + 95) * h] = -1e38;
    let bytes = net.to_bytes();
    let e = Net::from_bytes(&bytes).unwrap_err();
    assert!(e.to_string().contains("a weight beyond"), "{e}");
    ft::weights(&bytes);
    let p = net.eval(
        &gulbara::rules::GameState::start(gulbara::rules::Side::White),
        &RuleOptions::default(),
    );
    assert!((0.0..=1.0).contains(&p.win), "{p:?}");
    assert!(p.win_mars <= p.win && p.lose_mars <= 1.0 - p.win, "{p:?}");
}
