//! UBGI draft 0.01 (oysteijo/Universal-Backgammon-Interface): a bare FIBS
//! board line or an XGID line is a request for the best action of the
//! player it asks (the player on turn; after a double, the player who must
//! answer), and the reply is one line:
//!
//! - a play, written out step by step in the mover's numbering, the bar
//!   25 and off 0, without `*` or `(2)`: `8/5 6/5`, `25/22 13/11`;
//! - `double` or `roll` before the roll; `take` or `drop` to a double;
//! - an empty line when no checker can move.
//!
//! A FIBS board is read as FIBS writes it ([`crate::gnubg::fibs::Flavour::Fibs`]);
//! an XGID as `position xgid` reads it, with its score, cube and a double
//! waiting. Both are backgammon formats: the session plays them in its
//! current game (a draft session starts in backgammon).

use crate::frontends::board_answer::{self, BoardAnswer};
use crate::gnubg::fibs;
use crate::protocol::cmd::position::{Base, PositionCmd};
use crate::protocol::error::ProtocolError;
use crate::protocol::session::Session;
use crate::rules::Step;

/// A board request of the draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardLine<'a> {
    /// A FIBS board (`board:...`).
    Fibs(&'a str),
    /// An XGID (`XGID=...`).
    Xgid(&'a str),
}

/// The board request `line` holds, if it is one.
pub fn board_line(line: &str) -> Option<BoardLine<'_>> {
    let t = line.trim();
    if t.starts_with("board:") {
        Some(BoardLine::Fibs(t))
    } else if t.starts_with("XGID=") {
        Some(BoardLine::Xgid(t))
    } else {
        None
    }
}

/// A play as the draft writes it: each step `from/to` in the mover's
/// numbering, 25 the bar, 0 off; empty for no play.
pub fn play_text(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| format!("{}/{}", s.from, s.to()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn answer_text(a: &BoardAnswer) -> String {
    match a {
        BoardAnswer::Play { steps, .. } => play_text(steps),
        BoardAnswer::Double => "double".into(),
        BoardAnswer::Roll => "roll".into(),
        BoardAnswer::Take => "take".into(),
        BoardAnswer::Drop => "drop".into(),
    }
}

/// Answers one draft board request with its one line.
pub(in crate::protocol) fn answer_request(
    session: &mut Session,
    board: BoardLine<'_>,
) -> Result<(), ProtocolError> {
    let variant = session.settings().rules.variant;
    let reply = match board {
        BoardLine::Fibs(line) => {
            let req =
                fibs::parse_fibs(line).map_err(|e| ProtocolError::bad_value(e.to_string()))?;
            let a = board_answer::answer(session.engine_mut(), variant, &req)
                .map_err(|e| ProtocolError::bad_value(e.to_string()))?;
            answer_text(&a)
        }
        BoardLine::Xgid(x) => {
            PositionCmd {
                base: Base::Xgid(x.to_string()),
                moves: Vec::new(),
            }
            .apply_to(session.engine_mut())?;
            answer_text(&xgid_answer(session)?)
        }
    };
    session.say(&reply);
    Ok(())
}

/// The best action in the position an XGID set: the answer to a
/// double waiting, the play of the dice, or the cube before the roll.
fn xgid_answer(session: &Session) -> Result<BoardAnswer, ProtocolError> {
    let engine = session.engine();
    let busy = |e: crate::engine::SearchError| ProtocolError::bad_state(e.to_string());
    let state = *engine.state();
    if engine.session().doubled_by().is_some() {
        // The doubler is to move; its decision's answer is ours.
        let d = engine.cube_decision_now().map_err(busy)?;
        return Ok(match d.map(|d| d.action.answer()) {
            Some("drop") => BoardAnswer::Drop,
            _ => BoardAnswer::Take,
        });
    }
    if state.stage_dice().is_some() {
        let ranked = engine.best_turns_now().map_err(busy)?;
        let steps = ranked.first().map(|c| c.steps.clone()).unwrap_or_default();
        return Ok(BoardAnswer::Play { from: state, steps });
    }
    let d = engine.cube_decision_now().map_err(busy)?;
    Ok(match d {
        Some(d) if d.action.doubles() => BoardAnswer::Double,
        _ => BoardAnswer::Roll,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_lines_are_told_from_commands() {
        assert_eq!(
            board_line("  board:You:x:1"),
            Some(BoardLine::Fibs("board:You:x:1"))
        );
        assert_eq!(
            board_line("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"),
            Some(BoardLine::Xgid(
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
            ))
        );
        assert_eq!(board_line("position xgid XGID=..."), None);
        assert_eq!(board_line("ubgi"), None);
    }

    #[test]
    fn plays_are_written_step_by_step_from_the_bar_to_off() {
        let steps = [Step::new(25, 3), Step::new(13, 2), Step::new(2, 2)];
        assert_eq!(play_text(&steps), "25/22 13/11 2/0");
        assert_eq!(play_text(&[]), "");
    }
}
