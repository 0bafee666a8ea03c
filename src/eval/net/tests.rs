use super::*;
use crate::notation::parse_state_text;

/// The layout's block features, computed the plain way.
fn trapped_naive(runner: Checkers, blocks: u32) -> [f32; 4] {
    let mut out = [0f32; 4];
    for p in 7..=24u8 {
        let n = runner.at(p);
        if n == 0 {
            continue;
        }
        let (mut run, mut best) = (0, 0);
        for d in 1..=6u8 {
            if blocks & (1 << (p - d - 1)) != 0 {
                run += 1;
                best = best.max(run);
            } else {
                run = 0;
            }
        }
        for (k, slot) in out.iter_mut().enumerate() {
            if best >= 3 + k {
                *slot += f32::from(n) / 15.0;
            }
        }
    }
    out
}

#[test]
fn fast_features_and_outputs_match_the_plain_computation() {
    let opts = RuleOptions::default();
    let net = Net::shipped().expect("shipped weights");
    let mut checked = 0;
    for state in random_play(9, 600) {
        let pos = state.pos;
        for (runner, blocks) in [
            (pos.own, pos.blocked()),
            (pos.opp, pos.own.mask_in_other_numbering()),
            (pos.own, 0xFF_FFFF),
            (pos.opp, 0x0F0F0F),
        ] {
            assert_eq!(trapped(runner, blocks), trapped_naive(runner, blocks));
        }
        let x = features(&state, &opts);
        for w in x.active.windows(2) {
            assert!(w[0].0 < w[1].0, "inputs in layout order");
        }
        for p in 1..=24u8 {
            let n = pos.own.at(p);
            let first = (p as usize - 1) * 4;
            let on = x.active.iter().any(|&(i, _)| i as usize == first);
            assert_eq!(on, n > 0);
        }
        assert_eq!(net.outputs(&x), net.forward(&x).out);
        checked += 1;
    }
    assert_eq!(checked, 600);
}

/// `n` positions of random play (a new game after each end), from `seed`.
fn random_play(seed: u64, n: usize) -> Vec<GameState> {
    use crate::rules::dice::{DiceSource, SeededDice};
    let opts = RuleOptions::default();
    let mut dice = SeededDice::new(seed);
    let mut state = GameState::start(crate::rules::Side::White);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if state.result().is_some() {
            state = GameState::start(crate::rules::Side::Black);
        }
        out.push(state);
        let rolled = match state.pending {
            Pending::Roll => state.roll(&opts, dice.die(), dice.die()).expect("roll"),
            _ => state,
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let search = crate::search::Search::new(&crate::eval::heuristic::Heuristic, opts, &stop);
        let turns = search.turns(&rolled, 1);
        let k = usize::from(dice.die()) % turns.len().max(1);
        state = turns.get(k).map(|c| c.end).unwrap_or(rolled);
    }
    out
}

#[test]
fn file_format_round_trips_and_rejects_garbage() {
    let mut n = Net::random(8, 1);
    n.description = "test".into();
    let b = n.to_bytes();
    assert_eq!(Net::from_bytes(&b).unwrap(), n);
    assert!(Net::from_bytes(&b[..b.len() - 1]).is_err());
    assert!(Net::from_bytes(b"nope").is_err());
    let mut wrong = b.clone();
    wrong[8] = 9;
    assert!(Net::from_bytes(&wrong).is_err());
}

