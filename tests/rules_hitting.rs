//! The hitting games' stage generation (short nardy, backgammon) on
//! hand-built positions: hits (one on the way with both dice), entering from
//! the bar, a dance, a hit while bearing off, bearing off with higher dice,
//! Portes's last checker borne off by both dice (`2/1* 1/off`, not `2/off`);
//! and the peer engine's backgammon (`O:`) cases of
//! shared/peer-vectors/tricky.json.

mod common;
mod variants_common;

use std::collections::BTreeSet;

use gulbara::rules::hitting;
use gulbara::rules::position::BAR;
use gulbara::rules::{Position, StageDice, StageEnd, Step};
use variants_common::{
    End, Side, all_rolls, ends_set, naive_hitting, position_of, side_from, total,
};

/// A position from the mover's and the opponent's `(point, count)` lists,
/// each in its own numbering (25 the bar), the rest borne off.
fn pos(own: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
    position_of(&side_from(own), &side_from(opp))
}

fn end(own: &[(usize, u8)], opp: &[(usize, u8)]) -> End {
    (side_from(own), side_from(opp))
}

/// Runs the generator; checks it against the naive reference too.
fn run(p: Position, dice: StageDice) -> (Vec<StageEnd>, u8, BTreeSet<End>) {
    let (ends, n) = hitting::stage_ends(p, dice);
    let set = ends_set(&ends).unwrap();
    let naive = naive_hitting(p, dice);
    assert_eq!((&set, n), (&naive.ends, naive.playable), "{p:?} {dice:?}");
    (ends, n, set)
}

#[test]
fn a_hit_on_the_way_is_its_own_end() {
    // A blot on the opponent's 18 (the mover's 7): 13/7*/4 and 13/10/4 end
    // on the same point, one with the blot on the bar.
    let opp = [(18, 1), (1, 14)];
    let p = pos(&[(13, 1)], &opp);
    let (ends, n, set) = run(p, StageDice::Pair(6, 3));
    assert_eq!(n, 2);
    assert_eq!(
        set,
        BTreeSet::from([end(&[(4, 1)], &[(25, 1), (1, 14)]), end(&[(4, 1)], &opp)])
    );
    let hit = ends.iter().find(|e| e.pos.opp.bar() == 1).unwrap();
    assert_eq!(hit.play.steps(), &[Step::new(13, 6), Step::new(7, 3)]);
    assert!(hitting::step_hits(p, Step::new(13, 6)));
    // A single die hits and stops there.
    let (_, n, set) = run(p, StageDice::Same { die: 6, count: 1 });
    assert_eq!(n, 1);
    assert_eq!(set, BTreeSet::from([end(&[(7, 1)], &[(25, 1), (1, 14)])]));
}

#[test]
fn one_on_the_bar_enters_first() {
    // The opponent holds its 6 (the mover's 19): a 6 cannot enter.
    let opp = [(6, 2), (1, 13)];
    let p = pos(&[(25, 1), (8, 2)], &opp);
    let (ends, n, set) = run(p, StageDice::Pair(6, 4));
    assert_eq!(n, 2);
    assert_eq!(
        set,
        BTreeSet::from([
            end(&[(15, 1), (8, 2)], &opp),
            end(&[(21, 1), (8, 1), (2, 1)], &opp),
        ])
    );
    for e in &ends {
        assert_eq!(e.play.steps()[0], Step::new(BAR, 4));
    }
    // Nothing else moves while a checker is on the bar.
    assert!(hitting::step_problem(p, Step::new(8, 4)).is_some());
    assert!(hitting::step_problem(p, Step::new(BAR, 6)).is_some());
    assert_eq!(hitting::step_problem(p, Step::new(BAR, 4)), None);
}

#[test]
fn two_on_the_bar_and_one_die_enters() {
    let opp = [(6, 2), (1, 13)];
    let p = pos(&[(25, 2), (13, 3)], &opp);
    let (ends, n, set) = run(p, StageDice::Pair(6, 4));
    assert_eq!(n, 1);
    assert_eq!(
        set,
        BTreeSet::from([end(&[(25, 1), (21, 1), (13, 3)], &opp)])
    );
    assert_eq!(ends[0].play.steps(), &[Step::new(BAR, 4)]);
}

