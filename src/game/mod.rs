//! The game driver: opening throw, rolls, stages, chains, remainders,
//! the stuck rule, result; the one [`Player`] trait every game is played by.
//!
//! Dice come from a [`DiceSource`]: a seeded RNG for reproducible games, or
//! a recorded list when replaying. Each turn (a roll's stages, a chain, or
//! a remainder) comes from the seated [`Player`] as a typed [`Turn`], which
//! the driver checks against the rules; a player that fails or plays an
//! illegal turn forfeits. Turns with nothing playable pass by themselves.
//! A [`Chooser`] (one stage end at a time) plays through a [`StagePlayer`].
//!
//! A game is played in a session ([`MatchState`]): money play or a match,
//! with or without the doubling cube. Where the session has a cube, the
//! side to move is asked before each roll whether it doubles, and the other
//! side whether it takes, drops or beavers; a drop ends the game. Checker
//! play itself is the same at every score: the session only decides what
//! each result is worth, which players read from [`TurnRequest::session`].

pub mod player;

use std::time::{Duration, Instant};

use crate::cube::{CubeAnswer, CubeStateError, MatchState, cubeless};
use crate::rules::dice::{DiceSource, GameStart, Opened};
use crate::rules::options::RuleOptions;
use crate::rules::ruleset::StageGen;
use crate::rules::state::{GameResult, GameState, Pending, Side};
use crate::rules::turn::{MoveToken, TurnError, TurnSequence, skip_forced_empty, turn_over};

pub use crate::rules::turn::StageRecord;
pub use player::{
    Chooser, CubeRequest, Player, PlayerFault, RandomChooser, StagePlayer, Turn, TurnRequest,
};

/// Why a side forfeited.
#[derive(Debug, thiserror::Error)]
pub enum ForfeitReason {
    /// The player gave no turn.
    #[error(transparent)]
    Player(#[from] PlayerFault),
    /// The player's turn broke the rules.
    #[error("illegal turn: {error}")]
    IllegalTurn {
        /// The turn it gave.
        turn: Turn,
        /// What is wrong with it.
        error: TurnError,
    },
    /// The player's answer to a double is not allowed (a beaver where
    /// beavers are off).
    #[error("illegal answer '{answer}' to a double: {error}", answer = .answer.word())]
    IllegalAnswer {
        /// The answer it gave.
        answer: CubeAnswer,
        /// Why it is not allowed.
        error: CubeStateError,
    },
}

/// A forfeit: the side, where it happened, and why.
#[derive(Debug)]
pub struct Forfeit {
    /// The side that forfeited.
    pub side: Side,
    /// The state before the turn it was asked for.
    pub before: GameState,
    /// The roll of that turn, `None` for a remainder or a cube action.
    pub roll: Option<(u8, u8)>,
    /// Why.
    pub reason: ForfeitReason,
}

impl PartialEq for Forfeit {
    /// Forfeits compare by side, place, and the text of the reason.
    fn eq(&self, other: &Forfeit) -> bool {
        (self.side, self.before, self.roll) == (other.side, other.before, other.roll)
            && self.reason.to_string() == other.reason.to_string()
    }
}

impl Eq for Forfeit {}

/// One turn and what followed it: a roll's stages, or a remainder's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// Who rolled (for a remainder, who played it).
    pub side: Side,
    /// The side doubled before this roll, and the other side's answer
    /// (take or beaver; a drop ends the game, [`GameRecord::dropped`]).
    pub double: Option<CubeAnswer>,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// For a remainder: the stage (die, count) it was asked from (its
    /// first stage with something playable).
    pub remainder: Option<(u8, u8)>,
    /// The moves as the player gave them, passes left out.
    pub moves: Vec<MoveToken>,
    /// The stages in order, those with nothing playable included. A
    /// remainder with nothing playable at all passes within the roll's turn
    /// before it: its stages come last there, played by the other side.
    pub stages: Vec<StageRecord>,
}

