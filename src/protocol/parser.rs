//! The command parser: one protocol line in, one typed [`Command`] out.
//!
//! Built with `nom`. It knows nothing about sockets, sessions or the search:
//! it checks syntax and the shape of values (numbers, dice, position text)
//! and leaves every question about the game (is this move legal? is a search
//! running?) to the session.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{all_consuming, map, opt};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

pub use crate::engine::GoParams;

use crate::engine::Ply;
use crate::notation;
use crate::rules::Side;

/// The error codes of `error <code> <detail>` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Unknown command, malformed syntax, invalid UTF-8, an overlong line.
    BadCommand,
    /// A well-formed command with a value that is out of range, unknown or illegal.
    BadValue,
    /// The command is fine but not now (no dice, search running, game over).
    BadState,
    /// A known UCI/UBGI command or argument that gulbara does not implement.
    Unsupported,
}

impl ErrorCode {
    /// The code as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadCommand => "bad_command",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::BadState => "bad_state",
            ErrorCode::Unsupported => "unsupported",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol error: written as `error <code> <detail>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// The error code.
    pub code: ErrorCode,
    /// A human-readable detail (one line).
    pub detail: String,
}

impl ProtocolError {
    /// An error with `code` and `detail`.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ProtocolError {
            code,
            detail: detail.into(),
        }
    }

    /// `bad_command`.
    pub fn bad_command(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadCommand, detail)
    }

    /// `bad_value`.
    pub fn bad_value(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadValue, detail)
    }

    /// `bad_state`.
    pub fn bad_state(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadState, detail)
    }

    /// `unsupported`.
    pub fn unsupported(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unsupported, detail)
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail: String = self
            .detail
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        write!(f, "error {} {}", self.code, detail)
    }
}

impl std::error::Error for ProtocolError {}

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

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Base {
    /// `startpos [w|b]`: the start position with this side to roll.
    Start(Side),
    /// `board <position text>`: a position written in the notation, as its
    /// tokens (read by the session, which knows the variant).
    Board(Vec<String>),
    /// `gnubgid <ID>[:<MatchID>]`: a gnubg Position ID, with its Match ID
    /// if given (the hitting games).
    GnubgId(String),
    /// `xgid <XGID>`: eXtreme Gammon's position text (the hitting games).
    Xgid(String),
}

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
    /// `legal [limit <n>]`.
    Legal {
        /// At most this many `play` lines.
        limit: usize,
    },
    /// `hint [n] [rollout <games> [rollout options]]`.
    Hint {
        /// How many plays to list.
        count: usize,
        /// `rollout G ...`: rank the plays by a rollout of each.
        rollout: Option<RolloutArgs>,
    },
    /// `rollout [games N] [truncate P] [ply K] [seed S] [luck on|off]
    /// [every K] [moves <play> ...]`.
    Rollout(RolloutArgs),
}

/// The arguments of `rollout` (and of `hint ... rollout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutArgs {
    /// `games N`: trials, 1..=[`crate::analysis::rollout::MAX_GAMES`].
    pub games: u32,
    /// `truncate P`: plies per trial, 0 (to the end)..=[`crate::analysis::rollout::MAX_TRUNCATE`].
    pub truncate: u32,
    /// `ply K`: the players' depth, root-inclusive as `engine.ply` (1 or 2).
    pub ply: Ply,
    /// `seed S`; `None`: `engine.seed`.
    pub seed: Option<u64>,
    /// `luck on|off`: the luck correction (on by default).
    pub luck: bool,
    /// `every K`: an `info rollout` report after every K trials (0: about ten).
    pub every: u32,
    /// `moves <play> ...`: the candidate plays' words; `None`: the position
    /// before the roll.
    pub moves: Option<Vec<String>>,
}

impl Default for RolloutArgs {
    fn default() -> Self {
        RolloutArgs {
            games: DEFAULT_ROLLOUT_GAMES,
            truncate: 0,
            ply: ROLLOUT_PLY,
            seed: None,
            luck: true,
            every: 0,
            moves: None,
        }
    }
}

