//! The engine protocol: a UCI/UBGI-style line protocol extended for Gul bara.
//!
//! [`parser`] turns a line into a typed [`Command`]; [`session::Session`]
//! applies commands and writes responses; the transports in
//! [`crate::server`] only move lines. The full specification is
//! `protocol/SPEC.md`.

pub mod parser;
pub mod session;
pub mod settings;

pub use parser::{Command, ErrorCode, ProtocolError, parse_command};
pub use session::{FileAccess, Flow, Output, Session, SessionConfig};
pub use settings::Settings;
