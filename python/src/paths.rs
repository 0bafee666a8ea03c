//! Every item of the gulbara library this package uses, named once: when a
//! module moves inside the library, only these lines follow it.

pub use gulbara::analysis::rollout::{
    MAX_CANDIDATES, MAX_GAMES, MAX_TRUNCATE, Rollout, RolloutParams, Root, Stats,
};
pub use gulbara::cube::state::cubeless;
pub use gulbara::cube::{
    CubeOwner, CubeQuestion, MatchState, SessionKind, SessionRules, cubeful_at, decide_at, met_for,
    valuation,
};
pub use gulbara::engine::SettingError;
pub use gulbara::engine::settings::EvalMode;
pub use gulbara::engine::{EngineConfig, EvalKind, Ply, Settings, default_session};
pub use gulbara::eval::{Evaluator, Probs, probs_for, probs_for_batch};
pub use gulbara::game::{GameRecord, Player, play_started_game};
pub use gulbara::matchplay::builtin::Builtin;
pub use gulbara::notation::{move_token_text, parse_state_text_in, play_text_at, state_text};
pub use gulbara::protocol::ProtocolError;
pub use gulbara::protocol::cmd::position::{Base, PositionCmd};
pub use gulbara::protocol::cmd::show::id_texts;
pub use gulbara::rules::dice::{DiceSource, GameStart, SeededDice, open_game};
pub use gulbara::rules::ruleset::check_position;
pub use gulbara::rules::{
    Checkers, GameState, Pending, Position, RuleOptions, Side, StageDice, StageEnd, StageGen, Step,
    Variant,
};
pub use gulbara::search::{Candidate, Limits, Search, Valuation};

/// The engine a front end sets up to read positions and IDs.
pub type LibEngine = gulbara::engine::Engine;
