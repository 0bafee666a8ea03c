//! The settings' key table is the engine's ([`crate::engine::keys`]): the
//! protocol lists, sets and gets keys through it, and writes its
//! [`SettingError`]s as `error bad_value` lines.

pub use crate::engine::keys::{KeyDef, KeyKind, MAX_TEXT_VALUE, SettingError, max_threads};
pub use crate::engine::settings::{EvalKind, EvalMode, RaceKind, Settings};

use crate::protocol::error::ProtocolError;

impl From<SettingError> for ProtocolError {
    fn from(e: SettingError) -> ProtocolError {
        ProtocolError::bad_value(e.to_string())
    }
}
