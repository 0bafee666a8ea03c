//! `MoveGen::generate` against a naive reference generator (tests/rules_common):
//! same set of distinct end positions and the same number of playable dice,
//! on thousands of random reachable positions, both sides to move, all 21
//! rolls (non-doublets as a pair, doublets as one stage of four) and partial
//! stages of one to three equal dice (chain and remainder stages).

mod rules_common;

use std::collections::HashSet;

use gulbara::notation::position_from_white_view;
use gulbara::rules::{Checkers, MoveGen, Side, StageDice, StageEnd};
use rules_common::{board_of, naive_stage, naive_stage_keys, reachable_boards};

fn stages() -> Vec<(StageDice, Vec<u8>)> {
    let mut v = Vec::new();
    for a in 1..=6u8 {
        for b in 1..a {
            v.push((StageDice::Pair(a, b), vec![a, b]));
        }
        for count in 1..=4u8 {
            v.push((StageDice::Same { die: a, count }, vec![a; count as usize]));
        }
    }
    v
}

/// Compares one position, side and stage; returns a description on mismatch.
fn compare(
    mg: &mut MoveGen,
    out: &mut Vec<StageEnd>,
    board: &[i8; 24],
    side: Side,
    dice: StageDice,
    list: &[u8],
) -> Result<(), String> {
    let pos = position_from_white_view(board, side).map_err(|e| e.to_string())?;
    let n = mg.generate(pos, dice, out);
    let mut got: Vec<u128> = out.iter().map(|e| e.pos.own.0).collect();
    got.sort_unstable();
    let (want, max) = naive_stage_keys(board, side, list);
    let describe = || format!("board {board:?} side {side:?} dice {dice:?}");
    if out.iter().any(|e| e.pos.opp != pos.opp) {
        return Err(format!("{}: the opponent's checkers changed", describe()));
    }
    if got.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("{}: an end is listed twice", describe()));
    }
    if usize::from(n) != max {
        return Err(format!("{}: playable {n}, reference {max}", describe()));
    }
    if got != want {
        let show = |keys: &[u128]| -> Vec<[i8; 24]> {
            keys.iter()
                .map(|&k| {
                    let mut p = pos;
                    p.own = Checkers(k);
                    board_of(p, side)
                })
                .collect()
        };
        let extra: Vec<u128> = got.iter().filter(|k| !want.contains(k)).copied().collect();
        let missing: Vec<u128> = want.iter().filter(|k| !got.contains(k)).copied().collect();
        return Err(format!(
            "{}: {} ends, reference {}; extra {:?}; missing {:?}",
            describe(),
            got.len(),
            want.len(),
            show(&extra),
            show(&missing)
        ));
    }
    // Each representative play is as long as the playable count, unless its
    // last step bore off the last checker.
    for e in out.iter() {
        let all_off = e.pos.own.off() == 15;
        if e.play.len() != usize::from(n) && !(all_off && e.play.len() < usize::from(n)) {
            return Err(format!(
                "{}: representative play of {} steps",
                describe(),
                e.play.len()
            ));
        }
    }
    Ok(())
}

