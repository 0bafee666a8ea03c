//! `setturn p0|p1` (UBGI v0.1): which player is on roll. `p0` is White and
//! `p1` Black, the players of `setscore` and `setcube`. A gnubg Position
//! ID says only the board of the player on roll, so the turn holds for the
//! current position (the mover's board kept, the sides' names swapped if
//! needed) and for every later `position gnubgid` without a Match ID,
//! until the next `setturn` or `newgame`.

use std::fmt;

use super::Verb;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session, setup_error};
use crate::protocol::words::Words;
use crate::rules::Side;

/// `setturn p0|p1`: the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetTurn(pub Side);

impl SetTurn {
    /// Parses the words after `setturn`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        match words.all()[..] {
            ["p0" | "white"] => Ok(SetTurn(Side::White)),
            ["p1" | "black"] => Ok(SetTurn(Side::Black)),
            [t] => Err(ProtocolError::bad_value(format!(
                "setturn takes p0 (White) or p1 (Black), got {}",
                quote(t)
            ))),
            _ => Err(ProtocolError::bad_command("usage: setturn p0|p1")),
        }
    }
}

impl Verb for SetTurn {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        name_side_to_move(session, self.0)?;
        session.turn = Some(self.0);
        Ok(Flow::Continue)
    }
}

impl fmt::Display for SetTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Side::White => "setturn p0",
            Side::Black => "setturn p1",
        })
    }
}

/// Names `side` the side to move in `session`'s current position.
pub(super) fn name_side_to_move(session: &mut Session, side: Side) -> Result<(), ProtocolError> {
    let next = session.state().with_side_to_move(side);
    if next != *session.state() {
        session.engine_mut().set_state(next).map_err(setup_error)?;
    }
    Ok(())
}
