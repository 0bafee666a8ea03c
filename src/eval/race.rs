//! Races judged from the bear-off tables.
//!
//! When both sides have every remaining checker on their own home points no
//! checker can ever meet another (in every game of the family a side's home
//! is out of the other's way), so the game is two independent bear-offs and
//! [`race_probs`] answers from the one-sided tables of [`super::bearoff`]:
//! the side to move rolls first, so it wins when it needs no more rolls than
//! the opponent. With `pM`, `pO` the two distributions of rolls to bear off
//! and `fM`, `fO` those of the rolls to bear off the first checker:
//!
//! - win = Σₙ pM(n) · P(nO ≥ n);
//! - win mars (gammon) = Σₙ pM(n) · P(fO ≥ n) when the opponent has none off;
//! - lose mars = Σₘ pO(m) · P(fM > m) when the side to move has none off;
//! - backgammons are impossible: a loser with everything home has no checker
//!   on the bar or in the winner's home.
//!
//! These are exact for the one-sided play (each side bears off as fast as it
//! can in expectation, and saves a mars by taking off its first checker as
//! fast as it can); the best two-sided play may differ slightly
//! (`tests/race_tables.rs` bounds it on small races). [`RaceTables`] puts
//! this in front of any evaluator: the default for every game's network and
//! baseline; `engine.race eval` turns it off in a session.

use std::sync::Arc;

use super::bearoff::{self, Dice, MAX_EXEMPT, Table};
use super::{Evaluator, Probs};
use crate::rules::options::ExemptScope;
use crate::rules::position::CHECKERS;
use crate::rules::{GameState, Pending, RuleOptions, Side};

/// An evaluator that answers from the race tables when both sides are all
/// home, and asks `inner` otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceTables<E> {
    inner: E,
}

impl<E> RaceTables<E> {
    /// `inner` behind the tables.
    pub const fn new(inner: E) -> Self {
        RaceTables { inner }
    }

    /// The evaluator behind the tables.
    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<E: Evaluator> Evaluator for RaceTables<E> {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        race_probs(state, opts).unwrap_or_else(|| self.inner.eval(state, opts))
    }

    /// Races from the tables, the rest in one batch of the inner evaluator.
    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        let from_tables: Vec<Option<Probs>> = states.iter().map(|s| race_probs(s, opts)).collect();
        let rest: Vec<GameState> = states
            .iter()
            .zip(&from_tables)
            .filter(|(_, p)| p.is_none())
            .map(|(s, _)| *s)
            .collect();
        let mut judged = Vec::with_capacity(rest.len());
        self.inner.eval_batch(&rest, opts, &mut judged);
        let mut judged = judged.into_iter();
        out.clear();
        out.extend(
            from_tables
                .into_iter()
                .map(|p| p.or_else(|| judged.next()).unwrap_or_default()),
        );
    }

    /// The inner evaluator's name: the tables only take over races.
    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

/// A shared evaluator is an evaluator (so that [`RaceTables`] can wrap one).
impl<T: Evaluator + ?Sized> Evaluator for Arc<T> {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        (**self).eval(state, opts)
    }

    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        (**self).eval_batch(states, opts, out);
    }

    fn name(&self) -> &'static str {
        (**self).name()
    }
}

/// `inner` behind the race tables, shared.
pub fn with_tables(inner: Arc<dyn Evaluator>) -> Arc<dyn Evaluator> {
    Arc::new(RaceTables::new(inner))
}

/// How many of `side`'s coming rolls are still exempt from escalation
/// (0 once its doublets escalate).
pub fn exempt_left(state: &GameState, opts: &RuleOptions, side: Side) -> u32 {
    if !state.variant.escalating() {
        return 0;
    }
    let e = opts.exempt_rolls;
    match opts.exempt_scope {
        ExemptScope::Player => e.saturating_sub(state.rolls[side.index()]),
        ExemptScope::Game => {
            // The side to move rolls at the game's roll counts t, t + 2, …
            // and the other side at t + 1, t + 3, …; a roll is exempt while
            // the count before it is below e.
            let t = state.rolls[0].saturating_add(state.rolls[1]);
            let first = if side == state.to_move {
                t
            } else {
                t.saturating_add(1)
            };
            e.saturating_sub(first).div_ceil(2)
        }
    }
}

