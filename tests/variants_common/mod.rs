//! Shared helpers of the long-nardy and hitting-game tests: a seeded PRNG,
//! plain-array boards, and a naive reference generator for each rule set
//! that knows nothing of `MoveGen` / `HitGen`: a breadth-first walk over
//! every legal step with every die left, in every order, on `[u8; 26]`
//! boards, whose reached states are then judged by the must-play rules read
//! literally.
#![allow(dead_code)]

use std::collections::BTreeSet;

use gulbara::rules::nardy::LongNardySteps;
use gulbara::rules::options::SixBlock;
use gulbara::rules::{Checkers, Position, StageDice, StageEnd};

/// splitmix64: small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the bias is negligible for small n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The 21 distinct rolls as stages (doublets as four equal dice).
pub fn all_rolls() -> Vec<StageDice> {
    let mut v = Vec::new();
    for a in 1..=6u8 {
        for b in 1..=a {
            v.push(StageDice::from_roll(a, b));
        }
    }
    v
}

/// Partial stages of one to three equal dice.
pub fn partial_stages() -> Vec<StageDice> {
    let mut v = Vec::new();
    for die in 1..=6u8 {
        for count in 1..=3u8 {
            v.push(StageDice::Same { die, count });
        }
    }
    v
}

/// The dice of a stage as a list.
pub fn dice_list(dice: StageDice) -> Vec<u8> {
    match dice {
        StageDice::Pair(a, b) => vec![a, b],
        StageDice::Same { die, count } => vec![die; usize::from(count)],
    }
}

/// Fails, with how many mismatches there are and the first five, unless
/// `failures` is empty.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// How many dice of each value (1..=6) `list` holds.
pub fn die_counts(list: &[u8]) -> [u8; 7] {
    let mut counts = [0u8; 7];
    for &d in list {
        counts[usize::from(d)] += 1;
    }
    counts
}

/// Of `reached` (a node and the dice it used), the most dice any used and
/// the nodes that used that many.
pub fn most_used<'a, N: 'a>(
    reached: impl Iterator<Item = &'a (N, u8)> + Clone,
) -> (u8, Vec<&'a N>) {
    let most = reached.clone().map(|(_, u)| *u).max().unwrap_or(0);
    let nodes = reached
        .filter(|(_, u)| *u == most)
        .map(|(n, _)| n)
        .collect();
    (most, nodes)
}

/// One side as a plain array: index 0 borne off, 1..=24 points, 25 the bar.
pub type Side = [u8; 26];

/// Unpacks checkers nibble by nibble.
pub fn side_of(c: Checkers) -> Side {
    let mut s = [0u8; 26];
    for (i, v) in s.iter_mut().enumerate() {
        *v = ((c.0 >> (4 * i)) & 0xF) as u8;
    }
    s
}

/// Packs a plain array.
pub fn checkers_of(s: &Side) -> Checkers {
    Checkers(
        s.iter()
            .enumerate()
            .fold(0u128, |k, (i, &n)| k | (u128::from(n) << (4 * i))),
    )
}

/// A position from two plain arrays (mover first).
pub fn position_of(own: &Side, opp: &Side) -> Position {
    Position {
        own: checkers_of(own),
        opp: checkers_of(opp),
    }
}

/// A side from `(point, count)` pairs (point 25 the bar), the rest borne off.
pub fn side_from(list: &[(usize, u8)]) -> Side {
    let mut s = [0u8; 26];
    for &(p, n) in list {
        assert!((1..=25).contains(&p));
        s[p] += n;
    }
    let on: u8 = s.iter().sum();
    assert!(on <= 15, "{list:?}");
    s[0] = 15 - on;
    s
}

/// An end as compared: both sides' arrays.
pub type End = (Side, Side);

/// A naive result: every distinct end and the number of dice each uses.
pub struct Naive {
    pub ends: BTreeSet<End>,
    pub playable: u8,
}

/// A node of the walk.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    own: Side,
    opp: Side,
    /// Dice left per value.
    left: [u8; 7],
    /// The first die played (0 before any).
    first: u8,
    /// Checkers that left the head (long nardy).
    heads: u8,
}

