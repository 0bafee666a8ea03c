//! `dice <d1> <d2>` (or `dice <d1d2>`): the roll of the side to move.

use std::fmt;

use super::Verb;
use crate::engine::Engine;
use crate::notation;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session, setup_error};
use crate::protocol::words::{Words, die};
use crate::rules::Pending;

/// `dice <d1> <d2>`: each 1..6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceCmd {
    /// The first die.
    pub d1: u8,
    /// The second die.
    pub d2: u8,
}

impl DiceCmd {
    /// Parses the words after `dice`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let usage = "usage: dice <d1> <d2> (each 1..6)";
        match words.all()[..] {
            [a, b] => match (die(a), die(b)) {
                (Some(d1), Some(d2)) => Ok(DiceCmd { d1, d2 }),
                _ => Err(ProtocolError::bad_value(format!(
                    "dice must be 1..6, got {} {}",
                    quote(a),
                    quote(b)
                ))),
            },
            [ab] => match notation::parse_roll(ab) {
                Some((d1, d2)) => Ok(DiceCmd { d1, d2 }),
                None => Err(ProtocolError::bad_value(format!(
                    "{usage}, got {}",
                    quote(ab)
                ))),
            },
            _ => Err(ProtocolError::bad_command(usage)),
        }
    }

    /// Applies `dice` to `engine`: only when the side to move is to roll;
    /// on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
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
            .roll(&engine.settings().rules, self.d1, self.d2)
            .map_err(|e| ProtocolError::bad_state(e.to_string()))?;
        engine.set_state(next).map_err(setup_error)
    }
}

impl Verb for DiceCmd {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for DiceCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dice {} {}", self.d1, self.d2)
    }
}
