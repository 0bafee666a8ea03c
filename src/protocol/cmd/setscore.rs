//! `setscore <white> <black> [crawford|postcrawford]`: the score of the
//! session. In a match with one side one point from victory, the game is
//! the Crawford game unless `postcrawford` says it has been played.

use std::fmt;

use super::Verb;
use crate::engine::Engine;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;

/// `setscore <white> <black> [crawford|postcrawford]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetScore {
    /// White's points.
    pub white: u32,
    /// Black's points.
    pub black: u32,
    /// Whether this is the Crawford game; `None`: the usual reading.
    pub crawford: Option<bool>,
}

impl SetScore {
    /// Parses the words after `setscore`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let white = words.number("setscore")?;
        let black = words.number("setscore")?;
        let crawford = match words.next() {
            None => None,
            Some("crawford") => Some(true),
            Some("postcrawford") => Some(false),
            Some(t) => {
                return Err(ProtocolError::bad_command(format!(
                    "usage: setscore <white> <black> [crawford|postcrawford]; got {}",
                    quote(t)
                )));
            }
        };
        words.finish("setscore")?;
        Ok(SetScore {
            white,
            black,
            crawford,
        })
    }

    /// Applies `setscore` to `engine`; on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let mut session = *engine.session();
        session
            .set_score(self.white, self.black, self.crawford)
            .map_err(|e| ProtocolError::bad_value(e.to_string()))?;
        engine.set_session(session);
        Ok(())
    }
}

impl Verb for SetScore {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for SetScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setscore {} {}", self.white, self.black)?;
        match self.crawford {
            None => Ok(()),
            Some(true) => f.write_str(" crawford"),
            Some(false) => f.write_str(" postcrawford"),
        }
    }
}
