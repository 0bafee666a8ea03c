//! Evaluation and decision speed, and the cost of planning escalating
//! chains, on the committed corpus (`benches/corpus.txt`).
//!
//! A plain harness (not criterion) because it reports percentiles: the
//! median and p99 of a 1-ply decision, the median and p99 of planning a
//! whole escalating chain. Run with `cargo bench --bench search`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gulbara::eval::Evaluator;
use gulbara::eval::heuristic::Heuristic;
use gulbara::eval::net::Net;
use gulbara::notation::parse_state_text;
use gulbara::rules::{GameState, RuleOptions};
use gulbara::search::{Limits, Search};

const CORPUS: &str = include_str!("corpus.txt");

fn corpus() -> Vec<GameState> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| parse_state_text(l).ok())
        .filter(|s| s.result().is_none())
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    percentile(&v, 0.5)
}

/// Nanoseconds per evaluation: median of 9 passes over the corpus.
fn eval_speed(name: &str, eval: &dyn Evaluator, states: &[GameState]) {
    let opts = RuleOptions::default();
    let mut passes = Vec::new();
    for _ in 0..9 {
        let t = Instant::now();
        let mut acc = 0.0f32;
        for _ in 0..10 {
            for s in states {
                acc += eval.eval(black_box(s), &opts).win;
            }
        }
        black_box(acc);
        passes.push(t.elapsed().as_nanos() as f64 / (10 * states.len()) as f64);
    }
    let m = median(passes);
    println!(
        "eval {name}: median {m:.0} ns per evaluation ({:.2} M evaluations/s on one core)",
        1000.0 / m
    );
}

/// A seeded roll per position (a small LCG keeps the bench dependency-free).
fn roll_for(i: usize) -> (u8, u8) {
    let x = (i as u64)
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (((x >> 33) % 6) as u8 + 1, ((x >> 45) % 6) as u8 + 1)
}

fn decision_speed(name: &str, eval: &dyn Evaluator, states: &[GameState], plies: u8) {
    let opts = RuleOptions::default();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        plies,
        ..Limits::default()
    };
    let mut times = Vec::new();
    for (i, s) in states.iter().enumerate().take(400) {
        let (a, b) = roll_for(i);
        let Ok(rolled) = s.roll(&opts, a, b) else {
            continue;
        };
        let search = Search::new(eval, opts, &stop);
        let t = Instant::now();
        black_box(search.best_turn(&rolled, &limits, &mut |_| {}));
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "decision {name} {plies}-ply: {} decisions, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0.0)
    );
}

/// Whole-turn planning of escalating doublets (every position past the
/// exemption, each of the six doublets), 0-ply with the root beam.
fn chain_planning(name: &str, eval: &dyn Evaluator, states: &[GameState]) {
    let opts = RuleOptions::default();
    let stop = AtomicBool::new(false);
    let beam = Limits::default().root_beam;
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    for s in states.iter().take(300) {
        let mut s = *s;
        s.rolls = [s.rolls[0].max(3), s.rolls[1].max(3)];
        for d in 1..=6u8 {
            let Ok(rolled) = s.roll(&opts, d, d) else {
                continue;
            };
            let search = Search::new(eval, opts, &stop);
            let t = Instant::now();
            black_box(search.turns(&rolled, beam));
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            nodes.push(search.nodes() as f64);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "chain planning {name} (beam {beam}): {} chains, median {:.3} ms, p99 {:.3} ms, median {:.0} evaluations per chain",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        median(nodes)
    );
}

/// Sections to run: all, or those named in `GULBARA_BENCH` (comma-separated
/// among `eval`, `chains`, `decisions`, `net1`), e.g. for profiling one.
fn wanted(section: &str) -> bool {
    match std::env::var("GULBARA_BENCH") {
        Ok(list) => list.split(',').any(|w| w.trim() == section),
        Err(_) => section != "net1",
    }
}

fn main() {
    let states = corpus();
    let net = Net::shipped().expect("shipped weights");
    if wanted("eval") {
        eval_speed("heuristic", &Heuristic, &states);
        eval_speed("net", &net, &states);
    }
    if wanted("chains") {
        chain_planning("heuristic", &Heuristic, &states);
        chain_planning("net", &net, &states);
    }
    if wanted("decisions") {
        for plies in [0, 1] {
            decision_speed("heuristic", &Heuristic, &states, plies);
            decision_speed("net", &net, &states, plies);
        }
    }
    if wanted("net1") {
        decision_speed("net", &net, &states, 1);
    }
}
