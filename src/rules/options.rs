//! Rule options: the game played and the readings of the rule texts that differ.
//!
//! Gul bara's defaults follow seed 001 (the Greek rules page), seed 000 where
//! 001 is silent, and the published Bulgarian rules where both are silent.
//! Long nardy's follow the Moscow Open reading of seed 002; short nardy is
//! seed 002's qisqa nard, backgammon the standard game.

use std::fmt;
use std::str::FromStr;

pub use super::variant::Variant;

/// Which doublets let a second checker leave the head on a side's first
/// turn in long nardy.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum HeadFirstTurn {
    /// A doublet whose four steps one head checker cannot complete.
    #[default]
    NeedsSecond,
    /// 3-3, 4-4 and 6-6, whatever the position.
    Fixed346,
    /// 4-4 and 6-6.
    Fixed46,
    /// Every doublet.
    AnyDouble,
}

/// When long nardy's six-block rule is judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SixBlock {
    /// Only the end of the turn (a six made and broken within it is fine).
    #[default]
    EndOfTurn,
    /// Every landing.
    PerStep,
}

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

/// Fevga's six-point primes outside the starting quarter.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Prime {
    /// Allowed; once every opposing checker left on the board stands on
    /// the point right behind one, its owner must open it (most sources).
    #[default]
    Duty,
    /// Never six points in a row with every opposing checker behind them
    /// (long nardy's six-block).
    Ban,
}

/// When Fevga's starting rule lets a second checker leave the start.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum StartRule {
    /// Once a checker has passed the opponent's start (the mover's 11 or
    /// lower, or off).
    #[default]
    Pass,
    /// Once a checker has reached the opponent's starting quarter (the
    /// mover's 12 or lower): differs only when the opponent's start is empty.
    Quarter,
}

/// Whether a pinned checker stops its side bearing off (Plakoto, Tapa).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PinnedBearoff {
    /// A pinned checker in the home counts as home: bearing off goes on
    /// (the pinned checker itself still cannot move).
    #[default]
    Home,
    /// No bearing off while any checker of the side is pinned.
    Refuse,
}

/// When a pinned mother ends the game (Plakoto, Tapa).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MotherTiming {
    /// At the step that pins it: the play stops there and counts as every die.
    #[default]
    Step,
    /// At the end of the play: the play goes on with every die it can use,
    /// and the game ends if a mother is still pinned for good after it.
    End,
}

/// All rule options of a game, the variant among them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleOptions {
    /// The game played.
    pub variant: Variant,
    /// `opening`: `single` | `reroll`.
    pub opening: Opening,
    /// `exempt_rolls` (Gul bara): how many first rolls play doublets without escalation.
    pub exempt_rolls: u32,
    /// `exempt_scope` (Gul bara): `player` | `game`.
    pub exempt_scope: ExemptScope,
    /// `remainder` (Gul bara): `opponent` | `lost`.
    pub remainder: RemainderRule,
    /// `head_first_turn` (long nardy).
    pub head_first_turn: HeadFirstTurn,
    /// `six_block` (long nardy, Fevga).
    pub six_block: SixBlock,
    /// `prime` (Fevga): `duty` | `ban`.
    pub prime: Prime,
    /// `start_rule` (Fevga): `pass` | `quarter`.
    pub start_rule: StartRule,
    /// `pinned_bearoff` (Plakoto, Tapa): `home` | `refuse`.
    pub pinned_bearoff: PinnedBearoff,
    /// `mother_timing` (Plakoto, Tapa): `step` | `end`.
    pub mother_timing: MotherTiming,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions::for_variant(Variant::GulBara)
    }
}

impl RuleOptions {
    /// The default options of a variant.
    pub const fn for_variant(variant: Variant) -> RuleOptions {
        RuleOptions {
            variant,
            opening: variant.spec().opening,
            exempt_rolls: 3,
            exempt_scope: ExemptScope::Player,
            remainder: RemainderRule::Opponent,
            head_first_turn: HeadFirstTurn::NeedsSecond,
            six_block: SixBlock::EndOfTurn,
            prime: Prime::Duty,
            start_rule: StartRule::Pass,
            pinned_bearoff: PinnedBearoff::Home,
            mother_timing: MotherTiming::Step,
        }
    }

    /// Whether doublets escalate in this game.
    pub fn escalating(&self) -> bool {
        self.variant.escalating()
    }
}

/// A rule option name or value that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No game has an option of this name.
    #[error("unknown rule option '{0}'")]
    Unknown(String),
    /// An option of other games only.
    #[error("{name} is not a rule option of {variant}")]
    NotAnOptionOf {
        /// The option's name.
        name: String,
        /// The game played.
        variant: Variant,
    },
    /// A word option's value is not one of its words.
    #[error("{option} must be one of {}, got '{got}'", .words.join("|"))]
    NotOneOf {
        /// The option (`game.variant` for the game's name).
        option: &'static str,
        /// Its words.
        words: &'static [&'static str],
        /// The value given.
        got: String,
    },
    /// A number option's value is not a whole number.
    #[error("{option} must be a whole number >= 0, got '{got}'")]
    NotANumber {
        /// The option.
        option: &'static str,
        /// The value given.
        got: String,
    },
    /// A number option's value is above its largest.
    #[error("{option} must be at most {max}, got '{got}'")]
    TooLarge {
        /// The option.
        option: &'static str,
        /// Its largest value.
        max: u32,
        /// The value given.
        got: String,
    },
}

