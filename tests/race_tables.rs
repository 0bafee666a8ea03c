//! The bear-off tables (`gulbara::eval::bearoff`) and the race evaluator
//! (`gulbara::eval::race`), checked exactly.
//!
//! - The tables' home-board generator against every game's own stage
//!   generator on many all-home positions and every roll.
//! - Every distribution of up to four checkers against an independent naive
//!   recursion: every one of the 36 dice outcomes, every whole turn the
//!   rules engine's own driver allows (chains stage by stage through
//!   `GameState::after_stage`), in exact integer arithmetic (the
//!   probability of needing exactly n rolls as a numerator over 36ⁿ); the
//!   tables (f64) must agree within 1e-12. The first-checker (mars)
//!   distributions likewise on the 15-checker positions of points 1..4.
//! - Win chances of small two-sided races against an exact two-sided
//!   recursion (the mover maximising its chances): equal with one checker a
//!   side (no choices exist), and with two; within 0.2% with three.
//! - Known facts, sums, monotonicity, and the evaluator's switch.

use std::collections::{HashMap, HashSet};

use gulbara::eval::bearoff::{self, Dice, Home, MAX_EXEMPT, POSITIONS};
use gulbara::eval::race::{self, RaceTables};
use gulbara::eval::{Evaluator, Probs};
use gulbara::rules::position::{CHECKERS, Checkers};
use gulbara::rules::{GameState, Pending, Position, RuleOptions, Side, StageGen, Variant};

/// Checkers from a home arrangement (the rest borne off).
fn checkers(home: &Home) -> Checkers {
    let mut c = [0u8; 24];
    c[..6].copy_from_slice(home);
    Checkers::from_counts(&c).expect("at most 15")
}

fn home(c: Checkers) -> Home {
    bearoff::home_of(c).expect("all home")
}

/// Every arrangement of at most `n` checkers on the home points.
fn small(n: u8) -> Vec<Home> {
    (0..POSITIONS)
        .filter_map(bearoff::arrangement)
        .filter(|h| bearoff::checkers_in(h) <= n)
        .collect()
}

/// A state of `variant` with White to roll: `own` against `opp` (each in
/// its own numbering), rolls made `rolls`.
fn state(variant: Variant, own: Checkers, opp: Checkers, rolls: [u32; 2]) -> GameState {
    let mut s = GameState::start_of(variant, Side::White);
    s.pos = Position { own, opp };
    s.rolls = rolls;
    s
}

/// Every distinct end of a whole turn of `s` (pending a rolled stage), as
/// the engine's driver plays it: the states once the mover's turn is over
/// (the game over, or the other side to move).
fn turn_ends(opts: &RuleOptions, s: GameState, stages: &mut StageGen) -> Vec<GameState> {
    let mover = s.to_move;
    let mut seen = HashSet::new();
    let mut todo = vec![s];
    let mut out = Vec::new();
    let mut ends = Vec::new();
    while let Some(s) = todo.pop() {
        if !seen.insert(s) {
            continue;
        }
        if s.result().is_some() || s.to_move != mover {
            out.push(s);
            continue;
        }
        let dice = s.stage_dice().expect("a stage is pending");
        let used = stages.generate(opts, &s, dice, &mut ends);
        for e in ends.clone() {
            todo.push(s.after_stage(opts, e.pos, used));
        }
    }
    out
}

/// The mover's checkers at the end of its turn.
fn mover_after(s: &GameState, mover: Side) -> Checkers {
    if s.to_move == mover {
        s.pos.own
    } else {
        s.pos.opp
    }
}

/// A distribution in exact arithmetic: `num[n]` over 36ⁿ.
type Exact = Vec<u128>;

/// Rolls kept by the exact recursion (four checkers never need more than
/// twelve: every roll moves at least two pips).
const M: usize = 16;

fn pow36(k: usize) -> u128 {
    36u128.pow(k as u32)
}

/// The expected rolls times 36^M.
fn exact_mean(d: &Exact) -> u128 {
    d.iter()
        .enumerate()
        .map(|(n, &x)| n as u128 * x * pow36(M - n))
        .sum()
}

/// Whether `a` beats `b`: fewer expected rolls, then (ties) the larger
/// chance to be done at the first number of rolls where they differ.
fn exact_better(a: &Exact, b: &Exact) -> bool {
    let (ma, mb) = (exact_mean(a), exact_mean(b));
    if ma != mb {
        return ma < mb;
    }
    let (mut ca, mut cb) = (0u128, 0u128);
    for t in 0..M {
        ca = ca * 36 + a[t];
        cb = cb * 36 + b[t];
        if ca != cb {
            return ca > cb;
        }
    }
    false
}

