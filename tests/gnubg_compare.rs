//! Backgammon move generation (`HitGen`) against GNU Backgammon.
//!
//! 2,400 seeded random positions × rolls (contact, checkers on the bar,
//! closed boards, races, bear-offs) go to gnubg in four batches (four gnubg
//! processes at once, each over its quarter), through
//! `scripts/gnubg_legal.py`, which lists every distinct legal play gnubg
//! finds as the Position ID of the position after it. The set of those
//! positions must equal the set of our `StageEnd.pos`, and with nothing
//! playable gnubg lists nothing while we return the unchanged position and
//! 0 dice. For every end gnubg lists, our text of our play
//! (`gnubg::movetext::combined`) must be gnubg's hint text, character for
//! character: the bridge's replies are written the same way.
//!
//! Needs gnubg (`apt-get install gnubg`: `/usr/games/gnubg`): a plain
//! `cargo test` lists it as ignored with that reason; `--include-ignored`
//! (what `.ci/run` runs) runs it, and fails without gnubg.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::process::Stdio;

mod gnubg_common;
mod variants_common;

use gnubg_common::{gnubg_command, gnubg_path};
use gulbara::gnubg::movetext;
use gulbara::gnubg::position_id::{self, GnubgBoard, SideCounts};
use gulbara::rules::hitting::HitGen;
use gulbara::rules::{Checkers, Position, StageDice, StageEnd};
use variants_common::Rng;

/// Positions drawn; each is played with three rolls.
const POSITIONS: usize = 800;

/// Draws of the tests' splitmix64 stream (`variants_common::Rng`) in the
/// shape this test uses.
trait Draw {
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u32, hi: u32) -> u32;
}

impl Draw for Rng {
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(u64::from(hi - lo + 1)) as u32
    }
}

/// A board under construction: each side in its own numbering (index
/// `p - 1` for point `p`, 24 the bar); a side's point `p` is the other's
/// point `25 - p`.
#[derive(Clone, Copy, Default)]
struct Board {
    me: SideCounts,
    opp: SideCounts,
}

impl Board {
    fn total(side: &SideCounts) -> u32 {
        side.iter().map(|&n| u32::from(n)).sum()
    }
    /// Puts a checker of `mine`'s side on its point `p` (25 = bar), unless
    /// the other side holds that point or the side has 15 already.
    fn put(&mut self, mine: bool, p: u32) -> bool {
        let (side, other) = if mine {
            (&mut self.me, &self.opp)
        } else {
            (&mut self.opp, &self.me)
        };
        if Board::total(side) >= 15 {
            return false;
        }
        if p <= 24 && other[24 - p as usize] > 0 {
            return false;
        }
        side[p as usize - 1] += 1;
        true
    }
    /// Puts `n` checkers of a side on random points among `lo..=hi` (at most
    /// 200 tries, so a crowded board just gets fewer).
    fn scatter(&mut self, rng: &mut Rng, mine: bool, n: u32, lo: u32, hi: u32) {
        let mut placed = 0;
        for _ in 0..200 {
            if placed == n {
                break;
            }
            let p = rng.range(lo, hi);
            if self.put(mine, p) {
                placed += 1;
            }
        }
    }
    fn gnubg(&self) -> GnubgBoard {
        GnubgBoard {
            on_roll: self.me,
            opponent: self.opp,
        }
    }
}

