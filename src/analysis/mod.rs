//! Analysis: rollouts ([`rollout`]) and their shards ([`shard`]), the race
//! tables' check of the networks ([`racecheck`]), the analysis of game
//! records ([`records`]), and the result rates a match equity table is
//! made from ([`met_rates`]).

pub mod met_rates;
pub mod racecheck;
pub mod records;
pub mod rollout;
pub mod shard;