/// The naive one-sided recursion through the engine's turns.
struct Naive {
    variant: Variant,
    opts: RuleOptions,
    /// Bear off the first checker (true) or all (false).
    first: bool,
    memo: HashMap<(Checkers, u32), Exact>,
    stages: StageGen,
}

impl Naive {
    fn new(variant: Variant, first: bool) -> Naive {
        Naive {
            variant,
            opts: RuleOptions::for_variant(variant),
            first,
            memo: HashMap::new(),
            stages: StageGen::new(),
        }
    }

    fn done(&self, c: Checkers) -> bool {
        if self.first {
            c.off() > 0
        } else {
            c.off() == CHECKERS
        }
    }

    /// The distribution of `own` with `rolls` rolls made (the exemption of
    /// Gul bara counts them).
    fn dist(&mut self, own: Checkers, rolls: u32) -> Exact {
        let rolls = rolls.min(self.opts.exempt_rolls);
        if let Some(d) = self.memo.get(&(own, rolls)) {
            return d.clone();
        }
        let mut out = vec![0u128; M];
        if self.done(own) {
            out[0] = 1;
        } else {
            // The opponent: fifteen checkers on its 6-point, out of the way.
            let opp = checkers(&[0, 0, 0, 0, 0, 15]);
            let s = state(self.variant, own, opp, [rolls, 50]);
            for d1 in 1..=6 {
                for d2 in 1..=6 {
                    let rolled = s.roll(&self.opts, d1, d2).expect("a roll");
                    let ends = turn_ends(&self.opts, rolled, &mut self.stages);
                    let mut best: Option<Exact> = None;
                    for e in ends {
                        let c = mover_after(&e, Side::White);
                        let d = self.dist(c, rolls + 1);
                        if best.as_ref().is_none_or(|b| exact_better(&d, b)) {
                            best = Some(d);
                        }
                    }
                    let best = best.expect("a turn has an end");
                    assert_eq!(best[M - 1], 0, "the recursion ran past {M} rolls");
                    for n in 0..M - 1 {
                        out[n + 1] += best[n];
                    }
                }
            }
        }
        self.memo.insert((own, rolls), out.clone());
        out
    }
}

fn assert_matches(table: &[f64], exact: &Exact, what: &str) {
    for (n, &x) in exact.iter().enumerate() {
        let want = x as f64 / pow36(n) as f64;
        let got = table.get(n).copied().unwrap_or(0.0);
        assert!(
            (got - want).abs() <= 1e-12,
            "{what}: P({n} rolls) table {got} exact {want}"
        );
    }
}

/// The tables of `dice` against the naive recursion of `variant` with
/// `rolls` made, for every arrangement of up to `n` checkers.
fn check_all_off(dice: Dice, variant: Variant, rolls: u32, n: u8) {
    let t = bearoff::table(dice).expect("a table");
    let mut naive = Naive::new(variant, false);
    for h in small(n) {
        let exact = naive.dist(checkers(&h), rolls);
        assert_matches(
            t.dist(&h).expect("indexed"),
            &exact,
            &format!("{dice:?} {h:?}"),
        );
    }
}

#[test]
fn ordinary_dice_match_brute_force_with_the_backgammon_driver() {
    check_all_off(Dice::Ordinary, Variant::Backgammon, 0, 4);
}

#[test]
fn ordinary_dice_match_brute_force_with_the_long_nardy_driver() {
    check_all_off(Dice::Ordinary, Variant::LongNardy, 5, 3);
}

#[test]
fn escalating_chains_match_brute_force_past_the_exemption() {
    check_all_off(Dice::Escalating { exempt: 0 }, Variant::GulBara, 3, 4);
}

#[test]
fn exempt_rolls_match_brute_force() {
    for k in 1..=MAX_EXEMPT {
        let rolls = 3 - u32::from(k);
        check_all_off(Dice::Escalating { exempt: k }, Variant::GulBara, rolls, 3);
    }
}

#[test]
fn first_checker_distributions_match_brute_force() {
    // Every 15-checker arrangement of points 1..4: what they reach before
    // the first checker is off stays among them.
    let arrangements: Vec<Home> = (0..POSITIONS)
        .filter_map(bearoff::arrangement)
        .filter(|h| bearoff::checkers_in(h) == CHECKERS && h[4] == 0 && h[5] == 0)
        .collect();
    assert_eq!(arrangements.len(), 816);
    for (dice, variant, rolls) in [
        (Dice::Ordinary, Variant::Backgammon, 0),
        (Dice::Escalating { exempt: 0 }, Variant::GulBara, 3),
        (Dice::Escalating { exempt: 2 }, Variant::GulBara, 1),
    ] {
        let t = bearoff::table(dice).expect("a table");
        let mut naive = Naive::new(variant, true);
        for h in &arrangements {
            let exact = naive.dist(checkers(h), rolls);
            assert_matches(
                t.first(h).expect("indexed"),
                &exact,
                &format!("{dice:?} {h:?}"),
            );
        }
    }
}

