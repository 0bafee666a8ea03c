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
