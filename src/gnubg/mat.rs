//! Jellyfish `.mat` files, as gnubg 1.07 exports them (`export match mat`)
//! and imports them (`import mat`), for backgammon and short nardy.
//!
//! ```text
//! ; [Event "gulbara match"]
//! ; [Variant "backgammon"]
//!
//!  0 point match
//!
//!  Game 1
//!  alpha : 0                      beta : 0
//!   1)                             21: 13/11 24/23
//!   2) 52: 13/8 13/11              63: 24/18 18/15
//!   ...
//!                                   Wins 1 point
//! ```
//!
//! Each numbered line holds the left player's action, then from column 33
//! the right player's: a roll and its play in the plain notation (each
//! step, 25 the bar, 0 off, `*` on a hit), or `Doubles => 2`, `Takes`,
//! `Drops`. `Wins N points` follows the game's last action; N counts the
//! cube. A game whose left player does not start begins with an empty left
//! column. gnubg reads lines starting with `;` as tags and comments: the
//! `Variant` tag (ours) says which game was played, backgammon when absent.
//!
//! Writing replays each game with the rules to write its steps and hits;
//! reading turns a file into a [`Record`], whose replay referees every play
//! (plays are matched by where they end, as gnubg matches them).

use std::fmt::Write as _;

use super::movetext;
use crate::cube::CubeAnswer;
use crate::notation;
use crate::record::{Record, RecordedGame, RecordedTurn};
use crate::rules::{
    GameResult, GameState, Position, RuleOptions, Side, StageGen, Step, Variant, skip_forced_empty,
};

/// Whether a text is a `.mat` file rather than one of gulbara's records:
/// it has a `N point match` line before any `Game` line.
pub fn is_mat(text: &str) -> bool {
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with(';') || t.starts_with('#') || t.is_empty() {
            continue;
        }
        let mut words = t.split_whitespace();
        return matches!(
            (words.next(), words.next(), words.next()),
            (Some(n), Some(p), Some(m))
                if n.parse::<u32>().is_ok()
                    && p.eq_ignore_ascii_case("point")
                    && m.to_ascii_lowercase().starts_with("match")
        );
    }
    false
}

/// Why games could not be written as a `.mat` file.
#[derive(Debug, thiserror::Error)]
pub enum MatError {
    /// gnubg cannot describe the game.
    #[error("{0} games have no .mat form")]
    NoMatForm(Variant),
    /// A game's turn (1-based) does not replay.
    #[error("game {game}: {source}")]
    Game {
        /// The game (1-based).
        game: usize,
        /// What went wrong in it.
        #[source]
        source: Box<MatError>,
    },
    /// A turn (1-based) does not replay.
    #[error("turn {turn}: {fault}")]
    Turn {
        /// The turn (1-based).
        turn: usize,
        /// What is wrong with it.
        #[source]
        fault: TurnFault,
    },
    /// A side moved twice in a row.
    #[error("game {0}: a side moved twice")]
    MovedTwice(usize),
}

/// What is wrong with a recorded turn.
#[derive(Debug, thiserror::Error)]
pub enum TurnFault {
    /// A remainder, which the hitting games do not have.
    #[error("a remainder in a hitting game")]
    Remainder,
    /// The roll cannot be rolled.
    #[error(transparent)]
    Roll(crate::rules::PlayError),
    /// The words are not the turn.
    #[error(transparent)]
    Words(notation::TurnWordsError),
    /// Nothing to play after the roll.
    #[error("no stage to play")]
    NoStage,
    /// The words make a play that is not one of the legal ends.
    #[error("the play is not one of the legal ends")]
    NotAnEnd,
}

/// One turn of a hitting game: who played, the roll, the position it was
/// played from (the mover's view) and its steps.
type PlayedTurn = (Side, (u8, u8), Position, Vec<Step>);

