//! Text notation: positions, steps, plays, rolls and move lists.
//!
//! Documented for users in `protocol/NOTATION.md`.
//!
//! - Position text: 24 comma-separated signed counts for points 1..24 in
//!   White's numbering (White positive, Black negative, an empty token is 0),
//!   the side to move `w`|`b`, White's and Black's roll counts, then optional
//!   fields: `chain=D` (the side to move is in the middle of its escalating
//!   chain; its next stage is four `D`s), `rem=DxN` (the side to move plays a
//!   remainder: `N` dice of `D`, then four of each higher number) and
//!   `stuck=N` (rolls in a row without a checker moving).
//! - A step: `from/to` in the mover's numbering, `from/off` when borne off.
//!   A play is its steps in order, or `pass`. A roll: two digits, `65`.

use crate::rules::movegen::{MoveGen, StageEnd, step_is_legal};
use crate::rules::options::RuleOptions;
use crate::rules::position::{CHECKERS, Checkers, Position, other_numbering};
use crate::rules::state::{GameState, Pending, PlayError, Side, dice_text};
use crate::rules::step::Step;

/// A notation error with a human-readable reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(msg.into()))
}

/// The start position text.
pub const START_TEXT: &str = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0";

/// Counts in White's numbering (White positive) from a state.
pub fn white_view(state: &GameState) -> [i8; 24] {
    let (white, black) = match state.to_move {
        Side::White => (state.pos.own, state.pos.opp),
        Side::Black => (state.pos.opp, state.pos.own),
    };
    let mut out = [0i8; 24];
    for p in 1..=24u8 {
        let w = white.at(p) as i8;
        let b = black.at(other_numbering(p)) as i8;
        out[p as usize - 1] = w - b;
    }
    out
}

/// Builds the mover-view position from White-view counts.
pub fn position_from_white_view(
    counts: &[i8; 24],
    to_move: Side,
) -> Result<Position, NotationError> {
    let mut white = [0u8; 24];
    let mut black = [0u8; 24];
    for (i, &c) in counts.iter().enumerate() {
        let p = i as u8 + 1;
        if c > 0 {
            white[i] = c as u8;
        } else if c < 0 {
            black[other_numbering(p) as usize - 1] = c.unsigned_abs();
        }
    }
    let w: u32 = white.iter().map(|&x| u32::from(x)).sum();
    let b: u32 = black.iter().map(|&x| u32::from(x)).sum();
    if w > u32::from(CHECKERS) {
        return err(format!(
            "White has {w} checkers on the board, at most 15 allowed"
        ));
    }
    if b > u32::from(CHECKERS) {
        return err(format!(
            "Black has {b} checkers on the board, at most 15 allowed"
        ));
    }
    if w == 0 && b == 0 {
        return err("both sides have borne off all checkers");
    }
    let white = Checkers::from_counts(&white).ok_or_else(|| NotationError("bad counts".into()))?;
    let black = Checkers::from_counts(&black).ok_or_else(|| NotationError("bad counts".into()))?;
    Ok(match to_move {
        Side::White => Position {
            own: white,
            opp: black,
        },
        Side::Black => Position {
            own: black,
            opp: white,
        },
    })
}

/// Formats a state as position text (with its optional fields).
pub fn state_text(state: &GameState) -> String {
    let counts: Vec<String> = white_view(state).iter().map(|c| c.to_string()).collect();
    let mut s = format!(
        "{} {} {} {}",
        counts.join(","),
        side_text(state.to_move),
        state.rolls[0],
        state.rolls[1]
    );
    match state.pending {
        Pending::Chain { die, first: false } => s.push_str(&format!(" chain={die}")),
        Pending::Remainder { die, count } => s.push_str(&format!(" rem={die}x{count}")),
        _ => {}
    }
    if state.stuck > 0 {
        s.push_str(&format!(" stuck={}", state.stuck));
    }
    s
}

/// `w` or `b`.
pub fn side_text(side: Side) -> &'static str {
    match side {
        Side::White => "w",
        Side::Black => "b",
    }
}

fn parse_count(tok: &str, point: usize) -> Result<i8, NotationError> {
    if tok.is_empty() {
        return Ok(0);
    }
    match tok.parse::<i8>() {
        Ok(n) if (-15..=15).contains(&n) => Ok(n),
        _ => err(format!(
            "point {point}: '{tok}' is not a count between -15 and 15"
        )),
    }
}

