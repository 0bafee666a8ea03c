//! The match runner, records, `replay`, `analyse` and `selfplay` for every
//! game: builtin players and real engine processes (the `gulbara` binary as
//! an external engine) play long nardy, short nardy and backgammon to the
//! end; the records name the game and read back; Gul bara records written
//! before the other games existed still replay exactly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;

use common::{engine_count as n, match_json as run_match, scratch_dir as scratch};

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// `gulbara match` engine arguments: the random player, named rnd.
const VS_RND: [&str; 3] = ["--engine", "cmd=builtin:random", "name=rnd"];

/// The games added after Gul bara.
const VARIANTS: [&str; 3] = ["long_nardy", "short_nardy", "backgammon"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `gulbara ARGS`, success or not.
fn gulbara(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("gulbara runs")
}

fn stdout_of(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The record files of a folder, in order.
fn records(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// Checks a match summary of `games` complete games of `variant` with no
/// forfeits.
fn check_summary(v: &Value, variant: &str, games: u64) {
    assert_eq!(v["variant"].as_str(), Some(variant), "{v}");
    assert_eq!(v["games"].as_u64(), Some(games), "{v}");
    assert_eq!(n(v, "forfeits", 0) + n(v, "forfeits", 1), 0, "{v}");
    // Every game ends with a winner: the stuck rule is Gul bara's.
    assert_eq!(n(v, "wins", 0) + n(v, "wins", 1), games, "{v}");
    assert_eq!(v["stuck"].as_u64(), Some(0), "{v}");
    let max = if variant == "backgammon" { 3.0 } else { 2.0 };
    let ppg = v["ppg"].as_f64().unwrap();
    assert!((-max..=max).contains(&ppg), "{v}");
    assert!(v["se"].as_f64().unwrap() >= 0.0, "{v}");
    for i in 0..2 {
        assert!(n(v, "mars", i) <= n(v, "wins", i), "{v}");
    }
    let bg = |i| {
        if variant == "backgammon" {
            n(v, "backgammons", i)
        } else {
            0
        }
    };
    if variant == "backgammon" {
        for i in 0..2 {
            assert!(bg(i) <= n(v, "mars", i), "{v}");
        }
    } else {
        assert!(v.get("backgammons").is_none(), "{v}");
    }
    // Points per game: a single win is 1, a mars (gammon) 2, a backgammon 3.
    let points = |i| (n(v, "wins", i) + n(v, "mars", i) + bg(i)) as f64;
    let want = (points(0) - points(1)) / games as f64;
    assert!(
        (ppg - want).abs() < 1e-9,
        "{v}: ppg {ppg}, points give {want}"
    );
}

/// Checks that every record in `dir` (`games` of them) names `variant`,
/// replays, and that the first one is analysed.
fn check_records(dir: &Path, variant: &str, games: usize) {
    let files = records(dir);
    assert_eq!(files.len(), games, "{}", dir.display());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            text.contains(&format!("; [Variant \"{variant}\"]")),
            "{text}"
        );
        assert!(
            text.contains(&format!("; [Rules \"variant={variant} ")),
            "{text}"
        );
        let out = stdout_of(&gulbara(&["replay", f.to_str().unwrap()]), "replay");
        assert!(out.starts_with(&format!("variant {variant}\n")), "{out}");
        assert!(out.contains("ok 1 games"), "{out}");
        assert!(out.contains("result Wins"), "{out}");
    }
    let out = stdout_of(
        &gulbara(&["analyse", "--ply", "1", files[0].to_str().unwrap()]),
        "analyse",
    );
    assert!(out.starts_with(&format!("variant {variant}\n")), "{out}");
    assert!(out.contains(" turn "), "{out}");
    assert!(out.contains("error rate"), "{out}");
}

#[test]
fn builtin_players_play_every_variant() {
    for variant in VARIANTS {
        let dir = scratch(&format!("builtin-{variant}"));
        let heuristic = [
            "--engine",
            "cmd=builtin:heuristic",
            "name=baseline",
            "option.engine.ply=1",
        ];
        let rest = ["--games", "8", "--seed", "3", "-j", "2", "--records"];
        let v = run_match(
            &[
                &["--variant", variant][..],
                &heuristic,
                &common::RANDOM_ENGINE,
                &rest,
                &[dir.to_str().unwrap()],
            ]
            .concat(),
        );
        check_summary(&v, variant, 8);
        check_records(&dir, variant, 8);
        if variant == "backgammon" {
            // Three-point games are played and counted.
            assert!(n(&v, "backgammons", 0) > 0, "{v}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn spawned_engines_play_every_variant() {
    for variant in VARIANTS {
        let dir = scratch(&format!("spawned-{variant}"));
        let mut args = vec!["--variant", variant];
        args.extend(common::SPAWNED_PAIR);
        args.extend([
            "--games",
            "2",
            "--seed",
            "8",
            "-j",
            "2",
            "--records",
            dir.to_str().unwrap(),
        ]);
        // Long nardy with rules other than its defaults: the engines must
        // play them (the referee refuses a turn they forbid).
        if variant == "long_nardy" {
            args.extend_from_slice(&[
                "--rule",
                "six_block=per_step",
                "--rule",
                "head_first_turn=any_double",
            ]);
        }
        let v = run_match(&args);
        check_summary(&v, variant, 2);
        // The same engine in both seats of a mirrored pair.
        assert_eq!(v["ppg"].as_f64(), Some(0.0), "{v}");
        check_records(&dir, variant, 2);
        if variant == "long_nardy" {
            let text = std::fs::read_to_string(&records(&dir)[0]).unwrap();
            assert!(
                text.contains(
                    "; [Rules \"variant=long_nardy opening=reroll head_first_turn=any_double six_block=per_step\"]"
                ),
                "{text}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The lines a logging fake engine was sent in a two-game match of
/// `variant` with `rules` against the random player.
fn lines_sent(variant: &str, rules: &[&str]) -> Vec<String> {
    let dir = scratch(&format!("log-{variant}"));
    let log = dir.join("sent.log");
    let fake = format!(
        "cmd=bash {} log {}",
        fixture("fake_engine.sh").display(),
        log.display()
    );
    let mut args = vec!["--variant", variant, "--engine", &fake, "name=fake"];
    args.extend(VS_RND);
    args.extend(["--games", "2", "--seed", "4"]);
    for r in rules {
        args.extend_from_slice(&["--rule", r]);
    }
    let v = run_match(&args);
    assert_eq!(v["variant"].as_str(), Some(variant));
    // It answers every turn with an illegal move.
    assert_eq!(n(&v, "forfeits", 0), 2, "{v}");
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    text.lines().map(str::to_string).collect()
}

#[test]
fn external_engines_are_told_the_variant_before_its_rules() {
    let sent = lines_sent("long_nardy", &["six_block=per_step"]);
    let at = |line: &str| {
        sent.iter()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("'{line}' not sent: {sent:?}"))
    };
    let variant = at("set game.variant long_nardy");
    assert!(variant < at("set rules.opening reroll"), "{sent:?}");
    assert!(variant < at("set rules.head_first_turn needs_second"));
    assert!(variant < at("set rules.six_block per_step"));
    assert!(at("set rules.six_block per_step") < at("isready"));
    // Only long nardy's options.
    assert!(!sent.iter().any(|l| l.contains("exempt_rolls")), "{sent:?}");
    // Position text with 24 points.
    let pos = sent
        .iter()
        .find_map(|l| l.strip_prefix("position board "))
        .expect("a position is sent");
    let points = pos.split_whitespace().next().unwrap().split(',').count();
    assert_eq!(points, 24, "{pos}");

    // Backgammon's start in its notation, and its one option.
    let sent = lines_sent("backgammon", &[]);
    assert!(sent.contains(&"set game.variant backgammon".to_string()));
    assert!(sent.contains(&"set rules.opening single".to_string()));
    assert!(
        !sent
            .iter()
            .any(|l| l.starts_with("set rules.") && !l.starts_with("set rules.opening")),
        "{sent:?}"
    );
    assert!(
        sent.iter().any(|l| l.starts_with("position board ")
            && l.contains("-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2")),
        "{sent:?}"
    );

    // Gul bara engines are not sent game.variant: engines that know only
    // Gul bara keep working.
    let sent = lines_sent("gulbara", &[]);
    assert!(!sent.iter().any(|l| l.contains("game.variant")), "{sent:?}");
    assert!(sent.contains(&"set rules.remainder opponent".to_string()));
}

#[test]
fn the_text_summary_names_the_variant() {
    let out = gulbara(&[
        "match",
        "--variant",
        "backgammon",
        "--engine",
        "cmd=builtin:heuristic",
        "name=h",
        "--engine",
        "cmd=builtin:random",
        "name=r",
        "--games",
        "2",
        "--no-progress",
    ]);
    let text = stdout_of(&out, "match");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("games 2  h vs r"), "{text}");
    assert_eq!(lines[1], "variant backgammon", "{text}");
    assert!(text.contains("\nbackgammons "), "{text}");
    assert!(text.contains("\nppg "), "{text}");
}

#[test]
fn selfplay_plays_every_variant() {
    for variant in VARIANTS {
        let dir = scratch(&format!("selfplay-{variant}"));
        let out = gulbara(&[
            "selfplay",
            "--variant",
            variant,
            "--games",
            "2",
            "--seed",
            "6",
            "--records",
            dir.to_str().unwrap(),
        ]);
        let text = stdout_of(&out, "selfplay");
        assert!(text.contains(&format!("variant {variant}")), "{text}");
        assert!(text.contains("forfeits 0 - 0"), "{text}");
        check_records(&dir, variant, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn another_games_rule_or_an_unknown_game_is_refused() {
    let base = [
        &["match"][..],
        &common::RANDOM_PAIR,
        &["--games", "2", "--no-progress"],
    ]
    .concat();
    let with = |extra: &[&str]| {
        let mut a = base.clone();
        a.extend_from_slice(extra);
        gulbara(&a)
    };
    let out = with(&["--variant", "backgammon", "--rule", "exempt_rolls=1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exempt_rolls is not a rule option of backgammon"),
        "{err}"
    );
    let out = with(&["--variant", "chess"]);
    assert!(!out.status.success());
    let out = gulbara(&[
        "selfplay",
        "--variant",
        "long_nardy",
        "--rule",
        "remainder=lost",
    ]);
    assert!(!out.status.success());
}

#[test]
fn gul_bara_records_from_before_variants_replay_exactly() {
    let file = fixture("gulbara_record_before_variants.txt");
    let want = std::fs::read_to_string(fixture("gulbara_record_before_variants.replay")).unwrap();
    let out = stdout_of(&gulbara(&["replay", file.to_str().unwrap()]), "replay");
    assert_eq!(out, want);
    // Without its Variant tag (as records of tools that wrote only the
    // Rules tag) it is the same Gul bara game.
    let dir = scratch("old-record");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("; [Variant \"gulbara\"]"));
    let untagged = dir.join("untagged.txt");
    std::fs::write(&untagged, text.replace("; [Variant \"gulbara\"]\n", "")).unwrap();
    let out = stdout_of(&gulbara(&["replay", untagged.to_str().unwrap()]), "replay");
    assert_eq!(out, want);
    // Claimed to be another game, it does not replay.
    let wrong = dir.join("wrong.txt");
    std::fs::write(
        &wrong,
        text.replace("; [Variant \"gulbara\"]", "; [Variant \"long_nardy\"]"),
    )
    .unwrap();
    assert!(
        !gulbara(&["replay", wrong.to_str().unwrap()])
            .status
            .success()
    );
    let out = stdout_of(
        &gulbara(&["analyse", "--ply", "1", file.to_str().unwrap()]),
        "analyse",
    );
    assert!(out.starts_with("game 1 turn "), "{out}");
    assert!(out.contains("player alpha: decisions "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of an `analyse` report that judge decisions (`game ... lost x`).
fn decision_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("game ")).collect()
}

#[test]
fn analyse_judges_with_the_games_network_at_any_depth() {
    let dir = scratch("analyse-judges");
    // One self-play game of backgammon and one of Gul bara.
    for variant in ["backgammon", "gulbara"] {
        let sub = dir.join(variant);
        let out = gulbara(&[
            "selfplay",
            "--variant",
            variant,
            "--games",
            "1",
            "--seed",
            "11",
            "--records",
            sub.to_str().unwrap(),
        ]);
        stdout_of(&out, "selfplay");
    }
    let bg = records(&dir.join("backgammon"))[0].clone();
    let gb = records(&dir.join("gulbara"))[0].clone();
    let analyse = |extra: &[&str], file: &Path| {
        let mut args = vec!["analyse"];
        args.extend_from_slice(extra);
        args.push(file.to_str().unwrap());
        gulbara(&args)
    };
    // The network (the default) and the baseline judge the same decisions
    // differently.
    let net = stdout_of(&analyse(&["--ply", "1"], &bg), "analyse");
    let base = stdout_of(
        &analyse(&["--ply", "1", "--eval", "baseline"], &bg),
        "analyse",
    );
    assert!(net.starts_with("variant backgammon\n"), "{net}");
    assert_eq!(decision_lines(&net).len(), decision_lines(&base).len());
    assert!(!decision_lines(&net).is_empty());
    assert_ne!(decision_lines(&net), decision_lines(&base));
    // Naming the shipped weights is the default.
    let named = stdout_of(
        &analyse(
            &["--ply", "1", "--weights", "src/eval/backgammon.gbnn"],
            &bg,
        ),
        "analyse",
    );
    assert_eq!(named, net);
    // gnubg's 2-ply (`--ply 3`) is searched, not clamped to 1-ply: the same
    // decisions, other figures.
    let one = stdout_of(&analyse(&["--ply", "2"], &gb), "analyse");
    let two = stdout_of(&analyse(&["--ply", "3"], &gb), "analyse");
    assert_eq!(decision_lines(&one).len(), decision_lines(&two).len());
    assert_ne!(decision_lines(&one), decision_lines(&two));
    assert!(two.contains("error rate"), "{two}");
    // Another game's weights, or weights with the baseline, are refused.
    let wrong = analyse(&["--weights", "src/eval/long_nardy.gbnn"], &gb);
    assert!(!wrong.status.success());
    let err = String::from_utf8_lossy(&wrong.stderr);
    assert!(err.contains("another game"), "{err}");
    let both = analyse(
        &["--eval", "baseline", "--weights", "src/eval/gulbara.gbnn"],
        &gb,
    );
    assert!(!both.status.success());
    assert!(String::from_utf8_lossy(&both.stderr).contains("--weights needs --eval net"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_loads_weights_of_the_game_the_match_plays() {
    // The game is set before the engine's own options, so weights of a
    // game other than Gul bara are checked against that game.
    let engine = format!("cmd={BIN}");
    // A short-nardy match of 2 games against the random player, the engine
    // loading `file` (under src/eval/).
    let with_weights = |name: &str, file: &str| {
        let weights = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/eval")
            .join(file);
        let option = format!("option.engine.weights={}", weights.display());
        let name = format!("name={name}");
        let ours = [
            "--variant",
            "short_nardy",
            "--engine",
            &engine,
            &name,
            &option,
        ];
        run_match(&[&ours[..], &VS_RND, &["--games", "2", "--seed", "3"]].concat())
    };
    let v = with_weights("named", "backgammon.gbnn");
    assert_eq!(n(&v, "forfeits", 0), 0, "{v}");
    assert_eq!(n(&v, "forfeits", 1), 0, "{v}");
    // And Gul bara's weights are refused there, as the game's own loader says.
    let v = with_weights("wrong", "gulbara.gbnn");
    assert_eq!(n(&v, "forfeits", 0), 2, "{v}");
}
