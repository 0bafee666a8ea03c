//! Hand-built positions for each rule and each rule option, written as
//! position text (points 1..24 in White's numbering, White positive, Black
//! negative; then the side to move and the rolls White and Black have
//! made). Black's own point q is White's q+12 (q ≤ 12) or q−12 (q > 12);
//! steps are written in the mover's own numbering. Every expectation below
//! was worked out by hand; the comments show the working.

use gulbara::game::{RandomChooser, StageRecord, play_choosers};
use gulbara::notation::{apply_moves, parse_state_text, state_text, white_view};
use gulbara::rules::dice::{DiceSource, SeededDice};
use gulbara::rules::options::{ExemptScope, Opening, RemainderRule};
use gulbara::rules::{
    GameResult, GameState, MoveGen, Pending, PlayError, RuleOptions, Side, StageDice, StageEnd,
    Step,
};

fn state(text: &str) -> GameState {
    parse_state_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Steps as (from, die) in the mover's numbering.
fn steps(list: &[(u8, u8)]) -> Vec<Step> {
    list.iter().map(|&(f, d)| Step::new(f, d)).collect()
}

/// The number of playable dice and of distinct ends of the pending stage.
fn stage_info(s: &GameState) -> (u8, usize) {
    let mut ends = Vec::new();
    let n = MoveGen::new().generate(s.pos, s.stage_dice().expect("a stage"), &mut ends);
    (n, ends.len())
}

fn play(s: &GameState, opts: &RuleOptions, list: &[(u8, u8)]) -> GameState {
    let mut mg = gulbara::rules::StageGen::new();
    let mut ends = Vec::new();
    s.play_stage(opts, &mut mg, &mut ends, &steps(list))
        .unwrap_or_else(|e| panic!("{} {list:?}: {e}", state_text(s)))
}

fn try_play(s: &GameState, opts: &RuleOptions, list: &[(u8, u8)]) -> Result<GameState, PlayError> {
    let mut mg = gulbara::rules::StageGen::new();
    let mut ends = Vec::new();
    s.play_stage(opts, &mut mg, &mut ends, &steps(list))
}

fn opts_with(name: &str, value: &str) -> RuleOptions {
    let mut o = RuleOptions::default();
    o.set(name, value).unwrap();
    o
}

/// White: one runner on 24, and 5, 5, 4 checkers on 1, 2, 3 that cannot
/// move a 3 or a 4 (that would bear off, and the runner is not home).
/// Black: one checker on White's 4 (its own 16), 14 on White's 7 (its 19).
/// White has made 3 rolls, so its next doublet escalates.
const CHAIN_AT_FOURS: &str = "5,5,4,-1,0,0,-14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1 w 3 3";

#[test]
fn chain_broken_at_fours_passes_its_remainder_to_the_opponent() {
    let o = RuleOptions::default();
    let s = state(CHAIN_AT_FOURS);
    let s = s.roll(&o, 3, 3).unwrap();
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 3,
            first: true
        }
    );
    assert_eq!(s.rolls, [4, 3]);
    // Stage of four 3s: only the runner moves, 24/21/18/15/12 (21, 18, 15,
    // 12 are open): one end, all four dice.
    assert_eq!(stage_info(&s), (4, 1));
    let s = play(&s, &o, &[(24, 3), (21, 3), (18, 3), (15, 3)]);
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 4,
            first: false
        }
    );
    assert_eq!(s.to_move, Side::White);
    assert_eq!(
        state_text(&s),
        "5,5,4,-1,0,0,-14,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0 w 4 3 chain=4"
    );
    // Stage of four 4s: 12/8, then 8/4 is closed by Black: one die only.
    assert_eq!(stage_info(&s), (1, 1));
    // Fewer steps than can be played is rejected, and changes nothing.
    assert!(matches!(
        try_play(&s, &o, &[]),
        Err(PlayError::TooFewSteps {
            playable: 1,
            given: 0,
            ..
        })
    ));
    let s = play(&s, &o, &[(12, 4)]);
    // The chain stops: the three unplayed 4s, then four 5s and four 6s,
    // pass to Black, who plays them before rolling. No roll was made.
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Remainder { die: 4, count: 3 });
    assert_eq!(s.rolls, [4, 3]);
    assert_eq!(s.stage_dice(), Some(StageDice::Same { die: 4, count: 3 }));
    assert_eq!(
        state_text(&s),
        "5,5,4,-1,0,0,-14,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 b 4 3 rem=4x3"
    );
    // Black (own numbering): 14 on 19 (19/15, 19/14, 19/13 land on White's
    // 3, 2, 1: closed), one on 16. Three 4s: 16/12/8/4 (White's 24, 20, 16
    // are open), forced.
    assert_eq!(stage_info(&s), (3, 1));
    let s = play(&s, &o, &[(16, 4), (12, 4), (8, 4)]);
    assert_eq!(s.pending, Pending::Remainder { die: 5, count: 4 });
    assert_eq!(s.to_move, Side::Black);
    // Four 5s: 19/14 closed, and 4 cannot bear off (19 is not home): all
    // four dice are lost and Black goes on with the 6s.
    assert_eq!(stage_info(&s), (0, 1));
    let s = play(&s, &o, &[]);
    assert_eq!(s.pending, Pending::Remainder { die: 6, count: 4 });
    // Four 6s: 19/13 closed: lost too. Then Black rolls.
    assert_eq!(stage_info(&s), (0, 1));
    let s = play(&s, &o, &[]);
    assert_eq!(s.pending, Pending::Roll);
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.rolls, [4, 3], "a remainder is not a roll");
    assert_eq!(
        white_view(&s),
        [
            5, 5, 4, 0, 0, 0, -14, 1, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0
        ]
    );
    let s = s.roll(&o, 2, 1).unwrap();
    assert_eq!(s.rolls, [4, 4]);
    assert_eq!(s.pending, Pending::Roll2 { d1: 2, d2: 1 });
}

