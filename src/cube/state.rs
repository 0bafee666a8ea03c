//! The state of a session: money play or a match to N points, the score,
//! the Crawford game, and the doubling cube (its value, its owner, a double
//! waiting for an answer). Every change is checked: a state that cannot be
//! is refused with a [`CubeStateError`] and nothing changes.

use std::fmt;

use crate::rules::Side;

/// The largest cube value a state may hold (2^15): far above any real
/// game, low enough that points times the cube never overflow.
pub const MAX_CUBE: u32 = 1 << 15;

/// The longest match.
pub const MAX_MATCH_LENGTH: u32 = 99;

/// Who may double next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CubeOwner {
    /// Either side (the cube is in the middle, at 1).
    #[default]
    Centre,
    /// Only this side: it took the last double.
    Side(Side),
}

impl fmt::Display for CubeOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CubeOwner::Centre => "center",
            CubeOwner::Side(side) => side_name(*side),
        })
    }
}

/// Money play or a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SessionKind {
    /// Money play: each game is settled on its own.
    #[default]
    Money,
    /// A match to `length` points.
    Match {
        /// Points needed to win the match, 1..=[`MAX_MATCH_LENGTH`].
        length: u32,
    },
}

/// The rules of a session beside the game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionRules {
    /// Whether the doubling cube is used at all.
    pub cube: bool,
    /// Money play: gammons and backgammons count single until the cube has
    /// been turned.
    pub jacoby: bool,
    /// Money play: a side that is doubled may redouble at once, keeping the
    /// cube (a beaver).
    pub beavers: bool,
    /// Matches: no doubling in the game after a side first reaches one
    /// point from victory.
    pub crawford: bool,
}

impl Default for SessionRules {
    fn default() -> Self {
        SessionRules {
            cube: true,
            jacoby: false,
            beavers: false,
            crawford: true,
        }
    }
}

/// Why a state or a cube action was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CubeStateError {
    /// The cube is not a power of two in 1..=[`MAX_CUBE`].
    #[error("the cube must be a power of two from 1 to {MAX_CUBE}, got {0}")]
    CubeValue(u32),
    /// A centred cube above 1, or an owned cube at 1.
    #[error(
        "a cube at {value} cannot be owned by {owner} (a centred cube is at 1, an owned one at 2 or more)"
    )]
    CubeOwner {
        /// The cube's value.
        value: u32,
        /// The owner named.
        owner: CubeOwner,
    },
    /// A match length out of range.
    #[error("a match is 1 to {MAX_MATCH_LENGTH} points long, got {0}")]
    Length(u32),
    /// A score that has reached the match length: the match would be over.
    #[error("a score of {score} in a {length}-point match: the match would be over")]
    ScorePast {
        /// The score.
        score: u32,
        /// The match length.
        length: u32,
    },
    /// A Crawford game when no side, or both, are one point from victory.
    #[error(
        "the Crawford game needs exactly one side one point from victory (score {white}-{black} to {length})"
    )]
    NoCrawford {
        /// White's score.
        white: u32,
        /// Black's score.
        black: u32,
        /// The match length.
        length: u32,
    },
    /// The cube has been turned in the Crawford game.
    #[error("no doubling in the Crawford game: the cube stays at 1 in the middle")]
    CrawfordCube,
    /// The cube is not used in this session.
    #[error("the cube is off in this session (newsession ... cube on)")]
    CubeOff,
    /// A side may not double now.
    #[error("{} may not double: {reason}", side_name(*.side))]
    MayNotDouble {
        /// The side that tried.
        side: Side,
        /// Why not.
        reason: &'static str,
    },
    /// No double waits for an answer.
    #[error("no double waits for an answer")]
    NoDouble,
    /// Beavers are off, or this is a match.
    #[error("beavers are allowed in money play with the beaver rule only")]
    NoBeaver,
}

/// A session's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MatchState {
    kind: SessionKind,
    rules: SessionRules,
    /// White's and Black's points (by [`Side`] index).
    score: [u32; 2],
    /// This game is the Crawford game.
    crawford_game: bool,
    cube: u32,
    owner: CubeOwner,
    /// The side whose double waits for the other's answer.
    doubled_by: Option<Side>,
    /// The doubled side beavered: the cube is doubled again and stays
    /// with it (money play).
    beavered: bool,
}

