//! The pinning games (Plakoto, Tapa): backgammon's directions and start
//! point, and no hitting: a checker that lands on a lone opposing checker
//! pins it, and the pinned checker cannot move until its pinner's point is
//! left.
//!
//! The rules, with their sources, are in docs/RULES.md:
//! - a point is open to the mover unless the opponent has two or more
//!   checkers there, or has one there pinning a checker of the mover's;
//! - landing on a lone free opposing checker pins it; the pinner's side may
//!   then stack more checkers there, the pinned side may not land there;
//! - leaving the point with the last pinning checker frees the pinned one;
//! - a side bears off once all its checkers are home (`pinned_bearoff
//!   home`, the default: a pinned checker in the home counts as home) and,
//!   with `pinned_bearoff refuse`, none is pinned;
//! - the mother rule ([`Position::mothers`]): a side whose last checker on
//!   its start is pinned loses a double game, unless the pinner still has
//!   checkers on its own start; both mothers pinned is a draw. With
//!   `mother_timing step` (the default) the game ends at the step that pins
//!   a mother for good; with `end`, the play goes on and the rule is judged
//!   on its end.
//!
//! The pinned checkers are marked in [`Checkers`] (see
//! [`Checkers::pinned`]), so a position says who is pinned where.
//!
//! Which points are open to the mover does not change while it plays a
//! stage: its landings only pin (the point stays open to it) and its
//! departures only free opposing checkers on points it leaves. Equal dice
//! are therefore enumerated with non-increasing sources, as in the other
//! games, and two different dice in both orders; the end set removes
//! repeats. A play that ends the game (the last checker borne off, or,
//! with `mother_timing step`, a mother pinned for good) counts as playing
//! all its dice, and stops there: so when the opponent's mother stands
//! alone, and a step may end the game before the others are played, equal
//! dice go in every order.
//!
//! With no bearing off possible in the stage and no mother to pin (none
//! alone, or no free checker of the mover's a die or a run of the dice
//! away from it), a stage
//! is Gul bara's with other closed points: the mover's free checkers run
//! past the points closed to them, and the pins at the end follow from
//! where the mover stands. Gul bara's fast paths then play it, on the board
//! without the mover's pinned checkers, which are put back on every end.

use super::hitting::{blot_points, closed_points, mirror_mask, mirrored};
use super::movegen::{EndSet, Masked, SameLimits, StageEnd, fast_paths, game_over_stage};
use super::options::{MotherTiming, PinnedBearoff, RuleOptions};
use super::position::{CHECKERS, Checkers, HOME_MASK, Position};
use super::state::StepProblem;
use super::step::{Play, StageDice, Step};

/// The readings of the pinning rules that the options choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinReadings {
    /// `pinned_bearoff`: whether a pinned checker stops its side bearing off.
    pub pinned_bearoff: PinnedBearoff,
    /// `mother_timing`: when a pinned mother ends the game.
    pub mother_timing: MotherTiming,
}

impl Default for PinReadings {
    fn default() -> Self {
        PinReadings::of(&RuleOptions::for_variant(super::Variant::Plakoto))
    }
}

impl PinReadings {
    /// The readings of `opts`.
    pub fn of(opts: &RuleOptions) -> PinReadings {
        PinReadings {
            pinned_bearoff: opts.pinned_bearoff,
            mother_timing: opts.mother_timing,
        }
    }

    /// Whether a position reached within a play ends it: a side has borne
    /// off every checker or, at the step, a mother is pinned for good.
    #[inline]
    pub fn ends_play(self, pos: Position) -> bool {
        match self.mother_timing {
            MotherTiming::Step => pos.is_over(),
            MotherTiming::End => pos.own.off() == CHECKERS || pos.opp.off() == CHECKERS,
        }
    }
}

/// Why a single step is not legal in a pinning game under the default
/// readings (`pinned_bearoff home`), or `None` when it is.
pub fn step_problem(pos: Position, step: Step) -> Option<StepProblem> {
    step_problem_in(pos, step, PinnedBearoff::Home)
}