/// A played game.
#[derive(Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The opening throws (White's die first), ties included; none when
    /// the starter was given ([`GameStart::By`]).
    pub openings: Vec<(u8, u8)>,
    /// The side that started.
    pub starter: Side,
    /// Turns in order (remainders are turns of their own).
    pub turns: Vec<TurnRecord>,
    /// The result (no winner, 0 points, when the game was cut off).
    pub result: GameResult,
    /// The forfeit that ended the game, if one did.
    pub forfeit: Option<Forfeit>,
    /// The final state (before the forfeited turn, after a forfeit).
    pub final_state: GameState,
    /// The session at the end of the game: the cube's value and owner
    /// (the score is the caller's to keep, [`GameRecord::scored`]).
    pub session: MatchState,
    /// The side to move in the final state doubled and the other side
    /// dropped: the game ended there.
    pub dropped: bool,
}

impl GameRecord {
    /// Who scores how many points in the session: the game's winner its
    /// result times the cube (single under the Jacoby rule while the cube
    /// is in the middle), or the doubler the cube's value before a dropped
    /// double. `None` for a game that ended without a winner (a forfeit,
    /// the stuck rule).
    pub fn scored(&self) -> Option<(Side, u32)> {
        if self.dropped {
            return Some((self.final_state.to_move, self.session.cube()));
        }
        if self.forfeit.is_some() {
            return None;
        }
        let winner = self.result.winner?;
        Some((
            winner,
            self.session.points_for(u32::from(self.result.points)),
        ))
    }
}

/// What a game's caller may watch: every roll before it is played, every turn after.
pub trait GameObserver {
    /// The side to move in `before` is about to play `roll`.
    fn rolled(&mut self, _before: &GameState, _roll: (u8, u8)) {}

    /// A turn was played; `took` is the time its player took (zero when
    /// nothing was playable and no player was asked).
    fn turn_played(&mut self, _turn: &TurnRecord, _took: Duration) {}
}

impl GameObserver for () {}

/// Plays a whole game: `players[0]` plays White, `players[1]` Black.
///
/// Each turn with something playable is asked of the side to move's player
/// and checked against the rules; a turn with nothing playable passes by
/// itself. A player's fault or illegal turn ends the game as a forfeit
/// ([`GameRecord::forfeit`]).
pub fn play_game(
    opts: &RuleOptions,
    dice: &mut dyn DiceSource,
    players: [&mut dyn Player; 2],
    observer: &mut dyn GameObserver,
) -> GameRecord {
    play_session_game(opts, &cubeless(), dice, players, observer)
}

/// Plays a whole game in `session` (the score and rules at its start; the
/// cube in the middle at 1 unless the session says otherwise):
/// `players[0]` plays White, `players[1]` Black.
///
/// Before each roll (the opening roll aside), when the session lets the
/// side to move double, its player is asked; a double is put to the other
/// side's player. A take doubles the cube, a beaver quadruples it, a drop
/// ends the game ([`GameRecord::dropped`]). Everything else is as
/// [`play_game`]: the session only ever changes by the cube.
pub fn play_session_game(
    opts: &RuleOptions,
    session: &MatchState,
    dice: &mut dyn DiceSource,
    players: [&mut dyn Player; 2],
    observer: &mut dyn GameObserver,
) -> GameRecord {
    play_started_game(
        opts,
        session,
        GameStart::OpeningThrow,
        dice,
        players,
        observer,
    )
}

