//! Exact cubeful money equities of small bear-offs.
//!
//! Once both sides have at most [`MAX_CHECKERS`] checkers left, all home,
//! the money cube needs no model: a two-sided recursion over both sides'
//! arrangements gives the equity of every position with perfect checker
//! play and perfect cube play by both sides, for each place of the cube (in
//! the middle, owned by the side on roll, owned by its opponent). No gammon
//! is possible (each side has borne off at least nine checkers), so the
//! Jacoby rule changes nothing; the side whose board empties first wins one
//! unit of the cube.
//!
//! gnubg does the same with its two-sided bear-off database (six checkers
//! on six points); elsewhere its cube, and ours, interpolate between the
//! dead and the live cube by Janowski's formula
//! ([`crate::cube::janowski`]), which in these positions errs by up to
//! about 0.1 in the equity of a take.
//!
//! The table is computed in memory at first use (924 arrangements a side,
//! 853,776 pairs, three equities each; a fraction of a second) and only for
//! ordinary dice (a doublet plays four of its number): Gul bara's
//! escalating doublets keep the interpolation. `tests/cube_bearoff.rs` checks
//! it against a naive recursion written separately and hand-checked
//! positions, `tests/gnubg_cube.rs` against gnubg's database.

use std::sync::OnceLock;

use crate::cube::janowski::{CubeDecision, CubeView};
use crate::eval::bearoff::{self, Home};
use crate::rules::{GameState, Pending};
use crate::search::ROLLS;

/// The most checkers a side may have left for the exact equities.
pub const MAX_CHECKERS: u8 = 6;

