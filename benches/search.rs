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
use gulbara::eval::hitnet::HitNet;
use gulbara::eval::net::Net;
use gulbara::eval::variants::baseline;
use gulbara::notation::parse_state_text;
use gulbara::rules::{GameState, Pending, RuleOptions, Side, StageGen, Variant};
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

/// Before-roll states of `variant` met in a seeded random walk from its
/// start (a corpus for the games other than Gul bara).
fn walk(variant: Variant, count: usize) -> Vec<GameState> {
    let opts = RuleOptions::for_variant(variant);
    let mut generator = StageGen::new();
    let mut ends = Vec::new();
    let mut out = Vec::new();
    let mut state = GameState::start_of(variant, Side::White);
    let mut i = 0usize;
    while out.len() < count {
        i += 1;
        if state.result().is_some() {
            state = GameState::start_of(variant, Side::White);
        }
        if state.pending == Pending::Roll {
            out.push(state);
            let (a, b) = roll_for(i);
            state = state.roll(&opts, a, b).expect("a roll");
        }
        let Some(dice) = state.stage_dice() else {
            break;
        };
        let used = generator.generate(&opts, &state, dice, &mut ends);
        let end = ends[i % ends.len()].pos;
        state = state.after_stage(&opts, end, used);
    }
    out
}

/// This thread's CPU time in nanoseconds. The evaluation figures use it
/// rather than the wall clock: on a shared machine a thread waiting for a
/// core counts no time, so the medians move far less with the load.
fn cpu_ns() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// Nanoseconds (thread CPU time) per state of 9 passes of `pass` (ten
/// times over `states` states each): their median. `pass` returns a value
/// the optimiser must keep.
fn median_ns_per_state(states: usize, mut pass: impl FnMut() -> f32) -> f64 {
    let mut passes = Vec::new();
    for _ in 0..9 {
        let t = cpu_ns();
        let mut acc = 0.0f32;
        for _ in 0..10 {
            acc += pass();
        }
        black_box(acc);
        passes.push((cpu_ns() - t) / (10 * states) as f64);
    }
    median(passes)
}

/// The rules of the game the first of `states` is of.
fn opts_of(states: &[GameState]) -> RuleOptions {
    states.first().map_or_else(RuleOptions::default, |s| {
        RuleOptions::for_variant(s.variant)
    })
}

/// Nanoseconds (thread CPU time) per evaluation: median of 9 passes over
/// the corpus.
fn eval_speed(name: &str, eval: &dyn Evaluator, states: &[GameState]) {
    let opts = opts_of(states);
    let m = median_ns_per_state(states.len(), || {
        states
            .iter()
            .map(|s| eval.eval(black_box(s), &opts).win)
            .sum()
    });
    println!(
        "eval {name}: median {m:.0} ns CPU per evaluation ({:.2} M evaluations/s on one core)",
        1000.0 / m
    );
}

/// Nanoseconds (thread CPU time) per evaluation through
/// [`Evaluator::eval_batch`] in batches of 16 states (about a stage's
/// ends, as the search judges them): median of 9 passes.
fn eval_batch_speed(name: &str, eval: &dyn Evaluator, states: &[GameState]) {
    let opts = opts_of(states);
    let mut out = Vec::new();
    let m = median_ns_per_state(states.len(), || {
        let mut acc = 0.0f32;
        for batch in states.chunks(16) {
            eval.eval_batch(black_box(batch), &opts, &mut out);
            acc += out.iter().map(|p| p.win).sum::<f32>();
        }
        acc
    });
    println!(
        "eval {name} in batches of 16: median {m:.0} ns CPU per evaluation ({:.2} M evaluations/s on one core)",
        1000.0 / m
    );
}

