//! Long nardy's stage generation on hand-built positions: the openings under
//! each first-turn head option, Black's first turn where the options differ,
//! the head limit on later turns, six-blocks with and without an opposing
//! checker ahead, where `end_of_turn` and `per_step` differ, and the perft
//! from the start.

mod variants_common;

use std::collections::BTreeSet;

use gulbara::rules::nardy::{self, LongNardySteps};
use gulbara::rules::options::{HeadFirstTurn, SixBlock};
use gulbara::rules::{MoveGen, Position, StageDice, StageEnd};
use variants_common::{nardy_start, position_of, side_from, side_of};

/// A position from the mover's `(point, count)` list and the opponent's,
/// each in its own numbering, the rest of each side borne off.
fn pos(own: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
    position_of(&side_from(own), &side_from(opp))
}

fn same(die: u8) -> StageDice {
    StageDice::Same { die, count: 4 }
}

fn first_turn(p: Position, dice: StageDice, head: HeadFirstTurn) -> (Vec<StageEnd>, u8) {
    let r = LongNardySteps::for_turn(p, dice, true, head, SixBlock::EndOfTurn);
    nardy::stage_ends(p, dice, r)
}

/// The mover's checkers of every end, as `(point, count)` lists.
fn own_ends(ends: &[StageEnd]) -> BTreeSet<Vec<(usize, u8)>> {
    ends.iter()
        .map(|e| {
            let s = side_of(e.pos.own);
            (1..=24).filter(|&p| s[p] > 0).map(|p| (p, s[p])).collect()
        })
        .collect()
}