/// Plays a whole game as [`play_session_game`], opened as `start` says:
/// by the opening throw, or by a given side rolling first.
pub fn play_started_game(
    opts: &RuleOptions,
    session: &MatchState,
    start: GameStart,
    dice: &mut dyn DiceSource,
    mut players: [&mut dyn Player; 2],
    observer: &mut dyn GameObserver,
) -> GameRecord {
    let mut session = *session;
    let mut dropped = false;
    let Opened {
        throws: openings,
        starter,
        mut first_roll,
    } = start.open(opts, dice);
    let mut state = GameState::start_of(opts.variant, starter);
    let mut movegen = StageGen::new();
    let mut turns: Vec<TurnRecord> = Vec::new();
    let mut forfeit = None;
    let mut carried: Vec<StageRecord> = Vec::new();
    while state.result().is_none() {
        let mover = state.to_move;
        let mut double = None;
        if state.pending == Pending::Roll
            && first_roll.is_none()
            && session.may_double(mover).is_ok()
        {
            match cube_action(opts, &state, &mut session, &mut players) {
                Ok(CubeOutcome::NoDouble) => {}
                Ok(CubeOutcome::Kept(answer)) => double = Some(answer),
                Ok(CubeOutcome::Dropped) => {
                    dropped = true;
                    break;
                }
                Err((side, reason)) => {
                    forfeit = Some(Forfeit {
                        side,
                        before: state,
                        roll: None,
                        reason,
                    });
                    break;
                }
            }
        }
        let (roll, start) = match state.pending {
            Pending::Roll => {
                let r = first_roll
                    .take()
                    .unwrap_or_else(|| (dice.die(), dice.die()));
                observer.rolled(&state, r);
                // Rolling is always allowed in the Roll state of a live game.
                match state.roll(opts, r.0, r.1) {
                    Ok(s) => (Some(r), s),
                    Err(_) => break,
                }
            }
            _ => (None, state),
        };
        let remainder = match start.pending {
            Pending::Remainder { die, count } => Some((die, count)),
            _ => None,
        };
        let played = play_checked_turn(
            &state,
            roll,
            start,
            opts,
            &session,
            &mut *players[mover.index()],
            &mut movegen,
        );
        let (turn, next, stages, took) = match played {
            Ok(done) => done,
            Err(f) => {
                forfeit = Some(*f);
                break;
            }
        };
        let stages = carry_stages(mover, &next, stages, &mut carried);
        let record = TurnRecord {
            side: mover,
            double,
            roll,
            remainder,
            moves: turn
                .moves
                .into_iter()
                .filter(|&t| t != MoveToken::Pass)
                .collect(),
            stages,
        };
        observer.turn_played(&record, took);
        turns.push(record);
        state = next;
    }
    // A forfeit in a remainder turn: its skipped stages stay where they were played.
    if let Some(t) = turns.last_mut() {
        t.stages.append(&mut carried);
    }
    GameRecord {
        openings,
        starter,
        turns,
        result: final_result(&state, dropped),
        forfeit,
        final_state: state,
        session,
        dropped,
    }
}

/// Asks `player`, the side to move in `before`, for its turn from `start`
/// (after `roll`, if one; a turn with nothing playable is not asked) and
/// checks it: the turn, the state after it, its stages, and how long the
/// player took. A fault or an illegal turn is a forfeit.
fn play_checked_turn(
    before: &GameState,
    roll: Option<(u8, u8)>,
    start: GameState,
    opts: &RuleOptions,
    session: &MatchState,
    player: &mut dyn Player,
    movegen: &mut StageGen,
) -> Result<(Turn, GameState, Vec<StageRecord>, Duration), Box<Forfeit>> {
    let mover = before.to_move;
    let mut ends = Vec::new();
    let skipped = skip_forced_empty(start, opts, movegen, &mut ends);
    let asked_at = Instant::now();
    let turn = if turn_over(&skipped, mover) && skipped.result().is_none() {
        Turn::default()
    } else {
        let ask = TurnRequest {
            before,
            roll,
            start: &start,
            opts,
            session,
        };
        player.play_turn(&ask).map_err(|fault| {
            Box::new(Forfeit {
                side: mover,
                before: *before,
                roll,
                reason: fault.into(),
            })
        })?
    };
    let took = asked_at.elapsed();
    let mut seq = TurnSequence::new(start, opts);
    let checked = turn
        .moves
        .iter()
        .try_for_each(|&t| seq.push(t))
        .and_then(|()| seq.finish_with_stages());
    match checked {
        Ok((next, stages)) => Ok((turn, next, stages, took)),
        Err(error) => Err(Box::new(Forfeit {
            side: mover,
            before: *before,
            roll,
            reason: ForfeitReason::IllegalTurn { turn, error },
        })),
    }
}

