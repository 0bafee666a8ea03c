//! `position startpos|board|gnubgid|xgid ... [moves ...]`: a position of
//! the current game, from its start, from position text, or from gnubg's or
//! eXtreme Gammon's texts, then the moves after it.

use std::fmt;

use super::Verb;
use super::setturn::name_side_to_move;
use crate::cube::{CubeOwner, MatchState, SessionRules};
use crate::engine::Engine;
use crate::notation;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session, setup_error};
use crate::protocol::words::{Words, side};
use crate::rules::{GameState, Side, Variant};

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

impl fmt::Display for Base {
    /// `startpos` (`startpos b` for Black), `board <position>`,
    /// `gnubgid <ID>` or `xgid <XGID>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Base::Start(Side::White) => f.write_str("startpos"),
            Base::Start(Side::Black) => f.write_str("startpos b"),
            Base::Board(words) => {
                f.write_str("board")?;
                words.iter().try_for_each(|w| write!(f, " {w}"))
            }
            Base::GnubgId(id) => write!(f, "gnubgid {id}"),
            Base::Xgid(x) => write!(f, "xgid {x}"),
        }
    }
}

/// `position <base> [moves ...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionCmd {
    /// The base position.
    pub base: Base,
    /// The move tokens, applied in order.
    pub moves: Vec<String>,
}

impl PositionCmd {
    /// `position board <text>`: the position text `text` (as
    /// [`notation::state_text`] writes it), no moves.
    pub fn board(text: &str) -> PositionCmd {
        PositionCmd {
            base: Base::Board(
                Words::new(text)
                    .all()
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            ),
            moves: Vec::new(),
        }
    }

    /// Parses the words after `position`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let usage = "usage: position startpos [w|b] [moves ...] | position board <position> [moves ...] | position gnubgid <ID>[:<MatchID>] [moves ...] | position xgid <XGID> [moves ...]";
        let base = match words.next() {
            Some("startpos") => Base::Start(words.next_as(side).unwrap_or(Side::White)),
            Some("board") => {
                let board_words = words.until("moves");
                // Accept the 24 counts comma-separated (the notation) or as 24 words.
                let mut toks: Vec<String> = board_words.iter().map(|t| t.to_string()).collect();
                if let Some((counts, rest)) = board_words.split_first_chunk::<24>()
                    && !counts[0].contains(',')
                {
                    toks = std::iter::once(counts.join(","))
                        .chain(rest.iter().map(|t| t.to_string()))
                        .collect();
                }
                Base::Board(toks)
            }
            Some("gnubgid") => match words.next() {
                Some(id) if id != "moves" => Base::GnubgId(id.to_string()),
                _ => {
                    return Err(ProtocolError::bad_command(
                        "usage: position gnubgid <14-character gnubg Position ID>[:<12-character Match ID>] [moves ...]",
                    ));
                }
            },
            Some("xgid") => match words.next() {
                Some(id) if id != "moves" => Base::Xgid(id.to_string()),
                _ => {
                    return Err(ProtocolError::bad_command(
                        "usage: position xgid <XGID=...> [moves ...]",
                    ));
                }
            },
            Some(t) => {
                return Err(ProtocolError::bad_command(format!(
                    "{usage}; got {}",
                    quote(t)
                )));
            }
            None => return Err(ProtocolError::bad_command(usage)),
        };
        let moves = match words.next() {
            None => Vec::new(),
            Some("moves") => words.all().into_iter().map(str::to_string).collect(),
            Some(t) => {
                return Err(ProtocolError::bad_command(format!(
                    "expected 'moves' after the position, got {}",
                    quote(t)
                )));
            }
        };
        Ok(PositionCmd { base, moves })
    }

    /// Applies `position` to `engine`: the base, then the moves in order;
    /// on error nothing changes.
    pub fn apply_to(self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let PositionCmd { base, moves } = self;
        let variant = engine.settings().rules.variant;
        let rules = engine.session().rules();
        let (start, session) = match base {
            Base::Start(side) => (GameState::start_of(variant, side), None),
            Base::Board(toks) => (board_state(variant, &toks)?, None),
            Base::GnubgId(id) => gnubg_state(variant, &id, rules)?,
            Base::Xgid(x) => xgid_state(variant, &x, rules).map(|(s, m)| (s, Some(m)))?,
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
        if session.is_some_and(|m| m.doubled_by().is_some()) && !toks.is_empty() {
            return Err(ProtocolError::bad_value(
                "a double waits for its answer in that position: no moves can follow it",
            ));
        }
        engine.set_state(next).map_err(setup_error)?;
        if let Some(m) = session {
            engine.set_session(m);
        }
        Ok(())
    }
}

impl Verb for PositionCmd {
    /// Also a gnubg Position ID alone reads its player on roll as White;
    /// after `setturn p1` that player is Black.
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        let bare_id = matches!(&self.base, Base::GnubgId(id) if !id.contains(':'));
        self.apply_to(session.engine_mut())?;
        if bare_id && session.turn == Some(Side::Black) {
            let to_move = session.state().to_move.opponent();
            name_side_to_move(session, to_move)?;
        }
        Ok(Flow::Continue)
    }
}

impl fmt::Display for PositionCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}", self.base)?;
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            self.moves.iter().try_for_each(|m| write!(f, " {m}"))?;
        }
        Ok(())
    }
}

