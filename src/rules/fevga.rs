//! Fevga: Gul bara's board and movement (both sides the same way round,
//! one checker holds a point, no hitting) with the starting rule and the
//! limits on walls, and doublets that never escalate.
//!
//! The rules, with their sources, are in docs/RULES.md:
//! - *the starting rule*: until one checker has passed the opponent's
//!   start (the mover's point 12; `start_rule quarter`: reached the
//!   opponent's starting quarter, the mover's 12 or lower), no second
//!   checker leaves the start;
//! - *the starting quarter*: a side never holds all six of its points
//!   19–24 at once;
//! - *the wall*: with `prime ban`, no six points in a row with every
//!   opposing checker behind them (long nardy's six-block,
//!   [`super::nardy::has_illegal_block`]); with `prime duty` (the default)
//!   such a prime is allowed, but once every opposing checker left on the
//!   board stands on the point right behind it ([`prime_duty`]) its owner
//!   must open it: among the plays that use the most dice (and, of two
//!   dice, the larger when only one fits), one that leaves no such wall,
//!   if any does ([`keep_duty`]).
//!
//! The walls are judged on the end of the turn (or on every landing, as
//! the `six_block` option says); the starting rule on every step, since the
//! order of the steps decides it: the runner must pass before another
//! checker leaves. Once it has passed, every restriction looks at the ends
//! only, and the generator's fast paths run.

use super::movegen::{MoveGen, StageEnd, StepRules};
use super::nardy::{HEAD, forbidden_row_starts, has_illegal_block, row_of_six_within};
use super::options::{Prime, RuleOptions, SixBlock, StartRule};
use super::position::{CHECKERS, Checkers, Position};
use super::step::{StageDice, Step};

/// The opponent's start in the mover's numbering: the runner has passed it
/// once it stands lower.
pub const OPPONENT_START: u8 = 12;

/// The mover's starting quarter (points 19–24) in an occupancy mask.
const START_QUARTER: u32 = 0x3F << 18;

/// The starting quarter as a row of [`row_of_six_within`]: the opponent's
/// points 7–12.
const START_QUARTER_ROW: u32 = 1 << 6;

/// The highest point of the mover's on which a checker frees the start
/// under `rule`: 11 (past the opponent's start) or 12 (in the opponent's
/// starting quarter).
pub const fn start_line(rule: StartRule) -> u8 {
    match rule {
        StartRule::Pass => OPPONENT_START - 1,
        StartRule::Quarter => OPPONENT_START,
    }
}

/// Whether a checker of `own` has passed the opponent's start (stands below
/// the mover's 12, or is borne off), which frees the start.
#[inline]
pub fn runner_passed(own: Checkers) -> bool {
    runner_beyond(own, start_line(StartRule::Pass))
}

/// Whether a checker of `own` stands on `line` or lower, or is borne off.
#[inline]
fn runner_beyond(own: Checkers, line: u8) -> bool {
    own.off() > 0 || own.mask() & ((1 << line) - 1) != 0
}

/// Whether `own` holds all six points of its starting quarter.
#[inline]
pub fn holds_start_quarter(own: Checkers) -> bool {
    own.mask() & START_QUARTER == START_QUARTER
}

/// Whether the walls of `own` are illegal against `opp` under `prime ban`:
/// the whole starting quarter held, or six in a row with no opposing
/// checker ahead.
#[inline]
pub fn illegal_walls(own: Checkers, opp: Checkers) -> bool {
    holds_start_quarter(own) || has_illegal_block(own, opp)
}

/// Whether the mover of `pos` must open a prime this turn (`prime duty`):
/// every opposing checker left on the board stands on one point, and the
/// mover holds the six points right in front of it (in the opponent's
/// direction of travel), so the opponent has no step at all.
#[inline]
pub fn prime_duty(pos: Position) -> bool {
    let opp = pos.opp.mask();
    if opp == 0 || opp & (opp - 1) != 0 {
        return false;
    }
    // The opponent's point q (its numbering) is bit q - 1; the row of six
    // in front of it, points q - 6..=q - 1, starts at bit q - 7.
    let q = opp.trailing_zeros() + 1;
    if q < 7 {
        return false;
    }
    let m = pos.own.mask_in_other_numbering();
    let rows = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & (m >> 5);
    rows & (1 << (q - 7)) != 0
}

