//! `go cube`: the cube decision that is due, on the engine's worker.
//! Before the roll: `info cube ...` with the cubeful equities of no double,
//! double/take and double/pass and the proper action as gnubg words it,
//! then `bestcube double` or `bestcube nodouble`. With a double waiting:
//! the same `info cube` line, from the doubler's view, then `bestcube take`,
//! `bestcube drop` or `bestcube beaver`.
//!
//! Money play: Janowski's cubeful equities ([`crate::cube::janowski`]),
//! per unit of the cube, with the cube's efficiency of the position
//! (`engine.cube_efficiency` in contact), exact in small bear-offs. At a
//! match score: match-winning chances ([`crate::cube::mwc`], `info
//! cube mwc ...`) through the Kazaross-XG2 table, which every game uses
//! until it has a table of its own.

use std::time::Instant;

use crate::cube::{CubeQuestion, CubeQuestionError, decide_at};
use crate::engine::{GoParams, JobKind};
use crate::notation::play_text_at;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::Session;
use crate::rules::Pending;

use super::{fmt_p, need_stage};

/// Starts `go cube` on `s`'s worker.
pub(super) fn go_cube(s: &mut Session) -> Result<(), ProtocolError> {
    let state = *s.state();
    let session = *s.engine().session();
    let q = CubeQuestion::before_roll(&state, &session).map_err(|e| match e {
        CubeQuestionError::CubeOff => {
            ProtocolError::bad_state(format!("{e} (newsession ... cube on)"))
        }
        _ => ProtocolError::bad_state(e.to_string()),
    })?;
    let (plies, beam) = s.engine().cube_depth();
    let contact = s.settings().contact_efficiency();
    s.spawn(JobKind::Go, false, move |job, _| {
        let probs = job.search.before_roll(&state, plies, beam);
        // Not this side's cube to turn (the opponent owns it, or the
        // Crawford game): nothing to weigh.
        let Some(d) = decide_at(&probs, &state, &session, q.doubler, contact) else {
            return vec!["bestcube nodouble".to_string()];
        };
        let unit = if q.in_match { " mwc" } else { "" };
        let info = format!(
            "info cube{unit} nodouble {} doubletake {} doublepass {} action {}",
            fmt_p(d.no_double as f32),
            fmt_p(d.double_take as f32),
            fmt_p(d.double_pass as f32),
            d.action.words(q.redouble)
        );
        let best = q.best(&d);
        vec![info, format!("bestcube {best}")]
    })
}

/// Starts `go role turn` (UBGI v0.1): the cube decision before the
/// roll, judged without the dice, then the best play of the dice set:
/// `bestturn cube=<double|nodouble> move=<play>`. The cube is
/// `nodouble` where there is none to turn: the cube off, the
/// opponent's cube, the Crawford game, or a stage that is not a
/// roll's first (an escalating chain's later stages).
pub(super) fn go_turn(s: &mut Session, p: GoParams) -> Result<(), ProtocolError> {
    need_stage(s.state(), "go role turn")?;
    let state = *s.state();
    let session = *s.engine().session();
    if session.doubled_by().is_some() {
        return Err(ProtocolError::bad_state(
            "a double waits for its answer: go role cube answers it",
        ));
    }
    let before = match state.pending {
        Pending::Roll2 { .. } | Pending::Chain { first: true, .. } => {
            let mut b = state;
            b.pending = Pending::Roll;
            let i = b.to_move.index();
            b.rolls[i] = b.rolls[i].saturating_sub(1);
            b.moved_this_turn = false;
            Some(b).filter(|_| session.rules().cube)
        }
        _ => None,
    };
    let (plies, beam) = s.engine().cube_depth();
    let limits = s.engine().go_limits(&p, Instant::now());
    let contact = s.settings().contact_efficiency();
    s.spawn(JobKind::Go, false, move |job, _| {
        let doubles = before.is_some_and(|b| {
            let probs = job.search.before_roll(&b, plies, beam);
            decide_at(&probs, &b, &session, b.to_move, contact).is_some_and(|d| d.action.doubles())
        });
        let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
        let play = ranked
            .first()
            .map(|c| play_text_at(state.variant, state.pos, &c.steps))
            .unwrap_or_else(|| "pass".into());
        let cube = if doubles { "double" } else { "nodouble" };
        vec![format!("bestturn cube={cube} move={play}")]
    })
}
