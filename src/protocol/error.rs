//! The protocol's errors: every refusal is one `error <code> <detail>` line.

use std::fmt;

/// The error codes of `error <code> <detail>` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Unknown command, malformed syntax, invalid UTF-8, an overlong line.
    BadCommand,
    /// A well-formed command with a value that is out of range, unknown or illegal.
    BadValue,
    /// The command is fine but not now (no dice, search running, game over).
    BadState,
    /// A known UCI/UBGI command or argument that gulbara does not implement.
    Unsupported,
}

impl ErrorCode {
    /// The code as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadCommand => "bad_command",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::BadState => "bad_state",
            ErrorCode::Unsupported => "unsupported",
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

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail: String = self
            .detail
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        write!(f, "error {} {}", self.code, detail)
    }
}

impl std::error::Error for ProtocolError {}

/// Shortens a user's token for an error message.
pub fn quote(tok: &str) -> String {
    const MAX: usize = 40;
    // Control characters are shown escaped (`'a\rb'`), so the client sees
    // what it sent; elsewhere in an error's detail they become spaces
    // (`ProtocolError`'s Display).
    let mut out = String::from("'");
    for (i, c) in tok.chars().enumerate() {
        if i == MAX {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}
