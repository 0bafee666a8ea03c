//! Agreement of gulbara's cube decisions with gnubg's (docs/STRENGTH.md,
//! "Cube decisions against gnubg").
//!
//! Reads a gnubg `.mat` export of gnubg's own games, takes positions before a
//! roll from it, and for each asks both programs the cube decision in several
//! contexts (money with the cube centred and owned, and 7-point matches at
//! several scores): gnubg through its `hint` at its evaluation settings
//! (`set gnubgid`, one gnubg run for all), gulbara through `cube::decide` at
//! `--ply`. Prints how often they agree on doubling and on taking, and the
//! equity gnubg's cubeful equities say gulbara's differing choices cost.
//!
//! ```sh
//! cargo run --release --example cube_agreement -- games.mat /usr/games/gnubg 200 2
//! ```

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

use gulbara::cube::{CubeOwner, MatchState, SessionRules, decide};
use gulbara::engine::{FileAccess, Weights, load_net};
use gulbara::gnubg::matchid::MatchInfo;
use gulbara::gnubg::{board_of, matchid, position_id};
use gulbara::rules::{GameState, Pending, RuleOptions, Side, Variant};
use gulbara::search::Search;

/// A session the decision is asked in, from the roller's view.
#[derive(Clone, Copy)]
struct Context {
    name: &'static str,
    /// 0 for money.
    length: u32,
    /// The roller's and the opponent's scores.
    score: [u32; 2],
    /// The cube's value; owned by the roller when above 1.
    cube: u32,
    post_crawford: bool,
}

const CONTEXTS: [Context; 6] = [
    Context {
        name: "money, centred",
        length: 0,
        score: [0, 0],
        cube: 1,
        post_crawford: false,
    },
    Context {
        name: "money, owned (2)",
        length: 0,
        score: [0, 0],
        cube: 2,
        post_crawford: false,
    },
    Context {
        name: "7 points, 0-0",
        length: 7,
        score: [0, 0],
        cube: 1,
        post_crawford: false,
    },
    Context {
        name: "7 points, 2-4",
        length: 7,
        score: [2, 4],
        cube: 1,
        post_crawford: false,
    },
    Context {
        name: "7 points, 4-2",
        length: 7,
        score: [4, 2],
        cube: 1,
        post_crawford: false,
    },
    Context {
        name: "7 points, 3-6 post-Crawford",
        length: 7,
        score: [3, 6],
        cube: 1,
        post_crawford: true,
    },
];

/// gnubg's proper action and its three cubeful equities (no double,
/// double/pass, double/take), from one `hint`'s output.
#[derive(Clone, Debug, Default)]
struct Verdict {
    action: String,
    nd: f64,
    dp: f64,
    dt: f64,
}

fn parse_verdicts(out: &str) -> Vec<Verdict> {
    let mut all = Vec::new();
    let mut cur = Verdict::default();
    for l in out.lines() {
        let l = l.trim();
        let value = |l: &str| {
            l.split_whitespace()
                .find_map(|w| w.parse::<f64>().ok().filter(|_| w.starts_with(['+', '-'])))
                .unwrap_or(0.0)
        };
        if l.starts_with("1.") || l.starts_with("2.") || l.starts_with("3.") {
            if l.contains("No double") || l.contains("No redouble") {
                cur.nd = value(l);
            } else if l.contains("pass") {
                cur.dp = value(l);
            } else if l.contains("take") {
                cur.dt = value(l);
            }
        } else if let Some(a) = l.strip_prefix("Proper cube action: ") {
            cur.action = a.split(" (").next().unwrap_or(a).to_string();
            all.push(std::mem::take(&mut cur));
        }
    }
    all
}

fn doubles(action: &str) -> bool {
    action.starts_with("Double") || action.starts_with("Redouble")
}

