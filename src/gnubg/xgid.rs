//! eXtreme Gammon's position text, the XGID, as gnubg 1.07 reads it
//! (`set xgid`, or an XGID pasted where it takes an ID).
//!
//! `XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10` is the starting
//! position with the bottom player to roll. The fields after the position
//! are: the cube as log2 of its value, the cube's owner (1 the bottom
//! player, -1 the top one, 0 centred), the side on turn (1 bottom, -1 top),
//! the dice (`00` before the roll, `D` when a double waits for an answer,
//! else two digits), the bottom and top players' scores, the Crawford or
//! Jacoby/beaver rule, the match length (0: money) and the money cube limit.
//!
//! The position is 26 characters seen from the bottom player, who moves
//! from its point 24 to its point 1: the first is the top player's bar, the
//! next 24 the bottom player's points 1 to 24, the last the bottom player's
//! bar. `A`–`O` are 1 to 15 of the bottom player's checkers, `a`–`o` the
//! top player's, `-` an empty point. The top player's own point `p` is the
//! bottom player's point `25 - p`.

use crate::gnubg::position_id::{GnubgBoard, GnubgIdError, SideCounts};

/// What an XGID says, the side on turn's board first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct XgidInfo {
    /// The board, with the side on turn as `on_roll`.
    pub board: GnubgBoard,
    /// Whether the side on turn is the bottom player.
    pub bottom_on_turn: bool,
    /// The dice, before any roll `None`.
    pub dice: Option<(u8, u8)>,
    /// A double offered to the side on turn waits for its answer.
    pub doubled: bool,
    /// The cube's value; with a double waiting, the value offered.
    pub cube: u32,
    /// Who owns the cube: 1 the bottom player, -1 the top, 0 nobody.
    pub cube_owner: i8,
    /// The rules field: in a match 1 for the Crawford game; in money play
    /// bit 0 the Jacoby rule, bit 1 beavers.
    pub rules: u8,
    /// The match length (0: money).
    pub match_length: u32,
    /// The bottom and top players' scores.
    pub score: [u32; 2],
}

/// Why a text is not an XGID.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XgidError {
    /// Not a position and nine fields separated by colons.
    #[error("an XGID is a position and 9 fields separated by ':', not {0} fields")]
    FieldCount(usize),
    /// The position is not 26 characters.
    #[error("the position of an XGID has 26 characters, not {0}")]
    PositionLength(usize),
    /// A character that is not `-`, `A`–`O` or `a`–`o` where it stands.
    #[error("character {ch:?} at position {at} of the XGID position")]
    BadCharacter {
        /// The character.
        ch: char,
        /// Its index in the position (0–25).
        at: usize,
    },
    /// A field that is not what it should be.
    #[error("bad XGID {field} {value:?}")]
    BadField {
        /// Which field.
        field: &'static str,
        /// What it held.
        value: String,
    },
    /// A position gnubg would not take.
    #[error(transparent)]
    Board(#[from] GnubgIdError),
}

/// The starting position's XGID with the bottom player to roll.
pub const START: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

fn bad(field: &'static str, value: &str) -> XgidError {
    XgidError::BadField {
        field,
        value: value.to_string(),
    }
}

fn number(field: &'static str, value: &str) -> Result<i64, XgidError> {
    if value.is_empty() || value.len() > 6 {
        return Err(bad(field, value));
    }
    value.parse::<i64>().map_err(|_| bad(field, value))
}

