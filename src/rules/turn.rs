//! Move lists and whole turns: typed move tokens (rolls, checker moves,
//! passes) applied stage by stage, with typed errors. The notation turns
//! text into [`MoveToken`]s and errors into text; the logic is here.

use super::movegen::StageEnd;
use super::options::RuleOptions;
use super::options::Variant;
use super::position::Position;
use super::ruleset::StageGen;
use super::state::{GameState, Pending, PlayError, Side, dice_text, pending_text};
use super::step::{StageDice, Step};
use super::variant::Landing;

/// One element of a move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveToken {
    /// A roll (`65`): starts a turn.
    Roll(u8, u8),
    /// One checker from `from` to `to` (0 = borne off), in the mover's
    /// numbering, with one or more dice of the pending stage.
    Move {
        /// The point it leaves, 1..=24.
        from: u8,
        /// The point it reaches, 0 when borne off.
        to: u8,
    },
    /// Nothing can be played.
    Pass,
}

/// Why a move token cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A roll while the steps of a stage are still being given.
    #[error("the previous stage ({}) is not complete", pending_text(*.pending))]
    StageIncomplete {
        /// What the state waits for.
        pending: Pending,
    },
    /// A roll while a stage is pending.
    #[error("a roll is not expected: the stage {} must be played first", dice_text(*.dice))]
    RollNotExpected {
        /// The pending stage.
        dice: StageDice,
    },
    /// A move after the game ended.
    #[error("the game is over")]
    GameOver,
    /// A move where a roll is expected.
    #[error("expected a roll (like 65): the side to move must roll")]
    MustRoll,
    /// `pass` while something can be played (stages with nothing playable
    /// are skipped by themselves).
    #[error("'pass' but {} can be played", dice_text(*.dice))]
    PassButPlayable {
        /// The pending stage.
        dice: StageDice,
    },
    /// Every die of the stage is used already.
    #[error("all dice of the stage are used")]
    AllDiceUsed,
    /// The checker cannot go there with the dice left.
    #[error("no legal way to play it with the dice left ({})", dice_digits(.left))]
    NoLegalPath {
        /// The dice not used yet.
        left: Vec<u8>,
    },
    /// A roll, a step or a whole stage broke the rules.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The list stops inside a stage.
    #[error("the list ends in the middle of a stage ({})", pending_text(*.pending))]
    EndsMidStage {
        /// What the state waits for.
        pending: Pending,
    },
}

fn dice_digits(dice: &[u8]) -> String {
    dice.iter().map(|d| char::from(b'0' + d)).collect()
}

/// A [`MoveError`] and the 1-based index of the token it concerns (one past
/// the last token for an error at the end of the list).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move token {index}: {error}")]
pub struct MoveFailure {
    /// 1-based token index.
    pub index: usize,
    /// What is wrong.
    pub error: MoveError,
}

/// Plays stages with nothing playable (forfeits, lost remainder dice) until
/// a stage needs a decision, the side must roll, or the game is over.
pub fn skip_forced_empty(
    state: GameState,
    opts: &RuleOptions,
    movegen: &mut StageGen,
    ends: &mut Vec<StageEnd>,
) -> GameState {
    skip_logged(state, opts, movegen, ends, &mut Vec::new())
}

/// [`skip_forced_empty`], each skipped stage logged in `log`.
fn skip_logged(
    state: GameState,
    opts: &RuleOptions,
    movegen: &mut StageGen,
    ends: &mut Vec<StageEnd>,
    log: &mut Vec<StageRecord>,
) -> GameState {
    let mut s = state;
    while s.result().is_none() {
        let Some(dice) = s.stage_dice() else { break };
        if movegen.generate(opts, &s, dice, ends) != 0 {
            break;
        }
        log.push(StageRecord::of(&s, dice, Vec::new()));
        s = s.after_stage(opts, s.pos, 0);
    }
    s
}

/// One stage as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageRecord {
    /// Who played it.
    pub side: Side,
    /// The stage's dice.
    pub dice: StageDice,
    /// Whether it was a remainder stage.
    pub remainder: bool,
    /// The steps (empty when nothing was playable).
    pub steps: Vec<Step>,
}

impl StageRecord {
    fn of(state: &GameState, dice: StageDice, steps: Vec<Step>) -> StageRecord {
        StageRecord {
            side: state.to_move,
            dice,
            remainder: matches!(state.pending, Pending::Remainder { .. }),
            steps,
        }
    }
}

