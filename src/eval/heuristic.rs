//! The hand-written baseline evaluator.
//!
//! Works in pip-equivalents: each side's race length is its pip count plus
//! penalties for checkers held up behind the opponent's blocks, minus the
//! value of having the roll (larger once doublets escalate) and of a pending
//! remainder. The difference goes through a logistic whose spread grows with
//! the remaining race. Mars chances compare the winner's race with the
//! loser's distance to its first checker off.

use super::{Evaluator, Probs};
use crate::rules::position::{Checkers, other_numbering};
use crate::rules::{GameState, Pending, RuleOptions};

/// The baseline evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

/// Average pips a roll moves when doublets are played four times.
const ROLL_PLAIN: f32 = 8.17;
/// Average pips a roll moves when doublets escalate (chain values
/// 84, 80, 72, 60, 44, 24 for 1-1 … 6-6, each 1/36, non-doublets 7 on average).
const ROLL_ESCALATING: f32 = (84.0 + 80.0 + 72.0 + 60.0 + 44.0 + 24.0) / 36.0 + 7.0 * 30.0 / 36.0;

fn sigmoid(x: f32) -> f32 {
    // The networks' own logistic: the same bits on every machine.
    super::arith::sigmoid(x)
}

/// Pip-equivalent penalty for `runner`'s checkers held up by `blocker`'s
/// points (blocker given as a mask in the runner's numbering).
fn blockage(runner: Checkers, blocks: u32) -> f32 {
    let mut penalty = 0.0;
    for p in 1..=24u8 {
        let n = runner.at(p);
        if n == 0 || p <= 6 {
            continue;
        }
        // Points in front of the checker within reach of one die.
        let mut closed_near = 0;
        let mut run = 0;
        let mut best_run = 0;
        for d in 1..=6u8 {
            let q = p - d;
            if q == 0 {
                break;
            }
            if blocks & (1 << (q - 1)) != 0 {
                closed_near += 1;
                run += 1;
                best_run = best_run.max(run);
            } else {
                run = 0;
            }
        }
        let trapped = match best_run {
            6 => 14.0,
            5 => 7.0,
            4 => 3.5,
            3 => 1.5,
            _ => 0.0,
        };
        penalty += f32::from(n) * (0.6 * closed_near as f32 + trapped);
    }
    penalty
}

/// Pips `side` needs before its first checker can leave: bring every checker
/// on points 1 to `highest` home and bear one off (24 in the running games;
/// the hitting games' baseline passes 25 to count the bar too).
pub(super) fn pips_to_first_off(c: Checkers, highest: u8) -> f32 {
    let mut outside = 0u32;
    let mut lowest = 6u8;
    for p in 1..=highest {
        let n = c.at(p);
        if n > 0 {
            lowest = lowest.min(p);
            if p > 6 {
                outside += u32::from(n) * u32::from(p - 6);
            }
        }
    }
    outside as f32 + f32::from(lowest)
}

/// Pips still to be played in a remainder starting at `count` dice of `die`.
fn remainder_pips(die: u8, count: u8) -> f32 {
    let mut total = f32::from(die) * f32::from(count);
    for d in die + 1..=6 {
        total += 4.0 * f32::from(d);
    }
    total
}

impl Evaluator for Heuristic {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        same_direction(state, opts, |_| (0.0, 0.0))
    }

    fn name(&self) -> &'static str {
        "heuristic"
    }
}

