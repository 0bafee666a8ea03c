//! The dialects a session speaks. One command set serves them all; they
//! differ in the handshake, in how errors are written, and in the draft's
//! bare board lines.
//!
//! - [`Dialect::Native`]: this project's protocol (`protocol/SPEC.md`),
//!   UBGI v0.2-style: `key` lines, `set`, our error codes.
//! - [`Dialect::UbgiV01`]: UBGI v0.1 as bungogood/bgci speaks it
//!   (`option` lines, `setoption name Variant ...`, `go role ...`, its
//!   error codes). A native session switches to it at the first command
//!   only v0.1 has ([`speaks_v01`]); `--dialect ubgi-0.1` starts in it.
//! - [`Dialect::UbgiDraft`]: UBGI draft 0.01 (oysteijo): a bare FIBS board
//!   or XGID line is a request, answered by one line; every error is
//!   `sorry`. Its handshake ends in `readyok` where the others end in
//!   `ubgiok`, so one session cannot tell it from the others by its
//!   first line: only `--dialect ubgi-draft` chooses it.

use super::cmd::Command;

/// The dialect of a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// This project's protocol (UBGI v0.2-style).
    #[default]
    #[value(name = "gulbara")]
    Native,
    /// UBGI v0.1, as bgci speaks it.
    #[value(name = "ubgi-0.1")]
    UbgiV01,
    /// UBGI draft 0.01: bare board lines.
    #[value(name = "ubgi-draft")]
    UbgiDraft,
}

/// The option names of UBGI v0.1 and the keys they set.
pub const V01_OPTIONS: [(&str, &str); 4] = [
    ("Variant", "game.variant"),
    ("Threads", "engine.threads"),
    ("Seed", "engine.seed"),
    ("EvalMode", "engine.eval_mode"),
];

/// v0.1's `Deterministic`: the search uses no randomness, so it holds for
/// both values (a `movetime` or `nodes` limit is the one source of
/// variation, and the client sets those).
pub const DETERMINISTIC: &str = "Deterministic";

/// The key a v0.1 option name sets, `None` for another name.
pub fn v01_key(name: &str) -> Option<&'static str> {
    V01_OPTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, k)| *k)
}

/// Whether `cmd` is one that only UBGI v0.1 has: `go role ...`,
/// `setturn`, or `setoption` of a v0.1 option name.
pub fn speaks_v01(cmd: &Command) -> bool {
    match cmd {
        Command::Go(go) => go.0.role,
        Command::SetTurn(_) => true,
        Command::Set(set) => set.key == DETERMINISTIC || v01_key(&set.key).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_command;

    #[test]
    fn only_v01_forms_switch_the_dialect() {
        for line in [
            "go role chequer",
            "go role cube",
            "setturn p1",
            "setoption name Variant value backgammon",
            "setoption name Deterministic value true",
        ] {
            let cmd = parse_command(line).unwrap();
            assert!(speaks_v01(&cmd), "{line}");
        }
        for line in [
            "go",
            "go cube",
            "setoption name engine.ply value 1",
            "set engine.seed 3",
            "setcube value 2 owner white",
        ] {
            let cmd = parse_command(line).unwrap();
            assert!(!speaks_v01(&cmd), "{line}");
        }
    }
}
