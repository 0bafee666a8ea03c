//! The rules core: board, steps, stage generation, turns, the game driver.
//!
//! Knows nothing about the protocol, the search or the match runner.

pub mod dice;
pub mod fevga;
pub mod hitting;
pub mod movegen;
pub mod nardy;
pub mod options;
pub mod pinning;
pub mod position;
pub mod ruleset;
pub mod state;
pub mod step;
#[cfg(test)]
mod testing;
pub mod turn;
pub mod variant;

pub use movegen::{MoveGen, StageEnd, stage_ends};
pub use options::RuleOptions;
pub use position::{Checkers, Position};
pub use ruleset::StageGen;
pub use state::{GameResult, GameState, Pending, PlayError, Side, StepProblem};
pub use step::{Play, StageDice, Step};
pub use turn::{
    MoveError, MoveFailure, MoveSequence, MoveToken, TurnError, TurnSequence, apply_move_tokens,
    apply_turn_tokens, skip_forced_empty,
};
pub use variant::{
    Direction, EvalFamily, Landing, RulesModule, Scores, ShippedNet, Variant, VariantSpec,
};
