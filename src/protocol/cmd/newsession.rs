//! `newsession type money|match [length N] [jacoby on|off] [crawford on|off]
//! [beavers on|off] [cube on|off] [rotation GAME,GAME,... [starter
//! winner|throw]]`: a new session (money play or a match to N points) at
//! 0-0, the cube at 1 in the middle, and a new game. A match with a
//! rotation (Greek tavli `portes,plakoto,fevga`, Bulgarian tabla
//! `tabla,tapa,gulbara`) plays its games in turn: the first now, the next
//! at each `newgame`. In a rotation the winner of each game starts the
//! next (`starter winner`, the default: `newgame` after a won game puts
//! its winner to roll); `starter throw` leaves every game to its opening
//! throw.

use std::fmt;

use super::Verb;
use crate::cube::{MatchState, SessionKind, SessionRules};
use crate::engine::Engine;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::{Words, number, on_off_text};

/// `newsession type money|match ...`: what it asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewSession {
    /// The match length; `None` for money play.
    pub length: Option<u32>,
    /// `jacoby on|off` (money play).
    pub jacoby: Option<bool>,
    /// `crawford on|off` (matches).
    pub crawford: Option<bool>,
    /// `beavers on|off` (money play).
    pub beavers: Option<bool>,
    /// `cube on|off`; `None`: the game's default.
    pub cube: Option<bool>,
    /// `rotation GAME,...` (matches): the games played in turn.
    pub rotation: Option<Vec<crate::rules::Variant>>,
    /// `starter winner|throw` (rotations): whether the winner of each game
    /// starts the next; `None`: the winner does.
    pub winner_starts: Option<bool>,
}

const USAGE: &str = "usage: newsession type money|match [length <n>] [jacoby on|off] [crawford on|off] [beavers on|off] [cube on|off] [rotation <game,game,...> [starter winner|throw]]";

fn on_off(what: &str, v: Option<&str>) -> Result<bool, ProtocolError> {
    match v.map(|t| (t, crate::protocol::words::on_off(t))) {
        Some((_, Some(b))) => Ok(b),
        Some((t, None)) => Err(ProtocolError::bad_value(format!(
            "newsession {what} must be on or off, got {}",
            quote(t)
        ))),
        None => Err(ProtocolError::bad_command(USAGE)),
    }
}

