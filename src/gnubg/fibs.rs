//! The FIBS board string gnubg's external-player interface sends for each
//! decision it hands over (`board:...`, 53 fields separated by colons):
//!
//! | fields | meaning |
//! | --- | --- |
//! | 0 | `board` |
//! | 1, 2 | two names: the player not on turn first, then the one on turn (the doubler, in a take decision) |
//! | 3 | match length (0: money) |
//! | 4, 5 | their scores, in the names' order |
//! | 6–31 | the board: `board[0]` … `board[25]` |
//! | 32 | turn: 1 player 1 on turn, -1 player 0 |
//! | 33, 34 | the dice (0 0: a cube or take decision) |
//! | 35, 36 | the dice again (FIBS: the opponent's dice) |
//! | 37 | the cube's value |
//! | 38, 39 | may double: player 1, player 0 |
//! | 40 | a double waits for its answer |
//! | 41–44 | colour, direction, home, bar: always `1:-1:0:25` from gnubg (a FIBS server sends its second player `-1:1:25:0`; all four orientations are read) |
//! | 45, 46 | borne off: player 1, player 0 |
//! | 47–50 | zeros |
//! | 51, 52 | post-Crawford, not Crawford |
//!
//! The signs are fixed to gnubg's player numbers: a positive count is
//! player 1's (its point `p` at `board[p]`, its bar at `board[25]`, moving
//! 24 → 1), a negative count player 0's (its point `p` at `board[25 - p]`,
//! its bar at `board[0]`).

use crate::gnubg::position_id::{GnubgBoard, GnubgIdError, SideCounts};

/// Fields in a board string.
pub const FIELDS: usize = 53;

/// The longest board string accepted, in bytes (gnubg's are under 200).
pub const MAX_LEN: usize = 1024;

/// What gnubg asks of the external player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardDecision {
    /// Play this roll (the dice in the order sent).
    Move {
        /// The dice.
        dice: (u8, u8),
    },
    /// Roll or double.
    Cube,
    /// Take or drop the double offered.
    Take,
}

/// One request: who decides, what, and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRequest {
    /// The decision asked for.
    pub decision: BoardDecision,
    /// gnubg's number (0 or 1) of the player deciding: the external player.
    pub player: u8,
    /// gnubg's number of the player on turn (the doubler, for a take).
    pub on_turn: u8,
    /// The board with the player on turn as `on_roll`.
    pub board: GnubgBoard,
    /// The names, in the order sent.
    pub names: [String; 2],
    /// The match length (0: money).
    pub match_length: u32,
    /// The cube's value.
    pub cube: u32,
    /// The scores of the player on turn and of the other.
    pub scores: [u32; 2],
    /// Whether each player (by gnubg's number) may double.
    pub may_double: [bool; 2],
    /// This game is a match's Crawford game.
    pub crawford: bool,
    /// The match's Crawford game has been played.
    pub post_crawford: bool,
}

/// Why a line is not a board string the bridge can answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FibsError {
    /// Longer than [`MAX_LEN`].
    #[error("the board string is longer than {MAX_LEN} bytes")]
    TooLong,
    /// Does not start with `board:`.
    #[error("not a board string: it must start with 'board:'")]
    NotBoard,
    /// Not 53 fields.
    #[error("a board string has {FIELDS} fields, not {0}")]
    FieldCount(usize),
    /// A field that should be a number in range is not.
    #[error("field {index} ({name}) is {value:?}")]
    BadField {
        /// Index of the field.
        index: usize,
        /// What it means.
        name: &'static str,
        /// What it held (cut to 20 characters).
        value: String,
    },
    /// Colour, direction, home and bar other than the four that can be:
    /// colour 1 or -1, direction -1 with home 0 and bar 25 or direction 1
    /// with home 25 and bar 0.
    #[error(
        "colour, direction, home and bar are {0}, not one of 1:-1:0:25, -1:-1:0:25, 1:1:25:0, -1:1:25:0"
    )]
    Orientation(String),
    /// More than 15 checkers for a player.
    #[error("player {0} has more than 15 checkers")]
    TooManyCheckers(u8),
    /// The board is not a backgammon position.
    #[error(transparent)]
    Board(#[from] GnubgIdError),
}

