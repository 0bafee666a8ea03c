//! Where the 1-ply search differs from the 0-ply one, measured on
//! positions from seeded 0-ply self-play (every third decision with a
//! choice), without playing matches:
//!
//! - how often 1-ply (the default move filter: 8 turns within 0.16)
//!   changes the 0-ply choice, and how often re-judging every turn (up to
//!   64, within 2.0) would change the 1-ply choice again: the best play
//!   the filter cuts, with the 1-ply equity it costs by the search's own
//!   measure;
//! - the odd-ply shift: the 1-ply value of a position before its roll
//!   (the mean over the 21 rolls of the best 0-ply turn) minus its 0-ply
//!   value, by phase and by whether the side to roll has a checker on the
//!   bar; and, over the turns the wide 1-ply judged at the root, the shift
//!   of the ends where the opponent is left on the bar (a hit) against
//!   those where it is not;
//! - with `same-as` (a second game of the same family, `-` for none),
//!   whether every position judged under that game's rules gives the same
//!   1-ply choice and value;
//! - with `2` last, where the 1-ply choice differs from the 0-ply one,
//!   both ends judged by a 2-ply search (a deeper referee, though of the
//!   same network): the 1-ply choice's 2-ply equity minus the 0-ply
//!   choice's, by phase.
//!
//! ```sh
//! cargo run --release --example lookahead_probe -- tabla 1000 5231 portes 2
//! ```
//! (game, positions, seed, optional second game, optional `2`)

use std::sync::atomic::AtomicBool;

use gulbara::eval::phase::{Phase, phase};
use gulbara::eval::{GameNet, probs_for};
use gulbara::rules::{GameState, RuleOptions, Side, Variant};
use gulbara::search::{Limits, Search};

/// A running mean with its standard error.
#[derive(Default, Clone)]
struct Mean {
    n: f64,
    sum: f64,
    sq: f64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.sq += x * x;
    }
    fn text(&self) -> String {
        if self.n < 2.0 {
            return format!("n={:.0}", self.n);
        }
        let m = self.sum / self.n;
        let v = (self.sq / self.n - m * m).max(0.0) * self.n / (self.n - 1.0);
        format!("{:+.4} ± {:.4} (n={:.0})", m, (v / self.n).sqrt(), self.n)
    }
}

#[path = "common/decisions.rs"]
mod decisions;

