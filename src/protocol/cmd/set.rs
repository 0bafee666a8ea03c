//! `set <key> <value>` and its UCI form `setoption name <key> value
//! <value>`: one setting, parsed by the settings' key/value layer and
//! applied to the engine (which loads and checks new weights).

use std::fmt;

use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::opt;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::Verb;
use crate::engine::Engine;
use crate::protocol::dialect;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session, setup_error};
use crate::protocol::words::{Words, is_space};

/// `set <key> <value>` (or `setoption name <key> value <value>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    /// The setting's name (or a UBGI v0.1 option name).
    pub key: String,
    /// Its new value, as text: the rest of the line, spaces inside it kept.
    pub value: String,
}

impl Set {
    /// `set <key> <value>`.
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Set {
        Set {
            key: key.into(),
            value: value.into(),
        }
    }

    /// Parses the words after `set`: the key, then the rest of the line
    /// as the value.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let key = words.next();
        let value = words.text();
        match key {
            Some(key) if !value.is_empty() => Ok(Set::new(key, value)),
            _ => Err(ProtocolError::bad_command("usage: set <key> <value>")),
        }
    }

    /// Parses the words after `setoption`.
    pub fn parse_setoption(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let spaced = format!(" {}", words.text());
        match setoption(&spaced) {
            Ok((_, (key, value))) if !value.is_empty() => Ok(Set::new(key, value)),
            _ => Err(ProtocolError::bad_command(
                "usage: setoption name <key> value <value>",
            )),
        }
    }

    /// Applies `set <key> <value>` to `engine`; on error nothing changes.
    /// UBGI v0.1's option names ([`dialect::V01_OPTIONS`]) set their keys.
    pub fn apply_to(&self, engine: &mut Engine) -> Result<(), ProtocolError> {
        if self.key == dialect::DETERMINISTIC {
            return deterministic(&self.value);
        }
        let key = dialect::v01_key(&self.key).unwrap_or(&self.key);
        let setting = engine.settings().parse(key, &self.value)?;
        engine.set(setting).map_err(setup_error)
    }
}

impl Verb for Set {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "set {} {}", self.key, self.value)
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
