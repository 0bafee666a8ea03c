//! Game records: a text format modeled on the Jellyfish/XG `.mat` files
//! backgammon tools share, extended for escalating chains and remainders.
//!
//! ```text
//! ; [Event "gulbara match"]
//! ; [Variant "gulbara"]
//! ; [Rules "opening=single exempt_rolls=3 exempt_scope=player remainder=opponent"]
//! ; [Seed "42"]
//! ```
//!
//! The game played is named by the `Variant` tag (`gulbara`, `long_nardy`,
//! `short_nardy`, `backgammon`) and, for the games other than Gul bara, by
//! the first word of the `Rules` tag as well, so that a record whose writer
//! kept only the `Rules` tag still says what it is:
//!
//! ```text
//! ; [Variant "long_nardy"]
//! ; [Rules "variant=long_nardy opening=reroll head_first_turn=needs_second six_block=end_of_turn"]
//! ```
//!
//! A record with neither is a Gul bara record (those written before the
//! other games existed read back unchanged). The games follow:
//!
//! ```text
//!
//!  Game 1
//!  White : alpha                          Black : beta
//!  Opening 5-3 starter White
//!   1) 53: 24/19 24/21                      31: 24/23 24/21
//!   2) 44: 24/20 24/20 24/20 24/20 20/15 …  r5x2: 12/7 12/7 62: 24/18 18/16
//!  Wins 1 point
//! ```
//!
//! In a match whose last game's winner starts the next (tavli, tabla), a
//! game that opened so says `Opening winner starter Black`.
//!
//! Each numbered line holds a White slot and a Black slot. A slot is the
//! side's remainder (`rDxN:` then its steps), if one was passed to it, then
//! its roll (`65:` then the whole turn's steps, every stage of a chain in
//! order, `pass` when nothing could be played); `--` marks an empty slot.
//! Replaying needs only the order of the tokens: the rules say where every
//! stage ends.

use crate::cube::CubeAnswer;
use crate::cube::{MatchState, SessionKind};
use crate::game::TurnRecord;
use crate::notation::{self, MovesError};
use crate::rules::options::OptionError;
use crate::rules::{GameResult, GameState, RuleOptions, Side, Variant};

mod replay;
mod writer;

pub use replay::{CubeFault, RecordError, ReplayedGame, ReplayedTurn, SyntaxError, replay};
pub use writer::{write_game, write_record};

/// One game of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// Names of the White and Black players.
    pub players: [String; 2],
    /// The opening throw that decided (White's die first); `None` when the
    /// starter was the last game's winner, with no throw (a tavli or tabla
    /// match).
    pub opening: Option<(u8, u8)>,
    /// Who started.
    pub starter: Side,
    /// Turns in order: rolls and remainders.
    pub turns: Vec<RecordedTurn>,
    /// How the game ended; `None` when it was cut short (a forfeit).
    pub result: Option<GameResult>,
    /// A note such as the reason for a forfeit.
    pub note: Option<String>,
    /// The score it was played at, a dropped double, and the points the
    /// cube made of its result.
    pub cube: GameCube,
}

/// What the session and the cube add to a game's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameCube {
    /// In a match: the score when the game started.
    pub score: Option<GameScore>,
    /// The side whose double was dropped, which ended the game.
    pub dropped_by: Option<Side>,
    /// The points the game scored in its session where the cube (or the
    /// Jacoby rule) made them differ from the result's.
    pub scored: Option<u32>,
}

/// The score of a match when a game starts: ` Score 3-1 to 7 Crawford`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameScore {
    /// White's points.
    pub white: u32,
    /// Black's points.
    pub black: u32,
    /// The match length.
    pub length: u32,
    /// This game is the Crawford game.
    pub crawford: bool,
}

impl GameScore {
    /// The score of `session` at a game's start; `None` in money play.
    pub fn of(session: &MatchState) -> Option<GameScore> {
        match session.kind() {
            SessionKind::Money => None,
            SessionKind::Match { length } => Some(GameScore {
                white: session.score(Side::White),
                black: session.score(Side::Black),
                length,
                crawford: session.is_crawford(),
            }),
        }
    }
}

/// The `Session` tag of a record played in `session`; none for cubeless
/// money play (records written before sessions read as that).
pub fn session_tags(session: &MatchState) -> Vec<(String, String)> {
    let spec = crate::cube::SessionSpec(*session);
    if spec == crate::cube::SessionSpec::cubeless() {
        return Vec::new();
    }
    vec![("Session".into(), spec.to_string())]
}

