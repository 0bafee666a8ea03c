//! The engine protocol: a UCI/UBGI-style line protocol for the tables games.
//!
//! [`parser`] turns a line into a typed [`Command`]; each command is a value
//! with its own file under [`cmd`]: its type, its `parse` over the
//! [`words::Words`] cursor, its `apply` and its `Display` (the line it is
//! written as, which the match runner's client sends);
//! [`session::Session`] holds a client's [`crate::engine::Engine`], applies
//! commands and writes responses; [`settings`] is the key/value face of the engine's settings;
//! the transports in [`crate::server`] only move lines. The full
//! specification is `protocol/SPEC.md`.

pub mod cmd;
pub mod dialect;
pub mod draft;
pub mod error;
pub mod parser;
pub mod session;
pub mod settings;
pub mod words;

pub use cmd::{Verb, apply_setup};
pub use dialect::Dialect;
pub use error::{ErrorCode, ProtocolError};
pub use parser::{Command, parse_command};
pub use session::{FileAccess, Flow, Output, Session, SessionConfig};
pub use settings::Settings;
