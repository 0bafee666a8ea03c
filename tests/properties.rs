//! Property tests of the rules core over random reachable states (random
//! seeded walks through games under random rule options) and random
//! position texts: checker conservation, one colour per point, validation
//! agreeing with generation, position text round trips.

mod rules_common;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rules_common::{board_of, mover_arrays, naive_legal, naive_move};

use gulbara::notation::{parse_state_text, state_text, white_view};
use gulbara::rules::options::{ExemptScope, RemainderRule};
use gulbara::rules::position::other_numbering;
use gulbara::rules::state::apply_steps;
use gulbara::rules::{GameState, MoveGen, Pending, RuleOptions, Side, StageEnd, Step};

fn options() -> impl Strategy<Value = RuleOptions> {
    (0u32..=3, any::<bool>(), any::<bool>()).prop_map(|(exempt, game, lost)| {
        let mut o = RuleOptions {
            exempt_rolls: exempt,
            ..RuleOptions::default()
        };
        if game {
            o.exempt_scope = ExemptScope::Game;
        }
        if lost {
            o.remainder = RemainderRule::Lost;
        }
        o
    })
}

/// The states a random walk through a game meets: after every roll and
/// every stage, up to `len` of them (fewer when the game ends).
fn walk(seed: u64, len: usize, opts: &RuleOptions) -> Vec<GameState> {
    let mut rng = StdRng::seed_from_u64(seed);
    let first = if rng.random_range(0..2) == 0 {
        Side::White
    } else {
        Side::Black
    };
    let mut s = GameState::start(first);
    let mut mg = MoveGen::new();
    let mut ends = Vec::new();
    let mut out = vec![s];
    while out.len() < len && s.result().is_none() {
        s = match s.stage_dice() {
            None => s
                .roll(opts, rng.random_range(1..=6), rng.random_range(1..=6))
                .expect("a live game in the Roll state may roll"),
            Some(dice) => {
                let n = mg.generate(s.pos, dice, &mut ends);
                let e = ends[rng.random_range(0..ends.len())];
                s.after_stage(opts, e.pos, n)
            }
        };
        out.push(s);
    }
    out
}

/// Checker conservation and one colour per point, in the packed position
/// and in the White view.
fn check_board(s: &GameState) -> Result<(), TestCaseError> {
    let (white, black) = match s.to_move {
        Side::White => (s.pos.own, s.pos.opp),
        Side::Black => (s.pos.opp, s.pos.own),
    };
    for side in [white, black] {
        let on: u32 = (1..=24u8).map(|p| u32::from(side.at(p))).sum();
        prop_assert_eq!(on + u32::from(side.off()), 15, "{}", state_text(s));
    }
    let view = white_view(s);
    let mut on_view = [0u32; 2];
    for p in 1..=24u8 {
        let w = white.at(p);
        let b = black.at(other_numbering(p));
        prop_assert!(w == 0 || b == 0, "two colours on {}: {}", p, state_text(s));
        let v = view[p as usize - 1];
        prop_assert_eq!(i32::from(v), i32::from(w) - i32::from(b));
        if v > 0 {
            on_view[0] += v as u32;
        } else {
            on_view[1] += u32::from(v.unsigned_abs());
        }
    }
    prop_assert_eq!(on_view[0] + u32::from(white.off()), 15);
    prop_assert_eq!(on_view[1] + u32::from(black.off()), 15);
    Ok(())
}

/// Whether `steps` should be accepted, by the naive rules: each step legal
/// in turn with a die still unused, nothing after the last checker, the end
/// among the generated ones, and all playable dice used unless the last
/// checker went off.
fn expected_ok(s: &GameState, ends: &[StageEnd], playable: u8, steps: &[Step]) -> bool {
    let (mut own, blocked) = mover_arrays(&board_of(s.pos, s.to_move), s.to_move);
    let mut left = s.stage_dice().unwrap().dice();
    let mut all_off = false;
    for st in steps {
        if all_off {
            return false;
        }
        let Some(k) = left.iter().position(|&d| d == st.die) else {
            return false;
        };
        if !naive_legal(&own, &blocked, st.from as usize, st.die as usize) {
            return false;
        }
        left.swap_remove(k);
        all_off = naive_move(&mut own, st.from as usize, st.die as usize);
    }
    let mut end = s.pos;
    for st in steps {
        end.own = end.own.moved(st.from, st.to());
    }
    (steps.len() == usize::from(playable) || all_off) && ends.iter().any(|e| e.pos == end)
}

