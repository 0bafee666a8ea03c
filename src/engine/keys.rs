//! The settings as keys and values: every key `ubgi`/`keys` lists, and
//! `set` and `get` of them. This is the one place where settings are parsed
//! from text: [`Settings::parse`] turns a `(key, value)` pair into a typed
//! [`Setting`] for an [`crate::engine::Engine`], or a [`SettingError`]
//! saying why not (the protocol writes it as an `error bad_value` line).
//! The match runner's in-process players, the gnubg bridge and the FIBS
//! bot read their `key=value` options through it too.

use super::settings::{EvalKind, EvalMode, Ply, RaceKind, Setting, Settings, Weights};
use crate::rules::Variant;
use crate::rules::options::{OPTIONS, OptionError, OptionKind};

/// Why a `(key, value)` pair is not a setting. Each message is the detail
/// of the protocol's `error bad_value` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// No such key.
    #[error("unknown key {} (send keys for the list)", quote(.0))]
    UnknownKey(String),
    /// A `rules.*` key of another variant.
    #[error("{key} is not an option of {variant} (send keys for the list)")]
    NotAnOption {
        /// The key.
        key: &'static str,
        /// The variant played.
        variant: Variant,
    },
    /// A number key's value is not a whole number in its range.
    #[error("{key} must be a whole number in {min}..{max}, got {}", quote(.got))]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// The value given.
        got: String,
    },
    /// A word key's value is not one of its words.
    #[error("{key} must be one of {}, got {}", .words.join("|"), quote(.got))]
    NotOneOf {
        /// The key.
        key: &'static str,
        /// Its words.
        words: &'static [&'static str],
        /// The value given.
        got: String,
    },
    /// A text key's value is not one token.
    #[error("{key} must be one token of at most {MAX_TEXT_VALUE} bytes without spaces or control characters, got {}", quote(.got))]
    NotAToken {
        /// The key.
        key: &'static str,
        /// The value given.
        got: String,
    },
    /// The rules refuse the value of a `rules.*` key or of `game.variant`.
    #[error(transparent)]
    Rule(#[from] OptionError),
}

/// Shortens a user's token for an error message.
pub fn quote(tok: &str) -> String {
    const MAX: usize = 40;
    // Control characters are shown escaped (`'a\rb'`), so the client sees
    // what it sent; elsewhere in an error's detail they become spaces
    // (`ProtocolError`'s Display).
    let mut out = String::from("'");
    for (i, c) in tok.chars().enumerate() {
        if i == MAX {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// The type of a setting, as announced in `key` lines.
#[derive(Clone, Copy, Debug)]
pub enum KeyKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// Free text (one token).
    Text,
}

/// One setting's definition.
#[derive(Clone, Copy, Debug)]
pub struct KeyDef {
    /// Its name, as in `set <name> <value>`.
    pub name: &'static str,
    /// Its type.
    pub kind: KeyKind,
    /// One-line description.
    pub description: &'static str,
}

/// The largest `engine.threads`: the number of CPUs.
pub fn max_threads() -> u64 {
    // Asked once: the answer reads /proc and cgroup files every time.
    static CPUS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get() as u64)
            .unwrap_or(1)
            .max(1)
    })
}

const MAX_MOVETIME: u64 = 86_400_000;

/// The longest `string` value.
pub const MAX_TEXT_VALUE: usize = 4096;

/// A `string` value must be one token that every response line can carry:
/// no white space, no control characters, not too long.
fn check_token(key: &'static str, value: &str) -> Result<(), SettingError> {
    if value.is_empty()
        || value.len() > MAX_TEXT_VALUE
        || value.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(SettingError::NotAToken {
            key,
            got: value.to_string(),
        });
    }
    Ok(())
}

