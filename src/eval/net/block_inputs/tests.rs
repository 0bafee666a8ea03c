use super::*;
use crate::eval::net::{LONG_INPUTS, Net, features_for};
use crate::rules::position::Position;
use crate::rules::{GameState, RuleOptions, Side, Variant};

/// The other side's point `q` in this side's numbering (and back).
fn across(q: u8) -> u8 {
    if q > 12 { q - 12 } else { q + 12 }
}

/// The longest row of points `p` in `lo..=hi` with `closed(p)`, counted
/// point by point.
fn naive_row(lo: i32, hi: i32, closed: impl Fn(u8) -> bool) -> u32 {
    let (mut best, mut run) = (0, 0);
    for p in lo.max(1)..=hi.min(24) {
        run = if closed(p as u8) { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The highest point holding a checker of `c`, 0 when none.
fn naive_rear(c: Checkers) -> i32 {
    (1..=24u8).rev().find(|&p| c.at(p) > 0).map_or(0, i32::from)
}

/// [`blocking`] counted without masks: point by point in `them`'s numbering.
fn naive_blocking(me: Checkers, them: Checkers) -> (u32, u32, [u32; 3]) {
    let closed = |q: u8| me.at(across(q)) > 0;
    let rear = naive_rear(them);
    let row = naive_row(1, rear - 1, closed);
    let near = (rear - 6..rear)
        .filter(|&q| q >= 1 && closed(q as u8))
        .count() as u32;
    let mut trapped = [0; 3];
    for q in 1..=24u8 {
        let ahead = naive_row(1, i32::from(q) - 1, closed);
        for (i, k) in (4..=6).enumerate() {
            if ahead >= k {
                trapped[i] += u32::from(them.at(q));
            }
        }
    }
    (row, near, trapped)
}

/// The rolls (of 36) with which `me`'s rearmost checker lands below the
/// lowest of `them`'s points within six pips in front of it, walked along
/// every order of the dice (36 when none stands there).
fn naive_escape_rolls(me: Checkers, them: Checkers) -> u32 {
    let rear = naive_rear(me);
    if rear == 0 {
        return 0;
    }
    let closed = |p: i32| them.at(across(p as u8)) > 0;
    let Some(lowest) = (rear - 6..rear).find(|&p| p >= 1 && closed(p)) else {
        return 36;
    };
    let mut rolls = 0;
    for d1 in 1..=6i32 {
        for d2 in 1..=6i32 {
            let paths = if d1 == d2 {
                vec![vec![d1; 4]]
            } else {
                vec![vec![d1, d2], vec![d2, d1]]
            };
            let passes = paths.iter().any(|path| {
                let mut at = rear;
                for &d in path {
                    at -= d;
                    if at < 1 || closed(at) {
                        return false;
                    }
                    if at < lowest {
                        return true;
                    }
                }
                false
            });
            rolls += u32::from(passes);
        }
    }
    rolls
}

/// Layout 9's inputs beyond layout 3's, computed from the naive counts.
fn naive_inputs(own: Checkers, opp: Checkers) -> Vec<(u16, f32)> {
    let mut out = Vec::new();
    let mut push = |i: usize, v: f32| {
        if v != 0.0 {
            out.push(((LONG_INPUTS + i) as u16, v));
        }
    };
    for (k, (me, them)) in [(own, opp), (opp, own)].into_iter().enumerate() {
        let b = k * PER_SIDE;
        let (row, near, trapped) = naive_blocking(me, them);
        push(b, (row as f32 / 6.0).min(1.0));
        push(b + 1, near as f32 / 6.0);
        for (i, n) in trapped.into_iter().enumerate() {
            push(b + 2 + i, n as f32 / 15.0);
        }
        push(b + 5, f32::from(me.at(24)) / 15.0);
        push(b + 6, naive_escape_rolls(me, them) as f32 / 36.0);
        let pips: u32 = (7..=24u8)
            .map(|p| u32::from(me.at(p)) * (u32::from(p) - 6))
            .sum();
        push(b + 7, pips as f32 / 270.0);
        let home: u32 = (1..=6u8).map(|p| u32::from(me.at(p))).sum::<u32>() + u32::from(me.off());
        push(b + 8, home as f32 / 15.0);
        let passed = me.off() > 0 || (1..=11u8).any(|p| me.at(p) > 0);
        push(b + 9, if passed { 1.0 } else { 0.0 });
        push(b + 10, naive_rear(me) as f32 / 24.0);
    }
    let past = (13..=24u8).all(|p| own.at(p) == 0 && opp.at(p) == 0);
    push(2 * PER_SIDE, if past { 1.0 } else { 0.0 });
    out
}

/// Layout 9's inputs of a state, as the network reads them.
fn layout9(state: &GameState, variant: Variant) -> Vec<(u16, f32)> {
    let net = Net::random_layout(RUN_BLOCK_LAYOUT, RUN_BLOCK_INPUTS, 4, 1);
    features_for(&net, state, &RuleOptions::for_variant(variant)).active
}

fn state_of(variant: Variant, pos: Position) -> GameState {
    GameState {
        pos,
        ..GameState::start_of(variant, Side::White)
    }
}

#[test]
fn the_inputs_equal_a_naive_count_on_random_game_positions() {
    for variant in [Variant::LongNardy, Variant::Fevga] {
        let all = crate::rules::dice::random_game_positions(variant, 40, 7, 400);
        assert!(all.len() > 1500, "{variant}: {}", all.len());
        let (mut trapped, mut escapes, mut stuck, mut past) = (0, 0, 0, 0);
        for &pos in &all {
            // Both sides: the position as each side to move sees it.
            for pos in [pos, pos.flipped()] {
                let s = state_of(variant, pos);
                let got = layout9(&s, variant);
                let mut long = Vec::new();
                crate::eval::net::inputs::long_features_into(
                    &s,
                    &RuleOptions::for_variant(variant),
                    &mut long,
                );
                assert_eq!(got[..long.len()], long[..], "{variant} {pos:?}");
                let want = naive_inputs(pos.own, pos.opp);
                assert_eq!(got[long.len()..], want[..], "{variant} {pos:?}");
                let (_, _, t) = blocking(pos.opp, pos.own);
                trapped += usize::from(t[0] > 0);
                let e = escape_share(pos.own, pos.opp);
                escapes += usize::from(e < 1.0 && e > 0.0);
                stuck += usize::from(e == 0.0);
                past += usize::from(
                    want.last()
                        .is_some_and(|&(i, _)| usize::from(i) == LONG_INPUTS + 2 * PER_SIDE),
                );
            }
        }
        // The sample exercises what it checks.
        assert!(
            trapped > 100 && escapes > 500 && stuck > 5 && past > 20,
            "{variant}: {trapped} {escapes} {stuck} {past}"
        );
    }
}

fn checkers(points: &[(u8, u8)]) -> Checkers {
    let mut c = [0u8; 24];
    for &(p, n) in points {
        c[usize::from(p) - 1] = n;
    }
    Checkers::from_counts(&c).expect("at most 15")
}

/// The value of layout 9's input `i` (beyond layout 3's) in `got`.
fn input(got: &[(u16, f32)], i: usize) -> f32 {
    got.iter()
        .find(|&&(j, _)| usize::from(j) == LONG_INPUTS + i)
        .map_or(0.0, |&(_, v)| v)
}

#[test]
fn the_start_by_hand() {
    let s = GameState::start_of(Variant::LongNardy, Side::White);
    let got = layout9(&s, Variant::LongNardy);
    for k in 0..2 {
        let b = k * PER_SIDE;
        // My head is the other's 12: in front of its head, twelve pips on.
        assert_eq!(input(&got, b), 1.0 / 6.0);
        assert_eq!(input(&got, b + 1), 0.0);
        assert_eq!(input(&got, b + 5), 1.0, "all on the head");
        assert_eq!(input(&got, b + 6), 1.0, "nothing in front of the head");
        assert_eq!(input(&got, b + 7), 1.0, "15 × 18 pips to the home");
        assert_eq!(input(&got, b + 8), 0.0);
        assert_eq!(input(&got, b + 9), 0.0);
        assert_eq!(input(&got, b + 10), 1.0);
    }
    assert_eq!(input(&got, 2 * PER_SIDE), 0.0);
}

/// One checker on the head facing the other side's points on its 22, 21
/// and 19: 20 rolls pass them (every roll with a six: 11; 1-5, 2-4, 3-4,
/// 4-5 either way: 8; 4-4), and the rest of the inputs of both sides.
#[test]
fn an_escape_and_a_race_by_hand() {
    let me = checkers(&[(24, 1)]); // 14 off
    let them = checkers(&[(10, 1), (9, 1), (7, 1)]); // my 22, 21, 19; 12 off
    assert_eq!(escape_share(me, them), 20.0 / 36.0);
    let s = state_of(Variant::LongNardy, Position { own: me, opp: them });
    let got = layout9(&s, Variant::LongNardy);
    let want: [(usize, f32); 22] = [
        // Mine against them: my 24 is their 12, behind their rearmost (10).
        (0, 0.0),
        (1, 0.0),
        (2, 0.0),
        (5, 1.0 / 15.0),
        (6, 20.0 / 36.0),
        (7, 18.0 / 270.0),
        (8, 14.0 / 15.0),
        (9, 1.0),
        (10, 1.0),
        // Theirs against me: 22 and 21 in a row in front of my 24, three
        // of the six points in front of it.
        (PER_SIDE, 2.0 / 6.0),
        (PER_SIDE + 1, 3.0 / 6.0),
        (PER_SIDE + 2, 0.0),
        (PER_SIDE + 5, 0.0),
        // Their 10 faces my 24 = their 12: behind it, so nothing in front.
        (PER_SIDE + 6, 1.0),
        (PER_SIDE + 7, 8.0 / 270.0),
        (PER_SIDE + 8, 12.0 / 15.0),
        (PER_SIDE + 9, 1.0),
        (PER_SIDE + 10, 10.0 / 24.0),
        (2 * PER_SIDE, 0.0),
        (3, 0.0),
        (4, 0.0),
        (PER_SIDE + 3, 0.0),
    ];
    for (i, v) in want {
        assert_eq!(input(&got, i), v, "input {i}");
    }
}

/// Rows of 4 (their 2–5) and 5 (their 8–12) of mine: their checker on 1
/// is past both, the two on 7 behind the row of 4 only, the three on 15
/// behind both. My head checker passes their 19 with 26 rolls.
#[test]
fn rows_and_the_checkers_behind_them_by_hand() {
    let me = checkers(&[
        (14, 2),
        (15, 2),
        (16, 2),
        (17, 2),
        (20, 1),
        (21, 1),
        (22, 1),
        (23, 1),
        (24, 3),
    ]);
    let them = checkers(&[(1, 1), (7, 2), (15, 3)]);
    assert_eq!(blocking(me, them), (5, 4, [5, 3, 0]));
    // Their 1, 7, 15 are my 13, 19, 3: 19 in front of my 24. Sixes (11),
    // 1-5, 2-4, 2-5, 3-4, 3-5, 4-5 (12), 2-2, 3-3, 4-4.
    assert_eq!(escape_share(me, them), 26.0 / 36.0);
    let s = state_of(Variant::Fevga, Position { own: me, opp: them });
    let got = layout9(&s, Variant::Fevga);
    assert_eq!(input(&got, 0), 5.0 / 6.0);
    assert_eq!(input(&got, 1), 4.0 / 6.0);
    assert_eq!(input(&got, 2), 5.0 / 15.0);
    assert_eq!(input(&got, 3), 3.0 / 15.0);
    assert_eq!(input(&got, 4), 0.0);
    assert_eq!(input(&got, 5), 3.0 / 15.0);
    assert_eq!(input(&got, 9), 0.0, "nothing of mine on 11 or lower");
    assert_eq!(input(&got, PER_SIDE + 9), 1.0, "their 1");
    // Mine: 8 × (8..11 − 6) + 14..17 − 6 each + 18 × 3.
    let pips = 2 * (8 + 9 + 10 + 11) + (14 + 15 + 16 + 17) + 3 * 18;
    assert_eq!(input(&got, 7), pips as f32 / 270.0);
    assert_eq!(input(&got, PER_SIDE + 8), 10.0 / 15.0, "one home, nine off");
}

#[test]
fn a_pure_race_is_marked() {
    let me = checkers(&[(12, 2), (3, 4)]);
    let them = checkers(&[(11, 1), (1, 2)]);
    let got = layout9(
        &state_of(Variant::LongNardy, Position { own: me, opp: them }),
        Variant::LongNardy,
    );
    assert_eq!(input(&got, 2 * PER_SIDE), 1.0);
    let them = checkers(&[(13, 1), (1, 2)]);
    let got = layout9(
        &state_of(Variant::LongNardy, Position { own: me, opp: them }),
        Variant::LongNardy,
    );
    assert_eq!(input(&got, 2 * PER_SIDE), 0.0);
}

#[test]
fn layout_9_begins_with_layout_3_and_stays_in_range() {
    let all = crate::rules::dice::random_game_positions(Variant::LongNardy, 10, 3, 400);
    let long = Net::random_layout(
        crate::eval::net::LONG_LAYOUT,
        crate::eval::net::LONG_INPUTS,
        4,
        1,
    );
    let opts = RuleOptions::for_variant(Variant::LongNardy);
    for pos in all {
        let s = state_of(Variant::LongNardy, pos);
        let got = layout9(&s, Variant::LongNardy);
        let three = features_for(&long, &s, &opts).active;
        assert_eq!(got[..three.len()], three[..]);
        for &(i, v) in &got[three.len()..] {
            assert!((LONG_INPUTS..RUN_BLOCK_INPUTS).contains(&usize::from(i)));
            assert!(v > 0.0 && v <= 1.0, "input {i} = {v}");
        }
    }
}
