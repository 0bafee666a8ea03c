//! The luck of a roll: how the roller fares after the roll it got, against
//! the average over all 21 rolls, each judged by its best turn at 0-ply.
//! The match runner's luck-adjusted ppg and the rollouts' variance
//! reduction both start from [`Search::roll_outcomes`].

use super::{ROLLS, Search};
use crate::eval::{Probs, probs_for};
use crate::rules::GameState;

/// How one roll turns out for the roller.
#[derive(Clone, Debug)]
pub struct RollOutcome {
    /// The dice.
    pub roll: (u8, u8),
    /// How many of the 36 ways to throw two dice give this roll.
    pub weight: f32,
    /// The roller's chances after its best turn (with no legal play, those
    /// of the position it is left in).
    pub probs: Probs,
    /// The end of that best turn, if there is a play.
    pub end: Option<GameState>,
}

impl RollOutcome {
    /// Whether this is the roll `(a, b)`, in either order.
    pub fn is(&self, (a, b): (u8, u8)) -> bool {
        self.roll == (a, b) || self.roll == (b, a)
    }
}

impl Search<'_> {
    /// Every roll from `state` (the side to move about to roll), its best
    /// turn found with a chain beam of `beam` and `prefilter` ends judged
    /// per doublet stage (0: all). A roll the rules refuse is left out.
    pub fn roll_outcomes(
        &self,
        state: &GameState,
        beam: usize,
        prefilter: usize,
    ) -> Vec<RollOutcome> {
        let roller = state.to_move;
        ROLLS
            .iter()
            .filter_map(|&(a, b, weight)| {
                let rolled = state.roll(&self.opts, a, b).ok()?;
                let best = self
                    .turns_prefiltered(&rolled, beam, prefilter)
                    .into_iter()
                    .next();
                let (probs, end) = match best {
                    Some(c) => (c.probs, Some(c.end)),
                    None => (probs_for(self.eval, &rolled, &self.opts, roller), None),
                };
                Some(RollOutcome {
                    roll: (a, b),
                    weight,
                    probs,
                    end,
                })
            })
            .collect()
    }
}