/// Why a single step is not legal in a pinning game under `bearoff`, or
/// `None` when it is.
pub fn step_problem_in(pos: Position, step: Step, bearoff: PinnedBearoff) -> Option<StepProblem> {
    let own = pos.own;
    if !(1..=6).contains(&step.die) {
        return Some(StepProblem::NoSuchDie { die: step.die });
    }
    if !(1..=24).contains(&step.from) || own.at(step.from) == 0 {
        return Some(StepProblem::NoChecker { from: step.from });
    }
    if own.pinned(step.from) {
        return Some(StepProblem::Pinned { from: step.from });
    }
    if step.from > step.die {
        let to = step.from - step.die;
        if !open(pos, to) {
            return Some(StepProblem::Closed { to });
        }
        return None;
    }
    if own.mask() & !HOME_MASK != 0 {
        return Some(StepProblem::NotAllHome);
    }
    if bearoff == PinnedBearoff::Refuse && own.pinned_mask() != 0 {
        return Some(StepProblem::PinnedBearOff);
    }
    if step.from != step.die && own.mask() >> step.from != 0 {
        return Some(StepProblem::HigherChecker {
            die: step.die,
            from: step.from,
        });
    }
    None
}

/// Whether `step` is legal under `bearoff` in `pos`: exactly when
/// [`step_problem_in`] finds nothing, without writing why (the generator's
/// check).
#[inline]
pub fn step_ok_in(pos: Position, step: Step, bearoff: PinnedBearoff) -> bool {
    let own = pos.own;
    if !(1..=6).contains(&step.die) || !(1..=24).contains(&step.from) {
        return false;
    }
    if own.at(step.from) == 0 || own.pinned(step.from) {
        return false;
    }
    if step.from > step.die {
        return open(pos, step.from - step.die);
    }
    own.mask() & !HOME_MASK == 0
        && !(bearoff == PinnedBearoff::Refuse && own.pinned_mask() != 0)
        && (step.from == step.die || own.mask() >> step.from == 0)
}

/// Whether the mover may land on its point `to`: no opposing point of two
/// or more there, nor an opposing checker pinning one of the mover's.
#[inline]
pub fn open(pos: Position, to: u8) -> bool {
    match pos.opp.at(mirrored(to)) {
        0 => true,
        1 => !pos.own.pinned(to),
        _ => false,
    }
}

/// Plays a legal step: a landing on a lone free opposing checker pins it,
/// and leaving the last pinning checker's point frees the one under it.
pub fn apply_step(pos: Position, step: Step) -> Position {
    let to = step.to();
    let own = pos.own.moved(step.from, to);
    let mut opp = pos.opp;
    if to > 0 {
        let q = mirrored(to);
        if opp.at(q) == 1 && pos.own.at(to) == 0 {
            opp = opp.with_pin(q, true);
        }
    }
    let from_q = mirrored(step.from);
    if own.at(step.from) == 0 && opp.pinned(from_q) {
        opp = opp.with_pin(from_q, false);
    }
    Position { own, opp }
}

/// Whether the step lands on a lone free opposing checker (and so pins it).
pub fn step_pins(pos: Position, step: Step) -> bool {
    let to = step.to();
    to > 0 && pos.own.at(to) == 0 && pos.opp.at(mirrored(to)) == 1
}

/// Reusable stage generator for the pinning games.
#[derive(Default)]
pub struct PinGen {
    seen: EndSet,
    best: u8,
    play: Play,
    /// Equal dice tried in every order of their sources.
    any_order: bool,
    /// The readings of the rules played.
    readings: PinReadings,
}

impl PinGen {
    /// A new generator (the default readings).
    pub fn new() -> Self {
        Self::default()
    }

    /// A new generator of `readings`.
    pub fn with_readings(readings: PinReadings) -> Self {
        PinGen {
            readings,
            ..Self::default()
        }
    }

    /// Plays `readings` from now on.
    pub fn set_readings(&mut self, readings: PinReadings) {
        self.readings = readings;
    }

    /// Whether a step may pin a mother for good and so end the play before
    /// its other dice (the opponent's start down to one checker, the
    /// mother judged at the step).
    #[inline]
    fn may_end_early(&self, pos: Position) -> bool {
        self.readings.mother_timing == MotherTiming::Step && pos.opp.at(24) == 1
    }

    /// Fills `out` with every distinct end of the stage and returns the
    /// number of dice each legal play uses (a play that ends the game
    /// counts as all of them). With nothing playable, `out` holds the
    /// unchanged position with the empty play.
    pub fn generate(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        if game_over_stage(pos, out) {
            return 0;
        }
        let early = self.may_end_early(pos);
        if !(early && mother_pin_possible(pos, dice))
            && let Some(used) = fast_stage(pos, dice, 0, out)
        {
            return used;
        }
        // The opponent's mother alone and free, the mover's start empty:
        // a step ends the game exactly when it lands on the mover's 1 (see
        // `fast_stage`). With the mover's start not empty, the game ends at
        // the step that empties it after the pin, which may come after
        // steps from lower points: the general enumeration then tries every
        // order.
        if early
            && pos.own.at(24) == 0
            && matches!(dice, StageDice::Same { .. })
            && let Some(used) = fast_stage(pos, dice, 1, out)
        {
            return used;
        }
        self.general(pos, dice, out)
    }