/// A random list of steps, mostly legal ones with the stage's dice.
fn random_steps(rng: &mut StdRng, s: &GameState) -> Vec<Step> {
    let (mut own, blocked) = mover_arrays(&board_of(s.pos, s.to_move), s.to_move);
    let mut left = s.stage_dice().unwrap().dice();
    let len = rng.random_range(0..=left.len() + 1);
    let mut out = Vec::new();
    for _ in 0..len {
        let die = if !left.is_empty() && rng.random_range(0..100) < 90 {
            left[rng.random_range(0..left.len())]
        } else {
            rng.random_range(1..=6)
        };
        let legal: Vec<usize> = (1..=24)
            .filter(|&f| naive_legal(&own, &blocked, f, die as usize))
            .collect();
        let from = if !legal.is_empty() && rng.random_range(0..100) < 85 {
            legal[rng.random_range(0..legal.len())]
        } else {
            rng.random_range(1..=24)
        };
        out.push(Step::new(from as u8, die));
        if let Some(k) = left.iter().position(|&d| d == die) {
            left.swap_remove(k);
        }
        if naive_legal(&own, &blocked, from, die as usize) {
            naive_move(&mut own, from, die as usize);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn checkers_are_conserved_and_points_hold_one_colour(
        seed in any::<u64>(),
        len in 1usize..600,
        opts in options(),
    ) {
        for s in walk(seed, len, &opts) {
            check_board(&s)?;
            // The roll counters only grow by rolls: never more than the
            // states walked.
            prop_assert!(s.rolls[0] + s.rolls[1] <= len as u32);
        }
    }

    #[test]
    fn every_generated_play_is_accepted(
        seed in any::<u64>(),
        len in 1usize..150,
        opts in options(),
    ) {
        let mut mg = MoveGen::new();
        let mut ends = Vec::new();
        let mut check = Vec::new();
        for s in walk(seed, len, &opts) {
            let Some(dice) = s.stage_dice() else { continue };
            let n = mg.generate(s.pos, dice, &mut ends);
            // At most 12 ends per stage, spread over the list.
            let stride = ends.len().div_ceil(12);
            for e in ends.iter().step_by(stride).copied().collect::<Vec<_>>() {
                let steps = e.play.steps();
                let pos = apply_steps(s.pos, dice, steps, 0);
                prop_assert_eq!(pos, Ok(e.pos));
                let next = s.play_stage(&opts, &mut gulbara::rules::StageGen::new(), &mut check, steps);
                prop_assert_eq!(next, Ok(s.after_stage(&opts, e.pos, n)));
            }
        }
    }

    #[test]
    fn random_step_lists_are_accepted_iff_they_reach_a_full_end(
        seed in any::<u64>(),
        len in 1usize..150,
        opts in options(),
    ) {
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5157_4550);
        let mut mg = MoveGen::new();
        let mut ends = Vec::new();
        let mut check = Vec::new();
        let (mut accepted, mut rejected) = (0, 0);
        for s in walk(seed, len, &opts) {
            let Some(dice) = s.stage_dice() else { continue };
            let n = mg.generate(s.pos, dice, &mut ends);
            for _ in 0..6 {
                let steps = random_steps(&mut rng, &s);
                let want = expected_ok(&s, &ends, n, &steps);
                let got = s.play_stage(&opts, &mut gulbara::rules::StageGen::new(), &mut check, &steps);
                prop_assert_eq!(
                    got.is_ok(), want,
                    "{} {:?}: {:?}", state_text(&s), steps, got
                );
                if let Ok(next) = got {
                    accepted += 1;
                    let mut end = s.pos;
                    for st in &steps {
                        end.own = end.own.moved(st.from, st.to());
                    }
                    prop_assert_eq!(next, s.after_stage(&opts, end, n));
                } else {
                    rejected += 1;
                }
            }
        }
        // Both answers occur over a walk of some length.
        prop_assert!(len < 60 || (accepted > 0 && rejected > 0), "{} {}", accepted, rejected);
    }

    #[test]
    fn reachable_states_round_trip_through_position_text(
        seed in any::<u64>(),
        len in 1usize..800,
        opts in options(),
    ) {
        for s in walk(seed, len, &opts) {
            let text = state_text(&s);
            match s.pending {
                // Between a roll and its first stage the dice are not part
                // of the position text (the protocol sends them apart).
                Pending::Roll2 { .. } | Pending::Chain { first: true, .. } => {
                    prop_assert!(!text.contains("chain=") && !text.contains("rem="), "{}", text);
                }
                _ => {
                    let back = parse_state_text(&text);
                    prop_assert_eq!(back, Ok(s), "{}", text);
                }
            }
        }
    }

    #[test]
    fn position_text_round_trips(
        white in proptest::collection::vec(0u8..=24, 15),
        black in proptest::collection::vec(0u8..=24, 15),
        to_move in any::<bool>(),
        rolls in (0u32..500, 0u32..500),
        pending in 0u8..3,
        die in 1u8..=6,
        count in 1u8..=4,
        stuck in 0u32..100,
    ) {
        // White-view counts: White's checkers on its points (0 = off),
        // Black's on its own points, moved off when the point is White's.
        let mut counts = [0i8; 24];
        for &p in &white {
            if p > 0 {
                counts[p as usize - 1] += 1;
            }
        }
        for &q in &black {
            if q > 0 {
                let w = other_numbering(q) as usize - 1;
                if counts[w] <= 0 {
                    counts[w] -= 1;
                }
            }
        }
        let finished = counts.iter().all(|&c| c <= 0) || counts.iter().all(|&c| c >= 0);
        let mut text = format!(
            "{} {} {} {}",
            counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            if to_move { "w" } else { "b" },
            rolls.0,
            rolls.1
        );
        let chain_die = die.max(2);
        match pending {
            1 => text.push_str(&format!(" chain={chain_die}")),
            2 => text.push_str(&format!(" rem={die}x{count}")),
            _ => {}
        }
        if stuck > 0 {
            text.push_str(&format!(" stuck={stuck}"));
        }
        let parsed = parse_state_text(&text);
        if finished && pending != 0 {
            // A side with every checker off: the game is over, and a
            // finished game has no pending stage.
            prop_assert!(parsed.is_err(), "{}", text);
            return Ok(());
        }
        if counts.iter().all(|&c| c == 0) {
            prop_assert!(parsed.is_err(), "{}", text);
            return Ok(());
        }
        let s = parsed.map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(state_text(&s), text.clone());
        prop_assert_eq!(white_view(&s), counts);
        prop_assert_eq!(s.to_move, if to_move { Side::White } else { Side::Black });
        prop_assert_eq!(s.rolls, [rolls.0, rolls.1]);
        prop_assert_eq!(s.stuck, stuck);
        let want = match pending {
            1 => Pending::Chain { die: chain_die, first: false },
            2 => Pending::Remainder { die, count },
            _ => Pending::Roll,
        };
        prop_assert_eq!(s.pending, want);
        check_board(&s)?;
        // Empty tokens read as 0.
        let sparse = text.replace(",0", ",").replacen("0,", ",", usize::from(text.starts_with("0,")));
        prop_assert_eq!(parse_state_text(&sparse), Ok(s), "{}", sparse);
    }
}

#[test]
fn the_walks_reach_chains_remainders_and_game_ends() {
    // So that the properties above are about something: random walks under
    // exempt_rolls 0 meet chain stages, remainders and finished games.
    let opts = RuleOptions {
        exempt_rolls: 0,
        ..RuleOptions::default()
    };
    let (mut chains, mut remainders, mut ends) = (0, 0, 0);
    for seed in 0..20 {
        for s in walk(seed, 5000, &opts) {
            match s.pending {
                Pending::Chain { first: false, .. } => chains += 1,
                Pending::Remainder { .. } => remainders += 1,
                _ => {}
            }
            if s.result().is_some() {
                ends += 1;
            }
        }
    }
    assert!(
        chains > 50 && remainders > 20 && ends == 20,
        "{chains} {remainders} {ends}"
    );
}
