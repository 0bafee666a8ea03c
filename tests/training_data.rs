//! Supervised training data with the real binary: `gulbara positions`
//! writes the same file for the same seed, and `gulbara label` gives the
//! same label to a position whether it is labelled whole, by shards, or
//! in sittings cut short (a torn last line included).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::scratch_dir as scratch;
use common::{LineIo, StdioEngine};

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// `gulbara ARGS` in the working directory; its standard output (it must
/// succeed).
fn gulbara(args: &[&str]) -> String {
    common::gulbara_stdout(Path::new("."), args)
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
            "no groups unless asked for: {l}"
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

/// `gulbara label` of the positions file `p` into `dir`/l.txt, which must
/// fail; what it says on stderr.
fn label_refused(dir: &Path, variant: &str, p: &Path) -> String {
    let out = Command::new(BIN)
        .args(["label", "--variant", variant, "--positions"])
        .arg(p)
        .arg("--out")
        .arg(dir.join("l.txt"))
        .output()
        .expect("gulbara runs");
    assert!(!out.status.success(), "label of {} succeeded", p.display());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn label_refuses_a_bad_positions_file_with_its_line() {
    let dir = scratch("bad");
    let p = dir.join("p.txt");
    std::fs::write(&p, "# header\nbest\tnot a position\n").expect("write");
    let err = label_refused(&dir, "backgammon", &p);
    assert!(err.contains("p.txt:2: not a position"), "{err}");
}

#[test]
fn a_missing_weights_file_is_named_once_with_its_cause_once() {
    let dir = scratch("noweights");
    let p = positions(&dir, "p.txt");
    let missing = dir.join("missing.gbnn");
    let out = Command::new(BIN)
        .args(["label", "--variant", "short_nardy", "--positions"])
        .arg(&p)
        .arg("--out")
        .arg(dir.join("l.txt"))
        .arg("--weights")
        .arg(&missing)
        .output()
        .expect("gulbara runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line of error: {err}");
    assert!(
        lines[0].starts_with("gulbara: cannot load the weights: "),
        "{err}"
    );
    let name = missing.to_str().expect("utf-8 path");
    assert_eq!(lines[0].matches(name).count(), 1, "{err}");
    assert_eq!(lines[0].matches("os error 2").count(), 1, "{err}");
    assert!(!dir.join("l.txt").exists(), "nothing written: {err}");
}

/// Short nardy positions that are all groups of a turn's plays found
/// together, `siblings` plays a group, written to `out`.
fn sibling_positions(out: &Path, siblings: &str) {
    gulbara(&[
        "positions",
        "--variant",
        "short_nardy",
        "--games",
        "2",
        "--seed",
        "9",
        "--discrepancy",
        "0",
        "--best-share",
        "0",
        "--middle-share",
        "0",
        "--sibling-share",
        "0.5",
        "--siblings",
        siblings,
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
}

/// The label line of index `i` in a labels file, without its index.
fn label_of(path: &Path, i: usize) -> String {
    let want = format!("{i}\t");
    let text = std::fs::read_to_string(path).expect("labels file");
    let line = text.lines().find(|l| l.starts_with(&want));
    line.expect("the index is labelled")[want.len()..].to_string()
}

#[test]
fn a_turns_plays_found_together_are_labelled_with_the_same_dice() {
    let dir = scratch("siblings");
    let p = dir.join("groups.txt");
    sibling_positions(&p, "3");
    let text = std::fs::read_to_string(&p).expect("positions");
    assert!(
        text.starts_with("# gulbara positions variant=short_nardy games=2 seed=9")
            && text
                .lines()
                .next()
                .expect("header")
                .contains(" sibling_share=0.5 siblings=3 "),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().skip(1).collect();
    // The first group of three: a turn and two siblings.
    let head = lines
        .windows(3)
        .position(|w| {
            w[0].starts_with("turn\t")
                && w[1].starts_with("sibling\t")
                && w[2].starts_with("sibling\t")
        })
        .expect("a group of three");
    let board = |l: &str| l.split_once('\t').expect("kind<TAB>position").1.to_string();
    let (turn, first, second) = (
        board(lines[head]),
        board(lines[head + 1]),
        board(lines[head + 2]),
    );
    // Alone at index 0, each position is rolled out with index 0's dice;
    // after its turn, a sibling is too, and so its label is the same.
    let alone = |name: &str, pos: &str| {
        let f = dir.join(name);
        std::fs::write(&f, format!("best\t{pos}\n")).expect("write");
        let out = dir.join(format!("{name}.labels"));
        label(&f, &out, &[]);
        label_of(&out, 0)
    };
    // The three positions, the second and third marked `kind`, labelled.
    let labelled = |name: &str, kind: &str| {
        let f = dir.join(format!("{name}.txt"));
        let text = format!("turn\t{turn}\n{kind}\t{first}\n{kind}\t{second}\n");
        std::fs::write(&f, text).expect("write");
        let out = dir.join(format!("{name}.labels"));
        label(&f, &out, &[]);
        out
    };
    let labels = labelled("group", "sibling");
    assert_eq!(label_of(&labels, 0), alone("t.txt", &turn));
    assert_eq!(label_of(&labels, 1), alone("a.txt", &first));
    assert_eq!(label_of(&labels, 2), alone("b.txt", &second));
    // As plain positions, the second and third have dice of their own.
    let plain_labels = labelled("plain", "best");
    assert_eq!(label_of(&plain_labels, 0), label_of(&labels, 0));
    assert_ne!(label_of(&plain_labels, 1), label_of(&labels, 1));
    assert_ne!(label_of(&plain_labels, 2), label_of(&labels, 2));
}

#[test]
fn label_refuses_an_unknown_kind_with_its_line() {
    let dir = scratch("kind");
    let p = dir.join("p.txt");
    let start = "0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15,0,0,0,0,0,0 w 0 0";
    std::fs::write(&p, format!("# header\nbest\t{start}\ncousin\t{start}\n")).expect("write");
    let err = label_refused(&dir, "short_nardy", &p);
    assert!(err.contains("p.txt:3: unknown kind \"cousin\""), "{err}");
    assert!(!dir.join("l.txt").exists(), "nothing labelled");
}

/// The loss of a network on a label folder's positions, as `supervise`
/// measures it before its first step (epoch 0 of the curve, nothing held
/// out): the fit of the weights `from` names, judged afresh.
fn fit_of(dir: &Path, variant: &str, from: &str) -> f64 {
    let curve = dir.join(format!("fit-{}.tsv", from.len()));
    let data = dir.to_str().expect("utf-8 path");
    let (_, row) = epoch0(variant, &[data], from, &dir.join("unchanged.gbnn"), &curve);
    let cols: Vec<&str> = row.split('\t').collect();
    assert_eq!(cols[0], "0", "{row}");
    cols[1].parse().expect("train_ce")
}

/// `gulbara supervise` for no epoch, nothing held out, from the weights
/// `from` names on the positions of the label `folders`, writing `out` and
/// `curve`: what it says, and the curve's row of epoch 0.
fn epoch0(
    variant: &str,
    folders: &[&str],
    from: &str,
    out: &Path,
    curve: &Path,
) -> (String, String) {
    let mut args = vec!["supervise", "--variant", variant];
    for f in folders {
        args.extend(["--data", f]);
    }
    args.extend([
        "--from",
        from,
        "--out",
        out.to_str().expect("utf-8 path"),
        "--curve",
        curve.to_str().expect("utf-8 path"),
        "--epochs",
        "0",
        "--holdout",
        "0",
    ]);
    let said = gulbara(&args);
    let text = std::fs::read_to_string(curve).expect("the curve");
    let row = text.lines().nth(1).expect("epoch 0").to_string();
    (said, row)
}

#[test]
fn supervise_trains_on_several_folders_together() {
    let dir = scratch("folders");
    let p = positions(&dir, "positions.txt");
    label(&p, &dir.join("labels.txt"), &["--max", "6"]);
    let d = dir.to_str().expect("utf-8 path");
    let out = dir.join("out.gbnn");
    let epoch0 = |folders: &[&str], name: &str| {
        epoch0("short_nardy", folders, "shipped", &out, &dir.join(name))
    };
    let (one, row1) = epoch0(&[d], "one.tsv");
    let (two, row2) = epoch0(&[d, d], "two.tsv");
    assert!(one.starts_with("6 positions;"), "{one}");
    assert!(two.starts_with("12 positions;"), "{two}");
    // The same positions twice: the same mean loss.
    assert_eq!(row1, row2);
}

/// The last row of a `supervise` curve, as numbers.
fn last_row(curve: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(curve).expect("the curve");
    assert!(
        text.starts_with("epoch\ttrain_ce\theld_out_ce\theld_out_equity_mae\theld_out_group_mae\theld_out_single_equity_mae\n"),
        "{text}"
    );
    let row = text.lines().last().expect("a row");
    row.split('\t')
        .map(|x| x.parse().expect("a number"))
        .collect()
}

#[test]
fn a_group_weight_trains_the_differences_between_a_turns_plays() {
    let dir = scratch("group-weight");
    let p = dir.join("positions.txt");
    sibling_positions(&p, "4");
    label(&p, &dir.join("labels.txt"), &["--max", "40"]);
    let d = dir.to_str().expect("utf-8 path");
    let train = |weight: &str, epochs: &str| {
        let curve = dir.join(format!("curve-{weight}-{epochs}.tsv"));
        let out = dir.join(format!("out-{weight}.gbnn"));
        gulbara(&[
            "supervise",
            "--variant",
            "short_nardy",
            "--data",
            d,
            "--out",
            out.to_str().expect("utf-8 path"),
            "--curve",
            curve.to_str().expect("utf-8 path"),
            "--epochs",
            epochs,
            "--patience",
            "1000",
            "--rate",
            "1e-3",
            "--holdout",
            "0",
            "--group-weight",
            weight,
        ]);
        last_row(&curve)
    };
    // Columns: epoch, train CE, held-out CE, equity error, group error
    // (nothing held out: the training set judges).
    let start = train("0", "0");
    assert_eq!(start[0], 0.0);
    assert!(start[4] > 0.0, "the groups are seen: {start:?}");
    let plain = train("0", "30");
    let grouped = train("300", "30");
    assert!(grouped[4] < start[4] * 0.8, "{start:?} -> {grouped:?}");
    assert!(grouped[4] < plain[4], "{plain:?} vs {grouped:?}");
    // A folder with no groups cannot be trained on their differences.
    let plain_dir = scratch("group-weight-none");
    let q = positions(&plain_dir, "positions.txt");
    label(&q, &plain_dir.join("labels.txt"), &["--max", "4"]);
    let out = Command::new(BIN)
        .args(["supervise", "--variant", "short_nardy", "--data"])
        .arg(&plain_dir)
        .arg("--out")
        .arg(plain_dir.join("x.gbnn"))
        .args(["--group-weight", "10"])
        .output()
        .expect("gulbara runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--group-weight: none of"), "{err}");
    // Numbers that would turn the weights to NaN are refused as read.
    for (flag, value) in [
        ("--group-weight", "inf"),
        ("--rate", "NaN"),
        ("--anchor", "-1"),
    ] {
        let out = Command::new(BIN)
            .args(["supervise", "--variant", "short_nardy", "--data"])
            .arg(&dir)
            .arg("--out")
            .arg(dir.join("inf.gbnn"))
            // `--anchor=-1`: a lone `-1` would be read as a flag.
            .arg(format!("{flag}={value}"))
            .output()
            .expect("gulbara runs");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag) && err.contains("is needed"), "{err}");
        assert!(!dir.join("inf.gbnn").exists());
    }
    assert!(!plain_dir.join("x.gbnn").exists());
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
        short_pipeline(variant, &[]);
    }
}

/// The short pipeline of a backgammon network given the gnubg-class
/// inputs of layout 7 (docs/INPUTS.md) on the way: trained, exported with
/// that layout, judged and played.
#[test]
fn the_short_pipeline_trains_a_network_with_the_gnubg_class_inputs() {
    let trained = short_pipeline("backgammon", &["--layout", "7"]);
    // The header's input layout (after the magic and the format version)
    // and inputs: layout 7's 239.
    let u32_at = |i: usize| u32::from_le_bytes(trained[i..i + 4].try_into().expect("4 bytes"));
    assert_eq!((u32_at(8), u32_at(12)), (7, 239));
}

/// Runs the short pipeline, `supervise` given `extra` arguments; returns
/// the trained weights file's bytes.
fn short_pipeline(variant: &str, extra: &[&str]) -> Vec<u8> {
    let dir = scratch(&format!("pipeline-{variant}{}", extra.join("")));
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
    let (data, curve) = (path(""), path("curve.tsv"));
    let mut args = short_fit(variant, &data, &trained, &curve);
    args.extend_from_slice(extra);
    let out = gulbara(&args);
    assert!(out.contains("24 positions; weights in"), "{out}");
    let before = fit_of(&dir, variant, "shipped");
    let after = fit_of(&dir, variant, &trained);
    assert!(
        after < before,
        "{variant}: cross-entropy on the labels: {before} before, {after} after"
    );
    play_against_shipped(variant, "trained", "weights", &trained);
    let bytes = std::fs::read(&trained).expect("the trained weights");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// The short pipeline of a backgammon race network (docs/TRAINING.md,
/// "Backgammon's networks per phase"): see [`phase_pipeline`]. A game with
/// one network for every phase refuses `--phase`.
#[test]
fn the_short_pipeline_trains_a_race_network() {
    let dir = phase_pipeline("race", "race_weights");
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    let refused = Command::new(BIN)
        .args([
            "supervise",
            "--variant",
            "long_nardy",
            "--data",
            &path(""),
            "--phase",
            "race",
            "--out",
            &path("long-nardy.gbnn"),
        ])
        .output()
        .expect("start gulbara");
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("one network for every phase"),
        "{refused:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The short pipeline of a backgammon crashed network (gnubg's crashed
/// boards, `src/eval/phase.rs`): see [`phase_pipeline`].
#[test]
fn the_short_pipeline_trains_a_crashed_network() {
    let dir = phase_pipeline("crashed", "crashed_weights");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Positions of backgammon, one a phase, as `position` takes them (White's
/// numbering, White to move): a crashed board (White's eight on the ace
/// point and four on the deuce, three outside, against Black's anchor on
/// White's 3-point), a race outside the tables (White's runners on its
/// 9-point, Black all home) and the start (contact).
const PHASE_BOARDS: [(&str, &str); 3] = [
    (
        "crashed",
        "board 8,4,-2,0,1,0,0,0,0,0,0,-5,2,0,0,0,-3,0,-5,0,0,0,0,0 w 10 10",
    ),
    (
        "race",
        "board 0,0,0,6,0,6,0,0,3,0,0,0,0,0,0,0,0,0,-5,0,0,0,-5,-5 w 10 10",
    ),
    ("contact", "startpos"),
];

/// The engine's `eval` line at 0-ply of each of [`PHASE_BOARDS`], with
/// `engine.{key}` set to `weights` first when given.
fn phase_evals(set: Option<(&str, &str)>) -> Vec<String> {
    let mut e = StdioEngine::start();
    e.ask("set game.variant backgammon", 0);
    e.ask("set engine.ply 1", 0);
    if let Some((key, weights)) = set {
        e.ask(&format!("set engine.{key} {weights}"), 0);
    }
    PHASE_BOARDS
        .iter()
        .map(|(_, board)| {
            e.ask(&format!("position {board}"), 0);
            let line = e.ask("eval", 1).remove(0);
            assert!(line.starts_with("evaluation win "), "{line}");
            line
        })
        .collect()
}

/// The short pipeline of a backgammon network for `phase` (docs/TRAINING.md,
/// "Backgammon's networks per phase"): `supervise --phase` trains on that
/// phase's labels only (a race network leaves out the races the tables
/// answer) and says how many there are, the trained network fits them
/// better than the shipped one, and given to the shipped one as its
/// `phase` network (`engine.{key}`) it plays, and judges that phase's
/// position differently while the other phases' stay as the shipped
/// network judges them. Returns the scratch folder (labels, `phase.gbnn`).
fn phase_pipeline(phase: &str, key: &str) -> PathBuf {
    let dir = scratch(&format!("pipeline-{phase}"));
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    gulbara(&[
        "positions",
        "--variant",
        "backgammon",
        "--games",
        "3",
        "--seed",
        "4",
        "--out",
        &path("positions.txt"),
    ]);
    gulbara(&[
        "label",
        "--variant",
        "backgammon",
        "--positions",
        &path("positions.txt"),
        "--out",
        &path("labels.txt"),
        "--games",
        "18",
        "--truncate",
        "4",
        "--seed",
        "1",
    ]);
    let (data, trained, curve) = (path(""), path(&format!("{phase}.gbnn")), path("curve.tsv"));
    let mut args = short_fit("backgammon", &data, &trained, &curve);
    args.extend_from_slice(&["--phase", phase]);
    let out = common::gulbara_ok(Path::new("."), &args);
    let said = String::from_utf8_lossy(&out.stderr);
    // "supervise: 86 positions: contact 61, crashed 7, race 18 (of which
    // all home, the tables' 0)", then "supervise: training on the 7
    // crashed positions".
    let counts = said
        .lines()
        .find_map(|l| l.strip_prefix("supervise: "))
        .filter(|l| l.contains(" positions: contact "))
        .expect("the phase counts");
    let count_of = |name: &str| -> usize {
        counts
            .split([',', ':', '('])
            .find_map(|part| part.trim().strip_prefix(&format!("{name} ")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} count in {counts}"))
    };
    let total: usize = counts
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("how many positions");
    let kept = said
        .lines()
        .find_map(|l| l.strip_prefix("supervise: training on the "))
        .and_then(|l| l.strip_suffix(&format!(" {phase} positions")))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("how many {phase} positions: {said}"));
    assert!(kept > 0 && kept <= count_of(phase), "{counts}");
    assert!(kept < total, "only {phase} positions are kept: {counts}");
    // The curve's first and last rows: the shipped network and the trained
    // one on the phase's positions.
    let text = std::fs::read_to_string(&curve).expect("the curve");
    let ce = |row: &str| -> f64 {
        row.split('\t')
            .nth(1)
            .expect("train_ce")
            .parse()
            .expect("a number")
    };
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(ce(rows[rows.len() - 1]) < ce(rows[0]), "{text}");
    play_against_shipped("backgammon", phase, key, &trained);
    // Only the phase's own position is judged by the trained network.
    let shipped = phase_evals(None);
    let with = phase_evals(Some((key, &trained)));
    for (i, (name, _)) in PHASE_BOARDS.iter().enumerate() {
        if *name == phase {
            assert_ne!(with[i], shipped[i], "{name}: the {phase} network unused");
        } else {
            assert_eq!(with[i], shipped[i], "{name} judged by the {phase} network");
        }
    }
    dir
}

/// Two games of `variant` at 0-ply: the built-in network with
/// `option.engine.{key}` set to `trained`, named `name`, against the
/// shipped one.
fn play_against_shipped(variant: &str, name: &str, key: &str, trained: &str) {
    let played = gulbara(&[
        "match",
        "--variant",
        variant,
        "--engine",
        "cmd=builtin:net",
        &format!("name={name}"),
        &format!("option.engine.{key}={trained}"),
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
    assert!(played.contains(&format!("{name} vs shipped")), "{played}");
}

/// The arguments of a short `supervise` run from the shipped network: 8
/// epochs on every label of `data`, no held-out part.
fn short_fit<'a>(variant: &'a str, data: &'a str, out: &'a str, curve: &'a str) -> Vec<&'a str> {
    vec![
        "supervise",
        "--variant",
        variant,
        "--data",
        data,
        "--from",
        "shipped",
        "--out",
        out,
        "--curve",
        curve,
        "--epochs",
        "8",
        "--holdout",
        "0",
        "--rate",
        "1e-3",
    ]
}

/// `scripts/bearoff_contact_positions.py` (docs/TRAINING.md, "Bearing off
/// against contact"): the same file for the same seed, every position one
/// the engine accepts, and each what the set is for: one side has borne
/// off and has a checker on the bar, the other has all fifteen in play,
/// a home board of three points or more and a checker in the bearer's home.
#[test]
fn the_bearoff_contact_positions_are_hit_bear_offs_the_engine_accepts() {
    let dir = scratch("bearoff-contact");
    let write = |name: &str| {
        let out = Command::new("python3")
            .args(["scripts/bearoff_contact_positions.py", "300", "7"])
            .output()
            .expect("python3 runs the script");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let p = dir.join(name);
        std::fs::write(&p, &out.stdout).expect("positions written");
        (p, String::from_utf8(out.stdout).expect("utf-8"))
    };
    let (file, text) = write("a.txt");
    assert_eq!(text, write("b.txt").1, "the same seed wrote another file");
    let mut bearers = [0; 2];
    let mut bearer_on_roll = 0;
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 300);
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let counts: Vec<i32> = words[0]
            .split(',')
            .map(|c| c.parse().expect("a count"))
            .collect();
        assert_eq!(counts.len(), 24, "{line}");
        let bar: Vec<i32> = words[4]
            .strip_prefix("bar=")
            .expect("bar=")
            .split(',')
            .map(|c| c.parse().expect("a bar count"))
            .collect();
        let on_board = |sign: i32| -> i32 { counts.iter().map(|&c| (c * sign).max(0)).sum() };
        let white = on_board(1) + bar[0];
        let black = on_board(-1) + bar[1];
        // White's home is points 1-6 (indices 0-5), Black's 19-24.
        let (bearer, sign, holder_home, bearer_home) = if white < 15 {
            (0, 1, 18..24, 0..6)
        } else {
            (1, -1, 0..6, 18..24)
        };
        assert_eq!(white.max(black), 15, "{line}");
        assert!(white.min(black) <= 12, "{line}: nothing borne off");
        assert!(bar[bearer] >= 1, "{line}: the bearer is not on the bar");
        assert_eq!(bar[1 - bearer], 0, "{line}");
        let made = counts[holder_home]
            .iter()
            .filter(|&&c| c * sign <= -2)
            .count();
        assert!(made >= 3, "{line}: a home board of {made} points");
        assert!(
            counts[bearer_home].iter().any(|&c| c * sign < 0),
            "{line}: no checker of the holder in the bearer's home"
        );
        bearers[bearer] += 1;
        let mover = if words[1] == "w" { 0 } else { 1 };
        bearer_on_roll += usize::from(mover == bearer);
    }
    assert!(bearers.iter().all(|&n| n > 100), "{bearers:?}");
    assert!((100..250).contains(&bearer_on_roll), "{bearer_on_roll}");
    // Every position is one the rules accept: a one-ply label of each.
    let labels = dir.join("labels.txt");
    gulbara(&[
        "label",
        "--variant",
        "backgammon",
        "--games",
        "1",
        "--truncate",
        "1",
        "--positions",
        file.to_str().expect("utf-8 path"),
        "--out",
        labels.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(sorted(&labels).len(), 300);
    let _ = std::fs::remove_dir_all(&dir);
}