#[test]
fn remainder_lost_option_ends_the_chain_without_passing() {
    let o = opts_with("remainder", "lost");
    assert_eq!(o.remainder, RemainderRule::Lost);
    let s = state(CHAIN_AT_FOURS).roll(&o, 3, 3).unwrap();
    let s = play(&s, &o, &[(24, 3), (21, 3), (18, 3), (15, 3)]);
    let s = play(&s, &o, &[(12, 4)]);
    // Same play as above, but the rest of the chain is simply lost.
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Roll);
    assert_eq!(s.rolls, [4, 3]);
}

#[test]
fn unstarted_chain_passes_nothing() {
    let o = RuleOptions::default();
    // As CHAIN_AT_FOURS with a Black checker on White's 19 instead of one
    // of those on 7: 24/19 is closed, and the checkers on 1..3 cannot move
    // a 5 (bearing off needs the runner home).
    let t = "5,5,4,-1,0,0,-13,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,1 w 3 3";
    let s = state(t).roll(&o, 5, 5).unwrap();
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 5,
            first: true
        }
    );
    assert_eq!(stage_info(&s), (0, 1));
    let s = play(&s, &o, &[]);
    // Not one die of the rolled doublet was played: nothing passes, and
    // Black simply rolls. The roll counts, and it was a roll without a move.
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Roll);
    assert_eq!(s.rolls, [4, 3]);
    assert_eq!(s.stuck, 1);

    // (A started chain that stops in its first stage does pass the rest:
    // see the 6-6 below, one of four 6s played, three passed.)
}

#[test]
fn chain_stage_after_the_first_with_nothing_playable_passes_four() {
    let o = RuleOptions::default();
    // Mid-chain (White played its 3s; its runner is on 12) with Black on
    // White's 8 as well: the 4s stage cannot be played at all. It is not
    // the rolled doublet, so all four 4s pass on, then 5s and 6s.
    let t = "5,5,4,-1,0,0,-13,-1,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0 w 4 3 chain=4 stuck=5";
    let s = state(t);
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 4,
            first: false
        }
    );
    assert_eq!(stage_info(&s), (0, 1));
    let s = play(&s, &o, &[]);
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Remainder { die: 4, count: 4 });
    // The roll's earlier stages moved checkers, so the stuck count restarts.
    assert_eq!(s.stuck, 0);
}