/// The session a gnubg Match ID or an XGID describes, the side on roll as
/// White: money play or a match with its score, the Crawford game, the
/// cube, its owner and a double waiting (by White, the side on roll, whose
/// roll comes next). Where the text says nothing (beavers, the Crawford
/// rule), `rules` stays; the cube is on where the text has it turned or
/// offered.
fn session_of(
    rules: SessionRules,
    said: &IdSession,
) -> Result<MatchState, crate::cube::CubeStateError> {
    let IdSession {
        length,
        scores,
        crawford,
        cube,
        owner,
        doubled,
        jacoby,
    } = *said;
    let rules = SessionRules {
        cube: rules.cube || cube > 1 || doubled,
        jacoby: length == 0 && jacoby,
        ..rules
    };
    let mut m = if length == 0 {
        MatchState::money(rules)
    } else {
        let mut m = MatchState::match_to(length, rules)?;
        let one_away =
            (length - scores[0].min(length) == 1) != (length - scores[1].min(length) == 1);
        // The text says whether this is the Crawford game; at other scores
        // it says nothing, and the usual reading holds.
        m.set_score(scores[0], scores[1], one_away.then_some(crawford))?;
        m
    };
    m.set_cube(cube, owner)?;
    if doubled {
        m.double(Side::White)?;
    }
    Ok(m)
}

/// What a Match ID or an XGID says of the session, the side on roll as
/// White.
#[derive(Clone, Copy)]
struct IdSession {
    /// The match length, 0 for money play.
    length: u32,
    /// White's and Black's scores.
    scores: [u32; 2],
    /// This game is the Crawford game.
    crawford: bool,
    /// The cube's value (before a double that waits).
    cube: u32,
    /// Who owns it.
    owner: CubeOwner,
    /// White's double waits for its answer.
    doubled: bool,
    /// The Jacoby rule (money play).
    jacoby: bool,
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
fn gnubg_state(
    variant: Variant,
    id: &str,
    rules: SessionRules,
) -> Result<(GameState, Option<MatchState>), ProtocolError> {
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
    let info = match match_id {
        Some(m) => Some(crate::gnubg::matchid::decode(m).map_err(|e| bad("Match ID", &e))?),
        None => None,
    };
    let dice = info.and_then(|i| i.dice.filter(|_| !i.doubled && i.resigned == 0));
    let state =
        crate::gnubg::state_of(variant, &board, dice).map_err(|e| bad("Position ID", &e))?;
    let Some(i) = info else {
        return Ok((state, None));
    };
    // The Position ID is seen from the player on roll, who is White here.
    let me = usize::from(i.on_roll);
    let owner = match i.cube_owner {
        None => CubeOwner::Centre,
        Some(p) if usize::from(p) == me => CubeOwner::Side(Side::White),
        Some(_) => CubeOwner::Side(Side::Black),
    };
    let said = IdSession {
        length: i.match_length,
        scores: [i.score[me], i.score[1 - me]],
        crawford: i.crawford,
        cube: i.cube,
        owner,
        doubled: i.doubled,
        jacoby: i.jacoby,
    };
    let session = session_of(rules, &said).map_err(|e| bad("Match ID", &e))?;
    Ok((state, Some(session)))
}

/// The state of `position xgid <XGID>`: the side on turn is White, to roll
/// or to play the dice the XGID gives.
fn xgid_state(
    variant: Variant,
    text: &str,
    rules: SessionRules,
) -> Result<(GameState, MatchState), ProtocolError> {
    let bad = |e: &dyn std::fmt::Display| {
        ProtocolError::bad_value(format!("bad XGID {}: {e}", quote(text)))
    };
    if !variant.spec().gnubg {
        return Err(bad(&crate::gnubg::BoardError::Variant(variant)));
    }
    let x = crate::gnubg::xgid::decode(text).map_err(|e| bad(&e))?;
    // A waiting double was offered to the side on turn: the doubler, whose
    // roll comes next, is White here.
    let board = if x.doubled {
        crate::gnubg::position_id::GnubgBoard {
            on_roll: x.board.opponent,
            opponent: x.board.on_roll,
        }
    } else {
        x.board
    };
    let state = crate::gnubg::state_of(variant, &board, x.dice).map_err(|e| bad(&e))?;
    let white_is_bottom = x.bottom_on_turn != x.doubled;
    let (me, them) = if white_is_bottom { (0, 1) } else { (1, 0) };
    let owner = match x.cube_owner {
        0 => CubeOwner::Centre,
        o if (o == 1) == white_is_bottom => CubeOwner::Side(Side::White),
        _ => CubeOwner::Side(Side::Black),
    };
    // With a double waiting, the XGID gives the cube offered.
    let cube = if x.doubled {
        (x.cube / 2).max(1)
    } else {
        x.cube
    };
    // The rules field: the Crawford game in a match, Jacoby in money play.
    let said = IdSession {
        length: x.match_length,
        scores: [x.score[me], x.score[them]],
        crawford: x.match_length > 0 && x.rules & 1 == 1,
        cube,
        owner,
        doubled: x.doubled,
        jacoby: x.match_length == 0 && x.rules & 1 == 1,
    };
    let session = session_of(rules, &said).map_err(|e| bad(&e))?;
    Ok((state, session))
}