/// The baseline for the same-direction games (Gul bara, long nardy):
/// `extra` adds pip-equivalents to the mover's and the opponent's race
/// (a rule set's own features).
pub(crate) fn same_direction(
    state: &GameState,
    opts: &RuleOptions,
    extra: impl Fn(&GameState) -> (f32, f32),
) -> Probs {
    {
        let pos = state.pos;
        let me = state.to_move;
        let own_pips = pos.own.pips() as f32;
        let opp_pips = pos.opp.pips() as f32;
        // Blocks: the opponent's points seen in my numbering, and mine in its.
        let opp_blocks_me = pos.blocked();
        let mine_block_opp = pos.own.mask_in_other_numbering();
        let contact = {
            // Any of my checkers behind any of the opponent's (in my path)?
            let my_highest = 32 - pos.own.mask().leading_zeros();
            let opp_low_in_mine =
                (1..=24u8).filter(|&p| pos.opp_at(p) > 0).min().unwrap_or(0) as u32;
            let opp_highest = 32 - pos.opp.mask().leading_zeros();
            let my_low_in_opp = (1..=24u8)
                .filter(|&q| pos.own.at(other_numbering(q)) > 0)
                .min()
                .unwrap_or(0) as u32;
            (opp_low_in_mine > 0 && my_highest > opp_low_in_mine)
                || (my_low_in_opp > 0 && opp_highest > my_low_in_opp)
        };
        let (my_extra, opp_extra) = extra(state);
        let mut my_len = own_pips + my_extra;
        let mut opp_len = opp_pips + opp_extra;
        if contact {
            my_len += blockage(pos.own, opp_blocks_me);
            opp_len += blockage(pos.opp, mine_block_opp);
        }
        let my_roll = if state.escalates(opts, me) {
            ROLL_ESCALATING
        } else {
            ROLL_PLAIN
        };
        let opp_roll = if state.escalates(opts, me.opponent()) {
            ROLL_ESCALATING
        } else {
            ROLL_PLAIN
        };
        // Having the roll is worth about half a roll; a faster average
        // roll shortens the race in proportion.
        let my_turns = my_len / my_roll - 0.5;
        let opp_turns = opp_len / opp_roll;
        let mut lead = opp_turns - my_turns;
        if let Pending::Remainder { die, count } = state.pending {
            lead += remainder_pips(die, count) * 0.7 / my_roll;
        }
        let spread = 0.8 + 0.09 * (my_turns + opp_turns).max(0.0);
        let win = sigmoid(lead / spread).clamp(0.001, 0.999);
        // Mars: my whole race against the opponent's race to its first checker off.
        let win_mars = if pos.opp.off() == 0 {
            let opp_first = pips_to_first_off(pos.opp, 24) / opp_roll;
            win * sigmoid((opp_first - my_turns) / spread)
        } else {
            0.0
        };
        let lose_mars = if pos.own.off() == 0 {
            let my_first = pips_to_first_off(pos.own, 24) / my_roll - 0.5;
            (1.0 - win) * sigmoid((my_first - opp_turns) / spread)
        } else {
            0.0
        };
        Probs {
            win,
            win_mars,
            lose_mars,
            ..Probs::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_state_text;

    fn eval(text: &str) -> Probs {
        Heuristic.eval(&parse_state_text(text).unwrap(), &RuleOptions::default())
    }

    #[test]
    fn start_is_near_even_with_the_roll_ahead() {
        let p = eval(crate::notation::START_TEXT);
        assert!(p.win > 0.5 && p.win < 0.65, "{p:?}");
        assert!(p.win_mars >= 0.0 && p.win_mars <= p.win);
    }

    #[test]
    fn race_leader_is_favourite() {
        // White far ahead in a race.
        let p = eval("3,3,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,0,-5,-5,-5,0,0,0 w 20 20");
        assert!(p.win > 0.9, "{p:?}");
        let q = eval("3,3,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,0,-5,-5,-5,0,0,0 b 20 20");
        assert!(q.win < 0.1, "{q:?}");
    }

    #[test]
    fn probabilities_are_consistent() {
        for t in [
            crate::notation::START_TEXT,
            "2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 b 10 10",
        ] {
            let p = eval(t);
            assert!((0.0..=1.0).contains(&p.win));
            assert!(p.win_mars <= p.win + 1e-6);
            assert!(p.lose_mars <= 1.0 - p.win + 1e-6);
        }
    }
}