/// The dice `side` will roll in `state`, or `None` when it has more exempt
/// rolls left than tables are kept for.
pub fn dice_of(state: &GameState, opts: &RuleOptions, side: Side) -> Option<Dice> {
    if !state.variant.escalating() {
        return Some(Dice::Ordinary);
    }
    let k = exempt_left(state, opts, side);
    if k > u32::from(MAX_EXEMPT) {
        return None;
    }
    Some(Dice::Escalating { exempt: k as u8 })
}

/// Whether both sides have every remaining checker home (the tables apply).
pub fn is_race(state: &GameState) -> bool {
    bearoff::home_of(state.pos.own).is_some() && bearoff::home_of(state.pos.opp).is_some()
}

/// Longest distribution a table holds, plus room for `P(X >= len)`.
const MAX_LEN: usize = 64;

/// `P(X >= n)` for every `n` in `0..=len` (zero beyond), from a
/// distribution; on the stack, as an answer is on the search's hot path.
fn at_least(dist: &[f64]) -> [f64; MAX_LEN + 1] {
    let mut s = [0.0; MAX_LEN + 1];
    for n in (0..dist.len().min(MAX_LEN)).rev() {
        s[n] = s[n + 1] + dist[n];
    }
    s
}

/// The chances of the side to move in an all-home race, from the tables;
/// `None` when this is not such a race (or no table covers it: more exempt
/// rolls than [`MAX_EXEMPT`], or a remainder to play while still exempt),
/// or the game is over.
pub fn race_probs(state: &GameState, opts: &RuleOptions) -> Option<Probs> {
    if state.result().is_some() {
        return None;
    }
    let own = bearoff::home_of(state.pos.own)?;
    let opp = bearoff::home_of(state.pos.opp)?;
    let mover = state.to_move;
    let my_dice = dice_of(state, opts, mover)?;
    let their_dice = dice_of(state, opts, mover.opponent())?;
    let mine: &Table = bearoff::table(my_dice).ok()?;
    let theirs: &Table = bearoff::table(their_dice).ok()?;
    let mut me = bearoff::index_of(&own)?;
    let them = bearoff::index_of(&opp)?;
    match state.pending {
        Pending::Roll => {}
        Pending::Remainder { die, count } => {
            // The rest of an escalating chain, played before the own roll:
            // its best play, then the own rolls (escalating ones: a side
            // that receives a remainder past its exemption).
            if my_dice != (Dice::Escalating { exempt: 0 }) {
                return None;
            }
            me = mine.remainder_end(me, die, count)?;
        }
        Pending::Roll2 { .. } | Pending::Chain { .. } => return None,
    }
    Some(probs_from(
        mine,
        me,
        state.pos.own.off() == 0,
        theirs,
        them,
        state.pos.opp.off() == 0,
    ))
}

/// The chances of a side about to roll with arrangement `me` (table
/// `mine`) against `them` (table `theirs`): `me_none_off` and
/// `them_none_off` say whether each side still has all 15 checkers.
pub fn probs_from(
    mine: &Table,
    me: usize,
    me_none_off: bool,
    theirs: &Table,
    them: usize,
    them_none_off: bool,
) -> Probs {
    let pm = mine.dist_at(me);
    let po = theirs.dist_at(them);
    let so = at_least(po);
    let win: f64 = pm.iter().zip(so).map(|(p, s)| p * s).sum();
    let win_mars = if them_none_off {
        let fo = at_least(theirs.first_at(them));
        pm.iter().zip(fo).map(|(p, f)| p * f).sum()
    } else {
        0.0
    };
    // The mover's first checker comes off only once it has at least one
    // off: with checkers already off (or borne off by a remainder) no mars.
    let lose_mars = if me_none_off && bearoff::checkers_in(&arrangement_or_empty(me)) == CHECKERS {
        // P(fM > m) = P(fM >= m + 1).
        let fm = at_least(mine.first_at(me));
        po.iter().zip(&fm[1..]).map(|(p, f)| p * f).sum()
    } else {
        0.0
    };
    Probs {
        win: win as f32,
        win_mars: win_mars as f32,
        lose_mars: lose_mars as f32,
        win_bg: 0.0,
        lose_bg: 0.0,
    }
}

fn arrangement_or_empty(i: usize) -> bearoff::Home {
    bearoff::arrangement(i).unwrap_or_default()
}