impl NewSession {
    /// Parses the words after `newsession`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        if !words.next_is("type") {
            return Err(ProtocolError::bad_command(USAGE));
        }
        let Some(kind) = words.next() else {
            return Err(ProtocolError::bad_command(USAGE));
        };
        let mut spec = NewSession::default();
        let is_match = match kind {
            "money" => false,
            "match" => true,
            t => {
                return Err(ProtocolError::bad_value(format!(
                    "newsession type must be money or match, got {}",
                    quote(t)
                )));
            }
        };
        while let Some(t) = words.next() {
            let v = words.next();
            match t {
                "length" if is_match => spec.length = Some(number("newsession length", v)?),
                "jacoby" if !is_match => spec.jacoby = Some(on_off(t, v)?),
                "beavers" if !is_match => spec.beavers = Some(on_off(t, v)?),
                "crawford" if is_match => spec.crawford = Some(on_off(t, v)?),
                "cube" => spec.cube = Some(on_off(t, v)?),
                "rotation" if is_match => {
                    let Some(list) = v else {
                        return Err(ProtocolError::bad_command(USAGE));
                    };
                    let mut games = Vec::new();
                    for name in list.split(',') {
                        let g: crate::rules::Variant =
                            name.parse()
                                .map_err(|e: crate::rules::options::OptionError| {
                                    ProtocolError::bad_value(format!("newsession rotation: {e}"))
                                })?;
                        games.push(g);
                    }
                    if games.len() > 16 {
                        return Err(ProtocolError::bad_value(
                            "newsession rotation takes at most 16 games",
                        ));
                    }
                    spec.rotation = Some(games);
                }
                "starter" if is_match => {
                    spec.winner_starts = Some(match v {
                        Some("winner") => true,
                        Some("throw") => false,
                        Some(t) => {
                            return Err(ProtocolError::bad_value(format!(
                                "newsession starter must be winner or throw, got {}",
                                quote(t)
                            )));
                        }
                        None => return Err(ProtocolError::bad_command(USAGE)),
                    });
                }
                _ => {
                    return Err(ProtocolError::bad_command(format!(
                        "{USAGE}; got {} (length, crawford, rotation and starter are for matches, jacoby and beavers for money)",
                        quote(t)
                    )));
                }
            }
        }
        if spec.winner_starts.is_some() && spec.rotation.is_none() {
            return Err(ProtocolError::bad_command(
                "newsession starter is a rule of rotating matches: give rotation <game,game,...>",
            ));
        }
        if is_match && spec.length.is_none() {
            return Err(ProtocolError::bad_command(
                "newsession type match needs length <n>",
            ));
        }
        Ok(spec)
    }

    /// The `newsession` of `session`'s kind and rules: money play with its
    /// Jacoby rule, beavers and cube, or a match with its length, Crawford
    /// rule and cube.
    pub fn of(session: &MatchState) -> NewSession {
        let r = session.rules();
        match session.kind() {
            SessionKind::Money => NewSession {
                jacoby: Some(r.jacoby),
                beavers: Some(r.beavers),
                cube: Some(r.cube),
                ..NewSession::default()
            },
            SessionKind::Match { length } => NewSession {
                length: Some(length),
                crawford: Some(r.crawford),
                cube: Some(r.cube),
                ..NewSession::default()
            },
        }
    }

    /// Applies `newsession` to `engine`: the session, then a new game. On
    /// error nothing changes.
    pub fn apply_to(&self, engine: &mut Engine) -> Result<(), ProtocolError> {
        let spec = self;
        let variant = match &spec.rotation {
            Some(games) => games[0],
            None => engine.settings().rules.variant,
        };
        let rules = SessionRules {
            cube: spec.cube.unwrap_or(variant.spec().cube),
            jacoby: spec.jacoby.unwrap_or(false),
            beavers: spec.beavers.unwrap_or(false),
            crawford: spec.crawford.unwrap_or(true),
        };
        let session = match spec.length {
            None => MatchState::money(rules),
            Some(n) => MatchState::match_to(n, rules)
                .map_err(|e| ProtocolError::bad_value(e.to_string()))?,
        };
        match &spec.rotation {
            Some(games) => {
                engine.start_rotation(games.clone(), session, spec.winner_starts.unwrap_or(true));
            }
            None => {
                // A session without a rotation ends one: its games are all of
                // the game in play.
                engine.end_rotation();
                engine.set_session(session);
                engine.new_game();
            }
        }
        Ok(())
    }
}

impl Verb for NewSession {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        self.apply_to(session.engine_mut())?;
        Ok(Flow::Continue)
    }
}

impl fmt::Display for NewSession {
    /// `newsession type money|match`, then each option given, in the
    /// usage's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.length.is_some() {
            "match"
        } else {
            "money"
        };
        write!(f, "newsession type {kind}")?;
        if let Some(n) = self.length {
            write!(f, " length {n}")?;
        }
        let switches = [
            ("jacoby", self.jacoby),
            ("beavers", self.beavers),
            ("crawford", self.crawford),
            ("cube", self.cube),
        ];
        for (name, on) in switches {
            if let Some(on) = on {
                write!(f, " {name} {}", on_off_text(on))?;
            }
        }
        if let Some(games) = &self.rotation {
            write!(f, " rotation {}", crate::rules::Variant::list_text(games))?;
        }
        match self.winner_starts {
            None => Ok(()),
            Some(true) => f.write_str(" starter winner"),
            Some(false) => f.write_str(" starter throw"),
        }
    }
}