/// The steps of each turn of a recorded game, replayed by the rules.
fn replayed_steps(opts: &RuleOptions, g: &RecordedGame) -> Result<Vec<PlayedTurn>, MatError> {
    let mut state = GameState::start_of(opts.variant, g.starter);
    let mut movegen = StageGen::new();
    let mut ends = Vec::new();
    let mut out = Vec::new();
    for (i, t) in g.turns.iter().enumerate() {
        let fault = |fault: TurnFault| MatError::Turn { turn: i + 1, fault };
        let Some((a, b)) = t.roll else {
            return Err(fault(TurnFault::Remainder));
        };
        let start = state
            .roll(opts, a, b)
            .map_err(|e| fault(TurnFault::Roll(e)))?;
        let words: Vec<&str> = t.moves.iter().map(String::as_str).collect();
        if words.is_empty() {
            state = skip_forced_empty(start, opts, &mut movegen, &mut ends);
            out.push((t.side, (a, b), start.pos, Vec::new()));
            continue;
        }
        let after =
            notation::apply_turn(&start, opts, &words).map_err(|e| fault(TurnFault::Words(e)))?;
        let dice = start
            .stage_dice()
            .ok_or_else(|| fault(TurnFault::NoStage))?;
        movegen.generate(opts, &start, dice, &mut ends);
        let used = ends.first().map_or(0, |e| e.play.len() as u8);
        let end = ends
            .iter()
            .find(|e| start.after_stage(opts, e.pos, used) == after)
            .ok_or_else(|| fault(TurnFault::NotAnEnd))?;
        out.push((t.side, (a, b), start.pos, end.play.steps().to_vec()));
        state = after;
    }
    Ok(out)
}

/// Whether the game's turns, replayed by the rules, end it (`false` too
/// when they do not replay).
fn played_out(opts: &RuleOptions, g: &RecordedGame) -> bool {
    let mut state = GameState::start_of(opts.variant, g.starter);
    let mut movegen = StageGen::new();
    let mut ends = Vec::new();
    for t in &g.turns {
        let Some((a, b)) = t.roll else {
            return false;
        };
        let Ok(start) = state.roll(opts, a, b) else {
            return false;
        };
        let words: Vec<&str> = t.moves.iter().map(String::as_str).collect();
        state = if words.is_empty() {
            skip_forced_empty(start, opts, &mut movegen, &mut ends)
        } else {
            match notation::apply_turn(&start, opts, &words) {
                Ok(s) => s,
                Err(_) => return false,
            }
        };
    }
    state.result().is_some()
}

/// Writes games of backgammon or short nardy as a gnubg `.mat` file (a
/// money session: `0 point match`, running scores). `tags` become `; [..]`
/// lines after the `Variant` tag. Fails on a game the rules reject.
pub fn write(
    opts: &RuleOptions,
    tags: &[(String, String)],
    games: &[RecordedGame],
) -> Result<String, MatError> {
    if !opts.variant.spec().gnubg {
        return Err(MatError::NoMatForm(opts.variant));
    }
    let clean = |s: &str| s.replace([':', '\n', '\r'], "-");
    let mut out = String::new();
    let _ = writeln!(out, "; [Variant \"{}\"]", opts.variant);
    for (k, v) in tags {
        if k != "Variant" {
            let _ = writeln!(out, "; [{} \"{}\"]", clean(k), clean(v).replace('"', "'"));
        }
    }
    let length = games
        .iter()
        .find_map(|g| g.cube.score)
        .map_or(0, |s| s.length);
    let _ = writeln!(out, "\n {length} point match\n");
    let mut score = [0u32; 2];
    for (n, g) in games.iter().enumerate() {
        if let Some(sc) = g.cube.score {
            score = [sc.white, sc.black];
        }
        let _ = writeln!(out, " Game {}", n + 1);
        let left = format!("{} : {}", clean(&g.players[0]), score[0]);
        let _ = writeln!(out, " {left:<31}{} : {}", clean(&g.players[1]), score[1]);
        let turns = replayed_steps(opts, g).map_err(|e| MatError::Game {
            game: n + 1,
            source: Box::new(e),
        })?;
        // Half-moves in order: rolls and their plays, and cube actions
        // (a double in the doubler's column, the answer in the other's).
        let mut cube = 1u32;
        let mut entries: Vec<(Side, String)> = Vec::new();
        let double = |entries: &mut Vec<(Side, String)>, doubler: Side, cube: u32, answer: &str| {
            entries.push((doubler, format!(" Doubles => {}", cube * 2)));
            entries.push((doubler.opponent(), format!(" {answer}")));
        };
        for (t, (side, (a, b), pos, steps)) in g.turns.iter().zip(&turns) {
            match t.double {
                Some(CubeAnswer::Beaver) => {
                    double(&mut entries, *side, cube, "Beavers");
                    cube = cube.saturating_mul(4);
                }
                Some(_) => {
                    double(&mut entries, *side, cube, "Takes");
                    cube = cube.saturating_mul(2);
                }
                None => {}
            }
            entries.push((*side, format!("{a}{b}: {}", movetext::plain(*pos, steps))));
        }
        if let Some(doubler) = g.cube.dropped_by {
            double(&mut entries, doubler, cube, "Drops");
        }
        // Half-moves: even the left player's (White), odd the right's.
        let mut half = 0usize;
        for (side, text) in &entries {
            let want = side.index();
            if half % 2 != want {
                if half == 0 {
                    out.push_str("  1)                             ");
                } else {
                    // The other side played twice in a row: impossible in
                    // these games, but keep the columns honest.
                    return Err(MatError::MovedTwice(n + 1));
                }
                half += 1;
            }
            if half.is_multiple_of(2) {
                let _ = write!(out, "{:>3}) {text:<27} ", half / 2 + 1);
            } else {
                let _ = writeln!(out, "{text}");
            }
            half += 1;
        }
        let won = match (g.cube.dropped_by, g.result) {
            (Some(doubler), _) => Some((doubler, cube)),
            (
                None,
                Some(GameResult {
                    winner: Some(w),
                    points,
                }),
            ) => Some((w, g.cube.scored.unwrap_or(u32::from(points)))),
            _ => None,
        };
        if let Some((w, points)) = won {
            score[w.index()] = score[w.index()].saturating_add(points);
            let lead = if half % 2 == 1 {
                "\n      "
            } else {
                "                                  "
            };
            let s = if points == 1 { "" } else { "s" };
            let _ = writeln!(out, "{lead}Wins {points} point{s}\n");
        } else {
            if half % 2 == 1 {
                out.push('\n');
            }
            out.push('\n');
        }
    }
    Ok(out)
}

