//! Hand-written baselines for the games other than Gul bara.
//!
//! Long nardy shares Gul bara's board, so its baseline is Gul bara's race and
//! blocking judgement plus the head (checkers still on the head leave one a
//! turn) and the six-block (a five-point row with opposing checkers behind
//! it is a threat of a full block). The hitting games get a race judgement
//! with contact terms: blots and the shots at them, points made at home and
//! in front of the opponent's back checkers (primes), anchors, and checkers
//! on the bar against the points closed to them. Both work in
//! pip-equivalents turned into chances by a logistic, as Gul bara's does.

use super::heuristic::{pips_to_first_off, same_direction};
use super::race::RaceTables;
use super::{Evaluator, Probs};
use crate::rules::hitting::{closed_points, mirrored};
use crate::rules::nardy::HEAD;
use crate::rules::position::{BAR, Checkers};
use crate::rules::{EvalFamily, GameState, RuleOptions, Variant};

fn sigmoid(x: f32) -> f32 {
    // The networks' own logistic: the same bits on every machine.
    super::arith::sigmoid(x)
}

/// Average pips a roll moves (doublets four times).
const ROLL: f32 = 8.17;

/// The long-nardy baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct LongNardyBaseline;

/// Pip-equivalents a side loses to its head: one checker leaves per turn, so
/// a crowded head wastes tempo once the other checkers run out of moves.
fn head_cost(c: Checkers) -> f32 {
    let n = f32::from(c.at(HEAD));
    if n <= 1.0 { 0.0 } else { 0.6 * (n - 1.0) }
}

/// Pip-equivalents the runner loses to a five-point row of the blocker's
/// (in the runner's numbering, `blocks`) with the runner's checkers behind
/// it: one more point makes a six it cannot pass.
fn near_six_cost(runner: Checkers, blocks: u32) -> f32 {
    let mut cost = 0.0;
    let mut m = blocks;
    while m != 0 {
        let lo = m.trailing_zeros();
        let run = (m >> lo).trailing_ones();
        if run >= 5 {
            let behind: u8 = ((lo + run + 1)..=24).map(|p| runner.at(p as u8)).sum();
            cost += 1.5 * f32::from(behind);
        }
        m &= !(((1u64 << (lo + run)) - 1) as u32);
    }
    cost
}

impl Evaluator for LongNardyBaseline {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        same_direction(state, opts, |s| {
            let pos = s.pos;
            let me = head_cost(pos.own) + near_six_cost(pos.own, pos.blocked());
            let them =
                head_cost(pos.opp) + near_six_cost(pos.opp, pos.own.mask_in_other_numbering());
            (me, them)
        })
    }

    fn name(&self) -> &'static str {
        "long_nardy_baseline"
    }
}

/// The baseline of the hitting games (short nardy, backgammon).
#[derive(Clone, Copy, Debug, Default)]
pub struct HittingBaseline;

/// The highest occupied point (the bar is 25), 0 with none left.
fn highest(c: Checkers) -> u8 {
    (1..=BAR).rev().find(|&p| c.at(p) > 0).unwrap_or(0)
}

