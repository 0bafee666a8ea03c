//! gnubg Match IDs: the 12-character companion of a Position ID.
//!
//! A Match ID is 12 characters of base64 carrying a 9-byte key, written
//! three bytes at a time in the usual big-endian way. The key is a bit
//! string filled from bit 0 of byte 0 upwards (as the Position ID's is);
//! its fields, by first bit and width, are those of gnubg 1.07:
//!
//! | bit | width | field |
//! | --- | --- | --- |
//! | 0 | 4 | log2 of the cube value |
//! | 4 | 2 | cube owner: 0 or 1 a player, 3 centred |
//! | 6 | 1 | the player on roll (`fMove`) |
//! | 7 | 1 | the Crawford game |
//! | 8 | 3 | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped |
//! | 11 | 1 | the player who decides now (`fTurn`) |
//! | 12 | 1 | a double is offered |
//! | 13 | 2 | a resignation is offered (1, 2 or 3 points) |
//! | 15 | 3 | the larger die (0: not rolled) |
//! | 18 | 3 | the smaller die |
//! | 21 | 15 | the match length (0: money) |
//! | 36 | 15 | player 0's score |
//! | 51 | 15 | player 1's score |
//! | 66 | 1 | the Jacoby rule is off |
//!
//! The Position ID that goes with it is seen from the player on roll.

/// Length of a Match ID in characters.
pub const MATCH_ID_LEN: usize = 12;

/// Bytes in the match key.
const KEY_BYTES: usize = 9;

/// The longest match gnubg plays (`MAXSCORE`).
pub const MAX_SCORE: u32 = 64;

/// The state of a game a Match ID describes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameStatus {
    /// No game started.
    None,
    /// Being played.
    Playing,
    /// Over.
    Over,
    /// Ended by a resignation.
    Resigned,
    /// Ended by a dropped double.
    Dropped,
}

/// Everything a Match ID says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MatchInfo {
    /// The cube's value (1, 2, 4, …).
    pub cube: u32,
    /// Who owns the cube: `None` when it is centred.
    pub cube_owner: Option<u8>,
    /// The player on roll (0 or 1): the Position ID is seen from this side.
    pub on_roll: u8,
    /// Whether this is the Crawford game.
    pub crawford: bool,
    /// The game's state.
    pub status: GameStatus,
    /// The player who decides now (differs from `on_roll` while a double
    /// or a resignation waits for an answer).
    pub deciding: u8,
    /// A double is offered.
    pub doubled: bool,
    /// A resignation of this many points is offered (0: none).
    pub resigned: u8,
    /// The dice rolled, the larger first; `None` before the roll.
    pub dice: Option<(u8, u8)>,
    /// The match length; 0 for money play.
    pub match_length: u32,
    /// Player 0's and player 1's scores.
    pub score: [u32; 2],
    /// Whether the Jacoby rule is in force.
    pub jacoby: bool,
}

impl Default for MatchInfo {
    /// A money game being played, cube centred at 1, player 1 on roll
    /// before the roll, Jacoby off.
    fn default() -> Self {
        MatchInfo {
            cube: 1,
            cube_owner: None,
            on_roll: 1,
            crawford: false,
            status: GameStatus::Playing,
            deciding: 1,
            doubled: false,
            resigned: 0,
            dice: None,
            match_length: 0,
            score: [0, 0],
            jacoby: false,
        }
    }
}

/// Why a string is not a Match ID gnubg would accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchIdError {
    /// Not 12 characters (the length in bytes is given).
    #[error("a Match ID has 12 characters, not {0} bytes")]
    WrongLength(usize),
    /// A byte outside the base64 alphabet, at this byte offset.
    #[error("byte {byte:#04x} at offset {at} is not a base64 character")]
    BadCharacter {
        /// The offending byte.
        byte: u8,
        /// Its offset.
        at: usize,
    },
    /// A die of 7.
    #[error("a die of 7")]
    BadDie,
    /// Only one die rolled.
    #[error("one die rolled and the other not")]
    HalfRolled,
    /// A game state above 4.
    #[error("game state {0} is not one gnubg writes")]
    BadStatus(u8),
    /// The cube value is out of range.
    #[error("a cube of 2^{0} is beyond gnubg's cube")]
    BadCube(u8),
    /// A match longer than gnubg plays, or a score beyond the match length.
    #[error("match to {length} with score {score0}-{score1} is not one gnubg plays")]
    BadScore {
        /// The match length.
        length: u32,
        /// Player 0's score.
        score0: u32,
        /// Player 1's score.
        score1: u32,
    },
    /// A Crawford game in money play.
    #[error("a Crawford game in money play")]
    CrawfordMoney,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn sextet(c: u8) -> Option<u8> {
    ALPHABET.iter().position(|&a| a == c).map(|i| i as u8)
}

