//! `gulbara label --games 36 --truncate 1 --ply 0` is the engine's own
//! 1-ply value of each position: the 36 first rolls stratified cover every
//! roll once, the side on roll plays each with its best 0-ply turn, and the
//! network scores the result. The luck correction then has nothing left to
//! remove. This is what the search-distilled labels rest on
//! (docs/TRAINING.md, data/training/plakoto/distil1/), so it is checked
//! here against the protocol's `eval` at `engine.ply 2` (gnubg's 1-ply),
//! both through the real binary, on positions found by self-play.
//!
//! Gul bara is left out: there the engine's 1-ply answers each roll with a
//! prefiltered turn (`Search::turns_prefiltered`, Gul bara only) and the
//! rollout's choice can differ, by up to about 0.01 in equity.

use std::collections::HashMap;
use std::path::Path;

mod common;

use common::scratch_dir as scratch;
use common::{LineIo, StdioEngine};

/// The positions file's position texts, in order (index 0 first).
fn position_texts(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("positions file")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_once('\t')
                .map(|(_, p)| p.to_string())
                .expect("kind<TAB>position")
        })
        .collect()
}

/// Each labelled index's columns (win, winmars, losemars, winbg, losebg,
/// equity, se).
fn labels(path: &Path) -> HashMap<usize, Vec<f64>> {
    std::fs::read_to_string(path)
        .expect("labels file")
        .lines()
        .map(|l| {
            let mut w = l.split('\t');
            let i: usize = w.next().expect("index").parse().expect("an index");
            let v: Vec<f64> = w.map(|x| x.parse().expect("a number")).collect();
            assert_eq!(v.len(), 7, "{l}");
            (i, v)
        })
        .collect()
}

/// The engine's `eval` of each position at `engine.ply` `ply`: the
/// `win`, `winmars`, `losemars` and `equity` words of each answer (each
/// `eval` is awaited before the next position is set).
fn evals(variant: &str, ply: u8, positions: &[String]) -> Vec<[f64; 4]> {
    let mut e = StdioEngine::start();
    e.send("ubgi");
    while e.recv() != "ubgiok" {}
    e.send(&format!("set game.variant {variant}"));
    e.send(&format!("set engine.ply {ply}"));
    e.sync();
    let mut out = Vec::new();
    for p in positions {
        e.send(&format!("position board {p}"));
        e.send("eval");
        let line = loop {
            let l = e.recv();
            assert!(!l.starts_with("error"), "{p}: {l}");
            if l.starts_with("evaluation ") {
                break l;
            }
        };
        let w: Vec<&str> = line.split_whitespace().collect();
        let word = |k: &str| -> f64 {
            let at = w.iter().position(|x| *x == k).expect(k);
            w[at + 1].parse().expect("a number")
        };
        out.push([
            word("win"),
            word("winmars"),
            word("losemars"),
            word("equity"),
        ]);
    }
    e.send("quit");
    out
}

fn label_is_one_ply(variant: &str, games: &str, seed: &str, max: usize) {
    let dir = scratch(&format!("one-ply-label-{variant}"));
    let p = dir.join("positions.txt");
    let l = dir.join("labels.txt");
    let (p_s, l_s) = (p.to_str().expect("utf-8"), l.to_str().expect("utf-8"));
    let max_s = max.to_string();
    common::gulbara_ok(
        &dir,
        &[
            "positions",
            "--variant",
            variant,
            "--games",
            games,
            "--seed",
            seed,
            "--out",
            p_s,
        ],
    );
    common::gulbara_ok(
        &dir,
        &[
            "label",
            "--variant",
            variant,
            "--positions",
            p_s,
            "--out",
            l_s,
            "--games",
            "36",
            "--truncate",
            "1",
            "--ply",
            "0",
            "--max",
            &max_s,
        ],
    );
    let texts = position_texts(&p);
    let labelled = labels(&l);
    assert_eq!(labelled.len(), max.min(texts.len()));
    let mut idx: Vec<usize> = labelled.keys().copied().collect();
    idx.sort_unstable();
    let chosen: Vec<String> = idx.iter().map(|&i| texts[i].clone()).collect();
    let one_ply = evals(variant, 2, &chosen);
    let zero_ply = evals(variant, 1, &chosen);
    let mut apart = 0;
    for (k, &i) in idx.iter().enumerate() {
        let lab = &labelled[&i];
        // win, winmars, losemars and the equity; `eval` prints four
        // decimals, the labels five.
        let want = [lab[0], lab[1], lab[2], lab[5]];
        for (j, (a, b)) in want.iter().zip(one_ply[k]).enumerate() {
            assert!(
                (a - b).abs() < 2e-4,
                "position {i} ({}), column {j}: label {a}, 1-ply eval {b}",
                texts[i]
            );
        }
        assert!(lab[6].abs() < 1e-9, "every roll covered once: no spread");
        if (lab[5] - zero_ply[k][3]).abs() > 0.005 {
            apart += 1;
        }
    }
    // The check can tell 1-ply from 0-ply: most of these positions' two
    // values differ by more than the tolerance above.
    assert!(apart * 2 > idx.len(), "{apart} of {}", idx.len());
}

#[test]
fn a_one_roll_label_is_the_plakoto_network_at_one_ply() {
    label_is_one_ply("plakoto", "2", "11", 40);
}

#[test]
fn a_one_roll_label_is_the_backgammon_network_at_one_ply() {
    label_is_one_ply("backgammon", "2", "11", 40);
}

#[test]
fn a_one_roll_label_is_the_tabla_network_at_one_ply() {
    label_is_one_ply("tabla", "2", "11", 40);
}

#[test]
fn a_one_roll_label_is_the_fevga_network_at_one_ply() {
    label_is_one_ply("fevga", "2", "11", 40);
}

#[test]
fn a_one_roll_label_is_the_short_nardy_network_at_one_ply() {
    label_is_one_ply("short_nardy", "2", "11", 40);
}
