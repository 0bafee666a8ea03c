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
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
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

fn non_doublets() -> Vec<StageDice> {
    let mut v = Vec::new();
    for a in 1..=6u8 {
        for b in 1..a {
            v.push(StageDice::Pair(a, b));
        }
    }
    v
}

fn doublets() -> Vec<StageDice> {
    (1..=6u8)
        .map(|die| StageDice::Same { die, count: 4 })
        .collect()
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

fn bench(c: &mut Criterion, cases: &[Case]) {
    let mut group = c.benchmark_group("movegen");
    for case in cases {
        group.throughput(Throughput::Elements(case.ends as u64));
        let mut g = MoveGen::new();
        let mut out = Vec::new();
        group.bench_function(BenchmarkId::from_parameter(case.name), |b| {
            b.iter(|| pass(&mut g, &mut out, &case.positions, &case.stages))
        });
    }
    group.finish();
}

fn main() {
    let cases = cases();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench(&mut c, &cases);
    c.final_summary();
    if !common::summary_wanted() {
        return;
    }
    println!("summary (one thread; total ends / median time of a whole pass):");
    for case in &cases {
        let mut g = MoveGen::new();
        let mut out = Vec::new();
        let times = common::time_passes(Duration::from_secs(2), case.ends, || {
            pass(&mut g, &mut out, &case.positions, &case.stages)
        });
        let (positions, stages) = (case.positions.len(), case.stages.len());
        println!(
            "{}",
            common::summary_line(case.name, 22, positions, stages, case.ends, "", times)
        );
    }
}
