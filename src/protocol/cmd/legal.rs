//! `legal [limit <n>]`: the current stage's legal plays, one `play` line
//! each sorted by text, then `legal count <n> playable <k> [truncated]`.

use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::{no_more, number};
use crate::protocol::session::Session;
use crate::rules::StageGen;

use super::{Command, need_stage};

/// The default of `legal limit`.
pub const DEFAULT_LEGAL_LIMIT: usize = 10_000;

/// Parses the words after `legal`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    match args {
        [] => Ok(Command::Legal {
            limit: DEFAULT_LEGAL_LIMIT,
        }),
        ["limit", rest @ ..] => {
            let limit = number::<usize>("legal limit", rest.first())?;
            no_more("legal limit <n>", &rest[1..])?;
            Ok(Command::Legal { limit })
        }
        [t, ..] => Err(ProtocolError::bad_command(format!(
            "usage: legal [limit <n>], got {}",
            quote(t)
        ))),
    }
}

impl Session {
    /// Answers `legal`.
    pub(in crate::protocol) fn legal(&self, limit: usize) -> Result<(), ProtocolError> {
        let state = self.state();
        need_stage(state, "legal")?;
        let Some(dice) = state.stage_dice() else {
            return Ok(());
        };
        let mut movegen = StageGen::new();
        let mut ends = Vec::new();
        let playable = movegen.generate(&self.settings().rules, state, dice, &mut ends);
        // Sorted by text, so the order does not depend on the generator's.
        let (variant, pos) = (state.variant, state.pos);
        let mut plays: Vec<String> = ends
            .iter()
            .map(|e| play_text_at(variant, pos, e.play.steps()))
            .collect();
        plays.sort_unstable();
        for p in plays.iter().take(limit) {
            self.say(&format!("play {p}"));
        }
        let truncated = if ends.len() > limit { " truncated" } else { "" };
        self.say(&format!(
            "legal count {} playable {playable}{truncated}",
            ends.len()
        ));
        Ok(())
    }
}
