use super::*;
use crate::rules::testing::below;

fn pos(own: &[(u8, u8)], own_bar: u8, opp: &[(u8, u8)], opp_bar: u8) -> Position {
    let side = |list: &[(u8, u8)], bar| {
        let mut c = [0u8; 24];
        for &(p, n) in list {
            c[p as usize - 1] = n;
        }
        Checkers::from_counts_with_bar(&c, bar).unwrap()
    };
    Position {
        own: side(own, own_bar),
        opp: side(opp, opp_bar),
    }
}

#[test]
fn start_counts_per_roll() {
    // The whole hand-checked table of the 21 rolls is checked through the
    // gnubg Position ID in tests/backgammon_counts.rs; here a few of its
    // counts, and that every roll from the start plays all its dice.
    for (a, b, n) in [(6, 5, 7), (2, 1, 15), (1, 1, 42), (5, 5, 4)] {
        assert_eq!(
            stage_ends(START, StageDice::from_roll(a, b)).0.len(),
            n,
            "{a}{b}"
        );
    }
    for a in 1..=6 {
        for b in 1..=a {
            let (ends, used) = stage_ends(START, StageDice::from_roll(a, b));
            assert!(!ends.is_empty(), "{a}{b}");
            assert_eq!(used, if a == b { 4 } else { 2 }, "{a}{b}");
        }
    }
}

#[test]
fn masks_mirror() {
    assert_eq!(mirror_mask(1), 1 << 23);
    assert_eq!(mirror_mask(1 << 23), 1);
    // The opponent's 6 (5 checkers) and 8 (3) close the mover's 19 and 17;
    // its 24 (2) and 13 (5) close 1 and 12.
    assert_eq!(closed_points(START), (1 << 18) | (1 << 16) | 1 | (1 << 11));
    assert_eq!(blot_points(START), 0);
}

#[test]
fn a_hit_goes_to_the_bar_and_the_bar_enters_first() {
    // Mover on 13 and the bar; an opponent blot on its 6 (the mover's 19),
    // and two on its 1 (the mover's 24, closed): only the 6 enters, hitting.
    let p = pos(&[(13, 1)], 1, &[(6, 1), (1, 2)], 0);
    let (ends, used) = stage_ends(p, StageDice::Pair(6, 1));
    assert_eq!(used, 2);
    assert_eq!(ends.len(), 2);
    for e in &ends {
        assert_eq!(e.play.steps()[0], Step::new(BAR, 6), "{:?}", e.play);
        assert_eq!(e.pos.own.bar(), 0);
        assert_eq!(e.pos.opp.bar(), 1);
        assert_eq!(e.pos.opp.at(6), 0);
    }
}

#[test]
fn dance_on_a_closed_board() {
    let closed: Vec<(u8, u8)> = (1..=6).map(|q| (q, 2)).collect();
    let p = pos(&[(13, 1)], 1, &closed, 0);
    let (ends, used) = stage_ends(p, StageDice::Pair(6, 5));
    assert_eq!(used, 0);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].pos, p);
}
/// A random hitting-game position: both sides over points (bias towards
/// home), blots and points alike, with some checkers on the bars.
fn random_position(seed: &mut u64, home_bias: u64) -> Position {
    let mut next = |n: u64| below(seed, n);
    let mut own = [0u8; 24];
    let mut opp = [0u8; 24];
    let mut bars = [0u8; 2];
    for (side, bar) in bars.iter_mut().enumerate() {
        let off = next(4) * next(5);
        *bar = if next(4) == 0 { next(3) as u8 } else { 0 };
        let spread = next(2) == 0;
        for _ in (off + u64::from(*bar))..15 {
            for _ in 0..50 {
                let p = if next(100) < home_bias {
                    next(6) as u8 + 1
                } else {
                    next(24) as u8 + 1
                };
                let (mine, other) = if side == 0 {
                    (&mut own, &opp)
                } else {
                    (&mut opp, &own)
                };
                let crowd = spread && mine[p as usize - 1] > 0;
                if other[mirrored(p) as usize - 1] == 0 && !crowd {
                    mine[p as usize - 1] += 1;
                    break;
                }
            }
        }
    }
    Position {
        own: Checkers::from_counts_with_bar(&own, bars[0]).unwrap(),
        opp: Checkers::from_counts_with_bar(&opp, bars[1]).unwrap(),
    }
}

/// A random race or bear-off position: the mover mostly home (none, one
/// or two checkers outside, some borne off), the opponent above the
/// mover's checkers, now and then one opposing checker among them
/// (contact: the general paths).
fn random_race(seed: &mut u64) -> Position {
    let mut next = |n: u64| below(seed, n);
    let mut own = [0u8; 24];
    let mut opp = [0u8; 24];
    let outside = next(3) as usize;
    let top = 7 + next(12) as usize; // the mover's highest possible point
    let off = next(15) as usize;
    for i in off..15 {
        let p = if i < off + outside {
            7 + next(top as u64 - 6) as usize
        } else {
            1 + next(6) as usize
        };
        own[p - 1] += 1;
    }
    let high = own.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
    let opp_off = 2 + next(13) as usize; // room for the contact checkers
    for _ in opp_off..15 {
        // Opponent's points 1..=24 − high: the mover's points above `high`.
        let p = 1 + next((24 - high) as u64) as usize;
        opp[p - 1] += 1;
    }
    if next(8) == 0 && high > 1 {
        // One opposing checker (or two) on a free point below `high`.
        let t = 1 + next(high as u64 - 1) as usize;
        if own[t - 1] == 0 {
            opp[25 - t - 1] += 1 + next(2) as u8;
        }
    }
    Position {
        own: Checkers::from_counts_with_bar(&own, 0).unwrap(),
        opp: Checkers::from_counts_with_bar(&opp, 0).unwrap(),
    }
}

#[test]
fn fast_paths_match_general_enumeration() {
    let mut stages = Vec::new();
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            stages.push(StageDice::Pair(a, b));
        }
        for count in 1..=4 {
            stages.push(StageDice::Same { die: a, count });
        }
    }
    let mut fast = HitGen::new();
    let mut general = HitGen::new();
    general.general_only = true;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut seed = 7;
    let mut fast_calls = 0;
    let mut race_calls = 0;
    for i in 0..30_000 {
        let pos = if i == 0 {
            START
        } else if i >= 20_000 {
            random_race(&mut seed)
        } else {
            random_position(&mut seed, [0, 30, 70, 100][i % 4])
        };
        for &dice in &stages {
            let na = fast.generate(pos, dice, &mut a);
            let nb = general.generate(pos, dice, &mut b);
            assert_eq!((na, &a), (nb, &b), "{pos:?} {dice:?}");
            let occ = pos.own.mask();
            if pos.own.bar() == 0 && outside_at_least(pos.own, occ, 2) {
                fast_calls += 1;
            }
            let free = (closed_points(pos) | blot_points(pos)) & up_to(highest(occ)) == 0;
            if pos.own.bar() == 0 && !pos.is_over() && free && !outside_at_least(pos.own, occ, 4) {
                race_calls += 1;
            }
        }
    }
    assert!(fast_calls > 100_000, "{fast_calls}");
    assert!(race_calls > 100_000, "{race_calls}");
}
