//! The rule set of each game: its start, its steps, its stage generator and
//! its scoring, chosen once per game by [`Variant`].
//!
//! Each rules module's generator is a separate, statically dispatched type
//! (Gul bara's [`MoveGen`], long nardy's `MoveGen<LongNardySteps>`, Fevga's
//! `MoveGen<FevgaSteps>`, the hitting games' [`HitGen`]); [`StageGen`] holds
//! them all and picks one per call with a single `match` on the variant's
//! [`RulesModule`], so no step of the enumeration goes through a virtual
//! call.

use super::fevga::{self, FevgaSteps};
use super::hitting::{self, HitGen};
use super::movegen::{MoveGen, StageEnd, step_is_legal};
use super::nardy::LongNardySteps;
use super::options::{RuleOptions, Variant};
use super::pinning::{self, PinGen, PinReadings};
use super::position::{CHECKERS, Checkers, Position};
use super::state::{GameState, StepProblem, step_illegal_reason};
use super::step::{StageDice, Step};
use super::variant::{Direction, Landing, RulesModule};

impl Variant {
    /// The starting position (either side to move: every start is symmetric).
    pub const fn start(self) -> Position {
        self.spec().start
    }

    /// The mover's point `p` in the opponent's numbering.
    pub const fn opponent_point(self, p: u8) -> u8 {
        match self.spec().direction {
            Direction::Opposite => 25 - p,
            Direction::Same => super::position::other_numbering(p),
        }
    }

    /// Why `step` breaks the common rules of the variant in `pos`, or `None`.
    pub fn step_problem(self, pos: Position, step: Step) -> Option<StepProblem> {
        match self.spec().landing {
            Landing::Hit => hitting::step_problem(pos, step),
            Landing::Pin => pinning::step_problem(pos, step),
            Landing::Blocked if step_is_legal(pos, step) => None,
            Landing::Blocked => Some(step_illegal_reason(pos, step)),
        }
    }

    /// Whether `step` is legal under the common rules of the variant.
    pub fn step_legal(self, pos: Position, step: Step) -> bool {
        match self.spec().landing {
            Landing::Hit => hitting::step_problem(pos, step).is_none(),
            Landing::Pin => pinning::step_problem(pos, step).is_none(),
            Landing::Blocked => step_is_legal(pos, step),
        }
    }

    /// Plays a legal step (a hit sends the blot to the bar, a landing on a
    /// lone checker of a pinning game pins it).
    pub fn apply_step(self, pos: Position, step: Step) -> Position {
        match self.spec().landing {
            Landing::Hit => hitting::apply_step(pos, step),
            Landing::Pin => pinning::apply_step(pos, step),
            Landing::Blocked => {
                let mut next = pos;
                next.own = pos.own.moved(step.from, step.to());
                next
            }
        }
    }

    /// Points the winner scores against `loser` (the loser's checkers, in
    /// its own numbering), as the variant's [`Scores`](super::variant::Scores) say: single when it
    /// has borne off, double (mars, gammon) when it has not, triple (a
    /// backgammon) where the game scores it when it also still has a
    /// checker on the bar or in the winner's home.
    pub fn points_won(self, loser: Checkers) -> u8 {
        let scores = self.spec().scores;
        if loser.off() > 0 {
            return scores.single;
        }
        if let Some(triple) = scores.triple {
            // The winner's home (its 1–6) is the loser's 19–24.
            let in_winners_home = (19..=24).any(|p| loser.at(p) > 0);
            if loser.bar() > 0 || in_winners_home {
                return triple;
            }
        }
        scores.double
    }
}

impl RuleOptions {
    /// Why `step` breaks the rules of single steps of this game under these
    /// options in `pos` (as [`Variant::step_problem`], with the readings of
    /// the options that judge single steps), or `None`.
    pub fn step_problem(&self, pos: Position, step: Step) -> Option<StepProblem> {
        match self.variant.spec().landing {
            Landing::Pin => pinning::step_problem_in(pos, step, self.pinned_bearoff),
            _ => self.variant.step_problem(pos, step),
        }
    }

    /// Whether a position reached within a play ends the play (and the
    /// game): a side has borne off every checker or, where the options
    /// judge the mother rule at the step that pins, a mother is pinned for
    /// good.
    pub fn ends_play(&self, pos: Position) -> bool {
        match self.variant.spec().landing {
            Landing::Pin => PinReadings::of(self).ends_play(pos),
            _ => pos.is_over(),
        }
    }
}

/// A stage generator for every variant (keeps its buffers between calls).
#[derive(Default)]
pub struct StageGen {
    gul_bara: MoveGen,
    long_nardy: MoveGen<LongNardySteps>,
    fevga: MoveGen<FevgaSteps>,
    hitting: HitGen,
    pinning: PinGen,
}

impl StageGen {
    /// A new generator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills `out` with every distinct end of the stage `dice` of `state`
    /// (played by its side to move under `opts`) and returns the number of
    /// dice each legal play uses; as [`MoveGen::generate`].
    pub fn generate(
        &mut self,
        opts: &RuleOptions,
        state: &GameState,
        dice: StageDice,
        out: &mut Vec<StageEnd>,
    ) -> u8 {
        self.generate_at(opts, state, state.pos, dice, out)
    }

