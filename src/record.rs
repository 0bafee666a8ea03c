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

use std::fmt::Write as _;

use crate::cube::CubeAnswer;
use crate::cube::{MatchState, SessionKind};
use crate::game::TurnRecord;
use crate::notation::{self, MovesError};
use crate::rules::options::OptionError;
use crate::rules::{GameResult, GameState, RuleOptions, Side, Variant};

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
                .iter()
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

/// Writes one game.
pub fn write_game(out: &mut String, number: usize, g: &RecordedGame) {
    let _ = writeln!(out, " Game {number}");
    let _ = writeln!(
        out,
        " White : {:<32} Black : {}",
        g.players[0], g.players[1]
    );
    if let Some(sc) = g.cube.score {
        let _ = writeln!(
            out,
            " Score {}-{} to {}{}",
            sc.white,
            sc.black,
            sc.length,
            if sc.crawford { " Crawford" } else { "" }
        );
    }
    match g.opening {
        Some((w, b)) => {
            let _ = writeln!(out, " Opening {w}-{b} starter {}", side_name(g.starter));
        }
        None => {
            let _ = writeln!(out, " Opening winner starter {}", side_name(g.starter));
        }
    }
    // Group turns into White/Black slots: a slot is a side's remainder (if
    // any) and then its roll.
    let mut slots: Vec<[Vec<String>; 2]> = Vec::new();
    let mut current: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let has_roll = |v: &Vec<String>| v.iter().any(|s| !s.starts_with('r'));
    let mut cube = 1u32;
    let mut items: Vec<(Side, String)> = g
        .turns
        .iter()
        .map(|t| (t.side, t.text(&mut cube)))
        .collect();
    if let Some(doubler) = g.cube.dropped_by {
        items.push((doubler, format!("double={}:drop", cube.saturating_mul(2))));
    }
    for (side, text) in items {
        let i = side.index();
        let new_line = if i == 0 {
            !current[1].is_empty() || has_roll(&current[0])
        } else {
            has_roll(&current[1])
        };
        if new_line {
            slots.push(std::mem::take(&mut current));
        }
        current[i].push(text);
    }
    if !current[0].is_empty() || !current[1].is_empty() {
        slots.push(current);
    }
    for (n, [w, b]) in slots.iter().enumerate() {
        let w = if w.is_empty() {
            "--".to_string()
        } else {
            w.join(" ")
        };
        let b = if b.is_empty() {
            "--".to_string()
        } else {
            b.join(" ")
        };
        let _ = writeln!(out, "{:>3}) {:<40} {}", n + 1, w, b);
    }
    if let Some(note) = &g.note {
        let _ = writeln!(out, " ; {note}");
    }
    let line = match (g.cube.dropped_by, g.result) {
        (Some(doubler), _) => format!("{} on a drop", wins_line(cube, doubler)),
        (
            None,
            Some(GameResult {
                winner: Some(w),
                points,
            }),
        ) => {
            let scored = match g.cube.scored {
                Some(n) if n != u32::from(points) => format!(", scoring {n}"),
                _ => String::new(),
            };
            format!("{}{scored}", wins_line(u32::from(points), w))
        }
        (None, Some(GameResult { winner: None, .. })) => "Stuck: no points".into(),
        (None, None) => "Unfinished".into(),
    };
    let _ = writeln!(out, " {line}");
    out.push('\n');
}

/// A game's result line: `Wins N point(s) (Side)`.
fn wins_line(points: u32, winner: Side) -> String {
    format!(
        "Wins {points} point{} ({})",
        if points == 1 { "" } else { "s" },
        side_name(winner)
    )
}

/// The whole record as text.
pub fn write_record(rec: &Record) -> String {
    let mut out = String::new();
    for (k, v) in &rec.tags {
        let _ = writeln!(out, "; [{k} \"{}\"]", v.replace('"', "'"));
    }
    out.push('\n');
    for (i, g) in rec.games.iter().enumerate() {
        write_game(&mut out, i + 1, g);
    }
    out
}

