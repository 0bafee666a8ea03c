//! Engine-vs-engine matches: mirrored dice pairs, a referee built on the
//! rules core, forfeits for crashes, timeouts and illegal moves, luck
//! adjustment, SPRT, records.

pub mod builtin;
pub mod engine;
pub mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::eval::heuristic::Heuristic;
use crate::eval::{Evaluator, probs_for};
use crate::notation::{apply_turn, state_text};
use crate::record::{Record, RecordedGame, RecordedTurn, rules_tag, write_record};
use crate::rules::game::{DiceSource, SeededDice, open_game};
use crate::rules::skip_forced_empty;
use crate::rules::{GameResult, GameState, MoveGen, Pending, RuleOptions, Side};
use crate::search::{ROLLS, Search};
use builtin::{Builtin, Player};
use engine::{Engine, EngineError, EngineSpec};
use stats::{Sprt, SprtState, mean_se};

/// The evaluator that judges luck (at 0-ply, chains planned with a beam of 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LuckReference {
    /// The hand-written baseline evaluator.
    Baseline,
    /// The shipped network.
    #[default]
    Net,
}

impl LuckReference {
    /// The evaluator itself.
    pub fn evaluator(self) -> std::sync::Arc<dyn Evaluator + Send + Sync> {
        match self {
            LuckReference::Baseline => std::sync::Arc::new(Heuristic),
            LuckReference::Net => match crate::eval::net::load_cached("shipped") {
                Ok(net) => net,
                // The shipped weights are checked by the tests; should they
                // ever fail to load, luck is judged by the baseline.
                Err(_) => std::sync::Arc::new(Heuristic),
            },
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; the first is the one whose ppg is reported.
    pub engines: [EngineSpec; 2],
    /// Games to play (rounded up to whole mirrored pairs).
    pub games: usize,
    /// Seed of the whole match.
    pub seed: u64,
    /// Games played at once (pairs are the unit of work).
    pub jobs: usize,
    /// Time an engine has for one decision.
    pub move_timeout: Duration,
    /// The rules, applied by the referee and sent to both engines.
    pub rules: RuleOptions,
    /// Report a luck-adjusted ppg as well.
    pub luck_adjust: bool,
    /// The evaluator that judges the luck of each roll.
    pub luck_reference: LuckReference,
    /// Stop early by SPRT.
    pub sprt: Option<Sprt>,
    /// Write one record per game here.
    pub records: Option<PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Pair number (from 0).
    pub pair: usize,
    /// Which engine played White.
    pub white_engine: usize,
    /// Points for engine 0 (negative when engine 1 won).
    pub points: i32,
    /// Winner engine and whether it was a mars.
    pub winner: Option<(usize, bool)>,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, String)>,
    /// Sum of each engine's luck (equity) over its rolls.
    pub luck: [f64; 2],
    /// The record of the game.
    pub record: RecordedGame,
    /// The dice seed of the pair.
    pub dice_seed: u64,
}

/// The final report.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Engine names.
    pub names: [String; 2],
    /// Games played.
    pub games: usize,
    /// Wins per engine.
    pub wins: [u32; 2],
    /// Mars wins per engine.
    pub mars: [u32; 2],
    /// Games ended by the stuck rule.
    pub stuck: u32,
    /// Forfeits per engine (crash, timeout, illegal move).
    pub forfeits: [u32; 2],
    /// Engine 0's points per game.
    pub ppg: f64,
    /// Its standard error over mirrored pairs.
    pub se: f64,
    /// Luck-adjusted ppg and its standard error, when asked for.
    pub luck_ppg: Option<(f64, f64)>,
    /// The SPRT outcome, when asked for.
    pub sprt: Option<SprtState>,
    /// Forfeit reasons (first few).
    pub forfeit_log: Vec<String>,
}

