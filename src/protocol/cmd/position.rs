//! `position startpos|board|gnubgid|xgid ... [moves ...]`: a position of
//! the current game, from its start, from position text, or from gnubg's or
//! eXtreme Gammon's texts, then the moves after it.

use crate::engine::Engine;
use crate::notation;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::side;
use crate::protocol::session::setup_error;
use crate::rules::{GameState, Side, Variant};

use super::Command;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Base {
    /// `startpos [w|b]`: the start position with this side to roll.
    Start(Side),
    /// `board <position text>`: a position written in the notation, as its
    /// tokens (read by the session, which knows the variant).
    Board(Vec<String>),
    /// `gnubgid <ID>[:<MatchID>]`: a gnubg Position ID, with its Match ID
    /// if given (the hitting games).
    GnubgId(String),
    /// `xgid <XGID>`: eXtreme Gammon's position text (the hitting games).
    Xgid(String),
}

/// Parses the words after `position`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let usage = "usage: position startpos [w|b] [moves ...] | position board <position> [moves ...] | position gnubgid <ID>[:<MatchID>] [moves ...] | position xgid <XGID> [moves ...]";
    let (base, rest) = match args.split_first() {
        Some((&"startpos", rest)) => match rest.first().map(|t| side(t)) {
            Some(Ok(("", s))) => (Base::Start(s), &rest[1..]),
            _ => (Base::Start(Side::White), rest),
        },
        Some((&"board", rest)) => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            let board_toks = &rest[..end];
            // Accept the 24 counts comma-separated (the notation) or as 24 tokens.
            let joined;
            let mut toks: Vec<&str> = board_toks.to_vec();
            if board_toks.first().is_some_and(|t| !t.contains(',')) && board_toks.len() >= 24 {
                joined = board_toks[..24].join(",");
                toks = std::iter::once(joined.as_str())
                    .chain(board_toks[24..].iter().copied())
                    .collect();
            }
            (
                Base::Board(toks.iter().map(|t| t.to_string()).collect()),
                &rest[end..],
            )
        }
        Some((&"gnubgid", rest)) => match rest.split_first() {
            Some((id, rest)) if *id != "moves" => (Base::GnubgId(id.to_string()), rest),
            _ => {
                return Err(ProtocolError::bad_command(
                    "usage: position gnubgid <14-character gnubg Position ID>[:<12-character Match ID>] [moves ...]",
                ));
            }
        },
        Some((&"xgid", rest)) => match rest.split_first() {
            Some((id, rest)) if *id != "moves" => (Base::Xgid(id.to_string()), rest),
            _ => {
                return Err(ProtocolError::bad_command(
                    "usage: position xgid <XGID=...> [moves ...]",
                ));
            }
        },
        Some((t, _)) => {
            return Err(ProtocolError::bad_command(format!(
                "{usage}; got {}",
                quote(t)
            )));
        }
        None => return Err(ProtocolError::bad_command(usage)),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", m)) => m.iter().map(|s| s.to_string()).collect(),
        Some((t, _)) => {
            return Err(ProtocolError::bad_command(format!(
                "expected 'moves' after the position, got {}",
                quote(t)
            )));
        }
    };
    Ok(Command::Position { base, moves })
}

/// Applies `position` to `engine`: the base, then `moves` in order; on
/// error nothing changes.
pub fn apply(engine: &mut Engine, base: Base, moves: &[String]) -> Result<(), ProtocolError> {
    let variant = engine.settings().rules.variant;
    let start = match base {
        Base::Start(side) => GameState::start_of(variant, side),
        Base::Board(toks) => board_state(variant, &toks)?,
        Base::GnubgId(id) => gnubg_state(variant, &id)?,
        Base::Xgid(x) => xgid_state(variant, &x)?,
    };
    let toks: Vec<&str> = moves.iter().map(String::as_str).collect();
    let next = notation::apply_moves(start, &engine.settings().rules, &toks).map_err(|e| {
        let tok = if e.token.is_empty() {
            "(end of list)".to_string()
        } else {
            quote(&e.token)
        };
        ProtocolError::bad_value(format!("moves token {} {tok}: {}", e.index, e.reason))
    })?;
    engine.set_state(next).map_err(setup_error)
}

/// The state of `position board <tokens>` in `variant`.
fn board_state(variant: Variant, toks: &[String]) -> Result<GameState, ProtocolError> {
    let toks: Vec<&str> = toks.iter().map(String::as_str).collect();
    let (state, used) = notation::parse_state_in(variant, &toks)
        .map_err(|e| ProtocolError::bad_value(format!("bad position: {e}")))?;
    if used != toks.len() {
        return Err(ProtocolError::bad_value(format!(
            "bad position: unexpected {} after the position (moves must follow 'moves')",
            quote(toks[used])
        )));
    }
    Ok(state)
}

/// The state of `position gnubgid <ID>[:<MatchID>]`: the side on roll is
/// White, to roll, or, when the Match ID says its dice are rolled (and no
/// double waits for an answer), to play them.
fn gnubg_state(variant: Variant, id: &str) -> Result<GameState, ProtocolError> {
    let bad = |what: &str, e: &dyn std::fmt::Display| {
        ProtocolError::bad_value(format!("bad gnubg {what} {}: {e}", quote(id)))
    };
    if !variant.spec().gnubg {
        return Err(bad(
            "Position ID",
            &crate::gnubg::BoardError::Variant(variant),
        ));
    }
    let (pos_id, match_id) = match id.split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (id, None),
    };
    let board = crate::gnubg::position_id::decode(pos_id).map_err(|e| bad("Position ID", &e))?;
    let dice = match match_id {
        Some(m) => {
            let info = crate::gnubg::matchid::decode(m).map_err(|e| bad("Match ID", &e))?;
            info.dice.filter(|_| !info.doubled && info.resigned == 0)
        }
        None => None,
    };
    crate::gnubg::state_of(variant, &board, dice).map_err(|e| bad("Position ID", &e))
}

/// The state of `position xgid <XGID>`: the side on turn is White, to roll
/// or to play the dice the XGID gives.
fn xgid_state(variant: Variant, text: &str) -> Result<GameState, ProtocolError> {
    let bad = |e: &dyn std::fmt::Display| {
        ProtocolError::bad_value(format!("bad XGID {}: {e}", quote(text)))
    };
    if !variant.spec().gnubg {
        return Err(bad(&crate::gnubg::BoardError::Variant(variant)));
    }
    let x = crate::gnubg::xgid::decode(text).map_err(|e| bad(&e))?;
    crate::gnubg::state_of(variant, &x.board, x.dice).map_err(|e| bad(&e))
}
