//! GNU Backgammon Position IDs.
//!
//! A Position ID is 14 characters of base64 (the standard alphabet
//! `A–Z a–z 0–9 + /`, no padding) carrying the 10 bytes of gnubg's position
//! key. The key is a bit string, filled from bit 0 of byte 0 upwards (bit `i`
//! is bit `i % 8` of byte `i / 8`): first the side NOT on roll, then the
//! side on roll, each as 25 entries (points 1..=24 in that side's own numbering,
//! then its bar), an entry of `n` checkers written as `n` one bits followed
//! by a zero bit. Borne-off checkers are not written; the bits after the
//! fiftieth zero are zero. The 10 bytes are then written as base64 in the
//! usual big-endian way, so the fourteenth character holds the last byte's
//! two low bits in its top two bits and four zero bits.
//!
//! The opponent of the side on roll comes first (gnubg's `anBoard[0]`; the
//! side on roll is `anBoard[1]`): checked against gnubg 1.07, where a board
//! with only the side on roll's checker on its point 1 has the ID
//! `AAAAAgAAAAAAAA` (bit 25 set) and only the opponent's, `AQAAAAAAAAAAAA`.
//!
//! A side's point `p` is the other side's point `25 - p`.

/// Checker counts of one side in its own numbering: index 0..=23 are points
/// 1..=24, index 24 the bar.
pub type SideCounts = [u8; 25];

/// Checkers per side in backgammon.
const CHECKERS: u32 = 15;

/// Length of a Position ID in characters.
pub const ID_LEN: usize = 14;

/// Bytes in the position key.
const KEY_BYTES: usize = 10;

/// The position a Position ID describes: each side's checkers in its own
/// numbering. Checkers not listed are borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GnubgBoard {
    /// The side to move.
    pub on_roll: SideCounts,
    /// The other side.
    pub opponent: SideCounts,
}

/// Why a string is not a valid Position ID, or a board not a valid position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GnubgIdError {
    /// The ID is not 14 characters long (the length in bytes is given).
    #[error("a Position ID has 14 characters, not {0} bytes")]
    WrongLength(usize),
    /// A byte outside the base64 alphabet, at this byte offset.
    #[error("byte {byte:#04x} at offset {at} is not a base64 character")]
    BadCharacter {
        /// The offending byte.
        byte: u8,
        /// Its offset in the string.
        at: usize,
    },
    /// The last character has some of its four unused low bits set.
    #[error("the last character carries bits past the 80-bit key")]
    BadPadding,
    /// The key ends before the 50 entries are complete.
    #[error("the key ends before all 50 points and bars are given")]
    Truncated,
    /// One bits follow the fiftieth entry.
    #[error("set bits after the last point")]
    TrailingBits,
    /// A side has more than 15 checkers on the board and bar.
    #[error("the {side} has {count} checkers (15 at most)")]
    TooManyCheckers {
        /// `"side on roll"` or `"opponent"`.
        side: &'static str,
        /// Its checkers on the points and the bar.
        count: u32,
    },
    /// Both sides have checkers on one point (in the side on roll's
    /// numbering).
    #[error("both sides have checkers on point {0} (side on roll's numbering)")]
    SharedPoint(u8),
    /// Both sides are on the bar with the other's home board closed.
    #[error("both sides are on the bar against closed boards")]
    BothClosedOut,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 character.
fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

impl GnubgBoard {
    /// Checks what gnubg checks of a position: at most 15 checkers a side,
    /// no point held by both sides, and not both sides on the bar against
    /// closed home boards.
    pub fn validate(&self) -> Result<(), GnubgIdError> {
        for (side, counts) in [
            ("side on roll", &self.on_roll),
            ("opponent", &self.opponent),
        ] {
            let count: u32 = counts.iter().map(|&n| u32::from(n)).sum();
            if count > CHECKERS {
                return Err(GnubgIdError::TooManyCheckers { side, count });
            }
        }
        for i in 0..24 {
            if self.on_roll[i] > 0 && self.opponent[23 - i] > 0 {
                return Err(GnubgIdError::SharedPoint(i as u8 + 1));
            }
        }
        let closed = |c: &SideCounts| c[..6].iter().all(|&n| n >= 2);
        if self.on_roll[24] > 0
            && self.opponent[24] > 0
            && closed(&self.on_roll)
            && closed(&self.opponent)
        {
            return Err(GnubgIdError::BothClosedOut);
        }
        Ok(())
    }

    /// The same position with the other side on roll.
    pub fn swapped(&self) -> GnubgBoard {
        GnubgBoard {
            on_roll: self.opponent,
            opponent: self.on_roll,
        }
    }
}

