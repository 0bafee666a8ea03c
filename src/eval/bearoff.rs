//! Exact one-sided bear-off tables ("race tables").
//!
//! For every arrangement of 0..=15 checkers on the six home points
//! ([`POSITIONS`] = C(21, 6) = 54,264 of them, the empty one included) a
//! [`Table`] holds the distribution of the number of rolls needed to bear
//! them all off, each roll played to minimise the expected number of rolls:
//! the standard one-sided table (as gnubg's one-sided bear-off database). It
//! also holds, for the arrangements of all 15 checkers, the distribution of
//! the rolls needed to bear off the *first* checker, each roll played to
//! minimise the expected rolls to that (gnubg's "gammon" distribution): with
//! both, a race with every checker of both sides home is judged exactly up to
//! what one-sided tables allow (each side plays for its own fastest bear-off,
//! not for the two-sided chances).
//!
//! The tables depend on the dice only; the bear-off rules are the same in
//! every game of the family (a die moves a checker down or bears it off from
//! the point of its number; a higher die bears off from the highest occupied
//! point; in a race with everything home no point is ever closed and every
//! die is playable while a checker remains, so the must-play rules never
//! bind). `tests/race_tables.rs` checks this generator against each game's
//! own stage generator. So there are two kinds of dice:
//!
//! - [`Dice::Ordinary`]: a doublet plays four of its number (long nardy,
//!   short nardy, backgammon, and Gul bara inside the exemption);
//! - [`Dice::Escalating`]: Gul bara past the exemption, where a doublet d-d
//!   plays four d's, then four (d+1)'s … four 6s. With every checker home no
//!   stage can be broken (every die is playable), so the chain always plays
//!   on to 6-6, or until the last checker is off. The best play is chosen
//!   over the whole chain: a dynamic programme over stages (the value of a
//!   position with stages s..6 of this turn still to play), not stage by
//!   stage. `Escalating { exempt: k }` is the table of a side with `k` of its
//!   rolls still exempt (those roll ordinary dice, then the chains begin):
//!   each is one cheap pass over the table of `k - 1`.
//!
//! Tables are generated in memory on first use ([`table`]); nothing is read
//! from or written to files.

use std::sync::OnceLock;

use crate::rules::position::{BAR, CHECKERS, Checkers, HOME_MASK};

/// Home points.
pub const POINTS: usize = 6;

/// Arrangements of 0..=15 checkers on the six home points: C(21, 6).
pub const POSITIONS: usize = 54_264;

/// The most exempt rolls a side may still have for which a table is kept.
/// Gul bara's default exemption is three rolls, and a side with every
/// checker home has used all of them in any game played from the start;
/// larger counts (only with `rules.exempt_rolls` above 3, or a position
/// text that says so) are left to the evaluator behind the tables.
pub const MAX_EXEMPT: u8 = 3;

/// Rolls of a distribution kept during generation: far above any need (a
/// roll moves at least two pips, and 15 checkers on the 6-point have 90).
const GEN_LEN: usize = 48;

/// Two expected values closer than this are a tie (then the distributions
/// decide, see [`Table`]).
const TIE: f64 = 1e-12;

