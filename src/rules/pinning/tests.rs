use super::*;
use crate::rules::testing::{GeneralEnumeration, at};

const START: Position = Position {
    own: Checkers::START,
    opp: Checkers::START,
};

#[test]
fn a_landing_pins_and_a_departure_frees() {
    // The opponent's blot on its 20 is the mover's 5.
    let pos = Position {
        own: at(&[(24, 13), (8, 2)]),
        opp: at(&[(24, 14), (20, 1)]),
    };
    let pinned = apply_step(pos, Step::new(8, 3));
    assert!(pinned.opp.pinned(20));
    assert!(step_pins(pos, Step::new(8, 3)));
    // The pinned checker cannot move; the pinner's side may stack.
    let seen = pinned.flipped();
    assert!(step_problem(seen, Step::new(20, 1)).is_some());
    assert!(open(pinned, 5));
    let stacked = apply_step(pinned, Step::new(8, 3));
    assert_eq!(stacked.own.at(5), 2);
    assert!(stacked.opp.pinned(20));
    // The opponent may not land on its pinned checker's point.
    assert!(!open(stacked.flipped(), 20));
    // Leaving with one of two keeps the pin; with the last, frees it.
    let one_left = apply_step(stacked, Step::new(5, 1));
    assert!(one_left.opp.pinned(20));
    let freed = apply_step(one_left, Step::new(5, 2));
    assert!(!freed.opp.pinned(20));
    assert_eq!(freed.opp.at(20), 1);
}

#[test]
fn a_checker_pinned_under_one_closes_its_point_to_its_side() {
    // The mover's checker on 10 is pinned by one opposing checker.
    let pos = Position {
        own: at(&[(24, 14), (10, 1)]).with_pin(10, true),
        opp: at(&[(24, 14), (15, 1)]),
    };
    assert_eq!(pins_consistent(pos.own, pos.opp), Ok(()));
    assert_eq!(pins_consistent(pos.opp, pos.own), Ok(()));
    // Not both pinned, nor a pin with nothing on top, nor two pinned.
    let both = pos.opp.with_pin(15, true);
    assert_eq!(pins_consistent(pos.own, both), Err(10));
    let bare = pos.own.with_pin(10, false).moved(10, 9).with_pin(9, true);
    assert_eq!(pins_consistent(bare, pos.opp), Err(9));
    assert!(!open(pos, 10));
    assert_eq!(
        step_problem(pos, Step::new(10, 2))
            .map(|p| p.to_string())
            .as_deref(),
        Some("the checker on 10 is pinned")
    );
    let (ends, n) = stage_ends(pos, StageDice::Pair(6, 5));
    assert_eq!(n, 2);
    // 24/18 24/19, or 24/13; never onto 10 (24/14/... passes it).
    assert!(ends.iter().all(|e| e.pos.own.pinned(10)));
}

#[test]
fn the_mother_rule() {
    // The opponent's last checker on its start (the mover's 1) is
    // pinned: the opponent loses unless the mover still has checkers
    // on its own start.
    let pos = Position {
        own: at(&[(6, 14), (2, 1)]),
        opp: at(&[(24, 1), (3, 14)]),
    };
    let pinning = apply_step(pos, Step::new(2, 1));
    assert!(pinning.opp.pinned(24));
    assert_eq!(pinning.mothers(), Some([false, true]));
    assert!(pinning.is_over());
    // With a checker of the mover's still on its start: play goes on.
    let pos2 = Position {
        own: at(&[(24, 1), (6, 13), (2, 1)]),
        opp: pos.opp,
    };
    let p2 = apply_step(pos2, Step::new(2, 1));
    assert_eq!(p2.mothers(), None);
    // Both mothers pinned: a draw.
    let both = Position {
        own: p2.own.with_pin(24, true),
        opp: p2.opp.moved(3, 1),
    };
    assert_eq!(both.mothers(), Some([true, true]));
}

#[test]
fn a_mother_pin_ends_the_play_and_counts_as_every_die() {
    // 6-5: the 5 pins the mother on the mover's 1 (6/1); the game ends
    // there, so 6/1 counts as both dice.
    let pos = Position {
        own: at(&[(6, 10), (8, 5)]),
        opp: at(&[(24, 1), (10, 14)]),
    };
    let (ends, n) = stage_ends(pos, StageDice::Pair(6, 5));
    assert_eq!(n, 2);
    // 6/1 alone, or 8/2 then 6/1: both win.
    let win: Vec<_> = ends.iter().filter(|e| e.pos.is_over()).collect();
    assert_eq!(win.len(), 2);
    assert!(win.iter().any(|e| e.play.len() == 1));
    assert!(win.iter().all(|e| e.pos.mothers() == Some([false, true])));
}

const REFUSE: PinReadings = PinReadings {
    pinned_bearoff: PinnedBearoff::Refuse,
    mother_timing: MotherTiming::Step,
};

const HOME: PinReadings = PinReadings {
    pinned_bearoff: PinnedBearoff::Home,
    mother_timing: MotherTiming::Step,
};

