//! Stage generation speed on the committed corpus (`benches/corpus.txt`,
//! written by `examples/make_corpus.rs`).
//!
//! Counts distinct stage end positions generated per second: every position
//! of the corpus with each of the 15 non-doublet rolls, and with each of the
//! 6 doublets played as one stage of four dice. A stage with nothing playable
//! yields its one unchanged end, which counts. Run with
//! `cargo bench --bench movegen`; besides criterion's report (elements/s) a
//! summary line per benchmark gives total ends / median time of whole passes.

mod common;

use std::hint::black_box;

use common::{doublets, non_doublets};
use gulbara::notation::parse_state_text;
use gulbara::rules::{MoveGen, Position, StageDice, StageEnd};

const CORPUS: &str = include_str!("corpus.txt");

/// Corpus positions (mover's view) and whether each is a contact position.
fn corpus() -> Vec<(Position, bool)> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let pos = parse_state_text(l)
                .unwrap_or_else(|e| panic!("bad corpus line {l:?}: {e}"))
                .pos;
            (pos, is_contact(pos))
        })
        .collect()
}

/// Same definition as in `examples/make_corpus.rs`.
fn blocked_ahead(pos: Position) -> bool {
    let own = pos.own.mask();
    own != 0 && pos.blocked() & ((1u32 << (31 - own.leading_zeros())) - 1) != 0
}

fn is_contact(pos: Position) -> bool {
    blocked_ahead(pos) && blocked_ahead(pos.flipped())
}

/// One pass: every position with every stage; returns the ends generated.
#[inline(never)]
fn pass(
    gen_: &mut MoveGen,
    out: &mut Vec<StageEnd>,
    positions: &[Position],
    stages: &[StageDice],
) -> usize {
    let mut total = 0;
    for &pos in positions {
        for &dice in stages {
            gen_.generate(black_box(pos), dice, out);
            total += black_box(&*out).len();
        }
    }
    total
}

struct Case {
    name: &'static str,
    positions: Vec<Position>,
    stages: Vec<StageDice>,
    ends: usize,
}

fn cases() -> Vec<Case> {
    let all = corpus();
    let contact: Vec<Position> = all.iter().filter(|p| p.1).map(|p| p.0).collect();
    let all: Vec<Position> = all.iter().map(|p| p.0).collect();
    let mut g = MoveGen::new();
    let mut out = Vec::new();
    let mut v = Vec::new();
    for (name, positions, stages) in [
        ("non_doublets/contact", contact.clone(), non_doublets()),
        ("non_doublets/all", all.clone(), non_doublets()),
        ("doublets/contact", contact, doublets()),
        ("doublets/all", all, doublets()),
    ] {
        let ends = pass(&mut g, &mut out, &positions, &stages);
        v.push(Case {
            name,
            positions,
            stages,
            ends,
        });
    }
    v
}

impl common::Case for Case {
    type Gens = (MoveGen, Vec<StageEnd>);

    fn name(&self) -> &'static str {
        self.name
    }

    fn ends(&self) -> usize {
        self.ends
    }

    fn pass(&self, (g, out): &mut Self::Gens) -> usize {
        pass(g, out, &self.positions, &self.stages)
    }

    fn sizes(&self) -> (usize, usize, &'static str) {
        (self.positions.len(), self.stages.len(), "")
    }
}

fn main() {
    common::run("movegen", 22, &cases());
}