/// Binomial coefficients C(n, k) for n < 22, k < 7.
const BINOM: [[u32; 7]; 22] = {
    let mut t = [[0u32; 7]; 22];
    let mut n = 0;
    while n < 22 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The checkers on points 1..=6: `counts[p - 1]` on point `p`.
pub type Home = [u8; POINTS];

/// The perfect index of an arrangement (the combinatorial number system), or
/// `None` for more than 15 checkers.
///
/// The arrangement is written as 21 slots: the checkers of point 6, a
/// separator, those of point 5, a separator, … point 1, a separator, then one
/// slot for every checker not on the board. The six separators' slots
/// `z1 < … < z6` give the index `C(z1, 1) + … + C(z6, 6)`. Moving a checker
/// down or off moves separators to lower slots, so every play leads to a
/// smaller index: ascending index order is an order in which every
/// position's successors come first. The empty board is 0, fifteen on the
/// 6-point is the largest.
pub fn index_of(home: &Home) -> Option<usize> {
    let mut slot = 0usize;
    let mut index = 0usize;
    for (i, p) in (0..POINTS).rev().enumerate() {
        slot += usize::from(home[p]);
        if slot > usize::from(CHECKERS) + i {
            return None;
        }
        index += BINOM[slot][i + 1] as usize;
        slot += 1;
    }
    Some(index)
}

/// Every arrangement by its index.
fn arrangements() -> &'static [Home] {
    static ALL: OnceLock<Vec<Home>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = vec![[0u8; POINTS]; POSITIONS];
        let mut h = [0u8; POINTS];
        // Every (c1..c6) with sum <= 15, by nested counting.
        fn fill(all: &mut [Home], h: &mut Home, p: usize, left: u8) {
            if p == POINTS {
                if let Some(i) = index_of(h) {
                    all[i] = *h;
                }
                return;
            }
            for n in 0..=left {
                h[p] = n;
                fill(all, h, p + 1, left - n);
            }
            h[p] = 0;
        }
        fill(&mut all, &mut h, 0, CHECKERS);
        all
    })
}

/// The arrangement with index `i` (`i < POSITIONS`).
pub fn arrangement(i: usize) -> Option<Home> {
    arrangements().get(i).copied()
}

/// The home arrangement of a side's checkers, or `None` when any checker is
/// outside its home (points 7..24 or the bar).
pub fn home_of(c: Checkers) -> Option<Home> {
    if c.mask() & !HOME_MASK != 0 || c.at(BAR) != 0 {
        return None;
    }
    let mut h = [0u8; POINTS];
    for (p, n) in h.iter_mut().enumerate() {
        *n = c.at(p as u8 + 1);
    }
    Some(h)
}

/// Checkers on the board of an arrangement.
pub fn checkers_in(home: &Home) -> u8 {
    home.iter().sum()
}

/// Every arrangement one die `die` can reach from `home` (one step: a
/// checker moves `die` points down, or bears off from the point `die`, or
/// from a lower point when no checker stands higher). Distinct steps reach
/// distinct arrangements. Nothing for the empty board.
pub fn home_steps(home: &Home, die: u8) -> Vec<Home> {
    let mut out = Vec::with_capacity(POINTS);
    let highest = (1..=POINTS as u8)
        .rev()
        .find(|&p| home[usize::from(p) - 1] > 0);
    for p in 1..=POINTS as u8 {
        if home[usize::from(p) - 1] == 0 {
            continue;
        }
        let mut next = *home;
        next[usize::from(p) - 1] -= 1;
        if p > die {
            next[usize::from(p - die) - 1] += 1;
        } else if p != die && Some(p) != highest {
            continue;
        }
        out.push(next);
    }
    out
}

/// One-step successors of every arrangement for every die, by index:
/// `SUCC[i * 6 + die - 1]` lists up to six indices.
struct Successors {
    next: Vec<[u16; POINTS]>,
    len: Vec<u8>,
}

impl Successors {
    fn get(&self, i: usize, die: u8) -> &[u16] {
        let k = i * POINTS + usize::from(die) - 1;
        &self.next[k][..usize::from(self.len[k])]
    }
}

fn successors() -> &'static Successors {
    static S: OnceLock<Successors> = OnceLock::new();
    S.get_or_init(|| {
        let all = arrangements();
        let mut next = vec![[0u16; POINTS]; POSITIONS * POINTS];
        let mut len = vec![0u8; POSITIONS * POINTS];
        for (i, h) in all.iter().enumerate() {
            for die in 1..=POINTS as u8 {
                let k = i * POINTS + usize::from(die) - 1;
                for (j, s) in home_steps(h, die).iter().enumerate() {
                    // Successors are arrangements of at most 15 checkers:
                    // they have an index, and it is smaller than i.
                    next[k][j] = index_of(s).unwrap_or(0) as u16;
                    len[k] = j as u8 + 1;
                }
            }
        }
        Successors { next, len }
    })
}

