//! `setcube value <N> owner <center|white|black>`: the cube's value and
//! owner (no double waits afterwards). UBGI v0.1's owners `p0` and `p1`
//! are White and Black.

use crate::cube::CubeOwner;
use crate::engine::Engine;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::number;
use crate::rules::Side;

use super::Command;

const USAGE: &str = "usage: setcube value <n> owner <center|white|black>";

/// Parses the words after `setcube`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let ["value", value, "owner", owner] = args else {
        return Err(ProtocolError::bad_command(USAGE));
    };
    let value = number("setcube value", Some(value))?;
    let owner = match *owner {
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
    Ok(Command::SetCube { value, owner })
}

/// Applies `setcube` to `engine`; on error nothing changes.
pub fn apply(engine: &mut Engine, value: u32, owner: CubeOwner) -> Result<(), ProtocolError> {
    let mut session = *engine.session();
    session
        .set_cube(value, owner)
        .map_err(|e| ProtocolError::bad_value(e.to_string()))?;
    engine.set_session(session);
    Ok(())
}