/// Pip-equivalent costs for the side `me` against `them` (each in its own
/// numbering), the side `me` not being on roll when `on_roll` is false.
fn contact_cost(me: Checkers, them: Checkers, on_roll: bool) -> f32 {
    let mut cost = 0.0;
    // Points `them` holds, in my numbering.
    let their_closed = closed_points(crate::rules::Position { own: me, opp: them });
    // Blots and the direct or indirect shots at them.
    for p in 1..=24u8 {
        if me.at(p) != 1 {
            continue;
        }
        // My point p is their point 25 - p; their checkers above it (their
        // numbering) within 12 pips, or on their bar, can hit it.
        let target = mirrored(p);
        let mut direct = 0;
        let mut indirect = 0;
        for q in (target + 1)..=BAR {
            if them.at(q) == 0 {
                continue;
            }
            let dist = if q == BAR { 25 - target } else { q - target };
            if dist <= 6 {
                direct += 1;
            } else if dist <= 12 {
                indirect += 1;
            }
        }
        let shots = (11.0 * direct as f32 + 3.0 * indirect as f32).min(30.0) / 36.0;
        // Being hit costs the pips already travelled plus a tempo; a blot
        // of the side on roll is hit only after it has moved, so less.
        let loss = f32::from(25 - p) + 4.0;
        cost += shots * loss * if on_roll { 0.6 } else { 1.0 };
    }
    // On the bar against the points closed to it.
    let home_closed = (their_closed >> 18).count_ones() as f32;
    cost += f32::from(me.bar()) * (2.0 + 10.0 * (home_closed / 6.0).powi(2));
    // My back checkers behind their primes.
    let mut m = their_closed;
    while m != 0 {
        let lo = m.trailing_zeros();
        let run = (m >> lo).trailing_ones();
        if run >= 3 {
            let trapped: u8 = ((lo + run + 1)..=u32::from(BAR))
                .map(|p| me.at(p as u8))
                .sum();
            let per = match run {
                3 => 1.5,
                4 => 3.5,
                5 => 7.0,
                _ => 14.0,
            };
            cost += per * f32::from(trapped);
        }
        m &= !(((1u64 << (lo + run)) - 1) as u32);
    }
    // Anchors (my made points in their home) make the back checkers safe.
    let anchors = (19..=24u8).filter(|&p| me.at(p) >= 2).count() as f32;
    cost -= 2.0 * anchors.min(2.0);
    // Made points in my home board and just outside it block their entry
    // and their runners: a gain for me, counted as their cost elsewhere.
    cost
}

/// The made points of `c` in its home and outer board, as a pip gain.
fn structure_gain(c: Checkers) -> f32 {
    let mut gain = 0.0;
    for p in 1..=11u8 {
        if c.at(p) >= 2 {
            gain += if p <= 6 { 1.2 } else { 0.6 };
        }
    }
    gain
}

/// Pips `c` needs to get every checker out of the opponent's home and off
/// the bar (its own 19–25): what saves it from a backgammon.
fn pips_out_of_danger(c: Checkers) -> f32 {
    (19..=BAR)
        .map(|p| f32::from(c.at(p)) * f32::from(p - 18))
        .sum()
}

impl Evaluator for HittingBaseline {
    fn eval(&self, state: &GameState, _opts: &RuleOptions) -> Probs {
        let pos = state.pos;
        let contact = highest(pos.own) + highest(pos.opp) > 25;
        let mut my_len = pos.own.pips() as f32;
        let mut opp_len = pos.opp.pips() as f32;
        if contact {
            my_len += contact_cost(pos.own, pos.opp, true) - structure_gain(pos.own);
            opp_len += contact_cost(pos.opp, pos.own, false) - structure_gain(pos.opp);
        }
        let my_turns = my_len.max(1.0) / ROLL - 0.5;
        let opp_turns = opp_len.max(1.0) / ROLL;
        let lead = opp_turns - my_turns;
        let spread = 0.8 + 0.09 * (my_turns + opp_turns).max(0.0) + if contact { 1.0 } else { 0.0 };
        let win = sigmoid(lead / spread).clamp(0.001, 0.999);
        let mut p = Probs {
            win,
            ..Probs::default()
        };
        if pos.opp.off() == 0 {
            let opp_first = pips_to_first_off(pos.opp, BAR) / ROLL;
            p.win_mars = win * sigmoid((opp_first - my_turns) / spread);
        }
        if pos.own.off() == 0 {
            let my_first = pips_to_first_off(pos.own, BAR) / ROLL - 0.5;
            p.lose_mars = (1.0 - win) * sigmoid((my_first - opp_turns) / spread);
        }
        if state.variant.spec().scores.triple.is_some() {
            let opp_out = pips_out_of_danger(pos.opp);
            if opp_out > 0.0 {
                p.win_bg = p.win_mars * sigmoid((opp_out / ROLL - my_turns) / spread);
            }
            let my_out = pips_out_of_danger(pos.own);
            if my_out > 0.0 {
                p.lose_bg = p.lose_mars * sigmoid((my_out / ROLL - 0.5 - opp_turns) / spread);
            }
        }
        p
    }

