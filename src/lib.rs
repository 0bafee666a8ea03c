//! gulbara: an engine for the tables games — Gul bara (rosespring
//! backgammon), long nardy, short nardy and backgammon — with exact rules,
//! stage-by-stage move generation, a trained network per game, 1- to
//! 3-ply search (gnubg's 0- to 2-ply), rollouts, a match runner, gnubg
//! interop and a line protocol over stdio, TCP and WebSocket.
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
pub mod anyrecord;
pub mod cli;
pub mod cube;
pub mod engine;
pub mod eval;
pub mod frontends;
pub mod fuzz_targets;
pub mod game;
pub mod gnubg;
pub mod matchplay;
pub mod notation;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod search;
pub mod server;
pub mod sharding;
pub mod splitmix;
pub mod stats;
pub mod training;