/// Every arrangement a die reaches, by the tables' generator.
fn steps(h: &Home, die: u8) -> Vec<Home> {
    bearoff::home_steps(h, die)
}

/// The arrangements a stage reaches by the tables' generator (all dice
/// played, or fewer when the last checker comes off).
fn home_stage(h: &Home, dice: &[u8]) -> HashSet<Home> {
    let mut out = HashSet::new();
    if dice.is_empty() || bearoff::checkers_in(h) == 0 {
        out.insert(*h);
        return out;
    }
    for (i, &d) in dice.iter().enumerate() {
        let mut rest = dice.to_vec();
        rest.remove(i);
        for s in steps(h, d) {
            out.extend(home_stage(&s, &rest));
        }
    }
    out
}

#[test]
fn the_home_generator_agrees_with_every_games_stage_generator() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut stages = StageGen::new();
    let mut ends = Vec::new();
    let mut checked = 0;
    for _ in 0..600 {
        let mut own = [0u8; 6];
        let mut opp = [0u8; 6];
        let (a, b) = (1 + rand(15), 1 + rand(15));
        for _ in 0..a {
            own[rand(6) as usize] += 1;
        }
        for _ in 0..b {
            opp[rand(6) as usize] += 1;
        }
        for variant in Variant::ALL {
            let opts = RuleOptions::for_variant(variant);
            let s = state(variant, checkers(&own), checkers(&opp), [20, 20]);
            for d1 in 1..=6u8 {
                for d2 in d1..=6u8 {
                    let dice = gulbara::rules::StageDice::from_roll(d1, d2);
                    let used = stages.generate(&opts, &s, dice, &mut ends);
                    let engine: HashSet<Home> = ends.iter().map(|e| home(e.pos.own)).collect();
                    // The opponent never moves, nor is it hit.
                    assert!(ends.iter().all(|e| e.pos.opp == s.pos.opp));
                    let mine = home_stage(&own, &dice.dice());
                    assert_eq!(engine, mine, "{variant} {own:?} {d1}{d2}");
                    // Every die is played unless the last checker is off.
                    assert_eq!(
                        used,
                        dice.count(),
                        "{variant} {own:?} {d1}{d2}: every die is playable"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 600 * Variant::ALL.len() * 21);
}

#[test]
fn known_facts() {
    let ord = bearoff::table(Dice::Ordinary).expect("a table");
    let esc = bearoff::table(Dice::Escalating { exempt: 0 }).expect("a table");
    for t in [ord, esc] {
        // The empty board needs no roll.
        assert_eq!(t.dist(&[0; 6]).expect("indexed")[0], 1.0);
        assert_eq!(t.mean(&[0; 6]), Some(0.0));
        // One or two checkers on the 1-point: one roll, always.
        for n in [1, 2] {
            let d = t.dist(&[n, 0, 0, 0, 0, 0]).expect("indexed");
            assert_eq!(d[1], 1.0, "{n} on the 1-point");
        }
    }
    // One checker on the 6-point, ordinary dice: off in one roll when the
    // two dice add to 6 or more (22 of the 30 non-doublets) or the
    // doublet's four steps do (2-2 … 6-6): 27/36.
    let six = [0, 0, 0, 0, 0, 1];
    assert!((ord.dist(&six).expect("indexed")[1] - 27.0 / 36.0).abs() < 1e-15);
    // Escalating: every doublet ends in 6-6, so 1-1 too: 28/36.
    assert!((esc.dist(&six).expect("indexed")[1] - 28.0 / 36.0).abs() < 1e-15);
    // Fifteen on the 6-point: the first checker is off in one roll with
    // any 6 (11), 5-1 and 4-2 (6/1, 6/2 then off: 4), 3-3 and 2-2 (2):
    // 17/36 (4-4 and 5-5 reach the 2- and 1-points, but a higher die bears
    // off only from the highest point); escalating, every doublet's chain
    // reaches 6-6, and ten non-doublets hold a 6: 20/36.
    let fifteen = [0, 0, 0, 0, 0, 15];
    assert!((ord.first(&fifteen).expect("indexed")[1] - 17.0 / 36.0).abs() < 1e-15);
    assert!((esc.first(&fifteen).expect("indexed")[1] - 20.0 / 36.0).abs() < 1e-15);
}

#[test]
fn every_distribution_sums_to_one_and_more_checkers_never_need_fewer_rolls() {
    let mut tables = vec![Dice::Ordinary];
    tables.extend((0..=MAX_EXEMPT).map(|exempt| Dice::Escalating { exempt }));
    for dice in tables {
        let t = bearoff::table(dice).expect("a table");
        for i in 0..POSITIONS {
            let h = bearoff::arrangement(i).expect("an arrangement");
            let d = t.dist_at(i);
            let sum: f64 = d.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{dice:?} {h:?} sums to {sum}");
            let mean: f64 = d.iter().enumerate().map(|(n, p)| n as f64 * p).sum();
            assert!((mean - t.mean_at(i)).abs() < 1e-9, "{dice:?} {h:?}");
            let f: f64 = t.first_at(i).iter().sum();
            assert!((f - 1.0).abs() < 1e-12, "{dice:?} {h:?} first sums to {f}");
            if bearoff::checkers_in(&h) < CHECKERS {
                assert_eq!(t.first_at(i)[0], 1.0);
                for p in 0..6 {
                    let mut more = h;
                    more[p] += 1;
                    let m = t.mean(&more).expect("indexed");
                    assert!(
                        m >= t.mean_at(i) - 1e-12,
                        "{dice:?} {h:?} + point {}",
                        p + 1
                    );
                }
            }
        }
    }
}

/// The exact two-sided chances of the side to move, maximising them.
struct TwoSided {
    opts: RuleOptions,
    memo: HashMap<GameState, f64>,
    stages: StageGen,
}

impl TwoSided {
    fn win(&mut self, s: GameState) -> f64 {
        if let Some(&v) = self.memo.get(&s) {
            return v;
        }
        let mut total = 0.0;
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let rolled = s.roll(&self.opts, d1, d2).expect("a roll");
                let mut best: f64 = 0.0;
                for e in turn_ends(&self.opts, rolled, &mut self.stages) {
                    let v = if e.result().is_some() {
                        1.0
                    } else {
                        let mut next = e;
                        next.rolls = [next.rolls[0].min(10), next.rolls[1].min(10)];
                        1.0 - self.win(next)
                    };
                    best = best.max(v);
                }
                total += best / 36.0;
            }
        }
        self.memo.insert(s, total);
        total
    }
}

/// The largest difference between the tables' and the exact two-sided win
/// chances over every race of up to `n` checkers a side.
fn two_sided_gap(variant: Variant, n: u8) -> f64 {
    let opts = RuleOptions::for_variant(variant);
    let mut exact = TwoSided {
        opts,
        memo: HashMap::new(),
        stages: StageGen::new(),
    };
    let sides: Vec<Home> = small(n)
        .into_iter()
        .filter(|h| bearoff::checkers_in(h) > 0)
        .collect();
    let mut gap: f64 = 0.0;
    for a in &sides {
        for b in &sides {
            let s = state(variant, checkers(a), checkers(b), [10, 10]);
            let table = race::race_probs(&s, &opts).expect("a race");
            assert_eq!(table.win_mars, 0.0);
            assert_eq!(table.lose_mars, 0.0);
            gap = gap.max((f64::from(table.win) - exact.win(s)).abs());
        }
    }
    gap
}

#[test]
fn one_checker_a_side_wins_exactly_as_two_sided_play() {
    for variant in Variant::ALL {
        let gap = two_sided_gap(variant, 1);
        // f32 chances: exact up to rounding.
        assert!(gap < 1e-6, "{variant}: {gap}");
    }
}

#[test]
fn three_checkers_a_side_are_within_a_stated_bound_of_two_sided_play() {
    // With choices, one-sided play (fewest expected rolls) may differ from
    // the play that maximises the chances against this opponent. Over every
    // race of up to three checkers a side the tables' win chance is within
    // 0.2% of the exact two-sided one (measured: 0.00136 with ordinary dice,
    // none with escalating chains; with up to two checkers a side both are
    // exact).
    for (variant, n, bound) in [
        (Variant::Backgammon, 2, 1e-6),
        (Variant::GulBara, 2, 1e-6),
        (Variant::Backgammon, 3, 0.002),
        (Variant::GulBara, 3, 0.002),
    ] {
        let gap = two_sided_gap(variant, n);
        println!("{variant}: up to {n} checkers a side, largest gap {gap:.6}");
        assert!(gap < bound, "{variant} {n}: {gap}");
    }
}

/// An inner evaluator whose answer is a marker.
struct Marker;

const MARK: Probs = Probs {
    win: 0.123,
    win_mars: 0.0,
    lose_mars: 0.0,
    win_bg: 0.0,
    lose_bg: 0.0,
};

impl Evaluator for Marker {
    fn eval(&self, _: &GameState, _: &RuleOptions) -> Probs {
        MARK
    }

    fn name(&self) -> &'static str {
        "marker"
    }
}