    fn general(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        self.seen.clear();
        self.best = 0;
        self.play = Play::EMPTY;
        self.any_order = false;
        let total = dice.count();
        match dice {
            StageDice::Pair(a, b) if a != b => {
                let (hi, lo) = if a > b { (a, b) } else { (b, a) };
                self.walk(pos, &[hi, lo], 0, 25, total, out);
                self.walk(pos, &[lo, hi], 0, 25, total, out);
                if self.best == 1 && out.iter().any(|e| e.play.steps()[0].die == hi) {
                    // Only one die fits: the larger must be played if it can.
                    out.retain(|e| e.play.steps()[0].die == hi);
                }
            }
            _ => {
                let list = dice.dice();
                self.any_order = self.may_end_early(pos);
                self.walk(pos, &list, 0, 25, total, out);
            }
        }
        if out.is_empty() {
            out.push(StageEnd::stay(pos));
        }
        self.best
    }

    /// Plays `dice[i..]` from `pos` in order; with equal dice the sources
    /// never increase (`max_from`), the one order of each multiset.
    fn walk(
        &mut self,
        pos: Position,
        dice: &[u8],
        i: usize,
        max_from: u8,
        total: u8,
        out: &mut Vec<StageEnd>,
    ) {
        let used = i as u8;
        let over = self.readings.ends_play(pos);
        let counted = if over { total } else { used };
        if counted >= self.best && used > 0 {
            if counted > self.best {
                self.best = counted;
                out.clear();
                self.seen.clear();
            }
            if self.seen.insert(pos.own.0) {
                out.push(StageEnd {
                    pos,
                    play: self.play,
                });
            }
        }
        if over || i == dice.len() {
            return;
        }
        let die = dice[i];
        let equal_next = i > 0 && dice[i - 1] == die;
        let top = if equal_next && !self.any_order {
            max_from
        } else {
            24
        };
        let mut m = pos.own.mask() & !pos.own.pinned_mask();
        while m != 0 {
            let from = 32 - m.leading_zeros() as u8;
            m &= !(1 << (from - 1));
            if from > top {
                continue;
            }
            let step = Step::new(from, die);
            if !step_ok_in(pos, step, self.readings.pinned_bearoff) {
                continue;
            }
            self.play.push(step);
            self.walk(apply_step(pos, step), dice, i + 1, from, total, out);
            self.play.pop();
        }
    }
}

#[cfg(test)]
impl crate::rules::testing::GeneralEnumeration for PinGen {
    fn general_stage(&mut self, pos: Position, dice: StageDice, out: &mut Vec<StageEnd>) -> u8 {
        self.general(pos, dice, out)
    }
}

/// Whether a step of the stage `dice` might end the game by the mother
/// rule: the opponent's mother is already pinned (the mover emptying its own
/// start would end the game), or a free checker of the mover's stands where
/// one die, or a run of the dice in a row, would take it onto the mother
/// (the mover's 1). Ignores what stands between: `true` is always safe.
///
/// The game ends by the mother only once the mover's own start is empty
/// too (or its own mother is pinned: both pinned is a draw), and no step
/// lands on the mover's 1 from its 24 (23 is no multiple of a die): with
/// `need` checkers on the mover's start still to leave, ending the game
/// takes `need` steps from it, which need a die whose landing from 24 is
/// open (the points open to the mover do not change within its stage), and
/// the steps left to bring a checker onto a mother not yet pinned.
#[inline]
fn mother_pin_possible(pos: Position, dice: StageDice) -> bool {
    let need = if pos.own.pinned(24) {
        0
    } else {
        pos.own.at(24)
    };
    if need > 0 {
        let leaves = match dice {
            StageDice::Pair(a, b) => open_from_start(pos, a) || open_from_start(pos, b),
            StageDice::Same { die, .. } => open_from_start(pos, die),
        };
        if !leaves {
            return false;
        }
    }
    if pos.opp.pinned(24) {
        return need <= dice.count();
    }
    if need >= dice.count() {
        return false;
    }
    let left = dice.count() - need;
    let free = pos.own.mask() & !pos.own.pinned_mask();
    // Bit p - 1 is the mover's point p: the sources are the points 1 + s
    // for each sum s a play of the steps left can reach 1 with.
    let sources = match dice {
        StageDice::Pair(a, b) if left >= 2 => (1u32 << a) | (1 << b) | (1 << (a + b)),
        StageDice::Pair(a, b) => (1u32 << a) | (1 << b),
        StageDice::Same { die, .. } => (1..=left).fold(0u32, |m, k| m | (1 << (k * die))),
    };
    free & sources != 0
}