/// The steps that take one checker from `from` to `to` (0 = off) with dice
/// of `left`, trying every order of dice; the fewest dice are preferred, and
/// an exact bear-off over a higher die. `None` when no legal path exists.
///
/// In the hitting games a path that hits on the way is taken only when no
/// path without such a hit exists (as gnubg writes `13/4` for the quiet path
/// and `13/7*/4` for the other); the final landing may hit either way.
pub fn expand_move(
    variant: Variant,
    pos: Position,
    left: &[u8],
    from: u8,
    to: u8,
) -> Option<Vec<Step>> {
    #[allow(clippy::too_many_arguments)]
    fn search(
        variant: Variant,
        quiet: bool,
        pos: Position,
        left: &[u8],
        at: u8,
        to: u8,
        depth: usize,
        path: &mut Vec<Step>,
    ) -> bool {
        if path.len() == depth {
            return at == to || (to == 0 && path.last().is_some_and(|s| s.bears_off()));
        }
        if at == 0 {
            return false;
        }
        let mut tried = [false; 7];
        for (i, &d) in left.iter().enumerate() {
            if tried[d as usize] {
                continue;
            }
            tried[d as usize] = true;
            let s = Step::new(at, d);
            let last = path.len() + 1 == depth;
            // Only the final step may reach or pass the destination.
            if !last && (s.bears_off() || s.to() <= to) {
                continue;
            }
            if last && to != 0 && s.to() != to {
                continue;
            }
            if last && to == 0 && !s.bears_off() {
                continue;
            }
            if !variant.step_legal(pos, s) {
                continue;
            }
            if quiet
                && !last
                && variant.spec().landing == Landing::Hit
                && super::hitting::step_hits(pos, s)
            {
                continue;
            }
            let mut rest = left.to_vec();
            rest.remove(i);
            let next = variant.apply_step(pos, s);
            path.push(s);
            if search(variant, quiet, next, &rest, s.to(), to, depth, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    for depth in 1..=left.len() {
        if depth == 1
            && to == 0
            && left.contains(&from)
            && variant.step_legal(pos, Step::new(from, from))
        {
            return Some(vec![Step::new(from, from)]);
        }
        for quiet in [true, false] {
            if !quiet && variant.spec().landing != Landing::Hit {
                break;
            }
            let mut path = Vec::new();
            if search(variant, quiet, pos, left, from, to, depth, &mut path) {
                return Some(path);
            }
        }
    }
    None
}

/// A move list being applied, one token at a time: rolls start turns,
/// moves play the pending stage (a stage is played once its steps use every
/// playable die), stages with nothing playable are skipped by themselves
/// (so a roll after a roll is a forfeited turn). A chain's stages, and then
/// a remainder's, follow in play order. On an error the sequence is left as
/// it was before the token.
pub struct MoveSequence<'a> {
    state: GameState,
    opts: &'a RuleOptions,
    movegen: StageGen,
    ends: Vec<StageEnd>,
    /// Steps given so far for the stage in progress.
    stage_steps: Vec<Step>,
    /// Index of the token that began the stage in progress.
    stage_start: usize,
    /// Tokens applied.
    count: usize,
    /// The stages played so far, skipped ones included.
    played: Vec<StageRecord>,
}

impl<'a> MoveSequence<'a> {
    /// Starts at `state` (stages with nothing playable are skipped at once).
    pub fn new(state: GameState, opts: &'a RuleOptions) -> MoveSequence<'a> {
        let mut movegen = StageGen::new();
        let mut ends = Vec::new();
        let mut played = Vec::new();
        let state = skip_logged(state, opts, &mut movegen, &mut ends, &mut played);
        MoveSequence {
            state,
            opts,
            movegen,
            ends,
            stage_steps: Vec::new(),
            stage_start: 0,
            count: 0,
            played,
        }
    }

    /// The stages played so far in order (stages with nothing playable,
    /// skipped by themselves, included with no steps).
    pub fn played(&self) -> &[StageRecord] {
        &self.played
    }

    /// The state after the last complete stage.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Whether the steps of a stage are being given (the stage is not played yet).
    pub fn in_stage(&self) -> bool {
        !self.stage_steps.is_empty()
    }

    /// Tokens applied so far.
    pub fn count(&self) -> usize {
        self.count
    }

    fn fail(&self, index: usize, error: impl Into<MoveError>) -> MoveFailure {
        MoveFailure {
            index,
            error: error.into(),
        }
    }

    /// The pending stage's dice, or why no checker may move now (what a
    /// move token would be told, whatever it says).
    pub fn expect_move(&self) -> Result<StageDice, MoveFailure> {
        let index = self.count + 1;
        if self.state.result().is_some() {
            return Err(self.fail(index, MoveError::GameOver));
        }
        self.state
            .stage_dice()
            .ok_or_else(|| self.fail(index, MoveError::MustRoll))
    }

    /// Applies the next token.
    pub fn push(&mut self, token: MoveToken) -> Result<(), MoveFailure> {
        let index = self.count + 1;
        match token {
            MoveToken::Roll(d1, d2) => {
                if self.in_stage() {
                    return Err(self.fail(
                        index,
                        MoveError::StageIncomplete {
                            pending: self.state.pending,
                        },
                    ));
                }
                if let Some(dice) = self.state.stage_dice() {
                    return Err(self.fail(index, MoveError::RollNotExpected { dice }));
                }
                let rolled = self
                    .state
                    .roll(self.opts, d1, d2)
                    .map_err(|e| self.fail(index, e))?;
                self.state = skip_logged(
                    rolled,
                    self.opts,
                    &mut self.movegen,
                    &mut self.ends,
                    &mut self.played,
                );
            }
            MoveToken::Pass => {
                let dice = self.expect_move()?;
                return Err(self.fail(index, MoveError::PassButPlayable { dice }));
            }
            MoveToken::Move { from, to } => {
                let dice = self.expect_move()?;
                self.play_move(index, dice, from, to)?;
            }
        }
        self.count = index;
        Ok(())
    }

    fn play_move(
        &mut self,
        index: usize,
        dice: StageDice,
        from: u8,
        to: u8,
    ) -> Result<(), MoveFailure> {
        // Dice of the stage not used by the steps so far.
        let mut left = dice.dice();
        let mut pos = self.state.pos;
        for st in &self.stage_steps {
            if let Some(k) = left.iter().position(|&d| d == st.die) {
                left.swap_remove(k);
            }
            pos = self.state.variant.apply_step(pos, *st);
        }
        let Some(steps) = expand_move(self.state.variant, pos, &left, from, to) else {
            let error = if left.is_empty() {
                MoveError::AllDiceUsed
            } else {
                MoveError::NoLegalPath { left }
            };
            return Err(self.fail(index, error));
        };
        let stage_start = if self.in_stage() {
            self.stage_start
        } else {
            index
        };
        let mut given = self.stage_steps.clone();
        given.extend(steps);
        let playable = self
            .movegen
            .generate(self.opts, &self.state, dice, &mut self.ends);
        let mut after = self.state.pos;
        for st in &given {
            after = self.state.variant.apply_step(after, *st);
        }
        if given.len() >= playable as usize || self.opts.ends_play(after) {
            let next = self
                .state
                .play_stage(self.opts, &mut self.movegen, &mut self.ends, &given)
                .map_err(|e| {
                    // A play that is wrong as a whole is blamed on its first token.
                    let at = match e {
                        PlayError::IllegalStep { .. } => stage_start,
                        _ if e.is_illegal_play() => stage_start,
                        _ => index,
                    };
                    self.fail(at, e)
                })?;
            let stage = StageRecord::of(&self.state, dice, std::mem::take(&mut given));
            self.played.push(stage);
            self.state = skip_logged(
                next,
                self.opts,
                &mut self.movegen,
                &mut self.ends,
                &mut self.played,
            );
            self.stage_steps.clear();
        } else {
            self.stage_steps = given;
            self.stage_start = stage_start;
        }
        Ok(())
    }

    /// The state at the end of the list; an error if it stops inside a stage.
    pub fn finish(self) -> Result<GameState, MoveFailure> {
        if self.in_stage() {
            return Err(MoveFailure {
                index: self.count + 1,
                error: MoveError::EndsMidStage {
                    pending: self.state.pending,
                },
            });
        }
        Ok(self.state)
    }
}

/// Applies a whole move list from `state`.
pub fn apply_move_tokens(
    state: GameState,
    opts: &RuleOptions,
    tokens: &[MoveToken],
) -> Result<GameState, MoveFailure> {
    let mut seq = MoveSequence::new(state, opts);
    for &t in tokens {
        seq.push(t)?;
    }
    seq.finish()
}

/// Whether `mover`'s turn is over in `state`: the game ended, the other side
/// is to move, or a roll is awaited.
pub fn turn_over(state: &GameState, mover: Side) -> bool {
    state.result().is_some() || state.to_move != mover || state.stage_dice().is_none()
}

/// Why a list of tokens is not exactly one turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// A token cannot be applied.
    #[error(transparent)]
    Move(#[from] MoveFailure),
    /// The turn ended before the token at this 1-based index.
    #[error("extra tokens after the turn ended, from token {index}")]
    Extra {
        /// The first token after the turn.
        index: usize,
    },
    /// The tokens stop before the turn ends.
    #[error("the turn is not complete")]
    Incomplete,
}

/// One turn of the side to move, token by token: [`TurnSequence::push`]
/// each token, then [`TurnSequence::finish`]. `pass` tokens are skipped (a
/// turn with nothing playable is empty).
pub struct TurnSequence<'a> {
    moves: MoveSequence<'a>,
    mover: Side,
    /// Tokens seen, passes included.
    seen: usize,
}

impl<'a> TurnSequence<'a> {
    /// The turn of the side to move in `start` (a stage pending).
    pub fn new(start: GameState, opts: &'a RuleOptions) -> TurnSequence<'a> {
        TurnSequence {
            mover: start.to_move,
            moves: MoveSequence::new(start, opts),
            seen: 0,
        }
    }

    /// Whether the turn has ended with the tokens so far.
    pub fn is_over(&self) -> bool {
        !self.moves.in_stage() && turn_over(self.moves.state(), self.mover)
    }

    /// The move sequence underneath (to ask what a token would be told).
    pub fn moves(&self) -> &MoveSequence<'a> {
        &self.moves
    }

    /// Applies the next token; after the turn ended, any token but `pass` is extra.
    pub fn push(&mut self, token: MoveToken) -> Result<(), TurnError> {
        self.seen += 1;
        if token == MoveToken::Pass {
            return Ok(());
        }
        if self.is_over() {
            return Err(TurnError::Extra { index: self.seen });
        }
        self.moves.push(token)?;
        Ok(())
    }

    /// The state after the turn; an error if the turn has not ended.
    pub fn finish(self) -> Result<GameState, TurnError> {
        self.finish_with_stages().map(|(state, _)| state)
    }

    /// The state after the turn and the stages played in it (see
    /// [`MoveSequence::played`]); an error if the turn has not ended.
    pub fn finish_with_stages(self) -> Result<(GameState, Vec<StageRecord>), TurnError> {
        if self.is_over() {
            return Ok((*self.moves.state(), self.moves.played));
        }
        if self.moves.in_stage() {
            self.moves.finish()?;
        }
        Err(TurnError::Incomplete)
    }
}

/// Applies exactly one turn of the side to move from `start`.
pub fn apply_turn_tokens(
    start: GameState,
    opts: &RuleOptions,
    tokens: &[MoveToken],
) -> Result<GameState, TurnError> {
    let mut turn = TurnSequence::new(start, opts);
    for &t in tokens {
        turn.push(t)?;
    }
    turn.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8) -> MoveToken {
        MoveToken::Move { from, to }
    }

    #[test]
    fn errors_are_typed_and_name_the_token() {
        let o = RuleOptions::default();
        let start = GameState::start(Side::White);
        // 65 24/18 13/8: 13 is empty for White.
        let e = apply_move_tokens(start, &o, &[MoveToken::Roll(6, 5), mv(24, 18), mv(13, 8)])
            .unwrap_err();
        assert_eq!(e.index, 3);
        assert!(matches!(e.error, MoveError::NoLegalPath { ref left } if left == &[5]));
        // A move before any roll.
        let e = apply_move_tokens(start, &o, &[mv(24, 18)]).unwrap_err();
        assert_eq!((e.index, e.error), (1, MoveError::MustRoll));
        // The list stops inside the stage.
        let e = apply_move_tokens(start, &o, &[MoveToken::Roll(6, 5), mv(24, 18)]).unwrap_err();
        assert_eq!(e.index, 3);
        assert!(matches!(e.error, MoveError::EndsMidStage { .. }));
        // A roll while the stage is pending.
        let e = apply_move_tokens(start, &o, &[MoveToken::Roll(6, 5), MoveToken::Roll(3, 1)])
            .unwrap_err();
        assert!(matches!(
            e.error,
            MoveError::RollNotExpected {
                dice: StageDice::Pair(6, 5)
            }
        ));
        // 24/12 in one go lands on Black's start: no path, blamed on that token.
        let e = apply_move_tokens(start, &o, &[MoveToken::Roll(6, 6), mv(24, 12)]).unwrap_err();
        assert_eq!(e.index, 2);
    }

    #[test]
    fn a_turn_is_exactly_one_turn() {
        let o = RuleOptions::default();
        let rolled = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
        let end = apply_turn_tokens(rolled, &o, &[mv(24, 13)]).unwrap();
        assert_eq!(end.to_move, Side::Black);
        assert_eq!(end.pos.opp.at(13), 1);
        assert_eq!(
            apply_turn_tokens(rolled, &o, &[mv(24, 13), mv(24, 18)]),
            Err(TurnError::Extra { index: 2 })
        );
        assert!(matches!(
            apply_turn_tokens(rolled, &o, &[mv(24, 18)]),
            Err(TurnError::Move(MoveFailure {
                index: 2,
                error: MoveError::EndsMidStage { .. }
            }))
        ));
        // Passes are ignored; an empty list is an incomplete turn.
        assert_eq!(
            apply_turn_tokens(rolled, &o, &[MoveToken::Pass]),
            Err(TurnError::Incomplete)
        );
        // An error leaves the sequence as it was.
        let mut seq = MoveSequence::new(rolled, &o);
        assert!(seq.push(mv(13, 8)).is_err());
        assert_eq!(*seq.state(), rolled);
        assert!(!seq.in_stage());
        seq.push(mv(24, 18)).unwrap();
        assert!(seq.in_stage());
    }
}
