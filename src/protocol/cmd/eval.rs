//! `eval`: the chances of the side to move, before its roll or after its
//! best play when dice are set, as one `evaluation` line.

use std::time::Instant;

use crate::cube::cubeful_at;
use crate::engine::JobKind;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};
use crate::rules::{Pending, Variant};

use super::{Verb, bare_word, fmt_p};

bare_word!(
    /// `eval`: the `evaluation` line, on the engine's worker.
    Eval = "eval"
);

impl Verb for Eval {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        start_eval(session)?;
        Ok(Flow::Continue)
    }
}

/// Starts `eval` on `s`'s worker.
fn start_eval(s: &mut Session) -> Result<(), ProtocolError> {
    let state = *s.state();
    let session = *s.engine().session();
    let contact = s.settings().contact_efficiency();
    let dice_set = matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. });
    if state.result().is_none() && dice_set {
        // Dice set: the chances after the best play.
        let mut limits = s.engine().limits(None);
        limits.deadline = s.engine().deadline_from(Instant::now());
        return s.spawn(JobKind::Eval, false, move |job, _| {
            let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
            let best = ranked.first();
            let probs = best.map(|c| c.probs).unwrap_or_default();
            let mut line = evaluation_line_for(state.variant, &probs);
            // After the best play the opponent is to roll, with its
            // access to the cube: the mover's worth is the other side of
            // the opponent's.
            if let Some(c) = best {
                line.push_str(&worth_fields(after_play_worth(
                    c, &state, &session, contact,
                )));
            }
            vec![line]
        });
    }
    let (plies, beam) = s.engine().before_roll_depth();
    s.spawn(JobKind::Eval, false, move |job, _| {
        let probs = job.search.before_roll(&state, plies, beam);
        let mut line = evaluation_line_for(state.variant, &probs);
        line.push_str(&worth_fields(cubeful_at(
            &probs,
            &state,
            &session,
            state.to_move,
            contact,
        )));
        vec![line]
    })
}

/// The mover's cubeful worth after candidate `c` in `session` (`None`:
/// cubeless money play). The opponent is to roll then, with its access to
/// the cube: the mover's worth is the other side of the opponent's.
/// `contact`: the cube's efficiency in contact (`engine.cube_efficiency`).
pub(super) fn after_play_worth(
    c: &crate::search::Candidate,
    state: &crate::rules::GameState,
    session: &crate::cube::MatchState,
    contact: f64,
) -> Option<(f64, bool)> {
    let next = state.to_move.opponent();
    cubeful_at(&c.probs.flipped(), &c.end, session, next, contact)
        .map(|(v, mwc)| (if mwc { 1.0 - v } else { -v }, mwc))
}

/// The fields `eval` and `hint` add for a session with a cube or a match
/// score: ` cubeful <e>` (money, per unit of the cube) or ` mwc <m>`.
pub(super) fn worth_fields(worth: Option<(f64, bool)>) -> String {
    match worth {
        None => String::new(),
        Some((v, true)) => format!(" mwc {}", fmt_p(v as f32)),
        Some((v, false)) => format!(" cubeful {}", fmt_p(v as f32)),
    }
}

/// `evaluation win <p> winmars <p> losemars <p> equity <e>`.
pub fn evaluation_line(p: &crate::eval::Probs) -> String {
    format!(
        "evaluation win {} winmars {} losemars {} equity {}",
        fmt_p(p.win),
        fmt_p(p.win_mars),
        fmt_p(p.lose_mars),
        fmt_p(p.equity())
    )
}

/// `evaluation_line`, with `winbg <p> losebg <p>` before the equity in
/// backgammon.
pub fn evaluation_line_for(variant: Variant, p: &crate::eval::Probs) -> String {
    if variant.spec().scores.triple.is_none() {
        return evaluation_line(p);
    }
    format!(
        "evaluation win {} winmars {} losemars {} winbg {} losebg {} equity {}",
        fmt_p(p.win),
        fmt_p(p.win_mars),
        fmt_p(p.lose_mars),
        fmt_p(p.win_bg),
        fmt_p(p.lose_bg),
        fmt_p(p.equity())
    )
}
