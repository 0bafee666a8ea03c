//! The exact cubeful money equities of small bear-offs (`cube::bearoff`):
//! hand-checked positions, and a naive recursion written here separately
//! (its own bear-off move generator, over the 36 ordered rolls, memoised by
//! position) on every pair of arrangements of up to three checkers a side.

use std::collections::HashMap;

use gulbara::cube::bearoff::{covers, money_decision, money_equity};
use gulbara::cube::{CubeAction, CubeView};
use gulbara::rules::position::Checkers;
use gulbara::rules::{GameState, Position, Side, Variant};

/// A side's checkers by (point, count), all home.
fn side(points: &[(u8, u8)]) -> Checkers {
    let mut counts = [0u8; 24];
    for &(p, n) in points {
        counts[usize::from(p) - 1] = n;
    }
    Checkers::from_counts_with_bar(&counts, 0).expect("a side")
}

fn state_of(variant: Variant, own: &[(u8, u8)], opp: &[(u8, u8)]) -> GameState {
    let mut s = GameState::start_of(variant, Side::White);
    s.pos = Position {
        own: side(own),
        opp: side(opp),
    };
    s
}

fn state(own: &[(u8, u8)], opp: &[(u8, u8)]) -> GameState {
    state_of(Variant::Backgammon, own, opp)
}

const VIEWS: [CubeView; 3] = [CubeView::Centre, CubeView::Mine, CubeView::Theirs];

#[test]
fn one_checker_each_by_hand() {
    // One checker on the ace point: off with any roll.
    let s = state(&[(1, 1)], &[(1, 1)]);
    for view in VIEWS {
        assert_eq!(money_equity(&s, view), Some(1.0), "{view:?}");
    }
    // One on the 6-point against one on the ace point: the roller is off
    // at once when its roll moves 6 pips or more (every roll but 1-1, 2-1,
    // 3-1, 4-1 and 3-2: 27 of 36), else its opponent is off. With the
    // cube it doubles, and the opponent's take costs it as much as the
    // pass: 2 × (27 − 9) / 36 = 1.
    let s = state(&[(6, 1)], &[(1, 1)]);
    let theirs = money_equity(&s, CubeView::Theirs).unwrap();
    assert!((theirs - 0.5).abs() < 1e-6, "{theirs}");
    for view in [CubeView::Centre, CubeView::Mine] {
        assert!((money_equity(&s, view).unwrap() - 1.0).abs() < 1e-6);
        let d = money_decision(&s, view, false).unwrap();
        assert!((d.no_double - 0.5).abs() < 1e-6, "{d:?}");
        assert!((d.double_take - 1.0).abs() < 1e-6, "{d:?}");
        assert!((d.double_pass - 1.0).abs() < 1e-6, "{d:?}");
        assert!(d.action.doubles(), "{d:?}");
    }
    // With the cube the opponent's, the roller cannot double.
    assert_eq!(money_decision(&s, CubeView::Theirs, false), None);
}

#[test]
fn a_sure_win_is_too_good_to_double() {
    // Two on the ace point: off with any roll. Taking would cost the
    // opponent 2, so it would pass; doubling gains nothing (no gammons).
    let s = state(&[(1, 2)], &[(2, 1), (1, 1)]);
    let d = money_decision(&s, CubeView::Centre, false).unwrap();
    assert_eq!((d.no_double, d.double_take, d.double_pass), (1.0, 2.0, 1.0));
    assert_eq!(d.action, CubeAction::TooGoodPass);
    assert_eq!(d.action.answer(), "drop");
}

#[test]
fn the_taker_beavers_a_double_from_behind() {
    // Two on the 6-point against one on the ace point: the roller is off
    // only with 3-3 or more (4 rolls of 36), else it loses: 4/36 − 32/36.
    // Doubling would be a big mistake, which the taker beavers.
    let s = state(&[(6, 2)], &[(1, 1)]);
    let e = money_equity(&s, CubeView::Centre).unwrap();
    assert!((e - (4.0 - 32.0) / 36.0).abs() < 1e-6, "{e}");
    let d = money_decision(&s, CubeView::Centre, true).unwrap();
    assert!(!d.action.doubles(), "{d:?}");
    assert_eq!(d.action.answer(), "beaver", "{d:?}");
    let plain = money_decision(&s, CubeView::Centre, false).unwrap();
    assert_eq!(plain.action.answer(), "take", "{plain:?}");
    // The beaver doubles the take's cost: the decision's double/take is it.
    assert!(
        (d.double_take - 2.0 * plain.double_take).abs() < 1e-9,
        "{d:?} {plain:?}"
    );
}

#[test]
fn what_is_covered() {
    assert!(covers(&state(&[(6, 6)], &[(1, 6)])));
    // Seven checkers, a checker outside home, an empty side.
    assert!(!covers(&state(&[(6, 7)], &[(1, 1)])));
    assert!(!covers(&state(&[(7, 1)], &[(1, 1)])));
    assert_eq!(
        money_equity(&state(&[(6, 7)], &[(1, 1)]), CubeView::Centre),
        None
    );
    // Gul bara's doublets escalate: not this table's dice.
    let g = state_of(Variant::GulBara, &[(6, 1)], &[(1, 1)]);
    assert!(!covers(&g));
    // Long nardy and short nardy bear off as backgammon does.
    assert!(covers(&state_of(Variant::ShortNardy, &[(6, 1)], &[(1, 1)])));
}