/// The default depth of the rollout players: gnubg's 0-ply.
const ROLLOUT_PLY: Ply = match Ply::new(1) {
    Some(p) => p,
    None => Ply::MAX,
};

/// The default number of rollout games.
pub const DEFAULT_ROLLOUT_GAMES: u32 = 1296;

/// The default of `legal limit`.
pub const DEFAULT_LEGAL_LIMIT: usize = 10_000;
/// The default number of `hint` lines.
pub const DEFAULT_HINT_COUNT: usize = 5;
/// The largest `hint` count.
pub const MAX_HINT_COUNT: usize = 1000;

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One token: a run of characters other than spaces and tabs, after any spaces.
fn token(i: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(is_space)).parse(i)
}

/// All tokens of the line.
fn tokens(i: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(nom::sequence::terminated(many0(token), space0)).parse(i)
}

/// `setoption name <key> value <value...>`: the key and the raw value text.
fn setoption(i: &str) -> IResult<&str, (&str, &str)> {
    let (i, _) = (space1, tag("name"), space1).parse(i)?;
    let (i, key) = take_till1(is_space).parse(i)?;
    let (i, value) = opt(preceded((space1, tag("value"), space1), rest_trimmed)).parse(i)?;
    let (i, _) = space0.parse(i)?;
    Ok((i, (key, value.unwrap_or(""))))
}

/// The rest of the line without trailing spaces.
fn rest_trimmed(i: &str) -> IResult<&str, &str> {
    let t = i.trim_end_matches(is_space);
    Ok((&i[t.len()..], t))
}

/// `w` or `b`.
fn side(i: &str) -> IResult<&str, Side> {
    alt((
        map(tag("w"), |_| Side::White),
        map(tag("b"), |_| Side::Black),
    ))
    .parse(i)
}

fn number<T: std::str::FromStr>(what: &str, tok: Option<&&str>) -> Result<T, ProtocolError> {
    let Some(tok) = tok else {
        return Err(ProtocolError::bad_command(format!("{what} needs a number")));
    };
    tok.parse::<T>().map_err(|_| {
        ProtocolError::bad_value(format!("{what} needs a whole number, got {}", quote(tok)))
    })
}

fn no_more(cmd: &str, rest: &[&str]) -> Result<(), ProtocolError> {
    match rest.first() {
        None => Ok(()),
        Some(t) => Err(ProtocolError::bad_command(format!(
            "unexpected {} after {cmd}",
            quote(t)
        ))),
    }
}

fn die(tok: &str) -> Option<u8> {
    match tok {
        "1" | "2" | "3" | "4" | "5" | "6" => tok.parse().ok(),
        _ => None,
    }
}

/// Parses one line (without its line ending).
pub fn parse_command(line: &str) -> Result<Command, ProtocolError> {
    let toks = match tokens(line) {
        Ok((_, t)) => t,
        Err(_) => {
            return Err(ProtocolError::bad_command(
                "cannot split the line into tokens",
            ));
        }
    };
    let Some((&kw, args)) = toks.split_first() else {
        return Ok(Command::Empty);
    };
    let simple = |c: Command| no_more(kw, args).map(|_| c);
    match kw {
        "ubgi" => simple(Command::Ubgi),
        "isready" => simple(Command::IsReady),
        "newgame" => simple(Command::NewGame),
        "quit" => simple(Command::Quit),
        "stop" => simple(Command::Stop),
        "keys" => simple(Command::Keys),
        "show" => simple(Command::Show),
        "eval" => simple(Command::Eval),
        "set" => match args {
            [key, value @ ..] if !value.is_empty() => {
                let after_key = line_after(line, 2);
                Ok(Command::Set {
                    key: (*key).to_string(),
                    value: after_key.to_string(),
                })
            }
            _ => Err(ProtocolError::bad_command("usage: set <key> <value>")),
        },
        "setoption" => {
            let after = line_after(line, 1);
            let spaced = format!(" {after}");
            match setoption(&spaced) {
                Ok((_, (key, value))) if !value.is_empty() => Ok(Command::Set {
                    key: key.to_string(),
                    value: value.to_string(),
                }),
                _ => Err(ProtocolError::bad_command(
                    "usage: setoption name <key> value <value>",
                )),
            }
        }
        "get" => match args {
            [key] => Ok(Command::Get {
                key: (*key).to_string(),
            }),
            _ => Err(ProtocolError::bad_command("usage: get <key>")),
        },
        "position" => parse_position(args),
        "dice" => parse_dice(args),
        "go" => parse_go(args),
        "legal" => match args {
            [] => Ok(Command::Legal {
                limit: DEFAULT_LEGAL_LIMIT,
            }),
            ["limit", rest @ ..] => {
                let limit = number::<usize>("legal limit", rest.first())?;
                no_more("legal limit <n>", &rest[1..])?;
                Ok(Command::Legal { limit })
            }
            [t, ..] => Err(ProtocolError::bad_command(format!(
                "usage: legal [limit <n>], got {}",
                quote(t)
            ))),
        },
        "hint" => parse_hint(args),
        "rollout" => parse_rollout(args, false).map(Command::Rollout),
        "uci" | "ucinewgame" | "ponderhit" | "register" | "debug" | "d" => {
            Err(ProtocolError::unsupported(format!(
                "{} is not part of this protocol (see protocol/SPEC.md)",
                quote(kw)
            )))
        }
        _ => Err(ProtocolError::bad_command(format!(
            "unknown command {}",
            quote(kw)
        ))),
    }
}

