//! Search: whole-turn planning and expectimax on top of an [`Evaluator`].
//!
//! Plies are counted as gnubg does in this module (0-ply: judge each turn's
//! end; 1-ply: average the opponent's 21 rolls, each answered by its best
//! 0-ply turn). The protocol's `engine.ply` is root-inclusive as in UBGI and
//! is translated by the caller (`engine.ply 1` = 0-ply here).
//!
//! A turn with an escalating doublet is planned stage by stage with a beam:
//! every end of a stage is judged as if the turn stopped there, the best
//! `beam` of them go on to the next stage, so a 1-1 chain costs a few
//! thousand evaluations instead of millions of whole-turn enumerations.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use crate::eval::{Evaluator, Probs, probs_for, probs_for_batch};
use crate::rules::{EvalFamily, GameState, RuleOptions, Side, StageDice, StageEnd, StageGen, Step};

mod hashing;
mod luck;
mod prefilter;

use hashing::StateSet;
pub use luck::RollOutcome;
pub use prefilter::{INNER_PREFILTER, quick_score};

/// The 21 distinct rolls with their weights out of 36.
pub const ROLLS: [(u8, u8, f32); 21] = {
    let mut out = [(0u8, 0u8, 0f32); 21];
    let mut i = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[i] = (a, b, if a == b { 1.0 } else { 2.0 });
            i += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// Runs `work` on `threads` threads at once (1..=64; one runs it on the
/// calling thread) and returns when all are done.
pub fn on_threads(threads: usize, work: &(dyn Fn() + Sync)) {
    let threads = threads.clamp(1, 64);
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|sc| {
            for _ in 0..threads {
                sc.spawn(work);
            }
        });
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// gnubg plies: 0, 1 or 2 (more is treated as 2).
    pub plies: u8,
    /// Beam width for chain stages at the root.
    pub root_beam: usize,
    /// How many ends of each doublet stage at the root are judged, the best
    /// by [`quick_score`] (0: all).
    pub root_prefilter: usize,
    /// Beam width for chain stages inside the look-ahead.
    pub inner_beam: usize,
    /// How many of the best 0-ply turns the 1-ply search re-judges, at most.
    pub candidates: usize,
    /// Move filter: only turns within this much equity of the 0-ply best
    /// are re-judged (gnubg's filter does the same).
    pub filter: f32,
    /// The share of a turn's 0-ply chances mixed into its 1-ply chances
    /// when the 1-ply pass re-judges it: `(1 − blend) × 1-ply + blend ×
    /// 0-ply` (0: plain 1-ply; `engine.blend`, in hundredths).
    pub blend: f32,
    /// How many of the best 1-ply turns the 2-ply search re-judges, at most.
    pub candidates2: usize,
    /// The 2-ply move filter: only turns within this much equity of the
    /// 1-ply best are re-judged.
    pub filter2: f32,
    /// Stop when this many evaluations were made (after the 0-ply pass).
    pub nodes: Option<u64>,
    /// Stop at this instant (after the 0-ply pass).
    pub deadline: Option<Instant>,
    /// Worker threads for the 1-ply pass.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            plies: 0,
            root_beam: 48,
            root_prefilter: 16,
            inner_beam: 1,
            candidates: 8,
            filter: 0.16,
            blend: 0.0,
            candidates2: 3,
            filter2: 0.04,
            nodes: None,
            deadline: None,
            threads: 1,
        }
    }
}

/// One whole turn (or remainder) with its judged outcome.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Every step of the turn, all stages in order.
    pub steps: Vec<Step>,
    /// The state after the turn.
    pub end: GameState,
    /// The mover's chances after the turn.
    pub probs: Probs,
    /// The gnubg ply this judgement comes from.
    pub plies: u8,
}

/// Progress report for `info` lines.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Root-inclusive depth completed (1 = 0-ply done).
    pub depth: u8,
    /// Evaluations so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// The best turn so far.
    pub best: Candidate,
}