/// Every arrangement the roll `(d1, d2)` can reach from `home`: both dice
/// in either order (four of a doublet), each die moving a checker down or
/// bearing one off; with every checker home every die is playable until
/// the board is empty.
fn ends(home: &Home, d1: u8, d2: u8) -> Vec<Home> {
    let steps = |from: &[Home], die: u8| -> Vec<Home> {
        let mut out = Vec::new();
        for h in from {
            let next = if bearoff::checkers_in(h) == 0 {
                vec![*h]
            } else {
                bearoff::home_steps(h, die)
            };
            for n in next {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    };
    let mut out: Vec<Home> = Vec::new();
    let orders: &[[u8; 4]] = if d1 == d2 {
        &[[d1; 4]]
    } else {
        &[[d1, d2, 0, 0], [d2, d1, 0, 0]]
    };
    for order in orders {
        let mut at = vec![*home];
        for &die in order.iter().filter(|&&d| d != 0) {
            at = steps(&at, die);
        }
        for h in at {
            if !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

fn pips(home: &Home) -> usize {
    home.iter()
        .enumerate()
        .map(|(p, &n)| (p + 1) * usize::from(n))
        .sum()
}

/// The equities of every pair of small arrangements, per unit of the cube,
/// for the side on roll, before its roll.
struct Table {
    /// The arrangements of 0..=[`MAX_CHECKERS`] checkers, the empty one first.
    homes: Vec<Home>,
    /// Local index of each one-sided table index (`u16::MAX`: too many checkers).
    local: Vec<u16>,
    /// No double with the cube in the middle: `[a * n + b]`.
    centre: Vec<f32>,
    /// No double with the cube owned by the side on roll.
    mine: Vec<f32>,
    /// The cube owned by the opponent (no double possible).
    theirs: Vec<f32>,
}

impl Table {
    fn n(&self) -> usize {
        self.homes.len()
    }

    /// The equities (centre, mine, theirs) of pair `k` with the cube
    /// played right: doubling where it gains.
    fn equities(&self, k: usize) -> [f32; 3] {
        let t = self.theirs[k];
        let cash = (2.0 * t).min(1.0);
        [self.centre[k].max(cash), self.mine[k].max(cash), t]
    }

    fn build() -> Table {
        let mut homes: Vec<Home> = (0..bearoff::POSITIONS)
            .filter_map(bearoff::arrangement)
            .filter(|h| bearoff::checkers_in(h) <= MAX_CHECKERS)
            .collect();
        homes.sort_by_key(pips);
        let mut local = vec![u16::MAX; bearoff::POSITIONS];
        for (i, h) in homes.iter().enumerate() {
            if let Some(g) = bearoff::index_of(h) {
                local[g] = i as u16;
            }
        }
        let n = homes.len();
        // The ends of every roll from every arrangement, as local indices.
        let succ: Vec<Vec<Vec<u16>>> = homes
            .iter()
            .map(|h| {
                ROLLS
                    .iter()
                    .map(|&(a, b, _)| {
                        ends(h, a, b)
                            .iter()
                            .filter_map(|e| bearoff::index_of(e).map(|g| local[g]))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let mut t = Table {
            homes,
            local,
            centre: vec![0.0; n * n],
            mine: vec![0.0; n * n],
            theirs: vec![0.0; n * n],
        };
        let max_pips = t.homes.last().map(pips).unwrap_or(0);
        let mut by_pips: Vec<Vec<usize>> = vec![Vec::new(); max_pips + 1];
        for (i, h) in t.homes.iter().enumerate() {
            by_pips[pips(h)].push(i);
        }
        // Every position's successors (the opponent's arrangement against
        // ours after the roll) have fewer pips in all: fill by the total.
        for total in 2..=2 * max_pips {
            for pa in 1..total.min(max_pips + 1) {
                let pb = total - pa;
                if pb == 0 || pb > max_pips {
                    continue;
                }
                for &a in &by_pips[pa] {
                    for &b in &by_pips[pb] {
                        let mut sum = [0.0f32; 3];
                        for (r, &(_, _, w)) in ROLLS.iter().enumerate() {
                            let mut best = [f32::NEG_INFINITY; 3];
                            for &e in &succ[a][r] {
                                let e = usize::from(e);
                                let v = if e == 0 {
                                    // Borne off: a win of one unit.
                                    [1.0; 3]
                                } else {
                                    // The opponent on roll: the cube in the
                                    // middle stays there, ours is theirs.
                                    let [c, m, th] = t.equities(b * n + e);
                                    [-c, -th, -m]
                                };
                                for (slot, value) in best.iter_mut().zip(v) {
                                    *slot = slot.max(value);
                                }
                            }
                            for (acc, value) in sum.iter_mut().zip(best) {
                                *acc += w * value;
                            }
                        }
                        let k = a * n + b;
                        t.centre[k] = sum[0] / 36.0;
                        t.mine[k] = sum[1] / 36.0;
                        t.theirs[k] = sum[2] / 36.0;
                    }
                }
            }
        }
        t
    }

    /// The pair index of `state`, when the table covers it.
    fn pair(&self, state: &GameState) -> Option<usize> {
        if state.variant.escalating() || state.pending != Pending::Roll || state.result().is_some()
        {
            return None;
        }
        let own = bearoff::home_of(state.pos.own)?;
        let opp = bearoff::home_of(state.pos.opp)?;
        if bearoff::checkers_in(&own) > MAX_CHECKERS || bearoff::checkers_in(&opp) > MAX_CHECKERS {
            return None;
        }
        let a = usize::from(self.local[bearoff::index_of(&own)?]);
        let b = usize::from(self.local[bearoff::index_of(&opp)?]);
        (a != 0 && b != 0).then_some(a * self.n() + b)
    }
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(Table::build)
}

/// Whether `state` is a small bear-off the exact equities cover: the side
/// to roll, both sides with 1..=[`MAX_CHECKERS`] checkers left, all home,
/// ordinary dice. Cheap: the table is not built to answer.
pub fn covers(state: &GameState) -> bool {
    let small = |c| {
        bearoff::home_of(c).is_some_and(|h| (1..=MAX_CHECKERS).contains(&bearoff::checkers_in(&h)))
    };
    !state.variant.escalating()
        && state.pending == Pending::Roll
        && state.result().is_none()
        && small(state.pos.own)
        && small(state.pos.opp)
}

/// The exact money equity of the side to roll in `state`, per unit of the
/// cube, the cube where `cube` says and played right by both sides from
/// here; `None` when the position is not covered ([`covers`]).
pub fn money_equity(state: &GameState, cube: CubeView) -> Option<f64> {
    if !covers(state) {
        return None;
    }
    let t = table();
    let [c, m, th] = t.equities(t.pair(state)?);
    Some(f64::from(match cube {
        CubeView::Centre => c,
        CubeView::Mine => m,
        CubeView::Theirs => th,
    }))
}

/// The exact money cube decision of the side to roll in `state` (the cube
/// in the middle or its own; `beavers`: the taker beavers when taking
/// leaves it ahead); `None` when the position is not covered.
pub fn money_decision(state: &GameState, cube: CubeView, beavers: bool) -> Option<CubeDecision> {
    if !covers(state) || cube == CubeView::Theirs {
        return None;
    }
    let t = table();
    let k = t.pair(state)?;
    let no_double = f64::from(match cube {
        CubeView::Mine => t.mine[k],
        _ => t.centre[k],
    });
    let take = 2.0 * f64::from(t.theirs[k]);
    let beaver = beavers && take < 0.0;
    Some(CubeDecision::from_equities(
        no_double,
        take,
        1.0,
        beaver.then_some(2.0 * take),
    ))
}