/// The line after its first `n` tokens, without leading and trailing spaces.
fn line_after(line: &str, n: usize) -> &str {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start_matches(is_space);
        let end = rest.find(is_space).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    rest.trim_matches(is_space)
}

fn parse_position(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "usage: position startpos [w|b] [moves ...] | position board <position> [moves ...] | position gnubgid <ID>[:<MatchID>] [moves ...] | position xgid <XGID> [moves ...]";
    let (base, rest) = match args.split_first() {
        Some((&"startpos", rest)) => match rest.first().map(|t| side(t)) {
            Some(Ok(("", s))) => (Base::Start(s), &rest[1..]),
            _ => (Base::Start(Side::White), rest),
        },
        Some((&"board", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            let board_toks = &rest[..end];
            // Accept the 24 counts comma-separated (the notation) or as 24 tokens.
            let joined;
            let mut toks: Vec<&str> = board_toks.to_vec();
            if board_toks.first().is_some_and(|t| !t.contains(',')) && board_toks.len() >= 24 {
                joined = board_toks[..24].join(",");
                toks = std::iter::once(joined.as_str())
                    .chain(board_toks[24..].iter().copied())
                    .collect();
            }
            (
                Base::Board(toks.iter().map(|t| t.to_string()).collect()),
                &rest[end..],
            )
        }
        Some((&"gnubgid", rest)) => match rest.split_first() {
            Some((id, rest)) if *id != "moves" => (Base::GnubgId(id.to_string()), rest),
            _ => {
                return Err(ProtocolError::bad_command(
                    "usage: position gnubgid <14-character gnubg Position ID>[:<12-character Match ID>] [moves ...]",
                ));
            }
        },
        Some((&"xgid", rest)) => match rest.split_first() {
            Some((id, rest)) if *id != "moves" => (Base::Xgid(id.to_string()), rest),
            _ => {
                return Err(ProtocolError::bad_command(
                    "usage: position xgid <XGID=...> [moves ...]",
                ));
            }
        },
        Some((t, _)) => {
            return Err(ProtocolError::bad_command(format!(
                "{usage}; got {}",
                quote(t)
            )));
        }
        None => return Err(ProtocolError::bad_command(usage)),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", m)) => m.iter().map(|s| s.to_string()).collect(),
        Some((t, _)) => {
            return Err(ProtocolError::bad_command(format!(
                "expected 'moves' after the position, got {}",
                quote(t)
            )));
        }
    };
    Ok(Command::Position { base, moves })
}

fn parse_dice(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "usage: dice <d1> <d2> (each 1..6)";
    match args {
        [a, b] => match (die(a), die(b)) {
            (Some(x), Some(y)) => Ok(Command::Dice(x, y)),
            _ => Err(ProtocolError::bad_value(format!(
                "dice must be 1..6, got {} {}",
                quote(a),
                quote(b)
            ))),
        },
        [ab] => match notation::parse_roll(ab) {
            Some((x, y)) => Ok(Command::Dice(x, y)),
            None => Err(ProtocolError::bad_value(format!(
                "{usage}, got {}",
                quote(ab)
            ))),
        },
        _ => Err(ProtocolError::bad_command(usage)),
    }
}

fn parse_hint(args: &[&str]) -> Result<Command, ProtocolError> {
    let (count, rest) = match args.split_first() {
        None => (DEFAULT_HINT_COUNT, args),
        Some((&"rollout", _)) => (DEFAULT_HINT_COUNT, args),
        Some((first, rest)) => (number::<usize>("hint", Some(first))?, rest),
    };
    if !(1..=MAX_HINT_COUNT).contains(&count) {
        return Err(ProtocolError::bad_value(format!(
            "hint count must be 1..{MAX_HINT_COUNT}, got {count}"
        )));
    }
    let rollout = match rest.split_first() {
        None => None,
        Some((&"rollout", more)) => {
            let games = number::<u32>("hint rollout", more.first())?;
            let mut r = parse_rollout(&more[1..], true)?;
            check_games(games)?;
            r.games = games;
            if count > crate::analysis::rollout::MAX_CANDIDATES {
                return Err(ProtocolError::bad_value(format!(
                    "hint rollout ranks at most {} plays, got {count}",
                    crate::analysis::rollout::MAX_CANDIDATES
                )));
            }
            Some(r)
        }
        Some((t, _)) => {
            return Err(ProtocolError::bad_command(format!(
                "usage: hint [n] [rollout <games> [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>]]; got {}",
                quote(t)
            )));
        }
    };
    Ok(Command::Hint { count, rollout })
}

fn check_games(games: u32) -> Result<(), ProtocolError> {
    let max = crate::analysis::rollout::MAX_GAMES;
    if !(1..=max).contains(&games) {
        return Err(ProtocolError::bad_value(format!(
            "rollout games must be 1..{max}, got {games}"
        )));
    }
    Ok(())
}

/// The options of `rollout` (`in_hint`: after `hint n rollout G`, where
/// `games` and `moves` have no place).
fn parse_rollout(args: &[&str], in_hint: bool) -> Result<RolloutArgs, ProtocolError> {
    let usage = if in_hint {
        "usage: hint [n] rollout <games> [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>]"
    } else {
        "usage: rollout [games <n>] [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>] [moves <play> ...]"
    };
    let mut r = RolloutArgs::default();
    let mut i = 0;
    while let Some(&t) = args.get(i) {
        let value = args.get(i + 1);
        match t {
            "games" if !in_hint => {
                r.games = number("rollout games", value)?;
                check_games(r.games)?;
            }
            "truncate" => {
                r.truncate = number("rollout truncate", value)?;
                let max = crate::analysis::rollout::MAX_TRUNCATE;
                if r.truncate > max {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout truncate must be 0..{max}, got {}",
                        r.truncate
                    )));
                }
            }
            "ply" => {
                let n: u8 = number("rollout ply", value)?;
                r.ply = match Ply::new(n) {
                    Some(p) if n <= 2 => p,
                    _ => {
                        return Err(ProtocolError::bad_value(format!(
                            "rollout ply must be 1..2 (1: gnubg's 0-ply, 2: its 1-ply), got {n}"
                        )));
                    }
                };
            }
            "seed" => r.seed = Some(number("rollout seed", value)?),
            "every" => {
                r.every = number("rollout every", value)?;
                if r.every > crate::analysis::rollout::MAX_GAMES {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout every must be 0..{}, got {}",
                        crate::analysis::rollout::MAX_GAMES,
                        r.every
                    )));
                }
            }
            "luck" => {
                r.luck = match value.copied() {
                    Some("on") => true,
                    Some("off") => false,
                    Some(v) => {
                        return Err(ProtocolError::bad_value(format!(
                            "rollout luck must be on or off, got {}",
                            quote(v)
                        )));
                    }
                    None => return Err(ProtocolError::bad_command("rollout luck needs on or off")),
                }
            }
            "moves" if !in_hint => {
                let words: Vec<String> = args[i + 1..].iter().map(|s| s.to_string()).collect();
                if words.is_empty() {
                    return Err(ProtocolError::bad_command(
                        "rollout moves needs at least one play",
                    ));
                }
                r.moves = Some(words);
                return Ok(r);
            }
            _ => {
                return Err(ProtocolError::bad_command(format!(
                    "{usage}; got {}",
                    quote(t)
                )));
            }
        }
        i += 2;
    }
    Ok(r)
}

