//! What a match of the runner is played as: money games, or matches to N
//! points, with or without the cube; the cube actions each engine made,
//! and how each match ended.

use crate::cube::CubeAnswer;
pub use crate::cube::{SessionSpec, SessionSpecError};
use crate::game::GameRecord;
use crate::rules::Side;

use super::stats::mean_se;

/// The cube actions of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeCounts {
    /// Doubles it offered.
    pub doubles: u32,
    /// Doubles it took.
    pub takes: u32,
    /// Doubles it dropped.
    pub drops: u32,
    /// Doubles it beavered.
    pub beavers: u32,
}

impl CubeCounts {
    /// The four counts in the order above.
    pub fn as_array(&self) -> [u32; 4] {
        [self.doubles, self.takes, self.drops, self.beavers]
    }

    /// From the four counts in the order of [`CubeCounts::as_array`].
    pub fn from_array(a: [u32; 4]) -> CubeCounts {
        CubeCounts {
            doubles: a[0],
            takes: a[1],
            drops: a[2],
            beavers: a[3],
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &CubeCounts) {
        self.doubles += other.doubles;
        self.takes += other.takes;
        self.drops += other.drops;
        self.beavers += other.beavers;
    }

    /// The cube actions in a played game, by side (White's first).
    pub fn of_game(g: &GameRecord) -> [CubeCounts; 2] {
        let mut c = [CubeCounts::default(); 2];
        for t in &g.turns {
            if let Some(answer) = t.double {
                c[t.side.index()].doubles += 1;
                let taker = &mut c[t.side.opponent().index()];
                match answer {
                    CubeAnswer::Take => taker.takes += 1,
                    CubeAnswer::Beaver => taker.beavers += 1,
                    CubeAnswer::Drop => taker.drops += 1,
                }
            }
        }
        if g.dropped {
            let doubler: Side = g.final_state.to_move;
            c[doubler.index()].doubles += 1;
            c[doubler.opponent().index()].drops += 1;
        }
        c
    }
}

/// How one match of a pair ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Which engine played White in every game of it.
    pub white_engine: usize,
    /// The engine that won it; `None` when it was cut off unfinished.
    pub winner: Option<usize>,
    /// The final score, by engine.
    pub score: [u32; 2],
}

/// The match figures of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// The match length.
    pub length: u32,
    /// Matches played.
    pub played: usize,
    /// Matches won per engine.
    pub wins: [u32; 2],
    /// Matches cut off without a winner.
    pub unfinished: u32,
    /// Engine 0's share of the matches won, 0..1.
    pub share: f64,
    /// Its standard error over mirrored pairs.
    pub se: f64,
}

impl MatchTally {
    /// The tally of `pairs`' matches (two per pair, seats swapped).
    pub fn of(length: u32, pairs: &[&[MatchResult]]) -> MatchTally {
        let mut t = MatchTally {
            length,
            ..MatchTally::default()
        };
        let mut per_pair = Vec::with_capacity(pairs.len());
        for p in pairs {
            let mut won = 0.0;
            for m in p.iter() {
                t.played += 1;
                match m.winner {
                    Some(w) => {
                        t.wins[w] += 1;
                        if w == 0 {
                            won += 1.0;
                        }
                    }
                    None => {
                        t.unfinished += 1;
                        won += 0.5;
                    }
                }
            }
            per_pair.push(won / p.len().max(1) as f64);
        }
        (t.share, t.se) = mean_se(&per_pair);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_tallies_count_pairs_and_halves() {
        let m = |w: usize, winner: Option<usize>| MatchResult {
            white_engine: w,
            winner,
            score: [0, 0],
        };
        let pairs = [
            vec![m(0, Some(0)), m(1, Some(0))],
            vec![m(0, Some(1)), m(1, None)],
        ];
        let refs: Vec<&[MatchResult]> = pairs.iter().map(Vec::as_slice).collect();
        let t = MatchTally::of(7, &refs);
        assert_eq!((t.played, t.wins, t.unfinished), (4, [2, 1], 1));
        // Pairs score 1 and 0.25.
        assert!((t.share - 0.625).abs() < 1e-12);
        assert!(t.se > 0.0);
    }
}
