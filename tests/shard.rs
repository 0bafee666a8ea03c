//! Sharded jobs: a match split with `--shard I/N`, merged by `gulbara
//! merge`, is the unsharded match bit for bit; self-play shards write the
//! unsharded run's records; GNU parallel runs the shards, locally and
//! through its `--sshlogin` machinery (`:` is the local machine).
//!
//! Real processes throughout. The GNU parallel test is ignored by a plain
//! `cargo test`, with its reason; `--include-ignored` (what `.ci/run` runs)
//! runs it, and fails without parallel.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::scratch_dir as scratch;

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// The words of a short match with a luck-adjusted figure: the luck sums
/// are floats, which is what a careless merge would get wrong.
fn match_words(games: usize) -> Vec<String> {
    [
        "match",
        "--engine",
        "cmd=builtin:heuristic",
        "name=baseline",
        "--engine",
        "cmd=builtin:random",
        "name=random",
        "--seed",
        "17",
        "--luck-adjust",
        "--no-progress",
        "--json",
        "--games",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([games.to_string()])
    .collect()
}

fn run(args: &[String]) -> Output {
    common::gulbara_ok(Path::new("."), args)
}

fn with(mut words: Vec<String>, more: &[&str]) -> Vec<String> {
    words.extend(more.iter().map(|s| s.to_string()));
    words
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn a_sharded_match_merges_into_the_unsharded_one_bit_for_bit() {
    let dir = scratch("match");
    let whole = dir.join("whole.json");
    let summary = run(&with(match_words(14), &["--out", &path(&whole)])).stdout;
    // Two jobs at once give the same file: the pairs are tallied in order.
    let two_jobs = dir.join("two-jobs.json");
    let summary_j2 = run(&with(
        match_words(14),
        &["-j", "2", "--out", &path(&two_jobs)],
    ))
    .stdout;
    assert_eq!(summary, summary_j2);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&two_jobs).unwrap()
    );

    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}.json"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let shard = format!("{i}/3");
        run(&with(
            match_words(14),
            &["--shard", &shard, "--out", &path(s)],
        ));
    }
    // Each shard holds only its own pairs (7 pairs: 3, 2 and 2).
    let pairs = |f: &Path| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        v["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["pair"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(pairs(&shards[0]), [0, 3, 6]);
    assert_eq!(pairs(&shards[1]), [1, 4]);
    assert_eq!(pairs(&shards[2]), [2, 5]);

    let merged = dir.join("merged.json");
    // Any order of the files.
    let out = run(&[
        "merge".into(),
        "--json".into(),
        "--out".into(),
        path(&merged),
        path(&shards[2]),
        path(&shards[0]),
        path(&shards[1]),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&summary)
    );
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let v: serde_json::Value = serde_json::from_slice(&summary).unwrap();
    assert_eq!(v["games"], 14);
    assert!(v["luck_adjusted_ppg"].as_f64().is_some());
    // The text report too.
    let text = run(&[
        "merge".into(),
        path(&shards[0]),
        path(&shards[1]),
        path(&shards[2]),
    ]);
    let plain_words: Vec<String> = match_words(14)
        .into_iter()
        .filter(|w| w != "--json")
        .collect();
    let plain = run(&plain_words);
    assert_eq!(text.stdout, plain.stdout);
}

#[test]
fn merge_refuses_missing_repeated_and_foreign_shards() {
    let dir = scratch("refuse");
    let shard = |i: usize, n: usize, games: usize, name: &str| {
        let f = dir.join(name);
        let spec = format!("{i}/{n}");
        run(&with(
            match_words(games),
            &["--shard", &spec, "--out", &path(&f)],
        ));
        path(&f)
    };
    let a0 = shard(0, 2, 6, "a0.json");
    let a1 = shard(1, 2, 6, "a1.json");
    let b1 = shard(1, 2, 8, "b1.json");
    let fails = |args: &[&str], want: &str| {
        let out = Command::new(BIN).args(args).output().expect("gulbara runs");
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    };
    fails(&["merge", &a0], "shard(s) 1/2 not given");
    fails(&["merge", &a0, &a0, &a1], "given twice");
    fails(&["merge", &a0, &b1], "games differs");
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"format\": \"something else\"}").unwrap();
    fails(&["merge", &path(&junk)], "not a gulbara match shard");
    fails(&["merge", "/nonexistent/shard.json"], "cannot read");
    // Bad --shard values and a sharded SPRT are refused before any game.
    let bad = with(match_words(4), &["--shard", "2/2"]);
    let out = Command::new(BIN).args(&bad).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("I/N"));
    let sprt = with(match_words(4), &["--shard", "0/2", "--sprt", "0,0.1"]);
    let out = Command::new(BIN).args(&sprt).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sprt"));
}