/// Which dice a side rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dice {
    /// A doublet plays four of its number.
    Ordinary,
    /// Gul bara: after `exempt` more ordinary rolls (0..=[`MAX_EXEMPT`]),
    /// every doublet escalates to 6-6.
    Escalating {
        /// Rolls still exempt from escalation.
        exempt: u8,
    },
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BearoffError {
    /// More exempt rolls than tables are kept for.
    #[error("no race table for {0} exempt rolls (at most {MAX_EXEMPT})")]
    TooManyExempt(u8),
    /// A distribution ran past the generation buffer (a generator bug).
    #[error("a bear-off needs more than {GEN_LEN} rolls")]
    TooLong,
}

/// A one-sided table: per arrangement the distribution of the rolls to bear
/// off every checker (`dist`), and for the 15-checker arrangements the
/// distribution of the rolls to bear off the first one (`first`).
///
/// Each roll is played to minimise the expected number of rolls; between
/// plays with equal expected rolls (within 1e-12) the one more likely to
/// be done within fewer rolls wins (the larger cumulative probability at the
/// first number of rolls where they differ): a fixed rule, so that the
/// brute-force checks can follow it.
pub struct Table {
    dice: Dice,
    len: usize,
    dist: Vec<f64>,
    mean: Vec<f64>,
    first_len: usize,
    first: Vec<f64>,
    first_mean: Vec<f64>,
    /// Escalating tables past the exemption: for stages s..6 still to play
    /// from an arrangement (index `s - 1`), the arrangement the best play of
    /// them reaches (for a remainder, whose rest is such a chain).
    chain_final: Vec<[u16; POINTS]>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("dice", &self.dice)
            .field("len", &self.len)
            .field("first_len", &self.first_len)
            .finish()
    }
}

/// A candidate end of a turn: its expected rolls, and the arrangement
/// (index) it ends on.
#[derive(Clone, Copy, Debug)]
struct Choice {
    mean: f64,
    end: u32,
}

/// Whether `a` is strictly better than `b` (see [`Table`]): `dist` holds the
/// distributions the ends refer to, `len` apart.
#[inline]
fn better(a: Choice, b: Choice, dist: &[f64], len: usize) -> bool {
    if a.mean < b.mean - TIE {
        return true;
    }
    if a.mean > b.mean + TIE || a.end == b.end {
        return false;
    }
    let da = &dist[a.end as usize * len..][..len];
    let db = &dist[b.end as usize * len..][..len];
    let (mut ca, mut cb) = (0.0, 0.0);
    for n in 0..len {
        ca += da[n];
        cb += db[n];
        if ca > cb + 1e-15 {
            return true;
        }
        if cb > ca + 1e-15 {
            return false;
        }
    }
    a.end < b.end
}

/// What a pass of the generator computes.
struct Pass {
    len: usize,
    dist: Vec<f64>,
    mean: Vec<f64>,
    chain_final: Vec<[u16; POINTS]>,
}

/// The objective of a pass: every checker off, or the first one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    All,
    First,
}

impl Goal {
    fn done(self, h: &Home) -> bool {
        match self {
            Goal::All => checkers_in(h) == 0,
            Goal::First => checkers_in(h) < CHECKERS,
        }
    }
}

/// The 21 distinct rolls with their weight among the 36: (d1, d2, 1 or 2).
/// Sums are taken in 36ths and divided once, so that a certainty stays 1.
fn rolls() -> impl Iterator<Item = (u8, u8, f64)> {
    (1..=6u8).flat_map(|a| (a..=6u8).map(move |b| (a, b, if a == b { 1.0 } else { 2.0 })))
}

