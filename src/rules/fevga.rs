//! Fevga: Gul bara's board and movement (both sides the same way round,
//! one checker holds a point, no hitting) with the starting rule and the
//! limits on walls, and doublets that never escalate.
//!
//! The rules, with their sources, are in docs/RULES.md:
//! - *the starting rule*: until one checker has passed the opponent's
//!   start (the mover's point 12), no second checker leaves the start;
//! - *the starting quarter*: a side never holds all six of its points
//!   19–24 at once;
//! - *the wall*: no six points in a row with every opposing checker behind
//!   them (long nardy's six-block, [`super::nardy::has_illegal_block`]).
//!
//! The walls are judged on the end of the turn (or on every landing, as
//! the `six_block` option says); the starting rule on every step, since the
//! order of the steps decides it: the runner must pass before another
//! checker leaves. Once it has passed, every restriction looks at the ends
//! only, and the generator's fast paths run.

use super::movegen::{MoveGen, StageEnd, StepRules};
use super::nardy::{HEAD, forbidden_row_starts, has_illegal_block, row_of_six_within};
use super::options::SixBlock;
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

/// Whether a checker of `own` has passed the opponent's start (stands below
/// the mover's 12, or is borne off), which frees the start.
#[inline]
pub fn runner_passed(own: Checkers) -> bool {
    own.off() > 0 || own.mask() & ((1 << (OPPONENT_START - 1)) - 1) != 0
}

/// Whether a second checker may not yet leave the start: one has already
/// left and none has passed the opponent's start.
#[inline]
fn start_closed(own: Checkers) -> bool {
    own.at(HEAD) < CHECKERS && !runner_passed(own)
}

/// Whether `own` holds all six points of its starting quarter.
#[inline]
pub fn holds_start_quarter(own: Checkers) -> bool {
    own.mask() & START_QUARTER == START_QUARTER
}

/// Whether the walls of `own` are illegal against `opp`: the whole starting
/// quarter held, or six in a row with no opposing checker ahead.
#[inline]
pub fn illegal_walls(own: Checkers, opp: Checkers) -> bool {
    holds_start_quarter(own) || has_illegal_block(own, opp)
}

/// The Fevga restrictions for one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FevgaSteps {
    /// The starting rule still binds when the stage begins.
    pub start_pending: bool,
    /// When the walls are judged.
    pub six_block: SixBlock,
    /// Whether the stage could make a wall at all (the starting quarter is
    /// one of the rows [`row_of_six_within`] looks at); `true` is always
    /// safe.
    pub walls_possible: bool,
}

impl Default for FevgaSteps {
    fn default() -> Self {
        FevgaSteps {
            start_pending: true,
            six_block: SixBlock::EndOfTurn,
            walls_possible: true,
        }
    }
}

impl FevgaSteps {
    /// The restrictions of a stage of `dice` played from `pos`.
    pub fn for_stage(pos: Position, dice: StageDice, six_block: SixBlock) -> FevgaSteps {
        FevgaSteps {
            start_pending: !runner_passed(pos.own),
            six_block,
            walls_possible: row_of_six_within(
                pos.own,
                dice.count(),
                forbidden_row_starts(pos.opp) | START_QUARTER_ROW,
            ),
        }
    }
}

impl StepRules for FevgaSteps {
    #[inline]
    fn allows(&self, _start: Checkers, own: Checkers, opp: Checkers, step: Step) -> bool {
        if self.start_pending && step.from == HEAD && start_closed(own) {
            return false;
        }
        if self.walls_possible && self.six_block == SixBlock::PerStep && step.from > step.die {
            let after = own.moved(step.from, step.to());
            return !illegal_walls(after, opp);
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
        !self.walls_possible || !illegal_walls(end.own, end.opp)
    }

    #[inline]
    fn by_ends(&self) -> bool {
        !self.start_pending && self.six_block == SixBlock::EndOfTurn
    }

    #[inline]
    fn end_ok(&self, _start: Checkers, end: Position) -> bool {
        !self.walls_possible || !illegal_walls(end.own, end.opp)
    }
}

/// Convenience: every distinct end of a Fevga stage and the number of
/// playable dice.
pub fn stage_ends(pos: Position, dice: StageDice, six_block: SixBlock) -> (Vec<StageEnd>, u8) {
    let mut out = Vec::new();
    let rules = FevgaSteps::for_stage(pos, dice, six_block);
    let n = MoveGen::with_rules(rules).generate(pos, dice, &mut out);
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(points: &[(u8, u8)]) -> Checkers {
        let mut c = [0u8; 24];
        for &(p, n) in points {
            c[p as usize - 1] = n;
        }
        Checkers::from_counts(&c).unwrap()
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
        let (e, n) = stage_ends(pos, same(6), SixBlock::EndOfTurn);
        assert_eq!((e.len(), n, e[0].pos.own.at(18)), (1, 1, 1));
        let (e, n) = stage_ends(pos, same(4), SixBlock::EndOfTurn);
        assert_eq!((e.len(), n, e[0].pos.own.at(16)), (1, 2, 1));
        let (e, n) = stage_ends(pos, same(3), SixBlock::EndOfTurn);
        assert_eq!((e.len(), n, e[0].pos.own.at(15)), (1, 3, 1));
        let (e, n) = stage_ends(pos, same(5), SixBlock::EndOfTurn);
        assert_eq!((e.len(), n), (2, 4));
        let mut got: Vec<Checkers> = e.iter().map(|e| e.pos.own).collect();
        got.sort();
        let mut want = vec![at(&[(24, 13), (19, 1), (9, 1)]), at(&[(24, 14), (4, 1)])];
        want.sort();
        assert_eq!(got, want);
        // 1-1: one checker four steps, 24 to 20.
        let (e, n) = stage_ends(pos, same(1), SixBlock::EndOfTurn);
        assert_eq!((e.len(), n, e[0].pos.own.at(20)), (1, 4, 1));
        // Every non-doublet moves one checker by both dice.
        for a in 1..=6u8 {
            for b in 1..a {
                let (e, n) = stage_ends(pos, StageDice::Pair(a, b), SixBlock::EndOfTurn);
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
        let (e, n) = stage_ends(pos, StageDice::Pair(4, 2), SixBlock::EndOfTurn);
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
        let (e, _) = stage_ends(past, StageDice::Pair(4, 2), SixBlock::EndOfTurn);
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
        let (e, n) = stage_ends(pos, StageDice::Pair(2, 1), SixBlock::EndOfTurn);
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
        let (e, _) = stage_ends(pos, StageDice::Pair(6, 1), SixBlock::EndOfTurn);
        assert!(!e.is_empty());
        for end in &e {
            assert!(!illegal_walls(end.pos.own, end.pos.opp), "{:?}", end.play);
        }
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
                let rules = FevgaSteps::for_stage(*pos, dice, SixBlock::EndOfTurn);
                let mut g = MoveGen::with_rules(rules);
                let n_fast = g.generate(*pos, dice, &mut fast);
                let n_general = g.generate_general(*pos, dice, &mut general);
                assert_eq!(n_fast, n_general, "{pos:?} {dice:?}");
                assert_eq!(fast, general, "{pos:?} {dice:?}");
                checked += fast.len();
            }
        }
        assert!(checked > 100_000, "{checked} ends checked");
    }
}