#[test]
fn a_doublet_enters_two_and_moves_on() {
    // The opponent's 15 all on its 8 (the mover's 17), off every path.
    let opp = [(8, 15)];
    let p = pos(&[(25, 2), (13, 2)], &opp);
    let (ends, n, set) = run(p, StageDice::Same { die: 3, count: 4 });
    assert_eq!(n, 4);
    let want: BTreeSet<End> = [
        &[(22, 1), (16, 1), (13, 2)][..],
        &[(19, 2), (13, 2)],
        &[(22, 1), (19, 1), (13, 1), (10, 1)],
        &[(22, 2), (13, 1), (7, 1)],
        &[(22, 2), (10, 2)],
    ]
    .iter()
    .map(|own| end(own, &opp))
    .collect();
    assert_eq!(set, want);
    for e in &ends {
        assert_eq!(
            &e.play.steps()[..2],
            &[Step::new(BAR, 3), Step::new(BAR, 3)]
        );
    }
}

#[test]
fn a_dance_on_a_closed_board() {
    let opp: Vec<(usize, u8)> = (1..=6).map(|q| (q, 2)).chain([(12, 3)]).collect();
    let p = pos(&[(25, 1), (13, 5), (6, 9)], &opp);
    for dice in all_rolls() {
        let (ends, n, _) = run(p, dice);
        assert_eq!(n, 0, "{dice:?}");
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos, p);
        assert!(ends[0].play.is_empty());
    }
}

#[test]
fn a_hit_while_bearing_off() {
    // The mover on its 6 and 4 (13 off), an opposing blot on the mover's 2
    // (the opponent's 23) and one opposing checker on the bar.
    let opp = [(23, 1), (25, 1), (1, 13)];
    let hit = [(25, 2), (1, 13)];
    let p = pos(&[(6, 1), (4, 1)], &opp);
    let (_, n, set) = run(p, StageDice::Pair(4, 2));
    assert_eq!(n, 2);
    assert_eq!(
        set,
        BTreeSet::from([
            // 6/2* 4/2 (or 4/2* 6/2).
            end(&[(2, 2)], &hit),
            // 6/2* 2/off.
            end(&[(4, 1)], &hit),
            // 6/4 4/off (or 4/off 6/4).
            end(&[(4, 1)], &opp),
        ])
    );
}

#[test]
fn bearing_off_with_higher_dice() {
    let opp = [(25, 1), (1, 14)];
    // 6 and 5 bear off the 3 and the 2, in either order: the game is over.
    let p = pos(&[(3, 1), (2, 1)], &opp);
    let (ends, n, set) = run(p, StageDice::Pair(6, 5));
    assert_eq!((n, set.len()), (2, 1));
    assert_eq!(ends[0].pos.own.off(), 15);
    assert!(ends[0].pos.is_over());
    // The last checker off with the first die ends the play.
    let p = pos(&[(2, 1)], &opp);
    let (ends, n, _) = run(p, StageDice::Same { die: 6, count: 4 });
    assert_eq!((n, ends.len(), ends[0].play.len()), (4, 1, 1));
    // gnubg's rule: a play that uses both dice goes first, so with 2-1 and
    // an opposing blot on the 1 the last checker must hit on its way off
    // (2/1*/off); 2/off, one die, is not a play (checked in gnubg 1.07).
    let blot = [(24, 1), (6, 14)];
    let p = pos(&[(2, 1)], &blot);
    for dice in [StageDice::Pair(2, 1), StageDice::Pair(6, 1)] {
        let (ends, n, _) = run(p, dice);
        assert_eq!((n, ends.len()), (2, 1), "{dice:?}");
        assert_eq!(ends[0].pos.opp.bar(), 1, "{dice:?}");
        assert_eq!(ends[0].pos.own.off(), 15, "{dice:?}");
    }
    // A higher die only from the highest point: with the 5 held, a 6 bears
    // off from the 5, not from the 2.
    let p = pos(&[(5, 1), (2, 2)], &opp);
    let (_, n, set) = run(p, StageDice::Same { die: 6, count: 1 });
    assert_eq!(n, 1);
    assert_eq!(set, BTreeSet::from([end(&[(2, 2)], &opp)]));
    assert!(hitting::step_problem(p, Step::new(2, 6)).is_some());
}

// ------------------------------------------------------- tricky.json `O:`