/// Parses an XGID, with or without its `XGID=` prefix. Never panics.
pub fn decode(text: &str) -> Result<XgidInfo, XgidError> {
    let body = text.strip_prefix("XGID=").unwrap_or(text);
    let fields: Vec<&str> = body.split(':').collect();
    if fields.len() != 10 {
        return Err(XgidError::FieldCount(fields.len()));
    }
    let pos = fields[0].as_bytes();
    if pos.len() != 26 {
        return Err(XgidError::PositionLength(fields[0].chars().count()));
    }
    let mut bottom: SideCounts = [0; 25];
    let mut top: SideCounts = [0; 25];
    for (at, &c) in pos.iter().enumerate() {
        let count = |base: u8| c - base + 1;
        match c {
            b'-' => {}
            b'A'..=b'O' if at > 0 => {
                // The bottom player's point `at`, its bar at 25.
                bottom[at - 1] = count(b'A');
            }
            b'a'..=b'o' if at < 25 => {
                // The top player's bar at 0; the bottom player's point `at`
                // is the top player's point 25 - at.
                let index = if at == 0 { 24 } else { 24 - at };
                top[index] = count(b'a');
            }
            _ => {
                return Err(XgidError::BadCharacter {
                    ch: char::from(c),
                    at,
                });
            }
        }
    }
    let cube_log = number("cube", fields[1])?;
    if !(0..=12).contains(&cube_log) {
        return Err(bad("cube", fields[1]));
    }
    if !matches!(fields[2], "-1" | "0" | "1") {
        return Err(bad("cube owner", fields[2]));
    }
    let bottom_on_turn = match fields[3] {
        "1" => true,
        "-1" => false,
        other => return Err(bad("turn", other)),
    };
    let (dice, doubled) = match fields[4].as_bytes() {
        b"D" => (None, true),
        b"00" => (None, false),
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => (Some((a - b'0', b - b'0')), false),
        _ => return Err(bad("dice", fields[4])),
    };
    let score = |i: usize, name| {
        let v = number(name, fields[i])?;
        u32::try_from(v).map_err(|_| bad(name, fields[i]))
    };
    let score = [score(5, "bottom score")?, score(6, "top score")?];
    let rule = number("rules", fields[7])?;
    if !(0..=3).contains(&rule) {
        return Err(bad("rules", fields[7]));
    }
    let match_length = u32::try_from(number("match length", fields[8])?)
        .map_err(|_| bad("match length", fields[8]))?;
    if match_length > super::matchid::MAX_SCORE
        || (match_length > 0 && (rule > 1 || score.iter().any(|&s| s >= match_length)))
    {
        return Err(bad("match length", fields[8]));
    }
    number("cube limit", fields[9])?;
    let board = if bottom_on_turn {
        GnubgBoard {
            on_roll: bottom,
            opponent: top,
        }
    } else {
        GnubgBoard {
            on_roll: top,
            opponent: bottom,
        }
    };
    board.validate()?;
    Ok(XgidInfo {
        board,
        bottom_on_turn,
        dice,
        doubled,
        cube: 1 << cube_log,
        cube_owner: match fields[2] {
            "1" => 1,
            "-1" => -1,
            _ => 0,
        },
        rules: rule as u8,
        match_length,
        score,
    })
}

/// The XGID of a money position with the cube centred at 1 and the side on
/// roll at the bottom, on turn: before its roll (`dice` `None`) or with
/// the dice given (written in the order given).
pub fn encode(board: &GnubgBoard, dice: Option<(u8, u8)>) -> String {
    let letter = |n: u8, base: u8| {
        if n == 0 {
            '-'
        } else {
            char::from(base + n.min(16) - 1)
        }
    };
    let mut pos = String::with_capacity(26);
    pos.push(letter(board.opponent[24], b'a'));
    for p in 1..=24usize {
        let mine = board.on_roll[p - 1];
        let theirs = board.opponent[24 - p];
        pos.push(if mine > 0 {
            letter(mine, b'A')
        } else {
            letter(theirs, b'a')
        });
    }
    pos.push(letter(board.on_roll[24], b'A'));
    let dice = dice.map_or_else(|| "00".to_string(), |(a, b)| format!("{a}{b}"));
    format!("XGID={pos}:0:0:1:{dice}:0:0:0:0:10")
}