/// A search over one decision.
pub struct Search<'a> {
    eval: &'a dyn Evaluator,
    opts: RuleOptions,
    stop: &'a AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    prefilter: usize,
    /// What each result is worth to each side (by [`Side::index`]); `None`:
    /// the cubeless points ([`Probs::equity`]).
    valuation: Option<[Valuation; 2]>,
}

/// What each result of a game is worth to one side, in units of a single
/// win: at a match score a gammon is worth what the score makes it worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuation {
    /// Winning a single game, a gammon (mars), a backgammon.
    pub win: [f32; 3],
    /// Losing them (negative).
    pub lose: [f32; 3],
}

impl Valuation {
    /// The worth of the chances `p` to their side.
    pub fn of(&self, p: &Probs) -> f32 {
        let single_win = (p.win - p.win_mars).max(0.0);
        let gammon_win = (p.win_mars - p.win_bg).max(0.0);
        let lose = 1.0 - p.win;
        let single_loss = (lose - p.lose_mars).max(0.0);
        let gammon_loss = (p.lose_mars - p.lose_bg).max(0.0);
        single_win * self.win[0]
            + gammon_win * self.win[1]
            + p.win_bg * self.win[2]
            + single_loss * self.lose[0]
            + gammon_loss * self.lose[1]
            + p.lose_bg * self.lose[2]
    }
}

impl<'a> Search<'a> {
    /// A search judged by `eval`, stoppable through `stop`.
    pub fn new(eval: &'a dyn Evaluator, opts: RuleOptions, stop: &'a AtomicBool) -> Self {
        Search {
            eval,
            opts,
            stop,
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            prefilter: INNER_PREFILTER,
            valuation: None,
        }
    }

    /// Ranks plays by what their results are worth to each side (at a
    /// match score) instead of cubeless points.
    pub fn with_valuation(mut self, valuation: Option<[Valuation; 2]>) -> Self {
        self.valuation = valuation;
        self
    }

    /// What the chances `p` of `side` are worth to it.
    fn worth(&self, p: &Probs, side: Side) -> f32 {
        match &self.valuation {
            None => p.equity(),
            Some(v) => v[side.index()].of(p),
        }
    }

    /// Sets how many ends of a doublet stage inside the look-ahead are
    /// judged (0: all of them).
    pub fn with_prefilter(mut self, ends: usize) -> Self {
        self.prefilter = ends;
        self
    }