/// White: a runner on 24 and 5, 5, 4 on 1, 2, 3 (they cannot move a 6);
/// Black: 14 on White's 7 (its 19), one on White's 12 (its 24).
const SIXES: &str = "5,5,4,0,0,0,-14,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0,1 w 3 0";

#[test]
fn six_six_past_the_exemption_leaves_a_remainder_of_sixes() {
    let o = RuleOptions::default();
    let s = state(SIXES).roll(&o, 6, 6).unwrap();
    // Its chain is just its four 6s.
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 6,
            first: true
        }
    );
    // 24/18, then 18/12 is closed: one 6.
    assert_eq!(stage_info(&s), (1, 1));
    let s = play(&s, &o, &[(24, 6)]);
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Remainder { die: 6, count: 3 });
    // Black's three 6s: 24/18/12 (White's 6 and 24, open), then 12/6 lands
    // on White's 18, where the runner now is; 19/13 is White's 1. Two
    // played, one lost, and there is no stage after the 6s.
    assert_eq!(stage_info(&s), (2, 1));
    assert!(try_play(&s, &o, &[(24, 6)]).is_err());
    let s = play(&s, &o, &[(24, 6), (18, 6)]);
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Roll);
    assert_eq!(s.rolls, [4, 0]);
    assert_eq!(
        state_text(&s),
        "5,5,4,0,0,0,-14,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,-1 b 4 0"
    );
}

#[test]
fn exempt_six_six_never_leaves_a_remainder() {
    let o = RuleOptions::default();
    // The same 6-6 as White's third roll: one stage, one 6 played, done.
    let t = SIXES.replace(" w 3 0", " w 2 0");
    let s = state(&t).roll(&o, 6, 6).unwrap();
    assert_eq!(s.pending, Pending::Roll2 { d1: 6, d2: 6 });
    assert_eq!(s.stage_dice(), Some(StageDice::Same { die: 6, count: 4 }));
    let s = play(&s, &o, &[(24, 6)]);
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pending, Pending::Roll);
    // With `remainder lost` the escalating 6-6 passes nothing either.
    let lost = opts_with("remainder", "lost");
    let s = state(SIXES).roll(&lost, 6, 6).unwrap();
    let s = play(&s, &lost, &[(24, 6)]);
    assert_eq!((s.to_move, s.pending), (Side::Black, Pending::Roll));
}

#[test]
fn exemption_counts_each_players_first_three_rolls() {
    let o = RuleOptions::default();
    assert_eq!(o.exempt_rolls, 3);
    let mut s = GameState::start(Side::White);
    // White's rolls 1..3 are exempt; Black's too, whatever White has done.
    for k in 0..3u32 {
        assert_eq!(s.rolls, [k, k]);
        let r = s.roll(&o, 2, 2).unwrap();
        assert_eq!(r.pending, Pending::Roll2 { d1: 2, d2: 2 }, "roll {}", k + 1);
        // Black to roll its (k+1)th, White having made k+1.
        let mut b = GameState::start(Side::Black);
        b.rolls = [k + 1, k];
        let r = b.roll(&o, 2, 2).unwrap();
        assert_eq!(r.pending, Pending::Roll2 { d1: 2, d2: 2 });
        assert_eq!(r.rolls, [k + 1, k + 1]);
        s.rolls = [k + 1, k + 1];
    }
    // The fourth roll escalates; non-doublets are never chains.
    let r = s.roll(&o, 2, 2).unwrap();
    assert_eq!(
        r.pending,
        Pending::Chain {
            die: 2,
            first: true
        }
    );
    assert_eq!(
        s.roll(&o, 2, 3).unwrap().pending,
        Pending::Roll2 { d1: 2, d2: 3 }
    );
    // White with 3 rolls escalates, Black with 2 does not.
    s.rolls = [3, 2];
    assert!(s.escalates(&o, Side::White));
    assert!(!s.escalates(&o, Side::Black));
}

