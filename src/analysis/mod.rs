//! Analysis: rollouts ([`rollout`]) and their shards ([`shard`]), the race
//! tables' check of the networks ([`racecheck`]), and the analysis of game
//! records ([`records`]).

pub mod racecheck;
pub mod records;
pub mod rollout;
pub mod shard;