fn parse_go(args: &[&str]) -> Result<Command, ProtocolError> {
    let mut p = GoParams::default();
    let mut i = 0;
    while let Some(&t) = args.get(i) {
        match t {
            "movetime" => {
                p.movetime = Some(number("go movetime", args.get(i + 1))?);
                i += 2;
            }
            "nodes" => {
                p.nodes = Some(number("go nodes", args.get(i + 1))?);
                i += 2;
            }
            "ply" => {
                let n: u8 = number("go ply", args.get(i + 1))?;
                let Some(ply) = Ply::new(n) else {
                    return Err(ProtocolError::bad_value(format!(
                        "go ply must be 1..3, got {n}"
                    )));
                };
                p.ply = Some(ply);
                i += 2;
            }
            "infinite" => {
                p.infinite = true;
                i += 1;
            }
            "ponder" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "mate"
            | "searchmoves" => {
                return Err(ProtocolError::unsupported(format!(
                    "go {t} is not supported (use movetime, nodes, ply or infinite)"
                )));
            }
            _ => {
                return Err(ProtocolError::bad_command(format!(
                    "usage: go [movetime <ms>] [nodes <n>] [ply <n>] [infinite]; got {}",
                    quote(t)
                )));
            }
        }
    }
    Ok(Command::Go(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &str) -> ErrorCode {
        parse_command(line).unwrap_err().code
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command("ubgi").unwrap(), Command::Ubgi);
        assert_eq!(parse_command("  isready \t").unwrap(), Command::IsReady);
        assert_eq!(parse_command("").unwrap(), Command::Empty);
        assert_eq!(parse_command(" \t ").unwrap(), Command::Empty);
        assert_eq!(code("isready now"), ErrorCode::BadCommand);
        assert_eq!(code("ISREADY"), ErrorCode::BadCommand);
        assert_eq!(code("uci"), ErrorCode::Unsupported);
    }

    #[test]
    fn set_forms() {
        let want = Command::Set {
            key: "engine.ply".into(),
            value: "1".into(),
        };
        assert_eq!(parse_command("set engine.ply 1").unwrap(), want);
        assert_eq!(
            parse_command("setoption name engine.ply value 1").unwrap(),
            want
        );
        assert_eq!(
            parse_command("setoption\tname  engine.ply\tvalue   1 ").unwrap(),
            want
        );
        assert_eq!(code("set engine.ply"), ErrorCode::BadCommand);
        assert_eq!(code("setoption name engine.ply"), ErrorCode::BadCommand);
        assert_eq!(code("get"), ErrorCode::BadCommand);
    }

    #[test]
    fn position_forms() {
        let c = parse_command("position startpos b moves 65 24/13").unwrap();
        assert_eq!(
            c,
            Command::Position {
                base: Base::Start(Side::Black),
                moves: vec!["65".into(), "24/13".into()],
            }
        );
        let c = parse_command(&format!("position board {} moves", notation::START_TEXT)).unwrap();
        assert!(
            matches!(c, Command::Position { base: Base::Board(_), ref moves } if moves.is_empty())
        );
        let spaced = "0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 w 0 0 rem=3x2";
        let c = parse_command(&format!("position board {spaced}")).unwrap();
        assert!(matches!(
            c,
            Command::Position {
                base: Base::Board(_),
                ..
            }
        ));
        // The board is read by the session, which knows the variant.
        let c = parse_command("position board 1,2,3 w 0 0").unwrap();
        assert!(matches!(c, Command::Position { base: Base::Board(ref t), .. } if t.len() == 4));
        let c = parse_command("position gnubgid 4HPwATDgc/ABMA moves 31 8/5 6/5").unwrap();
        assert!(
            matches!(c, Command::Position { base: Base::GnubgId(ref id), ref moves } if id == "4HPwATDgc/ABMA" && moves.len() == 3)
        );
        assert_eq!(code("position gnubgid"), ErrorCode::BadCommand);
        assert_eq!(code("position gnubgid moves 31"), ErrorCode::BadCommand);
        assert_eq!(code("position startpos 65"), ErrorCode::BadCommand);
        assert_eq!(code("position"), ErrorCode::BadCommand);
    }

    #[test]
    fn go_and_dice() {
        let c = parse_command("go movetime 100 nodes 5 ply 1 infinite").unwrap();
        assert_eq!(
            c,
            Command::Go(GoParams {
                movetime: Some(100),
                nodes: Some(5),
                ply: Ply::new(1),
                infinite: true
            })
        );
        assert_eq!(code("go movetime"), ErrorCode::BadCommand);
        assert_eq!(code("go movetime -1"), ErrorCode::BadValue);
        assert_eq!(code("go ply 9"), ErrorCode::BadValue);
        assert_eq!(code("go ponder"), ErrorCode::Unsupported);
        assert_eq!(parse_command("dice 6 5").unwrap(), Command::Dice(6, 5));
        assert_eq!(parse_command("dice 33").unwrap(), Command::Dice(3, 3));
        assert_eq!(code("dice 7 1"), ErrorCode::BadValue);
        assert_eq!(code("dice"), ErrorCode::BadCommand);
    }

    #[test]
    fn legal_and_hint() {
        assert_eq!(
            parse_command("legal limit 3").unwrap(),
            Command::Legal { limit: 3 }
        );
        assert_eq!(
            parse_command("hint").unwrap(),
            Command::Hint {
                count: 5,
                rollout: None
            }
        );
        assert_eq!(code("hint 0"), ErrorCode::BadValue);
        assert_eq!(code("legal 3"), ErrorCode::BadCommand);
    }

    #[test]
    fn rollout_forms() {
        let c = parse_command("rollout").unwrap();
        assert_eq!(c, Command::Rollout(RolloutArgs::default()));
        let c = parse_command(
            "rollout games 72 truncate 10 ply 2 seed 9 luck off every 8 moves 24/18 24/13 24/13",
        )
        .unwrap();
        assert_eq!(
            c,
            Command::Rollout(RolloutArgs {
                games: 72,
                truncate: 10,
                ply: Ply::new(2).unwrap(),
                seed: Some(9),
                luck: false,
                every: 8,
                moves: Some(vec!["24/18".into(), "24/13".into(), "24/13".into()]),
            })
        );
        for bad in [
            "rollout games 0",
            "rollout games 1000001",
            "rollout ply 3",
            "rollout truncate 99999",
            "rollout luck maybe",
            "rollout seed -1",
            "hint 101 rollout 10",
            "hint 3 rollout 0",
        ] {
            assert_eq!(code(bad), ErrorCode::BadValue, "{bad}");
        }
        for bad in [
            "rollout games",
            "rollout moves",
            "rollout bogus 1",
            "hint 3 rollout",
            "hint 3 rollout 10 moves 24/18",
            "hint 3 rollout 10 games 5",
            "hint 3 4",
        ] {
            assert_eq!(code(bad), ErrorCode::BadCommand, "{bad}");
        }
        let c = parse_command("hint 3 rollout 36 truncate 5 seed 2").unwrap();
        let Command::Hint {
            count: 3,
            rollout: Some(r),
        } = c
        else {
            panic!("{c:?}");
        };
        assert_eq!((r.games, r.truncate, r.seed), (36, 5, Some(2)));
        assert!(matches!(
            parse_command("hint rollout 36").unwrap(),
            Command::Hint {
                count: 5,
                rollout: Some(_)
            }
        ));
    }

    #[test]
    fn long_tokens_are_quoted_short() {
        let long = "x".repeat(500);
        let e = parse_command(&long).unwrap_err();
        assert!(e.to_string().len() < 100);
    }
}