/// Parses position text from its tokens. Returns the state and how many
/// tokens it used (the optional fields are taken while they match).
pub fn parse_state(tokens: &[&str]) -> Result<(GameState, usize), NotationError> {
    let Some(board) = tokens.first() else {
        return err("missing the 24 point counts");
    };
    let parts: Vec<&str> = board.split(',').collect();
    if parts.len() != 24 {
        return err(format!(
            "expected 24 comma-separated point counts, got {}",
            parts.len()
        ));
    }
    let mut counts = [0i8; 24];
    for (i, t) in parts.iter().enumerate() {
        counts[i] = parse_count(t, i + 1)?;
    }
    let to_move = match tokens.get(1) {
        Some(&"w") => Side::White,
        Some(&"b") => Side::Black,
        Some(t) => return err(format!("side to move must be w or b, got '{t}'")),
        None => return err("missing the side to move (w or b)"),
    };
    let mut rolls = [0u32; 2];
    for (k, who) in [(2, "White"), (3, "Black")] {
        let Some(t) = tokens.get(k) else {
            return err(format!("missing {who}'s roll count"));
        };
        rolls[k - 2] = match t.parse::<u32>() {
            Ok(n) if n <= 100_000 => n,
            _ => {
                return err(format!(
                    "{who}'s roll count must be a whole number, got '{t}'"
                ));
            }
        };
    }
    let pos = position_from_white_view(&counts, to_move)?;
    let mut state = GameState {
        pos,
        to_move,
        rolls,
        pending: Pending::Roll,
        stuck: 0,
        moved_this_turn: false,
    };
    let mut used = 4;
    let mut seen_pending = false;
    while let Some(t) = tokens.get(used) {
        if let Some(v) = t.strip_prefix("chain=") {
            if seen_pending {
                return err("only one of chain= and rem= may be given");
            }
            let die = match v.parse::<u8>() {
                Ok(d) if (2..=6).contains(&d) => d,
                _ => {
                    return err(format!(
                        "chain=D needs D in 2..6 (a later stage), got '{v}'"
                    ));
                }
            };
            state.pending = Pending::Chain { die, first: false };
            // A later stage of a chain is reached only by playing the
            // previous stage's four dice: this roll has moved checkers (the
            // stuck count restarts when the chain ends).
            state.moved_this_turn = true;
            seen_pending = true;
        } else if let Some(v) = t.strip_prefix("rem=") {
            if seen_pending {
                return err("only one of chain= and rem= may be given");
            }
            let parsed = v.split_once('x').and_then(|(d, n)| {
                let d = d.parse::<u8>().ok()?;
                let n = n.parse::<u8>().ok()?;
                ((1..=6).contains(&d) && (1..=4).contains(&n)).then_some((d, n))
            });
            let Some((die, count)) = parsed else {
                return err(format!("rem=DxN needs D in 1..6 and N in 1..4, got '{v}'"));
            };
            state.pending = Pending::Remainder { die, count };
            seen_pending = true;
        } else if let Some(v) = t.strip_prefix("stuck=") {
            state.stuck = match v.parse::<u32>() {
                Ok(n) if n <= 100 => n,
                _ => return err(format!("stuck=N needs N in 0..100, got '{v}'")),
            };
        } else {
            break;
        }
        used += 1;
    }
    if state.result().is_some() && seen_pending {
        return err("a finished game has no pending stage");
    }
    Ok((state, used))
}

/// Parses a whole position text string.
pub fn parse_state_text(text: &str) -> Result<GameState, NotationError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (state, used) = parse_state(&tokens)?;
    if used != tokens.len() {
        return err(format!("unexpected '{}' after the position", tokens[used]));
    }
    Ok(state)
}

/// A step as `from/to` or `from/off`.
pub fn step_text(s: Step) -> String {
    if s.bears_off() {
        format!("{}/off", s.from)
    } else {
        format!("{}/{}", s.from, s.to())
    }
}

