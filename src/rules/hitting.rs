//! Stage generation for the hitting games (short nardy, backgammon).
//!
//! The sides run in opposite directions: each keeps its checkers in its own
//! numbering (24 → 1, home 1–6, [`BAR`] the bar), and the mover's point `p` is
//! the opponent's point `25 − p`. A point with two or more opposing checkers
//! is closed; landing on a single one (a blot) sends it to the bar. A side
//! with checkers on the bar enters them all (die `d` on its point `25 − d`)
//! before anything else moves. Bearing off, the must-play rule and the end of
//! the game on the last checker are as in the other games of the family.
//!
//! Equal dice are enumerated with non-increasing sources (the bar first), the
//! most permissive order; every multiset of steps then has one order and,
//! without bearing off, its own end (the landings fix the hits), so no hash
//! set is needed. Two different dice and any bearing off go through a set of
//! end keys: the mover's checkers plus the mask of points hit.

use super::movegen::{EndSet, StageEnd};
use super::position::{BAR, CHECKERS, Checkers, HOME_MASK, Position};
use super::step::{Play, StageDice, Step};

/// The mover's point `p` in the opponent's numbering (and back).
#[inline(always)]
pub const fn mirrored(p: u8) -> u8 {
    25 - p
}

/// Reverses the low 24 bits: a mask in one side's numbering (bit `p − 1`
/// for point `p`) turned into the other's.
#[inline(always)]
pub const fn mirror_mask(m: u32) -> u32 {
    (m << 8).reverse_bits() & 0xFF_FFFF
}

/// Points (mover's numbering, bit `p − 1`) the opponent holds with two or more.
#[inline]
pub fn closed_points(pos: Position) -> u32 {
    mirror_mask(at_least_two(pos.opp))
}

/// Points (mover's numbering) where the opponent has a blot.
#[inline]
pub fn blot_points(pos: Position) -> u32 {
    mirror_mask(pos.opp.mask() & !at_least_two(pos.opp))
}

/// Mask (own numbering) of the points holding two or more checkers.
#[inline]
fn at_least_two(c: Checkers) -> u32 {
    // A nibble n >= 2 has bit 1, 2 or 3 set.
    let x = c.0 >> 4;
    let x = (x >> 1) | (x >> 2) | (x >> 3);
    Checkers((x & 0x1111_1111_1111_1111_1111_1111u128) << 4).mask()
}

/// Why a single step is not legal in a hitting game, or `None` when it is.
pub fn step_problem(pos: Position, step: Step) -> Option<String> {
    let own = pos.own;
    if !(1..=6).contains(&step.die) {
        return Some(format!("no die {}", step.die));
    }
    if own.bar() > 0 && step.from != BAR {
        return Some("checkers on the bar must enter first".into());
    }
    if step.from == 0 || step.from > BAR || own.at(step.from) == 0 {
        return Some(if step.from == BAR {
            "no checker of the mover on the bar".into()
        } else {
            format!("no checker of the mover on {}", step.from)
        });
    }
    if step.from > step.die {
        let to = step.from - step.die;
        if closed_points(pos) & (1 << (to - 1)) != 0 {
            return Some(format!("point {to} is closed by the opponent"));
        }
        return None;
    }
    let occ = own.mask();
    if occ & !HOME_MASK != 0 {
        return Some("cannot bear off before all checkers are home".into());
    }
    if step.from != step.die && occ >> step.from != 0 {
        return Some(format!(
            "a {} bears off from {} only when no checker stands higher",
            step.die, step.from
        ));
    }
    None
}

/// Plays one step known to be legal: moves the checker, and a blot it lands
/// on to the opponent's bar.
pub fn apply_step(pos: Position, step: Step) -> Position {
    let to = step.from.saturating_sub(step.die);
    let mut next = pos;
    next.own = pos.own.moved(step.from, to);
    if to > 0 && pos.opp.at(mirrored(to)) == 1 {
        next.opp = pos.opp.moved(mirrored(to), BAR);
    }
    next
}

/// Whether `step` hits a blot when played in `pos`.
pub fn step_hits(pos: Position, step: Step) -> bool {
    let to = step.from.saturating_sub(step.die);
    to > 0 && pos.opp.at(mirrored(to)) == 1
}

/// Reusable stage generator for the hitting games.
#[derive(Default)]
pub struct HitGen {
    seen: EndSet,
    dedupe: bool,
    max_used: u8,
    own: Checkers,
    opp: Checkers,
    occ: u32,
    closed: u32,
    blots: u32,
    hits: u32,
    play: Play,
}