/// The walk: `step(node, from, die)` gives the node after a legal step (dice
/// bookkeeping done here), `end_ok` whether a play may end there. Every
/// reached node is a candidate play end; the most dice wins (the last
/// checker borne off counts as all of them when `last_counts_all`, as in
/// Gul bara and long nardy; in the hitting games, as gnubg counts, only as
/// the dice it used, though a stage whose plays all end the game reports
/// every die played); with two different dice of which only one is played,
/// the larger when some play uses it.
fn walk(
    own: Side,
    opp: Side,
    dice: StageDice,
    last_counts_all: bool,
    step: impl Fn(&Node, usize, u8) -> Option<Node>,
    end_ok: impl Fn(&Node) -> bool,
) -> Naive {
    let list = dice_list(dice);
    let total = list.len() as u8;
    let left = die_counts(&list);
    let start = Node {
        own,
        opp,
        left,
        first: 0,
        heads: 0,
    };
    // (node, used) candidates.
    let mut reached: Vec<(Node, u8)> = vec![(start.clone(), 0)];
    let mut level: BTreeSet<Node> = BTreeSet::from([start]);
    for used in 1..=total {
        let mut next = BTreeSet::new();
        for node in &level {
            if node.own[0] == 15 {
                continue;
            }
            for die in 1..=6u8 {
                if node.left[usize::from(die)] == 0 {
                    continue;
                }
                for from in 1..=25 {
                    if let Some(mut n) = step(node, from, die) {
                        n.left[usize::from(die)] -= 1;
                        if n.first == 0 {
                            n.first = die;
                        }
                        next.insert(n);
                    }
                }
            }
        }
        for n in &next {
            let u = if n.own[0] == 15 && last_counts_all {
                total
            } else {
                used
            };
            reached.push((n.clone(), u));
        }
        level = next;
    }
    let candidates: Vec<&(Node, u8)> = reached
        .iter()
        .filter(|(n, u)| *u == 0 || end_ok(n))
        .collect();
    let (playable, mut best) = most_used(candidates.into_iter());
    if let (StageDice::Pair(a, b), 1) = (dice, playable) {
        let hi = a.max(b);
        if a != b && best.iter().any(|n| n.first == hi) {
            best.retain(|n| n.first == hi);
        }
    }
    // Plays that all end the game count as playing every die.
    let playable = if playable > 0 && best.iter().all(|n| n.own[0] == 15) {
        total
    } else {
        playable
    };
    Naive {
        ends: best.iter().map(|n| (n.own, n.opp)).collect(),
        playable,
    }
}

// ---------------------------------------------------------------- long nardy

/// The mover's point `p` in the opponent's numbering (same direction).
pub fn nardy_other(p: usize) -> usize {
    if p > 12 { p - 12 } else { p + 12 }
}

/// Whether `own` holds six or more points in a row along the opponent's
/// path (consecutive in the opponent's numbering, 24 down to 1) with no
/// checker of `opp` below the row's lowest point nor borne off.
pub fn naive_illegal_six(own: &Side, opp: &Side) -> bool {
    // held[q]: the mover holds the opponent's point q.
    let mut held = [false; 25];
    for (p, &n) in own.iter().enumerate().take(25).skip(1) {
        if n > 0 {
            held[nardy_other(p)] = true;
        }
    }
    let mut q = 1;
    while q <= 24 {
        if !held[q] {
            q += 1;
            continue;
        }
        let lo = q;
        while q <= 24 && held[q] {
            q += 1;
        }
        let len = q - lo;
        if len >= 6 {
            let ahead = opp[0] > 0 || (1..lo).any(|r| opp[r] > 0);
            if !ahead {
                return true;
            }
        }
    }
    false
}

/// Long nardy's rules for the naive walk.
#[derive(Clone, Copy, Debug)]
pub struct NaiveNardy {
    pub head_limit: u8,
    pub per_step: bool,
    /// False: the six-block rule switched off (to see where it bites).
    pub six_rule: bool,
}

impl NaiveNardy {
    pub fn from_rules(r: LongNardySteps) -> NaiveNardy {
        NaiveNardy {
            head_limit: r.head_limit,
            per_step: r.six_block == SixBlock::PerStep,
            six_rule: true,
        }
    }
}

/// One long-nardy step on plain arrays, or `None` when it is not legal
/// (common rules, the head rule, and per step the six-block rule).
fn nardy_step(r: NaiveNardy, node: &Node, from: usize, die: u8) -> Option<Node> {
    if from == 24 && node.heads >= r.head_limit {
        return None;
    }
    let mut n = running_step(node, from, die)?;
    if from == 24 {
        n.heads += 1;
    }
    if r.six_rule && r.per_step && naive_illegal_six(&n.own, &n.opp) {
        return None;
    }
    Some(n)
}

