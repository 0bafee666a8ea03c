//! gulbara: a Gul bara (rosespring backgammon, crazy narde) engine.
//!
//! The rules core ([`rules`], [`notation`]) knows nothing about the protocol
//! or the search; the evaluators and search build on it; the protocol and the
//! transports build on those.

pub mod analysis;
pub mod eval;
pub mod matchplay;
pub mod notation;
pub mod record;
pub mod rules;
pub mod search;

pub mod cli;
pub mod protocol;
pub mod server;
pub mod tools;
pub mod train;