/// One action of a `.mat` game.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    Roll((u8, u8), Vec<String>),
    Double,
    Take,
    Drop,
    Wins(u32),
}

/// Why a `.mat` file cannot be read as a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatReadError {
    /// A line does not read.
    #[error("line {line}: {why}")]
    Syntax {
        /// 1-based line number (0: the file as a whole).
        line: usize,
        /// What is wrong.
        why: MatSyntax,
    },
    /// A game's `Wins` disagrees with its cube.
    #[error("game {game}: {why}")]
    Wins {
        /// 1-based game number.
        game: usize,
        /// What is wrong.
        why: WinsFault,
    },
}

/// What is wrong with a line of a `.mat` file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatSyntax {
    /// A move with no roll before it on its line.
    #[error("a move '{0}' without a roll before it")]
    MoveWithoutRoll(String),
    /// A move's text does not read.
    #[error("{0}")]
    MoveText(movetext::MoveTextError),
    /// `Wins` with no number after it.
    #[error("'Wins' without a number")]
    WinsWithoutNumber,
    /// A word that is none of a move line's.
    #[error("unexpected '{0}' in a .mat move line")]
    Word(String),
    /// Text before the `N point match` line.
    #[error("expected 'N point match'")]
    ExpectedHeader,
    /// A `Game` line without its number.
    #[error("bad game line '{0}'")]
    GameLine(String),
    /// Text before the first `Game` line.
    #[error("text before the first 'Game' line")]
    TextBeforeGame,
    /// No `N point match` line at all.
    #[error("no 'N point match' line")]
    NoHeader,
    /// A `Variant` tag naming no game.
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    /// A `Variant` tag naming a game gnubg does not play.
    #[error("{0} games have no .mat form")]
    NoMatForm(Variant),
    /// A game's players line is not `name : score  name : score`.
    #[error("expected 'name : score  name : score', got '{0}'")]
    Names(String),
    /// The match length is none a session has.
    #[error("{0}")]
    Length(crate::cube::CubeStateError),
}

/// A game's `Wins N` against its cube.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WinsFault {
    /// After a drop, not the cube's points.
    #[error("'Wins {wins}' on a drop of the cube at {cube}")]
    OnDrop {
        /// The points won.
        wins: u32,
        /// The cube.
        cube: u32,
    },
    /// After a play, not 1, 2 or 3 times the cube.
    #[error("'Wins {wins}' with the cube at {cube}")]
    NotTheCube {
        /// The points won.
        wins: u32,
        /// The cube.
        cube: u32,
    },
}