/// One roll's turn or one remainder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedTurn {
    /// Who played it.
    pub side: Side,
    /// The roll; `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// For a remainder: its first stage (die, count).
    pub remainder: Option<(u8, u8)>,
    /// Every step in play order, as notation tokens (`24/18`, `6/off`).
    pub moves: Vec<String>,
    /// The side doubled before the roll and the other side kept the game
    /// going: took or beavered.
    pub double: Option<CubeAnswer>,
}

impl RecordedGame {
    /// The record of a game the driver played to its end between
    /// `players` (White's, Black's), with no cube and no note.
    pub fn finished(players: [&str; 2], g: &crate::game::GameRecord) -> RecordedGame {
        RecordedGame {
            players: players.map(str::to_string),
            opening: g.openings.last().copied(),
            starter: g.starter,
            turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
            result: Some(g.result),
            note: None,
            cube: GameCube::default(),
        }
    }
}

impl RecordedTurn {
    /// From the driver's turn record.
    pub fn from_driver(t: &TurnRecord) -> RecordedTurn {
        RecordedTurn {
            side: t.side,
            roll: t.roll,
            remainder: t.remainder,
            moves: t
                .moves
                .iter()
                .map(|&m| notation::move_token_text(m))
                .collect(),
            double: t.double,
        }
    }

    /// The turn's text; `cube` is the cube before it, which a double
    /// turns (the token names the cube offered: `double=2:take`).
    fn text(&self, cube: &mut u32) -> String {
        let double = match self.double {
            Some(answer) => {
                let offered = cube.saturating_mul(2);
                *cube = if answer == CubeAnswer::Beaver {
                    offered.saturating_mul(2)
                } else {
                    offered
                };
                format!("double={offered}:{} ", answer.word())
            }
            None => String::new(),
        };
        let head = match (self.roll, self.remainder) {
            (Some((a, b)), _) => format!("{a}{b}:"),
            (None, Some((d, n))) => format!("r{d}x{n}:"),
            (None, None) => "r:".into(),
        };
        let moves = if self.moves.is_empty() {
            "pass".to_string()
        } else {
            self.moves.join(" ")
        };
        format!("{double}{head} {moves}")
    }
}

/// Header tags and games.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// `(name, value)` tags in order.
    pub tags: Vec<(String, String)>,
    /// The games.
    pub games: Vec<RecordedGame>,
}

