//! What both stage-generation benches share: their stages, the run of
//! their cases as a criterion group, and the summary they print after
//! criterion's report: total ends over the median (and the fastest) whole
//! pass.

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use gulbara::rules::StageDice;

/// Median and minimum wall time of whole passes over at least `budget` (and
/// at least 21 passes); every pass must give `ends` ends.
pub fn time_passes(
    budget: Duration,
    ends: usize,
    mut pass: impl FnMut() -> usize,
) -> (Duration, Duration) {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 21 || start.elapsed() < budget {
        let t = Instant::now();
        let n = pass();
        times.push(t.elapsed());
        assert_eq!(n, ends);
    }
    times.sort();
    (times[times.len() / 2], times[0])
}

/// Whether this run measures (`--bench` without `--list`): criterion in
/// `--test`/`--list` mode runs nothing real, and the summary is skipped.
pub fn summary_wanted() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--list")
}

/// One summary line: `name`, positions × stages, the ends (with `note`
/// after them), ends per stage, the median pass and the rates.
pub fn summary_line(
    name: &str,
    width: usize,
    positions: usize,
    stages: usize,
    ends: usize,
    note: &str,
    (median, fastest): (Duration, Duration),
) -> String {
    format!(
        "  {name:<width$} {positions:>5} positions x {stages:>2} stages: {ends:>7} ends{note} ({:.1}/stage), median {:>7.3} ms, {:>6.1} M ends/s (best pass {:.1} M/s)",
        ends as f64 / (positions * stages) as f64,
        median.as_secs_f64() * 1e3,
        ends as f64 / median.as_secs_f64() / 1e6,
        ends as f64 / fastest.as_secs_f64() / 1e6,
    )
}

/// The 15 rolls of two different dice, each one stage.
pub fn non_doublets() -> Vec<StageDice> {
    let mut v = Vec::new();
    for a in 1..=6u8 {
        for b in 1..a {
            v.push(StageDice::Pair(a, b));
        }
    }
    v
}

/// The 6 doublets, each one stage of four dice.
pub fn doublets() -> Vec<StageDice> {
    (1..=6u8)
        .map(|die| StageDice::Same { die, count: 4 })
        .collect()
}

/// One case of a stage-generation bench: positions and stages, and the
/// ends a pass over them generates.
pub trait Case {
    /// The generators and buffers that passes reuse.
    type Gens: Default;
    /// The case's name in the benchmark group.
    fn name(&self) -> &'static str;
    /// The ends one pass generates.
    fn ends(&self) -> usize;
    /// One pass: every position with every stage; returns the ends.
    fn pass(&self, g: &mut Self::Gens) -> usize;
    /// For the summary: the positions, the stages, and a note after the ends.
    fn sizes(&self) -> (usize, usize, &'static str);
}

/// Runs `cases` as criterion's benchmark group `group` (elements: ends),
/// then, when measuring, prints a summary line per case (names padded to
/// `width`): total ends over the median time of whole passes.
pub fn run<C: Case>(group: &str, width: usize, cases: &[C]) {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut benches = c.benchmark_group(group);
    for case in cases {
        benches.throughput(Throughput::Elements(case.ends() as u64));
        let mut g = C::Gens::default();
        benches.bench_function(BenchmarkId::from_parameter(case.name()), |b| {
            b.iter(|| case.pass(&mut g))
        });
    }
    benches.finish();
    c.final_summary();
    if !summary_wanted() {
        return;
    }
    println!("summary (one thread; total ends / median time of a whole pass):");
    for case in cases {
        let mut g = C::Gens::default();
        let times = time_passes(Duration::from_secs(2), case.ends(), || case.pass(&mut g));
        let (positions, stages, note) = case.sizes();
        println!(
            "{}",
            summary_line(
                case.name(),
                width,
                positions,
                stages,
                case.ends(),
                note,
                times
            )
        );
    }
}
