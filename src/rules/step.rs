//! Steps and plays.
//!
//! A *step* moves one checker by one die; a *play* is the steps of one stage,
//! in the order played. Points are in the mover's own numbering and a step's
//! destination is `from - die`, anything at or below 0 meaning borne off.

/// One checker moved by one die.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Step {
    /// Point the checker leaves, 1..=24 in the mover's numbering, or 25
    /// ([`super::position::BAR`]) for the bar.
    pub from: u8,
    /// The die used, 1..=6.
    pub die: u8,
}

impl Step {
    /// Creates a step.
    pub const fn new(from: u8, die: u8) -> Step {
        Step { from, die }
    }

    /// Destination point, 0 when the checker is borne off.
    #[inline]
    pub const fn to(self) -> u8 {
        self.from.saturating_sub(self.die)
    }

    /// Whether the step bears the checker off.
    #[inline]
    pub const fn bears_off(self) -> bool {
        self.die >= self.from
    }
}

impl std::fmt::Display for Step {
    /// `from/to`, `from/off` when the checker is borne off, `bar/to` when it
    /// enters from the bar (`from` 25).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.from == super::position::BAR {
            write!(f, "bar/{}", self.to())
        } else if self.bears_off() {
            write!(f, "{}/off", self.from)
        } else {
            write!(f, "{}/{}", self.from, self.to())
        }
    }
}

/// The steps of one stage: at most four.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// The empty play (nothing could be played).
    pub const EMPTY: Play = Play {
        steps: [Step { from: 0, die: 0 }; 4],
        len: 0,
    };

    /// Builds a play from at most four steps; `None` for more.
    pub fn from_steps(steps: &[Step]) -> Option<Play> {
        if steps.len() > 4 {
            return None;
        }
        let mut p = Play::EMPTY;
        for &s in steps {
            p.push(s);
        }
        Some(p)
    }

    /// Appends a step. Panics past four steps (a generator bug, not user input).
    #[inline]
    pub fn push(&mut self, s: Step) {
        self.steps[self.len as usize] = s;
        self.len += 1;
    }

    /// Removes the last step.
    #[inline]
    pub fn pop(&mut self) {
        self.len -= 1;
    }

    /// The steps in play order.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Number of steps.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nothing was played.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The dice of one stage.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StageDice {
    /// Two different dice of a roll, playable in either order.
    Pair(u8, u8),
    /// `count` (1..=4) dice all showing `die`: a doublet, a chain stage, or
    /// what is left of a stage in a remainder.
    Same {
        /// The number every die shows.
        die: u8,
        /// How many dice.
        count: u8,
    },
}

impl StageDice {
    /// The dice of a rolled pair: a doublet becomes four equal dice.
    pub fn from_roll(d1: u8, d2: u8) -> StageDice {
        if d1 == d2 {
            StageDice::Same { die: d1, count: 4 }
        } else {
            StageDice::Pair(d1, d2)
        }
    }

    /// Number of dice in the stage.
    pub fn count(self) -> u8 {
        match self {
            StageDice::Pair(..) => 2,
            StageDice::Same { count, .. } => count,
        }
    }

    /// The dice as a list.
    pub fn dice(self) -> Vec<u8> {
        match self {
            StageDice::Pair(a, b) => vec![a, b],
            StageDice::Same { die, count } => vec![die; count as usize],
        }
    }
}