/// Nanoseconds (thread CPU time) per position for layout 7's gnubg-class
/// inputs alone, both sides (docs/INPUTS.md).
fn gnubg_inputs_speed(states: &[GameState]) {
    use gulbara::eval::net::contact_inputs::side_inputs;
    let m = median_ns_per_state(states.len(), || {
        states
            .iter()
            .map(|s| {
                let p = black_box(s).pos;
                side_inputs(p.own, p.opp)[0] + side_inputs(p.opp, p.own)[0]
            })
            .sum()
    });
    println!("eval backgammon gnubg-class inputs alone: median {m:.0} ns CPU per position");
}

/// The two halves of a network evaluation, timed apart through the list
/// of table rows ([`Net::table_inputs_into`], [`Net::outputs_of_table`]):
/// the inputs of a position, and the forward pass from ready inputs. Play
/// sums the rows as the inputs come, without the list, so its evaluation
/// takes less than the two parts together.
fn eval_parts(net: &Net, states: &[GameState]) {
    let opts = RuleOptions::default();
    let median_of = |f: &mut dyn FnMut() -> f32| median_ns_per_state(states.len(), f);
    let inputs: Vec<Vec<(u16, f32)>> = states
        .iter()
        .map(|s| {
            let mut v = Vec::new();
            net.table_inputs_into(s, &opts, &mut v);
            v
        })
        .collect();
    let mut buf = Vec::with_capacity(128);
    let features = median_of(&mut || {
        states
            .iter()
            .map(|s| {
                net.table_inputs_into(black_box(s), &opts, &mut buf);
                buf.len() as f32
            })
            .sum()
    });
    let forward = median_of(&mut || {
        inputs
            .iter()
            .map(|x| net.outputs_of_table(black_box(x))[0])
            .sum()
    });
    let rows = inputs.iter().map(Vec::len).sum::<usize>() as f64 / inputs.len().max(1) as f64;
    println!(
        "eval parts (net, {} hidden): inputs {features:.0} ns, forward pass {forward:.0} ns ({rows:.1} rows per evaluation)",
        net.hidden
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
    decision_speed_over(name, eval, states, plies, 400);
}

/// [`decision_speed`] over the first `count` positions (of any one game).
fn decision_speed_over(
    name: &str,
    eval: &dyn Evaluator,
    states: &[GameState],
    plies: u8,
    count: usize,
) {
    let opts = states.first().map_or_else(RuleOptions::default, |s| {
        RuleOptions::for_variant(s.variant)
    });
    let stop = AtomicBool::new(false);
    let limits = Limits {
        plies,
        ..Limits::default()
    };
    let mut times = Vec::new();
    for (i, s) in states.iter().enumerate().take(count) {
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
    let keep = Limits::default().root_prefilter;
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
            black_box(search.turns_prefiltered(&rolled, beam, keep));
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            nodes.push(search.nodes() as f64);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "chain planning {name} (beam {beam}, prefilter {keep}): {} chains, median {:.3} ms, p99 {:.3} ms, median {:.0} evaluations per chain",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        median(nodes)
    );
}

/// What the look-ahead's doublet prefilter costs in play quality and
/// saves in time: the 1-ply decision with every end of the opponent's
/// doublet stages judged (the reference) against keeping `keep` of them.
/// The loss of a decision is the reference 1-ply equity of the reference's
/// choice minus the reference 1-ply equity of the prefiltered choice.
fn prefilter_cost(eval: &dyn Evaluator, states: &[GameState], keep: usize) {
    let opts = RuleOptions::default();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        plies: 1,
        ..Limits::default()
    };
    let (mut times, mut same, mut total_loss, mut n) = (Vec::new(), 0, 0.0f64, 0);
    for (i, s) in states.iter().enumerate().take(400) {
        let (a, b) = roll_for(i);
        let Ok(rolled) = s.roll(&opts, a, b) else {
            continue;
        };
        let reference = Search::new(eval, opts, &stop).with_prefilter(0);
        let ref_ranked = reference.best_turn(&rolled, &limits, &mut |_| {});
        let search = Search::new(eval, opts, &stop).with_prefilter(keep);
        let t = Instant::now();
        let ranked = search.best_turn(&rolled, &limits, &mut |_| {});
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let (Some(r), Some(c)) = (ref_ranked.first(), ranked.first()) else {
            continue;
        };
        n += 1;
        if r.end == c.end {
            same += 1;
            continue;
        }
        let mover = rolled.to_move;
        let ref_eq = |end: &GameState| {
            ref_ranked
                .iter()
                .find(|x| x.end == *end && x.plies == 1)
                .map(|x| x.probs.equity())
                .unwrap_or_else(|| reference.one_ply(end, mover, limits.inner_beam).equity())
        };
        total_loss += f64::from(ref_eq(&r.end) - ref_eq(&c.end));
    }
    times.sort_by(f64::total_cmp);
    println!(
        "prefilter {keep}: {n} decisions, same choice {same}, mean loss {:.5} ppg per decision, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms",
        total_loss / n.max(1) as f64,
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99)
    );
}