impl MatchReport {
    /// The summary as one JSON object.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::json!({
            "engines": self.names,
            "games": self.games,
            "wins": self.wins,
            "mars": self.mars,
            "stuck": self.stuck,
            "forfeits": self.forfeits,
            "ppg": self.ppg,
            "se": self.se,
            "ci95": [self.ppg - 1.96 * self.se, self.ppg + 1.96 * self.se],
        });
        if let Some((p, s)) = self.luck_ppg {
            v["luck_adjusted_ppg"] = serde_json::json!(p);
            v["luck_adjusted_se"] = serde_json::json!(s);
        }
        if let Some(s) = self.sprt {
            v["sprt"] = serde_json::json!(format!("{s:?}"));
        }
        v.to_string()
    }

    /// The summary for people.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "games {}  {} vs {}\nwins {} - {}  (mars {} - {})  stuck {}  forfeits {} - {}\nppg {:+.3} ± {:.3} (95% {:+.3} .. {:+.3})\n",
            self.games,
            self.names[0],
            self.names[1],
            self.wins[0],
            self.wins[1],
            self.mars[0],
            self.mars[1],
            self.stuck,
            self.forfeits[0],
            self.forfeits[1],
            self.ppg,
            self.se,
            self.ppg - 1.96 * self.se,
            self.ppg + 1.96 * self.se
        );
        if let Some((p, e)) = self.luck_ppg {
            s.push_str(&format!("luck-adjusted ppg {p:+.3} ± {e:.3}\n"));
        }
        if let Some(st) = self.sprt {
            s.push_str(&format!("sprt {st:?}\n"));
        }
        for f in &self.forfeit_log {
            s.push_str(&format!("forfeit: {f}\n"));
        }
        s
    }
}

/// Seed of pair `i` of a match seeded `seed` (splitmix64).
pub fn pair_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the side to move's turn from `start` (a stage pending) with the
/// engine's words: they must make up exactly that turn.
pub fn referee_turn(
    start: &GameState,
    opts: &RuleOptions,
    words: &[String],
) -> Result<GameState, String> {
    let toks: Vec<&str> = words.iter().map(String::as_str).collect();
    apply_turn(start, opts, &toks).map_err(|e| e.to_string())
}

/// Luck of rolling `roll` in `state` (side to move about to roll), for the
/// roller: its best 0-ply turn's equity minus the average over all rolls.
pub fn roll_luck(
    reference: &dyn Evaluator,
    state: &GameState,
    opts: &RuleOptions,
    roll: (u8, u8),
) -> f64 {
    let stop = AtomicBool::new(false);
    let search = Search::new(reference, *opts, &stop);
    let side = state.to_move;
    let value = |a: u8, b: u8| -> f64 {
        let Ok(rolled) = state.roll(opts, a, b) else {
            return 0.0;
        };
        let turns = search.turns(&rolled, 4);
        match turns.first() {
            Some(c) => f64::from(c.probs.equity()),
            None => f64::from(probs_for(reference, &rolled, opts, side).equity()),
        }
    };
    let mut avg = 0.0;
    let mut actual = 0.0;
    for &(a, b, w) in ROLLS.iter() {
        let v = value(a, b);
        avg += v * f64::from(w) / 36.0;
        if (a, b) == roll || (b, a) == roll {
            actual = v;
        }
    }
    actual - avg
}

struct Seats<'a> {
    cfg: &'a MatchConfig,
    engines: [Option<Box<dyn Player>>; 2],
}

impl Seats<'_> {
    fn engine(&mut self, i: usize) -> Result<&mut Box<dyn Player>, EngineError> {
        if self.engines[i].is_none() {
            let extra: Vec<(String, String)> = RuleOptions::NAMES
                .iter()
                .map(|n| {
                    (
                        format!("rules.{n}"),
                        self.cfg.rules.get(n).unwrap_or_default(),
                    )
                })
                .collect();
            let spec = &self.cfg.engines[i];
            let player: Box<dyn Player> = if let Some(kind) = spec.cmd.strip_prefix("builtin:") {
                let mut all = spec.options.clone();
                all.extend(extra);
                Box::new(Builtin::new(kind, &all)?)
            } else {
                Box::new(Engine::start(
                    spec,
                    &extra,
                    self.cfg.move_timeout.max(Duration::from_secs(10)),
                )?)
            };
            self.engines[i] = Some(player);
        }
        self.engines[i].as_mut().ok_or(EngineError::Closed)
    }

    fn drop_engine(&mut self, i: usize) {
        if let Some(e) = self.engines[i].take() {
            e.quit();
        }
    }
}