fn field(
    fields: &[&str],
    index: usize,
    name: &'static str,
    lo: i64,
    hi: i64,
) -> Result<i64, FibsError> {
    let raw = fields[index];
    raw.parse::<i64>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(|| FibsError::BadField {
            index,
            name,
            value: raw.chars().take(20).collect(),
        })
}

/// Who wrote a board string: the readings of a few fields differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// gnubg's external-player interface: the names and scores in the
    /// order "not on turn, on turn", the dice of the player on turn in
    /// fields 33 and 34, the doubler on turn in a take decision, field 52
    /// 0 in the Crawford game.
    Gnubg,
    /// A FIBS server (CLIP's `board:` line) or a UBGI draft client: the
    /// names and scores "You" first; "You"'s dice in fields 33 and 34 and
    /// the opponent's in 35 and 36; after a double the turn names the
    /// player who must answer and field 40 says "You" were doubled; match
    /// length 9999 for an unlimited match (read as money play); field 51
    /// 1 once the Crawford game has been played, field 50 3 when the
    /// Crawford rule is off.
    Fibs,
}

/// Parses one board string from gnubg's external-player interface (a
/// trailing line end and NUL are allowed). Never panics.
pub fn parse(line: &str) -> Result<BoardRequest, FibsError> {
    parse_as(line, Flavour::Gnubg)
}

/// Parses one FIBS board line (CLIP's `board:`, as a FIBS server sends
/// it). Never panics.
pub fn parse_fibs(line: &str) -> Result<BoardRequest, FibsError> {
    parse_as(line, Flavour::Fibs)
}

/// Reads colour, direction, home and bar (fields 41 to 44): whether the
/// board is negated, and whether it is mirrored, from gnubg's view.
fn orientation(fields: &[&str]) -> Result<(bool, bool), FibsError> {
    let orientation = fields[41..45].join(":");
    Ok(match orientation.as_str() {
        "1:-1:0:25" => (false, false),
        "-1:-1:0:25" => (true, false),
        "1:1:25:0" => (false, true),
        "-1:1:25:0" => (true, true),
        _ => {
            return Err(FibsError::Orientation(
                orientation.chars().take(40).collect(),
            ));
        }
    })
}

/// Reads the board (fields 6 to 31) as gnubg's player 0's and player 1's
/// checkers, negated and mirrored as the orientation says.
fn board_counts(fields: &[&str], negate: bool, mirror: bool) -> Result<[SideCounts; 2], FibsError> {
    let mut player1: SideCounts = [0; 25];
    let mut player0: SideCounts = [0; 25];
    for at in 0..=25usize {
        let raw = field(fields, 6 + at, "board", -15, 15)?;
        let p = if mirror { 25 - at } else { at };
        let v = if negate { -raw } else { raw };
        let n = v.unsigned_abs() as u8;
        match p {
            0 => player0[24] = n,
            25 => player1[24] = n,
            _ if v > 0 => player1[p - 1] = n,
            _ if v < 0 => player0[24 - p] = n,
            _ => {}
        }
    }
    for (player, side) in [(0u8, &player0), (1, &player1)] {
        if side.iter().map(|&n| u32::from(n)).sum::<u32>() > 15 {
            return Err(FibsError::TooManyCheckers(player));
        }
    }
    Ok([player0, player1])
}

/// Checks the cube's fields and the flags (fields 37 to 52): the cube's
/// value.
fn cube_and_flags(fields: &[&str]) -> Result<u32, FibsError> {
    let cube = field(fields, 37, "cube", 1, 1 << 12)? as u32;
    for (i, name) in [(38, "may double"), (39, "may double"), (40, "doubled")] {
        field(fields, i, name, 0, 1)?;
    }
    for i in 45..=46 {
        field(fields, i, "borne off", 0, 15)?;
    }
    for i in 47..FIELDS {
        field(fields, i, "flag", -1, 64)?;
    }
    Ok(cube)
}