/// The doubled side's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeAnswer {
    /// It takes: the cube is doubled and is its own.
    Take,
    /// It drops: the doubler wins the game at the cube before the double.
    Drop,
    /// It beavers (money play with beavers): it takes and redoubles at
    /// once, keeping the cube.
    Beaver,
}

impl CubeAnswer {
    /// The word the protocol and the records use.
    pub fn word(self) -> &'static str {
        match self {
            CubeAnswer::Take => "take",
            CubeAnswer::Drop => "drop",
            CubeAnswer::Beaver => "beaver",
        }
    }
}

/// The session of a game played without the cube: money play, each result
/// worth its points.
pub fn cubeless() -> MatchState {
    MatchState::money(SessionRules {
        cube: false,
        ..SessionRules::default()
    })
}

/// A side as the session commands name it.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

impl MatchState {
    /// A money session at 0-0, the cube at 1 in the middle.
    pub fn money(rules: SessionRules) -> MatchState {
        MatchState {
            kind: SessionKind::Money,
            rules,
            score: [0, 0],
            crawford_game: false,
            cube: 1,
            owner: CubeOwner::Centre,
            doubled_by: None,
            beavered: false,
        }
    }

    /// A match to `length` points at 0-0.
    pub fn match_to(length: u32, rules: SessionRules) -> Result<MatchState, CubeStateError> {
        if !(1..=MAX_MATCH_LENGTH).contains(&length) {
            return Err(CubeStateError::Length(length));
        }
        let mut s = MatchState::money(rules);
        s.kind = SessionKind::Match { length };
        // A 1-point match: both are one away from the start, and no
        // game is the Crawford game.
        Ok(s)
    }

    /// Money or a match.
    pub fn kind(&self) -> SessionKind {
        self.kind
    }

    /// The session's rules.
    pub fn rules(&self) -> SessionRules {
        self.rules
    }

    /// The match length, 0 for money play.
    pub fn length(&self) -> u32 {
        match self.kind {
            SessionKind::Money => 0,
            SessionKind::Match { length } => length,
        }
    }

    /// `side`'s points.
    pub fn score(&self, side: Side) -> u32 {
        self.score[side.index()]
    }

    /// Points `side` still needs to win the match (`None` in money play).
    pub fn away(&self, side: Side) -> Option<u32> {
        match self.kind {
            SessionKind::Money => None,
            SessionKind::Match { length } => Some(length.saturating_sub(self.score(side))),
        }
    }

    /// Whether this game is the Crawford game.
    pub fn is_crawford(&self) -> bool {
        self.crawford_game
    }

    /// Whether the Crawford game has been played: one side is one away,
    /// the other more, and this is not the Crawford game.
    pub fn is_post_crawford(&self) -> bool {
        match (self.away(Side::White), self.away(Side::Black)) {
            (Some(w), Some(b)) => {
                self.rules.crawford && !self.crawford_game && (w == 1) != (b == 1)
            }
            _ => false,
        }
    }

    /// The cube's value.
    pub fn cube(&self) -> u32 {
        self.cube
    }

    /// Who owns the cube.
    pub fn owner(&self) -> CubeOwner {
        self.owner
    }

    /// The side whose double waits for an answer.
    pub fn doubled_by(&self) -> Option<Side> {
        self.doubled_by
    }

    /// The match winner, once a side has the match length.
    pub fn winner(&self) -> Option<Side> {
        let SessionKind::Match { length } = self.kind else {
            return None;
        };
        [Side::White, Side::Black]
            .into_iter()
            .find(|&s| self.score(s) >= length)
    }

    /// Sets the score. In a match, `crawford` says whether this game is the
    /// Crawford game; `None` takes the usual reading (it is, when the
    /// Crawford rule is on and exactly one side is one away). The cube
    /// goes back to 1 in the middle when the game is the Crawford game.
    pub fn set_score(
        &mut self,
        white: u32,
        black: u32,
        crawford: Option<bool>,
    ) -> Result<(), CubeStateError> {
        let mut next = *self;
        next.score = [white, black];
        if let SessionKind::Match { length } = self.kind {
            for score in [white, black] {
                if score >= length {
                    return Err(CubeStateError::ScorePast { score, length });
                }
            }
            let one_away = (length - white == 1) != (length - black == 1);
            let want = crawford.unwrap_or(self.rules.crawford && one_away);
            if want && (!one_away || !self.rules.crawford) {
                return Err(CubeStateError::NoCrawford {
                    white,
                    black,
                    length,
                });
            }
            next.crawford_game = want;
            if want {
                next.cube = 1;
                next.owner = CubeOwner::Centre;
                next.doubled_by = None;
                next.beavered = false;
            }
        } else if crawford == Some(true) {
            return Err(CubeStateError::NoCrawford {
                white,
                black,
                length: 0,
            });
        }
        *self = next;
        Ok(())
    }

