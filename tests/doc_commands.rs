//! The commands shown in README.md and docs/ run as written, in short
//! versions: the same subcommands and flags with fewer games, each in a
//! folder of its own. README's stdio transcript is replayed and its answers
//! compared line by line. Commands that take minutes or hours are marked so
//! where the docs show them (training, benchmarks); they run here with a
//! few games.

use std::path::Path;
use std::process::Command;

mod common;

use common::{LINE_TIMEOUT, LineIo, StdioEngine, gulbara_line, scratch_dir as scratch};

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

fn doc(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of the session that page `name` shows after the line
/// `opening` (a `$ ...` command line), up to the end of its code block.
fn doc_session(name: &str, opening: &str) -> Vec<String> {
    let text = doc(name);
    let start = text
        .find(&format!("{opening}\n"))
        .unwrap_or_else(|| panic!("{name} no longer shows the session of {opening:?}"));
    let block = &text[start..];
    let block = &block[..block.find("```").expect("the end of the code block")];
    block.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn the_readme_transcript_is_what_the_engine_says() {
    let lines = doc_session("README.md", "$ target/release/gulbara");
    // The engine's answers; every other line is typed.
    let answer = |l: &str| {
        [
            "play ",
            "legal count ",
            "info ",
            "bestmove ",
            "hintok",
            "evaluation ",
        ]
        .iter()
        .any(|p| l.starts_with(p))
            || (l.starts_with("hint ") && l.contains(" play "))
    };
    // The line that ends each command's answer, if it has one.
    let last_of = |cmd: &str| match cmd.split_whitespace().next() {
        Some("legal") => Some("legal count "),
        Some("go") => Some("bestmove "),
        Some("hint") => Some("hintok"),
        Some("eval") => Some("evaluation "),
        _ => None,
    };
    let mut engine = StdioEngine::start();
    // Search reports carry times and speeds: compared without them.
    let mut want = Vec::new();
    let mut got = Vec::new();
    for l in &lines {
        if answer(l) {
            if !l.starts_with("info ") {
                want.push(l.to_string());
            }
            continue;
        }
        engine.send(l);
        if let Some(end) = last_of(l) {
            loop {
                let line = engine.recv();
                let done = line.starts_with(end);
                if !line.starts_with("info ") {
                    got.push(line);
                }
                if done {
                    break;
                }
            }
        }
    }
    engine.close_input();
    let status = engine.proc.wait_timeout(LINE_TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(want.len() >= 6, "{want:?}");
    assert_eq!(got, want, "README's transcript differs from the engine");
}

#[test]
fn readme_and_matches_commands_run() {
    let dir = scratch("matches");
    // README, "Subcommands": the taste (20 games there).
    let report = gulbara_line(
        &dir,
        "match --engine cmd=$B name=zero option.engine.ply=1 --engine cmd=$B name=one --games 2 --seed 1 -j 2 --records games/ --no-progress",
    );
    assert!(report.contains("games 2"), "{report}");
    let analysis = gulbara_line(&dir, "analyse games/game-000001.txt --ply 2");
    assert!(!analysis.is_empty());
    let bg = gulbara_line(
        &dir,
        "match --variant backgammon --engine cmd=$B name=net --engine cmd=builtin:random --games 2 --no-progress",
    );
    assert!(bg.contains("variant backgammon"), "{bg}");
    let m7 = gulbara_line(
        &dir,
        "match --variant backgammon --match-to 7 --games 2 --engine cmd=$B name=net --engine cmd=builtin:heuristic --no-progress",
    );
    assert!(m7.contains("matches 2 to 7"), "{m7}");
    // docs/MATCHES.md: the match with luck adjustment, replay, analyse at
    // every depth and with rollouts, self-play in two games.
    let luck = gulbara_line(
        &dir,
        "match --engine cmd=$B name=zero option.engine.ply=1 --engine cmd=$B name=one option.engine.ply=2 --games 2 --seed 1 -j 2 --luck-adjust --records games2/ --no-progress",
    );
    assert!(luck.contains("luck-adjusted ppg"), "{luck}");
    gulbara_line(&dir, "replay games2/game-000001.txt");
    gulbara_line(&dir, "analyse games2/game-000001.txt --ply 3");
    gulbara_line(
        &dir,
        "analyse games2/game-000001.txt --ply 2 --rollout 8 --rollout-truncate 2 --threads 2",
    );
    gulbara_line(&dir, "selfplay --games 2 --records selfplay/");
    assert!(dir.join("selfplay/game-000001.txt").is_file());
    gulbara_line(
        &dir,
        "selfplay --variant long_nardy --games 2 --records ln/",
    );
    // A rollout in shards, merged.
    for i in 0..2 {
        gulbara_line(
            &dir,
            &format!(
                "rollout --setup 'set game.variant backgammon' --setup 'position startpos' --games 36 --truncate 2 --shard {i}/2 --out ro-{i}.json"
            ),
        );
    }
    let merged = gulbara_line(&dir, "merge ro-0.json ro-1.json");
    assert!(merged.starts_with("rolloutok equity"), "{merged}");
    assert!(merged.contains("games 36"), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_to_and_cube_commands_run() {
    // docs/MATCHES.md, "Matches to N points and the cube" (400 and 200 there).
    let dir = scratch("cube");
    let m7 = gulbara_line(
        &dir,
        "match --variant backgammon --match-to 7 --games 2 --seed 2026 -j 2 --records m7/ --no-progress --engine cmd=builtin:net name=net option.engine.ply=1 --engine cmd=builtin:heuristic name=baseline option.engine.ply=1",
    );
    assert!(m7.contains("matches 2 to 7"), "{m7}");
    assert!(m7.contains("session match 7 cube on crawford on"), "{m7}");
    let money = gulbara_line(
        &dir,
        "match --variant backgammon --cube on --games 2 --seed 1 --no-progress --engine cmd=$B name=spawned --engine cmd=builtin:net name=builtin",
    );
    assert!(money.contains("cube  doubles"), "{money}");
    let replayed = gulbara_line(&dir, "replay m7/match-000001.txt");
    assert!(replayed.contains("ok"), "{replayed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn greek_and_bulgarian_commands_run() {
    // docs/MATCHES.md, "Rotating matches" (40 matches there): two here.
    // Both matches of that section: the network against the baseline.
    let net_vs_baseline = "--no-progress --engine cmd=builtin:net name=net --engine cmd=builtin:heuristic name=baseline";
    let dir = scratch("rotation");
    let out = gulbara_line(
        &dir,
        &format!(
            "match --rotation portes,plakoto,fevga --match-to 5 --games 2 --seed 3 -j 2 --records rot/ {net_vs_baseline}"
        ),
    );
    assert!(out.contains("rotation portes,plakoto,fevga\n"), "{out}");
    let replayed = gulbara_line(&dir, "replay rot/match-000001.txt");
    assert!(replayed.contains("game 1 variant portes"), "{replayed}");
    let analysed = gulbara_line(&dir, "analyse rot/match-000001.txt");
    assert!(
        analysed.starts_with("rotation portes,plakoto,fevga"),
        "{analysed}"
    );
    assert!(
        out.contains("the winner of each game started the next\n"),
        "{out}"
    );
    // The same section: the winner's rule asked for in a match of one game.
    let out = gulbara_line(
        &dir,
        &format!(
            "match --variant portes --match-to 3 --next-starter winner --games 4 --seed 3 {net_vs_baseline}"
        ),
    );
    assert!(
        out.contains("the winner of each game started the next\n"),
        "{out}"
    );
    // docs/TRAINING.md, "Plakoto and Tapa" (600,000 games there): a few here.
    gulbara_line(
        &dir,
        "train --variant plakoto --dir pl128 --games 40 --hidden 16 --seed 12 --lambda 0.7 --checkpoint-every 20 --gate-games 4 --no-progress",
    );
    assert!(dir.join("pl128/checkpoint.gbnn").is_file());
    // docs/STRENGTH.md, "The Greek and Bulgarian games" (4,000 games and
    // 400 matches there): two each here.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/greek-strength.sh");
    let run = Command::new("bash")
        .arg(&script)
        .args(["2", "2", "1"])
        .env("GULBARA", BIN)
        .current_dir(&dir)
        .output()
        .expect("run scripts/greek-strength.sh");
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(text.matches("\nppg ").count(), 12, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn supervised_data_commands_run_as_written() {
    let dir = scratch("supervised");
    // docs/TRAINING.md, "Making a new generation", step 1: a few games here.
    let out = gulbara_line(
        &dir,
        "positions --variant backgammon --games 2 --seed 1 --out positions.txt",
    );
    assert!(out.contains("positions in positions.txt"), "{out}");
    // docs/TRAINING.md, the same step's turn groups (250 games there).
    let out = gulbara_line(
        &dir,
        "positions --variant long_nardy --games 2 --seed 2 --best-share 0 --middle-share 0 --discrepancy 0 --sibling-share 0.2 --siblings 4 --out turns.txt",
    );
    assert!(out.contains("positions in turns.txt"), "{out}");
    let turns = std::fs::read_to_string(dir.join("turns.txt")).unwrap();
    assert!(
        turns.contains("\nturn\t") && turns.contains("\nsibling\t"),
        "{turns}"
    );
    // docs/TRAINING.md, "Long nardy" (the group loss of the shipped one): a few
    // of those positions labelled, then trained with the group loss.
    std::fs::create_dir_all(dir.join("turns")).unwrap();
    std::fs::write(dir.join("turns/positions.txt"), &turns).unwrap();
    let out = gulbara_line(
        &dir,
        "label --variant long_nardy --positions turns/positions.txt --out turns/labels.txt --games 144 --truncate 10 --ply 0 --seed 1 --max 8",
    );
    assert!(out.contains("8 positions labelled"), "{out}");
    let out = gulbara_line(
        &dir,
        "supervise --variant long_nardy --data turns --out turns.gbnn --curve turns-curve.tsv --rate 1e-4 --epochs 2 --patience 1000 --holdout-block 40 --holdout 0.1 --anchor 1 --group-weight 300 --seed 1",
    );
    assert!(out.contains("8 positions; weights in turns.gbnn"), "{out}");
    // The same, widened to the blocking inputs (TRAINING.md, "Long nardy",
    // the layout-9 candidate): a layout-3 network given layout 9.
    let out = gulbara_line(
        &dir,
        "supervise --variant long_nardy --data turns --layout 9 --out turns9.gbnn --epochs 2 --holdout 0.1 --anchor 1 --group-weight 300 --seed 1",
    );
    assert!(out.contains("8 positions; weights in turns9.gbnn"), "{out}");
    let bytes = std::fs::read(dir.join("turns9.gbnn")).unwrap();
    // The header's input layout (after the magic and the format version).
    assert_eq!(bytes[8..12], 9u32.to_le_bytes(), "layout 9");
    let curve = std::fs::read_to_string(dir.join("turns-curve.tsv")).unwrap();
    let first = curve.lines().nth(1).unwrap();
    let group_error: f64 = first.split('\t').nth(4).unwrap().parse().unwrap();
    assert!(group_error > 0.0, "{curve}");
    let out = gulbara_line(
        &dir,
        "label --variant backgammon --positions positions.txt --out labels.txt --games 144 --truncate 10 --ply 0 --seed 1 --minutes 60 --max 2",
    );
    assert!(out.contains("2 positions labelled"), "{out}");
    let labels = std::fs::read_to_string(dir.join("labels.txt")).unwrap();
    assert_eq!(labels.lines().count(), 2, "{labels}");
    // docs/TRAINING.md, "Making a new generation", step 3: two epochs here.
    let out = gulbara_line(
        &dir,
        "supervise --variant backgammon --data . --from shipped --out gen1.gbnn --curve gen1-curve.tsv --epochs 2",
    );
    assert!(out.contains("2 positions; weights in gen1.gbnn"), "{out}");
    let curve = std::fs::read_to_string(dir.join("gen1-curve.tsv")).unwrap();
    assert!(curve.starts_with("epoch\ttrain_ce"), "{curve}");
    let loaded = gulbara_line(
        &dir,
        "match --variant backgammon --engine cmd=builtin:net name=gen1 option.engine.weights=gen1.gbnn option.engine.ply=1 --engine cmd=builtin:net name=shipped option.engine.ply=1 --games 4 --seed 7",
    );
    assert!(loaded.contains("gen1 vs shipped"), "{loaded}");
    // docs/TRAINING.md, "Two hidden layers": a second layer of 32 units,
    // two epochs here; the file is format 2 and plays.
    let out = gulbara_line(
        &dir,
        "supervise --variant backgammon --data . --from shipped --hidden2 32 --hidden2-start rough --out two.gbnn --epochs 2",
    );
    assert!(out.contains("2 positions; weights in two.gbnn"), "{out}");
    let two = std::fs::read(dir.join("two.gbnn")).unwrap();
    assert_eq!(two[4..8], 2u32.to_le_bytes(), "format 2");
    assert_eq!(two[28..32], 32u32.to_le_bytes(), "32 units");
    let loaded = gulbara_line(
        &dir,
        "match --variant backgammon --engine cmd=builtin:net name=two option.engine.weights=two.gbnn option.engine.ply=1 --engine cmd=builtin:net name=shipped option.engine.ply=1 --games 4 --seed 7",
    );
    assert!(loaded.contains("two vs shipped"), "{loaded}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn training_commands_run_with_their_defaults() {
    let dir = scratch("training");
    // docs/TRAINING.md, "Making a new generation", a fresh TD(λ) network
    // and the refinement (hours there): a few games here.
    let out = gulbara_line(
        &dir,
        "train --dir gb4 --games 40 --hidden 16 --layout 4 --seed 31 --lambda 0.7 --checkpoint-every 20 --gate-games 4 --no-progress",
    );
    let _ = out;
    assert!(dir.join("gb4/checkpoint.gbnn").is_file());
    // refine's defaults start from the shipped network.
    gulbara_line(
        &dir,
        "refine --from shipped --dir refining --games 4 --mix 0.5 --checkpoint-every 2 --no-progress",
    );
    assert!(dir.join("refining/checkpoint.gbnn").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn met_runs() {
    // docs/MATCHES.md, "Match equity tables" (10,000 games there).
    let dir = scratch("met");
    let out = gulbara_line(&dir, "met --variant long_nardy --length 3 --games 20");
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[0].starts_with("0.500000 "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bearoff_runs() {
    // README's subcommand table: bearoff, on one game and a few samples.
    let dir = scratch("bearoff");
    let out = gulbara_line(&dir, "bearoff --variant backgammon --samples 200");
    assert!(!out.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The commands this file runs in short are written in the docs as the
/// comments above say: each page still holds the command's words (the long
/// version: more games or epochs), so a command that moves to another page
/// moves here too.
#[test]
fn the_commands_run_here_are_in_the_docs() {
    let written: [(&str, &str); 13] = [
        (
            "docs/TRAINING.md",
            "--from src/eval/backgammon.gbnn --hidden2 32 --hidden2-start rough",
        ),
        (
            "docs/TRAINING.md",
            "$B positions --variant backgammon --games 4000 --seed 1 --out positions.txt",
        ),
        (
            "docs/TRAINING.md",
            "$B positions --variant long_nardy --games 250 --seed 2 --best-share 0 --middle-share 0",
        ),
        (
            "docs/TRAINING.md",
            "--discrepancy 0 --sibling-share 0.2 --siblings 4 --out positions.txt",
        ),
        (
            "docs/TRAINING.md",
            "$B label --variant backgammon --positions positions.txt --out labels.txt",
        ),
        (
            "docs/TRAINING.md",
            "--games 144 --truncate 10 --ply 0 --seed 1 --minutes 60",
        ),
        ("docs/TRAINING.md", "--group-weight 300 --seed 1"),
        (
            "docs/TRAINING.md",
            "--from data/training/long_nardy/gen0.gbnn --layout 9",
        ),
        (
            "docs/TRAINING.md",
            "--from shipped --out gen1.gbnn --curve gen1-curve.tsv --epochs 60",
        ),
        (
            "docs/TRAINING.md",
            "$B train --dir gb4 --games 500000 --hidden 128 --layout 4 --seed 31",
        ),
        (
            "docs/TRAINING.md",
            "$B refine --from shipped --dir refining --games 10000 --mix 0.5",
        ),
        (
            "docs/TRAINING.md",
            "$B train --variant plakoto --dir pl128 --games 600000 --hidden 128",
        ),
        ("docs/STRENGTH.md", "scripts/greek-strength.sh 4000 400 2"),
    ];
    for (page, words) in written {
        let text = doc(page);
        assert!(text.contains(words), "{page} no longer shows {words:?}");
    }
}

/// docs/CLIENTS.md's UBGI draft session: the typed lines (the handshake, the
/// boards, a word the draft does not know) sent as they are, and the
/// engine's whole output compared with the rest.
#[test]
fn the_clients_draft_session_is_what_the_engine_says() {
    let lines = doc_session(
        "docs/CLIENTS.md",
        "$ target/release/gulbara --dialect ubgi-draft",
    );
    let typed = |l: &str| {
        l == "ubgi"
            || l == "quit"
            || l == "hello"
            || l.starts_with("XGID=")
            || l.starts_with("board:")
    };
    let mut engine = StdioEngine::start_with(&["--dialect", "ubgi-draft"]);
    let mut want = Vec::new();
    for l in &lines {
        if typed(l) {
            engine.send(l);
        } else {
            want.push(l.to_string());
        }
    }
    engine.close_input();
    // Every line the engine writes until it ends its output.
    let got: Vec<String> =
        std::iter::from_fn(|| engine.lines.recv_timeout(LINE_TIMEOUT).ok()).collect();
    let status = engine.proc.wait_timeout(LINE_TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(want.len() >= 6, "{want:?}");
    assert_eq!(
        got, want,
        "CLIENTS.md's draft session differs from the engine"
    );
}