/// One random position of a kind chosen by the stream.
fn random_board(rng: &mut Rng) -> Board {
    let mut b = Board::default();
    let kind = rng.range(0, 5);
    let on = |rng: &mut Rng| if rng.chance(60) { 15 } else { rng.range(1, 15) };
    match kind {
        // Contact: both sides anywhere, now and then a checker on a bar.
        0 | 1 => {
            let (m, o) = (on(rng), on(rng));
            for i in 0..15 {
                if i < m {
                    let p = if rng.chance(4) { 25 } else { rng.range(1, 24) };
                    b.put(true, p);
                }
                if i < o {
                    let p = if rng.chance(4) { 25 } else { rng.range(1, 24) };
                    b.put(false, p);
                }
            }
        }
        // The mover on the bar; the opponent's home board partly or fully
        // made (its points 1..=6 are the mover's entry points 24..=19).
        2 => {
            let made = rng.range(2, 6);
            let mut points: Vec<u32> = (1..=6).collect();
            for _ in 0..(6 - made) {
                let i = rng.range(0, points.len() as u32 - 1) as usize;
                points.remove(i);
            }
            for &p in &points {
                b.put(false, p);
                b.put(false, p);
            }
            let bar = rng.range(1, 4);
            for _ in 0..bar {
                b.put(true, 25);
            }
            let rest = Board::total(&b.opp);
            let (o, m) = (15 - rest - rng.range(0, 2), rng.range(1, 15 - bar));
            b.scatter(rng, false, o, 1, 24);
            b.scatter(rng, true, m, 1, 24);
            if rng.chance(20) {
                b.put(false, 25);
            }
        }
        // A race: the mover's checkers all below the opponent's.
        3 => {
            let cut = rng.range(7, 18);
            let m = on(rng);
            let o = on(rng);
            b.scatter(rng, true, m, 1, cut);
            // Opponent's points 1..=24-cut are the mover's 24..=cut+1.
            b.scatter(rng, false, o, 1, 24 - cut);
        }
        // Bear-off: the mover home, the opponent home or still in contact.
        _ => {
            let m = rng.range(1, 15);
            b.scatter(rng, true, m, 1, 6);
            let o = on(rng);
            if rng.chance(50) {
                b.scatter(rng, false, o, 1, 6);
            } else {
                b.scatter(rng, false, o, 1, 24);
                if rng.chance(30) {
                    b.put(false, 25);
                }
            }
        }
    }
    b
}

/// The board as our position (the mover's view).
fn position_of(b: &GnubgBoard) -> Position {
    let side = |c: &SideCounts| {
        let mut points = [0u8; 24];
        points.copy_from_slice(&c[..24]);
        Checkers::from_counts_with_bar(&points, c[24]).expect("at most 15 checkers")
    };
    Position {
        own: side(&b.on_roll),
        opp: side(&b.opponent),
    }
}

/// Our position as a gnubg board.
fn board_of(pos: Position) -> GnubgBoard {
    let side = |c: Checkers| {
        let mut s = [0u8; 25];
        for p in 1..=24u8 {
            s[p as usize - 1] = c.at(p);
        }
        s[24] = c.bar();
        s
    };
    GnubgBoard {
        on_roll: side(pos.own),
        opponent: side(pos.opp),
    }
}

/// gnubg's `set board simple` numbers: the mover's bar, points 1..=24 of
/// the mover (+ mover, − opponent), the opponent's bar.
fn simple_board(b: &GnubgBoard) -> [i32; 26] {
    let mut s = [0i32; 26];
    s[0] = i32::from(b.on_roll[24]);
    for (p, n) in s.iter_mut().enumerate().take(25).skip(1) {
        *n = i32::from(b.on_roll[p - 1]) - i32::from(b.opponent[24 - p]);
    }
    s[25] = i32::from(b.opponent[24]);
    s
}

struct Case {
    board: GnubgBoard,
    dice: (u8, u8),
}

