//! Rule options: the readings of the rule texts that differ.
//!
//! Defaults follow seed 001 (the Greek rules page), seed 000 where 001 is
//! silent, and the published Bulgarian rules where both are silent.

use std::fmt;
use std::str::FromStr;

/// How the first turn of a game is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Opening {
    /// Each side throws one die; the higher side plays those two numbers (seed 001).
    #[default]
    Single,
    /// The winner of the opening throw then rolls both dice (seed 000).
    Reroll,
}

/// Whose rolls count towards the exemption from escalation.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ExemptScope {
    /// Each player's own first rolls are exempt (seed 001).
    #[default]
    Player,
    /// The first rolls of the game, whoever made them (seed 000).
    Game,
}

/// What happens to the rest of an escalating chain that stops short.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RemainderRule {
    /// The opponent plays it, stage by stage, before rolling.
    #[default]
    Opponent,
    /// It is simply lost.
    Lost,
}

/// All rule options of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleOptions {
    /// `opening`: `single` | `reroll`.
    pub opening: Opening,
    /// `exempt_rolls`: how many first rolls play doublets without escalation.
    pub exempt_rolls: u32,
    /// `exempt_scope`: `player` | `game`.
    pub exempt_scope: ExemptScope,
    /// `remainder`: `opponent` | `lost`.
    pub remainder: RemainderRule,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            opening: Opening::Single,
            exempt_rolls: 3,
            exempt_scope: ExemptScope::Player,
            remainder: RemainderRule::Opponent,
        }
    }
}

/// A rule option name or value that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionError(pub String);

impl RuleOptions {
    /// The option names, in documentation order.
    pub const NAMES: [&'static str; 4] = ["opening", "exempt_rolls", "exempt_scope", "remainder"];

    /// Sets one option by name from its text value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        match name {
            "opening" => self.opening = value.parse()?,
            "exempt_rolls" => {
                self.exempt_rolls = value.parse().map_err(|_| {
                    OptionError(format!(
                        "exempt_rolls must be a whole number >= 0, got '{value}'"
                    ))
                })?;
                if self.exempt_rolls > 1000 {
                    return Err(OptionError(format!(
                        "exempt_rolls must be at most 1000, got '{value}'"
                    )));
                }
            }
            "exempt_scope" => self.exempt_scope = value.parse()?,
            "remainder" => self.remainder = value.parse()?,
            _ => return Err(OptionError(format!("unknown rule option '{name}'"))),
        }
        Ok(())
    }

    /// The text value of one option.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "opening" => self.opening.to_string(),
            "exempt_rolls" => self.exempt_rolls.to_string(),
            "exempt_scope" => self.exempt_scope.to_string(),
            "remainder" => self.remainder.to_string(),
            _ => return None,
        })
    }
}

macro_rules! text_enum {
    ($t:ty, $what:literal, $($v:path => $s:literal),+) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($v => $s),+ })
            }
        }
        impl FromStr for $t {
            type Err = OptionError;
            fn from_str(s: &str) -> Result<Self, OptionError> {
                match s {
                    $($s => Ok($v),)+
                    _ => Err(OptionError(format!(
                        concat!($what, " must be one of {}, got '{}'"),
                        [$($s),+].join("|"), s
                    ))),
                }
            }
        }
    };
}

text_enum!(Opening, "opening", Opening::Single => "single", Opening::Reroll => "reroll");
text_enum!(ExemptScope, "exempt_scope", ExemptScope::Player => "player", ExemptScope::Game => "game");
text_enum!(RemainderRule, "remainder", RemainderRule::Opponent => "opponent", RemainderRule::Lost => "lost");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_get_round_trip() {
        let mut o = RuleOptions::default();
        o.set("opening", "reroll").unwrap();
        o.set("exempt_rolls", "0").unwrap();
        o.set("exempt_scope", "game").unwrap();
        o.set("remainder", "lost").unwrap();
        for n in RuleOptions::NAMES {
            let v = o.get(n).unwrap();
            let mut p = RuleOptions::default();
            p.set(n, &v).unwrap();
            assert_eq!(p.get(n).unwrap(), v);
        }
        assert_eq!(o.opening, Opening::Reroll);
        assert_eq!(o.remainder, RemainderRule::Lost);
    }

    #[test]
    fn bad_values_rejected_without_change() {
        let mut o = RuleOptions::default();
        assert!(o.set("opening", "double").is_err());
        assert!(o.set("exempt_rolls", "-1").is_err());
        assert!(o.set("exempt_rolls", "x").is_err());
        assert!(o.set("nonsense", "1").is_err());
        assert_eq!(o, RuleOptions::default());
    }
}
