//! The doubling cube and match play: the state of a session (money or a
//! match to N points, the score, Crawford, the cube), match equity tables,
//! and cubeful equities from the network's cubeless chances.
//!
//! The rules of checker play know nothing of this: a game is played the
//! same whatever the score; the session decides what its result is worth.

pub mod janowski;
pub mod kazaross_xg2;
pub mod match_play;
pub mod met;
pub mod state;

pub use janowski::{CubeAction, CubeDecision, CubeView, efficiency, money_decision, money_equity};
pub use match_play::{MatchScore, match_decision, match_mwc};
pub use met::{KAZAROSS_XG2, Met};
pub use state::{CubeOwner, CubeStateError, MatchState, SessionKind, SessionRules};