    /// Evaluations made so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn judge(&self, state: &GameState, side: Side) -> Probs {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        probs_for(self.eval, state, &self.opts, side)
    }

    /// [`Search::judge`] of each of `states`, in one evaluator call.
    fn judge_batch(&self, states: &[GameState], side: Side, out: &mut Vec<Probs>) {
        self.nodes.fetch_add(states.len() as u64, Ordering::Relaxed);
        probs_for_batch(self.eval, states, &self.opts, side, out);
    }

    fn out_of_time(&self, limits: &Limits) -> bool {
        self.stop.load(Ordering::Relaxed)
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
            || limits.nodes.is_some_and(|n| self.nodes() >= n)
    }

    /// Every turn of the side to move (a pending roll stage, chain or
    /// remainder, played to its end), judged at 0-ply, best first. Chain
    /// stages after the first keep only the best `beam` partial turns.
    pub fn turns(&self, state: &GameState, beam: usize) -> Vec<Candidate> {
        self.turns_prefiltered(state, beam, 0)
    }

    /// [`Search::turns`], judging at most `prefilter` ends of each doublet
    /// stage (the best by [`quick_score`]); 0 judges every end.
    pub fn turns_prefiltered(
        &self,
        state: &GameState,
        beam: usize,
        prefilter: usize,
    ) -> Vec<Candidate> {
        let mover = state.to_move;
        let mut movegen = StageGen::new();
        let mut ends: Vec<StageEnd> = Vec::new();
        // The cheap score knows Gul bara's board only; the other games have
        // no stage with more ends than the evaluator can judge.
        let prefilter = if self.opts.variant.spec().eval == EvalFamily::GulBara {
            prefilter
        } else {
            0
        };
        let mut frontier = vec![(state.to_owned(), Vec::<Step>::new())];
        let mut finals: Vec<Candidate> = Vec::new();
        let (mut afters, mut plays, mut judged) = (Vec::new(), Vec::new(), Vec::new());
        while !frontier.is_empty() {
            let mut next: Vec<Candidate> = Vec::new();
            let mut seen = StateSet::default();
            for (s, steps) in frontier.drain(..) {
                let Some(dice) = s
                    .stage_dice()
                    .filter(|_| s.result().is_none() && s.to_move == mover)
                else {
                    continue;
                };
                let playable = movegen.generate(&self.opts, &s, dice, &mut ends);
                if prefilter > 0 && ends.len() > prefilter && matches!(dice, StageDice::Same { .. })
                {
                    let mut scored: Vec<(i32, usize)> = ends
                        .iter()
                        .enumerate()
                        .map(|(i, e)| (quick_score(e.pos), i))
                        .collect();
                    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                    let keep: Vec<StageEnd> =
                        scored[..prefilter].iter().map(|&(_, i)| ends[i]).collect();
                    ends = keep;
                }
                // The new ends of this stage, judged in one batch.
                afters.clear();
                plays.clear();
                for e in ends.iter() {
                    let after = s.after_stage(&self.opts, e.pos, playable);
                    if seen.insert(after) {
                        afters.push(after);
                        plays.push(e.play);
                    }
                }
                self.judge_batch(&afters, mover, &mut judged);
                for ((after, play), probs) in afters.iter().zip(&plays).zip(&judged) {
                    let mut all = steps.clone();
                    all.extend_from_slice(play.steps());
                    next.push(Candidate {
                        steps: all,
                        end: *after,
                        probs: *probs,
                        plies: 0,
                    });
                }
            }
            next.sort_by(|a, b| {
                self.worth(&b.probs, mover)
                    .total_cmp(&self.worth(&a.probs, mover))
            });
            let mut carry = Vec::new();
            for c in next {
                let turn_goes_on = c.end.result().is_none()
                    && c.end.to_move == mover
                    && c.end.stage_dice().is_some();
                if turn_goes_on {
                    if carry.len() < beam.max(1) {
                        carry.push((c.end, c.steps));
                    }
                } else {
                    finals.push(c);
                }
            }
            frontier = carry;
        }
        finals.sort_by(|a, b| {
            self.worth(&b.probs, mover)
                .total_cmp(&self.worth(&a.probs, mover))
        });
        finals
    }

    /// The side to move's best turn at 0-ply with a narrow beam (used for
    /// the opponent's replies inside the look-ahead).
    fn best_reply(&self, state: &GameState, beam: usize) -> GameState {
        self.turns_prefiltered(state, beam, self.prefilter)
            .into_iter()
            .next()
            .map(|c| c.end)
            .unwrap_or(*state)
    }

    /// `side`'s chances in `state` after the side to move plays its pending
    /// remainder (if any, without knowing the roll to come) and then each of
    /// its 21 rolls with its best 0-ply turn. With a rolled stage pending,
    /// that turn is played and judged as it stands.
    pub fn one_ply(&self, state: &GameState, side: Side, beam: usize) -> Probs {
        if let Some(p) = Probs::of_result(state, side) {
            return p;
        }
        let mover = state.to_move;
        let mut s = *state;
        if s.stage_dice().is_some() {
            s = self.best_reply(&s, beam);
            if let Some(p) = Probs::of_result(&s, side) {
                return p;
            }
            if s.to_move != mover {
                return self.judge(&s, side);
            }
        }
        let mut total = Probs::default();
        for &(a, b, w) in ROLLS.iter() {
            let Ok(rolled) = s.roll(&self.opts, a, b) else {
                return self.judge(&s, side);
            };
            let after = self.best_reply(&rolled, beam);
            total.add_scaled(&self.judge(&after, side), w / 36.0);
        }
        total
    }

    /// The best turn for the pending stage(s), ranked list included.
    /// Always returns at least one candidate for a live state with a stage
    /// pending; a stop or a limit only cuts the 1-ply refinement short.
    pub fn best_turn(
        &self,
        state: &GameState,
        limits: &Limits,
        on_progress: &mut dyn FnMut(&Progress),
    ) -> Vec<Candidate> {
        let ranked = self.turns_prefiltered(state, limits.root_beam, limits.root_prefilter);
        if ranked.is_empty() {
            return ranked;
        }
        on_progress(&Progress {
            depth: 1,
            nodes: self.nodes(),
            millis: self.start.elapsed().as_millis() as u64,
            best: ranked[0].clone(),
        });
        if limits.plies == 0 || ranked.len() == 1 || self.out_of_time(limits) {
            return ranked;
        }
        let mover = state.to_move;
        let cutoff = self.worth(&ranked[0].probs, mover) - limits.filter;
        let k = ranked
            .iter()
            .take(limits.candidates.max(1))
            .take_while(|c| self.worth(&c.probs, mover) >= cutoff)
            .count()
            .max(1);
        let blend = limits.blend.clamp(0.0, 1.0);
        let ranked = self.rejudge(ranked, k, 1, mover, limits, &|c: &Candidate| {
            let one = self.one_ply(&c.end, mover, limits.inner_beam);
            if blend == 0.0 {
                return Some(one);
            }
            let mut mixed = Probs::default();
            mixed.add_scaled(&one, 1.0 - blend);
            mixed.add_scaled(&c.probs, blend);
            Some(mixed)
        });
        if let Some(best) = ranked.first() {
            on_progress(&Progress {
                depth: 2,
                nodes: self.nodes(),
                millis: self.start.elapsed().as_millis() as u64,
                best: best.clone(),
            });
        }
        if limits.plies < 2 || ranked.len() == 1 || self.out_of_time(limits) {
            return ranked;
        }
        // The 2-ply filter, over the turns the 1-ply pass judged.
        let cutoff = self.worth(&ranked[0].probs, mover) - limits.filter2;
        let k = ranked
            .iter()
            .take(limits.candidates2.max(1))
            .take_while(|c| c.plies == 1 && self.worth(&c.probs, mover) >= cutoff)
            .count();
        if k == 0 {
            return ranked;
        }
        let ranked = self.rejudge(ranked, k, 2, mover, limits, &|c: &Candidate| {
            self.plied(&c.end, mover, limits.inner_beam, 2, Some(limits))
        });
        if let Some(best) = ranked.first().filter(|c| c.plies == 2) {
            on_progress(&Progress {
                depth: 3,
                nodes: self.nodes(),
                millis: self.start.elapsed().as_millis() as u64,
                best: best.clone(),
            });
        }
        ranked
    }

    /// Re-judges the first `k` of `ranked` with `judge` on `limits.threads`
    /// threads, marking them `plies` deep. The re-judged come first, best
    /// first; those a stop or a limit left unjudged (`judge` gave `None`,
    /// or it was never called) keep their order behind them, then the rest.
    /// The first candidate is always judged unless `judge` itself gives up.
    fn rejudge(
        &self,
        mut ranked: Vec<Candidate>,
        k: usize,
        plies: u8,
        side: Side,
        limits: &Limits,
        judge: &(dyn Fn(&Candidate) -> Option<Probs> + Sync),
    ) -> Vec<Candidate> {
        let k = k.min(ranked.len());
        let results: Vec<std::sync::Mutex<Option<Probs>>> =
            (0..k).map(|_| std::sync::Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= k || (i > 0 && self.out_of_time(limits)) {
                    break;
                }
                let p = judge(&ranked[i]);
                if let Ok(mut slot) = results[i].lock() {
                    *slot = p;
                }
            }
        };
        on_threads(limits.threads, &work);
        let judged: Vec<Option<Probs>> = results
            .into_iter()
            .map(|slot| slot.into_inner().ok().flatten())
            .collect();
        let rest = ranked.split_off(k);
        let mut out = Vec::with_capacity(k + rest.len());
        let mut unreached = Vec::new();
        for (mut c, p) in ranked.into_iter().zip(judged) {
            match p {
                Some(p) => {
                    c.probs = p;
                    c.plies = plies;
                    out.push(c);
                }
                None => unreached.push(c),
            }
        }
        out.sort_by(|a, b| {
            self.worth(&b.probs, side)
                .total_cmp(&self.worth(&a.probs, side))
        });
        out.extend(unreached);
        out.extend(rest);
        out
    }

    /// `side`'s chances in `state` searched `depth` plies deep in gnubg's
    /// numbering: 0 is the evaluator's judgement, and each ply more plays
    /// the side to move's pending remainder (if any) and then averages its
    /// 21 rolls, each answered by its best 0-ply turn (chains and
    /// remainders with the beam `beam` and the inner prefilter), over the
    /// position after it searched one ply less. Depth 1 is
    /// [`Search::one_ply`]. With `limits`, a stop or a limit gives `None`.
    pub fn plied(
        &self,
        state: &GameState,
        side: Side,
        beam: usize,
        depth: u8,
        limits: Option<&Limits>,
    ) -> Option<Probs> {
        if depth <= 1 {
            return Some(if depth == 0 {
                self.judge(state, side)
            } else {
                self.one_ply(state, side, beam)
            });
        }
        if let Some(p) = Probs::of_result(state, side) {
            return Some(p);
        }
        let mover = state.to_move;
        let mut s = *state;
        if s.stage_dice().is_some() {
            s = self.best_reply(&s, beam);
            if let Some(p) = Probs::of_result(&s, side) {
                return Some(p);
            }
            if s.to_move != mover {
                return self.plied(&s, side, beam, depth - 1, limits);
            }
        }
        let mut total = Probs::default();
        for &(a, b, w) in ROLLS.iter() {
            if limits.is_some_and(|l| self.out_of_time(l)) {
                return None;
            }
            let Ok(rolled) = s.roll(&self.opts, a, b) else {
                return Some(self.judge(&s, side));
            };
            let after = self.best_reply(&rolled, beam);
            total.add_scaled(
                &self.plied(&after, side, beam, depth - 1, limits)?,
                w / 36.0,
            );
        }
        Some(total)
    }

    /// The side to move's chances before its roll: the static judgement at
    /// 0-ply, the average over its 21 rolls of its best turn at 1-ply, and
    /// so on ([`Search::plied`]; 2 at most).
    pub fn before_roll(&self, state: &GameState, plies: u8, beam: usize) -> Probs {
        let side = state.to_move;
        if plies == 0 {
            return Probs::of_result(state, side).unwrap_or_else(|| self.judge(state, side));
        }
        self.plied(state, side, beam, plies.min(2), None)
            .unwrap_or_else(|| self.judge(state, side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;
    use crate::notation::parse_state_text;
    use crate::rules::Variant;

    #[test]
    fn rolls_weigh_36() {
        let total: f32 = ROLLS.iter().map(|r| r.2).sum();
        assert_eq!(total, 36.0);
    }

    #[test]
    fn zero_ply_returns_every_distinct_end_for_a_plain_roll() {
        let stop = AtomicBool::new(false);
        let o = RuleOptions::default();
        let s = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
        let search = Search::new(&Heuristic, o, &stop);
        let turns = search.turns(&s, 8);
        assert_eq!(turns.len(), 2);
        assert!(turns[0].probs.equity() >= turns[1].probs.equity());
    }

    #[test]
    fn escalating_chain_plays_every_stage() {
        let stop = AtomicBool::new(false);
        let o = RuleOptions::default();
        // Rolls 3/3 made: White's 1-1 escalates; from the start all 24 steps fit.
        let s =
            parse_state_text("0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3").unwrap();
        let s = s.roll(&o, 1, 1).unwrap();
        let search = Search::new(&Heuristic, o, &stop);
        let best = search.best_turn(&s, &Limits::default(), &mut |_| {});
        assert!(!best.is_empty());
        assert_eq!(best[0].steps.len(), 24);
        assert_eq!(best[0].end.to_move, Side::Black);
        let pips: u32 = best[0].steps.iter().map(|st| u32::from(st.die)).sum();
        assert_eq!(pips, 84);
    }

    #[test]
    fn prefilter_keeps_the_best_doublet_ends_by_the_cheap_score() {
        let stop = AtomicBool::new(false);
        let o = RuleOptions::default();
        // A plain (not escalating) 2-2 in a middle game: one stage of four steps.
        let s = parse_state_text("2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 1 1")
            .unwrap()
            .roll(&o, 2, 2)
            .unwrap();
        let search = Search::new(&Heuristic, o, &stop);
        let all = search.turns(&s, 8);
        let kept = search.turns_prefiltered(&s, 8, 5);
        assert!(all.len() > 5, "the test needs more than five ends");
        assert_eq!(kept.len(), 5);
        for k in &kept {
            assert!(all.iter().any(|c| c.end == k.end && c.steps == k.steps));
        }
        // The kept ones are the five best by the cheap score.
        let mut movegen = crate::rules::MoveGen::new();
        let mut ends = Vec::new();
        movegen.generate(s.pos, s.stage_dice().unwrap(), &mut ends);
        let mut scores: Vec<i32> = ends.iter().map(|e| quick_score(e.pos)).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        let fifth = scores[4];
        for k in &kept {
            let e = ends.iter().find(|e| e.play.steps() == k.steps.as_slice());
            assert!(quick_score(e.expect("a generated end").pos) >= fifth);
        }
        // 0 keeps everything.
        assert_eq!(search.turns_prefiltered(&s, 8, 0).len(), all.len());
    }

    /// A Gul bara middle game with 4-2 to play.
    fn middle_game_4_2() -> (RuleOptions, GameState) {
        let o = RuleOptions::default();
        let s = parse_state_text("2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10")
            .unwrap()
            .roll(&o, 4, 2)
            .unwrap();
        (o, s)
    }

    #[test]
    fn one_ply_search_finds_a_move_and_respects_stop() {
        let (o, s) = middle_game_4_2();
        let stop = AtomicBool::new(false);
        let search = Search::new(&Heuristic, o, &stop);
        let limits = Limits {
            plies: 1,
            ..Limits::default()
        };
        let best = search.best_turn(&s, &limits, &mut |_| {});
        assert_eq!(best[0].plies, 1);
        let stopped = AtomicBool::new(true);
        let search = Search::new(&Heuristic, o, &stopped);
        let best = search.best_turn(&s, &limits, &mut |_| {});
        assert!(!best.is_empty());
        assert_eq!(best[0].plies, 0);
    }

    #[test]
    fn blend_mixes_each_rejudged_turns_zero_ply_value_into_its_one_ply_value() {
        let o = RuleOptions::default();
        let before =
            parse_state_text("2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10")
                .unwrap();
        let stop = AtomicBool::new(false);
        let search = Search::new(&Heuristic, o, &stop);
        let plain = Limits {
            plies: 1,
            ..Limits::default()
        };
        let at = |list: &[Candidate], c: &Candidate| {
            list.iter()
                .find(|x| x.end == c.end)
                .expect("the same turn")
                .probs
                .equity()
        };
        // The rolls where plain 1-ply chooses another turn than 0-ply.
        let mut differing = 0;
        for &(a, b, _) in ROLLS.iter() {
            let s = before.roll(&o, a, b).unwrap();
            let zero = search.best_turn(&s, &Limits::default(), &mut |_| {});
            let one = search.best_turn(&s, &plain, &mut |_| {});
            if one.len() < 2 || one[0].end == zero[0].end {
                continue;
            }
            differing += 1;
            for blend in [0.5f32, 1.0] {
                let mixed = search.best_turn(&s, &Limits { blend, ..plain }, &mut |_| {});
                let judged: Vec<&Candidate> = mixed.iter().filter(|c| c.plies == 1).collect();
                assert!(judged.len() >= 2);
                for c in &judged {
                    let want = (1.0 - blend) * at(&one, c) + blend * at(&zero, c);
                    assert!(
                        (c.probs.equity() - want).abs() < 1e-5,
                        "{a}-{b}, blend {blend}: {} against {want}",
                        c.probs.equity()
                    );
                }
                // Wholly 0-ply values keep the 0-ply order: its choice.
                if blend == 1.0 {
                    assert_eq!(mixed[0].end, zero[0].end, "{a}-{b}");
                }
            }
        }
        assert!(differing > 0, "the test needs a roll where 1-ply differs");
    }

    /// The best end of the rolled `state`'s single stage, by `eval` at
    /// 0-ply, enumerated plainly (the hitting games: one stage a turn).
    fn naive_best(eval: &dyn Evaluator, o: &RuleOptions, state: &GameState) -> GameState {
        let mut ends = Vec::new();
        let dice = state.stage_dice().expect("a rolled stage");
        let used = StageGen::new().generate(o, state, dice, &mut ends);
        let mover = state.to_move;
        let mut best: Option<(f32, GameState)> = None;
        for e in &ends {
            let after = state.after_stage(o, e.pos, used);
            let v = probs_for(eval, &after, o, mover).equity();
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, after));
            }
        }
        best.expect("some end").1
    }

    /// gnubg's 2-ply, written out as two loops over the 21 rolls.
    fn naive_two_ply(eval: &dyn Evaluator, o: &RuleOptions, state: &GameState, side: Side) -> f64 {
        let mut total = 0.0;
        for &(a, b, w) in ROLLS.iter() {
            let reply = naive_best(eval, o, &state.roll(o, a, b).expect("a roll"));
            let v = match Probs::of_result(&reply, side) {
                Some(p) => f64::from(p.equity()),
                None => ROLLS
                    .iter()
                    .map(|&(c, d, w2)| {
                        let ours = naive_best(eval, o, &reply.roll(o, c, d).expect("a roll"));
                        f64::from(probs_for(eval, &ours, o, side).equity()) * f64::from(w2) / 36.0
                    })
                    .sum(),
            };
            total += v * f64::from(w) / 36.0;
        }
        total
    }

    #[test]
    fn two_ply_is_the_plain_two_loops_over_the_rolls() {
        let eval = crate::eval::variants::baseline(Variant::Backgammon);
        let o = RuleOptions::for_variant(Variant::Backgammon);
        let stop = AtomicBool::new(false);
        let search = Search::new(eval, o, &stop);
        let mut state = GameState::start_of(Variant::Backgammon, Side::White);
        for (a, b) in [(3, 1), (6, 4), (5, 2)] {
            let rolled = state.roll(&o, a, b).unwrap();
            state = naive_best(eval, &o, &rolled);
            let side = state.to_move.opponent();
            let got = search.plied(&state, side, 1, 2, None).unwrap().equity();
            let want = naive_two_ply(eval, &o, &state, side);
            assert!((f64::from(got) - want).abs() < 1e-4, "{got} vs {want}");
            // And it is not the 1-ply figure.
            let one = search.one_ply(&state, side, 1).equity();
            assert!((one - got).abs() > 1e-4);
        }
    }

    #[test]
    fn two_ply_search_rejudges_the_best_and_keeps_a_move_when_stopped() {
        let (o, s) = middle_game_4_2();
        let stop = AtomicBool::new(false);
        let search = Search::new(&Heuristic, o, &stop);
        let limits = Limits {
            plies: 2,
            threads: 2,
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let best = search.best_turn(&s, &limits, &mut |p| depths.push(p.depth));
        assert_eq!(best[0].plies, 2);
        assert_eq!(depths, [1, 2, 3]);
        let two = best.iter().filter(|c| c.plies == 2).count();
        assert!((1..=limits.candidates2).contains(&two));
        // The 2-ply turns lead, the 1-ply ones follow.
        assert!(best[..two].iter().all(|c| c.plies == 2));
        // A node limit reached during the 1-ply pass: no 2-ply, a 1-ply best.
        let search = Search::new(&Heuristic, o, &stop);
        let limited = Limits {
            nodes: Some(search.turns(&s, 48).len() as u64 + 10),
            ..limits
        };
        let best = search.best_turn(&s, &limited, &mut |_| {});
        assert!(!best.is_empty() && best[0].plies <= 1);
        // An expired deadline: the 0-ply ranking, at once.
        let late = Limits {
            deadline: Some(Instant::now()),
            ..limits
        };
        let best = search.best_turn(&s, &late, &mut |_| {});
        assert_eq!(best[0].plies, 0);
    }
}
