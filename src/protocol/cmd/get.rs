//! `get <key>`: the value of one setting, as `value <key> <value>`.

use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::Session;

use super::Command;

/// Parses the words after `get`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    match args {
        [key] => Ok(Command::Get {
            key: (*key).to_string(),
        }),
        _ => Err(ProtocolError::bad_command("usage: get <key>")),
    }
}

impl Session {
    /// Answers `get <key>`.
    pub(in crate::protocol) fn get(&self, key: &str) -> Result<(), ProtocolError> {
        let name = crate::protocol::dialect::v01_key(key).unwrap_or(key);
        match self.settings().get(name) {
            Some(v) => {
                self.say(&format!("value {key} {v}"));
                Ok(())
            }
            None => Err(ProtocolError::bad_value(format!(
                "unknown key {} (send keys for the list)",
                quote(key)
            ))),
        }
    }
}
