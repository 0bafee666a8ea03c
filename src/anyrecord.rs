//! Reading a game record whatever its format: gulbara's own record
//! ([`crate::record`]), or a Jellyfish `.mat` file as gnubg exports it,
//! turned into a record first ([`crate::gnubg::mat::to_record`]). The one
//! place that tells the formats apart, above both codecs.

use crate::gnubg::mat;
use crate::record::{RecordError, ReplayedGame, replay, write_record};
use crate::rules::RuleOptions;

/// Replays a record or a `.mat` file: its rules and its games, each
/// checked against the rules and its recorded result.
pub fn replay_any(text: &str) -> Result<(RuleOptions, Vec<ReplayedGame>), RecordError> {
    if mat::is_mat(text) {
        let rec = mat::to_record(text)?;
        return replay(&write_record(&rec));
    }
    replay(text)
}