/// The XGID of `board` (the side to move `mover` on roll, at the bottom)
/// in `session`: the cube, its owner, the score, the match length and the
/// rules field. With `mover`'s double waiting, the side on turn is the
/// doubled one (the top player), dice `D`, and the cube the one offered.
pub fn encode_in(
    board: &GnubgBoard,
    dice: Option<(u8, u8)>,
    session: &crate::cube::MatchState,
    mover: crate::rules::Side,
) -> String {
    use crate::cube::CubeOwner;
    let plain = encode(board, dice);
    let Some((pos, _)) = plain.strip_prefix("XGID=").and_then(|b| b.split_once(':')) else {
        return plain;
    };
    let doubled = session.doubled_by() == Some(mover);
    // With a double waiting, the cube offered.
    let offered = if doubled {
        session.cube().saturating_mul(2)
    } else {
        session.cube()
    };
    let cube_log = offered.trailing_zeros();
    let owner = match session.owner() {
        CubeOwner::Centre => 0,
        CubeOwner::Side(o) if o == mover => 1,
        CubeOwner::Side(_) => -1,
    };
    let (turn, dice) = match (doubled, dice) {
        (true, _) => (-1, "D".to_string()),
        (false, Some((a, b))) => (1, format!("{a}{b}")),
        (false, None) => (1, "00".to_string()),
    };
    let rules = if session.length() > 0 {
        u8::from(session.is_crawford())
    } else {
        u8::from(session.rules().jacoby) | (u8::from(session.rules().beavers) << 1)
    };
    // XG keeps no score in money play.
    let (mine, theirs) = if session.length() > 0 {
        (session.score(mover), session.score(mover.opponent()))
    } else {
        (0, 0)
    };
    format!(
        "XGID={pos}:{cube_log}:{owner}:{turn}:{dice}:{mine}:{theirs}:{rules}:{}:10",
        session.length()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side at the start: 2 on 24, 5 on 13, 3 on 8, 5 on 6.
    fn start_side() -> SideCounts {
        crate::gnubg::board_of(crate::rules::hitting::START).on_roll
    }

    #[test]
    fn the_start() {
        let start = GnubgBoard {
            on_roll: start_side(),
            opponent: start_side(),
        };
        assert_eq!(encode(&start, None), START);
        let x = decode(START).unwrap();
        assert_eq!(x.board, start);
        assert!(x.bottom_on_turn);
        assert_eq!((x.dice, x.doubled, x.cube), (None, false, 1));
    }

    #[test]
    fn the_top_player_on_turn_with_dice_and_bars() {
        // Top player on roll with 5-2, one checker on each bar.
        let x = decode("XGID=aa----E-C---eE---c-e----AA:1:1:-1:52:3:1:0:7:10").unwrap();
        assert!(!x.bottom_on_turn);
        assert_eq!(x.dice, Some((5, 2)));
        assert_eq!((x.cube, x.match_length, x.score), (2, 7, [3, 1]));
        // The top player (on roll): bar 1, 12 on its points 13, 8, 6 …
        assert_eq!(x.board.on_roll[24], 1);
        assert_eq!(x.board.on_roll[12], 5); // the bottom's point 12
        assert_eq!(x.board.on_roll[7], 3); // the bottom's 17
        assert_eq!(x.board.on_roll[5], 5); // the bottom's 19
        assert_eq!(x.board.opponent[24], 1);
        assert_eq!(x.board.opponent[23], 1);
        // Written back with the side on roll at the bottom.
        let again = decode(&encode(&x.board, x.dice)).unwrap();
        assert_eq!(again.board, x.board);
        assert!(again.bottom_on_turn);
    }

    #[test]
    fn rejects_bad_text() {
        assert!(matches!(decode("XGID=-b--"), Err(XgidError::FieldCount(1))));
        let field = |i: usize, v: &str| {
            let mut f: Vec<String> = START[5..].split(':').map(String::from).collect();
            f[i] = v.to_string();
            decode(&f.join(":"))
        };
        assert!(matches!(field(0, "-b"), Err(XgidError::PositionLength(2))));
        assert!(matches!(
            field(0, "Ab----E-C---eE---c-e----B-"),
            Err(XgidError::BadCharacter { at: 0, .. })
        ));
        assert!(matches!(
            field(0, "-b----E-C---eE---c-e----Bb"),
            Err(XgidError::BadCharacter { at: 25, .. })
        ));
        assert!(matches!(field(3, "0"), Err(XgidError::BadField { .. })));
        assert!(matches!(field(4, "70"), Err(XgidError::BadField { .. })));
        assert!(matches!(field(4, "B"), Err(XgidError::BadField { .. })));
        assert!(matches!(field(1, "99"), Err(XgidError::BadField { .. })));
        assert!(matches!(field(5, "-3"), Err(XgidError::BadField { .. })));
        // Sixteen checkers for the bottom player.
        assert!(matches!(
            field(0, "-b----F-C---eE---c-e----B-"),
            Err(XgidError::Board(_))
        ));
        assert!(field(4, "D").unwrap().doubled);
    }
}