/// One step of the same-direction games (Gul bara's board) on plain
/// arrays under their common rules alone, or `None` when it is not legal:
/// a checker of the mover's on `from`, any opposing checker closing the
/// landing point, bearing off once every checker is home (a higher die
/// only from the highest point).
fn running_step(node: &Node, from: usize, die: u8) -> Option<Node> {
    if !(1..=24).contains(&from) || node.own[from] == 0 {
        return None;
    }
    let d = usize::from(die);
    let mut n = node.clone();
    if from > d {
        let to = from - d;
        if node.opp[nardy_other(to)] > 0 {
            return None;
        }
        n.own[from] -= 1;
        n.own[to] += 1;
        Some(n)
    } else {
        bear_off(node, n, from, d)
    }
}

/// Bears off the checker `node` has on `from` with die `d` (`from` ≤ `d`),
/// in `n`, a copy of `node`; `None` when it may not: a checker of the side's
/// is still outside its home (on 7..=24), or the die is higher than the
/// point while a checker stands higher.
fn bear_off(node: &Node, mut n: Node, from: usize, d: usize) -> Option<Node> {
    if (7..=24).any(|p| node.own[p] > 0) {
        return None;
    }
    if from != d && (from + 1..=6).any(|p| node.own[p] > 0) {
        return None;
    }
    n.own[from] -= 1;
    n.own[0] += 1;
    Some(n)
}

/// The naive long-nardy stage.
pub fn naive_nardy(pos: Position, dice: StageDice, r: NaiveNardy) -> Naive {
    walk(
        side_of(pos.own),
        side_of(pos.opp),
        dice,
        true,
        |node, from, die| nardy_step(r, node, from, die),
        |node| !r.six_rule || !naive_illegal_six(&node.own, &node.opp),
    )
}

/// The head rule of a side's first turn, read naively: whether a doublet
/// lets a second checker leave the head.
pub fn naive_first_turn_second(pos: Position, die: u8, option: &str) -> bool {
    match option {
        "needs_second" => {
            // With one head checker only, can all four dice be played?
            let one = NaiveNardy {
                head_limit: 1,
                per_step: false,
                six_rule: false,
            };
            let played = naive_nardy(pos, StageDice::Same { die, count: 4 }, one).playable;
            played < 4
        }
        "fixed_3_4_6" => matches!(die, 3 | 4 | 6),
        "fixed_4_6" => matches!(die, 4 | 6),
        "any_double" => true,
        _ => panic!("unknown head option {option}"),
    }
}

/// The long-nardy start: 15 on each side's 24.
pub fn nardy_start() -> Position {
    let s = side_from(&[(24, 15)]);
    position_of(&s, &s)
}

// -------------------------------------------------------------------- Fevga

/// Whether `own` holds every point of its starting quarter, 19 to 24.
pub fn naive_full_start_quarter(own: &Side) -> bool {
    (19..=24).all(|p| own[p] > 0)
}

/// Whether the mover's walls break Fevga's rules: the starting quarter
/// held whole, or six in a row with no opposing checker ahead.
pub fn naive_fevga_walls(own: &Side, opp: &Side) -> bool {
    naive_full_start_quarter(own) || naive_illegal_six(own, opp)
}

/// Fevga's rule options for the naive walk.
#[derive(Clone, Copy, Debug)]
pub struct NaiveFevga {
    /// The walls judged at every landing (`six_block per_step`).
    pub per_step: bool,
    /// `prime ban`: no six in a row with every opposing checker behind;
    /// `false` (`duty`): such a prime stands, but must be opened once the
    /// opponent's checkers all stand right behind it.
    pub ban: bool,
    /// `start_rule quarter`: reaching the opponent's starting quarter (the
    /// mover's 12 or lower) frees the start; `false`: passing the
    /// opponent's start (11 or lower).
    pub quarter: bool,
}

/// The walls a Fevga side may not hold under `r`: the whole starting
/// quarter, and under `ban` a six with every opposing checker behind.
pub fn naive_fevga_walls_in(r: NaiveFevga, own: &Side, opp: &Side) -> bool {
    naive_full_start_quarter(own) || (r.ban && naive_illegal_six(own, opp))
}

/// One Fevga step on plain arrays, or `None` when it is not legal: the
/// common rules, then the starting rule read literally (a checker leaves
/// the start while another is away from it only when some checker stands
/// past the opponent's start, below the mover's 12, or is borne off; with
/// `quarter`, on the mover's 12 or below), and per step the walls.
fn fevga_step(r: NaiveFevga, node: &Node, from: usize, die: u8) -> Option<Node> {
    if from == 24 {
        let away = 15 - node.own[24];
        let line = if r.quarter { 12 } else { 11 };
        let past = node.own[0] > 0 || (1..=line).any(|p| node.own[p] > 0);
        if away > 0 && !past {
            return None;
        }
    }
    let n = running_step(node, from, die)?;
    if r.per_step && naive_fevga_walls_in(r, &n.own, &n.opp) {
        return None;
    }
    Some(n)
}

