//! `double`: the side to move, before its roll, offers a double; the
//! opponent's answer (`take`, `drop` or `beaver`) is due.

use crate::engine::Engine;
use crate::protocol::error::ProtocolError;
use crate::rules::Pending;

/// Applies `double` to `engine`; on error nothing changes.
pub fn apply(engine: &mut Engine) -> Result<(), ProtocolError> {
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
