//! The protocol's errors: every refusal is one `error <code> <detail>` line.

use std::fmt;

/// The error codes of `error <code> <detail>` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Malformed syntax, invalid UTF-8, an overlong line.
    BadCommand,
    /// A command the protocol does not have (written `bad_command` in the
    /// native dialect, `unknown_command` in UBGI v0.1).
    UnknownCommand,
    /// A well-formed command with a value that is out of range, unknown or illegal.
    BadValue,
    /// The command is fine but not now (no dice, game over).
    BadState,
    /// A search is running (written `bad_state` in the native dialect,
    /// `search_in_progress` in UBGI v0.1).
    Busy,
    /// A known UCI/UBGI command or argument that gulbara does not implement.
    Unsupported,
}

impl ErrorCode {
    /// The code as the native dialect writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadCommand | ErrorCode::UnknownCommand => "bad_command",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::BadState | ErrorCode::Busy => "bad_state",
            ErrorCode::Unsupported => "unsupported",
        }
    }

    /// The code as UBGI v0.1 writes it (bgci's `docs/ubgi-v0.1-spec.md`).
    pub fn v01(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::BadCommand | ErrorCode::BadValue => "bad_argument",
            ErrorCode::BadState => "missing_context",
            ErrorCode::Busy => "search_in_progress",
            ErrorCode::Unsupported => "unsupported_feature",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol error: written as `error <code> <detail>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// The error code.
    pub code: ErrorCode,
    /// A human-readable detail (one line).
    pub detail: String,
}

impl ProtocolError {
    /// An error with `code` and `detail`.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ProtocolError {
            code,
            detail: detail.into(),
        }
    }

    /// `bad_command`.
    pub fn bad_command(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadCommand, detail)
    }

    /// `bad_value`.
    pub fn bad_value(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadValue, detail)
    }

    /// `bad_state`.
    pub fn bad_state(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadState, detail)
    }

    /// `unsupported`.
    pub fn unsupported(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unsupported, detail)
    }
}

impl ProtocolError {
    /// The detail on one line: control characters become spaces.
    fn clean_detail(&self) -> String {
        self.detail
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    }

    /// The error line as UBGI v0.1 writes it: its code, then the detail.
    pub fn v01_line(&self) -> String {
        format!("error {} {}", self.code.v01(), self.clean_detail())
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {} {}", self.code, self.clean_detail())
    }
}

impl std::error::Error for ProtocolError {}

pub use crate::engine::keys::quote;
