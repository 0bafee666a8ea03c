//! `isready`, `stop` and `quit`: the session's control lines. Each is a
//! bare word (parsed by [`crate::protocol::parser`]), answered at once,
//! even while a search runs.

use crate::protocol::session::{Flow, Session};

impl Session {
    /// `isready`: `readyok`, at once.
    pub(in crate::protocol) fn isready(&self) {
        self.say("readyok");
    }

    /// `quit`: stops any search (its result is still written) and ends the session.
    pub(in crate::protocol) fn quit(&mut self) -> Flow {
        self.stop_search();
        Flow::Quit
    }
}
