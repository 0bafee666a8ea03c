//! `newgame`: the start of a new game of the current variant, White to
//! roll; the settings stay. In a rotating match, the start of the
//! rotation's next game (its default rules; the session stays).

use super::{Verb, bare_word};
use crate::engine::Engine;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};

bare_word!(
    /// `newgame`.
    NewGame = "newgame"
);

impl NewGame {
    /// Applies `newgame` to `engine`.
    pub fn apply_to(self, engine: &mut Engine) {
        engine.next_game();
    }
}

impl Verb for NewGame {
    /// Also forgets `setturn`'s player on roll.
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        session.turn = None;
        self.apply_to(session.engine_mut());
        Ok(Flow::Continue)
    }
}