impl RuleOptions {
    /// Sets one option of the current variant by name from its text value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if !self.variant.has_option(name) {
            return Err(if Self::any_option(name) {
                OptionError::NotAnOptionOf {
                    name: name.to_string(),
                    variant: self.variant,
                }
            } else {
                OptionError::Unknown(name.to_string())
            });
        }
        match name {
            "head_first_turn" => self.head_first_turn = value.parse()?,
            "six_block" => self.six_block = value.parse()?,
            "opening" => self.opening = value.parse()?,
            "exempt_rolls" => {
                let n: u32 = value.parse().map_err(|_| OptionError::NotANumber {
                    option: EXEMPT_ROLLS.name,
                    got: value.to_string(),
                })?;
                if n > MAX_EXEMPT_ROLLS {
                    return Err(OptionError::TooLarge {
                        option: EXEMPT_ROLLS.name,
                        max: MAX_EXEMPT_ROLLS,
                        got: value.to_string(),
                    });
                }
                self.exempt_rolls = n;
            }
            "exempt_scope" => self.exempt_scope = value.parse()?,
            "remainder" => self.remainder = value.parse()?,
            "prime" => self.prime = value.parse()?,
            "start_rule" => self.start_rule = value.parse()?,
            "pinned_bearoff" => self.pinned_bearoff = value.parse()?,
            "mother_timing" => self.mother_timing = value.parse()?,
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// Whether `name` is a rule option of any variant.
    pub fn any_option(name: &str) -> bool {
        Variant::ALL.iter().any(|v| v.has_option(name))
    }

    /// The text value of one option of the current variant.
    pub fn get(&self, name: &str) -> Option<String> {
        if !self.variant.has_option(name) {
            return None;
        }
        Some(match name {
            "head_first_turn" => self.head_first_turn.to_string(),
            "six_block" => self.six_block.to_string(),
            "opening" => self.opening.to_string(),
            "exempt_rolls" => self.exempt_rolls.to_string(),
            "exempt_scope" => self.exempt_scope.to_string(),
            "remainder" => self.remainder.to_string(),
            "prime" => self.prime.to_string(),
            "start_rule" => self.start_rule.to_string(),
            "pinned_bearoff" => self.pinned_bearoff.to_string(),
            "mother_timing" => self.mother_timing.to_string(),
            _ => return None,
        })
    }
}

/// What values a rule option takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// One of the listed words.
    Words(&'static [&'static str]),
}

/// One rule option: its name, its setting's key, its values and what it
/// means. The settings' key table and the variants' rows read these.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionDef {
    /// Its name, as in records' `Rules` tag and `rules.<name>`.
    pub name: &'static str,
    /// Its setting's key, `rules.<name>`.
    pub key: &'static str,
    /// Its values.
    pub kind: OptionKind,
    /// One-line description (the `key` line's).
    pub description: &'static str,
}

/// The largest `exempt_rolls`.
pub const MAX_EXEMPT_ROLLS: u32 = 1000;

/// One [`OptionDef`], its key made from its name.
macro_rules! option_def {
    ($name:literal, $kind:expr, $desc:literal) => {
        OptionDef {
            name: $name,
            key: concat!("rules.", $name),
            kind: $kind,
            description: $desc,
        }
    };
}

macro_rules! text_enum {
    ($t:ty, $what:literal, $desc:literal, $($v:path => $s:literal),+) => {
        impl $t {
            /// The option this type is the value of.
            pub const OPTION: OptionDef =
                option_def!($what, OptionKind::Words(&[$($s),+]), $desc);
        }
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
                    _ => Err(OptionError::NotOneOf {
                        option: $what,
                        words: &[$($s),+],
                        got: s.to_string(),
                    }),
                }
            }
        }
    };
}

text_enum!(Opening, "opening",
    "opening: single = play the opening throw, reroll = the winner rolls both dice",
    Opening::Single => "single", Opening::Reroll => "reroll");
text_enum!(ExemptScope, "exempt_scope",
    "whose rolls count towards the exemption",
    ExemptScope::Player => "player", ExemptScope::Game => "game");
text_enum!(RemainderRule, "remainder",
    "what happens to the unplayed rest of an escalating chain",
    RemainderRule::Opponent => "opponent", RemainderRule::Lost => "lost");
text_enum!(HeadFirstTurn, "head_first_turn",
    "long nardy: which first-turn doublets let a second checker leave the head",
    HeadFirstTurn::NeedsSecond => "needs_second", HeadFirstTurn::Fixed346 => "fixed_3_4_6",
    HeadFirstTurn::Fixed46 => "fixed_4_6", HeadFirstTurn::AnyDouble => "any_double");
text_enum!(SixBlock, "six_block",
    "long nardy and Fevga: when the six-block (and Fevga's starting-quarter) rule is judged",
    SixBlock::EndOfTurn => "end_of_turn", SixBlock::PerStep => "per_step");