/// A record that fails to parse or replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Malformed text.
    #[error("line {line}: {msg}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The `Variant` and `Rules` tags name no game the rules know.
    #[error("line {line}: {source}")]
    Rules {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        #[source]
        source: RulesTagError,
    },
    /// A game's moves are not legal.
    #[error("game {game}: {err}")]
    Illegal {
        /// 1-based game number.
        game: usize,
        /// The first bad token.
        err: MovesError,
    },
    /// The recorded result disagrees with the replay.
    #[error("game {game}: {msg}")]
    Result {
        /// 1-based game number.
        game: usize,
        /// What differs.
        msg: String,
    },
}

/// A roll (or `None` for a remainder) and the move tokens after it.
type Segment = (Option<(u8, u8)>, Vec<String>, Option<(u32, CubeAnswer)>);

/// A cube action token: `double=N:take`, `double=N:beaver` or
/// `double=N:drop`, N the cube offered.
fn parse_double(t: &str) -> Option<(u32, CubeAnswer)> {
    let (n, answer) = t.strip_prefix("double=")?.split_once(':')?;
    let n: u32 = n
        .parse()
        .ok()
        .filter(|n: &u32| n.is_power_of_two() && *n >= 2)?;
    let answer = match answer {
        "take" => CubeAnswer::Take,
        "beaver" => CubeAnswer::Beaver,
        "drop" => CubeAnswer::Drop,
        _ => return None,
    };
    Some((n, answer))
}

/// One turn of a replayed game.
#[derive(Clone, Debug)]
pub struct ReplayedTurn {
    /// The state before it: the side to move about to roll, or with a
    /// remainder pending.
    pub before: GameState,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// The move tokens of the turn.
    pub moves: Vec<String>,
    /// The side doubled before the roll, and the other side's answer.
    pub double: Option<CubeAnswer>,
}

/// One replayed game.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// The rules the game was played under (in a rotating match, its
    /// game of the rotation).
    pub opts: RuleOptions,
    /// White's and Black's names from the record.
    pub players: [String; 2],
    /// Every turn with the state before it.
    pub turns: Vec<ReplayedTurn>,
    /// The final state.
    pub final_state: GameState,
    /// The starter.
    pub starter: Side,
    /// The starter was the last game's winner, who rolled both dice with
    /// no opening throw (`Opening winner`), so a cube decision came first.
    pub by_winner: bool,
    /// The move tokens in order (rolls and steps), as `apply_moves` takes them.
    pub tokens: Vec<String>,
    /// The recorded result line, if any.
    pub result_line: Option<String>,
    /// The side whose double was dropped, which ended the game.
    pub dropped_by: Option<Side>,
    /// The session at the game's start, from the record's `Session` tag
    /// and the game's `Score` line; cubeless money play when the record
    /// has neither.
    pub session: MatchState,
}