/// Every file of `dir`, name and bytes, sorted by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn self_play_shards_write_the_unsharded_records() {
    let dir = scratch("selfplay");
    let selfplay = |records: &Path, shard: Option<&str>| {
        let mut args: Vec<String> = [
            "selfplay",
            "--variant",
            "backgammon",
            "--games",
            "6",
            "--seed",
            "9",
            "--records",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(path(records));
        if let Some(s) = shard {
            args.extend(["--shard".to_string(), s.to_string()]);
        }
        run(&args);
    };
    let whole = dir.join("whole");
    selfplay(&whole, None);
    let union = dir.join("union");
    for i in 0..2 {
        let part = dir.join(format!("part{i}"));
        selfplay(&part, Some(&format!("{i}/2")));
        std::fs::create_dir_all(&union).unwrap();
        for (name, bytes) in files(&part) {
            assert!(!union.join(&name).exists(), "{name} written by two shards");
            std::fs::write(union.join(&name), bytes).unwrap();
        }
    }
    let want = files(&whole);
    // A record and a .mat file per game.
    assert_eq!(want.len(), 12);
    assert_eq!(files(&union), want);
}

/// GNU parallel. Its test is `#[ignore]`d unless asked for, and once asked
/// for, a missing parallel fails it.
fn require_gnu_parallel() {
    assert!(
        Path::new("/usr/bin/parallel").exists(),
        "needs GNU parallel (apt-get install -y parallel)"
    );
}

#[test]
#[ignore = "needs GNU parallel (apt-get install -y parallel); run with --include-ignored"]
fn gnu_parallel_runs_the_shards_locally_and_through_sshlogin() {
    require_gnu_parallel();
    let dir = scratch("parallel");
    let whole = dir.join("whole.json");
    run(&with(match_words(10), &["--out", &path(&whole)]));
    // The shipped script, as a user runs it, with this test's engines.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster/parallel-match.sh");
    for (how, extra) in [
        ("local", vec!["-j", "2"]),
        ("sshlogin", vec!["--sshlogin", "2/:"]),
    ] {
        let out_dir = dir.join(how);
        let out = Command::new("bash")
            .arg(&script)
            .arg(&out_dir)
            .arg("3")
            .args(&extra)
            .env("B", BIN)
            .env("GAMES", "10")
            .env("SEED", "17")
            .env(
                "ENGINES",
                "--engine cmd=builtin:heuristic name=baseline --engine cmd=builtin:random name=random",
            )
            .env("MATCH_EXTRA", "--luck-adjust")
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "parallel-match.sh ({how}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for i in 0..3 {
            assert!(
                out_dir.join(format!("shard-{i}.json")).exists(),
                "{how}: shard {i}"
            );
        }
        assert_eq!(
            std::fs::read(out_dir.join("merged.json")).unwrap(),
            std::fs::read(&whole).unwrap(),
            "{how}"
        );
    }
}

#[test]
fn a_sharded_rollout_merges_into_the_unsharded_one_and_the_protocols() {
    let dir = scratch("rollout");
    let words = |extra: &[&str]| -> Vec<String> {
        [
            "rollout",
            "--setup",
            "set game.variant backgammon",
            "--setup",
            "position startpos",
            "--games",
            "50",
            "--truncate",
            "3",
            "--seed",
            "8",
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
    };
    let whole = dir.join("whole.json");
    let lines = run(&words(&["--out", &path(&whole)])).stdout;
    // Two threads: the same file.
    let threads = dir.join("threads.json");
    run(&words(&["--threads", "2", "--out", &path(&threads)]));
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&threads).unwrap()
    );
    let shards: Vec<String> = (0..4)
        .map(|i| {
            let f = dir.join(format!("r{i}.json"));
            let spec = format!("{i}/4");
            run(&words(&["--shard", &spec, "--out", &path(&f)]));
            path(&f)
        })
        .collect();
    let merged = dir.join("merged.json");
    let mut args = vec!["merge".to_string(), "--out".into(), path(&merged)];
    args.extend(shards.iter().rev().cloned());
    let merged_lines = run(&args).stdout;
    assert_eq!(merged_lines, lines);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // The protocol's own rollout of the same position gives the same line
    // (at end of input the session finishes the rollout before it exits).
    let mut child = Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("gulbara runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(
                b"set game.variant backgammon\nposition startpos\nrollout games 50 truncate 3 seed 8\n",
            )
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let protocol: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("rolloutok"))
        .map(str::to_string)
        .collect();
    assert_eq!(protocol.len(), 1);
    assert_eq!(format!("{}\n", protocol[0]).as_bytes(), &lines[..]);
    // A missing shard, and a match shard among rollout shards, are refused.
    let out = Command::new(BIN)
        .args(["merge", &shards[0], &shards[1], &shards[2]])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("3/4 not given"));
    let m = dir.join("m.json");
    run(&with(
        match_words(2),
        &["--shard", "1/4", "--out", &path(&m)],
    ));
    let out = Command::new(BIN)
        .args(["merge", &shards[0], &shards[1], &shards[2], &path(&m)])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not"));
    // Bad setup lines are errors before any trial.
    let out = Command::new(BIN)
        .args(["rollout", "--setup", "position nonsense", "--games", "5"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--setup"));
}