#[test]
fn the_evaluator_answers_races_from_the_tables_and_delegates_the_rest() {
    let e = RaceTables::new(Marker);
    assert_eq!(e.name(), "marker");
    for variant in Variant::ALL {
        let opts = RuleOptions::for_variant(variant);
        // One checker on the 1-point against fifteen: a sure mars win.
        let s = state(
            variant,
            checkers(&[1, 0, 0, 0, 0, 0]),
            checkers(&[0, 0, 0, 0, 0, 15]),
            [10, 10],
        );
        let p = e.eval(&s, &opts);
        assert_eq!(
            (p.win, p.win_mars, p.lose_mars),
            (1.0, 1.0, 0.0),
            "{variant}"
        );
        // Fifteen on the 6-point against one on the 1-point: lost, a mars
        // unless the first checker comes off now (17/36 ordinary, 20/36
        // escalating).
        let s = state(
            variant,
            checkers(&[0, 0, 0, 0, 0, 15]),
            checkers(&[1, 0, 0, 0, 0, 0]),
            [10, 10],
        );
        let p = e.eval(&s, &opts);
        let saved = if variant == Variant::GulBara {
            20.0
        } else {
            17.0
        };
        assert_eq!(p.win, 0.0);
        assert!(
            (p.lose_mars - (36.0 - saved) / 36.0).abs() < 1e-6,
            "{variant} {p:?}"
        );
        assert_eq!((p.win_bg, p.lose_bg), (0.0, 0.0));
        // Not a race: the start.
        assert_eq!(
            e.eval(&GameState::start_of(variant, Side::White), &opts),
            MARK
        );
        // One checker outside home.
        let mut c = [0u8; 24];
        c[0] = 2;
        c[6] = 1;
        let out = state(
            variant,
            Checkers::from_counts(&c).expect("counts"),
            checkers(&[0, 0, 0, 0, 0, 15]),
            [10, 10],
        );
        assert_eq!(e.eval(&out, &opts), MARK, "{variant}");
    }
    // Gul bara with more exempt rolls left than tables are kept for.
    let mut opts = RuleOptions {
        exempt_rolls: 10,
        ..RuleOptions::default()
    };
    let s = state(
        Variant::GulBara,
        checkers(&[3, 0, 0, 0, 0, 0]),
        checkers(&[3, 0, 0, 0, 0, 0]),
        [0, 0],
    );
    assert_eq!(e.eval(&s, &opts), MARK);
    opts.exempt_rolls = 3;
    assert_ne!(e.eval(&s, &opts), MARK);
    // A pending remainder past the exemption: played first, the tables'
    // best play of it. Four 1s … with two checkers on the 2-point: 2/1 2/1
    // 1/off 1/off ends the game.
    let mut s = state(
        Variant::GulBara,
        checkers(&[0, 2, 0, 0, 0, 0]),
        checkers(&[0, 0, 0, 0, 0, 15]),
        [10, 10],
    );
    s.pending = Pending::Remainder { die: 1, count: 4 };
    let p = e.eval(&s, &RuleOptions::default());
    assert_eq!((p.win, p.win_mars), (1.0, 1.0));
    // One 1 left of it: 2/1, then the stages of 2..6 bear both off.
    s.pending = Pending::Remainder { die: 1, count: 1 };
    assert_eq!(e.eval(&s, &RuleOptions::default()).win, 1.0);
}

#[test]
fn the_race_tables_are_the_default_and_can_be_switched_off() {
    use gulbara::eval::GameNet;
    let race = state(
        Variant::Backgammon,
        checkers(&[1, 0, 0, 0, 0, 0]),
        checkers(&[0, 0, 0, 0, 0, 15]),
        [10, 10],
    );
    let opts = RuleOptions::for_variant(Variant::Backgammon);
    let base = gulbara::eval::variants::baseline(Variant::Backgammon).eval(&race, &opts);
    assert_eq!((base.win, base.win_mars), (1.0, 1.0));
    let net = GameNet::load(Variant::Backgammon, None).expect("shipped");
    let p = net.evaluator().eval(&race, &opts);
    assert_eq!((p.win, p.win_mars), (1.0, 1.0));
    let raw = net.net_evaluator().eval(&race, &opts);
    assert_ne!(raw, p, "the network alone judges the race itself");
}