/// Plays one game with dice from `dice_seed`, `white_engine` playing White.
fn play_game(seats: &mut Seats, pair: usize, white_engine: usize, dice_seed: u64) -> GameOutcome {
    let cfg = seats.cfg;
    let opts = cfg.rules;
    let engine_of = |s: Side| {
        if s == Side::White {
            white_engine
        } else {
            1 - white_engine
        }
    };
    let mut dice = SeededDice::new(dice_seed);
    let opened = open_game(&opts, &mut dice);
    let (starter, mut first_roll) = (opened.starter, opened.first_roll);
    let opening = *opened.throws.last().unwrap_or(&(2, 1));
    let mut state = GameState::start(starter);
    let mut movegen = MoveGen::new();
    let mut ends = Vec::new();
    let mut turns = Vec::new();
    let mut luck = [0.0; 2];
    let reference = cfg.luck_adjust.then(|| cfg.luck_reference.evaluator());
    let mut forfeit: Option<(usize, String)> = None;
    while state.result().is_none() {
        let mover = state.to_move;
        let who = engine_of(mover);
        let (roll, start) = match state.pending {
            Pending::Roll => {
                let r = first_roll
                    .take()
                    .unwrap_or_else(|| (dice.die(), dice.die()));
                if let Some(reference) = &reference {
                    luck[who] += roll_luck(reference.as_ref(), &state, &opts, r);
                }
                match state.roll(&opts, r.0, r.1) {
                    Ok(s) => (Some(r), s),
                    Err(_) => break,
                }
            }
            _ => (None, state),
        };
        let remainder = match start.pending {
            Pending::Remainder { die, count } => Some((die, count)),
            _ => None,
        };
        let skipped = skip_forced_empty(start, &opts, &mut movegen, &mut ends);
        let nothing_to_play = skipped.result().is_some()
            || skipped.to_move != mover
            || skipped.stage_dice().is_none();
        let (next, words) = if nothing_to_play && skipped.result().is_none() {
            (skipped, Vec::new())
        } else {
            let asked = seats
                .engine(who)
                .and_then(|e| e.best_move(&state_text(&state), roll, cfg.move_timeout));
            match asked {
                Err(e) => {
                    seats.drop_engine(who);
                    forfeit = Some((who, format!("{}: {e}", cfg.engines[who].name)));
                    break;
                }
                Ok(words) => match referee_turn(&start, &opts, &words) {
                    Ok(s) => (s, words),
                    Err(why) => {
                        forfeit = Some((
                            who,
                            format!(
                                "{}: illegal move 'bestmove {}' in {}{}: {why}",
                                cfg.engines[who].name,
                                words.join(" "),
                                state_text(&state),
                                roll.map(|(a, b)| format!(" dice {a}{b}"))
                                    .unwrap_or_default()
                            ),
                        ));
                        break;
                    }
                },
            }
        };
        turns.push(RecordedTurn {
            side: mover,
            roll,
            remainder,
            moves: words.into_iter().filter(|w| w != "pass").collect(),
        });
        state = next;
    }
    let names = [
        cfg.engines[white_engine].name.clone(),
        cfg.engines[1 - white_engine].name.clone(),
    ];
    let (result, points, winner) = match (&forfeit, state.result()) {
        (Some((f, _)), _) => {
            let w = 1 - *f;
            (None, if w == 0 { 1 } else { -1 }, Some((w, false)))
        }
        (None, Some(r)) => match r.winner {
            Some(side) => {
                let w = engine_of(side);
                let p = i32::from(r.points);
                (
                    Some(r),
                    if w == 0 { p } else { -p },
                    Some((w, r.points == 2)),
                )
            }
            None => (Some(r), 0, None),
        },
        (None, None) => (None, 0, None),
    };
    GameOutcome {
        pair,
        white_engine,
        points,
        winner,
        forfeit: forfeit.clone(),
        luck,
        record: RecordedGame {
            players: names,
            opening,
            starter,
            turns,
            result: result.map(|r: GameResult| r),
            note: forfeit.map(|(_, why)| format!("forfeit: {why}")),
        },
        dice_seed,
    }
}

