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
//!
//! The games without hitting (Gul bara, long nardy, Fevga) are classed by
//! their own stages instead of the hitting games' phases: `exempt` (a
//! side's doublets do not escalate yet: Gul bara's first rolls), `contact`
//! (a checker can still meet an opposing one) and `race`; and every game's
//! decisions also by the roll's kind: `plain`, `double` (a doublet that does
//! not escalate), `chain` (an escalating doublet) and `remainder` (a broken
//! chain's rest passed to the mover). For these games the ends' shift is
//! split by whether the opponent is left with a remainder to play, and the
//! ends the 1-ply search judged are split by the opponent's roll: the mean
//! shift after its plain rolls and after its doublets.
//!
//! Options, anywhere after the game: `weights=FILE` judges with that
//! network file instead of the shipped one; `inner=N` also runs 1-ply with
//! a beam of `N` (and the root's prefilter) for the opponent's chains
//! inside the look-ahead instead of 1, and counts how often that changes the
//! 1-ply choice (with `2`, by how much the 2-ply referee prefers it);
//! `sample=FILE` takes the positions from that network's self-play;
//! `blend=A,B,...` measures only this: for each weight `a`, the choice
//! among the turns 1-ply judged by `(1 − a) × 1-ply + a × 0-ply` (0 is
//! plain 1-ply), rated by the 2-ply referee against the 0-ply choice per
//! position (`referee=FILE`: the referee searches with that network).
//!
//! ```sh
//! cargo run --release --example lookahead_probe -- tabla 1000 5231 portes 2
//! cargo run --release --example lookahead_probe -- gulbara 2000 5320 - 2 weights=data/training/gulbara/gen0.gbnn
//! ```
//! (game, positions, seed, optional second game, optional `2`, options)

use std::sync::atomic::AtomicBool;

use gulbara::eval::phase::{Phase, phase};
use gulbara::eval::{GameNet, Probs, probs_for};
use gulbara::rules::variant::EvalFamily;
use gulbara::rules::{Checkers, GameState, Pending, RuleOptions, Side, Variant};
use gulbara::search::{INNER_PREFILTER, Limits, ROLLS, Search};

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

/// The highest point holding a checker of `c` (0: none).
fn highest(c: Checkers) -> u8 {
    (1..=24).rev().find(|&p| c.at(p) > 0).unwrap_or(0)
}

/// The classes a game's decisions are told apart by: the hitting games'
/// phases, or the running games' stages (see the module's text).
fn class_names(hitting: bool) -> Vec<&'static str> {
    if hitting {
        Phase::ALL.iter().map(|p| p.name()).collect()
    } else {
        vec!["exempt", "contact", "race"]
    }
}

/// The class of the position `s` before its roll.
fn class_of(s: &GameState, opts: &RuleOptions, hitting: bool) -> usize {
    if hitting {
        return Phase::ALL.iter().position(|&q| q == phase(s)).unwrap_or(0);
    }
    let exempt =
        opts.escalating() && (!s.escalates(opts, Side::White) || !s.escalates(opts, Side::Black));
    if exempt {
        0
    } else if highest(s.pos.own) + highest(s.pos.opp) > 25 {
        1
    } else {
        2
    }
}

const KINDS: [&str; 4] = ["plain", "double", "chain", "remainder"];

/// The kind of the rolled state's pending stage.
fn kind_of(r: &GameState) -> usize {
    match r.pending {
        Pending::Roll2 { d1, d2 } if d1 == d2 => 1,
        Pending::Chain { .. } => 2,
        Pending::Remainder { .. } => 3,
        _ => 0,
    }
}

