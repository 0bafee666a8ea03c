//! GNU Backgammon interoperation: its Match IDs ([`matchid`]) and Position IDs
//! ([`position_id`]), eXtreme Gammon's XGID ([`xgid`]), the
//! FIBS board strings of gnubg's external-player interface ([`fibs`]), its
//! move notations ([`movetext`]), the Jellyfish `.mat` files it imports and
//! exports ([`mat`]). The bridge that serves the interface is a front end,
//! [`crate::frontends::gnubg_external`].
//!
//! Only the hitting games (backgammon, short nardy) share gnubg's board.

pub mod fibs;
pub mod mat;
pub mod matchid;
pub mod movetext;
pub mod position_id;
pub mod xgid;

use crate::gnubg::position_id::{GnubgBoard, SideCounts};
use crate::rules::ruleset::{PositionError, check_position};
use crate::rules::{Checkers, GameState, Pending, Position, Side, Variant};

/// Why a gnubg board cannot be a state of a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The variant does not use gnubg's board.
    #[error("gnubg positions are for short_nardy and backgammon, not {0}")]
    Variant(Variant),
    /// More than 15 checkers on a side.
    #[error("more than 15 checkers a side")]
    TooManyCheckers,
    /// The position breaks the variant's rules.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// Dice that are not two numbers 1 to 6.
    #[error("bad dice {0}{1}")]
    Dice(u8, u8),
}

fn side_counts(c: Checkers) -> SideCounts {
    let mut s = [0u8; 25];
    s[..24].copy_from_slice(&c.counts());
    s[24] = c.bar();
    s
}

/// The gnubg board of a hitting-game position, the mover on roll.
pub fn board_of(pos: Position) -> GnubgBoard {
    GnubgBoard {
        on_roll: side_counts(pos.own),
        opponent: side_counts(pos.opp),
    }
}

/// The position of a gnubg board, the side on roll as the mover.
pub fn position_of(board: &GnubgBoard) -> Result<Position, BoardError> {
    let side = |c: &SideCounts| {
        let mut points = [0u8; 24];
        points.copy_from_slice(&c[..24]);
        Checkers::from_counts_with_bar(&points, c[24]).ok_or(BoardError::TooManyCheckers)
    };
    Ok(Position {
        own: side(&board.on_roll)?,
        opp: side(&board.opponent)?,
    })
}

/// The state of `variant` with the board's side on roll as White, to roll
/// (`dice` `None`) or to play the dice given.
pub fn state_of(
    variant: Variant,
    board: &GnubgBoard,
    dice: Option<(u8, u8)>,
) -> Result<GameState, BoardError> {
    if !variant.spec().gnubg {
        return Err(BoardError::Variant(variant));
    }
    let mut state = GameState::start_of(variant, Side::White);
    state.pos = position_of(board)?;
    check_position(variant, state.pos)?;
    if let Some((a, b)) = dice {
        if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
            return Err(BoardError::Dice(a, b));
        }
        // The hitting games play a doublet as four dice, never a chain.
        state.pending = Pending::Roll2 { d1: a, d2: b };
        state.rolls[0] = 1;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::hitting::START;

    #[test]
    fn board_and_position_round_trip() {
        let b = board_of(START);
        assert_eq!(crate::gnubg::position_id::encode(&b), "4HPwATDgc/ABMA");
        assert_eq!(position_of(&b).unwrap(), START);
        let s = state_of(Variant::Backgammon, &b, Some((3, 1))).unwrap();
        assert_eq!(s.pending, Pending::Roll2 { d1: 3, d2: 1 });
        assert_eq!(
            state_of(Variant::GulBara, &b, None),
            Err(BoardError::Variant(Variant::GulBara))
        );
        assert_eq!(
            state_of(Variant::ShortNardy, &b, Some((0, 1))),
            Err(BoardError::Dice(0, 1))
        );
    }
}
