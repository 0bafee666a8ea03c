//! `setturn p0|p1` (UBGI v0.1): which player is on roll. `p0` is White and
//! `p1` Black, the players of `setscore` and `setcube`. A gnubg Position
//! ID says only the board of the player on roll, so the turn holds for the
//! current position (the mover's board kept, the sides' names swapped if
//! needed) and for every later `position gnubgid` without a Match ID,
//! until the next `setturn` or `newgame`.

use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::Session;
use crate::rules::Side;

use super::Command;

/// Parses the words after `setturn`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    match args {
        ["p0" | "white"] => Ok(Command::SetTurn(Side::White)),
        ["p1" | "black"] => Ok(Command::SetTurn(Side::Black)),
        [t] => Err(ProtocolError::bad_value(format!(
            "setturn takes p0 (White) or p1 (Black), got {}",
            quote(t)
        ))),
        _ => Err(ProtocolError::bad_command("usage: setturn p0|p1")),
    }
}

impl Session {
    /// Applies `setturn`.
    pub(in crate::protocol) fn setturn(&mut self, side: Side) -> Result<(), ProtocolError> {
        self.name_side_to_move(side)?;
        self.turn = Some(side);
        Ok(())
    }

    /// Names `side` the side to move in the current position.
    pub(in crate::protocol) fn name_side_to_move(
        &mut self,
        side: Side,
    ) -> Result<(), ProtocolError> {
        let next = self.state().with_side_to_move(side);
        if next != *self.state() {
            self.engine_mut()
                .set_state(next)
                .map_err(crate::protocol::session::setup_error)?;
        }
        Ok(())
    }
}
