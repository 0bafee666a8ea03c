use super::*;
use crate::rules::testing::below;

fn pos_from(own: &[(u8, u8)], opp_white_view: &[(u8, u8)]) -> Position {
    let mut o = [0u8; 24];
    for &(p, n) in own {
        o[p as usize - 1] = n;
    }
    let mut b = [0u8; 24];
    for &(p, n) in opp_white_view {
        let q = super::super::position::other_numbering(p);
        b[q as usize - 1] = n;
    }
    Position {
        own: Checkers::from_counts(&o).unwrap(),
        opp: Checkers::from_counts(&b).unwrap(),
    }
}

/// Gul bara through the general enumeration only.
#[derive(Clone, Copy, Default)]
struct GeneralOnly;
impl StepRules for GeneralOnly {}

/// A random position: each side's checkers spread over its own points
/// (weighted towards `home_bias` of them at home), no point shared.
/// With `spread`, the opponent takes as many points as it can (primes).
fn random_position(seed: &mut u64, home_bias: u64, spread: bool) -> Position {
    let mut next = |n: u64| below(seed, n);
    let mut own = [0u8; 24];
    let mut opp = [0u8; 24];
    let own_off = next(4) * next(5);
    let opp_off = next(4) * next(5);
    for side in 0..2 {
        let off = if side == 0 { own_off } else { opp_off };
        for _ in off..15 {
            for _ in 0..50 {
                let p = if next(100) < home_bias {
                    next(6) as u8 + 1
                } else {
                    next(24) as u8 + 1
                };
                let q = super::super::position::other_numbering(p);
                let (mine, other) = if side == 0 {
                    (&mut own, &opp)
                } else {
                    (&mut opp, &own)
                };
                let crowd = spread && side == 1 && mine[p as usize - 1] > 0;
                if other[q as usize - 1] == 0 && !crowd {
                    mine[p as usize - 1] += 1;
                    break;
                }
            }
        }
    }
    Position {
        own: Checkers::from_counts(&own).unwrap(),
        opp: Checkers::from_counts(&opp).unwrap(),
    }
}

fn all_stages() -> Vec<StageDice> {
    let mut v = Vec::new();
    for a in 0..=7u8 {
        for b in 0..=7u8 {
            v.push(StageDice::Pair(a, b));
        }
        for count in 0..=5 {
            v.push(StageDice::Same { die: a, count });
        }
    }
    v
}

/// The fast paths give exactly what the general enumeration gives: the
/// same ends, in the same order, with the same plays.
#[test]
fn fast_paths_match_general_enumeration() {
    let mut fast = MoveGen::new();
    let mut general = MoveGen::with_rules(GeneralOnly);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut seed = 7;
    let stages = all_stages();
    // Fast-path cases seen: pairs with one die, pairs with none, doublets
    // with some but not all dice.
    let mut seen = [0u32; 3];
    for i in 0..4_000 {
        let pos = random_position(&mut seed, [0, 30, 70, 95][i % 4], i % 8 >= 4);
        for &dice in &stages {
            if matches!(
                dice,
                StageDice::Same { count: 0, .. }
                    | StageDice::Same { die: 0, .. }
                    | StageDice::Pair(0, _)
                    | StageDice::Pair(_, 0)
            ) {
                continue;
            }
            let n = fast.generate(pos, dice, &mut a);
            let m = general.generate(pos, dice, &mut b);
            assert_eq!((n, &a), (m, &b), "{pos:?} {dice:?}");
            if !pos.is_over() && outside_at_least(pos.own, pos.own.mask(), 4) {
                match dice {
                    StageDice::Pair(x, y) if x != y && x <= 6 && y <= 6 && n < 2 => {
                        seen[usize::from(n)] += 1
                    }
                    StageDice::Same { count, die } if die <= 6 && n > 0 && n < count.min(4) => {
                        seen[2] += 1
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "fast-path coverage {seen:?}");
}
#[test]
fn start_65_has_two_ends() {
    let (ends, n) = stage_ends(Position::START, StageDice::Pair(6, 5));
    assert_eq!(n, 2);
    // 24/18 24/19, or 24/18/13 (the 24/19/13 path reaches the same end).
    assert_eq!(ends.len(), 2);
}

#[test]
fn start_66_blocked_at_12() {
    let (ends, n) = stage_ends(Position::START, StageDice::Same { die: 6, count: 4 });
    assert_eq!(n, 4);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].pos.own.at(18), 4);
}

#[test]
fn larger_die_when_only_one_fits() {
    // A lone checker on 13 (the rest borne off), the opponent on 2:
    // 13/7/2 and 13/8/2 both end on the closed point, so one die only,
    // and it must be the 6.
    let p = pos_from(&[(13, 1)], &[(2, 1)]);
    let (ends, n) = stage_ends(p, StageDice::Pair(6, 5));
    assert_eq!(n, 1);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].pos.own.at(7), 1);
    assert_eq!(ends[0].play.steps(), &[Step::new(13, 6)]);
}

#[test]
fn bear_off_last_checker_counts_as_full() {
    let p = pos_from(&[(2, 1)], &[(20, 1)]);
    let (ends, n) = stage_ends(p, StageDice::Pair(6, 5));
    assert_eq!(n, 2);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].pos.own.off(), 15);
    assert_eq!(ends[0].play.len(), 1);
}