text_enum!(Prime, "prime",
    "Fevga: duty = a six-point prime is allowed outside the starting quarter and must be opened once every opposing checker stands right behind it, ban = no six in a row with every opposing checker behind",
    Prime::Duty => "duty", Prime::Ban => "ban");
text_enum!(StartRule, "start_rule",
    "Fevga: a second checker leaves the start once one has passed the opponent's start (pass) or reached the opponent's starting quarter (quarter)",
    StartRule::Pass => "pass", StartRule::Quarter => "quarter");
text_enum!(PinnedBearoff, "pinned_bearoff",
    "Plakoto and Tapa: home = a pinned checker in the home counts as home for bearing off, refuse = no bearing off while a checker is pinned",
    PinnedBearoff::Home => "home", PinnedBearoff::Refuse => "refuse");
text_enum!(MotherTiming, "mother_timing",
    "Plakoto and Tapa: a pinned mother ends the game at the step that pins it (step) or at the end of the play (end)",
    MotherTiming::Step => "step", MotherTiming::End => "end");

/// `exempt_rolls`: how many first rolls play doublets without escalation.
pub const EXEMPT_ROLLS: OptionDef = option_def!(
    "exempt_rolls",
    OptionKind::Int {
        min: 0,
        max: MAX_EXEMPT_ROLLS
    },
    "first rolls whose doublets do not escalate"
);

/// Every rule option, in documentation order (the order of the settings'
/// `rules.*` keys and of each variant's row).
pub const OPTIONS: [OptionDef; 10] = [
    Opening::OPTION,
    EXEMPT_ROLLS,
    ExemptScope::OPTION,
    RemainderRule::OPTION,
    HeadFirstTurn::OPTION,
    SixBlock::OPTION,
    Prime::OPTION,
    StartRule::OPTION,
    PinnedBearoff::OPTION,
    MotherTiming::OPTION,
];

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
        for n in Variant::GulBara.option_names() {
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
        assert!(o.set("exempt_rolls", "1001").is_err());
        assert!(o.set("nonsense", "1").is_err());
        // The messages users see.
        for (name, value, said) in [
            (
                "opening",
                "double",
                "opening must be one of single|reroll, got 'double'",
            ),
            (
                "exempt_rolls",
                "-1",
                "exempt_rolls must be a whole number >= 0, got '-1'",
            ),
            (
                "exempt_rolls",
                "1001",
                "exempt_rolls must be at most 1000, got '1001'",
            ),
            ("nonsense", "1", "unknown rule option 'nonsense'"),
            (
                "six_block",
                "per_step",
                "six_block is not a rule option of gulbara",
            ),
        ] {
            assert_eq!(o.set(name, value).unwrap_err().to_string(), said);
        }
        assert_eq!(o, RuleOptions::default());
    }

    #[test]
    fn options_belong_to_their_variant() {
        let mut o = RuleOptions::default();
        assert!(o.set("six_block", "per_step").is_err());
        assert_eq!(o.get("six_block"), None);
        let mut n = RuleOptions::for_variant(Variant::LongNardy);
        assert_eq!(n.opening, Opening::Reroll);
        n.set("six_block", "per_step").unwrap();
        n.set("head_first_turn", "fixed_3_4_6").unwrap();
        assert!(n.set("remainder", "lost").is_err());
        assert_eq!(n.get("head_first_turn").unwrap(), "fixed_3_4_6");
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
        }
        assert_eq!(
            RuleOptions::for_variant(Variant::Backgammon).opening,
            Opening::Single
        );
    }

    #[test]
    fn the_table_says_what_set_takes() {
        for v in Variant::ALL {
            // Each row lists options of the table, in the table's order.
            let at: Vec<usize> = v
                .options()
                .iter()
                .map(|d| OPTIONS.iter().position(|o| o == d).unwrap())
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{v}");
            let mut o = RuleOptions::for_variant(v);
            for d in v.options() {
                assert_eq!(d.key, format!("rules.{}", d.name));
                let default = o.get(d.name).unwrap();
                match d.kind {
                    OptionKind::Words(words) => {
                        assert!(words.contains(&default.as_str()), "{v} {}", d.name);
                        for w in words {
                            o.set(d.name, w).unwrap();
                            assert_eq!(o.get(d.name).unwrap(), *w);
                        }
                        assert!(o.set(d.name, "nope").is_err());
                    }
                    OptionKind::Int { min, max } => {
                        let n: u32 = default.parse().unwrap();
                        assert!((min..=max).contains(&n), "{v} {}", d.name);
                        for n in [min, max] {
                            o.set(d.name, &n.to_string()).unwrap();
                            assert_eq!(o.get(d.name).unwrap(), n.to_string());
                        }
                        assert!(o.set(d.name, &(max + 1).to_string()).is_err());
                        assert_eq!(o.get(d.name).unwrap(), max.to_string());
                    }
                }
            }
        }
        // Every option of the table is some game's.
        for d in OPTIONS {
            assert!(RuleOptions::any_option(d.name), "{}", d.name);
        }
    }
}
