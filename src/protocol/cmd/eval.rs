//! `eval`: the chances of the side to move, before its roll or after its
//! best play when dice are set, as one `evaluation` line.

use std::time::Instant;

use crate::engine::JobKind;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::Session;
use crate::rules::{Pending, Variant};

use super::fmt_p;

impl Session {
    /// Starts `eval`.
    pub(in crate::protocol) fn eval(&mut self) -> Result<(), ProtocolError> {
        let state = *self.state();
        let dice_set = matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. });
        if state.result().is_none() && dice_set {
            // Dice set: the chances after the best play.
            let mut limits = self.engine().limits(None);
            limits.deadline = self.engine().deadline_from(Instant::now());
            return self.spawn(JobKind::Eval, false, move |job, _| {
                let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
                let probs = ranked.first().map(|c| c.probs).unwrap_or_default();
                vec![evaluation_line_for(state.variant, &probs)]
            });
        }
        let (plies, beam) = self.engine().before_roll_depth();
        self.spawn(JobKind::Eval, false, move |job, _| {
            vec![evaluation_line_for(
                state.variant,
                &job.search.before_roll(&state, plies, beam),
            )]
        })
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