#[test]
fn exempt_rolls_zero_escalates_from_the_first_roll() {
    let o = opts_with("exempt_rolls", "0");
    let s = GameState::start(Side::White).roll(&o, 1, 1).unwrap();
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 1,
            first: true
        }
    );
    // From the start every stage 1..6 can be played whole (24/23 … 24/18
    // are all open; only White's 12 is closed): 4 × (1+2+3+4+5+6) = 84
    // pips in 24 steps, and no remainder, as the 6s were played whole.
    let mut s = s;
    let mut mg = gulbara::rules::StageGen::new();
    let mut ends: Vec<StageEnd> = Vec::new();
    let mut total_steps = 0;
    let mut stages = Vec::new();
    while s.to_move == Side::White {
        let dice = s.stage_dice().unwrap();
        stages.push(dice);
        assert_eq!(mg.generate(&o, &s, dice, &mut ends), 4);
        let play = ends[0].play;
        total_steps += play.len();
        s = s.play_stage(&o, &mut mg, &mut ends, play.steps()).unwrap();
    }
    assert_eq!(total_steps, 24);
    assert_eq!(
        stages,
        (1..=6)
            .map(|die| StageDice::Same { die, count: 4 })
            .collect::<Vec<_>>()
    );
    assert_eq!(s.pending, Pending::Roll);
    assert_eq!(s.pos.opp.pips(), 360 - 84);
    // Exempt by the default: the same 1-1 is one stage of four 1s.
    let d = GameState::start(Side::White)
        .roll(&RuleOptions::default(), 1, 1)
        .unwrap();
    assert_eq!(d.pending, Pending::Roll2 { d1: 1, d2: 1 });
}

#[test]
fn exempt_scope_game_counts_both_sides_rolls() {
    let player = RuleOptions::default();
    let game = opts_with("exempt_scope", "game");
    assert_eq!(game.exempt_scope, ExemptScope::Game);
    let mut s = GameState::start(Side::White);
    // White has made 2 rolls, Black 1: White's next is its 3rd (exempt for
    // `player`) but the game's 4th (escalates for `game`).
    s.rolls = [2, 1];
    assert_eq!(
        s.roll(&player, 4, 4).unwrap().pending,
        Pending::Roll2 { d1: 4, d2: 4 }
    );
    assert_eq!(
        s.roll(&game, 4, 4).unwrap().pending,
        Pending::Chain {
            die: 4,
            first: true
        }
    );
    // 1 + 1 rolls: the game's 3rd roll is still exempt.
    s.rolls = [1, 1];
    assert_eq!(
        s.roll(&game, 4, 4).unwrap().pending,
        Pending::Roll2 { d1: 4, d2: 4 }
    );
    // Black with 0 rolls of its own after White's 3: exempt for `player`,
    // escalating for `game`.
    let mut b = GameState::start(Side::Black);
    b.rolls = [3, 0];
    assert_eq!(
        b.roll(&player, 5, 5).unwrap().pending,
        Pending::Roll2 { d1: 5, d2: 5 }
    );
    assert_eq!(
        b.roll(&game, 5, 5).unwrap().pending,
        Pending::Chain {
            die: 5,
            first: true
        }
    );
}

/// Dice from a script, then from a seeded RNG.
struct Scripted {
    script: Vec<u8>,
    next: usize,
    rest: SeededDice,
}

impl Scripted {
    fn new(script: &[u8]) -> Self {
        Scripted {
            script: script.to_vec(),
            next: 0,
            rest: SeededDice::new(7),
        }
    }
}

impl DiceSource for Scripted {
    fn die(&mut self) -> u8 {
        let d = self.script.get(self.next).copied();
        self.next += 1;
        d.unwrap_or_else(|| self.rest.die())
    }
}

fn game(opts: &RuleOptions, script: &[u8]) -> gulbara::game::GameRecord {
    let mut w = RandomChooser::new(1);
    let mut b = RandomChooser::new(2);
    play_choosers(opts, &mut Scripted::new(script), &mut w, &mut b)
}