/// A side's home as six counts, point 1 first.
type Home = [u8; 6];

/// Every home a single die can leave, written from the bear-off rule: a
/// checker moves down `die` points; or one on point `die` bears off; or,
/// with no checker on `die` or above, the highest one bears off.
fn naive_steps(h: &Home, die: u8) -> Vec<Home> {
    let d = usize::from(die);
    let mut out = Vec::new();
    for (i, &count) in h.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let p = i + 1;
        let mut n = *h;
        n[i] -= 1;
        if p > d {
            n[p - d - 1] += 1;
        } else if p < d && h[p..].iter().any(|&c| c > 0) {
            // Bearing off with a larger die: only from the highest point.
            continue;
        }
        out.push(n);
    }
    out
}

fn empty(h: &Home) -> bool {
    h.iter().all(|&c| c == 0)
}

/// The homes a roll leaves, every die played while a checker is left.
fn naive_ends(h: &Home, a: u8, b: u8) -> Vec<Home> {
    let dice: Vec<u8> = if a == b { vec![a; 4] } else { vec![a, b] };
    let mut orders = vec![dice];
    if a != b {
        orders.push(vec![b, a]);
    }
    let mut ends = Vec::new();
    for order in orders {
        let mut at = vec![*h];
        for die in order {
            let mut next = Vec::new();
            for x in &at {
                if empty(x) {
                    next.push(*x);
                } else {
                    next.extend(naive_steps(x, die));
                }
            }
            at = next;
        }
        ends.extend(at);
    }
    ends
}

/// The equity of the side to roll with `own` against `opp`, the cube in
/// the middle (0), its own (1) or the opponent's (2), both sides playing
/// checkers and cube perfectly: play on, or double when that is better and
/// the cube is its to turn (the opponent takes or passes, whichever costs
/// it less).
fn naive(own: Home, opp: Home, cube: usize, memo: &mut HashMap<(Home, Home, usize), f64>) -> f64 {
    if let Some(&v) = memo.get(&(own, opp, cube)) {
        return v;
    }
    // Play on with the cube where it is (`c`): after the roll the
    // opponent is on roll, the cube in the middle still there, ours theirs.
    let play_on = |c: usize, memo: &mut HashMap<(Home, Home, usize), f64>| {
        let mut sum = 0.0;
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                let best = naive_ends(&own, a, b)
                    .into_iter()
                    .map(|e| {
                        if empty(&e) {
                            1.0
                        } else {
                            -naive(opp, e, [0, 2, 1][c], memo)
                        }
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                sum += best;
            }
        }
        sum / 36.0
    };
    let v = if cube == 2 {
        play_on(2, memo)
    } else {
        // Doubled and taken: the opponent owns the cube at twice the stake.
        let taken = 2.0 * play_on(2, memo);
        play_on(cube, memo).max(taken.min(1.0))
    };
    memo.insert((own, opp, cube), v);
    v
}

fn homes_up_to(n: u8) -> Vec<Home> {
    let mut out = Vec::new();
    let mut h = [0u8; 6];
    fn fill(out: &mut Vec<Home>, h: &mut Home, p: usize, left: u8) {
        if p == 6 {
            if !empty(h) {
                out.push(*h);
            }
            return;
        }
        for c in 0..=left {
            h[p] = c;
            fill(out, h, p + 1, left - c);
        }
        h[p] = 0;
    }
    fill(&mut out, &mut h, 0, n);
    out
}

fn points_of(h: &Home) -> Vec<(u8, u8)> {
    (0..6)
        .filter(|&p| h[p] > 0)
        .map(|p| (p as u8 + 1, h[p]))
        .collect()
}

#[test]
fn every_pair_of_up_to_three_checkers_matches_a_naive_recursion() {
    let homes = homes_up_to(3);
    assert_eq!(homes.len(), 83); // C(9, 6) - 1
    let mut memo = HashMap::new();
    let mut worst = 0.0f64;
    for own in &homes {
        for opp in &homes {
            let s = state(&points_of(own), &points_of(opp));
            let mut ours = [0.0; 3];
            for (c, view) in VIEWS.into_iter().enumerate() {
                ours[c] = money_equity(&s, view).expect("covered");
                let theirs = naive(*own, *opp, c, &mut memo);
                worst = worst.max((ours[c] - theirs).abs());
            }
            // Access to the cube is worth something.
            assert!(
                ours[1] + 1e-6 >= ours[0] && ours[0] + 1e-6 >= ours[2],
                "{own:?} {opp:?}: {ours:?}"
            );
        }
    }
    // The table keeps f32s.
    assert!(worst < 1e-5, "largest difference {worst}");
}