/// One pass over every arrangement in ascending index order.
///
/// `escalating`: doublets play chains to 6-6. `cont`: the table of what
/// follows each turn (the same dice kind one exempt roll later); `None` when
/// every turn is followed by the table being made itself.
fn pass(goal: Goal, escalating: bool, cont: Option<&Pass>) -> Result<Pass, BearoffError> {
    let all = arrangements();
    let succ = successors();
    let len = GEN_LEN;
    let mut dist = vec![0.0f64; POSITIONS * len];
    let mut mean = vec![0.0f64; POSITIONS];
    // one[i][d]: the best single step of d then the continuation;
    // stage[i][s][j]: the best j+1 steps of s then what follows the stage
    // (the continuation, or in a chain the stages above s).
    let none = Choice { mean: 0.0, end: 0 };
    let mut one = vec![[none; POINTS]; POSITIONS];
    let mut stage = vec![[[none; 4]; POINTS]; POSITIONS];
    let mut chain_final = if escalating && cont.is_none() {
        vec![[0u16; POINTS]; POSITIONS]
    } else {
        Vec::new()
    };
    let mut row = vec![0.0f64; len];
    for i in 0..POSITIONS {
        let home = &all[i];
        if goal.done(home) {
            // Done: no more rolls. Every play from here "ends" here.
            dist[i * len] = 1.0;
            let here = Choice {
                mean: 0.0,
                end: i as u32,
            };
            one[i] = [here; POINTS];
            stage[i] = [[here; 4]; POINTS];
            if !chain_final.is_empty() {
                chain_final[i] = [i as u16; POINTS];
            }
            continue;
        }
        let m = {
            // The tables the ends refer to: the continuation's, or this
            // one's (only smaller indices, all filled).
            let (cmean, cdist): (&[f64], &[f64]) = match cont {
                Some(c) => (&c.mean, &c.dist),
                None => (&mean, &dist),
            };
            let cont_at = |x: usize| Choice {
                mean: cmean[x],
                end: x as u32,
            };
            let pick = |best: &mut Option<Choice>, c: Choice| {
                if best.is_none_or(|b| better(c, b, cdist, len)) {
                    *best = Some(c);
                }
            };
            for die in 1..=POINTS as u8 {
                let d = usize::from(die) - 1;
                let mut b = None;
                for &x in succ.get(i, die) {
                    pick(&mut b, cont_at(usize::from(x)));
                }
                one[i][d] = b.unwrap_or(none);
            }
            // Stages from 6 down: in a chain, the stage of s is followed by
            // the stage of s + 1 from the same arrangement.
            for die in (1..=POINTS as u8).rev() {
                let d = usize::from(die) - 1;
                for j in 0..4 {
                    let mut b = None;
                    for &x in succ.get(i, die) {
                        let x = usize::from(x);
                        let c = if j > 0 {
                            stage[x][d][j - 1]
                        } else if escalating && die < 6 {
                            stage[x][d + 1][3]
                        } else {
                            cont_at(x)
                        };
                        pick(&mut b, c);
                    }
                    stage[i][d][j] = b.unwrap_or(none);
                }
            }
            row.iter_mut().for_each(|r| *r = 0.0);
            let mut m = 0.0;
            for (a, b, p) in rolls() {
                let end = if a == b {
                    stage[i][usize::from(a) - 1][3]
                } else {
                    let mut best = None;
                    for &x in succ.get(i, a) {
                        pick(&mut best, one[usize::from(x)][usize::from(b) - 1]);
                    }
                    for &y in succ.get(i, b) {
                        pick(&mut best, one[usize::from(y)][usize::from(a) - 1]);
                    }
                    best.unwrap_or(none)
                };
                m += p * end.mean;
                let from = &cdist[end.end as usize * len..][..len];
                if from[len - 1] != 0.0 {
                    return Err(BearoffError::TooLong);
                }
                for n in 0..len - 1 {
                    row[n + 1] += p * from[n];
                }
            }
            row.iter_mut().for_each(|r| *r /= 36.0);
            1.0 + m / 36.0
        };
        mean[i] = m;
        dist[i * len..(i + 1) * len].copy_from_slice(&row);
        if !chain_final.is_empty() {
            for d in 0..POINTS {
                chain_final[i][d] = stage[i][d][3].end as u16;
            }
        }
    }
    Ok(Pass {
        len,
        dist,
        mean,
        chain_final,
    })
}