fn get_bits(key: &[u8; KEY_BYTES], at: usize, width: usize) -> u32 {
    (0..width).fold(0, |acc, i| {
        let b = at + i;
        acc | (u32::from(key[b / 8] >> (b % 8) & 1) << i)
    })
}

fn set_bits(key: &mut [u8; KEY_BYTES], at: usize, width: usize, value: u32) {
    for i in 0..width {
        if value >> i & 1 == 1 {
            let b = at + i;
            key[b / 8] |= 1 << (b % 8);
        }
    }
}

/// Decodes a Match ID. Rejects what gnubg rejects (dice of 7, a score
/// beyond the match, a Crawford money game) and a half-rolled pair.
pub fn decode(id: &str) -> Result<MatchInfo, MatchIdError> {
    let bytes = id.as_bytes();
    if bytes.len() != MATCH_ID_LEN {
        return Err(MatchIdError::WrongLength(bytes.len()));
    }
    let mut key = [0u8; KEY_BYTES];
    for (group, chunk) in bytes.chunks(4).enumerate() {
        let mut acc: u32 = 0;
        for (i, &c) in chunk.iter().enumerate() {
            let v = sextet(c).ok_or(MatchIdError::BadCharacter {
                byte: c,
                at: group * 4 + i,
            })?;
            acc = acc << 6 | u32::from(v);
        }
        key[group * 3] = (acc >> 16) as u8;
        key[group * 3 + 1] = (acc >> 8) as u8;
        key[group * 3 + 2] = acc as u8;
    }
    let log_cube = get_bits(&key, 0, 4) as u8;
    // gnubg's cube stops at 2^12 (`MAX_CUBE` 4096).
    if log_cube > 12 {
        return Err(MatchIdError::BadCube(log_cube));
    }
    let owner = get_bits(&key, 4, 2) as u8;
    let status = match get_bits(&key, 8, 3) {
        0 => GameStatus::None,
        1 => GameStatus::Playing,
        2 => GameStatus::Over,
        3 => GameStatus::Resigned,
        4 => GameStatus::Dropped,
        s => return Err(MatchIdError::BadStatus(s as u8)),
    };
    let d1 = get_bits(&key, 15, 3) as u8;
    let d2 = get_bits(&key, 18, 3) as u8;
    if d1 > 6 || d2 > 6 {
        return Err(MatchIdError::BadDie);
    }
    if (d1 == 0) != (d2 == 0) {
        return Err(MatchIdError::HalfRolled);
    }
    let match_length = get_bits(&key, 21, 15);
    let score = [get_bits(&key, 36, 15), get_bits(&key, 51, 15)];
    let crawford = get_bits(&key, 7, 1) == 1;
    if match_length > MAX_SCORE || (match_length > 0 && score.iter().any(|&s| s > match_length)) {
        return Err(MatchIdError::BadScore {
            length: match_length,
            score0: score[0],
            score1: score[1],
        });
    }
    if match_length == 0 && crawford {
        return Err(MatchIdError::CrawfordMoney);
    }
    Ok(MatchInfo {
        cube: 1 << log_cube,
        cube_owner: (owner < 2).then_some(owner),
        on_roll: get_bits(&key, 6, 1) as u8,
        crawford,
        status,
        deciding: get_bits(&key, 11, 1) as u8,
        doubled: get_bits(&key, 12, 1) == 1,
        resigned: get_bits(&key, 13, 2) as u8,
        dice: (d1 > 0).then(|| (d1.max(d2), d1.min(d2))),
        match_length,
        score,
        jacoby: get_bits(&key, 66, 1) == 0,
    })
}