fn cases() -> Vec<Case> {
    let mut rng = Rng::new(0x6775_6c62_6172_6121);
    let mut out = Vec::new();
    // The last checker and an opposing blot below it: a play that hits on
    // its way off uses more dice than bearing off at once, and must be
    // played (2/1*/off with 2-1, not 2/off). Every roll.
    for (last, blot) in [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 3), (6, 1)] {
        let mut b = GnubgBoard::default();
        b.on_roll[last - 1] = 1;
        b.opponent[24 - blot] = 1;
        b.opponent[5] = 14;
        for a in 1..=6 {
            for d in a..=6 {
                out.push(Case {
                    board: b,
                    dice: (d, a),
                });
            }
        }
    }
    let mut drawn = 0;
    while drawn < POSITIONS {
        let b = random_board(&mut rng);
        let g = b.gnubg();
        // Both sides still playing, and a position gnubg accepts.
        if Board::total(&b.me) == 0 || Board::total(&b.opp) == 0 || g.validate().is_err() {
            continue;
        }
        drawn += 1;
        let a = rng.range(1, 6) as u8;
        let d = rng.range(1, 6) as u8;
        let x = rng.range(1, 6) as u8;
        let y = rng.range(1, 5) as u8;
        let y = if y >= x { y + 1 } else { y };
        for dice in [(a, d), (x, x), (x.max(y), x.min(y))] {
            out.push(Case { board: g, dice });
        }
    }
    out
}

/// gnubg processes run side by side, each over one slice of the cases:
/// gnubg's `hint` spends most of its ~9 ms a call sleeping (its task queue
/// polls), so they overlap well even on two cores.
const BATCHES: usize = 4;

/// Runs one gnubg over a batch of cases; one output line a case.
fn run_gnubg(gnubg: &Path, cases: &[Case], batch: usize) -> Vec<String> {
    let dir = std::env::temp_dir();
    let tag = format!("gulbara-gnubg-{}-{batch}", std::process::id());
    let input = dir.join(format!("{tag}-in.txt"));
    let output = dir.join(format!("{tag}-out.txt"));
    let mut text = String::new();
    for c in cases {
        text.push_str(&format!("{} {}", c.dice.0, c.dice.1));
        for n in simple_board(&c.board) {
            text.push_str(&format!(" {n}"));
        }
        text.push('\n');
    }
    std::fs::write(&input, text).unwrap();
    let _ = std::fs::remove_file(&output);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gnubg_legal.py");
    let (mut cmd, _home) = gnubg_command(gnubg);
    let run = cmd
        .args(["-t", "-q", "-r", "-p", script])
        .env("GNUBG_LEGAL_IN", &input)
        .env("GNUBG_LEGAL_OUT", &output)
        .stdin(Stdio::null())
        .output()
        .expect("gnubg starts");
    let result = std::fs::read_to_string(&output);
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    let Ok(result) = result else {
        panic!(
            "gnubg wrote no results ({}); stderr:\n{}",
            run.status,
            String::from_utf8_lossy(&run.stderr)
        );
    };
    let mut lines: Vec<String> = result.lines().map(str::to_owned).collect();
    assert_eq!(
        lines.pop().as_deref(),
        Some("done"),
        "gnubg's output is cut"
    );
    assert_eq!(lines.len(), cases.len(), "one gnubg line a case");
    lines
}

/// All cases through [`BATCHES`] concurrent gnubg runs, lines in case order.
fn run_batches(gnubg: &Path, cases: &[Case]) -> Vec<String> {
    let size = cases.len().div_ceil(BATCHES);
    std::thread::scope(|s| {
        let runs: Vec<_> = cases
            .chunks(size)
            .enumerate()
            .map(|(i, chunk)| s.spawn(move || run_gnubg(gnubg, chunk, i)))
            .collect();
        runs.into_iter()
            .flat_map(|r| r.join().expect("a gnubg batch failed"))
            .collect()
    })
}

fn stage_dice((a, b): (u8, u8)) -> StageDice {
    if a == b {
        StageDice::Same { die: a, count: 4 }
    } else {
        StageDice::Pair(a.max(b), a.min(b))
    }
}