impl Settings {
    /// Every key, in the order `ubgi` and `keys` list them.
    pub fn defs() -> Vec<KeyDef> {
        let variant = KeyDef {
            name: "game.variant",
            kind: KeyKind::Enum(&Variant::NAMES),
            description: "the game played; setting it starts a new game of that variant (rules.* back to its defaults)",
        };
        let rules = OPTIONS.iter().map(|o| KeyDef {
            name: o.key,
            kind: match o.kind {
                OptionKind::Int { min, max } => KeyKind::Int {
                    min: min.into(),
                    max: max.into(),
                },
                OptionKind::Words(words) => KeyKind::Enum(words),
            },
            description: o.description,
        });
        let engine = [
            KeyDef {
                name: "engine.ply",
                kind: KeyKind::Int { min: 1, max: 3 },
                description: "search depth counted root-inclusive (1 = gnubg 0-ply, 2 = gnubg 1-ply, 3 = gnubg 2-ply)",
            },
            KeyDef {
                name: "engine.threads",
                kind: KeyKind::Int {
                    min: 1,
                    max: max_threads(),
                },
                description: "search threads",
            },
            KeyDef {
                name: "engine.seed",
                kind: KeyKind::Int {
                    min: 0,
                    max: u32::MAX as u64,
                },
                description: "random seed (the baseline search is deterministic and uses none)",
            },
            KeyDef {
                name: "engine.movetime",
                kind: KeyKind::Int {
                    min: 0,
                    max: MAX_MOVETIME,
                },
                description: "milliseconds per go, 0 = no limit",
            },
            KeyDef {
                name: "engine.eval",
                kind: KeyKind::Enum(&["heuristic", "net"]),
                description: "the evaluator: heuristic = hand-written baseline, net = trained network",
            },
            KeyDef {
                name: "engine.weights",
                kind: KeyKind::Text,
                description: "network weights for engine.eval net: shipped (inside the binary) or a weights file (over TCP only one inside the server's --weights-dir)",
            },
            KeyDef {
                name: "engine.race_weights",
                kind: KeyKind::Text,
                description: "the hitting games' network for races outside the bear-off tables: shipped (none is shipped yet: the engine.weights network judges them) or a weights file, read as engine.weights is",
            },
            KeyDef {
                name: "engine.crashed_weights",
                kind: KeyKind::Text,
                description: "the hitting games' network for crashed positions (gnubg's definition): shipped (none is shipped yet: the engine.weights network judges them) or a weights file, read as engine.weights is",
            },
            KeyDef {
                name: "engine.beam",
                kind: KeyKind::Int { min: 1, max: 1000 },
                description: "partial turns kept per stage of an escalating chain at the root",
            },
            KeyDef {
                name: "engine.prefilter",
                kind: KeyKind::Int {
                    min: 0,
                    max: 100000,
                },
                description: "ends of each doublet stage at the root judged by the evaluator, the best by a cheap race and blocking score (0 = all)",
            },
            KeyDef {
                name: "engine.blend",
                kind: KeyKind::Int { min: 0, max: 100 },
                description: "hundredths of a turn's 0-ply value mixed into its 1-ply value when the 1-ply search re-judges it (0 = plain 1-ply)",
            },
            KeyDef {
                name: "engine.race",
                kind: KeyKind::Enum(&["tables", "eval"]),
                description: "races with every checker home: tables = exact bear-off tables, eval = the evaluator as elsewhere",
            },
            KeyDef {
                name: "engine.eval_mode",
                kind: KeyKind::Enum(&["cubeful", "cubeless"]),
                description: "checker play at a match score: cubeful = by match-winning chances, cubeless = by cubeless money equity",
            },
            KeyDef {
                name: "engine.cube_efficiency",
                kind: KeyKind::Int { min: 0, max: 100 },
                description: "the cube's efficiency in contact positions, in hundredths (Janowski's x in cube decisions and cubeful equities; races keep gnubg's race values)",
            },
            KeyDef {
                name: "engine.cube_ply",
                kind: KeyKind::Int { min: 0, max: 3 },
                description: "the depth of cube decisions, counted as engine.ply is (0 = engine.ply's, but not below engine.cube_min_ply)",
            },
            KeyDef {
                name: "engine.cube_min_ply",
                kind: KeyKind::Int { min: 1, max: 3 },
                description: "the least depth of cube decisions when engine.cube_ply is 0, counted as engine.ply is (1 = follow engine.ply down to 0-ply)",
            },
        ];
        std::iter::once(variant)
            .chain(rules)
            .chain(engine)
            .collect()
    }

    /// The keys of the current variant, in the order `ubgi` and `keys` list
    /// them: the `rules.*` options of other variants are left out.
    pub fn current_defs(&self) -> Vec<KeyDef> {
        Self::defs()
            .into_iter()
            .filter(|d| self.applies(d.name))
            .collect()
    }

    /// Whether key `name` belongs to the current variant.
    fn applies(&self, name: &str) -> bool {
        match name.strip_prefix("rules.") {
            Some(rule) => self.rules.variant.has_option(rule),
            None => true,
        }
    }

    /// The definition of `name`.
    pub fn def(name: &str) -> Option<KeyDef> {
        Self::defs().into_iter().find(|d| d.name == name)
    }

