//! `get <key>`: the value of one setting, as `value <key> <value>`.

use std::fmt;

use super::Verb;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;

/// `get <key>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Get {
    /// The setting's name (or a UBGI v0.1 option name).
    pub key: String,
}

impl Get {
    /// Parses the words after `get`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        match words.all()[..] {
            [key] => Ok(Get {
                key: key.to_string(),
            }),
            _ => Err(ProtocolError::bad_command("usage: get <key>")),
        }
    }
}

impl Verb for Get {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        let key = &self.key;
        let name = crate::protocol::dialect::v01_key(key).unwrap_or(key);
        match session.settings().get(name) {
            Some(v) => {
                session.say(&format!("value {key} {v}"));
                Ok(Flow::Continue)
            }
            None => Err(ProtocolError::bad_value(format!(
                "unknown key {} (send keys for the list)",
                quote(key)
            ))),
        }
    }
}

impl fmt::Display for Get {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "get {}", self.key)
    }
}