/// Plays a match.
pub fn run_match(cfg: &MatchConfig) -> MatchReport {
    let pairs = cfg.games.div_ceil(2).max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<GameOutcome>();
    let bar = if cfg.progress {
        let b = indicatif::ProgressBar::new((pairs * 2) as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}<{eta_precise}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut report = MatchReport {
        names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        ..MatchReport::default()
    };
    if let Some(dir) = &cfg.records {
        let _ = std::fs::create_dir_all(dir);
    }
    std::thread::scope(|sc| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            let stop = &stop;
            sc.spawn(move || {
                let mut seats = Seats {
                    cfg,
                    engines: [None, None],
                };
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= pairs || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let seed = pair_seed(cfg.seed, i);
                    for white in [0, 1] {
                        let g = play_game(&mut seats, i, white, seed);
                        if tx.send(g).is_err() {
                            return;
                        }
                    }
                }
                for e in 0..2 {
                    seats.drop_engine(e);
                }
            });
        }
        drop(tx);
        let mut by_pair: std::collections::BTreeMap<usize, Vec<GameOutcome>> = Default::default();
        let mut pair_points = Vec::new();
        let mut pair_adjusted = Vec::new();
        let mut total = 0i64;
        for g in rx {
            report.games += 1;
            total += i64::from(g.points);
            if let Some((w, mars)) = g.winner {
                report.wins[w] += 1;
                if mars {
                    report.mars[w] += 1;
                }
            } else if g.forfeit.is_none() {
                report.stuck += 1;
            }
            if let Some((f, why)) = &g.forfeit {
                report.forfeits[*f] += 1;
                if report.forfeit_log.len() < 20 {
                    report.forfeit_log.push(why.clone());
                }
            }
            if let Some(dir) = &cfg.records {
                let n = g.pair * 2 + g.white_engine + 1;
                let rec = Record {
                    tags: vec![
                        ("Event".into(), "gulbara match".into()),
                        ("Variant".into(), "gulbara".into()),
                        ("Rules".into(), rules_tag(&cfg.rules)),
                        ("Seed".into(), g.dice_seed.to_string()),
                        ("MatchSeed".into(), cfg.seed.to_string()),
                        ("Round".into(), n.to_string()),
                        ("Player 1".into(), cfg.engines[0].name.clone()),
                        ("Player 2".into(), cfg.engines[1].name.clone()),
                    ],
                    games: vec![g.record.clone()],
                };
                let _ = std::fs::write(dir.join(format!("game-{n:06}.txt")), write_record(&rec));
            }
            let pair = g.pair;
            let entry = by_pair.entry(pair).or_default();
            entry.push(g);
            if entry.len() == 2 {
                let pts: f64 = entry.iter().map(|g| f64::from(g.points)).sum::<f64>() / 2.0;
                let adj: f64 = entry
                    .iter()
                    .map(|g| f64::from(g.points) - (g.luck[0] - g.luck[1]))
                    .sum::<f64>()
                    / 2.0;
                pair_points.push(pts);
                pair_adjusted.push(adj);
                by_pair.remove(&pair);
                if let Some(s) = &cfg.sprt {
                    let st = s.state(&pair_points);
                    if st != SprtState::Continue {
                        report.sprt = Some(st);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            let (m, se) = mean_se(&pair_points);
            bar.set_message(format!(
                "{} {}-{} {}  ppg {:+.3} ± {:.3}",
                cfg.engines[0].name, report.wins[0], report.wins[1], cfg.engines[1].name, m, se
            ));
            bar.inc(1);
        }
        bar.finish_and_clear();
        let (_, se) = mean_se(&pair_points);
        report.ppg = if report.games > 0 {
            total as f64 / report.games as f64
        } else {
            0.0
        };
        report.se = se;
        if cfg.luck_adjust {
            report.luck_ppg = Some(mean_se(&pair_adjusted));
        }
        if cfg.sprt.is_some() && report.sprt.is_none() {
            report.sprt = Some(SprtState::Continue);
        }
    });
    report
}

/// Re-exported for the CLI: turns a rule option list `k=v` into options.
pub fn parse_rules(args: &[String]) -> Result<RuleOptions, String> {
    let mut o = RuleOptions::default();
    for a in args {
        let (k, v) = a
            .split_once('=')
            .ok_or_else(|| format!("--rule takes name=value, got '{a}'"))?;
        o.set(k, v).map_err(|e| e.0)?;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_accepts_exact_turns_only() {
        let o = RuleOptions::default();
        let s = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
        let w = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert!(referee_turn(&s, &o, &w("24/18 24/19")).is_ok());
        assert!(referee_turn(&s, &o, &w("24/13")).is_ok());
        assert!(referee_turn(&s, &o, &w("24/18")).is_err());
        assert!(referee_turn(&s, &o, &w("24/18 24/19 12/7")).is_err());
        assert!(referee_turn(&s, &o, &w("pass")).is_err());
        assert!(referee_turn(&s, &o, &w("hello")).is_err());
    }

    #[test]
    fn pair_seeds_differ() {
        assert_ne!(pair_seed(1, 0), pair_seed(1, 1));
        assert_ne!(pair_seed(1, 0), pair_seed(2, 0));
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
    }

    #[test]
    fn luck_of_all_rolls_averages_to_zero() {
        let o = RuleOptions::default();
        let s = crate::notation::parse_state_text(
            "2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10",
        )
        .unwrap();
        let mut total = 0.0;
        for &(a, b, w) in ROLLS.iter() {
            total += roll_luck(&Heuristic, &s, &o, (a, b)) * f64::from(w) / 36.0;
        }
        assert!(total.abs() < 1e-6, "{total}");
        let net = LuckReference::Net.evaluator();
        let mut total = 0.0;
        let mut spread = 0.0;
        for &(a, b, w) in ROLLS.iter() {
            let l = roll_luck(net.as_ref(), &s, &o, (a, b));
            total += l * f64::from(w) / 36.0;
            spread += l.abs();
        }
        assert!(total.abs() < 1e-6, "{total}");
        assert!(spread > 0.1, "rolls differ in value: {spread}");
    }
}

#[cfg(test)]
mod match_tests {
    use super::*;

    fn spec(cmd: &str, name: &str, opts: &[(&str, &str)]) -> EngineSpec {
        EngineSpec {
            cmd: cmd.into(),
            name: name.into(),
            options: opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn builtin_match_is_reproducible_and_counts_add_up() {
        let cfg = MatchConfig {
            engines: [
                spec("builtin:heuristic", "h0", &[("engine.ply", "1")]),
                spec("builtin:random", "random", &[]),
            ],
            games: 8,
            seed: 11,
            jobs: 2,
            move_timeout: Duration::from_secs(10),
            rules: RuleOptions::default(),
            luck_adjust: true,
            luck_reference: LuckReference::Net,
            sprt: None,
            records: None,
            progress: false,
        };
        let a = run_match(&cfg);
        assert_eq!(a.games, 8);
        assert_eq!(a.forfeits, [0, 0]);
        assert_eq!(a.wins[0] + a.wins[1] + a.stuck, 8);
        // The same games whatever the number of jobs (the random player
        // draws from the position, not from a per-process stream).
        let b = run_match(&MatchConfig {
            jobs: 1,
            ..cfg.clone()
        });
        assert_eq!((a.wins, a.mars, a.ppg), (b.wins, b.mars, b.ppg));
        assert!(a.luck_ppg.is_some());
    }
}