fn describe(c: &Case) -> String {
    let s: Vec<String> = simple_board(&c.board)
        .iter()
        .map(|n| n.to_string())
        .collect();
    format!(
        "{} (gnubg `set board simple {}`), roll {}{}",
        position_id::encode(&c.board),
        s.join(" "),
        c.dice.0,
        c.dice.1
    )
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn legal_plays_match_gnubg() {
    let gnubg = gnubg_path();
    let cases = cases();
    assert!(cases.len() >= 2000);
    let lines = run_batches(&gnubg, &cases);

    let mut generator = HitGen::new();
    let mut out: Vec<StageEnd> = Vec::new();
    let mut failures = Vec::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ends_total = 0usize;
    let mut texts_checked = 0usize;
    for (c, line) in cases.iter().zip(&lines) {
        let pos = position_of(&c.board);
        assert_eq!(board_of(pos), c.board, "position round trip");
        let mut words = line.split_whitespace();
        if words.next() != Some("ok") {
            failures.push(format!("{}: gnubg: {line}", describe(c)));
            continue;
        }
        let count: usize = words.next().and_then(|w| w.parse().ok()).unwrap();
        let texts: HashMap<Position, String> = words
            .map(|w| {
                let (id, text) = w.split_once('|').expect("ID|TEXT");
                (
                    position_of(&position_id::decode(id).unwrap()),
                    text.replace(',', " "),
                )
            })
            .collect();
        let theirs: HashSet<Position> = texts.keys().copied().collect();
        assert_eq!(theirs.len(), count, "{line}");

        let used = generator.generate(pos, stage_dice(c.dice), &mut out);
        // Our text of each play is gnubg's own, character for character.
        for e in &out {
            if let Some(want) = texts.get(&e.pos) {
                texts_checked += 1;
                let ours = movetext::combined(pos, e.play.steps());
                if &ours != want {
                    failures.push(format!(
                        "{}: gnubg writes {want:?}, we {ours:?}",
                        describe(c)
                    ));
                }
            }
        }
        let ours: HashSet<Position> = out.iter().map(|e| e.pos).collect();
        ends_total += ours.len();
        if ours.len() != out.len() {
            failures.push(format!("{}: we list an end twice", describe(c)));
        }
        // Every play uses the returned number of dice, except one that
        // bears off the last checker before the dice run out.
        let short = |e: &StageEnd| {
            let len = e.play.len();
            len > usize::from(used) || (len < usize::from(used) && e.pos.own.off() != 15)
        };
        if out.iter().any(short) {
            failures.push(format!(
                "{}: a play's length differs from the {used} dice returned",
                describe(c)
            ));
        }
        let expected = if theirs.is_empty() {
            *kinds.entry("nothing playable").or_default() += 1;
            if used != 0 {
                failures.push(format!("{}: gnubg can't move, we use {used}", describe(c)));
            }
            HashSet::from([pos])
        } else {
            theirs
        };
        if pos.own.bar() > 0 {
            *kinds.entry("mover on the bar").or_default() += 1;
        }
        if (7..=24).all(|p| pos.own.at(p) == 0) && pos.own.bar() == 0 {
            *kinds.entry("mover bearing off").or_default() += 1;
        }
        if ours != expected {
            // At most eight IDs a side, sorted.
            let show = |s: &HashSet<Position>| {
                let mut v: Vec<String> = s
                    .iter()
                    .map(|p| position_id::encode(&board_of(*p)))
                    .collect();
                v.sort();
                if v.len() > 8 {
                    let more = v.len() - 8;
                    v.truncate(8);
                    v.push(format!("and {more} more"));
                }
                v.join(" ")
            };
            let missing: HashSet<Position> = expected.difference(&ours).copied().collect();
            let extra: HashSet<Position> = ours.difference(&expected).copied().collect();
            failures.push(format!(
                "{}: gnubg {} ends, we {}; only gnubg: [{}]; only ours: [{}]",
                describe(c),
                expected.len(),
                ours.len(),
                show(&missing),
                show(&extra)
            ));
        }
    }
    eprintln!(
        "gnubg_compare: {} cases, {ends_total} ends, {texts_checked} play texts; {kinds:?}",
        cases.len()
    );
    assert!(texts_checked >= ends_total / 2, "too few texts compared");
    // The mix covers what it should.
    for kind in ["nothing playable", "mover on the bar", "mover bearing off"] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) >= 20,
            "too few cases: {kind}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from gnubg:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