/// How much of the best chain plan each root beam finds: for escalating
/// doublets on corpus positions, the 0-ply equity of the best whole turn
/// with a beam of 48 minus that with the beam measured (the shortfall),
/// and the planning time. A setting `k_0bb` is beam `bb` with the ends of
/// each doublet stage prefiltered to the best `k` by the cheap score.
fn beam_quality(eval: &dyn Evaluator, states: &[GameState]) {
    let opts = RuleOptions::default();
    let stop = AtomicBool::new(false);
    let mut chains = Vec::new();
    for s in states.iter().take(150) {
        let mut s = *s;
        s.rolls = [s.rolls[0].max(3), s.rolls[1].max(3)];
        for d in 1..=6u8 {
            if let Ok(rolled) = s.roll(&opts, d, d) {
                chains.push(rolled);
            }
        }
    }
    let best = |beam: usize, st: &GameState| {
        let search = Search::new(eval, opts, &stop);
        let t = Instant::now();
        let eq = search
            .turns_prefiltered(st, beam % 1000, beam / 1000)
            .first()
            .map(|c| c.probs.equity())
            .unwrap_or(0.0);
        (eq, t.elapsed().as_secs_f64() * 1000.0)
    };
    let wide: Vec<f32> = chains.iter().map(|c| best(48, c).0).collect();
    for beam in [4, 8, 16, 24, 16_048, 32_048] {
        let mut times = Vec::new();
        let mut short = 0.0f64;
        let mut worse = 0;
        for (c, w) in chains.iter().zip(&wide) {
            let (eq, ms) = best(beam, c);
            times.push(ms);
            short += f64::from(w - eq);
            if eq < *w - 1e-6 {
                worse += 1;
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "root beam {beam}: {} chains, mean shortfall {:.5} ppg vs beam 48, worse in {worse}, median {:.3} ms, p99 {:.3} ms",
            chains.len(),
            short / chains.len().max(1) as f64,
            percentile(&times, 0.5),
            percentile(&times, 0.99)
        );
    }
}

/// Backgammon's network (layout 7, the gnubg-class inputs) at each width
/// the shape of issue 45 weighs: generation 3 (one layer of 128 hidden
/// units; the shipped network until generation 4) widened to 256, 384,
/// 400 and 416 (`NetOf::widened`: the new units'
/// output weights zero, so every width plays generation 3's moves
/// and a search visits the same nodes; the time does not depend on the
/// values), and with a second hidden layer (`NetOf::deepened`: 128 or 256
/// units, then 32 or 64, near generation 3's function, so a search
/// visits nearly the same nodes), and the shipped generation 4 (128+32).
/// Per width, an evaluation through play's path (the one the
/// engine takes: 128 sums its rows as the inputs come, other widths go
/// through the list of rows, in blocks of 128 (AVX-512) or 64 units, the
/// units left over in blocks of 32, 16 and 8, then one at a time), the
/// same in batches of 16, and a 1-ply decision (`engine.ply
/// 2`) on 200 positions of a seeded random walk, in thread CPU time (the
/// search runs on one thread; the wall clock of `decision_speed` counts
/// the machine's other jobs).
fn widths() {
    let Ok(shipped) = HitNet::shipped() else {
        println!("widths: no shipped backgammon network");
        return;
    };
    // The rows widen and deepen a network of one hidden layer: generation
    // 3, kept beside generation 4 (two layers, shipped since 2026-12-07),
    // which has a row of its own.
    let base = if shipped.hidden2 > 0 {
        let bytes = include_bytes!("../data/training/backgammon/two-layers/previous.gbnn");
        match HitNet::from_bytes(bytes) {
            Ok(n) => n,
            Err(e) => {
                println!("widths: generation 3: {e}");
                return;
            }
        }
    } else {
        shipped.clone()
    };
    let bg = walk(Variant::Backgammon, 2000);
    let mut nets: Vec<HitNet> = [128usize, 256, 384, 400, 416]
        .into_iter()
        .map(|h| base.widened(h - base.hidden, 45))
        .collect();
    // Two hidden layers (`NetOf::deepened`): 128 or 256 units, then 32 or 64.
    for (h, h2) in [(128usize, 32usize), (128, 64), (256, 32), (256, 64)] {
        nets.push(base.widened(h - base.hidden, 45).deepened(h2, 45));
    }
    if shipped.hidden2 > 0 {
        nets.push(shipped.clone());
    }
    let name = |n: &HitNet| {
        let shape = if n.hidden2 > 0 {
            format!("{}+{}", n.hidden, n.hidden2)
        } else {
            n.hidden.to_string()
        };
        let which = if *n == shipped { ", shipped" } else { "" };
        format!("backgammon net {shape} hidden (layout {}{which})", n.layout)
    };
    // Where an evaluation's time goes: the gnubg-class inputs alone, and
    // every input of layout 7 into a list (one allocation per position).
    gnubg_inputs_speed(&bg);
    let m = median_ns_per_state(bg.len(), || {
        bg.iter()
            .map(|s| {
                gulbara::eval::hitnet::features_of(shipped.layout, black_box(s))
                    .active
                    .len() as f32
            })
            .sum()
    });
    println!(
        "eval backgammon layout-{} inputs into a list: median {m:.0} ns CPU per position",
        shipped.layout
    );
    // Interleaved, twice: the machine's load moves between passes.
    for _ in 0..2 {
        for n in &nets {
            eval_speed(&name(n), n, &bg);
        }
    }
    for n in &nets {
        eval_batch_speed(&name(n), n, &bg);
    }
    let opts = RuleOptions::for_variant(Variant::Backgammon);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        plies: 1,
        ..Limits::default()
    };
    for n in &nets {
        let mut times = Vec::new();
        for (i, s) in bg.iter().enumerate().take(200) {
            let (a, b) = roll_for(i);
            let Ok(rolled) = s.roll(&opts, a, b) else {
                continue;
            };
            let search = Search::new(n, opts, &stop);
            let t = cpu_ns();
            black_box(search.best_turn(&rolled, &limits, &mut |_| {}));
            times.push((cpu_ns() - t) / 1e6);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "decision {} 1-ply: {} decisions, median {:.3} ms CPU, p90 {:.3} ms, p99 {:.3} ms",
            name(n),
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.9),
            percentile(&times, 0.99),
        );
    }
}

