//! Shared helpers of the rules-core tests: a naive reference generator that
//! knows nothing of `MoveGen` (a plain White-view `[i8; 24]` board, every
//! order of every step tried), and a sampler of reachable positions.
#![allow(dead_code)]

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use gulbara::game::{Chooser, RandomChooser, play_choosers};
use gulbara::notation::white_view;
use gulbara::rules::dice::SeededDice;
use gulbara::rules::{GameState, Position, RuleOptions, Side, StageEnd};

/// White's point (1..=24) for `side`'s own point `q`.
pub fn white_point(side: Side, q: usize) -> usize {
    match side {
        Side::White => q,
        Side::Black => {
            if q <= 12 {
                q + 12
            } else {
                q - 12
            }
        }
    }
}

/// The mover's checkers by own point (index 0: borne off) and the closed
/// points (own numbering), from a White-view board.
pub fn mover_arrays(board: &[i8; 24], side: Side) -> ([u8; 25], [bool; 25]) {
    let sign: i8 = if side == Side::White { 1 } else { -1 };
    let mut own = [0u8; 25];
    let mut blocked = [false; 25];
    let mut on_board = 0u8;
    for (q, (o, b)) in own.iter_mut().zip(blocked.iter_mut()).enumerate().skip(1) {
        let v = board[white_point(side, q) - 1] * sign;
        if v > 0 {
            *o = v as u8;
            on_board += v as u8;
        } else if v < 0 {
            *b = true;
        }
    }
    own[0] = 15 - on_board;
    (own, blocked)
}

/// The White-view board after the mover's checkers became `own`.
pub fn board_with(board: &[i8; 24], side: Side, own: &[u8; 25]) -> [i8; 24] {
    let sign: i8 = if side == Side::White { 1 } else { -1 };
    let mut out = *board;
    for v in out.iter_mut() {
        if *v * sign > 0 {
            *v = 0;
        }
    }
    for (q, &n) in own.iter().enumerate().skip(1) {
        if n > 0 {
            let w = white_point(side, q) - 1;
            assert_eq!(out[w], 0, "two colours on White's point {}", w + 1);
            out[w] = n as i8 * sign;
        }
    }
    out
}

/// Whether the mover may move a checker from own point `from` by `die`.
pub fn naive_legal(own: &[u8; 25], blocked: &[bool; 25], from: usize, die: usize) -> bool {
    if !(1..=24).contains(&from) || own[from] == 0 {
        return false;
    }
    if from > die {
        return !blocked[from - die];
    }
    // Bearing off: every checker home, and a higher die only from the
    // highest occupied point.
    let all_home = (7..=24).all(|q| own[q] == 0);
    all_home && (from == die || (from + 1..=6).all(|q| own[q] == 0))
}

/// Moves a checker (no check); returns whether that bore off the last one.
pub fn naive_move(own: &mut [u8; 25], from: usize, die: usize) -> bool {
    own[from] -= 1;
    let to = from.saturating_sub(die);
    own[to] += 1;
    own[0] == 15
}

/// A cheap hasher for the test's own sets (debug builds hash a lot here).
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
}

/// A hash set with [`Fx`].
pub type FxSet<T> = HashSet<T, BuildHasherDefault<Fx>>;

/// Packs checker counts (index 0 the borne-off count) into one key.
fn pack(own: &[u8; 25]) -> u128 {
    own.iter()
        .enumerate()
        .fold(0u128, |k, (i, &n)| k | (u128::from(n) << (4 * i)))
}

fn unpack(key: u128) -> [u8; 25] {
    let mut own = [0u8; 25];
    for (i, o) in own.iter_mut().enumerate() {
        *o = ((key >> (4 * i)) & 0xF) as u8;
    }
    own
}

/// A leaf of the enumeration: end, dice used, first die played.
type Leaf = (u128, usize, u8);