impl HitGen {
    /// A new generator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills `out` with every distinct end of the stage and returns the
    /// number of dice each legal play uses. With nothing playable, `out`
    /// holds the single unchanged position with the empty play.
    pub fn generate(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        out.clear();
        if pos.is_over() {
            out.push(StageEnd {
                pos,
                play: Play::EMPTY,
            });
            return 0;
        }
        self.own = pos.own;
        self.opp = pos.opp;
        self.occ = pos.own.mask();
        self.closed = closed_points(pos);
        self.blots = blot_points(pos);
        self.hits = 0;
        self.play = Play::EMPTY;
        self.max_used = 0;
        self.seen.clear();
        match dice {
            StageDice::Pair(a, b) if (1..=6).contains(&a) && (1..=6).contains(&b) => {
                self.dedupe = true;
                let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
                self.pair(hi, lo, out);
                if hi != lo {
                    self.pair(lo, hi, out);
                }
                if self.max_used == 1 {
                    // Only one die fits: the larger must be played if it can.
                    if out.iter().any(|e| e.play.steps()[0].die == hi) {
                        out.retain(|e| e.play.steps()[0].die == hi);
                    }
                }
            }
            StageDice::Same { die, count } if (1..=6).contains(&die) && count > 0 => {
                let count = count.min(4);
                self.dedupe = !far_from_home(pos.own, count);
                self.same(die, count, BAR, out);
            }
            _ => {}
        }
        if out.is_empty() {
            out.push(StageEnd {
                pos,
                play: Play::EMPTY,
            });
        }
        self.max_used
    }

    /// The sources the next step may use: the bar while it holds a checker.
    #[inline(always)]
    fn sources(&self) -> u32 {
        if self.own.bar() > 0 {
            1 << (BAR - 1)
        } else {
            self.occ
        }
    }

    #[inline(always)]
    fn can(&self, from: u8, die: u8) -> bool {
        if from > die {
            self.closed & (1 << (from - die - 1)) == 0
        } else {
            from != BAR
                && self.own.bar() == 0
                && self.occ & !HOME_MASK == 0
                && (from == die || self.occ >> from == 0)
        }
    }

    #[inline(always)]
    fn apply(&mut self, from: u8, die: u8) -> (Checkers, Checkers, u32, u32, u32) {
        let saved = (self.own, self.opp, self.occ, self.blots, self.hits);
        let to = from.saturating_sub(die);
        self.own = self.own.moved(from, to);
        if from != BAR && self.own.at(from) == 0 {
            self.occ &= !(1 << (from - 1));
        }
        if to > 0 {
            let bit = 1 << (to - 1);
            self.occ |= bit;
            if self.blots & bit != 0 {
                self.blots &= !bit;
                self.hits |= bit;
                self.opp = self.opp.moved(mirrored(to), BAR);
            }
        }
        self.play.push(Step::new(from, die));
        saved
    }

    #[inline(always)]
    fn undo(&mut self, saved: (Checkers, Checkers, u32, u32, u32)) {
        (self.own, self.opp, self.occ, self.blots, self.hits) = saved;
        self.play.pop();
    }

    #[inline(always)]
    fn record(&mut self, used: u8, out: &mut Vec<StageEnd>) {
        if used < self.max_used {
            return;
        }
        if used > self.max_used {
            self.max_used = used;
            out.clear();
            self.seen.clear();
        }
        // Bits 104.. of the packed checkers are unused: the hits go there.
        if !self.dedupe
            || self
                .seen
                .insert(self.own.0 | (u128::from(self.hits) << 104))
        {
            out.push(StageEnd {
                pos: Position {
                    own: self.own,
                    opp: self.opp,
                },
                play: self.play,
            });
        }
    }

    /// Plays `first` then `second`.
    fn pair(&mut self, first: u8, second: u8, out: &mut Vec<StageEnd>) {
        let mut froms = self.sources();
        while froms != 0 {
            let from = 32 - froms.leading_zeros() as u8;
            froms &= !(1 << (from - 1));
            if !self.can(from, first) {
                continue;
            }
            let saved = self.apply(from, first);
            if self.own.off() == CHECKERS {
                self.record(2, out);
            } else {
                let mut any = false;
                let mut seconds = self.sources();
                while seconds != 0 {
                    let from2 = 32 - seconds.leading_zeros() as u8;
                    seconds &= !(1 << (from2 - 1));
                    if self.can(from2, second) {
                        let saved2 = self.apply(from2, second);
                        self.record(2, out);
                        self.undo(saved2);
                        any = true;
                    }
                }
                if !any {
                    self.record(1, out);
                }
            }
            self.undo(saved);
        }
    }

