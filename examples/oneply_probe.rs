//! Why the look-ahead gains little: on positions from seeded 0-ply
//! self-play, the turns that several search settings choose, each rolled
//! out (same dice for every root, luck-corrected); prints, per setting, how
//! much rollout equity its choices gain over the 0-ply choices.
//!
//! ```sh
//! cargo run --release --example oneply_probe -- backgammon 400 7 216 0
//! ```
//! (game, positions, seed, rollout trials, truncation in plies: 0 plays to the end)

use std::sync::atomic::AtomicBool;

use gulbara::analysis::rollout::{Rollout, RolloutParams, Root};
use gulbara::eval::{Evaluator, GameNet, probs_for};
use gulbara::rules::{GameState, RuleOptions};
use gulbara::search::{Limits, Search};

struct Setting {
    name: &'static str,
    limits: Limits,
    /// Rank the re-judged turns by the mean of their 0-ply and 1-ply equities.
    mix: bool,
}

#[path = "common/decisions.rs"]
mod decisions;

fn choose(eval: &dyn Evaluator, opts: RuleOptions, s: &GameState, set: &Setting) -> GameState {
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, opts, &stop);
    let ranked = search.best_turn(s, &set.limits, &mut |_| {});
    if !set.mix {
        return ranked[0].end;
    }
    let mover = s.to_move;
    let fallback = ranked[0].end;
    ranked
        .iter()
        .filter(|c| c.plies == set.limits.plies)
        .map(|c| {
            let e0 = probs_for(eval, &c.end, &opts, mover).equity();
            (0.5 * (e0 + c.probs.equity()), c.end)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|x| x.1)
        .unwrap_or(fallback)
}

fn main() {
    let (args, variant, n, seed) = decisions::game_count_seed("backgammon", 200, 7);
    let trials: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(216);
    let truncate: u32 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(0);
    let only: Option<String> = args.get(6).cloned();
    let opts = RuleOptions::for_variant(variant);
    let net = GameNet::load(variant, None).expect("shipped net");
    let eval = net.evaluator();
    let eval = eval.as_ref();
    let zero = Limits::default();
    let one = Limits {
        plies: 1,
        ..Limits::default()
    };
    let mut settings = vec![
        Setting {
            name: "0-ply",
            limits: zero,
            mix: false,
        },
        Setting {
            name: "1-ply",
            limits: one,
            mix: false,
        },
        Setting {
            name: "1-ply no filter (32, 1.0)",
            limits: Limits {
                candidates: 32,
                filter: 1.0,
                ..one
            },
            mix: false,
        },
        Setting {
            name: "mean of 0- and 1-ply",
            limits: one,
            mix: true,
        },
    ];
    if only.as_deref() == Some("2") {
        settings.push(Setting {
            name: "2-ply",
            limits: Limits {
                plies: 2,
                ..Limits::default()
            },
            mix: false,
        });
    }
    // Positions: every third decision with two or more turns, from 0-ply
    // self-play on seeded dice.
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, opts, &stop);
    let positions: Vec<GameState> = decisions::sample(&search, variant, opts, seed, n)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let params = RolloutParams {
        games: trials,
        truncate,
        seed: seed ^ 0x9e37,
        ..RolloutParams::default()
    };
    let rollout = Rollout::new(eval, opts, params);
    let k = settings.len();
    let mut gain = vec![Vec::new(); k];
    let mut differ = vec![0usize; k];
    let mut rolled = 0usize;
    for (i, s) in positions.iter().enumerate() {
        let chosen: Vec<GameState> = settings
            .iter()
            .map(|set| choose(eval, opts, s, set))
            .collect();
        let mut distinct: Vec<GameState> = Vec::new();
        for c in &chosen {
            if !distinct.contains(c) {
                distinct.push(*c);
            }
        }
        if distinct.len() == 1 {
            for g in gain.iter_mut() {
                g.push(0.0);
            }
            continue;
        }
        rolled += 1;
        let roots: Vec<Root> = distinct
            .iter()
            .map(|d| Root {
                state: *d,
                side: s.to_move,
            })
            .collect();
        let stats = rollout.run(&roots, &stop, None, &|_| {});
        let eq = |c: &GameState| {
            let j = distinct.iter().position(|d| d == c).expect("distinct");
            stats[j].equity()
        };
        let base = eq(&chosen[0]);
        let mut line = format!("pos {i}:");
        for ((c, g), n) in chosen.iter().zip(gain.iter_mut()).zip(differ.iter_mut()) {
            let d = eq(c) - base;
            if *c != chosen[0] {
                *n += 1;
            }
            g.push(d);
            line += &format!(" {d:+.4}");
        }
        println!("{line}");
    }
    println!(
        "{variant}: {} positions (seed {seed}), {rolled} rolled out ({trials} trials, truncate {truncate})",
        positions.len()
    );
    for ((set, g), n) in settings.iter().zip(&gain).zip(&differ) {
        let m = g.iter().sum::<f64>() / g.len() as f64;
        let v = g.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (g.len() as f64 - 1.0).max(1.0);
        println!(
            "{:<28} differs from 0-ply {:>4}  mean gain per position {:+.5} ± {:.5}",
            set.name,
            n,
            m,
            (v / g.len() as f64).sqrt()
        );
    }
}