/// Expected ends: the mover's `(point, count)` lists.
type Lists<'a> = &'a [&'a [(usize, u8)]];

fn set(lists: Lists) -> BTreeSet<Vec<(usize, u8)>> {
    lists.iter().map(|l| l.to_vec()).collect()
}

#[test]
fn whites_opening_rolls_under_needs_second_and_fixed_3_4_6() {
    let start = nardy_start();
    for head in [HeadFirstTurn::NeedsSecond, HeadFirstTurn::Fixed346] {
        for a in 1..=6u8 {
            for b in 1..a {
                let (ends, n) = first_turn(start, StageDice::Pair(a, b), head);
                let to = 24 - usize::from(a + b);
                assert_eq!(n, 2, "{a}-{b}");
                assert_eq!(own_ends(&ends), set(&[&[(to, 1), (24, 14)]]), "{a}-{b}");
            }
        }
        let cases: [(u8, u8, Lists); 6] = [
            (1, 4, &[&[(20, 1), (24, 14)]]),
            (2, 4, &[&[(16, 1), (24, 14)]]),
            (5, 4, &[&[(4, 1), (24, 14)]]),
            (4, 4, &[&[(16, 2), (24, 13)]]),
            // 24/18/12 is closed by Black's head: two sixes are lost.
            (6, 2, &[&[(18, 2), (24, 13)]]),
            (3, 4, &[&[(18, 2), (24, 13)], &[(15, 1), (21, 1), (24, 13)]]),
        ];
        for (die, playable, want) in cases {
            let (ends, n) = first_turn(start, same(die), head);
            assert_eq!(n, playable, "{head:?} {die}-{die}");
            assert_eq!(own_ends(&ends), set(want), "{head:?} {die}-{die}");
        }
    }
}

#[test]
fn whites_opening_doublets_under_fixed_4_6_and_any_double() {
    let start = nardy_start();
    // fixed_4_6: 3-3 takes one checker only, and it stops before Black's head.
    let (ends, n) = first_turn(start, same(3), HeadFirstTurn::Fixed46);
    assert_eq!((n, own_ends(&ends)), (3, set(&[&[(15, 1), (24, 14)]])));
    let (ends, n) = first_turn(start, same(4), HeadFirstTurn::Fixed46);
    assert_eq!((n, own_ends(&ends)), (4, set(&[&[(16, 2), (24, 13)]])));
    // any_double: 1-1 may take a second checker off the head.
    let (ends, n) = first_turn(start, same(1), HeadFirstTurn::AnyDouble);
    assert_eq!(n, 4);
    assert_eq!(
        own_ends(&ends),
        set(&[
            &[(20, 1), (24, 14)],
            &[(21, 1), (23, 1), (24, 13)],
            &[(22, 2), (24, 13)],
        ])
    );
    let (ends, n) = first_turn(start, same(5), HeadFirstTurn::AnyDouble);
    assert_eq!(n, 4);
    assert_eq!(
        own_ends(&ends),
        set(&[
            &[(4, 1), (24, 14)],
            &[(9, 1), (19, 1), (24, 13)],
            &[(14, 2), (24, 13)],
        ])
    );
}

/// Black's first turn after a White opening that closes the single
/// checker's path: `needs_second` lets a second checker leave the head,
/// `fixed_3_4_6` does not (5-5 and 2-2 are not among its doublets).
#[test]
fn blacks_first_turn_where_the_head_options_differ() {
    let start = nardy_start();
    // White 6-2: 24/16 (Black's 4). Black's 5-5: 24/19/14/9/4 is closed.
    // White 5-5: 24/4 (Black's 16). Black's 2-2: 24/22/20/18/16 is closed.
    let cases: [(StageDice, u8, Lists, Lists); 2] = [
        (
            StageDice::Pair(6, 2),
            5,
            &[&[(9, 1), (19, 1), (24, 13)], &[(14, 2), (24, 13)]],
            &[&[(9, 1), (24, 14)]],
        ),
        (
            same(5),
            2,
            &[&[(18, 1), (22, 1), (24, 13)], &[(20, 2), (24, 13)]],
            &[&[(18, 1), (24, 14)]],
        ),
    ];
    for (white, black_die, two, one) in cases {
        let (ends, _) = first_turn(start, white, HeadFirstTurn::NeedsSecond);
        assert_eq!(ends.len(), 1);
        let black = ends[0].pos.flipped();
        let (ends, n) = first_turn(black, same(black_die), HeadFirstTurn::NeedsSecond);
        assert_eq!(
            (n, own_ends(&ends)),
            (4, set(two)),
            "needs_second {white:?}"
        );
        for e in &ends {
            assert_eq!(e.pos.opp, black.opp);
        }
        let (ends, n) = first_turn(black, same(black_die), HeadFirstTurn::Fixed346);
        assert_eq!((n, own_ends(&ends)), (3, set(one)), "fixed_3_4_6 {white:?}");
        // any_double agrees with needs_second here, fixed_4_6 with fixed_3_4_6.
        let (ends, _) = first_turn(black, same(black_die), HeadFirstTurn::AnyDouble);
        assert_eq!(own_ends(&ends), set(two));
        let (ends, _) = first_turn(black, same(black_die), HeadFirstTurn::Fixed46);
        assert_eq!(own_ends(&ends), set(one));
    }
}

/// After the first turn, a doublet takes one checker off the head only.
#[test]
fn later_turns_take_one_checker_from_the_head() {
    // Both sides played 6-5 (24/13); White's second turn, 4-4. White's 12
    // (Black's head) and 1 (Black's 13) are closed: the head checker gets
    // to 16 at most, the one on 13 to 5.
    let p = pos(&[(24, 14), (13, 1)], &[(24, 14), (13, 1)]);
    for head in [
        HeadFirstTurn::NeedsSecond,
        HeadFirstTurn::Fixed346,
        HeadFirstTurn::Fixed46,
        HeadFirstTurn::AnyDouble,
    ] {
        let r = LongNardySteps::for_turn(p, same(4), false, head, SixBlock::EndOfTurn);
        assert_eq!(r.head_limit, 1, "{head:?}");
        let (ends, n) = nardy::stage_ends(p, same(4), r);
        assert_eq!(n, 4);
        assert_eq!(own_ends(&ends), set(&[&[(5, 1), (16, 1), (24, 13)]]));
    }
    // Had two been allowed, they would have left.
    let two = LongNardySteps {
        head_limit: 2,
        six_block: SixBlock::EndOfTurn,
        rows_possible: nardy::row_of_six_within(p.own, 4, nardy::forbidden_row_starts(p.opp)),
    };
    let (ends, n) = nardy::stage_ends(p, same(4), two);
    assert_eq!(n, 4);
    assert_eq!(
        own_ends(&ends),
        set(&[
            &[(5, 1), (16, 1), (24, 13)],
            &[(13, 1), (16, 2), (24, 12)],
            &[(9, 1), (16, 1), (20, 1), (24, 12)],
            &[(5, 1), (20, 2), (24, 12)],
        ])
    );
}

/// White holds its 20..24 (Black's 8..12); a 5 from the head to 19 (Black's
/// 7) would make six in a row along Black's path.
fn five_row(black: &[(usize, u8)]) -> Position {
    pos(
        &[(24, 10), (23, 1), (22, 1), (21, 1), (20, 1), (16, 1)],
        black,
    )
}

fn one_step_ends(p: Position, die: u8, six_block: SixBlock) -> BTreeSet<(usize, usize)> {
    let r = LongNardySteps {
        head_limit: 1,
        six_block,
        rows_possible: nardy::row_of_six_within(p.own, 1, nardy::forbidden_row_starts(p.opp)),
    };
    let (ends, n) = nardy::stage_ends(p, StageDice::Same { die, count: 1 }, r);
    assert_eq!(n, 1);
    ends.iter()
        .map(|e| {
            assert_eq!(e.play.len(), 1);
            let s = e.play.steps()[0];
            (usize::from(s.from), usize::from(s.to()))
        })
        .collect()
}

#[test]
fn six_in_a_row_needs_an_opposing_checker_ahead() {
    let all = |with_19: bool, with_15: bool| -> BTreeSet<(usize, usize)> {
        let mut v = vec![(23, 18), (22, 17), (21, 16), (16, 11)];
        if with_19 {
            v.push((24, 19));
        }
        if with_15 {
            v.push((20, 15));
        }
        v.into_iter().collect()
    };
    for six_block in [SixBlock::EndOfTurn, SixBlock::PerStep] {
        // Black all behind the row (its head and its 20, White's 8).
        let behind = five_row(&[(24, 14), (20, 1)]);
        assert_eq!(one_step_ends(behind, 5, six_block), all(false, true));
        // A Black checker on its 3 (White's 15) is ahead: the six stands
        // (and closes White's 15).
        let ahead = five_row(&[(24, 14), (3, 1)]);
        assert_eq!(one_step_ends(ahead, 5, six_block), all(true, false));
        // A Black checker borne off counts as ahead.
        let off = five_row(&[(24, 14)]);
        assert_eq!(one_step_ends(off, 5, six_block), all(true, true));
        // Checkers behind the row (Black's 13 and 24) do not help.
        let level = five_row(&[(24, 13), (13, 2)]);
        assert_eq!(one_step_ends(level, 5, six_block), all(false, true));
    }
}

/// White's 14..18 (Black's 2..6) and a checker on 21; Black on White's 20.
/// With 2-1, 21/19/18 passes through a six (Black's 2..7) that it breaks
/// again: legal when only the end counts, not per step (21/20/18 is closed).
#[test]
fn end_of_turn_and_per_step_differ() {
    let p = pos(
        &[
            (14, 1),
            (15, 1),
            (16, 1),
            (17, 1),
            (18, 1),
            (21, 1),
            (24, 9),
        ],
        &[(24, 14), (8, 1)],
    );
    let run = |six_block| {
        let r = LongNardySteps {
            head_limit: 1,
            six_block,
            rows_possible: nardy::row_of_six_within(p.own, 2, nardy::forbidden_row_starts(p.opp)),
        };
        nardy::stage_ends(p, StageDice::Pair(2, 1), r)
    };
    let (end_ends, n_end) = run(SixBlock::EndOfTurn);
    let (step_ends, n_step) = run(SixBlock::PerStep);
    assert_eq!((n_end, n_step), (2, 2));
    let end_set = own_ends(&end_ends);
    let step_set = own_ends(&step_ends);
    assert!(step_set.is_subset(&end_set));
    let only: Vec<_> = end_set.difference(&step_set).cloned().collect();
    assert_eq!(
        only,
        vec![vec![(14, 1), (15, 1), (16, 1), (17, 1), (18, 2), (24, 9)]]
    );
    // No end of either holds the six.
    for e in end_ends.iter().chain(&step_ends) {
        assert!(!nardy::has_illegal_block(e.pos.own, e.pos.opp));
    }
}

/// Leaves of the tree over the 21 rolls and each turn's distinct ends:
/// White's first turn, Black's first turn, White's second turn.
fn perft(
    p: Position,
    depth: u32,
    turn: u32,
    head: HeadFirstTurn,
    gen_out: &mut Vec<StageEnd>,
) -> u64 {
    let mut leaves = 0;
    for a in 1..=6 {
        for b in 1..=a {
            let dice = StageDice::from_roll(a, b);
            let r = LongNardySteps::for_turn(p, dice, turn < 2, head, SixBlock::EndOfTurn);
            MoveGen::with_rules(r).generate(p, dice, gen_out);
            if depth == 1 {
                leaves += gen_out.len() as u64;
                continue;
            }
            let next: Vec<Position> = gen_out.iter().map(|e| e.pos.flipped()).collect();
            for q in next {
                leaves += perft(q, depth - 1, turn + 1, head, gen_out);
            }
        }
    }
    leaves
}

#[test]
fn perft_from_the_start() {
    let mut out = Vec::new();
    for (head, want) in [
        (HeadFirstTurn::NeedsSecond, [22, 489, 35_722]),
        (HeadFirstTurn::Fixed346, [22, 484, 35_387]),
    ] {
        let got: Vec<u64> = (1..=3)
            .map(|d| perft(nardy_start(), d, 0, head, &mut out))
            .collect();
        assert_eq!(got, want, "{head:?}");
    }
}

/// White's 14..18 (Black's 2..6) and ten on the head, Black all on its head
/// (White's 12). With two 5s, 18/13 then 24/19 never holds six in a row
/// (18/13 first empties Black's 6), so it is legal even per step; 24/19
/// first would make Black's 2..7.
#[test]
fn per_step_lets_a_lower_checker_break_the_row_first() {
    let p = pos(
        &[(14, 1), (15, 1), (16, 1), (17, 1), (18, 1), (24, 10)],
        &[(24, 15)],
    );
    let want = vec![
        (13, 1),
        (14, 1),
        (15, 1),
        (16, 1),
        (17, 1),
        (19, 1),
        (24, 9),
    ];
    for six_block in [SixBlock::EndOfTurn, SixBlock::PerStep] {
        let r = LongNardySteps {
            head_limit: 1,
            six_block,
            rows_possible: nardy::row_of_six_within(p.own, 2, nardy::forbidden_row_starts(p.opp)),
        };
        let (ends, n) = nardy::stage_ends(p, StageDice::Same { die: 5, count: 2 }, r);
        assert_eq!(n, 2);
        assert!(own_ends(&ends).contains(&want), "{six_block:?}");
    }
}

/// White's 15 checkers three each on its 14..18 (Black's 2..6); Black on
/// its 20..24 (White's 8..12). With 5-1 the only 5 is 18/13 (14/13/8 and
/// 18/13/12 are closed too), and every play
/// of both dice ends with White's 13..18 (Black's 1..6) held: not legal, so
/// one die is played, and not the 5 (it makes the six too): the 1, inside
/// the row.
#[test]
fn a_six_that_cannot_be_avoided_costs_a_die() {
    let p = pos(
        &[(14, 3), (15, 3), (16, 3), (17, 3), (18, 3)],
        &[(20, 1), (21, 1), (22, 1), (23, 1), (24, 11)],
    );
    for six_block in [SixBlock::EndOfTurn, SixBlock::PerStep] {
        let r = LongNardySteps {
            head_limit: 1,
            six_block,
            rows_possible: nardy::row_of_six_within(p.own, 2, nardy::forbidden_row_starts(p.opp)),
        };
        let (ends, n) = nardy::stage_ends(p, StageDice::Pair(5, 1), r);
        assert_eq!(n, 1, "{six_block:?}");
        let froms: BTreeSet<(u8, u8)> = ends
            .iter()
            .map(|e| (e.play.steps()[0].from, e.play.steps()[0].die))
            .collect();
        assert_eq!(froms, BTreeSet::from([(18, 1), (17, 1), (16, 1), (15, 1)]));
    }
}