    /// Plays up to `left` more dice of `die`, sources at or below `top`.
    fn same(&mut self, die: u8, left: u8, top: u8, out: &mut Vec<StageEnd>) {
        let used = self.play.len() as u8;
        let mut froms = self.sources() & (u32::MAX >> (32 - u32::from(top)));
        let mut any = false;
        while froms != 0 {
            let from = 32 - froms.leading_zeros() as u8;
            froms &= !(1 << (from - 1));
            if !self.can(from, die) {
                continue;
            }
            any = true;
            let saved = self.apply(from, die);
            if left == 1 || self.own.off() == CHECKERS {
                self.record(used + left, out);
            } else {
                self.same(die, left - 1, from, out);
            }
            self.undo(saved);
        }
        if !any && used > 0 {
            self.record(used, out);
        }
    }
}

/// Whether `n` steps cannot bear anything off: at least `n` checkers are
/// outside home or on the bar (a step brings at most one of them home).
#[inline]
fn far_from_home(own: Checkers, n: u8) -> bool {
    let mut outside = own.mask() & !HOME_MASK;
    let mut total = own.bar();
    while outside != 0 {
        let p = outside.trailing_zeros() as u8 + 1;
        outside &= outside - 1;
        total += own.at(p);
    }
    total >= n
}

/// The standard start of the hitting games, either side to move.
pub const START: Position = {
    // 2 on 24, 5 on 13, 3 on 8, 5 on 6, in each side's own numbering.
    let c = Checkers(
        (2u128 << (4 * 24)) | (5u128 << (4 * 13)) | (3u128 << (4 * 8)) | (5u128 << (4 * 6)),
    );
    Position { own: c, opp: c }
};

/// Convenience: every distinct end of a stage and the number of playable dice.
pub fn stage_ends(pos: Position, dice: StageDice) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = HitGen::new().generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(own: &[(u8, u8)], own_bar: u8, opp: &[(u8, u8)], opp_bar: u8) -> Position {
        let side = |list: &[(u8, u8)], bar| {
            let mut c = [0u8; 24];
            for &(p, n) in list {
                c[p as usize - 1] = n;
            }
            Checkers::from_counts_with_bar(&c, bar).unwrap()
        };
        Position {
            own: side(own, own_bar),
            opp: side(opp, opp_bar),
        }
    }

    #[test]
    fn start_counts_per_roll() {
        let expected = [
            (2, 1, 15),
            (3, 1, 16),
            (4, 1, 14),
            (5, 1, 8),
            (6, 1, 10),
            (3, 2, 17),
            (4, 2, 18),
            (5, 2, 8),
            (6, 2, 14),
            (4, 3, 17),
            (5, 3, 9),
            (6, 3, 14),
            (5, 4, 9),
            (6, 4, 14),
            (6, 5, 7),
            (1, 1, 42),
            (2, 2, 75),
            (3, 3, 73),
            (4, 4, 52),
            (5, 5, 4),
            (6, 6, 11),
        ];
        for (a, b, n) in expected {
            let (ends, used) = stage_ends(START, StageDice::from_roll(a, b));
            assert_eq!(ends.len(), n, "{a}{b}");
            assert_eq!(used, if a == b { 4 } else { 2 });
        }
    }

    #[test]
    fn masks_mirror() {
        assert_eq!(mirror_mask(1), 1 << 23);
        assert_eq!(mirror_mask(1 << 23), 1);
        // The opponent's 6 (5 checkers) and 8 (3) close the mover's 19 and 17;
        // its 24 (2) and 13 (5) close 1 and 12.
        assert_eq!(closed_points(START), (1 << 18) | (1 << 16) | 1 | (1 << 11));
        assert_eq!(blot_points(START), 0);
    }

    #[test]
    fn a_hit_goes_to_the_bar_and_the_bar_enters_first() {
        // Mover on 13 and the bar; an opponent blot on its 6 (the mover's 19),
        // and two on its 1 (the mover's 24, closed): only the 6 enters, hitting.
        let p = pos(&[(13, 1)], 1, &[(6, 1), (1, 2)], 0);
        let (ends, used) = stage_ends(p, StageDice::Pair(6, 1));
        assert_eq!(used, 2);
        assert_eq!(ends.len(), 2);
        for e in &ends {
            assert_eq!(e.play.steps()[0], Step::new(BAR, 6), "{:?}", e.play);
            assert_eq!(e.pos.own.bar(), 0);
            assert_eq!(e.pos.opp.bar(), 1);
            assert_eq!(e.pos.opp.at(6), 0);
        }
    }

    #[test]
    fn dance_on_a_closed_board() {
        let closed: Vec<(u8, u8)> = (1..=6).map(|q| (q, 2)).collect();
        let p = pos(&[(13, 1)], 1, &closed, 0);
        let (ends, used) = stage_ends(p, StageDice::Pair(6, 5));
        assert_eq!(used, 0);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].pos, p);
    }
}