/// The longest number of rolls with a non-zero probability, plus one.
fn support(dist: &[f64], len: usize) -> usize {
    dist.chunks(len)
        .map(|d| d.iter().rposition(|&p| p != 0.0).map_or(1, |n| n + 1))
        .max()
        .unwrap_or(1)
}

/// Keeps the first `keep` rolls of each distribution.
fn trim(dist: &[f64], len: usize, keep: usize) -> Vec<f64> {
    dist.chunks(len).flat_map(|d| d[..keep].to_vec()).collect()
}

/// Generates a table (not cached: [`table`] keeps one of each).
pub fn generate(dice: Dice) -> Result<Table, BearoffError> {
    let (all, first) = match dice {
        Dice::Ordinary => (
            pass(Goal::All, false, None)?,
            pass(Goal::First, false, None)?,
        ),
        Dice::Escalating { exempt: 0 } => {
            (pass(Goal::All, true, None)?, pass(Goal::First, true, None)?)
        }
        Dice::Escalating { exempt } => {
            if exempt > MAX_EXEMPT {
                return Err(BearoffError::TooManyExempt(exempt));
            }
            let below = table(Dice::Escalating { exempt: exempt - 1 })?;
            let cont = below.as_passes();
            (
                pass(Goal::All, false, Some(&cont.0))?,
                pass(Goal::First, false, Some(&cont.1))?,
            )
        }
    };
    Ok(Table::from_passes(dice, all, first))
}

impl Table {
    fn from_passes(dice: Dice, all: Pass, first: Pass) -> Table {
        let len = support(&all.dist, all.len);
        let first_len = support(&first.dist, first.len);
        Table {
            dice,
            len,
            dist: trim(&all.dist, all.len, len),
            mean: all.mean,
            first_len,
            first: trim(&first.dist, first.len, first_len),
            first_mean: first.mean,
            chain_final: all.chain_final,
        }
    }

    /// The table's distributions at the generation length again, as the
    /// continuation of a derived table.
    fn as_passes(&self) -> (Pass, Pass) {
        let widen = |d: &[f64], l: usize| -> Vec<f64> {
            d.chunks(l)
                .flat_map(|row| {
                    let mut w = vec![0.0; GEN_LEN];
                    w[..l].copy_from_slice(row);
                    w
                })
                .collect()
        };
        (
            Pass {
                len: GEN_LEN,
                dist: widen(&self.dist, self.len),
                mean: self.mean.clone(),
                chain_final: Vec::new(),
            },
            Pass {
                len: GEN_LEN,
                dist: widen(&self.first, self.first_len),
                mean: self.first_mean.clone(),
                chain_final: Vec::new(),
            },
        )
    }

    /// The dice this table is for.
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// Length of every bear-off distribution (the most rolls any
    /// arrangement may need, plus one).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a table has every arrangement.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Length of every first-checker distribution.
    pub fn first_len(&self) -> usize {
        self.first_len
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        8 * (self.dist.len() + self.mean.len() + self.first.len() + self.first_mean.len())
            + 2 * POINTS * self.chain_final.len()
    }

    /// `P(exactly n rolls bear off every checker)` for `n` in `0..len()`,
    /// of the arrangement with index `i`.
    pub fn dist_at(&self, i: usize) -> &[f64] {
        &self.dist[i * self.len..(i + 1) * self.len]
    }

    /// Expected rolls to bear off every checker of arrangement `i`.
    pub fn mean_at(&self, i: usize) -> f64 {
        self.mean[i]
    }

    /// `P(exactly n rolls bear off the first checker)` of arrangement `i`;
    /// `[1, 0, …]` (none needed) unless it has all 15 checkers.
    pub fn first_at(&self, i: usize) -> &[f64] {
        &self.first[i * self.first_len..(i + 1) * self.first_len]
    }

