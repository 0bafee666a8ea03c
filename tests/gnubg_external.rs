//! gulbara against a real GNU Backgammon.
//!
//! - gnubg (`gnubg -t`, its 0-ply, cubeless) plays a 10-game money session
//!   against `gulbara gnubg-external` on loopback; gnubg's exported match
//!   is replayed by gulbara's referee (every play gulbara sent must be
//!   legal: gnubg records an illegal one as no move, which the referee
//!   rejects), and gnubg's final score line must match the replayed results.
//! - Position IDs, Match IDs and XGIDs: 2,000 wildbg benchmark positions
//!   and 600 positions of random games, with and without dice, round-trip
//!   through our codecs and read into gnubg (`set xgid`), whose own
//!   Position ID and Match ID must be ours.
//! - A `.mat` file written by `gulbara selfplay` imports into gnubg, and
//!   gnubg's export of it replays to the same games.
//!
//! The tests that run gnubg (`apt-get install gnubg`) are ignored by a plain
//! `cargo test`, with that reason; `--include-ignored` (what `.ci/run`
//! runs) runs them, and fails without gnubg.

mod common;
mod gnubg_common;
mod variants_common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gnubg_common::{gnubg_command, gnubg_path};
use gulbara::gnubg::position_id;
use gulbara::gnubg::{board_of, matchid, position_of, xgid};
use gulbara::rules::hitting::{HitGen, START};
use gulbara::rules::{Position, Side, StageDice, StageEnd, Variant};
use variants_common::Rng;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gulbara-gx-{}-{name}", std::process::id()))
}

/// Waits for a child, killing it after `limit` (a hang guard, not a
/// timing check: the runs take seconds).
fn wait_bounded(child: &mut Child, limit: Duration, what: &str) {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            return;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs gnubg on a command file; its standard output.
fn run_gnubg(gnubg: &Path, commands: &str, tag: &str) -> String {
    let cmds = temp(&format!("{tag}-cmds.txt"));
    let out = temp(&format!("{tag}-out.txt"));
    std::fs::write(&cmds, commands).unwrap();
    let (mut cmd, _home) = gnubg_command(gnubg);
    let mut child = cmd
        .args(["-t", "-q"])
        .stdin(std::fs::File::open(&cmds).unwrap())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gnubg");
    wait_bounded(&mut child, Duration::from_secs(600), "gnubg");
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&cmds);
    let _ = std::fs::remove_file(&out);
    text
}

