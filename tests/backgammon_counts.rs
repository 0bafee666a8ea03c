//! Backgammon move generation (`HitGen`) against published counts of
//! distinct legal plays.
//!
//! - The 2 × 1,000 benchmark positions of `shared/peer-vectors/
//!   backgammon-positions` (gnubg Position IDs from wildbg's benchmark; the
//!   side on roll is to move): the distinct ends summed over the 15
//!   non-doublet rolls and over the 6 doublets, as that directory's README
//!   gives them.
//! - The standard starting position: distinct plays for each of the 21 rolls.

use std::collections::HashSet;

use gulbara::gnubg::position_id::{self, GnubgBoard, SideCounts};
use gulbara::rules::hitting::HitGen;
use gulbara::rules::{Checkers, Position, StageDice, StageEnd};

mod common;

fn side(c: &SideCounts) -> Checkers {
    let mut points = [0u8; 24];
    points.copy_from_slice(&c[..24]);
    Checkers::from_counts_with_bar(&points, c[24]).expect("at most 15 checkers")
}

fn position_of(b: &GnubgBoard) -> Position {
    Position {
        own: side(&b.on_roll),
        opp: side(&b.opponent),
    }
}

fn positions(file: &str) -> Vec<Position> {
    let path = common::shared_path(&format!("peer-vectors/backgammon-positions/{file}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|id| {
            let b = position_id::decode(id).unwrap_or_else(|e| panic!("{file}: {id}: {e}"));
            position_of(&b)
        })
        .collect()
}

/// Distinct ends of one roll, checking that the generator lists each once.
fn ends(g: &mut HitGen, out: &mut Vec<StageEnd>, pos: Position, a: u8, b: u8) -> usize {
    let dice = if a == b {
        StageDice::Same { die: a, count: 4 }
    } else {
        StageDice::Pair(a.max(b), a.min(b))
    };
    g.generate(pos, dice, out);
    let distinct: HashSet<Position> = out.iter().map(|e| e.pos).collect();
    assert_eq!(
        distinct.len(),
        out.len(),
        "an end listed twice: {pos:?} {a}{b}"
    );
    out.len()
}

/// (non-doublet sum, doublet sum) over a file's positions.
fn sums(file: &str) -> (usize, usize) {
    let all = positions(file);
    assert_eq!(all.len(), 1000, "{file}");
    let mut g = HitGen::new();
    let mut out = Vec::new();
    let (mut pairs, mut doublets) = (0, 0);
    for &pos in &all {
        for a in 1..=6u8 {
            for b in 1..a {
                pairs += ends(&mut g, &mut out, pos, a, b);
            }
            doublets += ends(&mut g, &mut out, pos, a, a);
        }
    }
    (pairs, doublets)
}

#[test]
fn contact_benchmark_counts() {
    assert_eq!(sums("contact.csv"), (185_957, 218_356));
}

#[test]
fn race_benchmark_counts() {
    assert_eq!(sums("race.csv"), (122_570, 140_720));
}

#[test]
fn start_position_counts() {
    let start = position_id::decode("4HPwATDgc/ABMA").unwrap();
    let pos = position_of(&start);
    let mut g = HitGen::new();
    let mut out = Vec::new();
    let expected: [(u8, u8, usize); 21] = [
        (2, 1, 15),
        (3, 1, 16),
        (4, 1, 14),
        (5, 1, 8),
        (6, 1, 10),
        (3, 2, 17),
        (4, 2, 18),
        (5, 2, 8),
        (6, 2, 14),
        (4, 3, 17),
        (5, 3, 9),
        (6, 3, 14),
        (5, 4, 9),
        (6, 4, 14),
        (6, 5, 7),
        (1, 1, 42),
        (2, 2, 75),
        (3, 3, 73),
        (4, 4, 52),
        (5, 5, 4),
        (6, 6, 11),
    ];
    let got: Vec<(u8, u8, usize)> = expected
        .iter()
        .map(|&(a, b, _)| (a, b, ends(&mut g, &mut out, pos, a, b)))
        .collect();
    assert_eq!(got, expected);
}
