//! `dice <d1> <d2>` (or `dice <d1d2>`): the roll of the side to move.

use crate::engine::Engine;
use crate::notation;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::die;
use crate::protocol::session::setup_error;
use crate::rules::Pending;

use super::Command;

/// Parses the words after `dice`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "usage: dice <d1> <d2> (each 1..6)";
    match args {
        [a, b] => match (die(a), die(b)) {
            (Some(x), Some(y)) => Ok(Command::Dice(x, y)),
            _ => Err(ProtocolError::bad_value(format!(
                "dice must be 1..6, got {} {}",
                quote(a),
                quote(b)
            ))),
        },
        [ab] => match notation::parse_roll(ab) {
            Some((x, y)) => Ok(Command::Dice(x, y)),
            None => Err(ProtocolError::bad_value(format!(
                "{usage}, got {}",
                quote(ab)
            ))),
        },
        _ => Err(ProtocolError::bad_command(usage)),
    }
}

/// Applies `dice` to `engine`: only when the side to move is to roll; on
/// error nothing changes.
pub fn apply(engine: &mut Engine, d1: u8, d2: u8) -> Result<(), ProtocolError> {
    let state = engine.state();
    if state.result().is_some() {
        return Err(ProtocolError::bad_state("the game is over"));
    }
    if let Some(doubler) = engine.session().doubled_by() {
        return Err(ProtocolError::bad_state(format!(
            "{} has doubled: the answer (take, drop or beaver) comes before the roll",
            crate::cube::state::side_name(doubler)
        )));
    }
    match state.pending {
        Pending::Roll => {}
        Pending::Remainder { .. } => {
            return Err(ProtocolError::bad_state(
                "a remainder is pending: play it first (go plays it without dice)",
            ));
        }
        _ => {
            return Err(ProtocolError::bad_state(format!(
                "dice are already set ({}); send position to start over",
                state.pending_description()
            )));
        }
    }
    let next = state
        .roll(&engine.settings().rules, d1, d2)
        .map_err(|e| ProtocolError::bad_state(e.to_string()))?;
    engine.set_state(next).map_err(setup_error)
}