fn syntax(line: usize, why: MatSyntax) -> MatReadError {
    MatReadError::Syntax { line, why }
}

/// The actions of one line after its `N)`, in order, and whether the left
/// column was empty (the right player's action comes first).
fn line_actions(rest: &str, line: usize) -> Result<(Vec<Action>, bool), MatReadError> {
    let left_empty = rest.chars().count() > 20 && rest.chars().take(20).all(char::is_whitespace);
    let mut actions: Vec<Action> = Vec::new();
    let mut words = rest.split_whitespace().peekable();
    while let Some(w) = words.next() {
        let b = w.as_bytes();
        if b.len() == 3
            && b[2] == b':'
            && (b'1'..=b'6').contains(&b[0])
            && (b'1'..=b'6').contains(&b[1])
        {
            actions.push(Action::Roll((b[0] - b'0', b[1] - b'0'), Vec::new()));
        } else if w.contains('/') {
            let Some(Action::Roll(_, moves)) = actions.last_mut() else {
                return Err(syntax(line, MatSyntax::MoveWithoutRoll(w.to_string())));
            };
            let hops = movetext::parse(w).map_err(|e| syntax(line, MatSyntax::MoveText(e)))?;
            for (from, to) in hops {
                let from = if from == crate::rules::position::BAR {
                    "bar".to_string()
                } else {
                    from.to_string()
                };
                let to = if to == 0 {
                    "off".to_string()
                } else {
                    to.to_string()
                };
                moves.push(format!("{from}/{to}"));
            }
        } else if w.eq_ignore_ascii_case("Doubles") {
            // `Doubles => 2`
            if words.peek() == Some(&"=>") {
                words.next();
                words.next();
            }
            actions.push(Action::Double);
        } else if w.eq_ignore_ascii_case("Takes") || w.eq_ignore_ascii_case("Beavers") {
            actions.push(Action::Take);
        } else if w.eq_ignore_ascii_case("Drops") {
            actions.push(Action::Drop);
        } else if w.eq_ignore_ascii_case("Wins") {
            let n = words
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| syntax(line, MatSyntax::WinsWithoutNumber))?;
            words.next_if(|p| p.to_ascii_lowercase().starts_with("point"));
            // "and the match"
            while words
                .next_if(|p| ["and", "the", "match"].contains(p))
                .is_some()
            {}
            actions.push(Action::Wins(n));
        } else if w.eq_ignore_ascii_case("Cannot") || w.eq_ignore_ascii_case("Move") {
            // XG's "Cannot Move": no play.
        } else {
            return Err(syntax(line, MatSyntax::Word(w.to_string())));
        }
    }
    Ok((actions, left_empty))
}

/// One game of a `.mat` file as read: its players, the score it started
/// at, its actions, and whether the right-hand column played first.
struct MatGame {
    names: [String; 2],
    scores: Option<[u32; 2]>,
    actions: Vec<Action>,
    right_first: Option<bool>,
}

/// A `.mat` file as read, line by line.
struct MatFile {
    variant: Variant,
    /// The `; [Key "value"]` tags it carries.
    tags: Vec<(String, String)>,
    /// The match length; 0 for money play.
    length: u32,
    games: Vec<MatGame>,
}

/// Reads a `.mat` file into a record (its plays as gulbara notation; cube
/// actions count only for the points). Each game's result line is what the
/// file says, divided by the cube; a game that ends otherwise than after a
/// play (a drop, a resignation) is left unfinished with a note.
pub fn to_record(text: &str) -> Result<Record, MatReadError> {
    let file = read_mat(text)?;
    let opts = RuleOptions::for_variant(file.variant);
    let tags = record_tags(&file, &opts)?;
    let mut one_away_before = false;
    let mut games = Vec::new();
    for (gi, g) in file.games.into_iter().enumerate() {
        let score = g
            .scores
            .filter(|_| file.length > 0)
            .map(|s| game_score(s, file.length, &mut one_away_before));
        games.push(recorded_game(gi + 1, g, score, &opts)?);
    }
    Ok(Record { tags, games })
}

