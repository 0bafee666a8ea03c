//! Peer conformance: the published test vectors of another Gul bara engine
//! (../shared/peer-vectors, read at run time, never copied here).
//!
//! Every move case must give the same set of distinct stage ends and the same
//! number of playable dice; every recorded match must replay to the same
//! actions and results.

use std::collections::BTreeSet;

use gulbara::notation::{position_from_white_view, white_view};
use gulbara::rules::dice::{DiceSource, opening_throw};
use gulbara::rules::options::RuleOptions;
use gulbara::rules::state::apply_steps;
use gulbara::rules::{GameState, MoveGen, Pending, Side, StageDice, Step};
use serde_json::Value;

mod common;

use common::peer_vector as load;

/// Parses `G:p1,...,p24|bar0,bar1|off0,off1` into White-view counts and off counts.
fn parse_code(code: &str) -> ([i8; 24], [u8; 2]) {
    let body = code.strip_prefix("G:").expect("a Gul bara code");
    let mut parts = body.split('|');
    let points: Vec<&str> = parts.next().unwrap().split(',').collect();
    assert_eq!(points.len(), 24, "{code}");
    let mut counts = [0i8; 24];
    for (i, t) in points.iter().enumerate() {
        counts[i] = if t.is_empty() { 0 } else { t.parse().unwrap() };
    }
    let mut pair = || -> Vec<u8> {
        let field = parts.next().unwrap();
        field.split(',').map(|t| t.parse().unwrap()).collect()
    };
    let bar = pair();
    assert_eq!(bar, vec![0, 0]);
    let off = pair();
    (counts, [off[0], off[1]])
}

fn seat_side(seat: i64) -> Side {
    if seat == 0 { Side::White } else { Side::Black }
}

fn state_of(code: &str, side: Side) -> GameState {
    let (counts, off) = parse_code(code);
    let pos = position_from_white_view(&counts, side).expect("valid position");
    let (w, b) = match side {
        Side::White => (pos.own, pos.opp),
        Side::Black => (pos.opp, pos.own),
    };
    assert_eq!([w.off(), b.off()], off, "off counts of {code}");
    // The start of a game with this position, `side` to roll.
    GameState {
        pos,
        ..GameState::start_of(gulbara::rules::Variant::GulBara, side)
    }
}

fn steps_of(v: &Value) -> Vec<Step> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| Step::new(s[0].as_u64().unwrap() as u8, s[1].as_u64().unwrap() as u8))
        .collect()
}

/// Checks one move case; returns a description of the mismatch, if any.
fn check_case(case: &Value) -> Result<(), String> {
    let code = case["position"].as_str().unwrap();
    let side = seat_side(case["seat"].as_i64().unwrap());
    let dice = common::case_dice(case);
    let stage = common::stage_dice(&dice);
    let state = state_of(code, side);
    let mut g = MoveGen::new();
    let mut ends = Vec::new();
    let playable = g.generate(state.pos, stage, &mut ends);
    let want_playable = case["playableDice"].as_u64().unwrap() as u8;
    let mut ours = BTreeSet::new();
    for e in &ends {
        // Our representative play must reach our end.
        let reached = apply_steps(state.pos, stage, e.play.steps(), 0)
            .map_err(|err| format!("our own play is illegal: {err}"))?;
        if reached != e.pos {
            return Err("our representative play does not reach its end".into());
        }
        let s = GameState {
            pos: e.pos,
            ..state
        };
        ours.insert(white_view(&s));
    }
    let mut theirs = BTreeSet::new();
    for e in case["ends"].as_array().unwrap() {
        let end_code = e["position"].as_str().unwrap();
        let (counts, _) = parse_code(end_code);
        theirs.insert(counts);
        // Their play must be legal for us and reach their end.
        let steps = steps_of(&e["steps"]);
        let reached = apply_steps(state.pos, stage, &steps, 0)
            .map_err(|err| format!("their play {steps:?} rejected: {err}"))?;
        let s = GameState {
            pos: reached,
            ..state
        };
        if white_view(&s) != counts {
            return Err(format!("their play {steps:?} reaches another end"));
        }
    }
    if playable != want_playable {
        return Err(format!("playable {playable}, peer says {want_playable}"));
    }
    if ours != theirs {
        return Err(format!(
            "{} ends, peer has {} ({} only ours, {} only theirs)",
            ours.len(),
            theirs.len(),
            ours.difference(&theirs).count(),
            theirs.difference(&ours).count()
        ));
    }
    Ok(())
}

