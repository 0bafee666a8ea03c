//! Supervised training data with the real binary: `gulbara positions`
//! writes the same file for the same seed, and `gulbara label` gives the
//! same label to a position whether it is labelled whole, by shards, or
//! in sittings cut short (a torn last line included).

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("training-data-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn gulbara(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("gulbara runs");
    assert!(
        out.status.success(),
        "gulbara {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn positions(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let words = [
        "positions",
        "--variant",
        "short_nardy",
        "--games",
        "3",
        "--seed",
        "9",
        "--out",
    ];
    let mut args: Vec<&str> = words.to_vec();
    args.push(p.to_str().expect("utf-8 path"));
    gulbara(&args);
    p
}

fn label(positions: &Path, out: &Path, more: &[&str]) {
    let mut args = vec![
        "label",
        "--variant",
        "short_nardy",
        "--games",
        "36",
        "--truncate",
        "4",
        "--seed",
        "3",
        "--positions",
        positions.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(more);
    gulbara(&args);
}

/// The labels file's lines sorted by index, each index once.
fn sorted(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("labels file");
    let mut lines: Vec<(usize, String)> = text
        .lines()
        .map(|l| {
            let i = l.split('\t').next().and_then(|i| i.parse().ok());
            (i.expect("an index first"), l.to_string())
        })
        .collect();
    lines.sort();
    let n = lines.len();
    lines.dedup_by_key(|(i, _)| *i);
    assert_eq!(
        lines.len(),
        n,
        "an index labelled twice in {}",
        path.display()
    );
    lines.into_iter().map(|(_, l)| l).collect()
}

#[test]
fn positions_are_reproducible_and_labels_do_not_depend_on_shards_or_sittings() {
    let dir = scratch("labels");
    let a = positions(&dir, "a.txt");
    let b = positions(&dir, "b.txt");
    let text = std::fs::read_to_string(&a).expect("positions");
    assert_eq!(text, std::fs::read_to_string(&b).expect("positions"));
    let count = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(count >= 20, "only {count} positions");
    for l in text.lines().skip(1) {
        let (kind, _) = l.split_once('\t').expect("kind<TAB>position");
        assert!(
            ["best", "played", "middle", "phase", "discrepancy"].contains(&kind),
            "{l}"
        );
    }

    let whole = dir.join("whole.txt");
    label(&a, &whole, &["--threads", "2"]);
    let whole = sorted(&whole);
    assert_eq!(whole.len(), count);

    let sharded = dir.join("sharded.txt");
    label(&a, &sharded, &["--shard", "1/3"]);
    label(&a, &sharded, &["--shard", "0/3"]);
    label(&a, &sharded, &["--shard", "2/3"]);
    assert_eq!(sorted(&sharded), whole);

    // Sittings cut short, one of them torn in the middle of a line.
    let sittings = dir.join("sittings.txt");
    label(&a, &sittings, &["--max", "5"]);
    let mut torn = std::fs::read_to_string(&sittings).expect("labels");
    torn.push_str("5\t0.12");
    std::fs::write(&sittings, torn).expect("write");
    label(&a, &sittings, &["--max", "7"]);
    label(&a, &sittings, &[]);
    assert_eq!(sorted(&sittings), whole);
}

#[test]
fn label_refuses_a_bad_positions_file_with_its_line() {
    let dir = scratch("bad");
    let p = dir.join("p.txt");
    std::fs::write(&p, "# header\nbest\tnot a position\n").expect("write");
    let out = Command::new(BIN)
        .args(["label", "--variant", "backgammon", "--positions"])
        .arg(&p)
        .arg("--out")
        .arg(dir.join("l.txt"))
        .output()
        .expect("gulbara runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("p.txt:2: not a position"), "{err}");
}

/// The loss of a network on a label folder's positions, as `supervise`
/// measures it before its first step (epoch 0 of the curve, nothing held
/// out): the fit of the weights `from` names, judged afresh.
fn fit_of(dir: &Path, variant: &str, from: &str) -> f64 {
    let curve = dir.join(format!("fit-{}.tsv", from.len()));
    gulbara(&[
        "supervise",
        "--variant",
        variant,
        "--data",
        dir.to_str().expect("utf-8 path"),
        "--from",
        from,
        "--out",
        dir.join("unchanged.gbnn").to_str().expect("utf-8 path"),
        "--curve",
        curve.to_str().expect("utf-8 path"),
        "--epochs",
        "0",
        "--holdout",
        "0",
    ]);
    let text = std::fs::read_to_string(&curve).expect("the curve");
    let row = text.lines().nth(1).expect("epoch 0");
    let cols: Vec<&str> = row.split('\t').collect();
    assert_eq!(cols[0], "0", "{text}");
    cols[1].parse().expect("train_ce")
}

/// Issue 28's pipeline in short, as CI runs it: positions found by
/// self-play, labelled by rollouts, a network trained from the shipped one
/// for a few steps and exported, then loaded and played. Judged afresh from
/// its weights file, it fits its labels better than the network it started
/// from. Every family of networks: the hitting games', the pinning games',
/// Gul bara's, long nardy's and Fevga's.
#[test]
fn the_short_pipeline_trains_a_network_that_fits_its_labels_better() {
    for variant in ["backgammon", "plakoto", "gulbara", "long_nardy", "fevga"] {
        short_pipeline(variant);
    }
}

fn short_pipeline(variant: &str) {
    let dir = scratch(&format!("pipeline-{variant}"));
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    gulbara(&[
        "positions",
        "--variant",
        variant,
        "--games",
        "2",
        "--seed",
        "4",
        "--out",
        &path("positions.txt"),
    ]);
    let out = gulbara(&[
        "label",
        "--variant",
        variant,
        "--positions",
        &path("positions.txt"),
        "--out",
        &path("labels.txt"),
        "--games",
        "36",
        "--truncate",
        "10",
        "--ply",
        "0",
        "--seed",
        "1",
        "--max",
        "24",
    ]);
    assert!(out.contains("24 positions labelled"), "{variant}: {out}");
    let trained = path("trained.gbnn");
    let out = gulbara(&[
        "supervise",
        "--variant",
        variant,
        "--data",
        &path(""),
        "--from",
        "shipped",
        "--out",
        &trained,
        "--curve",
        &path("curve.tsv"),
        "--epochs",
        "8",
        "--holdout",
        "0",
        "--rate",
        "1e-3",
    ]);
    assert!(out.contains("24 positions; weights in"), "{out}");
    let before = fit_of(&dir, variant, "shipped");
    let after = fit_of(&dir, variant, &trained);
    assert!(
        after < before,
        "{variant}: cross-entropy on the labels: {before} before, {after} after"
    );
    let played = gulbara(&[
        "match",
        "--variant",
        variant,
        "--engine",
        "cmd=builtin:net",
        "name=trained",
        &format!("option.engine.weights={trained}"),
        "option.engine.ply=1",
        "--engine",
        "cmd=builtin:net",
        "name=shipped",
        "option.engine.ply=1",
        "--games",
        "2",
        "--seed",
        "7",
    ]);
    assert!(played.contains("trained vs shipped"), "{played}");
    let _ = std::fs::remove_dir_all(&dir);
}
