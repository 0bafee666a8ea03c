//! `keys`: one `key` line per setting of the current game.

use super::{Verb, bare_word};
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};

bare_word!(
    /// `keys`: the settings' `key` lines.
    Keys = "keys"
);

impl Verb for Keys {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        say_keys(session);
        Ok(Flow::Continue)
    }
}

/// Writes the `key` lines (`keys`, and the settings part of `ubgi`).
pub(super) fn say_keys(session: &Session) {
    let settings = session.settings();
    for d in settings.current_defs() {
        session.say(&settings.key_line(&d));
    }
}
