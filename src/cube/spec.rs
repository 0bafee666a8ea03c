//! A session's kind and rules as text: what the match runner plays, and
//! what a record was played in.

use std::fmt;
use std::str::FromStr;

use super::{CubeStateError, MatchState, SessionKind, SessionRules};

/// A session's kind and rules, as the match runner's command line, its
/// shard files and the records' `Session` tag write them: `money cube on|off [jacoby on|off] [beavers
/// on|off]` or `match N cube on|off [crawford on|off]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionSpec(pub MatchState);

impl SessionSpec {
    /// Money play without the cube: each game worth its points.
    pub fn cubeless() -> SessionSpec {
        SessionSpec(crate::cube::cubeless())
    }

    /// The match length, `None` for money play.
    pub fn match_length(&self) -> Option<u32> {
        match self.0.kind() {
            SessionKind::Money => None,
            SessionKind::Match { length } => Some(length),
        }
    }
}

impl fmt::Display for SessionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        let r = self.0.rules();
        match self.0.kind() {
            SessionKind::Money => write!(
                f,
                "money cube {} jacoby {} beavers {}",
                on(r.cube),
                on(r.jacoby),
                on(r.beavers)
            ),
            SessionKind::Match { length } => write!(
                f,
                "match {length} cube {} crawford {}",
                on(r.cube),
                on(r.crawford)
            ),
        }
    }
}

/// A session text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad session '{text}': {why} (money cube on|off [jacoby on|off] [beavers on|off], or match N cube on|off [crawford on|off])"
)]
pub struct SessionSpecError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub why: SessionSpecProblem,
}

/// What is wrong with a session text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionSpecProblem {
    /// The word after `match` is not a number.
    #[error("'{0}' is not a length")]
    NotALength(String),
    /// The first word is neither `money` nor `match`.
    #[error("it starts with neither money nor match")]
    NoKind,
    /// An option without its value.
    #[error("options come as name on|off")]
    OddWords,
    /// A value other than `on` and `off`.
    #[error("'{0}' is neither on nor off")]
    NotOnOff(String),
    /// An option the session kind does not have.
    #[error("no option '{0}' here")]
    NoOption(String),
    /// A match length out of range.
    #[error(transparent)]
    State(#[from] CubeStateError),
}

impl FromStr for SessionSpec {
    type Err = SessionSpecError;

    fn from_str(text: &str) -> Result<SessionSpec, SessionSpecError> {
        let bad = |why: SessionSpecProblem| SessionSpecError {
            text: text.to_string(),
            why,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let (length, rest) = match words.as_slice() {
            ["money", rest @ ..] => (None, rest),
            ["match", n, rest @ ..] => (
                Some(
                    n.parse::<u32>()
                        .map_err(|_| bad(SessionSpecProblem::NotALength(n.to_string())))?,
                ),
                rest,
            ),
            _ => return Err(bad(SessionSpecProblem::NoKind)),
        };
        let mut rules = SessionRules::default();
        if rest.len() % 2 != 0 {
            return Err(bad(SessionSpecProblem::OddWords));
        }
        for kv in rest.chunks(2) {
            let v = match kv[1] {
                "on" => true,
                "off" => false,
                other => return Err(bad(SessionSpecProblem::NotOnOff(other.to_string()))),
            };
            match (kv[0], length.is_some()) {
                ("cube", _) => rules.cube = v,
                ("jacoby", false) => rules.jacoby = v,
                ("beavers", false) => rules.beavers = v,
                ("crawford", true) => rules.crawford = v,
                (other, _) => return Err(bad(SessionSpecProblem::NoOption(other.to_string()))),
            }
        }
        let state = match length {
            None => MatchState::money(rules),
            Some(n) => MatchState::match_to(n, rules).map_err(|e| bad(e.into()))?,
        };
        Ok(SessionSpec(state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_texts_round_trip_and_bad_ones_are_refused() {
        for t in [
            "money cube off jacoby off beavers off",
            "money cube on jacoby on beavers on",
            "match 7 cube on crawford on",
            "match 1 cube off crawford off",
        ] {
            let s: SessionSpec = t.parse().unwrap();
            assert_eq!(s.to_string(), t);
        }
        assert_eq!(
            "match 9".parse::<SessionSpec>().unwrap().match_length(),
            Some(9)
        );
        for bad in [
            "",
            "match",
            "match 0",
            "match x",
            "money cube",
            "money crawford on",
            "match 5 jacoby on",
            "money cube maybe",
        ] {
            assert!(bad.parse::<SessionSpec>().is_err(), "{bad}");
        }
    }
}