    /// Sets the cube's value and owner (no double pending afterwards).
    pub fn set_cube(&mut self, value: u32, owner: CubeOwner) -> Result<(), CubeStateError> {
        if !value.is_power_of_two() || value > MAX_CUBE {
            return Err(CubeStateError::CubeValue(value));
        }
        if (value == 1) != (owner == CubeOwner::Centre) {
            return Err(CubeStateError::CubeOwner { value, owner });
        }
        if value > 1 && !self.rules.cube {
            return Err(CubeStateError::CubeOff);
        }
        if value > 1 && self.crawford_game {
            return Err(CubeStateError::CrawfordCube);
        }
        self.cube = value;
        self.owner = owner;
        self.doubled_by = None;
        self.beavered = false;
        Ok(())
    }

    /// Whether `side` may double now (before its roll), and why not.
    pub fn may_double(&self, side: Side) -> Result<(), CubeStateError> {
        let no = |reason| CubeStateError::MayNotDouble { side, reason };
        if !self.rules.cube {
            return Err(CubeStateError::CubeOff);
        }
        if self.doubled_by.is_some() {
            return Err(no("a double already waits for an answer"));
        }
        if self.crawford_game {
            return Err(no("this is the Crawford game"));
        }
        if let CubeOwner::Side(owner) = self.owner
            && owner != side
        {
            return Err(no("the opponent owns the cube"));
        }
        if self.cube.saturating_mul(2) > MAX_CUBE {
            return Err(no("the cube is at its largest"));
        }
        if self.away(side) == Some(0) || self.winner().is_some() {
            return Err(no("the match is over"));
        }
        Ok(())
    }

    /// `side` doubles: the other side's answer is due.
    pub fn double(&mut self, side: Side) -> Result<(), CubeStateError> {
        self.may_double(side)?;
        self.doubled_by = Some(side);
        Ok(())
    }

    /// The doubled side takes: the cube is doubled and is its own.
    pub fn take(&mut self) -> Result<(), CubeStateError> {
        let doubler = self.doubled_by.ok_or(CubeStateError::NoDouble)?;
        self.cube *= 2;
        self.owner = CubeOwner::Side(doubler.opponent());
        self.doubled_by = None;
        self.beavered = false;
        Ok(())
    }

    /// The doubled side beavers (money play with beavers): it takes and
    /// doubles again at once, keeping the cube.
    pub fn beaver(&mut self) -> Result<(), CubeStateError> {
        let doubler = self.doubled_by.ok_or(CubeStateError::NoDouble)?;
        if !self.rules.beavers || self.kind != SessionKind::Money {
            return Err(CubeStateError::NoBeaver);
        }
        if self.cube.saturating_mul(4) > MAX_CUBE {
            return Err(CubeStateError::CubeValue(self.cube.saturating_mul(4)));
        }
        self.cube *= 4;
        self.owner = CubeOwner::Side(doubler.opponent());
        self.doubled_by = None;
        self.beavered = true;
        Ok(())
    }

    /// The doubled side drops: the doubler wins the game at the cube's
    /// value before the double. Returns the winner and the points, which
    /// are scored ([`MatchState::score_game`]).
    pub fn drop_double(&mut self) -> Result<(Side, u32), CubeStateError> {
        let doubler = self.doubled_by.ok_or(CubeStateError::NoDouble)?;
        let points = self.cube;
        self.doubled_by = None;
        self.score_game(doubler, points);
        Ok((doubler, points))
    }

