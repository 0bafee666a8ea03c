//! `set <key> <value>` and its UCI form `setoption name <key> value
//! <value>`: one setting, parsed by the settings' key/value layer and
//! applied to the engine (which loads and checks new weights).

use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::opt;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::engine::Engine;
use crate::protocol::dialect;
use crate::protocol::error::ProtocolError;
use crate::protocol::parser::{is_space, line_after};
use crate::protocol::session::setup_error;

use super::Command;

/// Parses a `set` line (`line` whole: the value is the rest of the line,
/// spaces inside it kept).
pub(crate) fn parse_set(line: &str, args: &[&str]) -> Result<Command, ProtocolError> {
    match args {
        [key, value @ ..] if !value.is_empty() => Ok(Command::Set {
            key: (*key).to_string(),
            value: line_after(line, 2).to_string(),
        }),
        _ => Err(ProtocolError::bad_command("usage: set <key> <value>")),
    }
}

/// Parses a `setoption` line (`line` whole).
pub(crate) fn parse_setoption(line: &str) -> Result<Command, ProtocolError> {
    let spaced = format!(" {}", line_after(line, 1));
    match setoption(&spaced) {
        Ok((_, (key, value))) if !value.is_empty() => Ok(Command::Set {
            key: key.to_string(),
            value: value.to_string(),
        }),
        _ => Err(ProtocolError::bad_command(
            "usage: setoption name <key> value <value>",
        )),
    }
}

/// `setoption name <key> value <value...>`: the key and the raw value text.
fn setoption(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, _) = (space1, tag("name"), space1).parse(i)?;
    let (i, key) = take_till1(is_space).parse(i)?;
    let (i, value) = opt(preceded((space1, tag("value"), space1), rest_trimmed)).parse(i)?;
    let (i, _) = space0.parse(i)?;
    Ok((i, (key, value.unwrap_or(""))))
}

/// The rest of the line without trailing spaces.
fn rest_trimmed(i: &str) -> IResult<&str, &str> {
    let t = i.trim_end_matches(is_space);
    Ok((&i[t.len()..], t))
}

/// Applies `set <key> <value>` to `engine`; on error nothing changes.
/// UBGI v0.1's option names ([`dialect::V01_OPTIONS`]) set their keys.
pub fn apply(engine: &mut Engine, key: &str, value: &str) -> Result<(), ProtocolError> {
    if key == dialect::DETERMINISTIC {
        return deterministic(value);
    }
    let key = dialect::v01_key(key).unwrap_or(key);
    let setting = engine.settings().parse(key, value)?;
    engine.set(setting).map_err(setup_error)
}

/// `Deterministic`: the search is deterministic whatever the value (it
/// uses no randomness), so only the value's form is checked.
fn deterministic(value: &str) -> Result<(), ProtocolError> {
    match value {
        "true" | "false" | "on" | "off" | "1" | "0" => Ok(()),
        _ => Err(ProtocolError::bad_value(format!(
            "Deterministic must be true or false, got {}",
            crate::protocol::error::quote(value)
        ))),
    }
}