/// Steps as text, `pass` for none.
pub fn play_text(steps: &[Step]) -> String {
    if steps.is_empty() {
        return "pass".into();
    }
    steps
        .iter()
        .map(|&s| step_text(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A roll token `65` (two digits 1..6).
pub fn parse_roll(tok: &str) -> Option<(u8, u8)> {
    let b = tok.as_bytes();
    if b.len() == 2 && (b'1'..=b'6').contains(&b[0]) && (b'1'..=b'6').contains(&b[1]) {
        Some((b[0] - b'0', b[1] - b'0'))
    } else {
        None
    }
}

/// A `from/to` token: the source and the destination (0 for `off`).
pub fn parse_step_token(tok: &str) -> Result<(u8, u8), NotationError> {
    let Some((f, t)) = tok.split_once('/') else {
        return err(format!("'{tok}' is not a step (from/to)"));
    };
    let from = match f.parse::<u8>() {
        Ok(n) if (1..=24).contains(&n) => n,
        _ => return err(format!("'{tok}': source must be a point 1..24")),
    };
    let to = if t == "off" {
        0
    } else {
        match t.parse::<u8>() {
            Ok(n) if (1..=24).contains(&n) => n,
            _ => return err(format!("'{tok}': destination must be a point 1..24 or off")),
        }
    };
    if to != 0 && to >= from {
        return err(format!(
            "'{tok}': checkers move from higher to lower points"
        ));
    }
    Ok((from, to))
}

/// Expands a `from/to` token into single steps with the dice still unused
/// in the stage, trying every order of dice for the one checker. Prefers the
/// fewest dice; returns `None` when no legal path exists.
pub fn expand_token(pos: Position, left: &[u8], from: u8, to: u8) -> Option<Vec<Step>> {
    fn search(
        pos: Position,
        left: &[u8],
        at: u8,
        to: u8,
        depth: usize,
        path: &mut Vec<Step>,
    ) -> bool {
        if path.len() == depth {
            return at == to || (to == 0 && path.last().is_some_and(|s| s.bears_off()));
        }
        if at == 0 {
            return false;
        }
        let mut tried = [false; 7];
        for (i, &d) in left.iter().enumerate() {
            if tried[d as usize] {
                continue;
            }
            tried[d as usize] = true;
            let s = Step::new(at, d);
            let last = path.len() + 1 == depth;
            // Only the final step may reach or pass the destination.
            if !last && (s.bears_off() || s.to() <= to) {
                continue;
            }
            if last && to != 0 && s.to() != to {
                continue;
            }
            if last && to == 0 && !s.bears_off() {
                continue;
            }
            if !step_is_legal(pos, s) {
                continue;
            }
            let mut rest = left.to_vec();
            rest.remove(i);
            let mut next = pos;
            next.own = next.own.moved(s.from, s.to());
            path.push(s);
            if search(next, &rest, s.to(), to, depth, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    for depth in 1..=left.len() {
        // Prefer an exact bear-off over a higher die.
        if depth == 1
            && to == 0
            && left.contains(&from)
            && step_is_legal(pos, Step::new(from, from))
        {
            return Some(vec![Step::new(from, from)]);
        }
        let mut path = Vec::new();
        if search(pos, left, from, to, depth, &mut path) {
            return Some(path);
        }
    }
    None
}

/// An error in a move list: which token and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move token {index} '{token}': {reason}")]
pub struct MovesError {
    /// 1-based index of the token in the list.
    pub index: usize,
    /// The token itself (empty at the end of the list).
    pub token: String,
    /// What is wrong.
    pub reason: String,
}

/// Plays stages with nothing playable (forfeits, lost remainder dice) until
/// a stage needs a decision, the side must roll, or the game is over.
pub fn skip_forced_empty(
    state: GameState,
    opts: &RuleOptions,
    movegen: &mut MoveGen,
    ends: &mut Vec<StageEnd>,
) -> GameState {
    let mut s = state;
    while s.result().is_none() {
        let Some(dice) = s.stage_dice() else { break };
        if movegen.generate(s.pos, dice, ends) != 0 {
            break;
        }
        s = s.after_stage(opts, s.pos, 0);
    }
    s
}

/// Applies a move list: roll tokens (`65`) start turns, step tokens
/// (`24/18`, combined `24/13`, `6/off`) play the pending stage, `pass`
/// confirms a stage with nothing playable. Stages with nothing playable are
/// skipped by themselves, so a roll followed by a roll is a forfeited turn.
/// A chain's stages, and then a remainder's stages, follow in play order.
pub fn apply_moves(
    state: GameState,
    opts: &RuleOptions,
    tokens: &[&str],
) -> Result<GameState, MovesError> {
    let mut movegen = MoveGen::new();
    let mut ends = Vec::new();
    let mut s = skip_forced_empty(state, opts, &mut movegen, &mut ends);
    let mut stage_steps: Vec<Step> = Vec::new();
    let mut stage_start_token = 0usize;
    let bad = |i: usize, tok: &str, reason: String| MovesError {
        index: i + 1,
        token: tok.to_string(),
        reason,
    };
    for (i, &tok) in tokens.iter().enumerate() {
        if let Some((d1, d2)) = parse_roll(tok) {
            if !stage_steps.is_empty() {
                return Err(bad(
                    i,
                    tok,
                    format!(
                        "the previous stage ({}) is not complete",
                        s.pending_description()
                    ),
                ));
            }
            if let Some(dice) = s.stage_dice() {
                return Err(bad(
                    i,
                    tok,
                    format!(
                        "a roll is not expected: the stage {} must be played first",
                        dice_text(dice)
                    ),
                ));
            }
            s = s
                .roll(opts, d1, d2)
                .map_err(|e| bad(i, tok, e.to_string()))?;
            s = skip_forced_empty(s, opts, &mut movegen, &mut ends);
            continue;
        }
        if s.result().is_some() {
            return Err(bad(i, tok, "the game is over".into()));
        }
        let Some(dice) = s.stage_dice() else {
            return Err(bad(
                i,
                tok,
                "expected a roll (like 65): the side to move must roll".into(),
            ));
        };
        if tok == "pass" {
            return Err(bad(
                i,
                tok,
                format!("'pass' but {} can be played", dice_text(dice)),
            ));
        }
        let (from, to) = parse_step_token(tok).map_err(|e| bad(i, tok, e.0))?;
        if stage_steps.is_empty() {
            stage_start_token = i;
        }
        // Dice of the stage not used by the steps so far.
        let mut left = dice.dice();
        let mut pos = s.pos;
        for st in &stage_steps {
            if let Some(k) = left.iter().position(|&d| d == st.die) {
                left.swap_remove(k);
            }
            pos.own = pos.own.moved(st.from, st.to());
        }
        let Some(steps) = expand_token(pos, &left, from, to) else {
            let reason = if left.is_empty() {
                "all dice of the stage are used".to_string()
            } else {
                format!(
                    "no legal way to play it with the dice left ({})",
                    left.iter().map(|d| d.to_string()).collect::<String>()
                )
            };
            return Err(bad(i, tok, reason));
        };
        stage_steps.extend(steps);
        let playable = movegen.generate(s.pos, dice, &mut ends);
        let mut after = s.pos;
        for st in &stage_steps {
            after.own = after.own.moved(st.from, st.to());
        }
        if stage_steps.len() >= playable as usize || after.own.off() == CHECKERS {
            s = s
                .play_stage(opts, &mut movegen, &mut ends, &stage_steps)
                .map_err(|e| match e {
                    PlayError::IllegalStep { .. } | PlayError::IllegalPlay(_) => {
                        bad(stage_start_token, tokens[stage_start_token], e.to_string())
                    }
                    other => bad(i, tok, other.to_string()),
                })?;
            stage_steps.clear();
            s = skip_forced_empty(s, opts, &mut movegen, &mut ends);
        }
    }
    if !stage_steps.is_empty() {
        return Err(MovesError {
            index: tokens.len() + 1,
            token: String::new(),
            reason: format!(
                "the list ends in the middle of a stage ({})",
                s.pending_description()
            ),
        });
    }
    Ok(s)
}

/// Applies exactly one turn of the side to move from `start` (a stage
/// pending: a rolled roll, or a remainder): the tokens must make up that
/// whole turn, every stage of a chain included, and nothing more. `pass`
/// tokens are ignored (a turn with nothing playable is empty).
pub fn apply_turn(
    start: &GameState,
    opts: &RuleOptions,
    words: &[&str],
) -> Result<GameState, String> {
    let mover = start.to_move;
    let toks: Vec<&str> = words.iter().copied().filter(|w| *w != "pass").collect();
    let over =
        |s: &GameState| s.result().is_some() || s.to_move != mover || s.stage_dice().is_none();
    // The shortest prefix that completes the turn; anything after it is extra.
    for k in 0..=toks.len() {
        if let Ok(s) = apply_moves(*start, opts, &toks[..k])
            && over(&s)
        {
            if k < toks.len() {
                return Err(format!(
                    "extra words after the turn ended: '{}'",
                    toks[k..].join(" ")
                ));
            }
            return Ok(s);
        }
    }
    match apply_moves(*start, opts, &toks) {
        Err(e) => Err(e.to_string()),
        Ok(_) => Err("the turn is not complete".into()),
    }
}

#[cfg(test)]
mod tests {
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
}