    fn name(&self) -> &'static str {
        "hitting_baseline"
    }
}

/// [`baseline`], as a shared evaluator (behind the race tables).
pub fn baseline_shared(variant: Variant) -> std::sync::Arc<dyn Evaluator> {
    baseline_shared_with(variant, true)
}

/// The hand-written baseline of `variant`, shared: behind the race tables
/// when `tables`, else alone (judging races too, `engine.race eval`).
pub fn baseline_shared_with(variant: Variant, tables: bool) -> std::sync::Arc<dyn Evaluator> {
    let plain: std::sync::Arc<dyn Evaluator> = match variant.spec().eval {
        EvalFamily::GulBara => std::sync::Arc::new(super::heuristic::Heuristic),
        EvalFamily::LongNardy => std::sync::Arc::new(LongNardyBaseline),
        EvalFamily::Hitting | EvalFamily::Pinning => std::sync::Arc::new(HittingBaseline),
    };
    if tables {
        super::race::with_tables(plain)
    } else {
        plain
    }
}

/// The hand-written baseline of `variant` (Gul bara's is the heuristic),
/// behind the race tables: all-home races are answered from the tables.
pub fn baseline(variant: Variant) -> &'static dyn Evaluator {
    static GUL_BARA: RaceTables<super::heuristic::Heuristic> =
        RaceTables::new(super::heuristic::Heuristic);
    static LONG_NARDY: RaceTables<LongNardyBaseline> = RaceTables::new(LongNardyBaseline);
    static HITTING: RaceTables<HittingBaseline> = RaceTables::new(HittingBaseline);
    match variant.spec().eval {
        EvalFamily::GulBara => &GUL_BARA,
        EvalFamily::LongNardy => &LONG_NARDY,
        EvalFamily::Hitting | EvalFamily::Pinning => &HITTING,
    }
}

/// The hand-written baseline of `variant` alone (races judged by it too).
pub fn plain_baseline(variant: Variant) -> &'static dyn Evaluator {
    match variant.spec().eval {
        EvalFamily::GulBara => &super::heuristic::Heuristic,
        EvalFamily::LongNardy => &LongNardyBaseline,
        EvalFamily::Hitting | EvalFamily::Pinning => &HittingBaseline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_state_text_in;

    fn eval(variant: Variant, text: &str) -> Probs {
        let s = parse_state_text_in(variant, text).unwrap();
        baseline(variant).eval(&s, &RuleOptions::for_variant(variant))
    }

    #[test]
    fn starts_are_near_even_with_the_roll_ahead() {
        for v in Variant::ALL {
            let s = GameState::start_of(v, crate::rules::Side::White);
            let p = baseline(v).eval(&s, &RuleOptions::for_variant(v));
            assert!((0.5..0.7).contains(&p.win), "{v}: {p:?}");
            assert!(p.win_mars < p.win && p.lose_mars < 1.0 - p.win);
            assert!(p.win_bg <= p.win_mars && p.lose_bg <= p.lose_mars);
        }
    }

    #[test]
    fn a_blot_in_reach_costs_and_the_bar_costs() {
        // White's 24-point checkers split: one blot on 18 in front of Black's
        // 13 midpoint (Black's 12 = White's 13... direct range).
        let safe = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 w 0 0";
        let blot = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,1,-5,0,0,0,0,1 w 0 0";
        let bar = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,1 w 0 0 bar=1,0";
        let a = eval(Variant::Backgammon, safe).equity();
        let b = eval(Variant::Backgammon, blot).equity();
        let c = eval(Variant::Backgammon, bar).equity();
        assert!(b < a, "{b} {a}");
        assert!(c < a, "{c} {a}");
    }

    #[test]
    fn the_race_leader_is_the_favourite() {
        let ahead = "0,0,0,3,4,4,0,0,0,0,0,0,0,0,0,0,0,0,-4,-4,-4,-3,0,0 w 0 0";
        let p = eval(Variant::ShortNardy, ahead);
        assert!(p.win > 0.6, "{p:?}");
        assert_eq!(p.win_bg, 0.0);
    }
}