fn takes(action: &str) -> bool {
    action.ends_with("take") || action.ends_with("beaver")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, mat, gnubg, count, ply] = args.as_slice() else {
        eprintln!("usage: cube_agreement GAMES.mat GNUBG POSITIONS PLY");
        std::process::exit(2);
    };
    let count: usize = count.parse().expect("POSITIONS");
    let ply: u8 = ply.parse().expect("PLY (1..3)");
    let text = std::fs::read_to_string(mat).expect("read the .mat");
    let (_, games) = gulbara::anyrecord::replay_any(&text).expect("replay the .mat");
    // Positions before a roll, spread over the games.
    let mut states: Vec<GameState> = games
        .iter()
        .flat_map(|g| g.turns.iter().map(|t| t.before))
        .filter(|s| s.result().is_none() && s.pending == Pending::Roll)
        .collect();
    let step = (states.len() / count.max(1)).max(1);
    states = states.into_iter().step_by(step).take(count).collect();
    let opts = RuleOptions::for_variant(Variant::Backgammon);
    let eval = load_net(Variant::Backgammon, &Weights::Shipped, &FileAccess::Local)
        .expect("the shipped network")
        .evaluator();
    let stop = AtomicBool::new(false);
    let search = Search::new(eval.as_ref(), opts, &stop);
    let mut commands = String::from("set beavers 0\nset jacoby off\n");
    let mut ours = Vec::new();
    for s in &states {
        for c in CONTEXTS {
            // Player 1 on roll before the roll, Jacoby off.
            let info = MatchInfo {
                cube: c.cube,
                cube_owner: (c.cube > 1).then_some(1),
                match_length: c.length,
                score: [c.score[1], c.score[0]],
                ..MatchInfo::default()
            };
            commands.push_str(&format!(
                "set gnubgid {}:{}\nhint\n",
                position_id::encode(&board_of(s.pos)),
                matchid::encode(&info)
            ));
            let rules = SessionRules::default();
            let mut m = if c.length == 0 {
                MatchState::money(rules)
            } else {
                MatchState::match_to(c.length, rules).expect("a match")
            };
            let roller = s.to_move;
            let (w, b) = if roller == Side::White {
                (c.score[0], c.score[1])
            } else {
                (c.score[1], c.score[0])
            };
            m.set_score(w, b, c.post_crawford.then_some(false))
                .expect("a score");
            if c.cube > 1 {
                m.set_cube(c.cube, CubeOwner::Side(roller)).expect("a cube");
            }
            let probs = search.before_roll(s, ply.saturating_sub(1), 1);
            ours.push(decide(&probs, s, &m, roller));
        }
    }
    let dir = std::env::temp_dir().join(format!("gulbara-cube-agreement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    // gnubg reads its commands from a file: written through a pipe while its
    // answers fill the other one, both programs would wait on each other.
    let cmd_file = dir.join("commands.txt");
    std::fs::write(&cmd_file, &commands).expect("write gnubg's commands");
    let out = Command::new(gnubg)
        .args(["-t", "-q"])
        .env("HOME", &dir)
        .stdin(std::fs::File::open(&cmd_file).expect("gnubg's commands"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .expect("run gnubg");
    let _ = std::fs::remove_dir_all(&dir);
    let verdicts = parse_verdicts(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(verdicts.len(), ours.len(), "one gnubg verdict per question");
    // Per context: positions, double agreement, take agreement, cost.
    let mut table: BTreeMap<usize, [f64; 6]> = BTreeMap::new();
    for (i, (v, d)) in verdicts.iter().zip(&ours).enumerate() {
        let k = i % CONTEXTS.len();
        let row = table.entry(k).or_default();
        row[0] += 1.0;
        let we_double = d.is_some_and(|d| d.action.doubles());
        let we_take = d.is_none_or(|d| d.action.answer() != "drop");
        if we_double == doubles(&v.action) {
            row[1] += 1.0;
        } else {
            // What gnubg says our choice costs, the opponent answering as
            // gnubg would.
            let best = if doubles(&v.action) {
                v.dt.min(v.dp)
            } else {
                v.nd
            };
            let chosen = if we_double { v.dt.min(v.dp) } else { v.nd };
            row[3] += (best - chosen).abs();
            row[4] += 1.0;
        }
        if we_take == takes(&v.action) {
            row[2] += 1.0;
        } else {
            row[5] += (v.dt - v.dp).abs();
        }
    }
    println!(
        "| context | positions | double agreement | take agreement | double errors | cost per double error | cost per take error |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (k, r) in &table {
        let n = r[0];
        let take_errors = n - r[2];
        println!(
            "| {} | {} | {:.1}% | {:.1}% | {} | {:.3} | {:.3} |",
            CONTEXTS[*k].name,
            n,
            100.0 * r[1] / n,
            100.0 * r[2] / n,
            r[4],
            if r[4] > 0.0 { r[3] / r[4] } else { 0.0 },
            if take_errors > 0.0 {
                r[5] / take_errors
            } else {
                0.0
            },
        );
    }
}