#[test]
fn opening_single_plays_the_two_thrown_numbers() {
    let o = RuleOptions::default();
    assert_eq!(o.opening, Opening::Single);
    // White throws 3, Black 5: Black starts and plays 5-3 as its first roll.
    let g = game(&o, &[3, 5]);
    assert_eq!(g.openings, vec![(3, 5)]);
    assert_eq!(g.starter, Side::Black);
    assert_eq!(g.turns[0].side, Side::Black);
    assert_eq!(g.turns[0].roll, Some((5, 3)));
    assert_eq!(g.turns[0].stages.len(), 1);
    assert_eq!(g.turns[0].stages[0].dice, StageDice::Pair(5, 3));
    assert_eq!(g.turns[1].side, Side::White);
    // Ties throw again: 4-4, then White 6, Black 2.
    let g = game(&o, &[4, 4, 6, 2]);
    assert_eq!(g.openings, vec![(4, 4), (6, 2)]);
    assert_eq!(g.starter, Side::White);
    assert_eq!(g.turns[0].roll, Some((6, 2)));
    // The opening counts as the starter's first roll: with exempt_rolls 1,
    // Black's (the starter's) next doublet, its second roll, escalates.
    // Script: opening 3/5, White rolls 1-2, Black rolls 4-4.
    let o1 = opts_with("exempt_rolls", "1");
    let g = game(&o1, &[3, 5, 1, 2, 4, 4]);
    assert_eq!(g.turns[2].side, Side::Black);
    assert_eq!(g.turns[2].roll, Some((4, 4)));
    // 4s, 5s and 6s from Black's 24 are all open this early: three stages.
    let dice: Vec<_> = g.turns[2].stages.iter().map(|s| s.dice).collect();
    assert_eq!(
        dice,
        (4..=6)
            .map(|die| StageDice::Same { die, count: 4 })
            .collect::<Vec<_>>()
    );
}

#[test]
fn opening_reroll_makes_the_winner_roll_both_dice() {
    let o = opts_with("opening", "reroll");
    assert_eq!(o.opening, Opening::Reroll);
    // Black wins the throw 3/5, then rolls 2-2: the first turn can be a
    // doublet, exempt as Black's first roll: one stage of four 2s.
    let g = game(&o, &[3, 5, 2, 2]);
    assert_eq!(g.openings, vec![(3, 5)]);
    assert_eq!(g.starter, Side::Black);
    assert_eq!(g.turns[0].side, Side::Black);
    assert_eq!(g.turns[0].roll, Some((2, 2)));
    assert_eq!(g.turns[0].stages.len(), 1);
    assert_eq!(
        g.turns[0].stages[0].dice,
        StageDice::Same { die: 2, count: 4 }
    );
    // With no exemption the rerolled 2-2 escalates: 2s, 3s … 6s.
    let mut o0 = o;
    o0.exempt_rolls = 0;
    let g = game(&o0, &[3, 5, 2, 2]);
    assert_eq!(g.turns[0].stages.len(), 5);
    // The thrown numbers are not played: White's first roll is its own.
    let g = game(&o, &[6, 1, 5, 4, 3, 1]);
    assert_eq!(g.starter, Side::White);
    assert_eq!(g.turns[0].roll, Some((5, 4)));
    assert_eq!(g.turns[1].roll, Some((3, 1)));
}

/// White: 2, 2, 2, 3, 3, 2 on points 1..6 and one checker on 8 (so not yet
/// bearing off); Black: all 15 on White's 14 (its 2).
const ALMOST_HOME: &str = "2,2,2,3,3,2,0,1,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0 w 5 5";

#[test]
fn bearing_off_starts_in_the_middle_of_a_turn() {
    let o = RuleOptions::default();
    let s = state(ALMOST_HOME).roll(&o, 5, 3).unwrap();
    // Distinct ends of 5-3 (by hand): 8/off (as 8/3 3/off or 8/5 5/off),
    // 8/3 6/3, 8/3 5/2, 8/3 4/1, 6/1 8/5, 6/1 6/3, 6/1 5/2, 6/1 4/1:
    // eight, all using both dice.
    assert_eq!(stage_info(&s), (2, 8));
    // Bearing off first is illegal: the checker on 8 is not home.
    let e = try_play(&s, &o, &[(3, 3), (8, 5)]).unwrap_err();
    assert!(
        matches!(&e, PlayError::IllegalStep { index: 1, why, .. } if why.to_string().contains("home")),
        "{e}"
    );
    // The first die brings the last checker home, the second bears off.
    let a = play(&s, &o, &[(8, 5), (3, 3)]);
    let b = play(&s, &o, &[(8, 3), (5, 5)]);
    assert_eq!(a, b);
    assert_eq!(a.pos.opp.off(), 1);
    assert_eq!(a.pos.opp.at(8), 0);
    // Through the move list, as a combined token too.
    let c = apply_moves(state(ALMOST_HOME), &o, &["53", "8/3", "3/off"]).unwrap();
    assert_eq!(c, a);
    let d = apply_moves(state(ALMOST_HOME), &o, &["53", "8/off"]).unwrap();
    assert_eq!(d, a);
}

