//! `setscore <white> <black> [crawford|postcrawford]`: the score of the
//! session. In a match with one side one point from victory, the game is
//! the Crawford game unless `postcrawford` says it has been played.

use crate::engine::Engine;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::{no_more, number};

use super::Command;

/// Parses the words after `setscore`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let white = number("setscore", args.first())?;
    let black = number("setscore", args.get(1))?;
    let crawford = match args.get(2).copied() {
        None => None,
        Some("crawford") => Some(true),
        Some("postcrawford") => Some(false),
        Some(t) => {
            return Err(ProtocolError::bad_command(format!(
                "usage: setscore <white> <black> [crawford|postcrawford]; got {}",
                quote(t)
            )));
        }
    };
    no_more("setscore", args.get(3..).unwrap_or(&[]))?;
    Ok(Command::SetScore {
        white,
        black,
        crawford,
    })
}

/// Applies `setscore` to `engine`; on error nothing changes.
pub fn apply(
    engine: &mut Engine,
    white: u32,
    black: u32,
    crawford: Option<bool>,
) -> Result<(), ProtocolError> {
    let mut session = *engine.session();
    session
        .set_score(white, black, crawford)
        .map_err(|e| ProtocolError::bad_value(e.to_string()))?;
    engine.set_session(session);
    Ok(())
}
