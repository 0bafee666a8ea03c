//! `setcube value <N> owner <center|white|black>`: the cube's value and
//! owner (no double waits afterwards). UBGI v0.1's owners `p0` and `p1`
//! are White and Black.

use std::fmt;

use super::Verb;
use crate::cube::CubeOwner;
use crate::engine::Engine;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::{Words, number};
use crate::rules::Side;

const USAGE: &str = "usage: setcube value <n> owner <center|white|black>";

/// `setcube value <N> owner <owner>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetCube {
    /// The cube's value.
    pub value: u32,
    /// Its owner.
    pub owner: CubeOwner,
}

impl SetCube {
    /// Parses the words after `setcube`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let ["value", value, "owner", owner] = words.all()[..] else {
            return Err(ProtocolError::bad_command(USAGE));
        };
        let value = number("setcube value", Some(value))?;
        let owner = match owner {
            "center" | "centre" => CubeOwner::Centre,
            "white" | "p0" => CubeOwner::Side(Side::White),
            "black" | "p1" => CubeOwner::Side(Side::Black),
            t => {
                return Err(ProtocolError::bad_value(format!(
                    "setcube owner must be center, white (p0) or black (p1), got {}",
                    quote(t)
                )));
            }
        };
        Ok(SetCube { value, owner })
    }

    /// Applies `setcube` to `engine`; on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let mut session = *engine.session();
        session
            .set_cube(self.value, self.owner)
            .map_err(|e| ProtocolError::bad_value(e.to_string()))?;
        engine.set_session(session);
        Ok(())
    }
}

impl Verb for SetCube {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for SetCube {
    /// The owner as `center`, `white` or `black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setcube value {} owner {}", self.value, self.owner)
    }
}