/// White: one checker left, on 2; Black: 15 on White's 20 (its 8), none off.
const LAST_CHECKER: &str = "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0 w 20 20";

#[test]
fn the_last_checker_ends_the_play_and_the_game() {
    let o = RuleOptions::default();
    let s = state(LAST_CHECKER).roll(&o, 6, 5).unwrap();
    // The 6 bears it off (a higher die, nothing higher): the play counts as
    // complete with one step, and the 5 is not played.
    assert_eq!(stage_info(&s), (2, 1));
    let e = play(&s, &o, &[(2, 6)]);
    assert_eq!(
        e.result(),
        Some(GameResult {
            winner: Some(Side::White),
            points: 2
        }),
        "Black has none off: a mars"
    );
    assert_eq!(e.pending, Pending::Roll);
    assert!(matches!(e.roll(&o, 1, 2), Err(PlayError::GameOver)));
    // Nothing more may be played after the last checker.
    let err = try_play(&s, &o, &[(2, 6), (1, 5)]).unwrap_err();
    assert!(
        matches!(err, PlayError::IllegalStep { index: 2, .. }),
        "{err}"
    );
    // Black with one checker off: a single point.
    let one_off = LAST_CHECKER.replace("-15", "-14");
    let s = state(&one_off).roll(&o, 6, 5).unwrap();
    let e = play(&s, &o, &[(2, 5)]);
    assert_eq!(
        e.result(),
        Some(GameResult {
            winner: Some(Side::White),
            points: 1
        })
    );
    // In an escalating chain: the 3s stage ends the game after one step;
    // no further stage, no remainder for Black.
    let s = state(LAST_CHECKER).roll(&o, 3, 3).unwrap();
    assert_eq!(
        s.pending,
        Pending::Chain {
            die: 3,
            first: true
        }
    );
    assert_eq!(stage_info(&s), (4, 1));
    let e = play(&s, &o, &[(2, 3)]);
    assert_eq!(e.pending, Pending::Roll);
    assert_eq!(e.to_move, Side::White);
    assert_eq!(e.result().unwrap().winner, Some(Side::White));
    // The same through a move list, which then refuses anything more.
    let e2 = apply_moves(state(LAST_CHECKER), &o, &["65", "2/off"]).unwrap();
    assert_eq!(e2.result().unwrap().points, 2);
    let err = apply_moves(state(LAST_CHECKER), &o, &["65", "2/off", "31"]).unwrap_err();
    assert_eq!(err.index, 3);
}

#[test]
fn a_remainder_can_end_the_game() {
    let o = RuleOptions::default();
    // Black plays a remainder of 5s with its last checker on its 3 (White's
    // 15): the first 5 bears it off and the game ends there; White (none
    // off, 15 on its 24) is marsed.
    let t = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,15 b 9 9 rem=5x2";
    let s = state(t);
    assert_eq!(stage_info(&s), (2, 1));
    let e = play(&s, &o, &[(3, 5)]);
    assert_eq!(
        e.result(),
        Some(GameResult {
            winner: Some(Side::Black),
            points: 2
        })
    );
    assert_eq!(e.pending, Pending::Roll);
}