    /// The UBGI `key` line of one setting, with its current value as default.
    pub fn key_line(&self, def: &KeyDef) -> String {
        let value = self.get(def.name).unwrap_or_default();
        match def.kind {
            KeyKind::Int { min, max } => format!(
                "key {} int {min}..{max} {value} {}",
                def.name, def.description
            ),
            KeyKind::Enum(vals) => format!(
                "key {} enum {} {value} {}",
                def.name,
                vals.join("|"),
                def.description
            ),
            KeyKind::Text => format!("key {} string {value} {}", def.name, def.description),
        }
    }

    /// The value of `name` as text, `None` for an unknown key.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "game.variant" => self.rules.variant.to_string(),
            "engine.ply" => self.ply.to_string(),
            "engine.threads" => self.threads.to_string(),
            "engine.seed" => self.seed.to_string(),
            "engine.movetime" => self.movetime.to_string(),
            "engine.eval" => match self.eval {
                EvalKind::Heuristic => "heuristic".into(),
                EvalKind::Net => "net".into(),
            },
            "engine.weights" => self.weights.to_string(),
            "engine.race_weights" => self.race_weights.to_string(),
            "engine.crashed_weights" => self.crashed_weights.to_string(),
            "engine.beam" => self.beam.to_string(),
            "engine.prefilter" => self.prefilter.to_string(),
            "engine.blend" => self.blend.to_string(),
            "engine.race" => match self.race {
                RaceKind::Tables => "tables".into(),
                RaceKind::Eval => "eval".into(),
            },
            "engine.eval_mode" => match self.eval_mode {
                EvalMode::Cubeful => "cubeful".into(),
                EvalMode::Cubeless => "cubeless".into(),
            },
            "engine.cube_efficiency" => self.cube_efficiency.to_string(),
            "engine.cube_ply" => self.cube_ply.to_string(),
            "engine.cube_min_ply" => self.cube_min_ply.to_string(),
            _ => {
                let rule = name.strip_prefix("rules.")?;
                self.rules.get(rule)?
            }
        })
    }

    /// Parses `set <name> <value>` against these settings: the typed
    /// change, or why it is refused. No file is read (the engine loads the
    /// weights an `engine.weights` change names).
    pub fn parse(&self, name: &str, value: &str) -> Result<Setting, SettingError> {
        let Some(def) = Self::def(name) else {
            return Err(SettingError::UnknownKey(name.to_string()));
        };
        if !self.applies(name) {
            return Err(SettingError::NotAnOption {
                key: def.name,
                variant: self.rules.variant,
            });
        }
        let rules = |rule: &str| -> Result<Setting, SettingError> {
            let mut r = self.rules;
            r.set(rule, value)?;
            Ok(Setting::Rules(r))
        };
        match def.kind {
            KeyKind::Int { min, max } => {
                let v = match value.parse::<u64>() {
                    Ok(v) if (min..=max).contains(&v) => v,
                    _ => {
                        return Err(SettingError::OutOfRange {
                            key: def.name,
                            min,
                            max,
                            got: value.to_string(),
                        });
                    }
                };
                // In range: the key's bounds fit each field's type.
                let size = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
                Ok(match def.name {
                    "engine.ply" => {
                        Setting::Ply(u8::try_from(v).ok().and_then(Ply::new).unwrap_or(Ply::MAX))
                    }
                    "engine.threads" => Setting::Threads(size(v)),
                    "engine.seed" => Setting::Seed(v),
                    "engine.movetime" => Setting::Movetime(v),
                    "engine.beam" => Setting::Beam(size(v)),
                    "engine.prefilter" => Setting::Prefilter(size(v)),
                    "engine.blend" => Setting::Blend(u8::try_from(v).unwrap_or(0)),
                    "engine.cube_efficiency" => {
                        Setting::CubeEfficiency(u8::try_from(v).unwrap_or(100))
                    }
                    "engine.cube_ply" => Setting::CubePly(u8::try_from(v).unwrap_or(0)),
                    "engine.cube_min_ply" => Setting::CubeMinPly(
                        u8::try_from(v).ok().and_then(Ply::new).unwrap_or(Ply::MAX),
                    ),
                    rule => rules(rule.trim_start_matches("rules."))?,
                })
            }
            KeyKind::Enum(vals) => {
                if !vals.contains(&value) {
                    return Err(SettingError::NotOneOf {
                        key: def.name,
                        words: vals,
                        got: value.to_string(),
                    });
                }
                Ok(match def.name {
                    "game.variant" => Setting::Variant(value.parse()?),
                    "engine.eval" => Setting::Eval(if value == "net" {
                        EvalKind::Net
                    } else {
                        EvalKind::Heuristic
                    }),
                    "engine.race" => Setting::Race(if value == "eval" {
                        RaceKind::Eval
                    } else {
                        RaceKind::Tables
                    }),
                    "engine.eval_mode" => Setting::EvalMode(if value == "cubeless" {
                        EvalMode::Cubeless
                    } else {
                        EvalMode::Cubeful
                    }),
                    rule => rules(rule.trim_start_matches("rules."))?,
                })
            }
            KeyKind::Text => {
                // engine.weights and the phase networks': one token here;
                // the engine loads and checks the file (under its
                // file-access policy).
                check_token(def.name, value)?;
                let w = Weights::named(value);
                Ok(match def.name {
                    "engine.race_weights" => Setting::RaceWeights(w),
                    "engine.crashed_weights" => Setting::CrashedWeights(w),
                    _ => Setting::Weights(w),
                })
            }
        }
    }

    /// Sets `name` to `value` as a value ([`Settings::parse`], then
    /// [`Settings::apply`]: weights are named, not loaded); on error
    /// nothing changes. For options gathered before an engine is made.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        let setting = self.parse(name, value)?;
        self.apply(setting);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips() {
        for variant in Variant::NAMES {
            let mut s = Settings::default();
            s.set("game.variant", variant).unwrap();
            let before = s.clone();
            for d in s.current_defs() {
                let v = s.get(d.name).unwrap();
                s.set(d.name, &v).unwrap();
                assert_eq!(s.get(d.name).unwrap(), v);
            }
            assert_eq!(s, before);
        }
    }

    #[test]
    fn rule_keys_belong_to_their_variant() {
        let mut s = Settings::default();
        let names =
            |s: &Settings| -> Vec<&str> { s.current_defs().iter().map(|d| d.name).collect() };
        assert!(names(&s).contains(&"rules.remainder"));
        assert!(!names(&s).contains(&"rules.six_block"));
        let e = s.set("rules.six_block", "per_step").unwrap_err();
        assert_eq!(
            e,
            SettingError::NotAnOption {
                key: "rules.six_block",
                variant: Variant::GulBara
            }
        );
        assert_eq!(
            e.to_string(),
            "rules.six_block is not an option of gulbara (send keys for the list)"
        );
        assert_eq!(s, Settings::default());
        s.set("game.variant", "long_nardy").unwrap();
        assert_eq!(s.get("rules.opening").unwrap(), "reroll");
        s.set("rules.six_block", "per_step").unwrap();
        assert!(s.set("rules.remainder", "lost").is_err());
        assert!(!names(&s).contains(&"rules.remainder"));
        assert_eq!(s.get("rules.remainder"), None);
        s.set("game.variant", "backgammon").unwrap();
        assert_eq!(
            names(&s)
                .iter()
                .filter(|n| n.starts_with("rules."))
                .collect::<Vec<_>>(),
            vec![&"rules.opening"]
        );
        assert_eq!(s.get("rules.opening").unwrap(), "single");
    }

    #[test]
    fn blend_sets_the_share_of_the_zero_ply_value_in_the_search() {
        let mut s = Settings::default();
        assert_eq!(s.limits(s.ply).blend, 0.0);
        s.set("engine.blend", "50").unwrap();
        assert_eq!(s.get("engine.blend").unwrap(), "50");
        assert_eq!(s.limits(s.ply).blend, 0.5);
        s.set("engine.blend", "100").unwrap();
        assert_eq!(s.limits(s.ply).blend, 1.0);
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        for (k, v) in [
            ("engine.ply", "0"),
            ("engine.ply", "4"),
            ("engine.threads", "0"),
            ("engine.movetime", "-5"),
            ("engine.blend", "101"),
            ("engine.blend", "-1"),
            ("rules.opening", "double"),
            ("game.variant", "chess"),
            ("rules.six_block", "per_step"),
            ("engine.weights", "a b"),
            ("engine.weights", "a\rb"),
            ("engine.weights", ""),
            ("nope", "1"),
        ] {
            assert!(s.set(k, v).is_err(), "{k} {v}");
        }
        assert_eq!(s, Settings::default());
        s.set("rules.remainder", "lost").unwrap();
        assert_eq!(s.get("rules.remainder").unwrap(), "lost");
    }
}
