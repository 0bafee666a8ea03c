//! The protocol's commands, one file each: how its words are parsed and
//! what it does to a session (as mini-redis keeps `cmd/get.rs`). The
//! [`Command`] enum names them all; [`crate::protocol::parser`] splits a
//! line into words and hands them to the command's `parse`, and
//! [`crate::protocol::Session`] hands a parsed command to its `apply`.
//!
//! The commands that set a game up (`set`, `newgame`, `position`, `dice`)
//! apply to an [`Engine`] alone, so `gulbara rollout --setup` uses them
//! without a session ([`apply_setup`]).

pub mod answer;
pub mod control;
pub mod cube;
pub mod dice;
pub mod double;
pub mod eval;
pub mod get;
pub mod go;
pub mod hint;
pub mod keys;
pub mod legal;
pub mod newgame;
pub mod newsession;
pub mod position;
pub mod rollout;
pub mod set;
pub mod setcube;
pub mod setscore;
pub mod setturn;
pub mod show;
pub mod ubgi;
pub mod variants;

pub use crate::engine::GoParams;
pub use newsession::NewSession;
pub use position::Base;
pub use rollout::RolloutArgs;

use super::error::ProtocolError;
use crate::cube::CubeAnswer;
use crate::engine::Engine;
use crate::rules::GameState;

/// One parsed protocol command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// An empty line (ignored).
    Empty,
    /// `ubgi`: identify and list the settings.
    Ubgi,
    /// `isready`.
    IsReady,
    /// `newgame`.
    NewGame,
    /// `quit`.
    Quit,
    /// `stop`.
    Stop,
    /// `keys`.
    Keys,
    /// `variants`: every game's capabilities and rule options.
    Variants,
    /// `show`.
    Show,
    /// `eval`.
    Eval,
    /// `set <key> <value>` or `setoption name <key> value <value>`.
    Set {
        /// The setting's name.
        key: String,
        /// Its new value, as text.
        value: String,
    },
    /// `get <key>`.
    Get {
        /// The setting's name.
        key: String,
    },
    /// `position ... [moves ...]`.
    Position {
        /// The base position.
        base: Base,
        /// The move tokens, applied in order by the session.
        moves: Vec<String>,
    },
    /// `dice <d1> <d2>` (or `dice <d1d2>`).
    Dice(u8, u8),
    /// `go ...`.
    Go(GoParams),
    /// `legal [orders] [limit <n>]`.
    Legal {
        /// At most this many `play` lines.
        limit: usize,
        /// `orders`: every order of each play's steps that reaches its end.
        orders: bool,
    },
    /// `hint [n] [probs] [rollout <games> [rollout options]]`.
    Hint {
        /// How many plays to list.
        count: usize,
        /// `rollout G ...`: rank the plays by a rollout of each.
        rollout: Option<RolloutArgs>,
        /// `probs`: each line also gives the chances after the play.
        probs: bool,
    },
    /// `rollout [games N] [truncate P] [ply K] [seed S] [luck on|off]
    /// [every K] [moves <play> ...]`.
    Rollout(RolloutArgs),
    /// `newsession type money|match ...`.
    NewSession(NewSession),
    /// `setscore <white> <black> [crawford|postcrawford]`.
    SetScore {
        /// White's points.
        white: u32,
        /// Black's points.
        black: u32,
        /// Whether this is the Crawford game; `None`: the usual reading.
        crawford: Option<bool>,
    },
    /// `setcube value <N> owner <center|white|black>`.
    SetCube {
        /// The cube's value.
        value: u32,
        /// Its owner.
        owner: crate::cube::CubeOwner,
    },
    /// `setturn p0|p1` (UBGI v0.1): the player on roll.
    SetTurn(crate::rules::Side),
    /// `double`.
    Double,
    /// `take`, `drop` or `beaver`.
    Answer(CubeAnswer),
}

/// Applies a command that sets the game up (`set`, `newgame`,
/// `position`, `dice`) to `engine`: what a session does with them, and
/// what `gulbara rollout --setup` does with its lines. Any other command
/// is refused (`bad_command`). On error nothing changes.
pub fn apply_setup(engine: &mut Engine, cmd: Command) -> Result<(), ProtocolError> {
    match cmd {
        Command::Set { key, value } => set::apply(engine, &key, &value),
        Command::NewGame => {
            newgame::apply(engine);
            Ok(())
        }
        Command::Position { base, moves } => position::apply(engine, base, &moves),
        Command::Dice(d1, d2) => dice::apply(engine, d1, d2),
        Command::NewSession(spec) => newsession::apply(engine, &spec),
        Command::SetScore {
            white,
            black,
            crawford,
        } => setscore::apply(engine, white, black, crawford),
        Command::SetCube { value, owner } => setcube::apply(engine, value, owner),
        Command::Double => double::apply(engine),
        Command::Answer(a) => answer::apply(engine, a),
        _ => Err(ProtocolError::bad_command(
            "only set, newgame, position, dice and the session commands set a game up",
        )),
    }
}

/// Whether `state` has a stage to play, or why there is nothing to play
/// (for the error of `what`).
pub(crate) fn need_stage(state: &GameState, what: &str) -> Result<(), ProtocolError> {
    if state.result().is_some() {
        return Err(ProtocolError::bad_state("the game is over"));
    }
    if state.stage_dice().is_none() {
        return Err(ProtocolError::bad_state(format!(
            "no dice: send dice <d1> <d2> before {what}"
        )));
    }
    Ok(())
}

/// A probability or an equity as the protocol writes it: four decimals.
pub(crate) fn fmt_p(p: f32) -> String {
    format!("{p:.4}")
}