/// Sections to run: all, or those named in `GULBARA_BENCH` (comma-separated
/// among `eval`, `chains`, `decisions`, `net1`, `net2`, `widths`, `prefilter`, `beams`,
/// `profile64`, `profile_bg`), e.g. for profiling one.
fn wanted(section: &str) -> bool {
    match std::env::var("GULBARA_BENCH") {
        Ok(list) => list.split(',').any(|w| w.trim() == section),
        Err(_) => !matches!(
            section,
            "net1" | "net2" | "widths" | "prefilter" | "beams" | "profile64" | "profile_bg"
        ),
    }
}

/// The 64-hidden network shipped before the layout-4 one, kept as a test
/// fixture.
fn small_net() -> Result<Net, String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gulbara-64h-layout1.gbnn");
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Net::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() {
    let states = corpus();
    let net = Net::shipped().expect("shipped weights");
    if wanted("eval") {
        eval_speed("heuristic", &Heuristic, &states);
        eval_speed("net", &net, &states);
        eval_batch_speed("net", &net, &states);
        eval_parts(&net, &states);
        // The 64-hidden network shipped before the layout-4 one: the
        // issue's 64-hidden figure.
        match small_net() {
            Ok(n) => {
                eval_speed("net 64 hidden (layout 1)", &n, &states);
                eval_batch_speed("net 64 hidden (layout 1)", &n, &states);
                eval_parts(&n, &states);
            }
            Err(e) => println!("eval net 64 hidden: {e}"),
        }
        // Each game's network and baseline on positions of that game.
        let long = walk(Variant::LongNardy, 2000);
        let bg = walk(Variant::Backgammon, 2000);
        eval_speed("long_nardy baseline", baseline(Variant::LongNardy), &long);
        match Net::long_shipped() {
            Ok(n) => {
                eval_speed("long_nardy net", &n, &long);
                eval_batch_speed("long_nardy net", &n, &long);
            }
            Err(e) => println!("eval long_nardy net: {e}"),
        }
        eval_speed("backgammon baseline", baseline(Variant::Backgammon), &bg);
        match HitNet::shipped() {
            Ok(n) => {
                // The contact inputs' layout (its cost does not depend on
                // the weights): timed in turns with the plain one.
                let contact = n.with_inputs(
                    gulbara::eval::net::HIT_CONTACT_LAYOUT,
                    gulbara::eval::hitnet::CONTACT_INPUTS,
                );
                // Layout 7 adds the gnubg-class inputs (docs/INPUTS.md).
                let gnubg = n.with_inputs(
                    gulbara::eval::net::HIT_GNUBG_LAYOUT,
                    gulbara::eval::hitnet::GNUBG_INPUTS,
                );
                for _ in 0..2 {
                    eval_speed("backgammon net", &n, &bg);
                    eval_speed("backgammon net, contact inputs", &contact, &bg);
                    eval_speed("backgammon net, gnubg-class inputs", &gnubg, &bg);
                    gnubg_inputs_speed(&bg);
                }
                eval_batch_speed("backgammon net", &n, &bg);
            }
            Err(e) => println!("eval backgammon net: {e}"),
        }
    }
    if wanted("profile64") {
        // Only the 64-hidden evaluation, many passes: a loop to run under
        // `perf stat` or `perf record`.
        match small_net() {
            Ok(n) => {
                for _ in 0..20 {
                    eval_speed("net 64 hidden (layout 1)", &n, &states);
                }
            }
            Err(e) => println!("eval net 64 hidden: {e}"),
        }
    }
    if wanted("profile_bg") {
        // Only the shipped backgammon network's evaluation (two hidden
        // layers since generation 4), many passes: a loop for `perf`.
        match HitNet::shipped() {
            Ok(n) => {
                let bg = walk(Variant::Backgammon, 2000);
                for _ in 0..20 {
                    eval_speed("backgammon net", &n, &bg);
                }
            }
            Err(e) => println!("eval backgammon net: {e}"),
        }
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
    if wanted("net2") {
        // gnubg's 2-ply (`engine.ply 3`), one thread, on fewer positions.
        decision_speed_over("net", &net, &states, 2, 100);
        if let Ok(bgnet) = HitNet::shipped() {
            let bg = walk(Variant::Backgammon, 400);
            decision_speed_over("backgammon net", &bgnet, &bg, 1, 200);
            decision_speed_over("backgammon net", &bgnet, &bg, 2, 100);
        }
    }
    if wanted("widths") {
        widths();
    }
    if wanted("beams") {
        beam_quality(&net, &states);
    }
    if wanted("prefilter") {
        for keep in [4, 8, 16] {
            prefilter_cost(&net, &states, keep);
        }
    }
}