/// A mutual blockade for 5s and 6s. White on 24, 14, 13 (and 4, 3, 2, 1,
/// which cannot bear off while the others are out): 24-5/24-6 = 19/18,
/// 14-5/14-6 = 9/8, 13-5/13-6 = 8/7 are all Black. Black (own numbering)
/// on 7, 6, 21, 20, 19 (White's 19, 18, 9, 8, 7): 7-5/7-6 = 2/1 (White's
/// 14/13), 6-5 = 1 (White's 13) and 6-6 bears off (not all home), 21 →
/// 16/15, 20 → 15/14, 19 → 14/13 (White's 4, 3, 2, 1): all White.
const BLOCKADE: &str = "2,2,2,2,0,0,-3,-3,-3,0,0,0,2,2,0,0,0,-3,-3,0,0,0,0,3 w 10 10";

#[test]
fn stuck_rule_ends_a_mutual_blockade_without_points() {
    let o = RuleOptions::default();
    let mut s = state(BLOCKADE);
    for k in 0..100u32 {
        assert_eq!(s.result(), None, "after {k} rolls");
        assert_eq!(s.stuck, k);
        let (d1, d2) = match k % 3 {
            0 => (6, 5),
            1 => (5, 5),
            _ => (6, 6),
        };
        s = s.roll(&o, d1, d2).unwrap();
        assert_eq!(stage_info(&s).0, 0);
        // Escalating 5-5 and 6-6 with nothing playable: unstarted chains.
        s = play(&s, &o, &[]);
        assert_eq!(s.pending, Pending::Roll);
    }
    assert_eq!(s.stuck, 100);
    assert_eq!(
        s.result(),
        Some(GameResult {
            winner: None,
            points: 0
        })
    );
    assert!(matches!(s.roll(&o, 2, 1), Err(PlayError::GameOver)));
    assert_eq!(s.rolls, [60, 60]);

    // A roll that moves a checker resets the count: White's 24/23 with a 1.
    let mut s = state(&format!("{BLOCKADE} stuck=99"));
    assert_eq!(s.stuck, 99);
    s = s.roll(&o, 2, 1).unwrap();
    assert!(stage_info(&s).0 > 0);
    let s = play(&s, &o, &[(24, 2), (24, 1)]);
    assert_eq!(s.stuck, 0);
    assert_eq!(s.result(), None);

    // The same through a move list: forfeited rolls pass by themselves.
    let list = vec!["65"; 100];
    let s = apply_moves(state(BLOCKADE), &o, &list).unwrap();
    assert_eq!(s.result().unwrap().points, 0);
    let mut more = list.clone();
    more.push("65");
    assert_eq!(
        apply_moves(state(BLOCKADE), &o, &more).unwrap_err().index,
        101
    );
}

#[test]
fn move_lists_follow_chains_and_remainders_in_play_order() {
    let o = RuleOptions::default();
    // A move list gives the roll, then every step of the whole turn in play
    // order: the four 3s of the chain's first stage, then its 4s (here just
    // 12/8). The remainder is played by Black next, its steps in play order
    // stage by stage (the 4s here; its 5s and 6s cannot be played and pass
    // by themselves), and only then comes Black's own roll and play.
    let tokens = [
        "33", "24/21", "21/18", "18/15", "15/12", // White's 3s
        "12/8",  // White's 4s: one die, the chain stops
        "16/12", "12/8", "8/4", // Black's remainder of three 4s
        "21", "19/17", "19/18", // Black's own roll
    ];
    let s = apply_moves(state(CHAIN_AT_FOURS), &o, &tokens).unwrap();
    assert_eq!(
        state_text(&s),
        "5,5,4,0,-1,-1,-12,1,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0 w 4 4"
    );
    // Combined tokens work across a stage's dice: 24/12 is the four 3s,
    // 16/4 the three 4s of the remainder.
    let short = ["33", "24/12", "12/8", "16/4", "21", "19/17", "19/18"];
    assert_eq!(apply_moves(state(CHAIN_AT_FOURS), &o, &short).unwrap(), s);
    // Stopping after the chain leaves the remainder pending, as text too.
    let mid = apply_moves(state(CHAIN_AT_FOURS), &o, &short[..3]).unwrap();
    assert_eq!(mid.pending, Pending::Remainder { die: 4, count: 3 });
    assert!(state_text(&mid).ends_with(" b 4 3 rem=4x3"));
    // Continuing from the text gives the same end.
    let resumed = apply_moves(state(&state_text(&mid)), &o, &short[3..]).unwrap();
    assert_eq!(resumed, s);
    // Black may not roll before its remainder is played.
    let e = apply_moves(state(CHAIN_AT_FOURS), &o, &["33", "24/12", "12/8", "21"]).unwrap_err();
    assert_eq!(e.index, 4);
    // A 5 is not a die of the remainder's first stage.
    let e = apply_moves(state(CHAIN_AT_FOURS), &o, &["33", "24/12", "12/8", "16/11"]).unwrap_err();
    assert_eq!(e.index, 4);
    // With the roll exempt (White's third) the 3-3 is one stage and no
    // more: 12/8 is then Black's (illegal: Black has nothing on its 12).
    let exempt = CHAIN_AT_FOURS.replace(" w 3 3", " w 2 3");
    let s = apply_moves(state(&exempt), &o, &["33", "24/12"]).unwrap();
    assert_eq!((s.to_move, s.pending), (Side::Black, Pending::Roll));
    assert!(apply_moves(state(&exempt), &o, &["33", "24/12", "12/8"]).is_err());
}