/// `gulbara gnubg-external` on a free loopback port; the child and its
/// address. Its log is drained so that it never blocks on a full pipe.
fn start_bridge(args: &[&str]) -> (Child, String) {
    let (child, addr, _log) = start_bridge_logged(args);
    (child, addr)
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn gnubg_plays_ten_games_against_the_bridge() {
    let gnubg = gnubg_path();
    let (mut bridge, addr) = start_bridge(&["--listen", "127.0.0.1:0"]);
    let mat = temp("session.mat");
    let mut cmds = String::new();
    for c in [
        "set player 0 name gnubg",
        "set player 1 name gulbara",
        "set player 0 gnubg",
        "set player 0 chequerplay evaluation plies 0",
        "set player 0 chequerplay evaluation cubeful off",
        "set player 0 chequerplay evaluation prune off",
        "set player 0 chequerplay evaluation noise 0",
        "set cube use off",
        "set jacoby off",
        "set beavers 0",
        "set automatic game off",
        "set seed 20261201",
    ] {
        cmds.push_str(c);
        cmds.push('\n');
    }
    cmds.push_str(&format!("set player 1 external {addr}\n"));
    cmds.push_str(&"new game\n".repeat(10));
    cmds.push_str(&format!("export match mat {}\n", mat.display()));
    let out = run_gnubg(&gnubg, &cmds, "session");
    let _ = bridge.kill();
    let _ = bridge.wait();

    assert!(
        !out.contains("badly formed") && !out.contains("Error ("),
        "gnubg complained:\n{}",
        out.lines()
            .filter(|l| l.contains("badly") || l.contains("Error"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // "The score (after 10 games) is: gnubg 7, gulbara 9 (money session, ...)."
    let score_line = out
        .lines()
        .rfind(|l| l.starts_with("The score (after 10 games) is: "))
        .unwrap_or_else(|| panic!("no final score line in gnubg's output:\n{out}"));
    let score = |name: &str| -> u32 {
        let after = score_line.split(&format!("{name} ")).nth(1).unwrap();
        after
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (gnubg_points, our_points) = (score("gnubg"), score("gulbara"));

    let text = std::fs::read_to_string(&mat).expect("gnubg exported the match");
    let _ = std::fs::remove_file(&mat);
    let (opts, games) = gulbara::anyrecord::replay_any(&text)
        .unwrap_or_else(|e| panic!("gulbara's referee rejects gnubg's record: {e}\n{text}"));
    assert_eq!(opts.variant, Variant::Backgammon);
    assert_eq!(games.len(), 10);
    let mut points = [0u32; 2];
    let mut our_turns = 0;
    for g in &games {
        let r = g.final_state.result().expect("every game played out");
        points[r.winner.expect("a winner").index()] += u32::from(r.points);
        our_turns += g
            .turns
            .iter()
            .filter(|t| t.before.to_move == Side::Black)
            .count();
    }
    // The left column (White) is gnubg's player 0.
    assert_eq!(points, [gnubg_points, our_points], "{score_line}");
    assert!(our_turns >= 100, "gulbara played {our_turns} turns");
    // `analyse` reads gnubg's export too (replayed by `replay_any`, as
    // `gulbara analyse` does): every decision of both players.
    let an = gulbara::analysis::records::analyse_replayed(
        &opts,
        &games,
        gulbara::eval::variants::baseline(opts.variant),
        0,
        None,
    );
    assert_eq!(an.variant, Variant::Backgammon);
    let names: Vec<&String> = an.players.keys().collect();
    assert_eq!(names, ["gnubg", "gulbara"]);
    eprintln!("gnubg_external: {score_line} ({our_turns} turns by gulbara)");
}

/// `gulbara gnubg-external` on a free loopback port, logging at debug: the
/// child, its address, and its log lines as they come (read until it
/// exits, whether or not anyone receives them).
fn start_bridge_logged(args: &[&str]) -> (Child, String, std::sync::mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gulbara"))
        .arg("gnubg-external")
        .args(args)
        .args(["--log-level", "gulbara=debug"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gulbara gnubg-external");
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the bridge exited before it listened")
            .unwrap();
        if let Some(a) = line.strip_prefix("gnubg-external listening on ") {
            break a.trim().to_string();
        }
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for l in lines.map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    (child, addr, rx)
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn gnubg_plays_a_match_with_the_cube_against_the_bridge() {
    let gnubg = gnubg_path();
    let (mut bridge, addr, log) = start_bridge_logged(&["--listen", "127.0.0.1:0"]);
    let mat = temp("cube.mat");
    let mut cmds = String::new();
    for c in [
        "set player 0 name gnubg",
        "set player 0 gnubg",
        "set player 0 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0",
        "set cube use on",
        "set jacoby off",
        "set beavers 0",
        "set automatic game off",
        "set seed 11",
    ] {
        cmds.push_str(c);
        cmds.push('\n');
    }
    cmds.push_str(&format!("set player 1 external {addr}\n"));
    cmds.push_str("new match 5\n");
    cmds.push_str(&"new game\n".repeat(12));
    cmds.push_str(&format!("export match mat {}\n", mat.display()));
    let out = run_gnubg(&gnubg, &cmds, "cube");
    let _ = bridge.kill();
    let _ = bridge.wait();
    assert!(
        !out.contains("badly formed") && !out.contains("Error ("),
        "gnubg complained:\n{out}"
    );
    assert!(
        out.contains("has won the match"),
        "the match did not end:\n{out}"
    );
    // gnubg asked the bridge for cube decisions, and played its answers:
    // the external player doubled, or took or dropped gnubg's double.
    let decisions = log
        .try_iter()
        .filter(|l| l.contains("cube decision"))
        .count();
    assert!(decisions > 0, "gnubg never asked for a cube decision");
    let ours = ["root doubles", "root accepts", "root refuses"];
    assert!(
        ours.iter().any(|w| out.contains(w)),
        "no cube action by the bridge:\n{}",
        out.lines()
            .filter(|l| l.contains("doubles") || l.contains("cube"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // gnubg's export, cube actions and all, replays under gulbara's rules.
    let text = std::fs::read_to_string(&mat).expect("gnubg exported the match");
    let _ = std::fs::remove_file(&mat);
    assert!(text.contains(" 5 point match"), "{text}");
    assert!(text.contains("Doubles =>"), "{text}");
    gulbara::anyrecord::replay_any(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn gnubg_plays_short_nardy_over_a_unix_socket() {
    let gnubg = gnubg_path();
    let sock = temp("bridge.sock");
    let path = sock.display().to_string();
    let (mut bridge, addr) = start_bridge(&[
        "--listen",
        &path,
        "--variant",
        "short_nardy",
        "--set",
        "engine.ply=1",
    ]);
    assert_eq!(addr, path);
    let mat = temp("unix.mat");
    let cmds = format!(
        "set player 1 name gulbara\nset cube use off\nset automatic game off\nset seed 7\n\
         set player 1 external {path}\nnew game\nnew game\nexport match mat {}\n",
        mat.display()
    );
    let out = run_gnubg(&gnubg, &cmds, "unix");
    let _ = bridge.kill();
    let _ = bridge.wait();
    let _ = std::fs::remove_file(&sock);
    assert!(
        !out.contains("badly formed") && !out.contains("Error ("),
        "{out}"
    );
    assert!(out.contains("The score (after 2 games) is: "), "{out}");
    let text = std::fs::read_to_string(&mat).expect("gnubg exported the match");
    let _ = std::fs::remove_file(&mat);
    // gnubg's export is a backgammon record; gulbara's referee replays it.
    let (_, games) =
        gulbara::anyrecord::replay_any(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.final_state.result().is_some()));
}

/// Positions met in random games from the start, the mover's view.
fn random_positions(rng: &mut Rng, count: usize) -> Vec<Position> {
    let mut generator = HitGen::new();
    let mut ends: Vec<StageEnd> = Vec::new();
    let mut out = Vec::new();
    let mut pos = START;
    while out.len() < count {
        if pos.own.off() == 15 || pos.opp.off() == 15 {
            pos = START;
        }
        out.push(pos);
        let (a, b) = (rng.die(), rng.die());
        let dice = if a == b {
            StageDice::Same { die: a, count: 4 }
        } else {
            StageDice::Pair(a.max(b), a.min(b))
        };
        generator.generate(pos, dice, &mut ends);
        let end = ends[rng.below(ends.len() as u64) as usize].pos;
        pos = Position {
            own: end.opp,
            opp: end.own,
        };
    }
    out
}

fn wildbg_ids() -> Vec<String> {
    let dir = common::shared_path("peer-vectors/backgammon-positions");
    let mut ids = Vec::new();
    for file in ["contact.csv", "race.csv"] {
        let path = dir.join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        ids.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from),
        );
    }
    ids
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn ids_and_xgids_agree_with_gnubg() {
    let gnubg = gnubg_path();
    let mut rng = Rng::new(0x7867_6964);
    let mut cases: Vec<(Position, Option<(u8, u8)>)> = Vec::new();
    for id in wildbg_ids() {
        let board = position_id::decode(&id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(position_id::encode(&board), id, "Position ID round trip");
        cases.push((position_of(&board).unwrap(), None));
    }
    assert_eq!(cases.len(), 2000);
    for pos in random_positions(&mut rng, 600) {
        cases.push((pos, None));
    }
    // Half of them with dice, in the order rolled.
    for (i, c) in cases.iter_mut().enumerate() {
        if i % 2 == 1 {
            c.1 = Some((rng.die(), rng.die()));
        }
    }
    let mut input = String::new();
    for (pos, dice) in &cases {
        let board = board_of(*pos);
        let x = xgid::encode(&board, *dice);
        let back = xgid::decode(&x).unwrap_or_else(|e| panic!("{x}: {e}"));
        assert_eq!(
            (back.board, back.dice),
            (board, *dice),
            "XGID round trip {x}"
        );
        assert!(back.bottom_on_turn);
        input.push_str(&x);
        input.push('\n');
    }
    let src = temp("ids-in.txt");
    let dst = temp("ids-out.txt");
    std::fs::write(&src, input).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gnubg_ids.py");
    let (mut cmd, _home) = gnubg_command(&gnubg);
    let mut child = cmd
        .args(["-t", "-q", "-r", "-p", script])
        .env("GNUBG_IDS_IN", &src)
        .env("GNUBG_IDS_OUT", &dst)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gnubg");
    wait_bounded(&mut child, Duration::from_secs(600), "gnubg");
    let text = std::fs::read_to_string(&dst).expect("gnubg_ids.py wrote its answers");
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&dst);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"done"));
    assert_eq!(lines.len(), cases.len() + 1);
    let mut failures = Vec::new();
    for ((pos, dice), line) in cases.iter().zip(&lines) {
        let board = board_of(*pos);
        let ours_pos = position_id::encode(&board);
        let ours_match = matchid::encode(&matchid::MatchInfo {
            dice: *dice,
            ..Default::default()
        });
        let want = format!("ok {ours_pos} {ours_match}");
        if *line != want {
            failures.push(format!(
                "{}: gnubg {line}, we {want}",
                xgid::encode(&board, *dice)
            ));
        }
        // gnubg's Match ID reads back as ours.
        if let Some(m) = line.split_whitespace().nth(2) {
            let info = matchid::decode(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert_eq!(info.dice, dice.map(|(a, b)| (a.max(b), a.min(b))));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ from gnubg:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// Runs `gulbara args... --records dir` to its end, its output dropped.
fn gulbara_records(args: &[&str], dir: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_gulbara"))
        .args(args)
        .arg("--records")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run gulbara");
    assert!(status.success(), "gulbara {}", args.join(" "));
}

/// `gulbara match` arguments for `games` backgammon matches to 5 with the
/// cube, the network against the baseline at 0-ply, on seed 9, whose first
/// matches hold doubles, takes and drops (with the two-layer network seed
/// 8's four matches have no drop; with the network distilled from its own
/// 1-ply, seed 4's had none, nor those of seeds 5, 6, 7; with the layout-7
/// network seed 2's had none).
fn cube_matches(games: &str) -> Vec<&str> {
    let head = [
        "match",
        "--variant",
        "backgammon",
        "--match-to",
        "5",
        "--cube",
        "on",
        "--seed",
        "9",
        "--no-progress",
    ];
    [&head[..], &common::NET_VS_BASE, &["--games", games]].concat()
}

/// gnubg imports each of `ours` and exports it again beside it
/// (`again-N.mat`): the pairs (ours, gnubg's) and what gnubg printed.
fn gnubg_round_trip(
    gnubg: &Path,
    ours: &[PathBuf],
    tag: &str,
) -> (Vec<(PathBuf, PathBuf)>, String) {
    let mut cmds = String::new();
    let mut pairs = Vec::new();
    for (n, file) in ours.iter().enumerate() {
        let theirs = file.with_file_name(format!("again-{}.mat", n + 1));
        cmds.push_str(&format!(
            "import mat {}\nexport match mat {}\n",
            file.display(),
            theirs.display()
        ));
        pairs.push((file.clone(), theirs));
    }
    (pairs, run_gnubg(gnubg, &cmds, tag))
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn our_mat_files_import_into_gnubg() {
    let gnubg = gnubg_path();
    let dir = temp("selfplay");
    gulbara_records(
        &[
            "selfplay",
            "--variant",
            "backgammon",
            "--games",
            "4",
            "--seed",
            "5",
        ],
        &dir,
    );
    let ours: Vec<PathBuf> = (1..=4)
        .map(|n| dir.join(format!("game-{n:06}.mat")))
        .collect();
    let (pairs, out) = gnubg_round_trip(&gnubg, &ours, "import");
    assert!(
        !out.to_ascii_lowercase().contains("invalid move") && !out.contains("garbage"),
        "gnubg rejected a play:\n{out}"
    );
    for (ours, theirs) in &pairs {
        let a = std::fs::read_to_string(ours).unwrap();
        let b = std::fs::read_to_string(theirs)
            .unwrap_or_else(|e| panic!("gnubg exported nothing for {}: {e}", ours.display()));
        let (_, ga) = gulbara::anyrecord::replay_any(&a).unwrap();
        let (_, gb) = gulbara::anyrecord::replay_any(&b).unwrap();
        assert_eq!(ga.len(), 1);
        assert_eq!(gb.len(), 1);
        assert_eq!(ga[0].final_state, gb[0].final_state);
        assert_eq!(ga[0].turns.len(), gb[0].turns.len());
        let rolls = |g: &gulbara::record::ReplayedGame| -> Vec<Option<(u8, u8)>> {
            g.turns.iter().map(|t| t.roll).collect()
        };
        assert_eq!(rolls(&ga[0]), rolls(&gb[0]));
        assert!(ga[0].final_state.result().is_some());
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::io::stderr().flush();
}

#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg); run with --include-ignored"]
fn our_match_records_with_the_cube_import_into_gnubg() {
    let gnubg = gnubg_path();
    let dir = temp("cube-matches");
    gulbara_records(&cube_matches("4"), &dir);
    let ours: Vec<PathBuf> = (1..=4)
        .map(|n| dir.join(format!("match-{n:06}.mat")))
        .collect();
    let (pairs, out) = gnubg_round_trip(&gnubg, &ours, "import-cube");
    assert!(
        !out.to_ascii_lowercase().contains("invalid") && !out.contains("garbage"),
        "gnubg rejected something:\n{out}"
    );
    // What gnubg keeps of ours, in order: the match length, each game's
    // score, the cube actions and the points won (columns aside).
    let kept = |text: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut score_line = false;
        for line in text.lines() {
            let t = line.trim();
            if t.ends_with("point match") {
                out.push(t.to_string());
            } else if t.starts_with("Game ") {
                score_line = true;
                continue;
            } else if score_line {
                // `name : 3     other : 1`: the two scores.
                let scores: Vec<&str> = t
                    .split(':')
                    .skip(1)
                    .filter_map(|p| p.split_whitespace().next())
                    .collect();
                out.push(format!("score {}", scores.join("-")));
            } else {
                let words: Vec<&str> = t.split_whitespace().collect();
                for (i, w) in words.iter().enumerate() {
                    match *w {
                        "Doubles" | "Wins" => {
                            let n = words.get(i + if *w == "Doubles" { 2 } else { 1 });
                            out.push(format!("{w} {}", n.unwrap_or(&"?")));
                        }
                        "Takes" | "Drops" => out.push(w.to_string()),
                        _ => {}
                    }
                }
            }
            score_line = false;
        }
        out
    };
    let mut seen = String::new();
    for (ours, theirs) in &pairs {
        let a = std::fs::read_to_string(ours).unwrap();
        let b = std::fs::read_to_string(theirs)
            .unwrap_or_else(|e| panic!("gnubg exported nothing for {}: {e}", ours.display()));
        assert!(b.contains(" 5 point match"), "{b}");
        let (_, ga) = gulbara::anyrecord::replay_any(&a).unwrap();
        let (_, gb) = gulbara::anyrecord::replay_any(&b).unwrap();
        assert_eq!(ga.len(), gb.len(), "{}", ours.display());
        for (x, y) in ga.iter().zip(&gb) {
            assert_eq!(x.final_state, y.final_state);
            assert_eq!(x.dropped_by, y.dropped_by);
            let doubles = |g: &gulbara::record::ReplayedGame| {
                g.turns.iter().map(|t| t.double).collect::<Vec<_>>()
            };
            assert_eq!(doubles(x), doubles(y));
        }
        assert_eq!(kept(&a), kept(&b), "{}", ours.display());
        seen.push_str(&a);
    }
    // The four matches show every kind of cube action this test is about.
    for word in ["Doubles", "Takes", "Drops"] {
        assert!(
            seen.contains(word),
            "no '{word}' in the matches: pick another seed"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a script (`args[0]`, with python3 or bash) from the repository
/// with this build as gulbara; its standard output, which must end with success.
fn script(args: &[&str]) -> String {
    let program = if args[0].ends_with(".py") {
        "python3"
    } else {
        "bash"
    };
    let out = Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GULBARA", env!("CARGO_BIN_EXE_gulbara"))
        .env("GNUBG", gnubg_path())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{program} {}: {e} (this test needs {program} on PATH)",
                args.join(" ")
            )
        });
    assert!(
        out.status.success(),
        "{} failed: {}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The cube measurements of docs/STRENGTH.md, in short versions: games
/// and matches against gnubg with the cube, gnubg's analysis of their cube
/// decisions, its verdicts put to gulbara, the agreement table.
#[test]
#[ignore = "needs gnubg (apt-get install -y gnubg) and python3; run with --include-ignored"]
fn the_cube_scripts_run_in_short_versions() {
    let dir = temp("cube-scripts");
    let money = dir.join("money");
    let out = script(&[
        "scripts/vs_gnubg.sh",
        "-n",
        "2",
        "-j",
        "1",
        "-s",
        "7",
        "-c",
        "-o",
        money.to_str().unwrap(),
        "--",
        "--set",
        "engine.ply=1",
    ]);
    assert!(out.starts_with("games 2 gulbara wins"), "{out}");
    // A match to 3, and the same with -x.
    for more in [&[][..], &["-x"]] {
        let match_to_3 = [
            "scripts/vs_gnubg.sh",
            "-n",
            "1",
            "-j",
            "1",
            "-s",
            "7",
            "-m",
            "3",
        ];
        let out = script(&[&match_to_3[..], more].concat());
        assert!(out.starts_with("matches 1 (to 3) gulbara wins"), "{out}");
    }
    // Matches with doubles and takes (the import test's seed; its four
    // matches add drops).
    let records = dir.join("records");
    gulbara_records(&cube_matches("2"), &records);
    let mats: Vec<String> = (1..=2)
        .map(|n| {
            records
                .join(format!("match-{n:06}.mat"))
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec!["scripts/gnubg_analyse.sh", "-c", "-p", "0"];
    args.extend(mats.iter().map(String::as_str));
    let out = script(&args);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let mut who: Vec<&str> = lines.iter().filter_map(|l| l.split(':').next()).collect();
    who.sort_unstable();
    assert_eq!(who, ["base", "net"], "{out}");
    for line in &lines {
        assert!(
            line.contains("close or actual cube decisions") && line.contains("mEMG per decision"),
            "{out}"
        );
    }
    let mut args = vec!["scripts/cube_verdicts.py", "--ply", "1"];
    args.extend(mats.iter().map(String::as_str));
    let out = script(&args);
    assert!(out.starts_with("double decisions "), "{out}");
    assert!(out.contains("\ntake decisions "), "{out}");
    let out = script(&["scripts/cube_agreement.sh", "10", "20", "1"]);
    assert!(out.contains("| money, centred | 20 |"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
