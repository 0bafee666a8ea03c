//! `take`, `drop` and `beaver`: the doubled side's answer. A take doubles
//! the cube and gives it to the taker; a beaver (money play with beavers)
//! doubles it once more and the taker keeps it; a drop ends the game, the
//! doubler scoring the cube's value, and a new game starts.

use std::fmt;

use super::Verb;
use crate::cube::CubeAnswer;
use crate::engine::Engine;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;

/// `take`, `drop` (or `pass`) or `beaver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer(pub CubeAnswer);

impl Answer {
    /// Parses the words after the answer's word `word`: there are none.
    pub fn parse(
        answer: CubeAnswer,
        word: &str,
        words: &mut Words<'_>,
    ) -> Result<Self, ProtocolError> {
        words.finish(word)?;
        Ok(Answer(answer))
    }

    /// Applies the answer to `engine`; on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let mut session = *engine.session();
        let refused = |e: crate::cube::CubeStateError| ProtocolError::bad_state(e.to_string());
        match self.0 {
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
}

impl Verb for Answer {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            CubeAnswer::Take => "take",
            CubeAnswer::Drop => "drop",
            CubeAnswer::Beaver => "beaver",
        })
    }
}