fn check_cases(cases: &[&Value]) {
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        if let Err(e) = check_case(c) {
            failures.push(format!(
                "case {i} {} seat {} dice {}: {e}",
                c["position"], c["seat"], c["dice"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn moves_vectors_all_pass() {
    let doc = load("moves-gyulbara.json");
    let cases: Vec<&Value> = doc["cases"].as_array().unwrap().iter().collect();
    assert!(cases.len() >= 500);
    check_cases(&cases);
}

#[test]
fn tricky_gul_bara_vectors_all_pass() {
    let doc = load("tricky.json");
    let cases: Vec<&Value> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["position"].as_str().unwrap().starts_with("G:"))
        .collect();
    assert!(!cases.is_empty());
    check_cases(&cases);
}

/// Dice from a match's recorded draws.
struct Draws {
    values: Vec<u8>,
    next: usize,
}

impl DiceSource for Draws {
    fn die(&mut self) -> u8 {
        let d = self.values[self.next];
        self.next += 1;
        d
    }
}

#[test]
fn match_vectors_replay() {
    let doc = load("matches-gyulbara.json");
    let opts = RuleOptions::default();
    let matches = doc["matches"].as_array().unwrap();
    assert!(!matches.is_empty());
    for (mi, m) in matches.iter().enumerate() {
        let target = m["options"]["targetPoints"].as_u64().unwrap() as u32;
        let mut draws = Draws {
            values: m["draws"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["value"].as_u64().unwrap() as u8 + 1)
                .collect(),
            next: 0,
        };
        // The record's plays: every stage with something to play, the forced
        // ones marked `auto`; the match's `actions` are the others.
        let plays: Vec<&Value> = m["final"]["record"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["plays"].as_array().unwrap().iter())
            .collect();
        let actions = m["actions"].as_array().unwrap();
        let chosen: Vec<&Value> = plays
            .iter()
            .copied()
            .filter(|p| !p["auto"].as_bool().unwrap())
            .collect();
        assert_eq!(
            chosen.len(),
            actions.len(),
            "match {mi}: actions are the non-auto plays"
        );
        for (p, a) in chosen.iter().zip(actions) {
            let steps: Vec<Value> = p["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| serde_json::json!([s["from"], s["die"]]))
                .collect();
            assert_eq!(&Value::Array(steps), &a["steps"]);
            assert_eq!(p["seat"], a["seat"]);
        }
        let mut next_play = 0;
        let mut next_action = 0;
        let checkpoints = m["checkpoints"].as_array();
        let mut scores = [0u32; 2];
        let mut results = Vec::new();
        let mut g = gulbara::rules::StageGen::new();
        let mut ends = Vec::new();
        while !(scores[0].max(scores[1]) >= target && scores[0] != scores[1]) {
            let (throws, starter) = opening_throw(&mut draws);
            let &(w, b) = throws.last().unwrap();
            let mut state = GameState::start(starter);
            state = state
                .roll(
                    &opts,
                    if starter == Side::White { w } else { b },
                    if starter == Side::White { b } else { w },
                )
                .unwrap();
            loop {
                if state.result().is_some() {
                    break;
                }
                if state.pending == Pending::Roll {
                    let (d1, d2) = (draws.die(), draws.die());
                    state = state.roll(&opts, d1, d2).unwrap();
                    continue;
                }
                let dice = state.stage_dice().unwrap();
                let playable = g.generate(&opts, &state, dice, &mut ends);
                if playable == 0 {
                    // The record lists a stage with nothing playable as an
                    // empty auto play.
                    if let Some(p) = plays.get(next_play)
                        && p["auto"].as_bool().unwrap()
                        && p["steps"].as_array().unwrap().is_empty()
                        && seat_side(p["seat"].as_i64().unwrap()) == state.to_move
                    {
                        next_play += 1;
                    }
                    state = state.after_stage(&opts, state.pos, 0);
                    continue;
                }
                let p = plays[next_play];
                let auto = p["auto"].as_bool().unwrap();
                if !auto {
                    if let Some(cp) = checkpoints.and_then(|c| c.get(next_action)) {
                        check_checkpoint(cp, &state, dice, mi, next_action);
                    }
                    next_action += 1;
                } else {
                    assert_eq!(
                        ends.len(),
                        1,
                        "match {mi} play {next_play}: auto play is forced"
                    );
                }
                let side = seat_side(p["seat"].as_i64().unwrap());
                assert_eq!(
                    side, state.to_move,
                    "match {mi} play {next_play}: wrong side"
                );
                assert_eq!(
                    p["isRemainder"].as_bool().unwrap(),
                    matches!(state.pending, Pending::Remainder { .. }),
                    "match {mi} play {next_play}: remainder flag"
                );
                let steps: Vec<Step> = p["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        Step::new(
                            s["from"].as_u64().unwrap() as u8,
                            s["die"].as_u64().unwrap() as u8,
                        )
                    })
                    .collect();
                state = state
                    .play_stage(&opts, &mut g, &mut ends, &steps)
                    .unwrap_or_else(|e| panic!("match {mi} play {next_play} {steps:?}: {e}"));
                next_play += 1;
            }
            let r = state.result().unwrap();
            let winner = r.winner.expect("random games finish");
            scores[winner.index()] += u32::from(r.points);
            results.push((winner.index() as i64, r.points as i64));
        }
        assert_eq!(next_play, plays.len(), "match {mi}: all plays used");
        assert_eq!(next_action, actions.len(), "match {mi}: all actions used");
        assert_eq!(draws.next, draws.values.len(), "match {mi}: all draws used");
        let want: Vec<(i64, i64)> = m["final"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let w = r["winner"].as_i64().unwrap();
                (w, r["points"][w as usize].as_i64().unwrap())
            })
            .collect();
        assert_eq!(results, want, "match {mi} results");
        let final_scores: Vec<u32> = m["final"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(scores.to_vec(), final_scores, "match {mi} scores");
    }
}

/// Checkpoint k is the peer's view before action k: board, rolls made, the
/// stage's dice and whether a remainder is being played.
fn check_checkpoint(cp: &Value, state: &GameState, dice: StageDice, mi: usize, k: usize) {
    let (counts, _) = parse_code(cp["board"].as_str().unwrap());
    assert_eq!(
        white_view(state),
        counts,
        "match {mi} before action {k}: board"
    );
    let made: Vec<u32> = cp["rollsMade"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(
        state.rolls.to_vec(),
        made,
        "match {mi} before action {k}: rolls made"
    );
    let mut want: Vec<u8> = cp["stageDice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    let mut ours = dice.dice();
    want.sort();
    ours.sort();
    assert_eq!(ours, want, "match {mi} before action {k}: stage dice");
    assert_eq!(
        matches!(state.pending, Pending::Remainder { .. }),
        cp["isPlayingRemainder"].as_bool().unwrap(),
        "match {mi} before action {k}: remainder flag"
    );
    assert_eq!(seat_side(cp["toMove"].as_i64().unwrap()), state.to_move);
    assert_eq!(
        u64::from(state.stuck),
        cp["stuckRolls"].as_u64().unwrap(),
        "match {mi} before action {k}: stuck rolls"
    );
}

/// Without ../shared (a clone on its own) a test that reads it names the
/// path it wanted and where the directory goes, not a bare read error.
#[test]
#[should_panic(expected = "this test reads ../shared/peer-vectors/no-such-file")]
fn a_missing_shared_path_is_named() {
    common::shared_path("peer-vectors/no-such-file");
}
