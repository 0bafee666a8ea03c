use super::*;
use crate::rules::position::Position;
use crate::rules::{GameState, StageDice, Variant};

fn state(text: &str) -> GameState {
    crate::notation::parse_state_text_in(Variant::Plakoto, text).unwrap()
}

/// The side to move's checkers and its opponent's.
fn sides(text: &str) -> (Checkers, Checkers) {
    let s = state(text);
    (s.pos.own, s.pos.opp)
}

/// What `them` has on `me`'s point `p`, and whether it is pinned.
fn theirs_on(me_p: u8, them: Checkers) -> (u8, bool) {
    let q = 25 - me_p;
    (them.at(q), them.pinned(q))
}

/// Point `q` of `roller` (its numbering) is open to it: the target side
/// `target` has fewer than two checkers there and no pinner over a pinned
/// checker of the roller.
fn naive_open(q: u8, roller: Checkers, target: Checkers) -> bool {
    let n = target.at(25 - q);
    n < 2 && !(n == 1 && roller.pinned(q))
}

/// Point `q` of `roller` holds a lone checker of `target` that it pins by
/// landing there.
fn naive_lone(q: u8, roller: Checkers, target: Checkers) -> bool {
    let p = 25 - q;
    target.at(p) == 1 && !target.pinned(p) && roller.at(q) == 0
}

/// The rolls (out of 36) on which `roller` pins a lone checker of `target`
/// (only its mother when `mother_only`), by walking every checker along
/// every order of the dice: a reference written without masks.
fn naive_pin_rolls(roller: Checkers, target: Checkers, mother_only: bool) -> u32 {
    let want = |q: u8| naive_lone(q, roller, target) && (!mother_only || q == 1);
    let mut rolls = 0;
    for d1 in 1..=6u8 {
        for d2 in d1..=6u8 {
            let paths: Vec<Vec<u8>> = if d1 == d2 {
                vec![vec![d1; 4]]
            } else {
                vec![vec![d1, d2], vec![d2, d1]]
            };
            let mut hit = false;
            for p in 1..=24u8 {
                if roller.at(p) == 0 || roller.pinned(p) {
                    continue;
                }
                for path in &paths {
                    let mut at = p as i32;
                    for &d in path {
                        at -= d as i32;
                        if at < 1 || !naive_open(at as u8, roller, target) {
                            break;
                        }
                        if want(at as u8) {
                            hit = true;
                        }
                    }
                }
            }
            if hit {
                rolls += if d1 == d2 { 1 } else { 2 };
            }
        }
    }
    rolls
}