    /// As [`StageGen::generate`] from `pos` (a position inside the turn of
    /// `state`, e.g. a search's own trial), with `state`'s turn context.
    pub fn generate_at(
        &mut self,
        opts: &RuleOptions,
        state: &GameState,
        pos: Position,
        dice: StageDice,
        out: &mut Vec<StageEnd>,
    ) -> u8 {
        match state.variant.spec().module {
            RulesModule::Running => self.gul_bara.generate(pos, dice, out),
            RulesModule::LongNardy => {
                let first_turn = state.rolls[state.to_move.index()] <= 1;
                let rules = LongNardySteps::for_turn(
                    pos,
                    dice,
                    first_turn,
                    opts.head_first_turn,
                    opts.six_block,
                );
                self.long_nardy.set_rules(rules);
                self.long_nardy.generate(pos, dice, out)
            }
            RulesModule::Fevga => fevga::generate(&mut self.fevga, opts, pos, dice, out),
            RulesModule::Hitting => self.hitting.generate(pos, dice, out),
            RulesModule::Pinning => {
                self.pinning.set_readings(PinReadings::of(opts));
                self.pinning.generate(pos, dice, out)
            }
        }
    }
}

/// Why a position is not one of its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Checkers on the bar in a game without hitting.
    #[error("{0} has no bar")]
    NoBar(Variant),
    /// Both colours on one point.
    #[error("both sides have checkers on the mover's point {0}")]
    SharedPoint(u8),
    /// A pin where the game has none, or one that cannot be (a pinned
    /// checker alone under at least one opposing checker).
    #[error("no pin can be on the mover's point {0}")]
    BadPin(u8),
    /// Nobody has anything left to play.
    #[error("both sides have borne off all checkers")]
    BothFinished,
}

/// Whether `pos` is a valid position of `variant` (15 checkers a side over
/// points, bar and off, as [`Checkers`] guarantees; no point shared by both
/// colours; no bar outside the hitting games; not both sides finished).
pub fn check_position(variant: Variant, pos: Position) -> Result<(), PositionError> {
    if !variant.spec().landing.has_bar() && (pos.own.bar() > 0 || pos.opp.bar() > 0) {
        return Err(PositionError::NoBar(variant));
    }
    if variant.spec().landing == Landing::Pin {
        pinning::pins_consistent(pos.own, pos.opp).map_err(PositionError::BadPin)?;
        pinning::pins_consistent(pos.opp, pos.own)
            .map_err(|q| PositionError::BadPin(variant.opponent_point(q)))?;
    } else if pos.own.pinned_mask() != 0 || pos.opp.pinned_mask() != 0 {
        let m = pos.own.pinned_mask() | pos.opp.pinned_mask();
        return Err(PositionError::BadPin(m.trailing_zeros() as u8 + 1));
    } else {
        for p in 1..=24u8 {
            if pos.own.at(p) > 0 && pos.opp.at(variant.opponent_point(p)) > 0 {
                return Err(PositionError::SharedPoint(p));
            }
        }
    }
    if pos.own.off() == CHECKERS && pos.opp.off() == CHECKERS {
        return Err(PositionError::BothFinished);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::state::Side;

    fn checkers(points: &[(u8, u8)], bar: u8) -> Checkers {
        let mut c = [0u8; 24];
        for &(p, n) in points {
            c[p as usize - 1] = n;
        }
        Checkers::from_counts_with_bar(&c, bar).unwrap()
    }

    #[test]
    fn scoring_per_variant() {
        let some_off = checkers(&[(6, 10)], 0);
        let none_off_home = checkers(&[(6, 15)], 0);
        let none_off_back = checkers(&[(6, 14), (20, 1)], 0);
        let none_off_bar = checkers(&[(6, 14)], 1);
        for v in Variant::ALL {
            assert_eq!(v.points_won(some_off), 1, "{v}");
            assert_eq!(v.points_won(none_off_home), 2, "{v}");
        }
        for v in Variant::ALL {
            // Backgammon: a checker in the winner's home or on the bar. The
            // other games have no 3-point win: a mars.
            let behind = match v {
                Variant::Backgammon => 3,
                Variant::GulBara
                | Variant::LongNardy
                | Variant::ShortNardy
                | Variant::Fevga
                | Variant::Portes
                | Variant::Tabla
                | Variant::Plakoto
                | Variant::Tapa => 2,
            };
            assert_eq!(v.points_won(none_off_back), behind, "{v}");
            assert_eq!(v.points_won(none_off_bar), behind, "{v}");
        }
    }

    #[test]
    fn results_come_from_the_state() {
        let mut s = GameState::start_of(Variant::Backgammon, Side::White);
        s.pos = Position {
            own: checkers(&[], 0),
            opp: checkers(&[(20, 15)], 0),
        };
        let r = s.result().unwrap();
        assert_eq!((r.winner, r.points), (Some(Side::White), 3));
        s.variant = Variant::ShortNardy;
        assert_eq!(s.result().unwrap().points, 2);
    }

    #[test]
    fn no_escalation_outside_gul_bara() {
        for v in Variant::ALL.into_iter().filter(|v| !v.escalating()) {
            let opts = RuleOptions::for_variant(v);
            let mut s = GameState::start_of(v, Side::White);
            s.rolls = [50, 50];
            let r = s.roll(&opts, 2, 2).unwrap();
            assert_eq!(r.stage_dice(), Some(StageDice::Same { die: 2, count: 4 }));
            assert!(!r.escalates(&opts, Side::White));
        }
    }

    #[test]
    fn positions_are_checked_per_variant() {
        let bar = Position {
            own: checkers(&[(6, 14)], 1),
            opp: checkers(&[(6, 15)], 0),
        };
        assert!(check_position(Variant::Backgammon, bar).is_ok());
        assert!(check_position(Variant::LongNardy, bar).is_err());
        // The mover's 6 is the opponent's 19 in the hitting games, its 18
        // in the same-direction games.
        let shared = Position {
            own: checkers(&[(6, 15)], 0),
            opp: checkers(&[(19, 15)], 0),
        };
        assert!(check_position(Variant::Backgammon, shared).is_err());
        assert!(check_position(Variant::LongNardy, shared).is_ok());
    }
}