    /// The points a game won with `result_points` (1 single, 2 gammon or
    /// mars, 3 backgammon) scores at this cube: the cube's value times
    /// them, or times 1 under the Jacoby rule while the cube is in the
    /// middle.
    pub fn points_for(&self, result_points: u32) -> u32 {
        let base = if self.kind == SessionKind::Money
            && self.rules.jacoby
            && self.rules.cube
            && self.owner == CubeOwner::Centre
        {
            result_points.min(1)
        } else {
            result_points
        };
        base.saturating_mul(self.cube)
    }

    /// Scores `points` for `winner` and sets up the next game: the cube
    /// back at 1 in the middle, and the Crawford game when the winner has
    /// just come to one point from victory.
    pub fn score_game(&mut self, winner: Side, points: u32) {
        let was_one_away = self.away(winner) == Some(1) || self.away(winner.opponent()) == Some(1);
        let i = winner.index();
        self.score[i] = self.score[i].saturating_add(points);
        if let SessionKind::Match { length } = self.kind {
            self.score[i] = self.score[i].min(length);
        }
        self.crawford_game = self.rules.crawford
            && !was_one_away
            && self.away(winner) == Some(1)
            && self.away(winner.opponent()).is_some_and(|a| a > 1);
        self.cube = 1;
        self.owner = CubeOwner::Centre;
        self.doubled_by = None;
        self.beavered = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_reaches_crawford_then_post_crawford() {
        let mut m = MatchState::match_to(5, SessionRules::default()).unwrap();
        m.double(Side::White).unwrap();
        m.take().unwrap();
        assert_eq!((m.cube(), m.owner()), (2, CubeOwner::Side(Side::Black)));
        // Only the owner may redouble.
        assert!(m.may_double(Side::White).is_err());
        m.may_double(Side::Black).unwrap();
        m.score_game(Side::White, m.points_for(2));
        assert_eq!(m.score(Side::White), 4);
        assert!(m.is_crawford() && !m.is_post_crawford());
        assert_eq!((m.cube(), m.owner()), (1, CubeOwner::Centre));
        assert!(m.may_double(Side::Black).is_err());
        m.score_game(Side::Black, 1);
        assert!(!m.is_crawford() && m.is_post_crawford());
        m.may_double(Side::Black).unwrap();
        m.double(Side::Black).unwrap();
        assert_eq!(m.drop_double().unwrap(), (Side::Black, 1));
        assert_eq!((m.score(Side::White), m.score(Side::Black)), (4, 2));
        m.score_game(Side::White, 1);
        assert_eq!(m.winner(), Some(Side::White));
    }

    #[test]
    fn impossible_states_are_refused_and_change_nothing() {
        let mut m = MatchState::match_to(7, SessionRules::default()).unwrap();
        let before = m;
        assert_eq!(
            m.set_cube(3, CubeOwner::Side(Side::White)),
            Err(CubeStateError::CubeValue(3))
        );
        assert!(m.set_cube(2, CubeOwner::Centre).is_err());
        assert!(m.set_cube(1, CubeOwner::Side(Side::Black)).is_err());
        assert!(m.set_score(7, 2, None).is_err());
        assert!(m.set_score(3, 2, Some(true)).is_err());
        assert!(m.take().is_err());
        assert!(m.beaver().is_err());
        assert_eq!(m, before);
        assert!(MatchState::match_to(0, SessionRules::default()).is_err());
        // 6-3 to 7: the Crawford game by default, no cube in it.
        m.set_score(6, 3, None).unwrap();
        assert!(m.is_crawford());
        assert_eq!(
            m.set_cube(2, CubeOwner::Side(Side::White)),
            Err(CubeStateError::CrawfordCube)
        );
        m.set_score(6, 3, Some(false)).unwrap();
        assert!(m.is_post_crawford());
    }

    #[test]
    fn money_play_counts_jacoby_and_beavers() {
        let rules = SessionRules {
            jacoby: true,
            beavers: true,
            ..SessionRules::default()
        };
        let mut m = MatchState::money(rules);
        assert_eq!(m.points_for(2), 1);
        m.double(Side::White).unwrap();
        m.beaver().unwrap();
        assert_eq!((m.cube(), m.owner()), (4, CubeOwner::Side(Side::Black)));
        assert_eq!(m.points_for(3), 12);
        let off = SessionRules {
            cube: false,
            ..SessionRules::default()
        };
        let mut m = MatchState::money(off);
        assert_eq!(m.double(Side::White), Err(CubeStateError::CubeOff));
    }
}