    /// Expected rolls to bear off the first checker of arrangement `i`.
    pub fn first_mean_at(&self, i: usize) -> f64 {
        self.first_mean[i]
    }

    /// The bear-off distribution of an arrangement.
    pub fn dist(&self, home: &Home) -> Option<&[f64]> {
        index_of(home).map(|i| self.dist_at(i))
    }

    /// Expected rolls to bear off an arrangement.
    pub fn mean(&self, home: &Home) -> Option<f64> {
        index_of(home).map(|i| self.mean_at(i))
    }

    /// The first-checker distribution of an arrangement.
    pub fn first(&self, home: &Home) -> Option<&[f64]> {
        index_of(home).map(|i| self.first_at(i))
    }

    /// The arrangement (index) the best play of a remainder reaches from
    /// arrangement `i`: `count` dice of `die`, then four of every higher
    /// number up to 6, chosen for the fewest expected rolls after it. Only
    /// the escalating table past the exemption keeps the chains (a
    /// remainder is followed by that side's own rolls, which escalate):
    /// `None` for the others.
    pub fn remainder_end(&self, i: usize, die: u8, count: u8) -> Option<usize> {
        if self.chain_final.is_empty() || !(1..=6).contains(&die) || count > 4 {
            return None;
        }
        let succ = successors();
        // What follows the partial stage: the stages above it (their best
        // end), or for 6s the roll.
        let after = |x: usize| -> Choice {
            let end = if die < 6 {
                usize::from(self.chain_final[x][usize::from(die)])
            } else {
                x
            };
            Choice {
                mean: self.mean[end],
                end: end as u32,
            }
        };
        fn best_of(
            t: &Table,
            succ: &Successors,
            after: &dyn Fn(usize) -> Choice,
            i: usize,
            die: u8,
            left: u8,
        ) -> Choice {
            let next = succ.get(i, die);
            if left == 0 || next.is_empty() {
                return after(i);
            }
            let mut best: Option<Choice> = None;
            for &x in next {
                let c = best_of(t, succ, after, usize::from(x), die, left - 1);
                if best.is_none_or(|b| better(c, b, &t.dist, t.len)) {
                    best = Some(c);
                }
            }
            best.unwrap_or_else(|| after(i))
        }
        Some(best_of(self, succ, &after, i, die, count).end as usize)
    }
}

/// The table of `dice`, generated on first use and kept for the process.
pub fn table(dice: Dice) -> Result<&'static Table, BearoffError> {
    static ORDINARY: OnceLock<Result<Table, BearoffError>> = OnceLock::new();
    static ESCALATING: [OnceLock<Result<Table, BearoffError>>; MAX_EXEMPT as usize + 1] =
        [const { OnceLock::new() }; MAX_EXEMPT as usize + 1];
    let cell = match dice {
        Dice::Ordinary => &ORDINARY,
        Dice::Escalating { exempt } => ESCALATING
            .get(usize::from(exempt))
            .ok_or(BearoffError::TooManyExempt(exempt))?,
    };
    cell.get_or_init(|| generate(dice))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_a_bijection_and_plays_go_down() {
        let all = arrangements();
        assert_eq!(all.len(), POSITIONS);
        for (i, h) in all.iter().enumerate() {
            assert_eq!(index_of(h), Some(i));
            for die in 1..=6 {
                for s in home_steps(h, die) {
                    assert!(index_of(&s).is_some_and(|j| j < i), "{h:?} {die}");
                }
            }
        }
        assert_eq!(index_of(&[0; 6]), Some(0));
        assert_eq!(index_of(&[0, 0, 0, 0, 0, 15]), Some(POSITIONS - 1));
        assert_eq!(index_of(&[0, 0, 0, 0, 1, 15]), None);
        assert_eq!(index_of(&[15, 1, 0, 0, 0, 0]), None);
    }
}