#[test]
fn blocked_dice_agree_with_the_step_rules() {
    use crate::rules::Step;
    use crate::rules::movegen::step_is_legal;
    let mut checked = 0;
    for line in include_str!("../../../benches/corpus.txt").lines() {
        let Ok(s) = parse_state_text(line) else {
            continue;
        };
        for pos in [s.pos, s.pos.flipped()] {
            let fast = blocked_dice(pos);
            for d in 1..=6u8 {
                let naive = !(1..=24).any(|p| step_is_legal(pos, Step::new(p, d)));
                assert_eq!(fast[usize::from(d) - 1], naive, "{line} die {d}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
    let x = features_v4(
        &GameState::start(crate::rules::Side::White),
        &RuleOptions::default(),
    );
    assert!(x.active.iter().all(|&(i, _)| usize::from(i) < BLOCK_INPUTS));
}

#[test]
fn movers_agree_with_the_step_rules() {
    // A naive count: every point, every die, the rules' own step test.
    use crate::rules::Step;
    use crate::rules::movegen::step_is_legal;
    let mut checked = 0;
    let mut seen = [0usize; 5];
    for s in played_positions(crate::rules::Variant::GulBara, 3000, 11) {
        for pos in [s.pos, s.pos.flipped()] {
            let fast = movers_by_die(pos.own, pos.own.mask(), pos.blocked());
            for d in 1..=6u8 {
                let naive: u32 = (1..=24)
                    .filter(|&p| step_is_legal(pos, Step::new(p, d)))
                    .map(|p| u32::from(pos.own.at(p)))
                    .sum();
                let want = naive.min(4) as u8;
                assert_eq!(fast[usize::from(d) - 1], want, "{pos:?} die {d}");
                seen[usize::from(want)] += 1;
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
    // Every capped count occurs, bear-offs included (the played games
    // run to their ends).
    assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
}

#[test]
fn masks_at_least_agree_with_the_counts() {
    for s in played_positions(crate::rules::Variant::GulBara, 500, 12) {
        let c = s.pos.own;
        let [two, three, four] = masks_at_least(c);
        for p in 1..=24u8 {
            let n = c.at(p);
            let bit = |m: u32| m >> (p - 1) & 1 == 1;
            assert_eq!(bit(two), n >= 2, "{c:?} point {p}");
            assert_eq!(bit(three), n >= 3, "{c:?} point {p}");
            assert_eq!(bit(four), n >= 4, "{c:?} point {p}");
        }
    }
}

#[test]
fn layout_5_inputs_by_hand() {
    let opts = RuleOptions::default();
    let unit = |x: &Inputs, i: usize| {
        x.active
            .iter()
            .find(|&&(j, _)| usize::from(j) == i)
            .map(|&(_, v)| v)
    };
    // The start: all fifteen on point 24, nothing closed within a die.
    let x = features_v5(&GameState::start(crate::rules::Side::White), &opts);
    assert!(
        x.active
            .iter()
            .all(|&(i, _)| usize::from(i) < MOBILITY_INPUTS)
    );
    for d in 0..12 {
        assert_eq!(unit(&x, BLOCK_INPUTS + d), Some(1.0), "mover unit {d}");
    }
    assert_eq!(unit(&x, BLOCK_INPUTS + 12), None, "contact at the start");
    // Past each other: the mover holds 6 (3 checkers) and 2 (12), the
    // opponent 11 (15), each on its own points 1-12.
    let mut own = [0u8; 24];
    own[5] = 3;
    own[1] = 12;
    let mut opp = [0u8; 24];
    opp[10] = 15;
    let mut s = GameState::start(crate::rules::Side::White);
    s.pos = Position {
        own: Checkers::from_counts(&own).unwrap(),
        opp: Checkers::from_counts(&opp).unwrap(),
    };
    let x = features_v5(&s, &opts);
    assert_eq!(unit(&x, BLOCK_INPUTS + 12), Some(1.0), "no contact");
    // The mover, all home: dice 1 and 2 from 6 and from 2 (15 checkers;
    // a 2 bears off from 2), dice 3 and 4 only from 6 (three checkers),
    // die 5 from 6, die 6 bears off from 6.
    let mover: Vec<Option<f32>> = (0..6).map(|d| unit(&x, BLOCK_INPUTS + d)).collect();
    let want = [1.0, 1.0, 0.75, 0.75, 0.75, 0.75].map(Some);
    assert_eq!(mover, want);
    // The opponent, not home (point 11): every die steps all 15.
    for d in 6..12 {
        assert_eq!(unit(&x, BLOCK_INPUTS + d), Some(1.0), "opponent unit {d}");
    }
}

#[test]
fn features_fit_the_layout() {
    let s =
        parse_state_text("2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10 rem=4x2")
            .unwrap();
    let x = features(&s, &RuleOptions::default());
    assert!(x.active.iter().all(|&(i, _)| (i as usize) < INPUTS));
    let mut idx: Vec<u16> = x.active.iter().map(|a| a.0).collect();
    idx.sort();
    idx.dedup();
    assert_eq!(idx.len(), x.active.len());
}

#[test]
fn training_moves_towards_the_target() {
    let mut n = Net::random(16, 2);
    let s = parse_state_text(crate::notation::START_TEXT).unwrap();
    let x = features(&s, &RuleOptions::default());
    let target = [0.9, 0.3, 0.05];
    let err = |n: &Net| {
        let o = n.forward(&x).out;
        o.iter()
            .zip(&target)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f32>()
    };
    let before = err(&n);
    for _ in 0..50 {
        let f = n.forward(&x);
        n.train(&x, &f, &target, 0.5);
    }
    assert!(err(&n) < before * 0.5);
}

#[test]
fn shipped_weights_load() {
    let n = Net::shipped().unwrap();
    let p = n.eval(
        &parse_state_text(crate::notation::START_TEXT).unwrap(),
        &RuleOptions::default(),
    );
    assert!((0.0..=1.0).contains(&p.win));
}

#[test]
fn long_nardy_weights_load_and_stay_in_their_game() {
    use crate::rules::Variant;
    let n = Net::long_shipped().unwrap();
    assert_eq!((n.layout, n.inputs), (LONG_LAYOUT, LONG_INPUTS));
    // TD(λ)'s description says `game=long_nardy`; supervise's starts
    // `long_nardy network`.
    assert!(
        n.description.contains("game=long_nardy") || n.description.starts_with("long_nardy "),
        "{}",
        n.description
    );
    let opts = RuleOptions::for_variant(Variant::LongNardy);
    let p = n.eval(
        &GameState::start_of(Variant::LongNardy, crate::rules::Side::White),
        &opts,
    );
    assert!((0.3..=0.7).contains(&p.win), "{p:?}");
    // Each game's loader refuses the other's weights.
    assert!(Net::for_game(Net::shipped().unwrap(), Variant::LongNardy).is_err());
    assert!(Net::for_game(n, Variant::GulBara).is_err());
}

/// Positions of `variant` from seeded random play.
fn played_positions(variant: crate::rules::Variant, count: usize, seed: u64) -> Vec<GameState> {
    use crate::rules::dice::{DiceSource, SeededDice};
    let opts = RuleOptions::for_variant(variant);
    let mut dice = SeededDice::new(seed);
    let start = || GameState::start_of(variant, crate::rules::Side::White);
    let mut state = start();
    let mut out = Vec::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let eval = crate::eval::heuristic::Heuristic;
    while out.len() < count {
        if state.result().is_some() {
            state = start();
        }
        out.push(state);
        let rolled = match state.pending {
            Pending::Roll => state.roll(&opts, dice.die(), dice.die()).expect("roll"),
            _ => state,
        };
        let search = crate::search::Search::new(&eval, opts, &stop);
        let turns = search.turns(&rolled, 1);
        let k = usize::from(dice.die()) % turns.len().max(1);
        state = turns.get(k).map(|c| c.end).unwrap_or(rolled);
    }
    out
}

/// The largest difference between the fast and the sparse evaluation
/// of `net` over `states`, output by output.
fn worst_gap<const OUT: usize>(net: &NetOf<OUT>, states: &[GameState], opts: &RuleOptions) -> f32
where
    NetOf<OUT>: Evaluator,
    for<'a> Sparse<'a, OUT>: Evaluator,
{
    let mut worst = 0f32;
    let mut batch = Vec::new();
    net.eval_batch(states, opts, &mut batch);
    for (s, b) in states.iter().zip(&batch) {
        let fast = net.eval(s, opts);
        assert_eq!(fast, *b, "eval_batch is eval, state by state");
        let slow = Sparse(net).eval(s, opts).settled(s);
        for (f, w) in [
            (fast.win, slow.win),
            (fast.win_mars, slow.win_mars),
            (fast.lose_mars, slow.lose_mars),
            (fast.win_bg, slow.win_bg),
            (fast.lose_bg, slow.lose_bg),
        ] {
            worst = worst.max((f - w).abs());
        }
    }
    worst
}

/// How far play's evaluation may be from training's, chance by chance
/// (see the next test).
const PLAY_CLOSE: f32 = 1.5e-3;

#[test]
fn the_table_evaluation_is_the_sparse_one_regrouped() {
    use crate::rules::Variant;
    // Sums regrouped, the point rows in fixed point (steps of 2⁻⁹ to
    // 2⁻¹² for these networks, so 30 rows' rounding moves a sum by
    // about 10⁻³ at worst) and play's table sigmoid (within 1.5e-7 of
    // the exact one): over these positions the worst chance moves by
    // 2–6·10⁻⁴ (measured), under PLAY_CLOSE.
    const CLOSE: f32 = PLAY_CLOSE;
    let gul = played_positions(Variant::GulBara, 1500, 3);
    let opts = RuleOptions::default();
    let shipped = Net::shipped().expect("shipped");
    assert!(worst_gap(&shipped, &gul, &opts) < CLOSE);
    let v4 = Net::random_layout(BLOCK_LAYOUT, BLOCK_INPUTS, 128, 8);
    assert!(worst_gap(&v4, &gul, &opts) < CLOSE);
    let v5 = Net::random_layout(MOBILITY_LAYOUT, MOBILITY_INPUTS, 128, 9);
    assert!(worst_gap(&v5, &gul, &opts) < CLOSE);
    let small = Net::from_bytes(include_bytes!(
        "../../../tests/fixtures/gulbara-64h-layout1.gbnn"
    ))
    .expect("64-hidden fixture");
    assert!(worst_gap(&small, &gul, &opts) < CLOSE);
    let long = played_positions(Variant::LongNardy, 800, 4);
    let lopts = RuleOptions::for_variant(Variant::LongNardy);
    assert!(worst_gap(&Net::long_shipped().expect("long"), &long, &lopts) < CLOSE);
    let v9 = Net::random_layout(
        block_inputs::RUN_BLOCK_LAYOUT,
        block_inputs::RUN_BLOCK_INPUTS,
        128,
        10,
    );
    assert!(worst_gap(&v9, &long, &lopts) < CLOSE);
    for v in [Variant::Backgammon, Variant::ShortNardy] {
        let hit = played_positions(v, 800, 5);
        let hopts = RuleOptions::for_variant(v);
        let net = crate::eval::hitnet::HitNet::shipped().expect("hitnet");
        assert!(worst_gap(&net, &hit, &hopts) < CLOSE, "{v}");
    }
    // A point's table row is its units' rows: every count on every
    // point of both sides, against the sparse units in f64.
    let h = shipped.hidden;
    let rows = &shipped.play_rows(BASES).floats;
    for (side, base) in BASES.into_iter().enumerate() {
        for p in 1..=24u8 {
            for n in 1..=15u8 {
                let mut units: Vec<(u16, f32)> = Vec::new();
                units.point(side, base, p, n);
                let r = table_row(side, p, n);
                for j in 0..h {
                    let want: f64 = units
                        .iter()
                        .map(|&(i, v)| f64::from(shipped.w1[i as usize * h + j]) * f64::from(v))
                        .sum();
                    assert!((f64::from(rows[r * h + j]) - want).abs() < 1e-5);
                }
            }
        }
    }
}

/// Play's outputs of the inputs `features` writes, every way play can
/// compute them: through the list of rows, and summed as they come on
/// the dispatched, portable and (where the CPU has it) AVX2 copies.
fn play_copies<const OUT: usize>(
    net: &NetOf<OUT>,
    bases: [usize; 2],
    features: impl Features,
) -> Vec<[f32; OUT]> {
    use super::super::arith::{fused_layers_avx2_only, fused_layers_portable};
    let layers = net.play_layers(bases);
    let mut list = Vec::new();
    features.write(&mut TableSink(&mut list));
    let mut all = vec![
        net.outputs_of_rows(bases, &list),
        net.play_outputs(bases, features),
    ];
    // The one-layer fused copies; a network of two layers has its own
    // (`two_hidden_layers_compute_what_a_naive_forward_pass_does`).
    match if net.hidden2 > 0 { 0 } else { net.hidden } {
        64 => {
            all.push(fused_layers_portable::<64, OUT>(layers, features));
            all.extend(fused_layers_avx2_only::<64, OUT>(layers, features));
        }
        128 => {
            all.push(fused_layers_portable::<128, OUT>(layers, features));
            all.extend(fused_layers_avx2_only::<128, OUT>(layers, features));
        }
        _ => {}
    }
    all
}

#[test]
fn sums_made_as_the_inputs_come_have_the_lists_bits() {
    use crate::eval::hitnet::{HitFeatures, HitNet};
    use crate::rules::Variant;
    let gul = played_positions(Variant::GulBara, 600, 11);
    let opts = RuleOptions::default();
    let small = Net::from_bytes(include_bytes!(
        "../../../tests/fixtures/gulbara-64h-layout1.gbnn"
    ))
    .expect("64-hidden fixture");
    let nets = [
        Net::shipped().expect("shipped"),
        small,
        Net::random_layout(MOBILITY_LAYOUT, MOBILITY_INPUTS, 64, 12),
        Net::random_layout(BLOCK_LAYOUT, BLOCK_INPUTS, 128, 13),
        // Through the list: not a size summed as it comes.
        Net::random(96, 14),
    ];
    let same = |all: &[[f32; 3]]| {
        all.iter()
            .all(|o| o.map(f32::to_bits) == all[0].map(f32::to_bits))
    };
    for net in &nets {
        let copies = if net.hidden == 96 { 2 } else { 4 };
        for state in &gul {
            let features = LayoutFeatures {
                layout: net.layout,
                state,
                opts: &opts,
            };
            let all = play_copies(net, BASES, features);
            assert!(all.len() >= copies - 1, "{}", all.len());
            assert!(same(&all), "{all:?}");
            let eval = net.eval(state, &opts);
            assert_eq!(eval, Net::probs(&all[0]).settled(state));
        }
    }
    let lopts = RuleOptions::for_variant(Variant::LongNardy);
    let long = Net::long_shipped().expect("long");
    for state in &played_positions(Variant::LongNardy, 300, 15) {
        let features = LayoutFeatures {
            layout: long.layout,
            state,
            opts: &lopts,
        };
        let all = play_copies(&long, BASES, features);
        assert!(same(&all), "{all:?}");
    }
    // A one-layer hitting network (generation 3, shipped before the two
    // layers of generation 4) and a random one.
    let hits = [
        HitNet::from_bytes(GEN3_BACKGAMMON).expect("hitnet"),
        HitNet::random(64, 16),
    ];
    for v in [Variant::Backgammon, Variant::ShortNardy] {
        for state in &played_positions(v, 300, 17) {
            for net in &hits {
                let all = play_copies(
                    net,
                    crate::eval::hitnet::BASES,
                    HitFeatures {
                        state,
                        layout: net.layout,
                    },
                );
                assert!(all.len() >= 3);
                let bits = all[0].map(f32::to_bits);
                assert!(all.iter().all(|o| o.map(f32::to_bits) == bits), "{all:?}");
            }
        }
    }
}

/// The largest |sum| of fixed-point point rows unit `j` can reach, in
/// whole steps, by the knapsack over exact integers.
fn worst_steps(rows: &PlayRows, hidden: usize, j: usize) -> i64 {
    points_bound(|r| i64::from(rows.ints[r * hidden + j]).abs())
}

#[test]
fn fixed_point_sums_never_wrap() {
    // Every shipped network, a random one, and one with weights near
    // the largest a file may hold: for each unit, the biggest sum of
    // its rounded point rows (one count per point, at most 15 checkers
    // a side) stays inside i16, and the steps are fine ones wherever
    // the weights allow.
    let mut huge = Net::random_layout(BLOCK_LAYOUT, BLOCK_INPUTS, 64, 11);
    huge.w1.iter_mut().for_each(|w| *w *= 9.0e4);
    assert!(huge.w1.iter().all(|w| w.abs() <= MAX_WEIGHT));
    let bg = crate::eval::hitnet::HitNet::shipped().expect("hitnet");
    let bg_rows = bg.play_rows(crate::eval::hitnet::BASES);
    let mut checked = vec![(bg_rows, bg.hidden)];
    let nets = [
        Net::shipped().expect("shipped"),
        Net::long_shipped().expect("long"),
        Net::random_layout(MOBILITY_LAYOUT, MOBILITY_INPUTS, 128, 9),
        huge,
    ];
    for n in &nets {
        checked.push((n.play_rows(BASES), n.hidden));
    }
    for (k, (rows, hidden)) in checked.into_iter().enumerate() {
        for j in 0..hidden {
            let worst = worst_steps(rows, hidden, j);
            assert!(worst <= i64::from(i16::MAX), "net {k} unit {j}: {worst}");
            if k < 4 {
                assert!(rows.units[j] <= 1.0 / 256.0, "net {k} unit {j}");
                // One step finer would not have fitted.
                assert!(2 * worst > i64::from(i16::MAX) - 200 || rows.units[j] == 2f32.powi(-14));
            }
        }
    }
}

#[test]
fn impossible_multiple_wins_are_zero_in_play() {
    use crate::rules::Variant;
    for (v, net) in [
        (Variant::GulBara, None),
        (Variant::LongNardy, Some(Net::long_shipped().expect("long"))),
    ] {
        let net = net.unwrap_or_else(|| Net::shipped().expect("shipped"));
        let opts = RuleOptions::for_variant(v);
        let states = played_positions(v, 3000, 7);
        let (mut own, mut opp) = (0, 0);
        for s in &states {
            let p = net.eval(s, &opts);
            if s.pos.own.off() > 0 {
                own += 1;
                assert_eq!(p.lose_mars, 0.0, "{v}: {s:?}");
            }
            if s.pos.opp.off() > 0 {
                opp += 1;
                assert_eq!(p.win_mars, 0.0, "{v}: {s:?}");
            }
            if s.pos.own.off() == 0 && s.pos.opp.off() == 0 {
                // Nothing is settled: the network's own chances.
                let raw = Sparse(&net).eval(s, &opts);
                assert!((p.win_mars - raw.win_mars).abs() < PLAY_CLOSE);
                assert!((p.lose_mars - raw.lose_mars).abs() < PLAY_CLOSE);
            }
        }
        assert!(own > 50 && opp > 50, "{v}: {own} {opp}");
    }
    let hit = crate::eval::hitnet::HitNet::shipped().expect("hitnet");
    let opts = RuleOptions::for_variant(Variant::Backgammon);
    for s in played_positions(Variant::Backgammon, 1500, 8) {
        let p = hit.eval(&s, &opts);
        if s.pos.own.off() > 0 {
            assert_eq!((p.lose_mars, p.lose_bg), (0.0, 0.0));
        }
        if s.pos.opp.off() > 0 {
            assert_eq!((p.win_mars, p.win_bg), (0.0, 0.0));
        }
    }
}

/// FNV-1a over the sparse inputs of `count` played positions of each
/// game, by each of its layouts.
fn features_hash(variant: crate::rules::Variant, count: usize) -> u64 {
    let opts = RuleOptions::for_variant(variant);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |x: &Inputs| {
        for &(i, v) in &x.active {
            for b in u32::from(i)
                .to_le_bytes()
                .into_iter()
                .chain(v.to_bits().to_le_bytes())
            {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    };
    for s in played_positions(variant, count, 77) {
        match variant {
            crate::rules::Variant::GulBara => {
                add(&features(&s, &opts));
                add(&features_v4(&s, &opts));
                add(&features_v5(&s, &opts));
            }
            crate::rules::Variant::LongNardy => add(&long_features(&s, &opts)),
            _ => add(&crate::eval::hitnet::features(&s)),
        }
    }
    h
}

#[test]
fn the_inputs_are_pinned() {
    // The shipped networks were trained on these inputs: a change of
    // any input of any layout on these positions fails here.
    use crate::rules::Variant;
    let got = [
        features_hash(Variant::GulBara, 400),
        features_hash(Variant::LongNardy, 400),
        features_hash(Variant::Backgammon, 400),
    ];
    assert_eq!(got, PINNED_INPUTS);
}
const PINNED_INPUTS: [u64; 3] = [
    4900226375481286926,
    4688902547214817808,
    12431922355932903589,
];

#[test]
fn training_forgets_the_table() {
    let opts = RuleOptions::default();
    let states = played_positions(crate::rules::Variant::GulBara, 40, 6);
    let mut net = Net::random(16, 9);
    let before = net.eval(&states[10], &opts);
    let x = features(&states[10], &opts);
    for _ in 0..20 {
        let fwd = net.forward(&x);
        net.train(&x, &fwd, &[1.0, 1.0, 0.0], 0.5);
    }
    let after = net.eval(&states[10], &opts);
    assert!(after.win > before.win + 0.01, "{before:?} → {after:?}");
    assert!(worst_gap(&net, &states, &opts) < PLAY_CLOSE);
}

#[test]
fn trapped_counts_match_the_plain_count_for_any_blocks() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut counts = [0u8; 24];
        let mut y = x;
        for _ in 0..15 {
            counts[(y % 24) as usize] += 1;
            y = y.rotate_right(5) ^ (y >> 3);
        }
        let runner = Checkers::from_counts(&counts).expect("15 checkers");
        let blocks = (x >> 20) as u32 & 0xFF_FFFF;
        assert_eq!(trapped(runner, blocks), trapped_naive(runner, blocks));
    }
}

#[test]
fn a_widened_network_gives_the_same_outputs_and_keeps_its_new_units() {
    let opts = RuleOptions::default();
    let net = Net::shipped().expect("shipped weights");
    let wide = net.widened(40, 3);
    assert_eq!(wide.hidden, net.hidden + 40);
    assert_eq!(wide.w1.len(), wide.inputs * wide.hidden);
    // The new units' input weights are not all zero (else training could
    // never tell them apart).
    assert!(wide.w1[net.hidden..wide.hidden].iter().any(|&w| w != 0.0));
    let back = Net::from_bytes(&wide.to_bytes()).expect("widened weights load");
    for state in random_play(4, 200) {
        let x = features(&state, &opts);
        let (a, b) = (net.outputs(&x), back.outputs(&x));
        for (p, q) in a.iter().zip(&b) {
            // Zero output weights add exactly nothing; the sums only
            // group differently.
            assert!((p - q).abs() < 1e-5, "{a:?} vs {b:?}");
        }
    }
}

/// A network of two hidden layers (`hidden` then `hidden2` units) of the
/// hitting games' layout, every weight random from `seed` (not the near
/// line [`NetOf::deepened`] starts from).
fn random_two_layers(hidden: usize, hidden2: usize, seed: u64) -> crate::eval::hitnet::HitNet {
    use crate::splitmix::SplitMix;
    let mut net = crate::eval::hitnet::HitNet::random(hidden, seed).deepened(hidden2, seed);
    let mut rng = SplitMix::new(seed ^ 0x7777);
    let mut r =
        |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
    net.w1.iter_mut().for_each(|w| *w = r(0.3));
    net.b1.iter_mut().for_each(|w| *w = r(0.5));
    net.w_mid.iter_mut().for_each(|w| *w = r(0.5));
    net.b_mid.iter_mut().for_each(|w| *w = r(0.5));
    net.w2.iter_mut().for_each(|w| *w = r(0.8));
    net.b2.iter_mut().for_each(|w| *w = r(0.5));
    net
}

/// The outputs of a network of one or two hidden layers on the active
/// inputs, in `f64`, the plain way: for each unit its bias and each
/// active input's weight times the input, then the logistic function.
fn naive_outputs<const OUT: usize>(
    net: &NetOf<OUT>,
    active: &[(u16, f32)],
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let h = net.hidden;
    let first: Vec<f64> = (0..h)
        .map(|j| {
            let mut s = f64::from(net.b1[j]);
            for &(i, v) in active {
                s += f64::from(net.w1[i as usize * h + j]) * f64::from(v);
            }
            sig(s)
        })
        .collect();
    let second: Vec<f64> = (0..net.hidden2)
        .map(|m| {
            let mut s = f64::from(net.b_mid[m]);
            for (j, a) in first.iter().enumerate() {
                s += f64::from(net.w_mid[m * h + j]) * a;
            }
            sig(s)
        })
        .collect();
    let top = if net.hidden2 > 0 { &second } else { &first };
    let out = (0..OUT)
        .map(|k| {
            let mut s = f64::from(net.b2[k]);
            for (j, a) in top.iter().enumerate() {
                s += f64::from(net.w2[k * top.len() + j]) * a;
            }
            sig(s)
        })
        .collect();
    (first, second, out)
}

#[test]
fn two_hidden_layers_compute_what_a_naive_forward_pass_does() {
    use crate::eval::hitnet::{HitFeatures, features_of};
    use crate::rules::Variant;
    let states = played_positions(Variant::Backgammon, 200, 21);
    // The shipped widths, one the fused evaluation does not sum as it
    // comes (96), and second layers of every size class (5 is fewer than a
    // register's lanes, 24 not a multiple of 16).
    for (hidden, hidden2, seed) in [(64, 16, 1), (128, 32, 2), (96, 24, 3), (128, 5, 4)] {
        let net = random_two_layers(hidden, hidden2, seed);
        assert_eq!(net.top(), hidden2);
        let (mut worst_train, mut worst_play) = (0f64, 0f64);
        for state in &states {
            let x = features_of(net.layout, state);
            let (_, second, want) = naive_outputs(&net, &x.active);
            let fwd = net.forward(&x);
            assert_eq!(fwd.out, net.outputs(&x), "forward and outputs agree");
            assert_eq!(fwd.hidden2.len(), hidden2);
            for (a, b) in fwd.hidden2.iter().zip(&second) {
                assert!((f64::from(*a) - b).abs() < 1e-5, "{a} vs {b}");
            }
            for (a, b) in fwd.out.iter().zip(&want) {
                worst_train = worst_train.max((f64::from(*a) - b).abs());
            }
            let all = play_copies(
                &net,
                crate::eval::hitnet::BASES,
                HitFeatures {
                    state,
                    layout: net.layout,
                },
            );
            let bits = all[0].map(f32::to_bits);
            assert!(all.iter().all(|o| o.map(f32::to_bits) == bits), "{all:?}");
            // The fused first layer's portable copy, then the rest.
            let rows = net.play_rows(crate::eval::hitnet::BASES).fixed();
            let features = HitFeatures {
                state,
                layout: net.layout,
            };
            let portable = match hidden {
                64 => Some(net.outputs_from_play(
                    &crate::eval::arith::fused_hidden_portable::<64>(rows, features),
                )),
                128 => Some(net.outputs_from_play(
                    &crate::eval::arith::fused_hidden_portable::<128>(rows, features),
                )),
                _ => None,
            };
            if let Some(p) = portable {
                assert_eq!(p.map(f32::to_bits), bits);
            }
            for (a, b) in all[0].iter().zip(&want) {
                worst_play = worst_play.max((f64::from(*a) - b).abs());
            }
        }
        // Training's pass: f32 sums and the exact sigmoid. Play's: point
        // rows rounded to fixed point and the table sigmoid.
        assert!(worst_train < 2e-6, "{hidden}x{hidden2}: {worst_train}");
        assert!(worst_play < 2e-3, "{hidden}x{hidden2}: {worst_play}");
        assert!(worst_play > 0.0);
    }
}

/// Backgammon's generation 3, one hidden layer of 128 units (shipped until
/// generation 4 added a second layer).
static GEN3_BACKGAMMON: &[u8] =
    include_bytes!("../../../data/training/backgammon/two-layers/previous.gbnn");

#[test]
fn one_layer_files_load_unchanged_and_evaluate_by_the_one_layer_code() {
    use crate::eval::arith::{fused_layers, hidden_layer, output_layer};
    use crate::eval::hitnet::{HitFeatures, HitNet, features_of};
    use crate::rules::Variant;
    for bytes in [GEN3_BACKGAMMON, SHIPPED, LONG_SHIPPED] {
        if let Ok(net) = Net::from_bytes(bytes) {
            assert_eq!(net.hidden2, 0);
            assert!(net.w_mid.is_empty() && net.b_mid.is_empty());
            assert_eq!(net.to_bytes(), bytes, "written back byte for byte");
        }
    }
    // Backgammon's one-layer network: generation 3 (the shipped one,
    // generation 4, has two layers).
    let net = HitNet::from_bytes(GEN3_BACKGAMMON).expect("generation 3");
    assert_eq!(net.hidden2, 0);
    assert_eq!(net.to_bytes(), GEN3_BACKGAMMON);
    assert_eq!(
        u32::from_le_bytes(net.to_bytes()[4..8].try_into().unwrap()),
        1
    );
    for state in &played_positions(Variant::Backgammon, 300, 22) {
        let features = HitFeatures {
            state,
            layout: net.layout,
        };
        // Play: the one-layer fused evaluation, as before the second layer.
        let before = fused_layers::<128, 5>(net.play_layers(crate::eval::hitnet::BASES), features);
        let now = net.play_outputs(crate::eval::hitnet::BASES, features);
        assert_eq!(now.map(f32::to_bits), before.map(f32::to_bits));
        // Training's: the two layers' functions in a row.
        let x = features_of(net.layout, state);
        let mut acc = vec![0f32; net.hidden];
        hidden_layer(&net.w1, &net.b1, &x.active, &mut acc);
        let sparse: [f32; 5] = output_layer(&net.w2, &net.b2, &acc);
        assert_eq!(net.outputs(&x).map(f32::to_bits), sparse.map(f32::to_bits));
        assert_eq!(
            net.forward(&x).out.map(f32::to_bits),
            sparse.map(f32::to_bits)
        );
        assert!(net.forward(&x).hidden2.is_empty());
    }
}

#[test]
fn two_layer_files_round_trip_and_malformed_ones_are_refused() {
    use crate::eval::hitnet::{HitNet, features_of};
    let mut net = random_two_layers(64, 16, 5);
    net.description = "two layers".into();
    let bytes = net.to_bytes();
    let u = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!(u(4), FORMAT_VERSION_TWO_LAYERS);
    assert_eq!(u(16), 64);
    assert_eq!(u(28), 16);
    let floats = net.inputs * 64 + 64 + 16 * 64 + 16 + 5 * 16 + 5;
    assert_eq!(bytes.len(), 32 + "two layers".len() + 4 * floats);
    let back = HitNet::from_bytes(&bytes).expect("reads back");
    assert_eq!(back, net);
    assert_eq!(&back.description, "two layers");
    for state in &played_positions(crate::rules::Variant::Backgammon, 50, 23) {
        let x = features_of(net.layout, state);
        assert_eq!(back.outputs(&x), net.outputs(&x));
    }
    // Through the file reader, which reads format 2's longer header.
    let path = std::env::temp_dir().join(format!("gulbara-two-{}.gbnn", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let read = read_weights_file(&path, false).expect("the file reads");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(read, bytes);
    // One float short, one too many.
    assert!(matches!(
        HitNet::from_bytes(&bytes[..bytes.len() - 4]),
        Err(WeightsError::Length { .. })
    ));
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 4]);
    assert!(matches!(
        HitNet::from_bytes(&longer),
        Err(WeightsError::Length { .. })
    ));
    // A format-2 header cut before its second layer's size.
    assert!(matches!(
        HitNet::from_bytes(&bytes[..30]),
        Err(WeightsError::NotWeights)
    ));
    // Format 2 with no second layer, or one too large.
    for bad in [0u32, 4097] {
        let mut b = bytes.clone();
        b[28..32].copy_from_slice(&bad.to_le_bytes());
        assert_eq!(
            HitNet::from_bytes(&b),
            Err(WeightsError::SecondLayerUnits(bad as usize))
        );
    }
    let mut v3 = bytes.clone();
    v3[4..8].copy_from_slice(&3u32.to_le_bytes());
    assert_eq!(HitNet::from_bytes(&v3), Err(WeightsError::FormatVersion(3)));
    // A non-finite weight of the second layer.
    let mut nan = net.clone();
    nan.w_mid[7] = f32::NAN;
    assert_eq!(
        HitNet::from_bytes(&nan.to_bytes()),
        Err(WeightsError::NonFinite)
    );
}

#[test]
fn a_deepened_network_starts_near_the_old_one_and_widens_without_change() {
    use crate::eval::hitnet::{HitNet, features_of};
    let net = HitNet::shipped().expect("shipped");
    let deep = net.deepened(32, 7);
    assert_eq!((deep.hidden, deep.hidden2), (128, 32));
    // The new units beyond the old outputs are not all alike.
    assert!(deep.w_mid[5 * 128..].iter().any(|&w| w != 0.0));
    assert_eq!(deep.deepened(64, 8), deep, "a second layer is kept");
    let wide = deep.widened(16, 9);
    let mut worst = 0f32;
    for state in &played_positions(crate::rules::Variant::Backgammon, 300, 24) {
        let x = features_of(net.layout, state);
        let (a, b, c) = (net.outputs(&x), deep.outputs(&x), wide.outputs(&x));
        for k in 0..5 {
            worst = worst.max((a[k] - b[k]).abs());
            // Zero weights into the second layer add nothing.
            assert!((b[k] - c[k]).abs() < 1e-5, "{b:?} vs {c:?}");
        }
    }
    assert!(worst < 2e-3, "{worst}");
}

/// FNV-1a over a network's file bytes: a fingerprint to pin a network's
/// exact bytes in a test.
fn fnv1a_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn both_deepening_starts_give_the_networks_they_always_gave() {
    use crate::eval::hitnet::HitNet;
    // Fingerprints of the files `deepened` and `deepened_roughly` gave
    // before they shared one body (session 28): the same seed must give
    // the same networks, byte for byte, so the fits made from them can be
    // rebuilt.
    let five = HitNet::random(16, 3);
    let three = Net::random(12, 4);
    let got = [
        fnv1a_bytes(&five.deepened(8, 5).to_bytes()),
        fnv1a_bytes(&five.deepened_roughly(8, 5).to_bytes()),
        fnv1a_bytes(&three.deepened(6, 6).to_bytes()),
        fnv1a_bytes(&three.deepened_roughly(6, 6).to_bytes()),
        // Fewer units than outputs: raised to the outputs.
        fnv1a_bytes(&five.deepened(2, 7).to_bytes()),
        fnv1a_bytes(&five.deepened_roughly(2, 7).to_bytes()),
    ];
    assert_eq!(
        got,
        [
            0x770d_c51e_f202_a8a2,
            0x56b1_af49_fe86_b0c2,
            0xe68f_622e_9a56_e172,
            0xa3ca_01f1_effe_7b16,
            0x85f4_7185_80c4_da23,
            0x766b_40fb_440c_492b,
        ],
        "{got:#x?}"
    );
}

#[test]
fn every_shipped_network_loads_as_its_games_network() {
    use crate::eval::{GameNet, shipped_bytes};
    use crate::rules::Variant;
    for v in Variant::ALL {
        let bytes = shipped_bytes(v.spec().net);
        assert!(GameNet::load(v, None).is_ok(), "{v}");
        assert!(GameNet::load(v, Some(bytes)).is_ok(), "{v}");
        let (layout, outputs) = file_shape(bytes).expect("a header");
        let shape = NetShape::of(v.spec().eval);
        assert_eq!(outputs, shape.outputs, "{v}");
        assert!(shape.layouts.contains(&layout), "{v}: {layout}");
    }
}

/// The file's input layout and outputs an [`WeightsError::OtherGame`]
/// names (`None` for another error).
fn file_and_game(e: &WeightsError) -> Option<(u32, usize)> {
    match e {
        WeightsError::OtherGame {
            layout, outputs, ..
        } => Some((*layout, *outputs)),
        _ => None,
    }
}

#[test]
fn a_network_not_of_the_games_shape_is_refused_naming_both() {
    use crate::eval::{GameNet, hitnet};
    use crate::eval::{phase::Phase, shipped_bytes};
    use crate::rules::{EvalFamily, ShippedNet, Variant};
    let refused = |v: Variant, net: ShippedNet| match GameNet::load(v, Some(shipped_bytes(net))) {
        Err(e) => e,
        Ok(_) => panic!("{v} loaded {net:?}'s network"),
    };
    // Plakoto's network (layout 8, five outputs) is not backgammon's, though
    // it has backgammon's outputs.
    let e = refused(Variant::Backgammon, ShippedNet::Plakoto);
    assert_eq!(
        e,
        WeightsError::OtherGame {
            layout: 8,
            outputs: 5,
            variant: Variant::Backgammon,
            wanted: NetShape::of(EvalFamily::Hitting),
        }
    );
    assert_eq!(
        e.to_string(),
        "bad weights file: a network of input layout 8 with 5 outputs where backgammon needs 5 outputs and input layout 2, 6 or 7: weights of another game"
    );
    // Backgammon's (layout 7) is not Plakoto's.
    let e = refused(Variant::Plakoto, ShippedNet::Backgammon);
    assert_eq!(file_and_game(&e), Some((7, 5)), "{e}");
    assert!(
        e.to_string()
            .contains("plakoto needs 5 outputs and input layout 2 or 8"),
        "{e}"
    );
    // Three outputs where five are needed, and five where three.
    let e = refused(Variant::Portes, ShippedNet::GulBara);
    assert_eq!(file_and_game(&e), Some((4, 3)), "{e}");
    let e = refused(Variant::Fevga, ShippedNet::Plakoto);
    assert_eq!(file_and_game(&e), Some((8, 5)), "{e}");
    // The running games' layouts: long nardy's is not Gul bara's, nor the
    // other way round.
    let e = refused(Variant::GulBara, ShippedNet::LongNardy);
    assert_eq!(file_and_game(&e), Some((3, 3)), "{e}");
    let e = refused(Variant::LongNardy, ShippedNet::GulBara);
    assert_eq!(file_and_game(&e), Some((4, 3)), "{e}");
    // A phase network is checked too.
    let set = GameNet::load(Variant::Backgammon, None).expect("shipped");
    let e = match set.with_phase(
        Variant::Backgammon,
        Phase::Race,
        Some(hitnet::PINNING_SHIPPED),
    ) {
        Err(e) => e,
        Ok(_) => panic!("Plakoto's network as backgammon's race network"),
    };
    assert_eq!(file_and_game(&e), Some((8, 5)), "{e}");
    // Every family's shape refuses every other family's shipped network
    // unless the two share an input layout and outputs.
    for v in Variant::ALL {
        for net in [
            ShippedNet::GulBara,
            ShippedNet::LongNardy,
            ShippedNet::Fevga,
            ShippedNet::Backgammon,
            ShippedNet::Plakoto,
        ] {
            let (layout, outputs) = file_shape(shipped_bytes(net)).expect("a header");
            let fits = NetShape::of(v.spec().eval)
                .check(v, layout, outputs)
                .is_ok();
            assert_eq!(
                GameNet::load(v, Some(shipped_bytes(net))).is_ok(),
                fits,
                "{v} {net:?}"
            );
        }
    }
}