const AT_END: PinReadings = PinReadings {
    pinned_bearoff: PinnedBearoff::Home,
    mother_timing: MotherTiming::End,
};

#[test]
fn bearing_off_while_pinned_by_the_option() {
    let own = at(&[(1, 5), (2, 5), (3, 4), (5, 1)]).with_pin(5, true);
    let pos = Position {
        own,
        opp: at(&[(20, 1), (13, 14)]),
    };
    assert_eq!(pins_consistent(pos.own, pos.opp), Ok(()));
    // `refuse`: no checker leaves while the one on 5 is pinned.
    assert_eq!(
        step_problem_in(pos, Step::new(3, 3), PinnedBearoff::Refuse)
            .map(|p| p.to_string())
            .as_deref(),
        Some("cannot bear off while a checker is pinned")
    );
    let (ends, n) = stage_ends_in(pos, StageDice::Pair(2, 1), REFUSE);
    assert_eq!(n, 2);
    assert!(ends.iter().all(|e| e.pos.own.off() == 0));
    // `home` (the default): the pinned checker counts as home, so the
    // others bear off; it still stands higher than 3, so a 6 bears off
    // nothing and the pinned checker itself never moves.
    assert_eq!(PinReadings::default(), HOME);
    assert_eq!(step_problem(pos, Step::new(3, 3)), None);
    assert_eq!(
        step_problem(pos, Step::new(3, 6))
            .map(|p| p.to_string())
            .as_deref(),
        Some("a 6 bears off from 3 only when no checker stands higher")
    );
    let (ends, n) = stage_ends_in(pos, StageDice::Pair(2, 1), HOME);
    assert_eq!(n, 2);
    let mut offs: Vec<u8> = ends.iter().map(|e| e.pos.own.off()).collect();
    offs.sort();
    offs.dedup();
    assert_eq!(offs, [0, 1, 2]);
    assert!(ends.iter().all(|e| e.pos.own.pinned(5)));
    // 6-6 under `home`: nothing can bear off past the pinned checker,
    // and nothing can move within the home by six: no play.
    let (ends, n) = stage_ends_in(pos, StageDice::from_roll(6, 6), HOME);
    assert_eq!((n, ends.len()), (0, 1));
}

#[test]
fn a_mother_pinned_within_the_play_at_its_end() {
    // As `a_mother_pin_ends_the_play_and_counts_as_every_die`, with the
    // mother judged at the end: 6/1 pins it but the 6 must be played
    // too (8/2), and every play uses both dice.
    let pos = Position {
        own: at(&[(6, 10), (8, 5)]),
        opp: at(&[(24, 1), (10, 14)]),
    };
    let (ends, n) = stage_ends_in(pos, StageDice::Pair(6, 5), AT_END);
    assert_eq!(n, 2);
    assert!(ends.iter().all(|e| e.play.len() == 2), "{ends:?}");
    let win: Vec<_> = ends.iter().filter(|e| e.pos.is_over()).collect();
    assert_eq!(win.len(), 1);
    assert_eq!(win[0].pos.own, at(&[(6, 9), (8, 4), (1, 1), (2, 1)]));
    // Each end is reached by its play, step by step.
    for e in &ends {
        let mut cur = pos;
        for &st in e.play.steps() {
            assert!(!AT_END.ends_play(cur));
            cur = apply_step(cur, st);
        }
        assert_eq!(cur, e.pos);
    }
    // A pin that the rest of the play undoes is no loss: the mother
    // pinned by 3/1 with the 2, freed when the pinner bears off with
    // the 1 (all home, 13 off). At the step it ends the game at once.
    let pos = Position {
        own: at(&[(3, 1), (2, 1)]),
        opp: at(&[(24, 1), (10, 14)]),
    };
    let (ends, n) = stage_ends_in(pos, StageDice::Pair(2, 1), AT_END);
    assert_eq!(n, 2);
    let freed = apply_step(apply_step(pos, Step::new(3, 2)), Step::new(1, 1));
    assert!(!freed.opp.pinned(24));
    assert!(ends.iter().any(|e| e.pos == freed));
    assert!(ends.iter().all(|e| e.play.len() == 2));
    // At the step, 3/1 wins at once.
    let (ends, _) = stage_ends_in(pos, StageDice::Pair(2, 1), HOME);
    assert!(ends.iter().any(|e| e.play.len() == 1 && e.pos.is_over()));
}