/// Reads the lines of a `.mat` file: its tags, header, games and their
/// actions.
fn read_mat(text: &str) -> Result<MatFile, MatReadError> {
    let mut file = MatFile {
        variant: Variant::GNUBG_NATIVE,
        tags: Vec::new(),
        length: 0,
        games: Vec::new(),
    };
    let mut seen_header = false;
    let mut expect_names = false;
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw.trim_end_matches(['\r', '\n']);
        let t = line.trim();
        if let Some(tag) = t.strip_prefix(';').or_else(|| t.strip_prefix('#')) {
            read_tag(tag.trim(), ln, &mut file)?;
            continue;
        }
        if t.is_empty() {
            continue;
        }
        if !seen_header {
            if is_mat(t) {
                seen_header = true;
                file.length = t
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                continue;
            }
            return Err(syntax(ln, MatSyntax::ExpectedHeader));
        }
        if let Some(n) = t.strip_prefix("Game ") {
            if n.trim().parse::<u32>().is_err() {
                return Err(syntax(ln, MatSyntax::GameLine(t.to_string())));
            }
            file.games.push(MatGame {
                names: [String::new(), String::new()],
                scores: None,
                actions: Vec::new(),
                right_first: None,
            });
            expect_names = true;
            continue;
        }
        let Some(game) = file.games.last_mut() else {
            return Err(syntax(ln, MatSyntax::TextBeforeGame));
        };
        if expect_names {
            expect_names = false;
            read_names(t, ln, game)?;
            continue;
        }
        // After a numbered line's `N)`, the text as written: its columns
        // say which player starts.
        let rest = match line.split_once(')') {
            Some((n, rest)) if n.trim().parse::<u32>().is_ok() => rest,
            _ => line,
        };
        let (actions, left_empty) = line_actions(rest, ln)?;
        if game.right_first.is_none() && !actions.is_empty() {
            game.right_first = Some(left_empty);
        }
        game.actions.extend(actions);
    }
    if !seen_header {
        return Err(syntax(0, MatSyntax::NoHeader));
    }
    Ok(file)
}

/// Reads a comment line's tag (`[Variant "..."]` sets the game).
fn read_tag(tag: &str, ln: usize, file: &mut MatFile) -> Result<(), MatReadError> {
    if let Some(rest) = tag.strip_prefix("[Variant \"") {
        let v = rest.trim_end_matches("\"]");
        file.variant = v
            .parse::<Variant>()
            .map_err(|_| syntax(ln, MatSyntax::UnknownVariant(v.to_string())))?;
        if !file.variant.spec().gnubg {
            return Err(syntax(ln, MatSyntax::NoMatForm(file.variant)));
        }
    } else if let Some(rest) = tag.strip_prefix('[')
        && let Some((k, v)) = rest.split_once(" \"")
    {
        file.tags
            .push((k.to_string(), v.trim_end_matches("\"]").to_string()));
    }
    Ok(())
}

/// Reads a game's `name0 : score0    name1 : score1` line.
fn read_names(t: &str, ln: usize, game: &mut MatGame) -> Result<(), MatReadError> {
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() != 3 {
        return Err(syntax(ln, MatSyntax::Names(t.to_string())));
    }
    let mid = parts[1].trim_start();
    let name1 = mid.split_once(char::is_whitespace).map_or("", |(_, n)| n);
    game.names = [parts[0].trim().to_string(), name1.trim().to_string()];
    let score = |p: &str| {
        p.split_whitespace()
            .next()
            .and_then(|n| n.parse::<u32>().ok())
    };
    game.scores = score(parts[1]).zip(score(parts[2])).map(|(a, b)| [a, b]);
    Ok(())
}

