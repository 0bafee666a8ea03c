//! `ubgi`: the handshake. The engine's name, author and protocol version,
//! every setting's `key` line, then `ubgiok`.

use crate::protocol::session::{Session, id_name};

impl Session {
    /// Answers `ubgi`.
    pub(in crate::protocol) fn ubgi(&self) {
        self.say(&id_name());
        self.say("id author the gulbara developers");
        self.say("proto 0.2");
        self.keys();
        self.say("ubgiok");
    }
}