/// Encodes a Match ID as gnubg 1.07 writes it (the larger die first).
pub fn encode(m: &MatchInfo) -> String {
    let mut key = [0u8; KEY_BYTES];
    let log_cube = m.cube.max(1).next_power_of_two().trailing_zeros();
    set_bits(&mut key, 0, 4, log_cube);
    set_bits(&mut key, 4, 2, m.cube_owner.map_or(3, u32::from));
    set_bits(&mut key, 6, 1, u32::from(m.on_roll & 1));
    set_bits(&mut key, 7, 1, u32::from(m.crawford));
    let status = match m.status {
        GameStatus::None => 0,
        GameStatus::Playing => 1,
        GameStatus::Over => 2,
        GameStatus::Resigned => 3,
        GameStatus::Dropped => 4,
    };
    set_bits(&mut key, 8, 3, status);
    set_bits(&mut key, 11, 1, u32::from(m.deciding & 1));
    set_bits(&mut key, 12, 1, u32::from(m.doubled));
    set_bits(&mut key, 13, 2, u32::from(m.resigned & 3));
    let (hi, lo) = m.dice.map_or((0, 0), |(a, b)| (a.max(b), a.min(b)));
    set_bits(&mut key, 15, 3, u32::from(hi & 7));
    set_bits(&mut key, 18, 3, u32::from(lo & 7));
    set_bits(&mut key, 21, 15, m.match_length & 0x7FFF);
    set_bits(&mut key, 36, 15, m.score[0] & 0x7FFF);
    set_bits(&mut key, 51, 15, m.score[1] & 0x7FFF);
    set_bits(&mut key, 66, 1, u32::from(!m.jacoby));
    let mut out = String::with_capacity(MATCH_ID_LEN);
    for group in key.chunks(3) {
        let acc = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        for shift in [18, 12, 6, 0] {
            out.push(char::from(ALPHABET[(acc >> shift & 0x3F) as usize]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// IDs gnubg 1.07 printed in a money session (`show board`) with the
    /// Jacoby rule off, and what its board showed beside them.
    #[test]
    fn ids_gnubg_printed() {
        // Player 0 on roll with 3 and 6, cube centred, both scores 0.
        let m = decode("MAEPAAAAAAAE").unwrap();
        assert_eq!(m.on_roll, 0);
        assert_eq!(m.dice, Some((6, 3)));
        assert_eq!(m.status, GameStatus::Playing);
        assert_eq!(m.match_length, 0);
        assert!(!m.jacoby);
        assert_eq!(encode(&m), "MAEPAAAAAAAE");
        // After player 0 took a double: the cube at 2 on its side, player
        // 1 on roll with 5 and 3, the score 0 to 6.
        let m = decode("QYkOAAAAMAAE").unwrap();
        assert_eq!((m.cube, m.cube_owner), (2, Some(0)));
        assert!(!m.doubled);
        assert_eq!((m.on_roll, m.deciding), (1, 1));
        assert_eq!(m.dice, Some((5, 3)));
        assert_eq!(m.score, [0, 6]);
        assert_eq!(encode(&m), "QYkOAAAAMAAE");
    }

    #[test]
    fn round_trips_every_field() {
        let m = MatchInfo {
            cube: 8,
            cube_owner: Some(0),
            on_roll: 1,
            crawford: true,
            status: GameStatus::Playing,
            deciding: 0,
            doubled: false,
            resigned: 2,
            dice: Some((5, 2)),
            match_length: 7,
            score: [6, 3],
            jacoby: true,
        };
        assert_eq!(decode(&encode(&m)).unwrap(), m);
        assert_eq!(encode(&MatchInfo::default()).len(), MATCH_ID_LEN);
    }

    #[test]
    fn rejects_what_gnubg_rejects() {
        assert_eq!(decode("MAEP"), Err(MatchIdError::WrongLength(4)));
        assert!(matches!(
            decode("MAEPAAAAAA!E"),
            Err(MatchIdError::BadCharacter { at: 10, .. })
        ));
        let mut m = MatchInfo {
            match_length: 3,
            score: [4, 0],
            ..MatchInfo::default()
        };
        assert!(matches!(
            decode(&encode(&m)),
            Err(MatchIdError::BadScore { .. })
        ));
        m.match_length = 0;
        m.score = [0, 0];
        m.crawford = true;
        assert_eq!(decode(&encode(&m)), Err(MatchIdError::CrawfordMoney));
    }
}
