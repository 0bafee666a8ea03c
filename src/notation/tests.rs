use super::*;

#[test]
fn start_text_round_trips() {
    let s = parse_state_text(START_TEXT).unwrap();
    assert_eq!(s, GameState::start(Side::White));
    assert_eq!(state_text(&s), START_TEXT);
}

#[test]
fn empty_tokens_are_zero() {
    let s = parse_state_text(",,,,,,,,,,,-15,,,,,,,,,,,,15 b 1 0").unwrap();
    assert_eq!(s.to_move, Side::Black);
    assert_eq!(s.pos, Position::START);
}

#[test]
fn pending_fields_round_trip() {
    for t in [
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 5 4 chain=5",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 b 5 4 rem=4x3 stuck=7",
    ] {
        assert_eq!(state_text(&parse_state_text(t).unwrap()), t);
    }
}

#[test]
fn impossible_positions_rejected() {
    for t in [
        "0,0,0,0,0,0,0,0,0,0,0,-16,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0",
        "1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0",
        "0,0,0 w 0 0",
        "x,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 x 0 0",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0 chain=1",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0 rem=4x5",
        "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0 bogus",
    ] {
        assert!(parse_state_text(t).is_err(), "{t}");
    }
}

#[test]
fn seed_001_worked_examples() {
    let o = RuleOptions::default();
    let s = GameState::start(Side::White);
    assert_eq!(s.pos.own.pips(), 360);
    assert_eq!(s.pos.opp.pips(), 360);
    let s = apply_moves(s, &o, &["65", "24/19", "24/18"]).unwrap();
    // Now Black to move; White's pips are the opponent's.
    assert_eq!(s.pos.opp.pips(), 349);
    let s = apply_moves(s, &o, &["31", "24/23", "24/21"]).unwrap();
    assert_eq!(s.pos.opp.pips(), 356);
    let v = white_view(&s);
    assert_eq!((v[11], v[10], v[8]), (-13, -1, -1));
    assert_eq!((v[17], v[18], v[23]), (1, 1, 13));
}

#[test]
fn seed_001_bear_off_example() {
    let o = RuleOptions::default();
    let t = "1,1,1,2,2,2,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2,0,0,0,0,0,0 w 20 20";
    let s = parse_state_text(t).unwrap();
    assert_eq!(s.pos.own.off(), 6);
    assert_eq!(s.pos.own.pips(), 36);
    assert_eq!(s.pos.opp.pips(), 48);
    let s = apply_moves(s, &o, &["65", "6/off", "5/off"]).unwrap();
    assert_eq!(s.pos.opp.pips(), 25);
    assert_eq!(s.pos.opp.off(), 8);
}

#[test]
fn combined_token_expands() {
    let o = RuleOptions::default();
    let s = apply_moves(GameState::start(Side::White), &o, &["65", "24/13"]).unwrap();
    assert_eq!(s.pos.opp.at(13), 1);
    // 24/12 would land on Black's start.
    let e = apply_moves(GameState::start(Side::White), &o, &["66", "24/12"]).unwrap_err();
    assert_eq!(e.index, 2);
}

#[test]
fn bad_lists_name_the_first_bad_token() {
    let o = RuleOptions::default();
    let s = GameState::start(Side::White);
    let e = apply_moves(s, &o, &["65", "24/18", "13/8"]).unwrap_err();
    assert_eq!(e.index, 3);
    let e = apply_moves(s, &o, &["65", "24/18"]).unwrap_err();
    assert_eq!(e.index, 3);
    let e = apply_moves(s, &o, &["24/18"]).unwrap_err();
    assert_eq!(e.index, 1);
    let e = apply_moves(s, &o, &["65", "66"]).unwrap_err();
    assert_eq!(e.index, 2);
    let e = apply_moves(s, &o, &["77"]).unwrap_err();
    assert_eq!(e.index, 1);
}