/// The record's tags: the game, the file's own tags, the rules, and a
/// session where the file does not say its own.
fn record_tags(file: &MatFile, opts: &RuleOptions) -> Result<Vec<(String, String)>, MatReadError> {
    let length = file.length;
    let mut rec_tags = vec![("Variant".to_string(), file.variant.to_string())];
    let has_session = file.tags.iter().any(|(k, _)| k == "Session");
    rec_tags.extend(file.tags.iter().filter(|(k, _)| k != "Rules").cloned());
    rec_tags.push(("Rules".into(), crate::record::rules_tag(opts)));
    // A file that does not say its session (gnubg's own): a match to its
    // length with the cube and the Crawford rule, or money play, with the
    // cube where the games turn it.
    let cube_turned = file
        .games
        .iter()
        .any(|g| g.actions.iter().any(|a| matches!(a, Action::Double)));
    if !has_session && (length > 0 || cube_turned) {
        let rules = crate::cube::SessionRules {
            cube: length > 0 || cube_turned,
            ..crate::cube::SessionRules::default()
        };
        let session = if length > 0 {
            crate::cube::MatchState::match_to(length, rules)
                .map_err(|e| syntax(0, MatSyntax::Length(e)))?
        } else {
            crate::cube::MatchState::money(rules)
        };
        rec_tags.extend(crate::record::session_tags(&session));
    }
    Ok(rec_tags)
}

/// The score a game of a match to `length` started at; `one_away_before`
/// says whether a side was one away in an earlier game (the Crawford game
/// is the first in which a side is one away).
fn game_score(
    [white, black]: [u32; 2],
    length: u32,
    one_away_before: &mut bool,
) -> crate::record::GameScore {
    let one_away = [white, black].iter().any(|&p| p + 1 == length);
    let crawford = one_away && !*one_away_before && white.max(black) < length;
    *one_away_before |= one_away;
    crate::record::GameScore {
        white,
        black,
        length,
        crawford: crawford && (white + 1 == length) != (black + 1 == length),
    }
}

/// Game number `number` of the file as a recorded game: its turns, its
/// cube, and its result (or a note on how it ended).
fn recorded_game(
    number: usize,
    g: MatGame,
    score: Option<crate::record::GameScore>,
    opts: &RuleOptions,
) -> Result<RecordedGame, MatReadError> {
    let starter = if g.right_first == Some(true) {
        Side::Black
    } else {
        Side::White
    };
    let mut mover = starter;
    let mut cube = 1u32;
    let mut turns = Vec::new();
    let mut result = None;
    let mut note = None;
    let mut last_was_roll = false;
    let mut taken = None;
    let mut dropped_by = None;
    let mut scored = None;
    for a in g.actions {
        match a {
            Action::Roll(roll, moves) => {
                turns.push(RecordedTurn {
                    side: mover,
                    roll: Some(roll),
                    remainder: None,
                    moves,
                    double: taken.take(),
                });
                mover = mover.opponent();
                last_was_roll = true;
                continue;
            }
            // The side to roll doubles; the other side answers, and a
            // take leaves the doubler to roll.
            Action::Double => cube = cube.saturating_mul(2),
            Action::Take => taken = Some(crate::cube::CubeAnswer::Take),
            Action::Drop => {
                cube /= 2;
                dropped_by = Some(mover);
            }
            Action::Wins(n) if dropped_by.is_some() => {
                if n != cube {
                    return Err(MatReadError::Wins {
                        game: number,
                        why: WinsFault::OnDrop { wins: n, cube },
                    });
                }
            }
            Action::Wins(n) => {
                if last_was_roll && note.is_none() {
                    scored = Some(n);
                    let winner = mover.opponent();
                    if n % cube != 0 || n / cube == 0 || n / cube > 3 {
                        return Err(MatReadError::Wins {
                            game: number,
                            why: WinsFault::NotTheCube { wins: n, cube },
                        });
                    }
                    result = Some(GameResult {
                        winner: Some(winner),
                        points: (n / cube) as u8,
                    });
                } else if note.is_none() {
                    note = Some("ended without a final play (a resignation)".into());
                }
            }
        }
        last_was_roll = false;
    }
    let opening = turns
        .first()
        .and_then(|t: &RecordedTurn| t.roll)
        .unwrap_or((0, 0));
    let mut game = RecordedGame {
        players: g.names,
        opening: Some(opening),
        starter,
        turns,
        result,
        note,
        cube: crate::record::GameCube {
            score,
            dropped_by,
            scored,
        },
    };
    // gnubg writes a resignation as `Wins N points` after the last
    // roll, like a game played out: only the rules can tell them apart.
    if let Some(r) = game.result
        && !played_out(opts, &game)
    {
        let n = u32::from(r.points) * cube;
        game.note = Some(format!(
            "ended by a resignation: Wins {n} point{}",
            if n == 1 { "" } else { "s" }
        ));
        game.result = None;
    }
    Ok(game)
}

#[cfg(test)]
mod tests;
