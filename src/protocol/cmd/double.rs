//! `double`: the side to move, before its roll, offers a double; the
//! opponent's answer (`take`, `drop` or `beaver`) is due.

use super::{Verb, bare_word};
use crate::engine::Engine;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};
use crate::rules::Pending;

bare_word!(
    /// `double`.
    Double = "double"
);

impl Double {
    /// Applies `double` to `engine`; on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let state = *engine.state();
        if state.result().is_some() {
            return Err(ProtocolError::bad_state("the game is over"));
        }
        if state.pending != Pending::Roll {
            return Err(ProtocolError::bad_state(format!(
                "a double comes before the roll ({})",
                state.pending_description()
            )));
        }
        let mut session = *engine.session();
        session
            .double(state.to_move)
            .map_err(|e| ProtocolError::bad_state(e.to_string()))?;
        engine.set_session(session);
        Ok(())
    }
}

impl Verb for Double {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}