/// The fast paths give the general enumeration's ends (as a set: the
/// order may differ) and the same number of dice, on positions of
/// seeded random Plakoto games, for every roll.
#[test]
fn fast_paths_equal_the_general_enumeration() {
    let positions =
        crate::rules::dice::random_game_positions(crate::rules::Variant::Plakoto, 60, 31, 300);
    assert!(positions.len() > 3000, "{}", positions.len());
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    let (mut checked, mut pinned) = (0, 0);
    for (pos, readings) in positions
        .iter()
        .flat_map(|p| [REFUSE, HOME, AT_END].map(|r| (p, r)))
    {
        let mut g = PinGen::with_readings(readings);
        pinned += usize::from(pos.own.pinned_mask() != 0);
        for a in 1..=6u8 {
            for b in 1..=a {
                let dice = StageDice::from_roll(a, b);
                let n_fast = g.generate(*pos, dice, &mut fast);
                let n_general = g.generate_general(*pos, dice, &mut general);
                assert_eq!(n_fast, n_general, "{pos:?} {dice:?}");
                let mut f: Vec<Position> = fast.iter().map(|e| e.pos).collect();
                let mut h: Vec<Position> = general.iter().map(|e| e.pos).collect();
                f.sort();
                h.sort();
                assert_eq!(f, h, "{pos:?} {dice:?}");
                for e in &fast {
                    let mut cur = *pos;
                    for &st in e.play.steps() {
                        let problem = step_problem_in(cur, st, readings.pinned_bearoff);
                        assert_eq!(problem, None, "{pos:?} {:?}", e.play);
                        cur = apply_step(cur, st);
                    }
                    assert_eq!(cur, e.pos, "{pos:?} {:?}", e.play);
                }
                checked += fast.len();
            }
        }
    }
    assert!(checked > 300_000, "{checked} ends checked");
    assert!(pinned > 900, "{pinned} positions with a pinned checker");
}

/// Why a fast path in non-increasing order cannot play equal dice
/// when the mover still has a checker on its start and the opponent's
/// mother stands alone: 6-6 with one on 24 and two on 7, the mother on
/// the mover's 1. 7/1 pins it (the mover still on its start: play goes
/// on), 7/1 stacks, 24/18 empties the start and ends the game at the
/// third step; in non-increasing order 24/18 comes first and 7/1 ends
/// the game at once, so that end has no such order.
#[test]
fn the_mother_ends_the_play_in_an_order_no_fast_path_takes() {
    let pos = Position {
        own: at(&[(24, 1), (7, 2), (6, 12)]),
        opp: at(&[(24, 1), (2, 14)]),
    };
    let dice = StageDice::from_roll(6, 6);
    let mut g = PinGen::new();
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    let n = g.generate(pos, dice, &mut fast);
    assert_eq!(n, 4);
    assert_eq!(g.generate_general(pos, dice, &mut general), 4);
    let mut f: Vec<Position> = fast.iter().map(|e| e.pos).collect();
    let mut h: Vec<Position> = general.iter().map(|e| e.pos).collect();
    f.sort();
    h.sort();
    assert_eq!(f, h);
    let late = fast
        .iter()
        .find(|e| e.pos.own.at(1) == 2)
        .expect("7/1 7/1 24/18 is a legal play");
    assert_eq!(
        late.play.steps(),
        &[Step::new(7, 6), Step::new(7, 6), Step::new(24, 6)]
    );
    assert!(late.pos.is_over() && late.pos.own.at(18) == 1);
    // The other ends: 24/18 then 7/1, 24/18/12 7/1, 24/18/12/6 7/1.
    assert_eq!(fast.len(), 4, "{fast:?}");
    assert!(fast.iter().all(|e| e.pos.is_over()));
}

/// The generator's check of a step agrees with the worded one, for every
/// step of positions of random games and hand-made bear-offs with pins,
/// under both bear-off readings.
#[test]
fn the_generators_step_check_agrees_with_the_worded_one() {
    let mut positions =
        crate::rules::dice::random_game_positions(crate::rules::Variant::Plakoto, 20, 5, 300);
    positions.push(Position {
        own: at(&[(1, 5), (2, 5), (3, 4), (5, 1)]).with_pin(5, true),
        opp: at(&[(20, 1), (13, 14)]),
    });
    let mut pinned = 0;
    for pos in &positions {
        pinned += usize::from(pos.own.pinned_mask() != 0);
        for bearoff in [PinnedBearoff::Home, PinnedBearoff::Refuse] {
            for from in 0..=26u8 {
                for die in 0..=7u8 {
                    let step = Step::new(from, die);
                    assert_eq!(
                        step_ok_in(*pos, step, bearoff),
                        step_problem_in(*pos, step, bearoff).is_none(),
                        "{pos:?} {step:?} {bearoff:?}"
                    );
                }
            }
        }
    }
    assert!(
        positions.len() > 1000 && pinned > 100,
        "{} {pinned}",
        positions.len()
    );
}

#[test]
fn the_opening_moves_one_or_two_checkers_off_the_start() {
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let dice = StageDice::from_roll(a, b);
            let (ends, n) = stage_ends(START, dice);
            assert_eq!(n, dice.count(), "{a}{b}");
            for e in &ends {
                assert_eq!(e.pos.own.pinned_mask() | e.pos.opp.pinned_mask(), 0);
                assert!(e.pos.own.at(24) >= 11, "{a}{b}");
            }
            if a != b {
                // 24/x 24/y, or one checker 24/x/y.
                assert_eq!(ends.len(), 2, "{a}{b}");
            }
        }
    }
}
