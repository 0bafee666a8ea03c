//! Training: the networks' self-play TD(λ) for every game ([`td`] for the
//! running games, [`td_hitting`] for the hitting games), refinement towards
//! 1-ply targets ([`refine`]), and the gate that keeps a new network only
//! when it beats the one before (each command's `--gate`).

mod error;
pub mod label;
pub mod refine;
pub mod supervise;
pub mod td;
pub mod td_hitting;

pub use error::TrainError;
