//! `go cube`: the cube decision that is due, on the engine's worker.
//! Before the roll: `info cube ...` with the cubeful equities of no double,
//! double/take and double/pass and the proper action as gnubg words it,
//! then `bestcube double` or `bestcube nodouble`. With a double waiting:
//! the same `info cube` line, from the doubler's view, then `bestcube take`,
//! `bestcube drop` or `bestcube beaver`.
//!
//! Money play: Janowski's cubeful equities ([`crate::cube::janowski`]),
//! per unit of the cube, with the cube's efficiency of the position. At a
//! match score: match-winning chances ([`crate::cube::match_play`], `info
//! cube mwc ...`) through the Kazaross-XG2 table, which every game uses
//! until it has a table of its own.

use crate::cube::{
    CubeOwner, CubeView, KAZAROSS_XG2, MatchScore, SessionKind, efficiency, match_decision,
    money_decision,
};
use crate::engine::JobKind;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::Session;
use crate::rules::Pending;

use super::fmt_p;

impl Session {
    /// Starts `go cube`.
    pub(in crate::protocol) fn go_cube(&mut self) -> Result<(), ProtocolError> {
        let state = *self.state();
        let session = *self.engine().session();
        if state.result().is_some() {
            return Err(ProtocolError::bad_state("the game is over"));
        }
        if !session.rules().cube {
            return Err(ProtocolError::bad_state(
                "the cube is off in this session (newsession ... cube on)",
            ));
        }
        if state.pending != Pending::Roll {
            return Err(ProtocolError::bad_state(format!(
                "a cube decision comes before the roll ({})",
                state.pending_description()
            )));
        }
        let doubler = state.to_move;
        let score = match session.kind() {
            SessionKind::Money => None,
            SessionKind::Match { .. } => Some(MatchScore {
                me: session.away(doubler).unwrap_or(1),
                opp: session.away(doubler.opponent()).unwrap_or(1),
                post_crawford: session.is_post_crawford(),
            }),
        };
        let answering = session.doubled_by() == Some(doubler);
        let view = match session.owner() {
            CubeOwner::Centre => CubeView::Centre,
            CubeOwner::Side(s) if s == doubler => CubeView::Mine,
            CubeOwner::Side(_) => CubeView::Theirs,
        };
        if !answering && session.may_double(doubler).is_err() {
            // Not this side's cube to turn (or the Crawford game): nothing to weigh.
            return self.spawn(JobKind::Go, false, |_, _| {
                vec!["bestcube nodouble".to_string()]
            });
        }
        let rules = session.rules();
        let cube = session.cube();
        let redouble = view == CubeView::Mine;
        let x = efficiency(&state);
        let (plies, beam) = self.engine().before_roll_depth();
        self.spawn(JobKind::Go, false, move |job, _| {
            let probs = job.search.before_roll(&state, plies, beam);
            // The doubler's view; a waiting double was offered from the
            // centre or by the owner.
            let from = if answering && view == CubeView::Theirs {
                CubeView::Centre
            } else {
                view
            };
            let (d, unit) = match &score {
                None => (
                    money_decision(&probs, from, x, rules.jacoby, rules.beavers),
                    "",
                ),
                Some(s) => (
                    match_decision(&probs, &KAZAROSS_XG2, s, cube, from, x),
                    " mwc",
                ),
            };
            let info = format!(
                "info cube{unit} nodouble {} doubletake {} doublepass {} action {}",
                fmt_p(d.no_double as f32),
                fmt_p(d.double_take as f32),
                fmt_p(d.double_pass as f32),
                d.action.words(redouble)
            );
            let best = if answering {
                d.action.answer()
            } else if d.action.doubles() {
                "double"
            } else {
                "nodouble"
            };
            vec![info, format!("bestcube {best}")]
        })
    }
}
