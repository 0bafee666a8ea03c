//! The game state between stages, and whole-turn handling.
//!
//! A turn is all a roll makes a side play: one stage for an ordinary roll or
//! an exempt doublet; for an escalating doublet `d-d`, stages of four `d`s,
//! four `(d+1)`s … up to four 6s, each judged on its own, stopping at the
//! first stage not played whole. What such a chain leaves unplayed passes to
//! the opponent as a *remainder*, which it plays stage by stage before its own
//! roll. The state records where in that sequence the game stands.

use super::movegen::StageEnd;
use super::options::{ExemptScope, RemainderRule, RuleOptions, Variant};
use super::position::{CHECKERS, Position};
use super::ruleset::StageGen;
use super::step::{StageDice, Step};

/// Rolls in a row without any checker moving after which a game ends drawn.
pub const STUCK_LIMIT: u32 = 100;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Runs 24 → 1 in its own (the board's) numbering; moves first from `startpos`.
    White,
    /// Starts on White's 12.
    Black,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

/// What the side to move has to do next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pending {
    /// Roll the dice.
    Roll,
    /// Play the single stage of a rolled pair or exempt doublet.
    Roll2 {
        /// First die.
        d1: u8,
        /// Second die.
        d2: u8,
    },
    /// Play the next stage of its own escalating chain: four `die`s.
    Chain {
        /// The number of this stage.
        die: u8,
        /// Whether this is the rolled doublet itself (no stage played yet):
        /// a chain that cannot play even one of these dice passes nothing.
        first: bool,
    },
    /// Play a remainder stage: `count` dice of `die`, then four of every
    /// higher number up to 6.
    Remainder {
        /// The number of this stage.
        die: u8,
        /// How many dice of it.
        count: u8,
    },
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// The winner; `None` when the stuck rule ended the game.
    pub winner: Option<Side>,
    /// Points won: 1, 2 for a mars (gammon), 3 for a backgammon, 0 for a
    /// stuck game.
    pub points: u8,
}

/// A full game state: the variant, position, side to move, roll counters,
/// pending stage.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameState {
    /// The game played.
    pub variant: Variant,
    /// The position from the side to move's point of view.
    pub pos: Position,
    /// The side to move.
    pub to_move: Side,
    /// Rolls made by White and Black (a remainder is not a roll).
    pub rolls: [u32; 2],
    /// What the side to move has to do.
    pub pending: Pending,
    /// Rolls in a row in which no checker moved.
    pub stuck: u32,
    /// Whether a checker has moved during the current roll's turn.
    pub moved_this_turn: bool,
}

/// Why a play was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// A roll while a stage is to be played.
    #[error("cannot roll now: {}", pending_text(*.pending))]
    CannotRoll {
        /// What the state expects instead.
        pending: Pending,
    },
    /// Dice outside 1..=6.
    #[error("bad dice {d1}{d2}")]
    BadDice {
        /// The first die.
        d1: u8,
        /// The second die.
        d2: u8,
    },
    /// A stage played while the side to move must roll.
    #[error("no stage to play: the side to move must roll")]
    MustRoll,
    /// A step is not legal at the point it is played.
    #[error("illegal step {step} (step {index} of the play): {why}")]
    IllegalStep {
        /// The step.
        step: Step,
        /// 1-based index among the steps given.
        index: usize,
        /// The reason.
        why: StepProblem,
    },
    /// The steps are legal one by one but fewer than the stage must play.
    #[error("{playable} of the dice {} must be played, only {given} given", dice_text(*.dice))]
    TooFewSteps {
        /// The stage's dice.
        dice: StageDice,
        /// How many of them must be played.
        playable: u8,
        /// How many steps were given.
        given: usize,
    },
    /// The steps are legal one by one but their end is not a legal end of
    /// the stage.
    #[error("the play does not reach a legal end for {} (the larger die must be played when only one fits)", dice_text(*.dice))]
    NoLegalEnd {
        /// The stage's dice.
        dice: StageDice,
    },
}

