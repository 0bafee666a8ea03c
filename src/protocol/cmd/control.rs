//! `isready`, `stop` and `quit`: the session's control lines. Each is a
//! bare word, answered at once, even while a search runs.

use super::{Verb, bare_word};
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};

bare_word!(
    /// `isready`: `readyok`, at once.
    IsReady = "isready"
);

bare_word!(
    /// `stop`: stops a running search (it prints its result).
    Stop = "stop"
);

bare_word!(
    /// `quit`: stops any search (its result is still written) and ends the
    /// session.
    Quit = "quit"
);

impl Verb for IsReady {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        session.say("readyok");
        Ok(Flow::Continue)
    }
}

impl Verb for Stop {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        session.stop_search();
        Ok(Flow::Continue)
    }
}

impl Verb for Quit {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        session.stop_search();
        Ok(Flow::Quit)
    }
}