/// The rule options as the `Rules` tag writes them: the variant's options
/// in documentation order, after `variant=<name>` for every game but Gul
/// bara (whose tag is the same as before the other games existed).
pub fn rules_tag(opts: &RuleOptions) -> String {
    let head = (opts.variant != Variant::default()).then(|| format!("variant={}", opts.variant));
    head.into_iter()
        .chain(
            opts.variant
                .option_names()
                .map(|n| format!("{n}={}", opts.get(n).unwrap_or_default())),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// The header tags a record of one game of `opts`'s variant starts with:
/// `Variant` and `Rules`.
pub fn game_tags(opts: &RuleOptions) -> Vec<(String, String)> {
    vec![
        ("Variant".into(), opts.variant.to_string()),
        ("Rules".into(), rules_tag(opts)),
    ]
}

/// Reads the rule options of a record from its `Variant` tag and `Rules`
/// tag values (either may be missing): the variant's defaults, then each
/// `name=value` of the `Rules` tag. A `variant=` word in the `Rules` tag
/// must agree with the `Variant` tag.
pub fn rules_from_tags(
    variant: Option<&str>,
    rules: Option<&str>,
) -> Result<RuleOptions, RulesTagError> {
    let tagged = variant.map(|v| v.trim().parse::<Variant>()).transpose()?;
    let mut in_rules = None;
    let mut pairs = Vec::new();
    for kv in rules.unwrap_or("").split_whitespace() {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| RulesTagError::NotKeyValue(kv.to_string()))?;
        if k == "variant" {
            let v = v.parse::<Variant>()?;
            if in_rules.is_some_and(|w| w != v) {
                return Err(RulesTagError::TwoVariants(kv.to_string()));
            }
            in_rules = Some(v);
        } else {
            pairs.push((k, v));
        }
    }
    let variant = match (tagged, in_rules) {
        (Some(a), Some(b)) if a != b => {
            return Err(RulesTagError::Disagree { tag: a, rules: b });
        }
        (Some(v), _) | (None, Some(v)) => v,
        (None, None) => Variant::default(),
    };
    let mut opts = RuleOptions::for_variant(variant);
    for (k, v) in pairs {
        opts.set(k, v)?;
    }
    Ok(opts)
}

/// Why a record's `Variant` and `Rules` tags were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesTagError {
    /// A word of the `Rules` tag that is not `name=value`.
    #[error("bad rule '{0}'")]
    NotKeyValue(String),
    /// A second, different `variant=` in the `Rules` tag.
    #[error("the Rules tag names two variants ({0})")]
    TwoVariants(String),
    /// The tags name different games.
    #[error("the Variant tag says {tag} but the Rules tag says variant={rules}")]
    Disagree {
        /// The `Variant` tag's game.
        tag: Variant,
        /// The `Rules` tag's.
        rules: Variant,
    },
    /// An unknown game, option or value.
    #[error(transparent)]
    Option(#[from] OptionError),
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A game's result line: `Wins N point(s) (Side)`.
fn wins_line(points: u32, winner: Side) -> String {
    format!(
        "Wins {points} point{} ({})",
        if points == 1 { "" } else { "s" },
        side_name(winner)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RandomChooser, play_choosers};
    use crate::rules::dice::SeededDice;

    fn record_of(seed: u64, opts: &RuleOptions) -> (Record, GameState) {
        let mut a = RandomChooser::new(seed);
        let mut b = RandomChooser::new(seed ^ 0xABCD);
        let g = play_choosers(opts, &mut SeededDice::new(seed), &mut a, &mut b);
        // A remainder is one turn, all its stages together.
        assert!(
            !g.turns
                .windows(2)
                .any(|w| w[0].roll.is_none() && w[1].roll.is_none() && w[0].side == w[1].side)
        );
        let game = RecordedGame::finished(["alpha", "beta"], &g);
        (
            Record {
                tags: vec![("Rules".into(), rules_tag(opts))],
                games: vec![game],
            },
            g.final_state,
        )
    }

    #[test]
    fn an_illegal_word_is_named_once_with_its_place_in_the_game() {
        let text = "; [Variant \"backgammon\"]\n\n Game 1\n White : a  Black : b\n Opening 3-1 starter White\n  1) 31: 8/5 6/5     64: 24/18 13/9\n  2) 62: 24/18 18/1\n";
        let err = replay(text).expect_err("18/1 is not a 2").to_string();
        assert_eq!(
            err,
            "game 1: bad move token 9 '18/1': no legal way to play it with the dice left (2)"
        );
    }

    #[test]
    fn random_games_round_trip_through_replay() {
        let mut chains = 0;
        for seed in 0..40 {
            let opts = if seed % 2 == 0 {
                RuleOptions::default()
            } else {
                let mut o = RuleOptions::default();
                o.set("exempt_rolls", "0").unwrap();
                o
            };
            let (rec, final_state) = record_of(seed, &opts);
            let text = write_record(&rec);
            chains += text.matches(" r").count();

            let (o2, games) = replay(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(o2, opts);
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].final_state.pos, final_state.pos, "seed {seed}");
        }
        assert!(chains > 0, "some games should contain remainders");
    }

    #[test]
    fn every_variant_round_trips_and_names_itself() {
        for v in Variant::ALL {
            for seed in 0..6 {
                let opts = RuleOptions::for_variant(v);
                let (mut rec, final_state) = record_of(seed, &opts);
                rec.tags = game_tags(&opts);
                let text = write_record(&rec);
                assert!(text.contains(&format!("; [Variant \"{v}\"]")), "{text}");
                let (o2, games) =
                    replay(&text).unwrap_or_else(|e| panic!("{v} seed {seed}: {e}\n{text}"));
                assert_eq!(o2, opts);
                assert_eq!(games[0].final_state, final_state, "{v} seed {seed}");
                assert_eq!(games[0].final_state.variant, v);
                // The Rules tag alone says which game it is, and so does the
                // Variant tag alone (the variant's defaults).
                let rules_only = text.replace(&format!("; [Variant \"{v}\"]\n"), "");
                assert_eq!(replay(&rules_only).unwrap().0, opts, "{v}");
                let variant_only = text
                    .lines()
                    .filter(|l| !l.starts_with("; [Rules"))
                    .collect::<Vec<_>>()
                    .join("\n");
                assert_eq!(replay(&variant_only).unwrap().0, opts, "{v}");
            }
        }
    }

    #[test]
    fn rules_tags_of_gul_bara_are_unchanged_and_variants_checked() {
        assert_eq!(
            rules_tag(&RuleOptions::default()),
            "opening=single exempt_rolls=3 exempt_scope=player remainder=opponent"
        );
        assert_eq!(
            rules_tag(&RuleOptions::for_variant(Variant::LongNardy)),
            "variant=long_nardy opening=reroll head_first_turn=needs_second six_block=end_of_turn"
        );
        assert_eq!(
            rules_tag(&RuleOptions::for_variant(Variant::Backgammon)),
            "variant=backgammon opening=single"
        );
        // Disagreeing tags, unknown variants and another game's options are refused.
        assert!(rules_from_tags(Some("backgammon"), Some("variant=short_nardy")).is_err());
        assert!(rules_from_tags(Some("chess"), None).is_err());
        assert!(rules_from_tags(Some("long_nardy"), Some("remainder=lost")).is_err());
        assert!(rules_from_tags(None, Some("variant=long_nardy six_block=nope")).is_err());
        let o = rules_from_tags(None, Some("six_block=per_step variant=long_nardy")).unwrap();
        assert_eq!(o.variant, Variant::LongNardy);
        assert_eq!(o.six_block, crate::rules::options::SixBlock::PerStep);
        assert_eq!(rules_from_tags(None, None).unwrap(), RuleOptions::default());
        // A mismatch in a record is an error on the Rules tag's line.
        let (mut rec, _) = record_of(1, &RuleOptions::for_variant(Variant::ShortNardy));
        rec.tags = vec![
            ("Variant".into(), "backgammon".into()),
            ("Rules".into(), "variant=short_nardy opening=reroll".into()),
        ];
        match replay(&write_record(&rec)) {
            Err(RecordError::Rules {
                line: 2,
                source: RulesTagError::Disagree { .. },
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_lines_and_cube_actions_get_typed_errors() {
        let game = |line: &str| {
            format!(
                "; [Variant \"backgammon\"]\n\n Game 1\n White : a  Black : b\n Opening 3-1 starter White\n  1) {line}\n"
            )
        };
        let cases: [(&str, RecordError, &str); 4] = [
            (
                "31: 8/5 6/5     double=4:take 64: 24/18 13/9",
                RecordError::Cube {
                    game: 1,
                    why: CubeFault::NotTwice {
                        offered: 4,
                        cube: 1,
                    },
                },
                "game 1: a double to 4 with the cube at 1",
            ),
            (
                "31: 8/5 6/5     double=2:drop 64: 24/18 13/9",
                RecordError::Cube {
                    game: 1,
                    why: CubeFault::AfterDrop("64:".into()),
                },
                "game 1: '64:' after a dropped double",
            ),
            (
                "31: 8/5 6/5     double=3:take 64: 24/18 13/9",
                RecordError::Syntax {
                    line: 6,
                    why: SyntaxError::CubeAction("double=3:take".into()),
                },
                "line 6: bad cube action 'double=3:take' (double=N:take, double=N:beaver or double=N:drop)",
            ),
            (
                "31: 8/5 6/5     64: 24/18 13/9\n Wins 3 points",
                RecordError::Result {
                    game: 1,
                    recorded: "Wins 3 points".into(),
                    replay: None,
                },
                "game 1: recorded 'Wins 3 points', replay gives None",
            ),
        ];
        for (line, want, text) in cases {
            let e = replay(&game(line)).expect_err(line);
            assert_eq!(e, want);
            assert_eq!(e.to_string(), text);
        }
        let e = replay("; [Variant \"backgammon\"]\n  1) 31: 8/5 6/5\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: moves before the first 'Game' line");
    }

    #[test]
    fn tampered_record_is_rejected() {
        let (rec, _) = record_of(3, &RuleOptions::default());
        let text = write_record(&rec);
        // Change the first roll's first step to something illegal.
        let bad = text.replacen("24/", "23/", 1);
        assert!(replay(&bad).is_err());
        let bad = text
            .replace("Wins 2 points", "Wins 1 point")
            .replace("Wins 1 point (", "Wins 2 points (");
        if bad != text {
            assert!(replay(&bad).is_err());
        }
    }
}
