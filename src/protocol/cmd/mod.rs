//! The protocol's commands as values, one file each: its type, how its
//! words are parsed (`parse`, over a [`Words`] cursor), what it does to a
//! session (`apply`, [`Verb`]) and how it is written back as its line
//! (`Display`: `parse_command(&cmd.to_string()) == Ok(cmd)`). The
//! [`Command`] enum names them all; [`crate::protocol::parser`] reads a
//! line's command word and hands the rest to that command's `parse`;
//! [`crate::protocol::Session`] hands a parsed command to its `apply`. The
//! match runner's client writes its lines with the same values.
//!
//! The commands that set a game up (`set`, `newgame`, `position`, `dice`
//! and the session commands) apply to an [`Engine`] alone (`apply_to`), so
//! `gulbara rollout --setup` and the HTTP API use them without a session
//! ([`apply_setup`]).

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

#[cfg(test)]
mod roundtrip;

use std::fmt;

pub use crate::engine::GoParams;
pub use answer::Answer;
pub use control::{IsReady, Quit, Stop};
pub use dice::DiceCmd;
pub use double::Double;
pub use eval::Eval;
pub use get::Get;
pub use go::Go;
pub use hint::Hint;
pub use keys::Keys;
pub use legal::Legal;
pub use newgame::NewGame;
pub use newsession::NewSession;
pub use position::{Base, PositionCmd};
pub use rollout::RolloutArgs;
pub use set::Set;
pub use setcube::SetCube;
pub use setscore::SetScore;
pub use setturn::SetTurn;
pub use show::Show;
pub use ubgi::Ubgi;
pub use variants::Variants;

use super::error::ProtocolError;
use super::session::{Flow, Session};
pub use super::words::Words;
use crate::engine::Engine;
use crate::rules::GameState;

/// What every command type does besides being parsed and written: it is
/// applied to a session, and it says whether it only reads the session.
pub trait Verb: fmt::Display {
    /// Whether the command only reads the session (its settings, its
    /// position, the search's state): such a command is answered while a
    /// search runs, when every other one is refused as busy.
    fn read_only(&self) -> bool {
        false
    }

    /// Applies the command to `session`, writing its response lines; on
    /// error nothing changes.
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError>;
}

/// Defines a command that is one bare word (with its `parse` and
/// `Display`); its file gives its [`Verb`].
macro_rules! bare_word {
    ($(#[$doc:meta])* $name:ident = $word:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl $name {
            #[doc = concat!("Parses the words after `", $word, "`: there are none.")]
            pub fn parse(
                words: &mut crate::protocol::words::Words<'_>,
            ) -> Result<Self, crate::protocol::error::ProtocolError> {
                words.finish($word)?;
                Ok($name)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($word)
            }
        }
    };
}
pub(crate) use bare_word;

/// The enum of commands (an empty line, then one variant a command, each
/// holding its command's value) and a `From` for each value.
macro_rules! commands {
    ($($(#[$doc:meta])* $name:ident($ty:ty),)*) => {
        /// One parsed protocol command: each variant holds its command's value.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Command {
            /// An empty line (ignored).
            Empty,
            $($(#[$doc])* $name($ty),)*
        }

        $(impl From<$ty> for Command {
            fn from(c: $ty) -> Command {
                Command::$name(c)
            }
        })*
    };
}

commands! {
    /// `ubgi`: identify and list the settings.
    Ubgi(Ubgi),
    /// `isready`.
    IsReady(IsReady),
    /// `newgame`.
    NewGame(NewGame),
    /// `quit`.
    Quit(Quit),
    /// `stop`.
    Stop(Stop),
    /// `keys`.
    Keys(Keys),
    /// `variants`: every game's capabilities and rule options.
    Variants(Variants),
    /// `show`.
    Show(Show),
    /// `eval`.
    Eval(Eval),
    /// `set <key> <value>` or `setoption name <key> value <value>`.
    Set(Set),
    /// `get <key>`.
    Get(Get),
    /// `position ... [moves ...]`.
    Position(PositionCmd),
    /// `dice <d1> <d2>` (or `dice <d1d2>`).
    Dice(DiceCmd),
    /// `go ...`.
    Go(Go),
    /// `legal [orders] [limit <n>]`.
    Legal(Legal),
    /// `hint [n] [probs] [rollout <games> [rollout options]]`.
    Hint(Hint),
    /// `rollout [games N] [truncate P] [ply K] [seed S] [luck on|off]
    /// [every K] [moves <play> ...]`.
    Rollout(RolloutArgs),
    /// `newsession type money|match ...`.
    NewSession(NewSession),
    /// `setscore <white> <black> [crawford|postcrawford]`.
    SetScore(SetScore),
    /// `setcube value <N> owner <center|white|black>`.
    SetCube(SetCube),
    /// `setturn p0|p1` (UBGI v0.1): the player on roll.
    SetTurn(SetTurn),
    /// `double`.
    Double(Double),
    /// `take`, `drop` or `beaver`.
    Answer(Answer),
}

/// `$e` with `$c` bound to the value of each command but the empty line,
/// `$empty` for that.
macro_rules! each_command {
    ($cmd:expr, $c:ident => $e:expr, empty => $empty:expr) => {
        match $cmd {
            Command::Empty => $empty,
            Command::Ubgi($c) => $e,
            Command::IsReady($c) => $e,
            Command::NewGame($c) => $e,
            Command::Quit($c) => $e,
            Command::Stop($c) => $e,
            Command::Keys($c) => $e,
            Command::Variants($c) => $e,
            Command::Show($c) => $e,
            Command::Eval($c) => $e,
            Command::Set($c) => $e,
            Command::Get($c) => $e,
            Command::Position($c) => $e,
            Command::Dice($c) => $e,
            Command::Go($c) => $e,
            Command::Legal($c) => $e,
            Command::Hint($c) => $e,
            Command::Rollout($c) => $e,
            Command::NewSession($c) => $e,
            Command::SetScore($c) => $e,
            Command::SetCube($c) => $e,
            Command::SetTurn($c) => $e,
            Command::Double($c) => $e,
            Command::Answer($c) => $e,
        }
    };
}

impl Command {
    /// Whether the command only reads the session (answered while a
    /// search runs): its value's [`Verb::read_only`]; an empty line does.
    pub fn read_only(&self) -> bool {
        each_command!(self, c => c.read_only(), empty => true)
    }

    /// Applies the command to `session` ([`Verb::apply`]).
    pub fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        each_command!(self, c => c.apply(session), empty => Ok(Flow::Continue))
    }
}

impl fmt::Display for Command {
    /// The command's line (an empty line for [`Command::Empty`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each_command!(self, c => fmt::Display::fmt(c, f), empty => Ok(()))
    }
}

/// Applies a command that sets the game up (`set`, `newgame`,
/// `position`, `dice` and the session commands) to `engine`: what a
/// session does with them, and what `gulbara rollout --setup` does with
/// its lines. Any other command is refused (`bad_command`). On error
/// nothing changes.
pub fn apply_setup(engine: &mut Engine, cmd: Command) -> Result<(), ProtocolError> {
    match cmd {
        Command::Set(c) => c.apply_to(engine),
        Command::NewGame(c) => {
            c.apply_to(engine);
            Ok(())
        }
        Command::Position(c) => c.apply_to(engine),
        Command::Dice(c) => c.apply_to(engine),
        Command::NewSession(c) => c.apply_to(engine),
        Command::SetScore(c) => c.apply_to(engine),
        Command::SetCube(c) => c.apply_to(engine),
        Command::Double(c) => c.apply_to(engine),
        Command::Answer(c) => c.apply_to(engine),
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