/// The stages of `mover`'s turn that led to `next`: those `carried` from
/// the last turn first. The other side's remainder stages with nothing
/// playable, skipped at the end of this turn, are kept back in `carried`:
/// they open its remainder turn, if one follows.
fn carry_stages(
    mover: Side,
    next: &GameState,
    mut stages: Vec<StageRecord>,
    carried: &mut Vec<StageRecord>,
) -> Vec<StageRecord> {
    if !carried.is_empty() {
        carried.append(&mut stages);
        stages = std::mem::take(carried);
    }
    if matches!(next.pending, Pending::Remainder { .. })
        && next.to_move != mover
        && next.result().is_none()
    {
        let own = stages.iter().take_while(|s| s.side == mover).count();
        *carried = stages.split_off(own);
    }
    stages
}

/// The result of a game that ended in `state`; `dropped`: by a dropped
/// double.
fn final_result(state: &GameState, dropped: bool) -> GameResult {
    match state.result() {
        Some(r) => r,
        // A dropped double: the doubler wins (the points are the cube's,
        // [`GameRecord::scored`]).
        None if dropped => GameResult {
            winner: Some(state.to_move),
            points: 1,
        },
        None => GameResult {
            winner: None,
            points: 0,
        },
    }
}

/// What came of the cube before a roll.
enum CubeOutcome {
    /// The side to move did not double.
    NoDouble,
    /// It doubled and the other side took or beavered.
    Kept(CubeAnswer),
    /// It doubled and the other side dropped.
    Dropped,
}

/// Asks the side to move in `state` whether it doubles, and the other side
/// for its answer, changing `session` as they decide. A player's fault, or
/// an answer the session does not allow, is the forfeit of that side.
fn cube_action(
    opts: &RuleOptions,
    state: &GameState,
    session: &mut MatchState,
    players: &mut [&mut dyn Player; 2],
) -> Result<CubeOutcome, (Side, ForfeitReason)> {
    let doubler = state.to_move;
    let taker = doubler.opponent();
    let ask = CubeRequest {
        state,
        session,
        opts,
    };
    let doubles = players[doubler.index()]
        .offer_double(&ask)
        .map_err(|f| (doubler, ForfeitReason::Player(f)))?;
    if !doubles {
        return Ok(CubeOutcome::NoDouble);
    }
    let mut offered = *session;
    // The side was asked because the session allows its double.
    if offered.double(doubler).is_err() {
        return Ok(CubeOutcome::NoDouble);
    }
    let ask = CubeRequest {
        state,
        session: &offered,
        opts,
    };
    let answer = players[taker.index()]
        .answer_double(&ask)
        .map_err(|f| (taker, ForfeitReason::Player(f)))?;
    let done = match answer {
        CubeAnswer::Take => offered.take(),
        CubeAnswer::Beaver => offered.beaver(),
        CubeAnswer::Drop => return Ok(CubeOutcome::Dropped),
    };
    done.map_err(|error| (taker, ForfeitReason::IllegalAnswer { answer, error }))?;
    *session = offered;
    Ok(CubeOutcome::Kept(answer))
}