/// For each weight `a` of `blends`, the choice among the turns 1-ply
/// re-judged by `(1 − a) × 1-ply + a × 0-ply` (0: plain 1-ply), judged by
/// the 2-ply referee against the 0-ply choice, per position and by class.
fn blend_probe(
    search: &Search<'_>,
    judge: &Search<'_>,
    positions: &[(GameState, GameState)],
    blends: &[f32],
    class: impl Fn(&GameState) -> usize,
    names: &[&str],
) {
    let zero = Limits::default();
    let one = Limits {
        plies: 1,
        ..Limits::default()
    };
    let mut weights = vec![0.0f32];
    weights.extend_from_slice(blends);
    let mut gain = vec![vec![Mean::default(); names.len()]; weights.len()];
    let mut all = vec![Mean::default(); weights.len()];
    let mut changed = vec![0usize; weights.len()];
    let mut over_plain = vec![Mean::default(); weights.len()];
    for (s, r) in positions {
        let ph = class(s);
        let mover = r.to_move;
        let z = search.best_turn(r, &zero, &mut |_| {});
        let d = search.best_turn(r, &one, &mut |_| {});
        let mut cache: Vec<(GameState, f32)> = Vec::new();
        let mut two = |e: &GameState| {
            if let Some(&(_, v)) = cache.iter().find(|(x, _)| x == e) {
                return v;
            }
            let v = judge
                .plied(e, mover, 1, 2, None)
                .map(|p| p.equity())
                .unwrap_or(0.0);
            cache.push((*e, v));
            v
        };
        let mut g0 = 0.0;
        for (i, &a) in weights.iter().enumerate() {
            let pick = d
                .iter()
                .filter(|c| c.plies == 1)
                .map(|c| {
                    let v0 = z
                        .iter()
                        .find(|y| y.end == c.end)
                        .map(|y| y.probs.equity())
                        .unwrap_or(c.probs.equity());
                    ((1.0 - a) * c.probs.equity() + a * v0, c.end)
                })
                // The first of equal values, as the search's own ranking.
                .fold(None::<(f32, GameState)>, |best, x| match best {
                    Some(b) if b.0 >= x.0 => Some(b),
                    _ => Some(x),
                })
                .map(|x| x.1)
                .unwrap_or(d[0].end);
            let g = if pick == z[0].end {
                0.0
            } else {
                changed[i] += 1;
                f64::from(two(&pick) - two(&z[0].end))
            };
            if i == 0 {
                g0 = g;
            }
            gain[i][ph].add(g);
            all[i].add(g);
            over_plain[i].add(g - g0);
        }
    }
    for (i, a) in weights.iter().enumerate() {
        let mut line = format!(
            "blend {a:.2}: changes the 0-ply choice {:>5}; 2-ply gain over the 0-ply choice per position {}; over plain 1-ply's choice {}",
            changed[i],
            all[i].text(),
            over_plain[i].text()
        );
        for (k, name) in names.iter().enumerate() {
            line += &format!("; {name} {}", gain[i][k].text());
        }
        println!("{line}");
    }
}