/// Decodes a Position ID (the opponent's half first, then the side on roll's). Never panics; rejects
/// anything gnubg would not produce, including positions that fail
/// [`GnubgBoard::validate`].
pub fn decode(id: &str) -> Result<GnubgBoard, GnubgIdError> {
    let bytes = id.as_bytes();
    if bytes.len() != ID_LEN {
        return Err(GnubgIdError::WrongLength(bytes.len()));
    }
    let mut vals = [0u8; ID_LEN];
    for (at, (&byte, v)) in bytes.iter().zip(vals.iter_mut()).enumerate() {
        *v = sextet(byte).ok_or(GnubgIdError::BadCharacter { byte, at })?;
    }
    if vals[ID_LEN - 1] & 0x0F != 0 {
        return Err(GnubgIdError::BadPadding);
    }
    // 84 bits of base64, big-endian; the first 80 are the key's bytes.
    let mut key = [0u8; KEY_BYTES];
    let mut acc: u32 = 0;
    let mut nbits = 0;
    let mut k = 0;
    for &v in &vals {
        acc = (acc << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 && k < KEY_BYTES {
            nbits -= 8;
            key[k] = (acc >> nbits) as u8;
            acc &= (1 << nbits) - 1;
            k += 1;
        }
    }

    let bit = |i: usize| key[i / 8] >> (i % 8) & 1 == 1;
    let mut board = GnubgBoard::default();
    let mut i = 0;
    for side in [&mut board.opponent, &mut board.on_roll] {
        for entry in side.iter_mut() {
            let mut n: u8 = 0;
            loop {
                if i >= KEY_BYTES * 8 {
                    return Err(GnubgIdError::Truncated);
                }
                let one = bit(i);
                i += 1;
                if !one {
                    break;
                }
                // At most 80 one bits in all: no overflow.
                n += 1;
            }
            *entry = n;
        }
    }
    if (i..KEY_BYTES * 8).any(bit) {
        return Err(GnubgIdError::TrailingBits);
    }
    board.validate()?;
    Ok(board)
}

/// Encodes a board as a Position ID (the opponent's half first).
///
/// A board that passes [`GnubgBoard::validate`] round-trips through
/// [`decode`]. A board with over 15 checkers on a side does not fit the 80
/// bits: the key is cut at 80 bits (no panic) and the ID does not describe
/// the board.
pub fn encode(board: &GnubgBoard) -> String {
    let mut key = [0u8; KEY_BYTES];
    let mut i = 0usize;
    let mut set = |i: usize| {
        if let Some(b) = key.get_mut(i / 8) {
            *b |= 1 << (i % 8);
        }
    };
    for side in [&board.opponent, &board.on_roll] {
        for &n in side.iter() {
            for _ in 0..n {
                set(i);
                i += 1;
            }
            i += 1;
        }
    }
    let mut out = String::with_capacity(ID_LEN);
    let mut acc: u32 = 0;
    let mut nbits = 0;
    for &b in &key {
        acc = (acc << 8) | u32::from(b);
        nbits += 8;
        while nbits >= 6 {
            nbits -= 6;
            out.push(char::from(ALPHABET[((acc >> nbits) & 0x3F) as usize]));
        }
        acc &= (1 << nbits) - 1;
    }
    // 80 = 13 * 6 + 2: two bits left, padded with four zeros.
    out.push(char::from(ALPHABET[((acc << (6 - nbits)) & 0x3F) as usize]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_side() -> SideCounts {
        let mut s = [0u8; 25];
        s[5] = 5; // 6-point
        s[7] = 3; // 8-point
        s[12] = 5; // mid-point
        s[23] = 2; // 24-point
        s
    }

    /// Builds a side from (point, count) pairs; point 25 is the bar.
    fn side(points: &[(usize, u8)]) -> SideCounts {
        let mut s = [0u8; 25];
        for &(p, n) in points {
            s[p - 1] = n;
        }
        s
    }

    #[test]
    fn start_position() {
        let start = GnubgBoard {
            on_roll: start_side(),
            opponent: start_side(),
        };
        assert_eq!(encode(&start), "4HPwATDgc/ABMA");
        assert_eq!(decode("4HPwATDgc/ABMA"), Ok(start));
    }

    /// IDs that gnubg 1.07 printed (`positionid()`) after `set board simple`
    /// with these boards.
    #[test]
    fn ids_from_gnubg() {
        let cases: [(&str, GnubgBoard); 5] = [
            // `set board simple 0 1 0 ...`: the side on roll's checker on its
            // point 1, the opponent all off.
            (
                "AAAAAgAAAAAAAA",
                GnubgBoard {
                    on_roll: side(&[(1, 1)]),
                    opponent: [0; 25],
                },
            ),
            // The opponent's checker on its point 1 (simple board: -1 at 24).
            (
                "AQAAAAAAAAAAAA",
                GnubgBoard {
                    on_roll: [0; 25],
                    opponent: side(&[(1, 1)]),
                },
            ),
            // The side on roll on the bar, the opponent on its points 2 to 4.
            (
                "dgEAAAAAgAAAAA",
                GnubgBoard {
                    on_roll: side(&[(25, 1)]),
                    opponent: side(&[(2, 2), (3, 3), (4, 1)]),
                },
            ),
            // A contact position, then the same with three opponent
            // checkers on its bar.
            (
                "9uEDAAB8jjwgBA",
                GnubgBoard {
                    on_roll: side(&[(6, 5), (8, 3), (11, 1), (13, 4), (20, 1), (24, 1)]),
                    opponent: side(&[(2, 2), (3, 5), (7, 5)]),
                },
            ),
            (
                "9uEDAHDgc+QBIQ",
                GnubgBoard {
                    on_roll: side(&[(6, 5), (8, 3), (11, 1), (13, 4), (20, 1), (24, 1)]),
                    opponent: side(&[(2, 2), (3, 5), (7, 5), (25, 3)]),
                },
            ),
        ];
        for (id, board) in cases {
            assert_eq!(decode(id), Ok(board), "{id}");
            assert_eq!(encode(&board), id);
        }
    }

    #[test]
    fn round_trips() {
        // A small deterministic generator: no dependency on rand's streams.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let mut b = GnubgBoard::default();
            for who in 0..2 {
                let left = next() % 16;
                for _ in 0..left {
                    let idx = (next() % 25) as usize;
                    let ok = idx == 24
                        || match who {
                            0 => b.opponent[23 - idx] == 0,
                            _ => b.on_roll[23 - idx] == 0,
                        };
                    if ok {
                        if who == 0 {
                            b.on_roll[idx] += 1;
                        } else {
                            b.opponent[idx] += 1;
                        }
                    }
                }
            }
            if b.validate().is_err() {
                continue;
            }
            let id = encode(&b);
            assert_eq!(id.len(), ID_LEN);
            assert_eq!(decode(&id), Ok(b), "{id}");
        }
    }

    #[test]
    fn bad_inputs() {
        assert_eq!(decode(""), Err(GnubgIdError::WrongLength(0)));
        assert_eq!(
            decode("4HPwATDgc/ABMAA"),
            Err(GnubgIdError::WrongLength(15))
        );
        assert_eq!(decode("4HPwATDgc/ABM"), Err(GnubgIdError::WrongLength(13)));
        // Multi-byte UTF-8: the length is counted in bytes.
        assert_eq!(
            decode("4HPwATDgc/ABé"),
            Err(GnubgIdError::BadCharacter { byte: 0xC3, at: 12 })
        );
        assert!(matches!(
            decode("4HPwATDgc/ABMé"),
            Err(GnubgIdError::WrongLength(15))
        ));
        assert_eq!(
            decode("4HPwATDgc/AB=A"),
            Err(GnubgIdError::BadCharacter { byte: b'=', at: 12 })
        );
        assert_eq!(
            decode("4HPwA-Dgc/ABMA"),
            Err(GnubgIdError::BadCharacter { byte: b'-', at: 5 })
        );
        // Low bits of the last character set.
        assert_eq!(decode("4HPwATDgc/ABMB"), Err(GnubgIdError::BadPadding));
        // All ones: 80 checkers and no zero bits.
        assert_eq!(decode("//////////////"), Err(GnubgIdError::BadPadding));
        assert_eq!(decode("/////////////w"), Err(GnubgIdError::Truncated));
        // 16 checkers on the opponent's point 1 (the first half).
        assert_eq!(
            decode("//8AAAAAAAAAAA"),
            Err(GnubgIdError::TooManyCheckers {
                side: "opponent",
                count: 16
            })
        );
        // Everything zero is the empty board (all borne off): valid.
        assert_eq!(decode("AAAAAAAAAAAAAA"), Ok(GnubgBoard::default()));
        // A set bit after the fiftieth zero.
        let mut key_tail = encode(&GnubgBoard::default()).into_bytes();
        key_tail[13] = b'w'; // bits 78 and 79 set
        let s = String::from_utf8(key_tail).unwrap();
        assert_eq!(decode(&s), Err(GnubgIdError::TrailingBits));
        // Both sides on one point: side on roll's point 1 is the opponent's 24.
        let shared = GnubgBoard {
            on_roll: side(&[(1, 1)]),
            opponent: side(&[(24, 1)]),
        };
        assert_eq!(decode(&encode(&shared)), Err(GnubgIdError::SharedPoint(1)));
        let closed = side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (25, 1)]);
        let both = GnubgBoard {
            on_roll: closed,
            opponent: closed,
        };
        assert_eq!(decode(&encode(&both)), Err(GnubgIdError::BothClosedOut));
    }

    #[test]
    fn never_panics() {
        let mut state: u64 = 12345;
        let alphabet: Vec<u8> = ALPHABET.iter().copied().chain(*b"=-_ \0\xff").collect();
        for _ in 0..20000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = if state >> 60 == 0 {
                (state >> 50) as usize % 20
            } else {
                14
            };
            let bytes: Vec<u8> = (0..len)
                .map(|j| alphabet[((state >> (j % 8 * 8)) as usize + j * 7) % alphabet.len()])
                .collect();
            let s = String::from_utf8_lossy(&bytes);
            if let Ok(b) = decode(&s) {
                assert_eq!(encode(&b), s);
            }
        }
        // Oversized boards do not panic either.
        let huge = GnubgBoard {
            on_roll: [255; 25],
            opponent: [255; 25],
        };
        assert_eq!(encode(&huge).len(), ID_LEN);
    }
}