/// Whether a checker can leave the mover's start (its 24) with `die`.
#[inline]
fn open_from_start(pos: Position, die: u8) -> bool {
    (1..=6).contains(&die) && open(pos, 24 - die)
}

/// The stage by Gul bara's fast paths, when they apply (no bearing off
/// possible): the mover's pinned checkers set aside, the points closed to
/// it blocked, and every end's pins made from where the mover stands.
///
/// With `stop` 0, only for a stage in which no play can end the game early
/// (no mother can be pinned at a step: the opponent's start not down to one
/// checker, or the mother judged at the end of the play).
///
/// With `stop` the mover's point 1 (bit 0), for equal dice only, when the
/// opponent's mother stands alone and free there, the mother is judged at
/// the step and the mover has no checker on its own start: a landing there
/// pins the mother for good and ends the game, and nothing else can end it
/// (no bearing off). That landing comes from the lowest source a step can
/// have without bearing off (1 + the die), so in the non-increasing order
/// of equal dice it is the last step of its multiset, and every play that
/// ends at it has that order: the fast path stops there and counts the
/// play as every die, as the general enumeration does.
///
/// With the mover still on its start this order is not enough: 7/1 7/1
/// 24/18 with 6-6 (the pin first, the start emptied last) ends the game
/// only at its third step, and no non-increasing order of those steps is
/// legal (24/18 first would end it at 7/1). The test
/// `the_mother_ends_the_play_in_an_order_no_fast_path_takes` keeps it.
fn fast_stage(pos: Position, dice: StageDice, stop: u32, out: &mut Vec<StageEnd>) -> Option<u8> {
    let pinned = pos.own.pinned_mask();
    let mut back = 0u128;
    let mut m = pinned;
    while m != 0 {
        back += 1u128 << (4 * (m.trailing_zeros() + 1));
        m &= m - 1;
    }
    let free = Position {
        own: Checkers(pos.own.unpinned().0 - back),
        opp: pos.opp,
    };
    let at = Masked {
        pos: free,
        occ: free.own.mask(),
        blocked: closed_points(pos) | pinned,
    };
    let used = match (stop, dice) {
        (0, _) => fast_paths::<false, false>(at, dice, SameLimits::NONE, out)?,
        (_, StageDice::Same { .. }) => {
            let limits = SameLimits { stop, from_24: 4 };
            fast_paths::<true, false>(at, dice, limits, out)?
        }
        _ => return None,
    };
    // A lone opposing checker is pinned at the end exactly where the mover
    // stands on it (and is not itself pinned there).
    let blots = blot_points(pos) & !pinned;
    for e in out.iter_mut() {
        let own = Checkers(e.pos.own.0 + back).with_pinned_mask(pinned);
        let opp = pos.opp.with_pinned_mask(mirror_mask(blots & own.mask()));
        e.pos = Position { own, opp };
    }
    Some(used)
}

/// Convenience: every distinct end of a pinning-game stage and the number
/// of playable dice (the default readings).
pub fn stage_ends(pos: Position, dice: StageDice) -> (Vec<StageEnd>, u8) {
    stage_ends_in(pos, dice, PinReadings::default())
}

/// Convenience: every distinct end of a pinning-game stage under
/// `readings` and the number of playable dice.
pub fn stage_ends_in(pos: Position, dice: StageDice, readings: PinReadings) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = PinGen::with_readings(readings).generate(pos, dice, &mut out);
    (out, n)
}

/// Whether `c` could be one side of a pinning-game position against
/// `other` (both in their own numbering): every pinned checker alone on its
/// point under an opposing one, and no point shared otherwise.
pub fn pins_consistent(c: Checkers, other: Checkers) -> Result<(), u8> {
    for p in 1..=24u8 {
        let (mine, theirs) = (c.at(p), other.at(mirrored(p)));
        let pinned = c.pinned(p);
        // A pinned checker is alone, under a free opposing one.
        if pinned && (mine != 1 || theirs == 0 || other.pinned(mirrored(p))) {
            return Err(p);
        }
        if mine > 0 && theirs > 0 && !pinned && !(theirs == 1 && other.pinned(mirrored(p))) {
            return Err(p);
        }
    }
    if c.bar() > 0 || c.off() > CHECKERS {
        return Err(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