#[test]
fn the_driver_records_a_remainder_as_one_turn() {
    // Random seeded games: every remainder turn (roll None) holds the
    // remainder's stages in order, consecutive numbers up to the 6s unless
    // the game ended in it; every escalating roll's stages are consecutive.
    // A remainder with nothing playable at all passes within the roll's
    // turn before it: its stages come last there, by the other side.
    let o = RuleOptions::default();
    let mut remainders = 0;
    let mut passed_within = 0;
    let dice_of = |stages: &[StageRecord]| -> Vec<(u8, u8)> {
        stages
            .iter()
            .map(|s| match s.dice {
                StageDice::Same { die, count } => (die, count),
                StageDice::Pair(a, b) => (a * 10 + b, 2),
            })
            .collect()
    };
    for seed in 0..40u64 {
        let mut w = RandomChooser::new(seed * 2 + 11);
        let mut b = RandomChooser::new(seed * 2 + 12);
        let g = play_choosers(&o, &mut SeededDice::new(seed), &mut w, &mut b);
        assert!(g.forfeit.is_none());
        let n = g.turns.len();
        for (i, t) in g.turns.iter().enumerate() {
            let last_turn = i + 1 == n;
            let own = t.stages.iter().take_while(|s| s.side == t.side).count();
            let (stages, passed) = t.stages.split_at(own);
            let dice = dice_of(stages);
            if !passed.is_empty() {
                passed_within += 1;
                assert!(t.roll.is_some(), "seed {seed} turn {i}");
                assert!(
                    passed
                        .iter()
                        .all(|s| s.remainder && s.steps.is_empty() && s.side != t.side),
                    "seed {seed} turn {i}"
                );
                let p = dice_of(passed);
                for w in p.windows(2) {
                    assert_eq!(w[1], (w[0].0 + 1, 4), "seed {seed} turn {i}: {p:?}");
                }
                assert!(last_turn || p.last().unwrap().0 == 6);
            }
            if t.roll.is_none() {
                remainders += 1;
                assert!(stages.iter().all(|s| s.remainder), "seed {seed} turn {i}");
                assert!(!dice.is_empty());
                for w in dice.windows(2) {
                    assert_eq!(w[1], (w[0].0 + 1, 4), "seed {seed} turn {i}: {dice:?}");
                }
                assert!(
                    last_turn || dice.last().unwrap().0 == 6,
                    "seed {seed} turn {i}: remainder split or cut short: {dice:?}"
                );
                // A remainder follows the other side's roll.
                let prev = &g.turns[i - 1];
                assert!(prev.roll.is_some() && prev.side != t.side);
            } else {
                assert!(stages.iter().all(|s| !s.remainder));
                for w in dice.windows(2) {
                    assert_eq!(w[1], (w[0].0 + 1, 4), "seed {seed} turn {i}");
                }
            }
        }
    }
    assert!(
        passed_within > 0,
        "no remainder passed as a whole in 40 games"
    );
    assert!(remainders > 5, "only {remainders} remainders in 40 games");
}