/// Runs every stage on `n` reachable boards, both sides to move.
fn sweep(n: usize, seed: u64) {
    let boards = reachable_boards(n, seed);
    assert_eq!(boards.len(), n);
    let stages = stages();
    assert_eq!(stages.len(), 15 + 6 * 4);
    let mut mg = MoveGen::new();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    let mut checked = 0usize;
    let mut bearing_off = 0usize;
    let mut forfeits = 0usize;
    for board in &boards {
        for side in [Side::White, Side::Black] {
            for (dice, list) in &stages {
                checked += 1;
                if let Err(e) = compare(&mut mg, &mut out, board, side, *dice, list) {
                    failures.push(e);
                }
                if out.iter().any(|e| e.pos.own.off() > 0) {
                    bearing_off += 1;
                }
                if out[0].play.is_empty() {
                    forfeits += 1;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} stages differ; first: {}",
        failures.len(),
        failures[0]
    );
    // The sample reaches the bear-off and blocked stages, not only the
    // opening game.
    assert!(
        bearing_off > checked / 50,
        "only {bearing_off} bear-off stages"
    );
    assert!(forfeits > checked / 200, "only {forfeits} forfeited stages");
}

/// 1,000 boards × 2 sides × 39 stages (about 78,000 comparisons) keeps the
/// debug-mode run at a few seconds; the ignored test below runs 20,000.
#[test]
fn movegen_matches_naive_reference_on_reachable_positions() {
    sweep(1000, 0x6b61_7a61);
}

/// The long sweep: `cargo test --release --test reference_movegen -- --ignored`.
#[test]
#[ignore = "long sweep; run in release mode"]
fn movegen_matches_naive_reference_long_sweep() {
    sweep(20_000, 0x5eed_0002);
}

/// Hand-picked corners the random sample may miss: bear-off with higher
/// dice, a last checker, full primes, a side with nothing playable.
#[test]
fn movegen_matches_naive_reference_on_corner_positions() {
    let boards: Vec<[i8; 24]> = [
        // Start.
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15",
        // White bearing off with gaps; Black all home (its 13..18).
        "0,3,0,2,0,1,0,0,0,0,0,0,-5,-5,-5,0,0,0,0,0,0,0,0,0",
        // One White checker left outside home, the rest home.
        "2,2,2,3,3,2,0,1,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0",
        // Last checkers: one each.
        "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0",
        // White's six-prime 13..18 in front of Black's checkers on 19.
        "0,0,0,0,0,0,0,0,0,0,0,0,3,3,3,2,2,1,-15,0,0,0,0,1",
        // A mutual blockade for 6s and 5s.
        "2,2,2,2,0,0,-3,-3,-3,0,0,0,2,2,0,0,0,-3,-3,0,0,0,0,3",
    ]
    .iter()
    .map(|t| {
        let mut b = [0i8; 24];
        for (i, v) in t.split(',').enumerate() {
            b[i] = v.parse().unwrap();
        }
        b
    })
    .collect();
    let mut mg = MoveGen::new();
    let mut out = Vec::new();
    for board in &boards {
        for side in [Side::White, Side::Black] {
            for (dice, list) in stages() {
                if let Err(e) = compare(&mut mg, &mut out, board, side, dice, &list) {
                    panic!("{e}");
                }
            }
        }
    }
}

/// The reference itself on hand-checked cases, so that agreement means
/// something.
#[test]
fn naive_reference_sanity() {
    let start = {
        let mut b = [0i8; 24];
        b[11] = -15;
        b[23] = 15;
        b
    };
    // 6-5 from the start: 24/18 24/19, or 24/18/13 (= 24/19/13).
    let (ends, n) = naive_stage(&start, Side::White, &[6, 5]);
    assert_eq!((ends.len(), n), (2, 2));
    // 6-6: 24/18 four times; 18/12 is closed by Black's start.
    let (ends, n) = naive_stage(&start, Side::White, &[6, 6, 6, 6]);
    assert_eq!((ends.len(), n), (1, 4));
    // Black's 3-1 from the start: its 24 is White's 12.
    let (ends, n) = naive_stage(&start, Side::Black, &[3, 1]);
    assert_eq!(n, 2);
    assert!(
        ends.iter()
            .any(|b| b[11] == -13 && b[10] == -1 && b[8] == -1)
    );
    // Lone checker on 13 (rest off), Black on White's 2: 6 and 5 both reach
    // 2 by the second step, so one die only, and the larger: 13/7.
    let mut b = [0i8; 24];
    b[12] = 1;
    b[1] = -1;
    let (ends, n) = naive_stage(&b, Side::White, &[6, 5]);
    assert_eq!(n, 1);
    let mut want = b;
    want[12] = 0;
    want[6] = 1;
    assert_eq!(ends, HashSet::from([want]));
}
