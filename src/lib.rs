//! gulbara: a Gul bara (rosespring backgammon, crazy narde) engine.
//!
//! The rules core ([`rules`], [`notation`]) knows nothing about the protocol
//! or the search; the evaluators and search build on it; the protocol and the
//! transports build on those.
//!
//! ```
//! use gulbara::notation::{apply_moves, parse_state_text, START_TEXT};
//! use gulbara::rules::RuleOptions;
//!
//! // Seed 001's worked example: White 6-5 plays 24/19 24/18, 349 pips left.
//! let start = parse_state_text(START_TEXT).unwrap();
//! let after = apply_moves(start, &RuleOptions::default(), &["65", "24/19", "24/18"]).unwrap();
//! assert_eq!(after.pos.opp.pips(), 349); // Black is to move; White is the opponent.
//! ```

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod eval;
/// Fuzz targets over every input format (driven by `fuzz/` and `tests/fuzz_smoke.rs`).
pub mod fuzz_targets;
pub mod gnubg;
pub mod matchplay;
pub mod notation;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod search;
pub mod server;
pub mod training;
