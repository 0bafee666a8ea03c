//! The seeded random streams, pinned: the dice of seeded games, the random
//! player's picks, whole seeded games and matches, and a seeded network's
//! first weights.
//!
//! Seeded games, matches and training runs must give the same results on
//! every build. Their dice, the random players and a new network's weights
//! come from `rand`'s `StdRng`, whose output `rand` does not promise to keep
//! from one version to the next, so Cargo.toml pins the exact versions of
//! `rand`, `rand_core` and `chacha20`. If one of these values changes, the
//! stream changed, and every seeded result with it. (Rollouts draw their
//! dice from their own splitmix64, independent of any crate.)

use std::process::Command;

mod common;

use gulbara::eval::net::Net;
use gulbara::game::{Chooser, RandomChooser, play_choosers};
use gulbara::rules::dice::{DiceSource, SeededDice};
use gulbara::rules::{
    GameResult, GameState, RuleOptions, Side, StageDice, StageEnd, Variant, stage_ends,
};
use serde_json::{Value, json};

fn dice(seed: u64, n: usize) -> Vec<u8> {
    let mut d = SeededDice::new(seed);
    (0..n).map(|_| d.die()).collect()
}

#[test]
fn seeded_dice_are_pinned() {
    assert_eq!(
        dice(0, 24),
        [
            5, 5, 4, 5, 5, 1, 5, 4, 6, 2, 1, 5, 1, 2, 5, 5, 4, 5, 4, 6, 6, 6, 2, 1
        ]
    );
    assert_eq!(
        dice(1, 24),
        [
            5, 6, 5, 5, 2, 3, 2, 2, 5, 2, 4, 6, 5, 3, 6, 5, 1, 4, 1, 3, 4, 2, 3, 1
        ]
    );
    assert_eq!(
        dice(20261203, 24),
        [
            5, 4, 6, 1, 6, 4, 1, 6, 5, 6, 5, 6, 6, 3, 2, 5, 1, 2, 1, 3, 3, 2, 5, 2
        ]
    );
}

/// `n` stage ends to choose among (copies of one: the chooser only counts).
fn ends(n: usize) -> Vec<StageEnd> {
    let state = GameState::start_of(Variant::Backgammon, Side::White);
    let (ends, _) = stage_ends(state.pos, StageDice::Pair(6, 5));
    vec![ends[0]; n]
}

#[test]
fn random_player_picks_are_pinned() {
    let state = GameState::start_of(Variant::Backgammon, Side::White);
    let sizes = [2usize, 3, 5, 7, 11, 13, 20, 31, 100, 1000];
    let picks = |seed: u64| -> Vec<usize> {
        let mut c = RandomChooser::new(seed);
        sizes.iter().map(|&n| c.choose(&state, &ends(n))).collect()
    };
    assert_eq!(picks(0), [1, 2, 2, 5, 8, 0, 13, 18, 87, 262]);
    assert_eq!(picks(7), [0, 0, 0, 2, 0, 1, 13, 16, 61, 272]);
}

#[test]
fn a_seeded_random_game_is_pinned() {
    for (variant, turns) in [(Variant::GulBara, 48), (Variant::Backgammon, 200)] {
        let g = play_choosers(
            &RuleOptions::for_variant(variant),
            &mut SeededDice::new(5),
            &mut RandomChooser::new(5),
            &mut RandomChooser::new(6),
        );
        assert_eq!(g.openings, [(2, 3)], "{variant:?}");
        assert_eq!(g.starter, Side::Black, "{variant:?}");
        assert_eq!(g.turns.len(), turns, "{variant:?}");
        assert_eq!(
            g.result,
            GameResult {
                winner: Some(Side::White),
                points: 2
            },
            "{variant:?}"
        );
    }
}

#[test]
fn seeded_network_weights_are_pinned() {
    let net = Net::random(8, 3);
    let bits: Vec<u32> = net.w1[..6].iter().map(|w| w.to_bits()).collect();
    assert_eq!(
        bits,
        [
            0x3cf1b8a0, 0xbda5cd65, 0x3dc4da5f, 0xbcf1af2d, 0xbd9269d3, 0xbd817f3b
        ]
    );
}

/// A seeded match of the heuristic player against the random one (whose
/// picks are seeded per position and roll) through the real binary.
#[test]
fn a_seeded_match_is_pinned() {
    for (variant, want) in [
        (
            "gulbara",
            json!({"wins": [7, 1], "mars": [5, 0], "ppg": 1.375, "stuck": 0}),
        ),
        (
            "backgammon",
            json!({"wins": [8, 0], "mars": [7, 0], "ppg": 2.25, "stuck": 0}),
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gulbara"))
            .args([
                "match",
                "--engine",
                "cmd=builtin:heuristic",
                "name=heuristic",
            ])
            .args(common::RANDOM_ENGINE)
            .args([
                "--games",
                "8",
                "--seed",
                "11",
                "--variant",
                variant,
                "--json",
                "--no-progress",
            ])
            .output()
            .expect("gulbara runs");
        assert!(out.status.success(), "{out:?}");
        let got: Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
        for key in ["wins", "mars", "ppg", "stuck"] {
            assert_eq!(got[key], want[key], "{variant}: {key} in {got}");
        }
    }
}
