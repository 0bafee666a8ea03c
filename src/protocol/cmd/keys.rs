//! `keys`: one `key` line per setting of the current game.

use crate::protocol::session::Session;

impl Session {
    /// Answers `keys` (and the settings part of `ubgi`).
    pub(in crate::protocol) fn keys(&self) {
        let settings = self.settings();
        for d in settings.current_defs() {
            self.say(&settings.key_line(&d));
        }
    }
}