/// Plays a game between two choosers (White's first) through [`StagePlayer`]s.
pub fn play_choosers(
    opts: &RuleOptions,
    dice: &mut dyn DiceSource,
    white: &mut dyn Chooser,
    black: &mut dyn Chooser,
) -> GameRecord {
    play_game(
        opts,
        dice,
        [&mut StagePlayer(white), &mut StagePlayer(black)],
        &mut (),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::SessionRules;
    use crate::rules::dice::SeededDice;

    #[test]
    fn seeded_games_are_reproducible_and_end() {
        let opts = RuleOptions::default();
        for seed in 0..20 {
            let mut a1 = RandomChooser::new(seed);
            let mut b1 = RandomChooser::new(seed + 100);
            let g1 = play_choosers(&opts, &mut SeededDice::new(seed), &mut a1, &mut b1);
            let mut a2 = RandomChooser::new(seed);
            let mut b2 = RandomChooser::new(seed + 100);
            let g2 = play_choosers(&opts, &mut SeededDice::new(seed), &mut a2, &mut b2);
            assert_eq!(g1, g2);
            assert!(g1.forfeit.is_none());
            let r = g1.result;
            assert!(r.winner.is_some() || r.points == 0);
            assert!(r.points <= 2);
        }
    }

    #[derive(Default)]
    struct Count {
        rolls: usize,
        turns: usize,
    }

    impl GameObserver for Count {
        fn rolled(&mut self, _before: &GameState, _roll: (u8, u8)) {
            self.rolls += 1;
        }

        fn turn_played(&mut self, _turn: &TurnRecord, _took: Duration) {
            self.turns += 1;
        }
    }

    #[test]
    fn the_observer_sees_every_roll_and_turn() {
        let opts = RuleOptions::default();
        let (mut a, mut b) = (RandomChooser::new(4), RandomChooser::new(5));
        let mut count = Count::default();
        let g = play_game(
            &opts,
            &mut SeededDice::new(9),
            [&mut StagePlayer(&mut a), &mut StagePlayer(&mut b)],
            &mut count,
        );
        assert_eq!(count.turns, g.turns.len());
        assert_eq!(
            count.rolls,
            g.turns.iter().filter(|t| t.roll.is_some()).count()
        );
    }

    /// Plays randomly; doubles at its first chance when `doubles`, and
    /// answers every double with `answer`.
    struct Cubey {
        chooser: RandomChooser,
        doubles: bool,
        answer: CubeAnswer,
        asked: usize,
    }

    impl Cubey {
        fn new(seed: u64, doubles: bool, answer: CubeAnswer) -> Cubey {
            Cubey {
                chooser: RandomChooser::new(seed),
                doubles,
                answer,
                asked: 0,
            }
        }
    }

    impl Player for Cubey {
        fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
            StagePlayer(&mut self.chooser).play_turn(ask)
        }

        fn offer_double(&mut self, ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
            assert!(ask.session.may_double(ask.state.to_move).is_ok());
            self.asked += 1;
            Ok(self.doubles)
        }

        fn answer_double(&mut self, ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
            assert_eq!(ask.session.doubled_by(), Some(ask.state.to_move));
            Ok(self.answer)
        }
    }

    fn money_with_cube(beavers: bool) -> MatchState {
        MatchState::money(SessionRules {
            cube: true,
            beavers,
            ..SessionRules::default()
        })
    }

    /// A backgammon game on seed 4's dice in `session` between White and
    /// Black playing at random, each doubling at its first chance or never,
    /// and answering every double as given.
    fn cube_game(
        session: &MatchState,
        white: (bool, CubeAnswer),
        black: (bool, CubeAnswer),
    ) -> GameRecord {
        let opts = RuleOptions::for_variant(crate::rules::Variant::Backgammon);
        let mut a = Cubey::new(1, white.0, white.1);
        let mut b = Cubey::new(2, black.0, black.1);
        play_session_game(
            &opts,
            session,
            &mut SeededDice::new(4),
            [&mut a, &mut b],
            &mut (),
        )
    }

    #[test]
    fn a_dropped_double_ends_the_game_at_the_cube() {
        let g = cube_game(
            &money_with_cube(false),
            (true, CubeAnswer::Take),
            (false, CubeAnswer::Drop),
        );
        assert!(g.dropped && g.forfeit.is_none());
        // White doubled at its first roll after the opening, and the game
        // stopped there.
        let doubler_side = g.final_state.to_move;
        assert_eq!(doubler_side, Side::White);
        assert!(g.final_state.result().is_none());
        assert_eq!(g.scored(), Some((doubler_side, 1)));
        assert_eq!(g.result.winner, Some(doubler_side));
        assert!(g.turns.iter().all(|t| t.double.is_none()));
        // Nobody is asked before the opening roll.
        assert!((1..=2).contains(&g.turns.len()));
    }

    #[test]
    fn takes_turn_the_cube_and_only_its_owner_may_double() {
        let g = cube_game(
            &money_with_cube(false),
            (true, CubeAnswer::Take),
            (true, CubeAnswer::Take),
        );
        assert!(!g.dropped && g.forfeit.is_none());
        let doubles: Vec<&TurnRecord> = g.turns.iter().filter(|t| t.double.is_some()).collect();
        assert!(doubles.len() >= 2, "both keep redoubling");
        // Doubles alternate: each taker owns the cube and redoubles next.
        for w in doubles.windows(2) {
            assert_ne!(w[0].side, w[1].side);
        }
        let cube = 1u32 << doubles.len();
        assert_eq!(g.session.cube(), cube);
        let last = doubles[doubles.len() - 1].side;
        assert_eq!(
            g.session.owner(),
            crate::cube::CubeOwner::Side(last.opponent())
        );
        let (winner, points) = g.scored().unwrap();
        assert_eq!(Some(winner), g.result.winner);
        assert_eq!(points, u32::from(g.result.points) * cube);
        // A player that knows nothing of the cube is never asked to pay for it.
        let opts = RuleOptions::for_variant(crate::rules::Variant::Backgammon);
        let (mut r1, mut r2) = (RandomChooser::new(1), RandomChooser::new(2));
        let plain = play_session_game(
            &opts,
            &money_with_cube(false),
            &mut SeededDice::new(4),
            [&mut StagePlayer(&mut r1), &mut StagePlayer(&mut r2)],
            &mut (),
        );
        assert_eq!(plain.session.cube(), 1);
    }

    #[test]
    fn a_beaver_where_beavers_are_off_is_a_forfeit_and_allowed_ones_quadruple() {
        let g = cube_game(
            &money_with_cube(false),
            (true, CubeAnswer::Take),
            (false, CubeAnswer::Beaver),
        );
        assert_eq!(g.scored(), None);
        let f = g.forfeit.expect("a forfeit");
        assert!(matches!(
            f.reason,
            ForfeitReason::IllegalAnswer {
                answer: CubeAnswer::Beaver,
                ..
            }
        ));
        assert_eq!(f.side, f.before.to_move.opponent());
        let g = cube_game(
            &money_with_cube(true),
            (true, CubeAnswer::Take),
            (false, CubeAnswer::Beaver),
        );
        assert!(g.forfeit.is_none());
        assert_eq!(g.session.cube(), 4);
        // The beaverer owns the cube and does not redouble: one double in all.
        assert_eq!(g.turns.iter().filter(|t| t.double.is_some()).count(), 1);
    }

    #[test]
    fn the_crawford_game_asks_nobody_and_a_cubeless_session_neither() {
        let opts = RuleOptions::for_variant(crate::rules::Variant::Backgammon);
        let mut m = MatchState::match_to(5, SessionRules::default()).unwrap();
        m.set_score(4, 2, None).unwrap();
        assert!(m.is_crawford());
        for session in [m, cubeless()] {
            let mut a = Cubey::new(1, true, CubeAnswer::Take);
            let mut b = Cubey::new(2, true, CubeAnswer::Drop);
            let g = play_session_game(
                &opts,
                &session,
                &mut SeededDice::new(4),
                [&mut a, &mut b],
                &mut (),
            );
            assert_eq!(a.asked + b.asked, 0);
            assert!(!g.dropped && g.final_state.result().is_some());
        }
    }

    struct Bad(Turn);

    impl Player for Bad {
        fn play_turn(&mut self, _ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
            Ok(self.0.clone())
        }
    }

    #[test]
    fn an_illegal_turn_is_a_forfeit() {
        let opts = RuleOptions::default();
        for turn in [
            Turn::default(),
            Turn {
                moves: vec![MoveToken::Move { from: 1, to: 0 }],
            },
        ] {
            let mut bad = Bad(turn.clone());
            let mut random = RandomChooser::new(1);
            let g = play_game(
                &opts,
                &mut SeededDice::new(3),
                [&mut bad, &mut StagePlayer(&mut random)],
                &mut (),
            );
            let f = g.forfeit.expect("a forfeit");
            assert_eq!(f.side, Side::White);
            assert!(
                matches!(f.reason, ForfeitReason::IllegalTurn { turn: ref t, .. } if *t == turn)
            );
            assert!(g.turns.iter().all(|t| t.side == Side::Black));
        }
    }
}