fn main() {
    let (args, variant, n, seed) = decisions::game_count_seed("tabla", 500, 5231);
    let same_as: Option<Variant> = args
        .get(4)
        .filter(|a| a.as_str() != "-")
        .map(|a| a.parse().expect("a game"));
    let referee = args.get(5).is_some_and(|a| a == "2");
    let opts = RuleOptions::for_variant(variant);
    let net = GameNet::load(variant, None).expect("shipped net");
    let eval = net.evaluator();
    let eval = eval.as_ref();
    let zero = Limits::default();
    let one = Limits {
        plies: 1,
        ..Limits::default()
    };
    let wide = Limits {
        candidates: 64,
        filter: 2.0,
        ..one
    };
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, opts, &stop);
    let positions = decisions::sample(&search, variant, opts, seed, n);
    let phases = Phase::ALL.len();
    let pi = |p: Phase| Phase::ALL.iter().position(|&q| q == p).unwrap_or(0);
    let mut count = vec![0usize; phases];
    let mut one_differs = vec![0usize; phases];
    let mut wide_differs = vec![0usize; phases];
    let mut wide_cost = vec![Mean::default(); phases];
    let mut judged = vec![Mean::default(); phases];
    let mut cut_by_count = 0usize;
    let mut shift = vec![Mean::default(); phases];
    let mut shift_bar = Mean::default();
    let mut shift_end_hit = vec![Mean::default(); phases];
    let mut shift_end_quiet = vec![Mean::default(); phases];
    let mut spread = vec![Mean::default(); phases];
    let mut referee_gain = vec![Mean::default(); phases];
    let (mut same_checked, mut same_differs, mut same_max) = (0usize, 0usize, 0f32);
    for (s, r) in &positions {
        let ph = pi(phase(s));
        count[ph] += 1;
        let mover = r.to_move;
        let z = search.best_turn(r, &zero, &mut |_| {});
        let d = search.best_turn(r, &one, &mut |_| {});
        let w = search.best_turn(r, &wide, &mut |_| {});
        let k = d.iter().filter(|c| c.plies == 1).count();
        judged[ph].add(k as f64);
        if d[0].end != z[0].end {
            one_differs[ph] += 1;
            if referee {
                let two = |e: &GameState| {
                    search
                        .plied(e, mover, 1, 2, None)
                        .map(|p| p.equity())
                        .unwrap_or(0.0)
                };
                referee_gain[ph].add(f64::from(two(&d[0].end) - two(&z[0].end)));
            }
        }
        if w[0].end != d[0].end {
            wide_differs[ph] += 1;
            let v_d = w
                .iter()
                .find(|c| c.end == d[0].end)
                .map(|c| c.probs.equity())
                .unwrap_or(d[0].probs.equity());
            wide_cost[ph].add(f64::from(w[0].probs.equity() - v_d));
            // Was the wide choice beyond the count (8) or beyond 0.16?
            let rank0 = z.iter().position(|c| c.end == w[0].end).unwrap_or(0);
            if rank0 >= one.candidates {
                cut_by_count += 1;
            }
        } else {
            wide_cost[ph].add(0.0);
        }
        // The odd-ply shift before the roll, from the roller's side.
        let v0 = search.before_roll(s, 0, 1).equity();
        let v1 = search.before_roll(s, 1, 1).equity();
        shift[ph].add(f64::from(v1 - v0));
        if s.pos.own.bar() > 0 {
            shift_bar.add(f64::from(v1 - v0));
        }
        // The shift over the root's ends the wide search judged at 1-ply.
        let mut ends = Vec::new();
        for c in w.iter().filter(|c| c.plies == 1) {
            if c.end.result().is_some() {
                continue;
            }
            let e0 = probs_for(eval, &c.end, &opts, mover).equity();
            let x = f64::from(c.probs.equity() - e0);
            ends.push(x);
            if c.end.pos.own.bar() > 0 {
                shift_end_hit[ph].add(x);
            } else {
                shift_end_quiet[ph].add(x);
            }
        }
        if ends.len() >= 2 {
            let m = ends.iter().sum::<f64>() / ends.len() as f64;
            let v = ends.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (ends.len() as f64 - 1.0);
            spread[ph].add(v.sqrt());
        }
        if let Some(other) = same_as {
            let o2 = RuleOptions::for_variant(other);
            let search2 = Search::new(eval, o2, &stop);
            let r2 = GameState {
                variant: other,
                ..*r
            };
            let d2 = search2.best_turn(&r2, &one, &mut |_| {});
            same_checked += 1;
            let same_end = d2[0].end.pos == d[0].end.pos && d2[0].steps == d[0].steps;
            if !same_end {
                same_differs += 1;
            }
            same_max = same_max.max((d2[0].probs.equity() - d[0].probs.equity()).abs());
        }
    }
    println!("{variant}: {} positions (seed {seed})", positions.len());
    for (i, p) in Phase::ALL.iter().enumerate() {
        if count[i] == 0 {
            continue;
        }
        println!(
            "{p:<8} positions {:>5}  1-ply turns judged {}  1-ply changes the 0-ply choice {:>5} ({:.1}%)  wide 1-ply changes the 1-ply choice {:>4} ({:.1}%), 1-ply equity it gains per position {}",
            count[i],
            judged[i].text(),
            one_differs[i],
            100.0 * one_differs[i] as f64 / count[i] as f64,
            wide_differs[i],
            100.0 * wide_differs[i] as f64 / count[i] as f64,
            wide_cost[i].text(),
        );
    }
    println!("wide choices ranked beyond the 8th at 0-ply: {cut_by_count}");
    if referee {
        for (i, p) in Phase::ALL.iter().enumerate() {
            println!(
                "{p:<8} where 1-ply changes the choice, 2-ply equity of the 1-ply choice minus the 0-ply choice's: {}",
                referee_gain[i].text()
            );
        }
    }
    for (i, p) in Phase::ALL.iter().enumerate() {
        if count[i] == 0 {
            continue;
        }
        println!(
            "{p:<8} shift before the roll (1-ply − 0-ply, roller's equity) {}; at the root's ends: opponent on the bar {}, not {}; spread of the shift over one root's ends (sd) {}",
            shift[i].text(),
            shift_end_hit[i].text(),
            shift_end_quiet[i].text(),
            spread[i].text(),
        );
    }
    println!(
        "shift before the roll with the roller on the bar: {}",
        shift_bar.text()
    );
    if referee {
        // The opening: each roll from the start, 0-ply's and 1-ply's
        // choices, and what 2-ply makes of the difference.
        let start = GameState::start_of(variant, Side::White);
        let mut line =
            String::from("opening rolls where 1-ply changes the 0-ply choice (2-ply gain):");
        let mut total = 0.0f64;
        for &(a, b, w) in gulbara::search::ROLLS.iter() {
            let Ok(r) = start.roll(&opts, a, b) else {
                continue;
            };
            let z = search.best_turn(&r, &zero, &mut |_| {});
            let d = search.best_turn(&r, &one, &mut |_| {});
            if z.is_empty() || d[0].end == z[0].end {
                continue;
            }
            let two = |e: &GameState| {
                search
                    .plied(e, r.to_move, 1, 2, None)
                    .map(|p| p.equity())
                    .unwrap_or(0.0)
            };
            let g = f64::from(two(&d[0].end) - two(&z[0].end));
            total += g * f64::from(w) / 36.0;
            line += &format!(" {a}{b} {g:+.4}");
        }
        println!("{line}; over the 36 rolls {total:+.4}");
    }
    if let Some(other) = same_as {
        println!(
            "under {other}'s rules: {same_checked} positions, 1-ply choice differs in {same_differs}, largest difference of its 1-ply equity {same_max:.6}"
        );
    }
}