/// Seat 0's and seat 1's sides from an `O:` code: 24 tokens for seat 0's
/// points 1..24 (positive seat 0, negative seat 1, whose point p is seat
/// 0's 25 − p), then `|bar0,bar1|off0,off1`.
fn parse_o(code: &str) -> [Side; 2] {
    let body = code.strip_prefix("O:").expect("an O: code");
    let parts: Vec<&str> = body.split('|').collect();
    assert_eq!(parts.len(), 3, "{code}");
    let points: Vec<&str> = parts[0].split(',').collect();
    assert_eq!(points.len(), 24, "{code}");
    let mut sides = [[0u8; 26]; 2];
    for (i, t) in points.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        let n: i32 = t.parse().unwrap();
        let p = i + 1;
        if n > 0 {
            sides[0][p] = n as u8;
        } else if n < 0 {
            sides[1][25 - p] = (-n) as u8;
        }
    }
    let pair = |s: &str| -> Vec<u8> { s.split(',').map(|x| x.parse().unwrap()).collect() };
    let bar = pair(parts[1]);
    let off = pair(parts[2]);
    for seat in 0..2 {
        sides[seat][25] = bar[seat];
        sides[seat][0] = off[seat];
        assert_eq!(total(&sides[seat]), 15, "{code} seat {seat}");
    }
    sides
}

/// The position from `seat`'s view.
fn view(sides: &[Side; 2], seat: usize) -> Position {
    position_of(&sides[seat], &sides[1 - seat])
}

#[test]
fn tricky_backgammon_cases() {
    let json = common::peer_vector("tricky.json");
    let mut done = 0;
    for case in json["cases"].as_array().unwrap() {
        let code = case["position"].as_str().unwrap();
        if !code.starts_with("O:") {
            continue;
        }
        let name = case["name"].as_str().unwrap();
        let seat = case["seat"].as_u64().unwrap() as usize;
        let p = view(&parse_o(code), seat);
        let stage = common::stage_dice(&common::case_dice(case));
        let mut want = BTreeSet::new();
        for e in case["ends"].as_array().unwrap() {
            let q = view(&parse_o(e["position"].as_str().unwrap()), seat);
            // Their play replays to their end: the reading of the code holds.
            let mut cur = p;
            for s in e["steps"].as_array().unwrap() {
                let s = Step::new(s[0].as_u64().unwrap() as u8, s[1].as_u64().unwrap() as u8);
                assert_eq!(hitting::step_problem(cur, s), None, "{name}: {s:?}");
                cur = hitting::apply_step(cur, s);
            }
            assert_eq!(cur, q, "{name}");
            assert_eq!(e["end"] == "borneOff", q.own.off() == 15, "{name}");
            want.insert((
                variants_common::side_of(q.own),
                variants_common::side_of(q.opp),
            ));
        }
        let (ends, n) = hitting::stage_ends(p, stage);
        let got = ends_set(&ends).unwrap();
        let playable = case["playableDice"].as_u64().unwrap() as u8;
        assert_eq!((n, &got), (playable, &want), "{name}");
        let naive = naive_hitting(p, stage);
        assert_eq!(
            (naive.playable, &naive.ends),
            (playable, &want),
            "{name} (naive)"
        );
        done += 1;
    }
    assert_eq!(done, 14);
}

/// Portes (Greek backgammon, a preset of the hitting rules): White's last
/// checker on its 2 and a black blot on White's 1, 2-1 to play. The play
/// of both dice, `2/1* 1/off`, is the only legal one; `2/off`, one die, is
/// refused, as gnubg has it (issue 49's independent check had `2/off`). The
/// game, the referee's `play_stage` and the play's text, through
/// `StageGen` with Portes's options.
#[test]
fn portes_bears_off_the_last_checker_with_both_dice() {
    use gulbara::notation::play_text_at;
    use gulbara::rules::{GameState, RuleOptions, Side as Colour, StageGen, Variant};
    let opts = RuleOptions::for_variant(Variant::Portes);
    let mut s = GameState::start_of(Variant::Portes, Colour::White);
    s.pos = pos(&[(2, 1)], &[(24, 1), (6, 14)]);
    s.rolls = [9, 9];
    let s = s.roll(&opts, 2, 1).unwrap();
    let (mut stages, mut ends) = (StageGen::new(), Vec::new());
    let dice = s.stage_dice().unwrap();
    assert_eq!(dice, StageDice::Pair(2, 1));
    let n = stages.generate(&opts, &s, dice, &mut ends);
    assert_eq!((n, ends.len()), (2, 1));
    let both = [Step::new(2, 1), Step::new(1, 2)];
    assert_eq!(ends[0].play.steps(), &both);
    assert_eq!(play_text_at(Variant::Portes, s.pos, &both), "2/1* 1/off");
    let one = s.play_stage(&opts, &mut stages, &mut ends, &[Step::new(2, 2)]);
    assert!(one.is_err(), "2/off was accepted");
    let done = s.play_stage(&opts, &mut stages, &mut ends, &both).unwrap();
    let r = done.result().unwrap();
    // White wins a gammon: Black has borne off none (Portes scores 2, no
    // backgammon, though Black has a checker on the bar).
    assert_eq!((r.winner, r.points), (Some(Colour::White), 2));
}
