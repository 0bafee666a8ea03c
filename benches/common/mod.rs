//! The summary both stage-generation benches print after criterion's
//! report: total ends over the median (and the fastest) whole pass.

use std::time::{Duration, Instant};

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
