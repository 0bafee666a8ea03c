//! Reading a game record whatever its format: gulbara's own record
//! ([`crate::record`]), or a Jellyfish `.mat` file as gnubg exports it,
//! turned into a record first ([`crate::gnubg::mat::to_record`]). The one
//! place that tells the formats apart, above both codecs.

use crate::gnubg::mat::{self, MatReadError};
use crate::record::{RecordError, ReplayedGame, replay, write_record};
use crate::rules::RuleOptions;

/// Why a record or a `.mat` file does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadAnyError {
    /// The record (or the `.mat` file's, as written) does not replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The `.mat` file does not read.
    #[error(transparent)]
    Mat(#[from] MatReadError),
}

/// Replays a record or a `.mat` file: its rules and its games, each
/// checked against the rules and its recorded result.
pub fn replay_any(text: &str) -> Result<(RuleOptions, Vec<ReplayedGame>), ReadAnyError> {
    if mat::is_mat(text) {
        let rec = mat::to_record(text)?;
        return Ok(replay(&write_record(&rec))?);
    }
    Ok(replay(text)?)
}