/// Parses the `Rules` tag (if any) and every game's move tokens, replays each
/// game against the rules, and checks the recorded results.
///
/// This reads gulbara's records; `crate::anyrecord::replay_any` reads a
/// Jellyfish `.mat` file too.
pub fn replay(text: &str) -> Result<(RuleOptions, Vec<ReplayedGame>), RecordError> {
    // Tags are read wherever they stand; the rules are settled once the
    // whole text is read, whichever order `Variant` and `Rules` came in.
    let mut variant_tag: Option<(usize, String)> = None;
    let mut rotation_tag: Option<(usize, String)> = None;
    let mut rules_words: Option<(usize, String)> = None;
    let mut games: Vec<(Side, Vec<String>, Option<String>)> = Vec::new();
    // Per game: started by the last game's winner, with no opening throw.
    let mut by_winner: Vec<bool> = Vec::new();
    let mut session_tag: Option<(usize, String)> = None;
    let mut scores: Vec<Option<(u32, u32, bool)>> = Vec::new();
    let mut names: Vec<[String; 2]> = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let syntax = |msg: String| RecordError::Syntax { line: ln + 1, msg };
        if let Some(tag) = line.strip_prefix("; [") {
            let value = |rest: &str| rest.trim_end_matches("\"]").to_string();
            if let Some(rest) = tag.strip_prefix("Rules \"") {
                // Several Rules tags add up, later words winning.
                let words = match rules_words.take() {
                    Some((at, before)) => (at, format!("{before} {}", value(rest))),
                    None => (ln + 1, value(rest)),
                };
                rules_words = Some(words);
            } else if let Some(rest) = tag.strip_prefix("Rotation \"") {
                rotation_tag = Some((ln + 1, value(rest)));
            } else if let Some(rest) = tag.strip_prefix("Session \"") {
                session_tag = Some((ln + 1, value(rest)));
            } else if let Some(rest) = tag.strip_prefix("Variant \"") {
                let v = value(rest);
                if variant_tag
                    .as_ref()
                    .is_some_and(|(_, w)| w.trim() != v.trim())
                {
                    return Err(syntax(format!("a second, different Variant tag '{v}'")));
                }
                variant_tag = Some((ln + 1, v));
            }
            continue;
        }
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if line.starts_with("Game ") {
            games.push((Side::White, Vec::new(), None));
            by_winner.push(false);
            scores.push(None);
            names.push([String::new(), String::new()]);
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(syntax("moves before the first 'Game' line".into()));
        };
        if let Some(rest) = line.strip_prefix("White :") {
            if let (Some(n), Some((w, b))) = (names.last_mut(), rest.split_once(" Black : ")) {
                *n = [w.trim().to_string(), b.trim().to_string()];
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("Opening ") {
            game.0 = if rest.ends_with("starter Black") {
                Side::Black
            } else if rest.ends_with("starter White") {
                Side::White
            } else {
                return Err(syntax(format!("bad opening line '{line}'")));
            };
            if let Some(last) = by_winner.last_mut() {
                *last = rest.starts_with("winner ");
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("Score ") {
            // `Score 3-1 to 7 [Crawford]`: the match score at the game's start.
            let words: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match words.as_slice() {
                [ab, "to", _, more @ ..] if more.is_empty() || more == ["Crawford"] => ab
                    .split_once('-')
                    .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?, !more.is_empty()))),
                _ => None,
            };
            let Some(score) = parsed else {
                return Err(syntax(format!("bad score line '{line}'")));
            };
            if let Some(last) = scores.last_mut() {
                *last = Some(score);
            }
            continue;
        }
        if line.starts_with("Wins ") || line.starts_with("Stuck") || line.starts_with("Unfinished")
        {
            game.2 = Some(line.to_string());
            continue;
        }
        let mut toks = line.split_whitespace();
        match toks.next() {
            Some(t) if t.ends_with(')') && t[..t.len() - 1].parse::<u32>().is_ok() => {}
            _ => return Err(syntax(format!("unexpected line '{line}'"))),
        }
        for t in toks {
            if t == "--" || t == "pass" {
                continue;
            }
            if t.starts_with("double=") {
                if parse_double(t).is_none() {
                    return Err(syntax(format!(
                        "bad cube action '{t}' (double=N:take, double=N:beaver or double=N:drop)"
                    )));
                }
                game.1.push(t.to_string());
                continue;
            }
            if t.starts_with('r') && t.ends_with(':') {
                // Remainder marker: kept so turns can be split again.
                game.1.push(t.to_string());
                continue;
            }
            if let Some(roll) = t.strip_suffix(':') {
                if notation::parse_roll(roll).is_none() {
                    return Err(syntax(format!("bad roll '{t}'")));
                }
                game.1.push(t.to_string());
            } else {
                game.1.push(t.to_string());
            }
        }
    }
    let opts = rules_from_tags(
        variant_tag.as_ref().map(|t| t.1.as_str()),
        rules_words.as_ref().map(|t| t.1.as_str()),
    )
    .map_err(|source| RecordError::Rules {
        line: rules_words
            .as_ref()
            .or(variant_tag.as_ref())
            .map_or(0, |t| t.0),
        source,
    })?;
    let base = match &session_tag {
        Some((line, text)) => {
            text.parse::<crate::cube::SessionSpec>()
                .map_err(|e| RecordError::Syntax {
                    line: *line,
                    msg: e.to_string(),
                })?
                .0
        }
        None => crate::cube::cubeless(),
    };
    // A rotating match: game k is the (k mod n)-th game of the rotation,
    // each under its defaults; the first is the Variant tag's game.
    let rotation: Vec<RuleOptions> = match &rotation_tag {
        None => Vec::new(),
        Some((line, text)) => {
            let mut list = Vec::new();
            for name in text.split(',') {
                let v: Variant =
                    name.trim()
                        .parse()
                        .map_err(
                            |e: crate::rules::options::OptionError| RecordError::Syntax {
                                line: *line,
                                msg: format!("Rotation: {e}"),
                            },
                        )?;
                list.push(RuleOptions::for_variant(v));
            }
            if list.len() > 16 || list.first().map(|o| o.variant) != Some(opts.variant) {
                return Err(RecordError::Syntax {
                    line: *line,
                    msg: format!(
                        "Rotation '{text}' must list at most 16 games, the first the Variant tag's ({})",
                        opts.variant
                    ),
                });
            }
            list
        }
    };
    let mut out = Vec::new();
    for (i, (starter, marked, result_line)) in games.into_iter().enumerate() {
        let opts = if rotation.is_empty() {
            opts
        } else {
            rotation[i % rotation.len()]
        };
        let mut session = base;
        if let Some(Some((white, black, crawford))) = scores.get(i) {
            session
                .set_score(*white, *black, Some(*crawford))
                .map_err(|e| RecordError::Syntax {
                    line: 0,
                    msg: format!("game {}: {e}", i + 1),
                })?;
        }
        // Split into turns at the `65:` and `rDxN:` markers; a cube action
        // belongs to the roll after it (a drop ends the game).
        let mut segments: Vec<Segment> = Vec::new();
        let mut double: Option<(u32, CubeAnswer)> = None;
        let mut dropped: Option<u32> = None;
        let game_error = |msg: String| RecordError::Syntax {
            line: 0,
            msg: format!("game {}: {msg}", i + 1),
        };
        for t in marked {
            if dropped.is_some() {
                return Err(game_error(format!("'{t}' after a dropped double")));
            }
            if let Some((offered, answer)) = parse_double(&t) {
                if double.is_some() {
                    return Err(game_error(format!(
                        "two cube actions before a roll ('{t}')"
                    )));
                }
                if answer == CubeAnswer::Drop {
                    dropped = Some(offered);
                } else {
                    double = Some((offered, answer));
                }
            } else if let Some(head) = t.strip_suffix(':') {
                let roll = notation::parse_roll(head);
                if double.is_some() && roll.is_none() {
                    return Err(game_error("a cube action before a remainder".into()));
                }
                segments.push((roll, Vec::new(), double.take()));
            } else if let Some(seg) = segments.last_mut() {
                seg.1.push(t);
            } else {
                return Err(RecordError::Syntax {
                    line: 0,
                    msg: format!("game {}: a move before the first roll", i + 1),
                });
            }
        }
        let mut state = GameState::start_of(opts.variant, starter);
        let mut movegen = crate::rules::StageGen::new();
        let mut ends = Vec::new();
        let mut turns = Vec::new();
        let mut tokens = Vec::new();
        let mut cube = 1u32;
        let mut owner: Option<Side> = None;
        // A double by the side to roll in `state`: the cube it offers must
        // be twice the cube, and the cube its own or in the middle.
        let check_double = |state: &GameState, cube: u32, owner: Option<Side>, offered: u32| {
            let doubler = state.to_move;
            if state.pending != crate::rules::Pending::Roll || state.result().is_some() {
                Err(format!(
                    "a double by {} where no roll is due",
                    side_name(doubler)
                ))
            } else if offered != cube.saturating_mul(2) {
                Err(format!("a double to {offered} with the cube at {cube}"))
            } else if owner.is_some_and(|o| o != doubler) {
                Err(format!(
                    "{} doubles a cube it does not own",
                    side_name(doubler)
                ))
            } else {
                Ok(doubler)
            }
        };
        for (roll, moves, double) in segments {
            let before = state;
            if let Some((offered, answer)) = double {
                let doubler = check_double(&state, cube, owner, offered).map_err(&game_error)?;
                owner = Some(doubler.opponent());
                cube = if answer == CubeAnswer::Beaver {
                    offered.saturating_mul(2)
                } else {
                    offered
                };
            }
            let illegal = |reason: String, tok: &str| RecordError::Illegal {
                game: i + 1,
                err: MovesError {
                    index: tokens.len() + 1,
                    token: tok.to_string(),
                    reason,
                },
            };
            let start = match roll {
                Some((a, b)) => {
                    let t = format!("{a}{b}");
                    state
                        .roll(&opts, a, b)
                        .map_err(|e| illegal(e.to_string(), &t))?
                }
                None => state,
            };
            let start = crate::rules::skip_forced_empty(start, &opts, &mut movegen, &mut ends);
            let words: Vec<&str> = moves.iter().map(String::as_str).collect();
            let over = start.result().is_some()
                || start.to_move != before.to_move
                || start.stage_dice().is_none();
            state = if over && words.is_empty() {
                start
            } else {
                notation::apply_turn(&start, &opts, &words).map_err(|why| match why {
                    // The word itself is named once, counted in the game's
                    // whole token list (the roll token first).
                    notation::TurnWordsError::Moves(e) => RecordError::Illegal {
                        game: i + 1,
                        err: MovesError {
                            index: tokens.len() + usize::from(roll.is_some()) + e.index,
                            ..e
                        },
                    },
                    other => illegal(
                        other.to_string(),
                        moves.first().map(String::as_str).unwrap_or(""),
                    ),
                })?
            };
            if let Some((a, b)) = roll {
                tokens.push(format!("{a}{b}"));
            }
            tokens.extend(moves.iter().cloned());
            turns.push(ReplayedTurn {
                before,
                roll,
                moves,
                double: double.map(|d| d.1),
            });
        }
        let dropped_by = match dropped {
            Some(offered) => Some(check_double(&state, cube, owner, offered).map_err(&game_error)?),
            None => None,
        };
        if let Some(line) = &result_line {
            let want = match dropped_by {
                Some(w) => Some(format!("{} on a drop", wins_line(cube, w))),
                None => state.result().map(|r| match r.winner {
                    Some(w) => wins_line(u32::from(r.points), w),
                    None => "Stuck: no points".into(),
                }),
            };
            // What the cube made of the result is the writer's word.
            let line = match line.split_once(", scoring ") {
                Some((head, n)) if n.parse::<u32>().is_ok() => head,
                _ => line.as_str(),
            };
            if line != "Unfinished" && want.as_deref() != Some(line) {
                return Err(RecordError::Result {
                    game: i + 1,
                    msg: format!("recorded '{line}', replay gives {want:?}"),
                });
            }
        }
        out.push(ReplayedGame {
            opts,
            players: names.get(i).cloned().unwrap_or_default(),
            turns,
            final_state: state,
            starter,
            by_winner: by_winner.get(i).copied().unwrap_or(false),
            tokens,
            result_line,
            dropped_by,
            session,
        });
    }
    Ok((opts, out))
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
        let game = RecordedGame {
            players: ["alpha".into(), "beta".into()],
            opening: g.openings.last().copied(),
            starter: g.starter,
            turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
            result: Some(g.result),
            note: None,
            cube: Default::default(),
        };
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