/// The longest row of points `me` closes to `them`, counted point by point.
fn naive_prime(me: Checkers, them: Checkers) -> u32 {
    let (mut best, mut run) = (0, 0);
    for p in 1..=24u8 {
        let (n, pinned_there) = theirs_on(p, them);
        let closes = me.at(p) >= 2 || (me.at(p) == 1 && n == 1 && pinned_there);
        run = if closes { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

fn positions() -> Vec<Position> {
    crate::rules::dice::random_game_positions(Variant::Plakoto, 40, 7, 300)
}

#[test]
fn shares_and_primes_equal_a_naive_count_on_random_game_positions() {
    let all = positions();
    assert!(all.len() > 1500, "{}", all.len());
    let (mut with_pins, mut nonzero, mut mothers) = (0, 0, 0);
    for pos in &all {
        for (me, them) in [(pos.own, pos.opp), (pos.opp, pos.own)] {
            with_pins += usize::from(me.pinned_mask() != 0);
            let [any, mother] = pin_share(me, them);
            let n_any = naive_pin_rolls(them, me, false);
            let n_mother = naive_pin_rolls(them, me, true);
            assert_eq!(any, n_any as f32 / 36.0, "{pos:?}");
            assert_eq!(mother, n_mother as f32 / 36.0, "{pos:?}");
            assert_eq!(longest_prime(me, them), naive_prime(me, them), "{pos:?}");
            nonzero += usize::from(n_any > 0);
            mothers += usize::from(n_mother > 0);
        }
    }
    // The sample exercises what it checks.
    assert!(
        with_pins > 300 && nonzero > 300 && mothers > 20,
        "{with_pins} {nonzero} {mothers}"
    );
}

/// Every roll on which the rules let the opponent end its turn with a new
/// pin is a roll the share counts; and the share counts few more (a
/// pinner that moves on, or dice the rules make play otherwise: under 10%).
#[test]
fn every_roll_that_pins_by_the_rules_is_counted() {
    let mut ends = Vec::new();
    let mut pin_gen = crate::rules::pinning::PinGen::new();
    let (mut by_rules, mut by_share) = (0u32, 0u32);
    for pos in positions().iter().take(1500) {
        // The mover rolls against the opponent's lone checkers.
        let roller = view(pos.own, pos.opp);
        let targets = other(view(pos.opp, pos.own).lone);
        for a in 1..=6u8 {
            for b in a..=6u8 {
                pin_gen.generate(*pos, StageDice::from_roll(a, b), &mut ends);
                let before = pos.opp.pinned_mask().count_ones();
                let pins = ends
                    .iter()
                    .any(|e| e.pos.opp.pinned_mask().count_ones() > before);
                let counted = reaches(&roller, targets, a as u32, b as u32);
                assert!(!pins || counted, "{pos:?} {a}{b}");
                by_rules += u32::from(pins);
                by_share += u32::from(counted);
            }
        }
    }
    assert!(by_rules > 1000, "{by_rules}");
    assert!(
        by_share * 100 <= by_rules * 110,
        "{by_share} counted, {by_rules} by the rules"
    );
}

#[test]
fn hand_checked_positions() {
    // The start: no lone checker, each side's 24 a one-point prime.
    let (own, opp) = sides("-15,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0");
    assert_eq!(pin_share(own, opp), [0.0, 0.0]);
    assert_eq!((longest_prime(own, opp), longest_prime(opp, own)), (1, 1));

    // White (to move) has a lone checker on its 18 and 14 on its 24; Black
    // has one on its 13 (White's 12) and 14 on its 24. Black reaches White's
    // 18 (its 7) from its 13 with a 6 (11 rolls), 5-1, 4-2 (2 each), 3-3 and
    // 2-2: 17 rolls. Its other checkers stand 17 away.
    let text = "-14,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,1,0,0,0,0,0,14 w 4 4";
    let (own, opp) = sides(text);
    assert_eq!(pin_share(own, opp), [17.0 / 36.0, 0.0]);
    // White makes its 17 and 13 (Black's 8 and 12): 5-1 (2 rolls) is blocked.
    let text = "-14,0,0,0,0,0,0,0,0,0,0,-1,2,0,0,0,2,1,0,0,0,0,0,10 w 4 4";
    let (own, opp) = sides(text);
    assert_eq!(pin_share(own, opp), [15.0 / 36.0, 0.0]);
    // Black's lone checker on White's 12 is White's target, 1, 5, 6 and 12
    // away from White's 13, 17, 18 and 24: every roll but 4-3 reaches it
    // (4-3 lands on 21, 20, 17, 15, 14, 13, 11, 10, 9 or 6).
    assert_eq!(pin_share(opp, own)[0], 34.0 / 36.0);

    // White's lone mother (one checker on its 24) and a Black checker on
    // its 3 (White's 22), two away: any 2 (11 rolls) and 1-1: 12 rolls.
    let text = "-14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,1 w 9 9";
    let (own, opp) = sides(text);
    assert_eq!(pin_share(own, opp), [12.0 / 36.0, 12.0 / 36.0]);

    // White's checker on its 5 pinned under a Black one (White's 5 is
    // Black's 20); White pins a Black checker on its 8 with a single
    // checker. White's 5 is closed to White: Black's 13 checkers on its 24
    // are White's 1, out of reach, and the pinned one cannot move.
    let text = "-13,0,0,0,-1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,13 w 3 3 pins=5,8";
    let s = state(text);
    let (own, opp) = (s.pos.own, s.pos.opp);
    assert!(own.pinned(5) && opp.pinned(17), "{own:?} {opp:?}");
    let v = view(own, opp);
    assert_eq!(v.pinned, 1 << 4);
    assert_eq!(v.closed & (1 << 4), 1 << 4, "White's 5 is closed to White");
    assert_eq!(v.closed & (1 << 7), 0, "White's 8 is White's");
    assert_eq!(v.lone, 0, "White's lone pinner on 8 cannot be pinned");
    // White's 24 and its pinner on 8 close one point each, not in a row.
    assert_eq!(longest_prime(own, opp), 1);
}

#[test]
fn write_puts_each_input_where_the_table_says() {
    // As in the last hand-checked position: White to move, its 5 pinned,
    // its single checker on 8 pinning Black's 17; Black's pinner on its 20.
    let s = state("-13,0,0,0,-1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,13 w 3 3 pins=5,8");
    let mut got: Vec<(u16, f32)> = Vec::new();
    write(s.pos.own, s.pos.opp, 100, &mut got);
    let b = 100 + PER_SIDE as u16;
    let want: Vec<(u16, f32)> = vec![
        (100 + 4, 1.0),          // White's 5 pinned
        (100 + 24, 1.0 / 6.0),   // one pinned checker
        (100 + 28, 1.0 / 6.0),   // White's longest row: its 24 alone
        (100 + 29, 14.0 / 15.0), // 13 on its 24 and one on its 8 (the pinned one is home)
        (100 + 30, 0.25),        // one lone pinner, on its 8
        (b + 16, 1.0),           // Black's 17 pinned
        (b + 24, 1.0 / 6.0),
        (b + 28, 1.0 / 6.0),
        (b + 29, 1.0),  // 13 on its 24, its pinner on 20, its pinned one on 17
        (b + 30, 0.25), // its lone pinner on 20
    ];
    assert_eq!(got, want);
}

#[test]
fn layout_8_starts_with_layout_2_and_stays_in_range() {
    use crate::eval::hitnet::{INPUTS, features_of};
    use crate::eval::net::HIT_LAYOUT;
    for pos in positions().iter().step_by(7) {
        let s = GameState {
            pos: *pos,
            ..GameState::start_of(Variant::Plakoto, crate::rules::Side::White)
        };
        let two = features_of(HIT_LAYOUT, &s).active;
        let eight = features_of(PIN_LAYOUT, &s).active;
        assert_eq!(&eight[..two.len()], &two[..]);
        for &(i, v) in &eight[two.len()..] {
            assert!((INPUTS..PIN_INPUTS).contains(&(i as usize)), "{i} {pos:?}");
            assert!(v > 0.0 && v <= 1.0, "{i} {v} {pos:?}");
        }
    }
}