/// Why a single step is not legal where it is played. The words are
/// those of the protocol's `error` lines: a contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepProblem {
    /// A die outside 1..=6.
    #[error("no die {die}")]
    NoSuchDie {
        /// The die.
        die: u8,
    },
    /// The stage has no die of that number left.
    #[error("no die {die} left of {}", dice_text(*.dice))]
    NoDieLeft {
        /// The die.
        die: u8,
        /// The stage's dice.
        dice: StageDice,
    },
    /// A step after one that ended the game.
    #[error("the game already ended with the previous step")]
    GameEnded,
    /// A step from a point while the mover has checkers on the bar.
    #[error("checkers on the bar must enter first")]
    BarFirst,
    /// A step from the bar with none there.
    #[error("no checker of the mover on the bar")]
    NoneOnBar,
    /// A step from a point without a checker of the mover.
    #[error("no checker of the mover on {from}")]
    NoChecker {
        /// The point.
        from: u8,
    },
    /// A step of a pinned checker.
    #[error("the checker on {from} is pinned")]
    Pinned {
        /// The point.
        from: u8,
    },
    /// A landing on a point the opponent holds.
    #[error("point {to} is closed by the opponent")]
    Closed {
        /// The landing point.
        to: u8,
    },
    /// Bearing off with a checker outside home.
    #[error("cannot bear off before all checkers are home")]
    NotAllHome,
    /// Bearing off while pinned (`pinned_bearoff refuse`).
    #[error("cannot bear off while a checker is pinned")]
    PinnedBearOff,
    /// Bearing off with a higher die while a checker stands higher.
    #[error("a {die} bears off from {from} only when no checker stands higher")]
    HigherChecker {
        /// The die.
        die: u8,
        /// The point borne off from.
        from: u8,
    },
}

impl PlayError {
    /// Whether the play as a whole is wrong (not one of its steps, nor the
    /// moment it is played at).
    pub fn is_illegal_play(&self) -> bool {
        matches!(
            self,
            PlayError::TooFewSteps { .. } | PlayError::NoLegalEnd { .. }
        )
    }
}

/// What a state expecting `pending` waits for, as text.
pub fn pending_text(pending: Pending) -> String {
    match pending {
        Pending::Roll => "the side to move must roll".into(),
        Pending::Roll2 { d1, d2 } => format!("roll {d1}{d2} to play"),
        Pending::Chain { die, .. } => format!("escalating chain at four {die}s"),
        Pending::Remainder { die, count } => {
            format!("remainder of {count} {die}s and the higher stages")
        }
    }
}

impl GameState {
    /// The start of a Gul bara game with `first` to roll.
    pub fn start(first: Side) -> GameState {
        GameState::start_of(Variant::GulBara, first)
    }