/// Applies the duty to open a prime to the ends of a stage played from
/// `pos` under `prime`: when [`prime_duty`] binds, only the ends that leave
/// no six in a row with every opposing checker behind stay, if any does (a
/// play of fewer dice is never preferred for opening: the dice come first).
pub fn keep_duty(prime: Prime, pos: Position, out: &mut Vec<StageEnd>) {
    if prime != Prime::Duty || !prime_duty(pos) {
        return;
    }
    let opened = |e: &StageEnd| !has_illegal_block(e.pos.own, e.pos.opp);
    if out.iter().any(opened) {
        out.retain(opened);
    }
}

/// The Fevga restrictions for one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FevgaSteps {
    /// The starting rule still binds when the stage begins.
    pub start_pending: bool,
    /// A checker on this point or lower frees the start ([`start_line`]).
    pub start_line: u8,
    /// When the walls are judged.
    pub six_block: SixBlock,
    /// Whether six in a row with every opposing checker behind is illegal
    /// (`ban`) or only the starting quarter is (`duty`).
    pub prime: Prime,
    /// Whether the stage could make a wall at all (the starting quarter is
    /// one of the rows [`row_of_six_within`] looks at); `true` is always
    /// safe.
    pub walls_possible: bool,
}

impl Default for FevgaSteps {
    fn default() -> Self {
        FevgaSteps {
            start_pending: true,
            start_line: start_line(StartRule::Pass),
            six_block: SixBlock::EndOfTurn,
            prime: Prime::Duty,
            walls_possible: true,
        }
    }
}

impl FevgaSteps {
    /// The restrictions of a stage of `dice` played from `pos` under the
    /// options `opts`.
    pub fn for_stage(pos: Position, dice: StageDice, opts: &RuleOptions) -> FevgaSteps {
        let line = start_line(opts.start_rule);
        let rows = match opts.prime {
            Prime::Ban => forbidden_row_starts(pos.opp),
            Prime::Duty => 0,
        };
        FevgaSteps {
            start_pending: !runner_beyond(pos.own, line),
            start_line: line,
            six_block: opts.six_block,
            prime: opts.prime,
            walls_possible: row_of_six_within(pos.own, dice.count(), rows | START_QUARTER_ROW),
        }
    }

    /// Whether a side's walls are illegal under these restrictions.
    #[inline]
    fn illegal(&self, own: Checkers, opp: Checkers) -> bool {
        holds_start_quarter(own) || (self.prime == Prime::Ban && has_illegal_block(own, opp))
    }

    /// Whether a second checker may not yet leave the start: one has
    /// already left and none has freed it.
    #[inline]
    fn start_closed(&self, own: Checkers) -> bool {
        own.at(HEAD) < CHECKERS && !runner_beyond(own, self.start_line)
    }
}

impl StepRules for FevgaSteps {
    #[inline]
    fn allows(&self, _start: Checkers, own: Checkers, opp: Checkers, step: Step) -> bool {
        if self.start_pending && step.from == HEAD && self.start_closed(own) {
            return false;
        }
        if self.walls_possible && self.six_block == SixBlock::PerStep && step.from > step.die {
            let after = own.moved(step.from, step.to());
            return !self.illegal(after, opp);
        }
        true
    }

    #[inline]
    fn any_order(&self) -> bool {
        // Before the runner passes, a head checker may only leave after
        // the runner's steps, which the usual high-to-low order of the
        // sources would try first; per step, a lower checker moving first
        // can break a wall a higher one's landing would complete.
        self.start_pending || self.six_block == SixBlock::PerStep
    }

    #[inline]
    fn end_allowed(&self, end: Position) -> bool {
        !self.walls_possible || !self.illegal(end.own, end.opp)
    }

    #[inline]
    fn by_ends(&self) -> bool {
        !self.start_pending && self.six_block == SixBlock::EndOfTurn
    }