/// Tries every die left on every point, in every order. A node (checkers,
/// dice left, first die) already explored is not explored again: its
/// subtree would be the same.
#[allow(clippy::too_many_arguments)]
fn explore(
    own: [u8; 25],
    key: u128,
    blocked: &[bool; 25],
    left: &[u8],
    total: usize,
    first: u8,
    seen: &mut FxSet<(u128, usize, u8)>,
    leaves: &mut Vec<Leaf>,
) {
    // The dice left are fixed by their number and the first die played.
    if !seen.insert((key, left.len(), first)) {
        return;
    }
    let used = total - left.len();
    let mut any = false;
    // Checked once per node: every checker home, and the highest point held.
    let all_home = (7..=24).all(|q| own[q] == 0);
    let highest = (1..=24).rev().find(|&q| own[q] > 0).unwrap_or(0);
    for i in 0..left.len() {
        let die = left[i];
        if left[..i].contains(&die) {
            continue;
        }
        let d = die as usize;
        let mut rest = [0u8; 4];
        let n = left.len() - 1;
        rest[..i].copy_from_slice(&left[..i]);
        rest[i..n].copy_from_slice(&left[i + 1..]);
        for from in 1..=highest {
            let legal = own[from] > 0
                && if from > d {
                    !blocked[from - d]
                } else {
                    all_home && (from == d || from == highest)
                };
            if !legal {
                continue;
            }
            any = true;
            let mut next = own;
            let done = naive_move(&mut next, from, d);
            let to = from.saturating_sub(d);
            let next_key = key - (1u128 << (4 * from)) + (1u128 << (4 * to));
            let f = if used == 0 { die } else { first };
            if done || n == 0 {
                // The last checker ends the play: it counts as complete.
                leaves.push((next_key, total, f));
            } else {
                explore(next, next_key, blocked, &rest[..n], total, f, seen, leaves);
            }
        }
    }
    if !any {
        leaves.push((key, used, first));
    }
}

/// Every distinct end of a stage of `dice` played by `side` from a
/// White-view board, as the mover's packed checkers (four bits a point in
/// the mover's numbering, bits 0..4 the borne-off count; the layout of
/// `Checkers`), sorted; and the number of dice each legal play uses.
pub fn naive_stage_keys(board: &[i8; 24], side: Side, dice: &[u8]) -> (Vec<u128>, usize) {
    let (own, blocked) = mover_arrays(board, side);
    let opp_sign = if side == Side::White { -1 } else { 1 };
    if own[0] == 15 || board.iter().all(|&v| v * opp_sign <= 0) {
        // A finished game: nothing to play.
        return (vec![pack(&own)], 0);
    }
    let mut seen = FxSet::default();
    let mut leaves = Vec::new();
    explore(
        own,
        pack(&own),
        &blocked,
        dice,
        dice.len(),
        0,
        &mut seen,
        &mut leaves,
    );
    let max = leaves.iter().map(|l| l.1).max().unwrap_or(0);
    let mut best: Vec<Leaf> = leaves.into_iter().filter(|l| l.1 == max).collect();
    let pair = dice.len() == 2 && dice[0] != dice[1];
    if pair && max == 1 {
        // Only one die fits: the larger must be played if it can be.
        let larger = dice[0].max(dice[1]);
        if best.iter().any(|l| l.2 == larger) {
            best.retain(|l| l.2 == larger);
        }
    }
    let mut keys: Vec<u128> = best.into_iter().map(|l| l.0).collect();
    keys.sort_unstable();
    keys.dedup();
    (keys, max)
}

/// [`naive_stage_keys`] with the ends as White-view boards.
pub fn naive_stage(board: &[i8; 24], side: Side, dice: &[u8]) -> (HashSet<[i8; 24]>, usize) {
    let (keys, max) = naive_stage_keys(board, side, dice);
    let ends = keys
        .into_iter()
        .map(|k| board_with(board, side, &unpack(k)))
        .collect();
    (ends, max)
}

/// White-view board of a mover-view position.
pub fn board_of(pos: Position, side: Side) -> [i8; 24] {
    white_view(&GameState {
        pos,
        ..GameState::start_of(gulbara::rules::Variant::GulBara, side)
    })
}

/// Distinct White-view boards met while random players play seeded games
/// (every state a player had to choose in), until `n` are collected.
pub fn reachable_boards(n: usize, seed: u64) -> Vec<[i8; 24]> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let opts = RuleOptions::default();
    let mut game = 0u64;
    while out.len() < n {
        let mut boards: Vec<[i8; 24]> = Vec::new();
        {
            let mut white = RandomChooser::new(seed ^ (game * 2 + 1));
            let mut black = RandomChooser::new(seed ^ (game * 2 + 2));
            let mut w = |s: &GameState, e: &[StageEnd]| {
                boards.push(board_of(s.pos, s.to_move));
                white.choose(s, e)
            };
            let mut b_boards: Vec<[i8; 24]> = Vec::new();
            let mut b = |s: &GameState, e: &[StageEnd]| {
                b_boards.push(board_of(s.pos, s.to_move));
                black.choose(s, e)
            };
            play_choosers(
                &opts,
                &mut SeededDice::new(seed.wrapping_add(game)),
                &mut w,
                &mut b,
            );
            boards.extend(b_boards);
        }
        // Every other decision, to spread the sample over more games.
        for b in boards.into_iter().step_by(2) {
            if out.len() < n && seen.insert(b) {
                out.push(b);
            }
        }
        game += 1;
    }
    out
}