    /// The start of a game of `variant` with `first` to roll.
    pub fn start_of(variant: Variant, first: Side) -> GameState {
        GameState {
            variant,
            pos: variant.start(),
            to_move: first,
            rolls: [0, 0],
            pending: Pending::Roll,
            stuck: 0,
            moved_this_turn: false,
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        if let Some(lost) = self.pos.mothers() {
            // The pinning games' mother rule: a double game, or a draw.
            return Some(match lost {
                [true, true] => GameResult {
                    winner: None,
                    points: 0,
                },
                [mover, _] => GameResult {
                    winner: Some(if mover {
                        self.to_move.opponent()
                    } else {
                        self.to_move
                    }),
                    points: self.variant.spec().scores.double,
                },
            });
        }
        let (winner, loser) = if self.pos.own.off() == CHECKERS {
            (self.to_move, self.pos.opp)
        } else if self.pos.opp.off() == CHECKERS {
            (self.to_move.opponent(), self.pos.own)
        } else if self.stuck >= STUCK_LIMIT {
            return Some(GameResult {
                winner: None,
                points: 0,
            });
        } else {
            return None;
        };
        Some(GameResult {
            winner: Some(winner),
            points: self.variant.points_won(loser),
        })
    }

    /// Whether `side`'s next roll escalates its doublets.
    pub fn escalates(&self, opts: &RuleOptions, side: Side) -> bool {
        if !self.variant.escalating() {
            return false;
        }
        let made = match opts.exempt_scope {
            ExemptScope::Player => self.rolls[side.index()],
            ExemptScope::Game => self.rolls[0] + self.rolls[1],
        };
        made >= opts.exempt_rolls
    }

    /// The same game with `side` to move: the board as the mover sees it
    /// is kept, and when `side` is not the side to move now, the sides'
    /// names (and their roll counts) swap. For positions that do not say
    /// which player is on roll, such as a gnubg Position ID alone.
    pub fn with_side_to_move(&self, side: Side) -> GameState {
        let mut next = *self;
        if side != self.to_move {
            next.to_move = side;
            next.rolls = [self.rolls[1], self.rolls[0]];
        }
        next
    }

    /// The side to move rolls `d1 d2`: counts the roll and sets up its first stage.
    pub fn roll(&self, opts: &RuleOptions, d1: u8, d2: u8) -> Result<GameState, PlayError> {
        if self.result().is_some() {
            return Err(PlayError::GameOver);
        }
        if self.pending != Pending::Roll {
            return Err(PlayError::CannotRoll {
                pending: self.pending,
            });
        }
        if !(1..=6).contains(&d1) || !(1..=6).contains(&d2) {
            return Err(PlayError::BadDice { d1, d2 });
        }
        let mut next = *self;
        next.pending = if d1 == d2 && self.escalates(opts, self.to_move) {
            Pending::Chain {
                die: d1,
                first: true,
            }
        } else {
            Pending::Roll2 { d1, d2 }
        };
        next.rolls[self.to_move.index()] += 1;
        next.moved_this_turn = false;
        Ok(next)
    }

    /// The dice of the stage to play now, if a stage is pending.
    pub fn stage_dice(&self) -> Option<StageDice> {
        match self.pending {
            Pending::Roll => None,
            Pending::Roll2 { d1, d2 } => Some(StageDice::from_roll(d1, d2)),
            Pending::Chain { die, .. } => Some(StageDice::Same { die, count: 4 }),
            Pending::Remainder { die, count } => Some(StageDice::Same { die, count }),
        }
    }

    /// Human description of the pending stage.
    pub fn pending_description(&self) -> String {
        pending_text(self.pending)
    }

    /// Moves on after the pending stage was played, ending at `end` (the
    /// mover's view) with `used` dice played. The caller guarantees that `end`
    /// is a legal end of the stage using as many dice as possible.
    pub fn after_stage(&self, opts: &RuleOptions, end: Position, used: u8) -> GameState {
        let mut next = *self;
        let moved = end != self.pos;
        next.pos = end;
        // `moved_this_turn` belongs to a roll's turn (its stages); a remainder
        // is not a roll, and resets the stuck count by itself below. Keeping
        // it false outside a roll's turn makes the state a function of its
        // position text.
        if moved && !matches!(self.pending, Pending::Remainder { .. }) {
            next.moved_this_turn = true;
        }
        if end.is_over() {
            // The last checker ended the game: nothing more is played.
            next.pending = Pending::Roll;
            next.stuck = 0;
            next.moved_this_turn = false;
            return next;
        }
        match self.pending {
            Pending::Roll => next,
            Pending::Roll2 { .. } => next.end_turn(),
            Pending::Chain { die, first } => {
                if used == 4 && die < 6 {
                    next.pending = Pending::Chain {
                        die: die + 1,
                        first: false,
                    };
                    return next;
                }
                let passes =
                    used < 4 && opts.remainder == RemainderRule::Opponent && !(first && used == 0);
                let mut after = next.end_turn();
                if passes {
                    after.pending = Pending::Remainder {
                        die,
                        count: 4 - used,
                    };
                }
                after
            }
            Pending::Remainder { die, .. } => {
                if moved {
                    next.stuck = 0;
                }
                next.pending = if die < 6 {
                    Pending::Remainder {
                        die: die + 1,
                        count: 4,
                    }
                } else {
                    Pending::Roll
                };
                next
            }
        }
    }

    /// Closes the current roll's turn: stuck bookkeeping, then the opponent is to move.
    fn end_turn(mut self) -> GameState {
        if self.moved_this_turn {
            self.stuck = 0;
        } else {
            self.stuck += 1;
        }
        self.moved_this_turn = false;
        self.pos = self.pos.flipped();
        self.to_move = self.to_move.opponent();
        self.pending = Pending::Roll;
        self
    }

    /// Plays the pending stage with `steps` (in the mover's numbering),
    /// checking each step and the stage as a whole against `movegen`'s ends.
    pub fn play_stage(
        &self,
        opts: &RuleOptions,
        movegen: &mut StageGen,
        ends: &mut Vec<StageEnd>,
        steps: &[Step],
    ) -> Result<GameState, PlayError> {
        if self.result().is_some() {
            return Err(PlayError::GameOver);
        }
        let dice = self.stage_dice().ok_or(PlayError::MustRoll)?;
        let playable = movegen.generate(opts, self, dice, ends);
        let pos = apply_steps_with(opts, self.pos, dice, steps, 0)?;
        if steps.len() < playable as usize && !opts.ends_play(pos) {
            return Err(PlayError::TooFewSteps {
                dice,
                playable,
                given: steps.len(),
            });
        }
        if !ends.iter().any(|e| e.pos == pos) {
            return Err(PlayError::NoLegalEnd { dice });
        }
        Ok(self.after_stage(opts, pos, playable))
    }
}

/// The dice of a stage as text, `65` or `5555`.
pub fn dice_text(dice: StageDice) -> String {
    dice.dice().iter().map(|d| char::from(b'0' + d)).collect()
}

/// Applies Gul bara `steps` one by one, each legal in turn and each using a
/// die of `dice` not yet used. `offset` shifts the reported step index.
pub fn apply_steps(
    pos: Position,
    dice: StageDice,
    steps: &[Step],
    offset: usize,
) -> Result<Position, PlayError> {
    apply_steps_in(Variant::GulBara, pos, dice, steps, offset)
}

/// [`apply_steps`] for any variant under its default options (the common
/// rules of its steps; a rule set's own restrictions are judged on the
/// stage's ends).
pub fn apply_steps_in(
    variant: Variant,
    pos: Position,
    dice: StageDice,
    steps: &[Step],
    offset: usize,
) -> Result<Position, PlayError> {
    apply_steps_with(&RuleOptions::for_variant(variant), pos, dice, steps, offset)
}

/// [`apply_steps_in`] under `opts` (their readings of single steps, and
/// of when a step ends the play).
pub fn apply_steps_with(
    opts: &RuleOptions,
    mut pos: Position,
    dice: StageDice,
    steps: &[Step],
    offset: usize,
) -> Result<Position, PlayError> {
    let variant = opts.variant;
    let mut left = dice.dice();
    for (i, &s) in steps.iter().enumerate() {
        let err = |why: StepProblem| PlayError::IllegalStep {
            step: s,
            index: offset + i + 1,
            why,
        };
        if opts.ends_play(pos) {
            return Err(err(StepProblem::GameEnded));
        }
        let Some(k) = left.iter().position(|&d| d == s.die) else {
            return Err(err(StepProblem::NoDieLeft { die: s.die, dice }));
        };
        if let Some(why) = opts.step_problem(pos, s) {
            return Err(err(why));
        }
        left.swap_remove(k);
        pos = variant.apply_step(pos, s);
    }
    Ok(pos)
}

/// Why a step is not legal (for error messages).
pub fn step_illegal_reason(pos: Position, s: Step) -> StepProblem {
    if !(1..=24).contains(&s.from) || pos.own.at(s.from) == 0 {
        return StepProblem::NoChecker { from: s.from };
    }
    if s.from > s.die {
        return StepProblem::Closed { to: s.to() };
    }
    if pos.own.mask() & !super::position::HOME_MASK != 0 {
        return StepProblem::NotAllHome;
    }
    StepProblem::HigherChecker {
        die: s.die,
        from: s.from,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> RuleOptions {
        RuleOptions::default()
    }

    #[test]
    fn roll_counts_and_exemption() {
        let o = opts();
        let mut s = GameState::start(Side::White);
        for _ in 0..3 {
            assert!(!s.escalates(&o, Side::White));
            s.rolls[0] += 1;
        }
        assert!(s.escalates(&o, Side::White));
        assert!(!s.escalates(&o, Side::Black));
        let r = s.roll(&o, 2, 2).unwrap();
        let chain = Pending::Chain {
            die: 2,
            first: true,
        };
        assert_eq!((r.pending, r.rolls[0]), (chain, 4));
    }

    #[test]
    fn exempt_doublet_is_one_stage() {
        let o = opts();
        let s = GameState::start(Side::White).roll(&o, 3, 3).unwrap();
        assert_eq!(s.stage_dice(), Some(StageDice::Same { die: 3, count: 4 }));
        let mut g = StageGen::new();
        let mut ends = Vec::new();
        let steps = [Step::new(24, 3); 4];
        let n = s.play_stage(&o, &mut g, &mut ends, &steps).unwrap();
        assert_eq!(n.to_move, Side::Black);
        assert_eq!(n.pending, Pending::Roll);
        assert_eq!(n.pos.opp.at(21), 4);
    }

    #[test]
    fn illegal_play_changes_nothing_and_says_why() {
        let o = opts();
        let s = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
        let mut g = StageGen::new();
        let mut ends = Vec::new();
        let e = s
            .play_stage(&o, &mut g, &mut ends, &[Step::new(24, 6)])
            .unwrap_err();
        assert!(e.is_illegal_play(), "{e}");
        let e = s
            .play_stage(&o, &mut g, &mut ends, &[Step::new(24, 6), Step::new(18, 6)])
            .unwrap_err();
        assert!(matches!(e, PlayError::IllegalStep { index: 2, .. }), "{e}");
        // 24/18/12 lands on Black's start.
        let e = s
            .play_stage(&o, &mut g, &mut ends, &[Step::new(24, 5), Step::new(19, 6)])
            .unwrap();
        assert_eq!(e.pos.opp.at(13), 1);
    }
}