fn main() {
    let (all_args, variant, n, seed) = decisions::game_count_seed("tabla", 500, 5231);
    let (options, args): (Vec<String>, Vec<String>) = all_args.into_iter().partition(|a| {
        ["weights=", "inner=", "blend=", "sample=", "referee="]
            .iter()
            .any(|k| a.starts_with(k))
    });
    let option = |key: &str| {
        options
            .iter()
            .find_map(|a| a.strip_prefix(key).map(str::to_owned))
    };
    let same_as: Option<Variant> = args
        .get(4)
        .filter(|a| a.as_str() != "-")
        .map(|a| a.parse().expect("a game"));
    let referee = args.get(5).is_some_and(|a| a == "2");
    let inner: Option<usize> = option("inner=").map(|v| v.parse().expect("inner=N"));
    let blends: Vec<f32> = option("blend=")
        .map(|v| {
            v.split(',')
                .map(|x| x.parse().expect("blend=A,B,..."))
                .collect()
        })
        .unwrap_or_default();
    let opts = RuleOptions::for_variant(variant);
    let bytes = option("weights=").map(|f| std::fs::read(&f).expect("a weights file"));
    let net = GameNet::load(variant, bytes.as_deref()).expect("a network");
    let eval = net.evaluator();
    let eval = eval.as_ref();
    let hitting = matches!(
        variant.spec().eval,
        EvalFamily::Hitting | EvalFamily::Pinning
    );
    let names = class_names(hitting);
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
    let deep_inner = inner.map(|b| Limits {
        inner_beam: b,
        ..one
    });
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, opts, &stop);
    let search_inner =
        Search::new(eval, opts, &stop).with_prefilter(Limits::default().root_prefilter);
    let sampler_net = option("sample=").map(|f| {
        let b = std::fs::read(&f).expect("a weights file");
        GameNet::load(variant, Some(&b)).expect("a network")
    });
    let positions = match &sampler_net {
        Some(sn) => {
            let se = sn.evaluator();
            let sampler = Search::new(se.as_ref(), opts, &stop);
            decisions::sample(&sampler, variant, opts, seed, n)
        }
        None => decisions::sample(&search, variant, opts, seed, n),
    };
    if !blends.is_empty() {
        // The referee's network: the judging one, or `referee=FILE`'s.
        let referee_net = option("referee=").map(|f| {
            let b = std::fs::read(&f).expect("a weights file");
            GameNet::load(variant, Some(&b)).expect("a network")
        });
        let referee_eval = referee_net.as_ref().map(|n| n.evaluator());
        let judge = match &referee_eval {
            Some(e) => Search::new(e.as_ref(), opts, &stop),
            None => Search::new(eval, opts, &stop),
        };
        blend_probe(
            &search,
            &judge,
            &positions,
            &blends,
            |s| class_of(s, &opts, hitting),
            &names,
        );
        return;
    }
    let classes = names.len();
    let mut count = vec![0usize; classes];
    let mut one_differs = vec![0usize; classes];
    let mut wide_differs = vec![0usize; classes];
    let mut wide_cost = vec![Mean::default(); classes];
    let mut judged = vec![Mean::default(); classes];
    let mut cut_by_count = 0usize;
    let mut shift = vec![Mean::default(); classes];
    let mut shift_bar = Mean::default();
    let mut shift_end_hit = vec![Mean::default(); classes];
    let mut shift_end_quiet = vec![Mean::default(); classes];
    let mut spread = vec![Mean::default(); classes];
    let mut referee_gain = vec![Mean::default(); classes];
    // By the roll's kind.
    let mut k_count = [0usize; 4];
    let mut k_differs = [0usize; 4];
    let mut k_referee = vec![Mean::default(); 4];
    let mut k_shift_end = vec![Mean::default(); 4];
    // The 1-ply ends' shift after the opponent's plain rolls and doublets,
    // by class, and the same over the best 0-ply end only.
    let mut after_plain = vec![Mean::default(); classes];
    let mut after_double = vec![Mean::default(); classes];
    let mut sum_mismatch = 0usize;
    // The deeper inner beam.
    let mut inner_differs = vec![0usize; classes];
    let mut inner_referee = vec![Mean::default(); classes];
    let (mut same_checked, mut same_differs, mut same_max) = (0usize, 0usize, 0f32);
    let two = |e: &GameState, mover: Side| {
        search
            .plied(e, mover, 1, 2, None)
            .map(|p| p.equity())
            .unwrap_or(0.0)
    };
    for (s, r) in &positions {
        let ph = class_of(s, &opts, hitting);
        let kind = kind_of(r);
        count[ph] += 1;
        k_count[kind] += 1;
        let mover = r.to_move;
        let z = search.best_turn(r, &zero, &mut |_| {});
        let d = search.best_turn(r, &one, &mut |_| {});
        let w = search.best_turn(r, &wide, &mut |_| {});
        let k = d.iter().filter(|c| c.plies == 1).count();
        judged[ph].add(k as f64);
        if d[0].end != z[0].end {
            one_differs[ph] += 1;
            k_differs[kind] += 1;
            if referee {
                let g = f64::from(two(&d[0].end, mover) - two(&z[0].end, mover));
                referee_gain[ph].add(g);
                k_referee[kind].add(g);
            }
        }
        if let Some(l) = &deep_inner {
            let di = search_inner.best_turn(r, l, &mut |_| {});
            if di[0].end != d[0].end {
                inner_differs[ph] += 1;
                if referee {
                    inner_referee[ph]
                        .add(f64::from(two(&di[0].end, mover) - two(&d[0].end, mover)));
                }
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
            k_shift_end[kind].add(x);
            let hit = if hitting {
                c.end.pos.own.bar() > 0
            } else {
                matches!(c.end.pending, Pending::Remainder { .. })
            };
            if hit {
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
        // The default 1-ply's ends, roll by roll of the opponent.
        if !hitting {
            for c in d.iter().filter(|c| c.plies == 1) {
                if c.end.result().is_some() || c.end.pending != Pending::Roll {
                    continue;
                }
                let e0 = probs_for(eval, &c.end, &opts, mover).equity();
                let (mut plain, mut double) = (0f64, 0f64);
                let mut total = Probs::default();
                for &(a, b, wt) in ROLLS.iter() {
                    let Ok(rolled) = c.end.roll(&opts, a, b) else {
                        continue;
                    };
                    let after = search
                        .turns_prefiltered(&rolled, one.inner_beam, INNER_PREFILTER)
                        .into_iter()
                        .next()
                        .map(|t| t.end)
                        .unwrap_or(rolled);
                    let p = probs_for(eval, &after, &opts, mover);
                    total.add_scaled(&p, wt / 36.0);
                    let x = f64::from(p.equity() - e0);
                    if a == b {
                        double += x / 6.0;
                    } else {
                        plain += x * f64::from(wt) / 30.0;
                    }
                }
                if (total.equity() - c.probs.equity()).abs() > 1e-4 {
                    sum_mismatch += 1;
                }
                after_plain[ph].add(plain);
                after_double[ph].add(double);
            }
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
    println!(
        "{variant}: {} positions (seed {seed}){}",
        positions.len(),
        option("weights=")
            .map(|f| format!(", network {f}"))
            .unwrap_or_default()
    );
    for (i, p) in names.iter().enumerate() {
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
        for (i, p) in names.iter().enumerate() {
            println!(
                "{p:<8} where 1-ply changes the choice, 2-ply equity of the 1-ply choice minus the 0-ply choice's: {}",
                referee_gain[i].text()
            );
        }
    }
    for (i, p) in names.iter().enumerate() {
        if count[i] == 0 {
            continue;
        }
        println!(
            "{p:<8} shift before the roll (1-ply − 0-ply, roller's equity) {}; at the root's ends: opponent {} {}, not {}; spread of the shift over one root's ends (sd) {}",
            shift[i].text(),
            if hitting {
                "on the bar"
            } else {
                "with a remainder"
            },
            shift_end_hit[i].text(),
            shift_end_quiet[i].text(),
            spread[i].text(),
        );
    }
    if hitting {
        println!(
            "shift before the roll with the roller on the bar: {}",
            shift_bar.text()
        );
    } else {
        for (i, p) in names.iter().enumerate() {
            if count[i] == 0 {
                continue;
            }
            println!(
                "{p:<8} 1-ply's judged ends, shift after the opponent's plain rolls {}, after its doublets {}",
                after_plain[i].text(),
                after_double[i].text()
            );
        }
        println!(
            "ends whose roll-by-roll sum differs from the search's 1-ply value: {sum_mismatch}"
        );
    }
    // The referee's rating of a set of changed choices, when there is one.
    let gain = |m: &Mean| {
        if referee {
            format!(", 2-ply gain of the change {}", m.text())
        } else {
            String::new()
        }
    };
    for (i, kind) in KINDS.iter().enumerate() {
        if k_count[i] == 0 {
            continue;
        }
        println!(
            "roll {kind:<9} positions {:>5}  1-ply changes the 0-ply choice {:>5} ({:.1}%){}  shift at the root's ends {}",
            k_count[i],
            k_differs[i],
            100.0 * k_differs[i] as f64 / k_count[i] as f64,
            gain(&k_referee[i]),
            k_shift_end[i].text(),
        );
    }
    if let Some(b) = inner {
        for (i, p) in names.iter().enumerate() {
            if count[i] == 0 {
                continue;
            }
            println!(
                "{p:<8} inner beam {b}: changes the 1-ply choice {:>4} ({:.1}%){}",
                inner_differs[i],
                100.0 * inner_differs[i] as f64 / count[i] as f64,
                gain(&inner_referee[i])
            );
        }
    }
    if referee {
        // The opening: each roll from the start, 0-ply's and 1-ply's
        // choices, and what 2-ply makes of the difference.
        let start = GameState::start_of(variant, Side::White);
        let mut line =
            String::from("opening rolls where 1-ply changes the 0-ply choice (2-ply gain):");
        let mut total = 0.0f64;
        for &(a, b, w) in ROLLS.iter() {
            let Ok(r) = start.roll(&opts, a, b) else {
                continue;
            };
            let z = search.best_turn(&r, &zero, &mut |_| {});
            let d = search.best_turn(&r, &one, &mut |_| {});
            if z.is_empty() || d[0].end == z[0].end {
                continue;
            }
            let g = f64::from(two(&d[0].end, r.to_move) - two(&z[0].end, r.to_move));
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