    #[inline]
    fn end_ok(&self, _start: Checkers, end: Position) -> bool {
        !self.walls_possible || !self.illegal(end.own, end.opp)
    }
}

/// Fills `out` with every distinct end of a Fevga stage under `opts` (the
/// duty to open a prime applied) and returns the number of dice each legal
/// play uses, as [`MoveGen::generate`].
pub fn generate(
    movegen: &mut MoveGen<FevgaSteps>,
    opts: &RuleOptions,
    pos: Position,
    dice: StageDice,
    out: &mut Vec<StageEnd>,
) -> u8 {
    movegen.set_rules(FevgaSteps::for_stage(pos, dice, opts));
    let n = movegen.generate(pos, dice, out);
    keep_duty(opts.prime, pos, out);
    n
}

/// Convenience: every distinct end of a Fevga stage and the number of
/// playable dice.
pub fn stage_ends(pos: Position, dice: StageDice, opts: &RuleOptions) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let n = generate(&mut MoveGen::default(), opts, pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{at, fast_matches_general};

    /// Fevga's options with the prime banned (today's reading before the
    /// `prime` option existed).
    fn ban() -> RuleOptions {
        let mut o = RuleOptions::for_variant(crate::rules::Variant::Fevga);
        o.prime = Prime::Ban;
        o
    }

    fn same(die: u8) -> StageDice {
        StageDice::Same { die, count: 4 }
    }

    /// The first turn, as the Russian rules page (aipbg.ru) works it: the
    /// opponent's start on the mover's 12 stops the runner on 6-6, 4-4
    /// and 3-3, so no second checker leaves; 5-5 passes it on the third
    /// five, and the fourth may take a second checker off the start.
    #[test]
    fn the_first_turns_doublets() {
        let pos = Position::START;
        let (e, n) = stage_ends(pos, same(6), &ban());
        assert_eq!((e.len(), n, e[0].pos.own.at(18)), (1, 1, 1));
        let (e, n) = stage_ends(pos, same(4), &ban());
        assert_eq!((e.len(), n, e[0].pos.own.at(16)), (1, 2, 1));
        let (e, n) = stage_ends(pos, same(3), &ban());
        assert_eq!((e.len(), n, e[0].pos.own.at(15)), (1, 3, 1));
        let (e, n) = stage_ends(pos, same(5), &ban());
        assert_eq!((e.len(), n), (2, 4));
        let mut got: Vec<Checkers> = e.iter().map(|e| e.pos.own).collect();
        got.sort();
        let mut want = vec![at(&[(24, 13), (19, 1), (9, 1)]), at(&[(24, 14), (4, 1)])];
        want.sort();
        assert_eq!(got, want);
        // 1-1: one checker four steps, 24 to 20.
        let (e, n) = stage_ends(pos, same(1), &ban());
        assert_eq!((e.len(), n, e[0].pos.own.at(20)), (1, 4, 1));
        // Every non-doublet moves one checker by both dice.
        for a in 1..=6u8 {
            for b in 1..a {
                let (e, n) = stage_ends(pos, StageDice::Pair(a, b), &ban());
                assert_eq!((e.len(), n), (1, 2), "{a}{b}");
                assert_eq!(e[0].pos.own.at(24 - a - b), 1, "{a}{b}");
            }
        }
    }

    #[test]
    fn the_runner_frees_the_start_once_past_the_opponents() {
        // The runner on 13: a 2 takes it to 11 (a 4 to 9), past the
        // opponent's start, and the other die may then take a second
        // checker off the start; 24/20 or 24/22 first would leave the
        // start before the runner has passed.
        let pos = Position {
            own: at(&[(24, 14), (13, 1)]),
            opp: at(&[(24, 15)]),
        };
        let (e, n) = stage_ends(pos, StageDice::Pair(4, 2), &ban());
        assert_eq!(n, 2);
        let mut got: Vec<Checkers> = e.iter().map(|e| e.pos.own).collect();
        got.sort();
        let mut want = vec![
            at(&[(24, 14), (7, 1)]),           // 13/9/7 or 13/11/7
            at(&[(24, 13), (20, 1), (11, 1)]), // 13/11 then 24/20
            at(&[(24, 13), (22, 1), (9, 1)]),  // 13/9 then 24/22
        ];
        want.sort();
        assert_eq!(got, want);
        // Every play lists the runner's step first.
        for end in &e {
            assert_eq!(end.play.steps()[0].from, 13, "{:?}", end.play);
        }
        // With the runner already past, any checker may leave the start.
        let past = Position {
            own: at(&[(24, 14), (10, 1)]),
            opp: at(&[(24, 15)]),
        };
        let (e, _) = stage_ends(past, StageDice::Pair(4, 2), &ban());
        assert!(e.iter().any(|e| e.pos.own.at(24) == 12));
    }

    #[test]
    fn the_starting_quarter_is_never_held_whole() {
        // 19–23 held with the start: 24 on 23 would be fine, but leaving
        // 19..24 all held is not; the play must leave a gap.
        let own = at(&[(24, 5), (22, 1), (21, 1), (20, 1), (19, 1), (10, 6)]);
        assert!(!holds_start_quarter(own));
        assert!(holds_start_quarter(own.moved(24, 23)));
        let pos = Position {
            own,
            opp: at(&[(24, 15)]),
        };
        let (e, n) = stage_ends(pos, StageDice::Pair(2, 1), &ban());
        assert_eq!(n, 2);
        assert!(!e.is_empty());
        for end in &e {
            assert!(!holds_start_quarter(end.pos.own), "{:?}", end.play);
        }
        // 24/23 with the 1 then 10/8 with the 2 would hold all six.
        assert!(
            !e.iter()
                .any(|x| x.pos.own == own.moved(24, 23).moved(10, 8))
        );
    }

    #[test]
    fn no_wall_of_six_with_every_opposing_checker_behind() {
        // The mover's 14..18 held and a checker on 20: 20/19 would make six
        // in a row (19..14) with all fifteen opposing checkers behind it.
        let own = at(&[(18, 1), (17, 1), (16, 1), (15, 1), (14, 1), (20, 1), (5, 9)]);
        let pos = Position {
            own,
            opp: at(&[(24, 15)]),
        };
        assert!(has_illegal_block(own.moved(20, 13), pos.opp));
        let (e, _) = stage_ends(pos, StageDice::Pair(6, 1), &ban());
        assert!(!e.is_empty());
        for end in &e {
            assert!(!illegal_walls(end.pos.own, end.pos.opp), "{:?}", end.play);
        }
    }

    /// A prime of six with every opposing checker behind it: banned under
    /// `ban`, allowed under `duty` until the opponent's checkers all stand
    /// on the point right behind it, then it must be opened.
    #[test]
    fn the_prime_by_the_option() {
        let duty = RuleOptions::for_variant(crate::rules::Variant::Fevga);
        assert_eq!(duty.prime, Prime::Duty);
        // The mover holds its 14..18; 20/19 with the 1 would make six.
        // The opponent: 10 on its start (the mover's 12), 5 on its 22
        // (the mover's 10): behind the row, not all on one point.
        let own = at(&[(18, 1), (17, 1), (16, 1), (15, 1), (14, 1), (20, 1), (5, 9)]);
        let opp = at(&[(24, 10), (20, 5)]);
        let pos = Position { own, opp };
        let prime = own.moved(20, 19);
        assert!(has_illegal_block(prime, opp));
        let six = |e: &Vec<StageEnd>| e.iter().any(|x| x.pos.own.moved(5, 4) == prime);
        let (e, _) = stage_ends(pos, StageDice::Pair(6, 1), &ban());
        assert!(!six(&e));
        let (e, n) = stage_ends(pos, same(1), &duty);
        assert_eq!(n, 4);
        let made = prime.moved(5, 4).moved(5, 4).moved(5, 4);
        assert!(e.iter().any(|x| x.pos.own == made));
        assert!(!prime_duty(Position { own: made, opp }));

        // All fifteen on the opponent's start (the mover's 12) right
        // behind the mover's 6..11: the mover must open the prime.
        let own = at(&[(11, 2), (10, 1), (9, 1), (8, 1), (7, 1), (6, 1), (3, 8)]);
        let opp = at(&[(24, 15)]);
        let trapped = Position { own, opp };
        assert!(prime_duty(trapped));
        assert!(!prime_duty(Position {
            own: own.moved(6, 5),
            opp
        }));
        for dice in [StageDice::Pair(2, 1), StageDice::Pair(6, 5), same(1)] {
            let mut free = RuleOptions::for_variant(crate::rules::Variant::Fevga);
            free.prime = Prime::Duty;
            let mut raw = Vec::new();
            let mut g = MoveGen::with_rules(FevgaSteps::for_stage(trapped, dice, &free));
            let n_raw = g.generate(trapped, dice, &mut raw);
            let (e, n) = stage_ends(trapped, dice, &duty);
            // The duty keeps the dice and drops only the ends that keep
            // the opponent trapped.
            assert_eq!(n, n_raw, "{dice:?}");
            assert!(raw.iter().any(|x| has_illegal_block(x.pos.own, opp)));
            assert!(!e.is_empty());
            assert!(e.iter().all(|x| !has_illegal_block(x.pos.own, opp)));
            let opened = raw.iter().filter(|x| !has_illegal_block(x.pos.own, opp));
            assert_eq!(opened.count(), e.len(), "{dice:?}");
        }
        // Where no play of the most dice opens it, any of them stands: the
        // prime on 1..6 (all home, the opponent all on its 19, the mover's
        // 7); 5-5 plays 6/1 and 5/off only, and five on each of 6 and 5
        // cannot be emptied by four fives.
        let own = at(&[(6, 5), (5, 5), (4, 2), (3, 1), (2, 1), (1, 1)]);
        let opp = at(&[(19, 15)]);
        let home = Position { own, opp };
        assert!(prime_duty(home));
        let (e, n) = stage_ends(home, same(5), &duty);
        assert_eq!(n, 4);
        assert!(e.iter().all(|x| has_illegal_block(x.pos.own, opp)));
        assert!(!e.is_empty());
    }

    /// `start_rule quarter`: a checker on the mover's 12 (the opponent's
    /// start, empty) frees the start; under `pass` it must go lower.
    #[test]
    fn the_start_rule_by_the_option() {
        let pos = Position {
            own: at(&[(24, 14), (13, 1)]),
            opp: at(&[(20, 15)]),
        };
        let mut quarter = ban();
        quarter.start_rule = StartRule::Quarter;
        // 13/12 with the 1, then 24/18 with the 6.
        let want = at(&[(24, 13), (18, 1), (12, 1)]);
        let (e, n) = stage_ends(pos, StageDice::Pair(6, 1), &quarter);
        assert_eq!(n, 2);
        assert!(e.iter().any(|x| x.pos.own == want));
        let (e, n) = stage_ends(pos, StageDice::Pair(6, 1), &ban());
        assert_eq!(n, 2);
        assert!(!e.iter().any(|x| x.pos.own == want));
        // Under `pass` the runner must go on to 11 or lower first.
        assert!(
            e.iter()
                .all(|x| x.pos.own.at(24) == 14 || x.pos.own.at(7) == 1)
        );
    }

    /// The fast paths give exactly the general enumeration's ends, in the
    /// same order with the same plays, and the same number of dice, on
    /// positions of seeded random Fevga games, for every roll.
    #[test]
    fn fast_paths_equal_the_general_enumeration() {
        let positions =
            crate::rules::dice::random_game_positions(crate::rules::Variant::Fevga, 60, 29, 400);
        assert!(positions.len() > 3000, "{}", positions.len());
        let mut rolls: Vec<StageDice> = Vec::new();
        for a in 1..=6u8 {
            for b in 1..a {
                rolls.push(StageDice::Pair(a, b));
            }
            rolls.push(same(a));
        }
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for pos in &positions {
            for &dice in &rolls {
                let rules = FevgaSteps::for_stage(*pos, dice, &ban());
                let mut g = MoveGen::with_rules(rules);
                fast_matches_general(&mut g, *pos, dice, &mut fast, &mut general);
                checked += fast.len();
            }
        }
        assert!(checked > 100_000, "{checked} ends checked");
    }
}
