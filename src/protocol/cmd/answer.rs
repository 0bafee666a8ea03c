//! `take`, `drop` and `beaver`: the doubled side's answer. A take doubles
//! the cube and gives it to the taker; a beaver (money play with beavers)
//! doubles it once more and the taker keeps it; a drop ends the game, the
//! doubler scoring the cube's value, and a new game starts.

use crate::cube::CubeAnswer;
use crate::engine::Engine;
use crate::protocol::error::ProtocolError;

/// Applies the answer to `engine`; on error nothing changes.
pub fn apply(engine: &mut Engine, answer: CubeAnswer) -> Result<(), ProtocolError> {
    let mut session = *engine.session();
    let refused = |e: crate::cube::CubeStateError| ProtocolError::bad_state(e.to_string());
    match answer {
        CubeAnswer::Take => session.take().map_err(refused)?,
        CubeAnswer::Beaver => session.beaver().map_err(refused)?,
        CubeAnswer::Drop => {
            session.drop_double().map_err(refused)?;
            engine.set_session(session);
            engine.new_game();
            return Ok(());
        }
    }
    engine.set_session(session);
    Ok(())
}