/// Whether this is the Crawford game, and whether it is after it, in a
/// match to `match_length` at `scores` (fields 4 and 5).
fn crawford(fields: &[&str], fibs: bool, match_length: u32, scores: [u32; 2]) -> (bool, bool) {
    let post_crawford = match_length > 0 && fields[51] == "1";
    let crawford = if fibs {
        // FIBS does not mark the Crawford game; it is the game where one
        // player is 1-away and the Crawford game has not been played.
        let away = |s: u32| match_length.saturating_sub(s);
        match_length > 0
            && fields[50] != "3"
            && !post_crawford
            && ((away(scores[0]) == 1) != (away(scores[1]) == 1))
    } else {
        match_length > 0 && fields[52] == "0"
    };
    (crawford, post_crawford)
}

/// Parses one board string written as `flavour` writes it.
pub fn parse_as(line: &str, flavour: Flavour) -> Result<BoardRequest, FibsError> {
    if line.len() > MAX_LEN {
        return Err(FibsError::TooLong);
    }
    let line = line.trim_end_matches(['\0', '\n', '\r']);
    let body = line.strip_prefix("board:").ok_or(FibsError::NotBoard)?;
    let mut fields: Vec<&str> = vec!["board"];
    fields.extend(body.split(':'));
    if fields.len() != FIELDS {
        return Err(FibsError::FieldCount(fields.len()));
    }
    // Colour, direction, home and bar. gnubg always sends `1:-1:0:25`: the
    // player called "You" has the positive checkers and moves 24 -> 1. A
    // FIBS server sends the second player of a match `-1:1:25:0`: its
    // checkers negative, moving 1 -> 24. Any of the four is read as gnubg's,
    // the board negated for colour -1 and mirrored for direction 1 (the
    // turn, which names a colour, negated with it); the other fields are
    // the same from either view.
    let (negate, mirror) = orientation(&fields)?;
    let fibs = flavour == Flavour::Fibs;
    let match_length = match field(&fields, 3, "match length", 0, 9999)? {
        9999 if fibs => 0,
        n if n <= 64 => n as u32,
        n => {
            return Err(FibsError::BadField {
                index: 3,
                name: "match length",
                value: n.to_string(),
            });
        }
    };
    // A money session's scores add up without limit.
    let score4 = field(&fields, 4, "score", 0, i64::from(i32::MAX))? as u32;
    let score5 = field(&fields, 5, "score", 0, i64::from(i32::MAX))? as u32;
    let [player0, player1] = board_counts(&fields, negate, mirror)?;
    let turn = field(&fields, 32, "turn", -1, 1)?;
    let on_turn = match if negate { -turn } else { turn } {
        1 => 1u8,
        -1 => 0,
        _ => {
            return Err(FibsError::BadField {
                index: 32,
                name: "turn",
                value: "0".into(),
            });
        }
    };
    let mut dice = [0u8; 4];
    for (i, d) in dice.iter_mut().enumerate() {
        *d = field(&fields, 33 + i, "die", 0, 6)? as u8;
    }
    // FIBS writes the opponent's dice in fields 35 and 36.
    let (d1, d2) = if fibs && on_turn == 0 {
        (dice[2], dice[3])
    } else {
        (dice[0], dice[1])
    };
    let cube = cube_and_flags(&fields)?;
    let doubled = fields[40] == "1";
    let may_double = [fields[39] == "1", fields[38] == "1"];
    let (crawford, post_crawford) = crawford(&fields, fibs, match_length, [score4, score5]);
    // After a double FIBS names the player who must answer as on turn,
    // and field 40 says that "You" were doubled: the doubler is player 0.
    let on_turn = if fibs && doubled { 0 } else { on_turn };
    let decision = match (d1, d2) {
        _ if fibs && doubled => BoardDecision::Take,
        (0, 0) if doubled => BoardDecision::Take,
        (0, 0) => BoardDecision::Cube,
        (a, b) if a > 0 && b > 0 => BoardDecision::Move { dice: (a, b) },
        _ => {
            return Err(FibsError::BadField {
                index: 34,
                name: "die",
                value: format!("{d1} and {d2}"),
            });
        }
    };
    let player = if decision == BoardDecision::Take {
        1 - on_turn
    } else {
        on_turn
    };
    let board = if on_turn == 1 {
        GnubgBoard {
            on_roll: player1,
            opponent: player0,
        }
    } else {
        GnubgBoard {
            on_roll: player0,
            opponent: player1,
        }
    };
    board.validate()?;
    // The scores of the player on turn and of the other. gnubg writes
    // "not on turn" first, FIBS "You" (player 1).
    let scores = if fibs && on_turn == 1 {
        [score4, score5]
    } else {
        [score5, score4]
    };
    Ok(BoardRequest {
        decision,
        player,
        on_turn,
        board,
        names: [fields[1].to_string(), fields[2].to_string()],
        match_length,
        cube,
        scores,
        may_double,
        crawford,
        post_crawford,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side at the start: 2 on 24, 5 on 13, 3 on 8, 5 on 6.
    fn start_side() -> SideCounts {
        crate::gnubg::board_of(crate::rules::hitting::START).on_roll
    }

    /// The example of the FIBS client protocol documentation: "You" (the
    /// positive checkers, moving 24 → 1) to play 6-2 from the start of a
    /// 3-point match.
    #[test]
    fn the_fibs_documentation_example() {
        let line = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0";
        let r = parse(line).unwrap();
        assert_eq!(r.decision, BoardDecision::Move { dice: (6, 2) });
        assert_eq!((r.player, r.on_turn, r.match_length, r.cube), (1, 1, 3, 1));
        assert_eq!(r.board.on_roll, start_side());
        assert_eq!(r.board.opponent, start_side());
        assert_eq!(r.names, ["You".to_string(), "someplayer".to_string()]);
    }

    /// Take decisions gnubg sent in a 5-point match with the cube on: the
    /// score, the cube and who may double are read from the board.
    #[test]
    fn cube_fields_of_take_decisions() {
        // gnubg (player 0, on turn) redoubles to 4 at 0-0; it owns the cube.
        let r = parse("board:root:gnubg:5:0:0:0:3:0:-1:2:3:2:2:2:0:0:0:0:0:-1:0:0:0:0:-2:-3:-2:-2:-2:-2:1:-1:0:0:0:0:2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1").unwrap();
        assert_eq!(r.decision, BoardDecision::Take);
        assert_eq!((r.player, r.on_turn, r.match_length, r.cube), (1, 0, 5, 2));
        assert_eq!(r.may_double, [true, false]);
        assert_eq!(r.scores, [0, 0]);
        assert!(!r.crawford && !r.post_crawford);
        // gnubg doubles from the centre, ahead 2-0 (the scores: the player
        // on turn's first).
        let r = parse("board:root:gnubg:5:0:2:0:-2:0:2:0:0:5:2:3:1:0:0:-2:0:0:-1:0:-2:-1:-3:-2:-2:0:1:0:1:-1:0:0:0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1").unwrap();
        assert_eq!((r.decision, r.cube), (BoardDecision::Take, 1));
        assert_eq!(r.may_double, [true, true]);
        assert_eq!(r.scores, [2, 0]);
    }

    /// Lines gnubg 1.07 sent (with the LF and NUL it sends after them).
    #[test]
    fn lines_gnubg_sent() {
        // Player 1 to play 2-1 from the start.
        let r = parse("board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:2:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1\n\0").unwrap();
        assert_eq!(r.decision, BoardDecision::Move { dice: (2, 1) });
        assert_eq!(r.player, 1);
        assert_eq!(r.board.on_roll, start_side());
        // Player 0 to decide on its cube (the dice 0 0, nothing pending):
        // its checkers are the negative ones, its point p at board[25 - p].
        let r = parse("board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:1:-5:4:0:0:0:-3:0:-5:0:0:0:1:1:0:-1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1").unwrap();
        assert_eq!(r.decision, BoardDecision::Cube);
        assert_eq!((r.player, r.on_turn), (0, 0));
        assert_eq!(r.board.on_roll, start_side());
        let mut opp = start_side();
        opp[12] = 4;
        opp[10] = 1;
        opp[22] = 1;
        opp[23] = 1;
        assert_eq!(r.board.opponent, opp);
        // Player 1 doubled, player 0 decides: the doubler's name first.
        let r = parse("board:root:gnubg:0:0:0:0:-2:0:0:0:3:4:0:2:0:0:1:-5:4:0:0:0:-3:0:-5:0:0:0:0:1:0:1:0:0:0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1").unwrap();
        assert_eq!(r.decision, BoardDecision::Take);
        assert_eq!((r.player, r.on_turn), (0, 1));
        assert_eq!(r.board.on_roll[4], 3); // player 1's 5 point
    }

    /// The same board from the four orientations a FIBS board can have
    /// (the second player of a FIBS match gets `-1:1:25:0`) reads the same.
    #[test]
    fn every_orientation_reads_as_gnubgs() {
        let lines = [
            "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
            "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:1:-5:4:0:0:0:-3:0:-5:0:0:0:1:1:0:-1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
            "board:a:b:0:0:0:-1:0:0:0:0:0:-5:0:-3:0:0:0:-5:0:0:0:0:0:0:1:0:0:0:0:0:1:-1:6:5:6:5:1:1:1:0:1:-1:0:25:13:0:0:0:0:0:0:1",
        ];
        for line in lines {
            let want = parse(line).unwrap();
            let f: Vec<&str> = line.split(':').collect();
            for (negate, mirror, orientation) in [
                (true, false, "-1:-1:0:25"),
                (false, true, "1:1:25:0"),
                (true, true, "-1:1:25:0"),
            ] {
                let mut g: Vec<String> = f.iter().map(|x| x.to_string()).collect();
                for at in 0..=25usize {
                    let from = if mirror { 25 - at } else { at };
                    let v: i64 = f[6 + from].parse().unwrap();
                    g[6 + at] = (if negate { -v } else { v }).to_string();
                }
                let turn: i64 = f[32].parse().unwrap();
                g[32] = (if negate { -turn } else { turn }).to_string();
                for (k, part) in orientation.split(':').enumerate() {
                    g[41 + k] = part.to_string();
                }
                assert_eq!(parse(&g.join(":")).unwrap(), want, "{orientation}: {line}");
            }
        }
        // Home and bar must go with the direction.
        let mut g: Vec<&str> = lines[0].split(':').collect();
        g[43] = "25";
        g[44] = "0";
        assert!(matches!(
            parse(&g.join(":")),
            Err(FibsError::Orientation(_))
        ));
    }

    #[test]
    fn bars_and_borne_off() {
        // Player 0 on turn with 6-5: one checker on its bar, player 1 one
        // on its bar and 13 borne off.
        let mut f: Vec<String> = "board:a:b:0:0:0:-1:0:0:0:0:0:-5:0:-3:0:0:0:-5:0:0:0:0:0:0:1:0:0:0:0:0:1:-1:6:5:6:5:1:1:1:0:1:-1:0:25:13:0:0:0:0:0:0:1"
            .split(':')
            .map(String::from)
            .collect();
        let r = parse(&f.join(":")).unwrap();
        assert_eq!(r.decision, BoardDecision::Move { dice: (6, 5) });
        assert_eq!(r.player, 0);
        assert_eq!(r.board.on_roll[24], 1); // player 0's bar
        assert_eq!(r.board.on_roll[18], 5); // board[6]: its point 19
        assert_eq!(r.board.on_roll[16], 3); // board[8]: its point 17
        assert_eq!(r.board.opponent[24], 1); // player 1's bar
        assert_eq!(r.board.opponent[18], 1); // board[19]: player 1's 19
        f[32] = "0".into();
        assert!(matches!(
            parse(&f.join(":")),
            Err(FibsError::BadField { index: 32, .. })
        ));
    }

    #[test]
    fn rejects_bad_lines() {
        let good = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0";
        let with = |i: usize, v: &str| {
            let mut f: Vec<&str> = good.split(':').collect();
            f[i] = v;
            parse(&f.join(":"))
        };
        assert_eq!(parse("hello"), Err(FibsError::NotBoard));
        assert_eq!(parse("board:1:2"), Err(FibsError::FieldCount(3)));
        assert!(matches!(
            parse(&"board:".repeat(300)),
            Err(FibsError::TooLong)
        ));
        assert!(matches!(
            with(7, "x"),
            Err(FibsError::BadField { index: 7, .. })
        ));
        assert!(matches!(with(7, "-16"), Err(FibsError::BadField { .. })));
        assert!(matches!(with(33, "7"), Err(FibsError::BadField { .. })));
        assert!(matches!(
            with(34, "0"),
            Err(FibsError::BadField { index: 34, .. })
        ));
        assert!(matches!(with(42, "1"), Err(FibsError::Orientation(_))));
        assert!(matches!(with(12, "6"), Err(FibsError::TooManyCheckers(1))));
    }
}