/// Whether the opponent of `own` is shut in as the duty to open a prime
/// reads it: every opposing checker on the board stands on one point of
/// its, and the mover holds the six points right in front of it.
pub fn naive_trapped(own: &Side, opp: &Side) -> bool {
    let on: Vec<usize> = (1..=24).filter(|&q| opp[q] > 0).collect();
    let [q] = on[..] else {
        return false;
    };
    q >= 7 && (q - 6..q).all(|r| (1..=24).any(|p| own[p] > 0 && nardy_other(p) == r))
}

/// The naive Fevga stage under `r` before the duty to open a prime.
pub fn naive_fevga_without_duty(pos: Position, dice: StageDice, r: NaiveFevga) -> Naive {
    walk(
        side_of(pos.own),
        side_of(pos.opp),
        dice,
        true,
        |node, from, die| fevga_step(r, node, from, die),
        |node| !naive_fevga_walls_in(r, &node.own, &node.opp),
    )
}

/// The naive Fevga stage under `r`.
pub fn naive_fevga(pos: Position, dice: StageDice, r: NaiveFevga) -> Naive {
    let mut naive = naive_fevga_without_duty(pos, dice, r);
    // The duty comes after the dice: of the plays that use the most (the
    // larger die when only one fits), those that leave no six with every
    // opposing checker behind, if any does.
    if !r.ban && naive_trapped(&side_of(pos.own), &side_of(pos.opp)) {
        let open: BTreeSet<End> = naive
            .ends
            .iter()
            .filter(|(own, opp)| !naive_illegal_six(own, opp))
            .cloned()
            .collect();
        if !open.is_empty() {
            naive.ends = open;
        }
    }
    naive
}

// ------------------------------------------------------------ hitting games

/// One hitting-game step on plain arrays, or `None` when it is not legal.
fn hit_step(node: &Node, from: usize, die: u8) -> Option<Node> {
    if node.own[from] == 0 || (node.own[25] > 0 && from != 25) {
        return None;
    }
    let d = usize::from(die);
    let mut n = node.clone();
    if from > d {
        let to = from - d;
        let q = 25 - to;
        match node.opp[q] {
            0 => {}
            1 => {
                n.opp[q] = 0;
                n.opp[25] += 1;
            }
            _ => return None,
        }
        n.own[from] -= 1;
        n.own[to] += 1;
        Some(n)
    } else if node.own[25] > 0 {
        None
    } else {
        bear_off(node, n, from, d)
    }
}

/// The naive hitting-game stage.
pub fn naive_hitting(pos: Position, dice: StageDice) -> Naive {
    walk(
        side_of(pos.own),
        side_of(pos.opp),
        dice,
        false,
        hit_step,
        |_| true,
    )
}

// ------------------------------------------------------------- comparison

/// The generator's ends as a set; an error when one is listed twice.
pub fn ends_set(out: &[StageEnd]) -> Result<BTreeSet<End>, String> {
    let mut set = BTreeSet::new();
    for e in out {
        if !set.insert((side_of(e.pos.own), side_of(e.pos.opp))) {
            return Err(format!("end listed twice: {:?}", e.pos));
        }
    }
    Ok(set)
}

/// Compares a generator result with the naive one.
pub fn same_result(
    what: &str,
    pos: Position,
    dice: StageDice,
    out: &[StageEnd],
    playable: u8,
    naive: &Naive,
) -> Result<(), String> {
    let got = ends_set(out).map_err(|e| format!("{what} {pos:?} {dice:?}: {e}"))?;
    if playable != naive.playable || got != naive.ends {
        let extra: Vec<&End> = got.difference(&naive.ends).collect();
        let missing: Vec<&End> = naive.ends.difference(&got).collect();
        return Err(format!(
            "{what}: own {:?} opp {:?} dice {dice:?}: playable {playable}, naive {}; \
             {} ends, naive {}; extra {extra:?}; missing {missing:?}",
            side_of(pos.own),
            side_of(pos.opp),
            naive.playable,
            got.len(),
            naive.ends.len()
        ));
    }
    Ok(())
}

/// Checkers per side across points, bar and off.
pub fn total(s: &Side) -> u32 {
    s.iter().map(|&n| u32::from(n)).sum()
}
