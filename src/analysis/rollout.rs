//! Rollouts: the value of a position (before its roll) or of candidate
//! plays, estimated by playing many games out with the search's own turn
//! choice and averaging their results, as gnubg does.
//!
//! - **Trials.** Trial `i` plays one game (or, with truncation, its first
//!   plies) from every root. The dice of a trial depend only on the seed and
//!   `i`: the first two rolls are stratified ([`StratifiedDice`]), later rolls come
//!   from a generator seeded by the seed and `i` ([`trial_seed`]). Every
//!   root of one rollout sees the same dice in trial `i` (common random
//!   numbers: the differences between candidates are measured more finely
//!   than their values).
//! - **Plies.** One ply is one roll and the whole turn it makes (an
//!   escalating chain included). A remainder pending for the side to move
//!   is played, with no dice, at the start of its ply. With `truncate P`
//!   the trial stops after `P` plies and the position is scored by the
//!   evaluator (0-ply, remainder pending or not).
//! - **Turn choice.** Each turn is chosen by [`Search::best_turn`] at the
//!   rollout's ply, with chains planned stage by stage with a beam of
//!   [`BEAM`] and doublet stages prefiltered to [`PREFILTER`] ends, as the
//!   search plans the replies in its look-ahead.
//! - **Luck (variance reduction).** For every roll, the luck of the roller
//!   is the 0-ply value of its best turn after the dice rolled minus the
//!   average of that value over the 36 rolls (whatever the rollout's ply:
//!   at 0-ply the rolled dice's turn is that best turn, so the luck costs
//!   the other 20 rolls' planning). A trial's corrected result is its raw
//!   result minus the sum of the luck, each roll's luck signed from the
//!   root side's view; every probability is corrected the same way. The
//!   luck of a roll has mean zero given the position, so the correction
//!   leaves the estimate unbiased and removes the part of the spread the
//!   evaluator explains.
//! - **Determinism.** Threads take trial indices in order; results are
//!   merged in trial order (a finished trial waits until every earlier one
//!   is merged), so the sums, and every line printed, are the same for any
//!   thread count and scheduling.
//! - **Stop.** A stopped rollout keeps the trials `0..k` finished before
//!   the stop, `k` the first trial not finished: its result is exactly that
//!   of the same rollout with `games k`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::eval::{Evaluator, Probs, probs_for};
use crate::notation::parse_move_token;
use crate::rules::turn::{MoveToken, TurnError, TurnSequence};
use crate::rules::{GameState, RuleOptions, Side, Step};
use crate::search::{INNER_PREFILTER, Limits, Search};
use crate::sharding::Shard;
use crate::splitmix::{SplitMix, mix};
use crate::stats::mean_se_of_sums;

/// The most games (trials) one rollout plays.
pub const MAX_GAMES: u32 = 1_000_000;
/// The most plies a trial is truncated at (`truncate`).
pub const MAX_TRUNCATE: u32 = 10_000;
/// The most candidates one rollout compares.
pub const MAX_CANDIDATES: usize = 100;
/// The most progress reports one rollout makes.
pub const MAX_REPORTS: u32 = 1_000;
/// Chain beam of the rollout's turn choice (and of the luck's).
pub const BEAM: usize = 4;
/// Ends of a doublet stage judged by the rollout's turn choice (and the luck's).
pub const PREFILTER: usize = INNER_PREFILTER;
/// Plies after which an untruncated trial is scored by the evaluator
/// anyway (no real game is this long: the stuck rule ends games earlier).
const PLY_GUARD: u32 = 100_000;
/// Results waiting to be merged (trials × roots) beyond which threads wait.
const WINDOW_RESULTS: usize = 1 << 16;

/// What a rollout plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutParams {
    /// Trials, 1..=[`MAX_GAMES`].
    pub games: u32,
    /// Plies per trial before the evaluator scores it; 0 plays to the end.
    pub truncate: u32,
    /// The players' gnubg ply: 0 (best by the evaluator) or 1.
    pub plies: u8,
    /// The seed of the dice.
    pub seed: u64,
    /// Whether the luck correction is applied.
    pub luck: bool,
    /// Worker threads (1..=64).
    pub threads: usize,
    /// A progress report after every this many trials (0: about ten).
    pub every: u32,
}

impl Default for RolloutParams {
    fn default() -> Self {
        RolloutParams {
            games: 1296,
            truncate: 0,
            plies: 0,
            seed: 0,
            luck: true,
            threads: 1,
            every: 0,
        }
    }
}

impl RolloutParams {
    /// `games` trials, each `truncate` plies long (0: to the end), played
    /// at `ply` counted root-inclusive as `engine.ply` and the front ends
    /// count it (1 is gnubg's 0-ply: the evaluator alone), dice from
    /// `seed`, with the luck correction when `luck`; one thread, a progress
    /// report about every tenth of the games. The one place that turns a
    /// rollout's ply into [`RolloutParams::plies`].
    pub fn at_root_ply(ply: u8, games: u32, truncate: u32, seed: u64, luck: bool) -> RolloutParams {
        RolloutParams {
            games,
            truncate,
            plies: ply.saturating_sub(1),
            seed,
            luck,
            threads: 1,
            every: 0,
        }
    }

    /// Trials between two progress reports: `every`, or about a tenth of
    /// the games, never more than [`MAX_REPORTS`] reports.
    pub fn report_step(&self) -> u32 {
        let games = self.games.max(1);
        let floor = games.div_ceil(MAX_REPORTS);
        let step = if self.every == 0 {
            games.div_ceil(10)
        } else {
            self.every
        };
        step.max(floor).max(1)
    }
}

/// One thing rolled out: a state and the side whose results are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Root {
    /// Where the trials start: a roll (or a remainder) pending, or over.
    pub state: GameState,
    /// The side the results are for.
    pub side: Side,
}

/// The five chances as `f64`: win, win mars, lose mars, win bg, lose bg.
type Vec5 = [f64; 5];

fn vec5(p: &Probs) -> Vec5 {
    [
        f64::from(p.win),
        f64::from(p.win_mars),
        f64::from(p.lose_mars),
        f64::from(p.win_bg),
        f64::from(p.lose_bg),
    ]
}

fn equity5(v: &Vec5) -> f64 {
    2.0 * v[0] - 1.0 + v[1] - v[2] + v[3] - v[4]
}

/// One trial's result for one root, from the root side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Trial {
    /// The raw outcome (exact, or the evaluator's at truncation).
    pub raw: Vec5,
    /// The summed luck of the trial's rolls.
    pub luck: Vec5,
}

impl Trial {
    /// The corrected chances.
    pub fn corrected(&self) -> Vec5 {
        let mut c = self.raw;
        for (c, l) in c.iter_mut().zip(self.luck) {
            *c -= l;
        }
        c
    }
}

/// The running totals of a rollout of one root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Trials merged.
    pub games: u64,
    /// Whether the luck correction is applied to [`Stats::probs`] and
    /// [`Stats::equity`].
    pub luck: bool,
    sum: Vec5,
    sum_eq: f64,
    sum_eq2: f64,
    raw_sum: Vec5,
    raw_eq: f64,
    raw_eq2: f64,
}

impl Stats {
    fn new(luck: bool) -> Stats {
        Stats {
            luck,
            ..Stats::default()
        }
    }

    /// Adds one trial.
    pub fn add(&mut self, t: &Trial) {
        let c = if self.luck { t.corrected() } else { t.raw };
        let e = equity5(&c);
        let r = equity5(&t.raw);
        for (sum, x) in self.sum.iter_mut().zip(c) {
            *sum += x;
        }
        for (sum, x) in self.raw_sum.iter_mut().zip(t.raw) {
            *sum += x;
        }
        self.sum_eq += e;
        self.sum_eq2 += e * e;
        self.raw_eq += r;
        self.raw_eq2 += r * r;
        self.games += 1;
    }

    /// The mean chances (luck-corrected when the correction is on).
    pub fn probs(&self) -> Vec5 {
        let n = self.games.max(1) as f64;
        self.sum.map(|s| s / n)
    }

    /// The mean equity (luck-corrected when the correction is on).
    pub fn equity(&self) -> f64 {
        mean_se_of_sums(self.games, self.sum_eq, self.sum_eq2).0
    }

    /// The standard error of [`Stats::equity`].
    pub fn se(&self) -> f64 {
        mean_se_of_sums(self.games, self.sum_eq, self.sum_eq2).1
    }

    /// The mean equity of the raw results (no correction).
    pub fn raw_equity(&self) -> f64 {
        mean_se_of_sums(self.games, self.raw_eq, self.raw_eq2).0
    }

    /// The standard error of the raw results.
    pub fn raw_se(&self) -> f64 {
        mean_se_of_sums(self.games, self.raw_eq, self.raw_eq2).1
    }

    /// The mean raw chances.
    pub fn raw_probs(&self) -> Vec5 {
        let n = self.games.max(1) as f64;
        self.raw_sum.map(|s| s / n)
    }
}

/// The seed of trial `trial`'s third and later rolls.
pub fn trial_seed(seed: u64, trial: u64) -> u64 {
    mix(seed ^ mix(trial.wrapping_add(0x5EED_0F71_21A1)))
}

/// The ordered roll `k` (0..36): `(k / 6 + 1, k % 6 + 1)`.
pub fn roll_of(k: usize) -> (u8, u8) {
    ((k / 6) as u8 + 1, (k % 6) as u8 + 1)
}

/// The stratified first two rolls of every trial of a seed.
///
/// Two permutations of the 36 ordered rolls, `p1` and `p2`, are drawn from
/// the seed. Trial `i` (with `j = i mod 36`, `b = (i / 36) mod 36`) rolls
/// `p1[j]` first and `p2[(j + b) mod 36]` second: every 36 consecutive
/// trials (from a multiple of 36) roll each of the 36 rolls once first and
/// once second, and every 1,296 consecutive trials (from a multiple of
/// 1,296) roll each of the 1,296 pairs exactly once.
#[derive(Clone, Debug)]
pub struct StratifiedDice {
    seed: u64,
    first: [u8; 36],
    second: [u8; 36],
}

impl StratifiedDice {
    /// The dice of `seed`.
    pub fn new(seed: u64) -> StratifiedDice {
        let mut rng = SplitMix::new(mix(seed ^ 0xD1CE_5EED));
        let mut perm = || {
            let mut p: [u8; 36] = std::array::from_fn(|k| k as u8);
            for k in (1..36).rev() {
                p.swap(k, rng.below(k + 1));
            }
            p
        };
        let first = perm();
        let second = perm();
        StratifiedDice {
            seed,
            first,
            second,
        }
    }

    /// The first two rolls of trial `trial`.
    pub fn first_two(&self, trial: u64) -> [(u8, u8); 2] {
        let j = (trial % 36) as usize;
        let b = ((trial / 36) % 36) as usize;
        [
            roll_of(usize::from(self.first[j])),
            roll_of(usize::from(self.second[(j + b) % 36])),
        ]
    }

    /// The rolls of trial `trial`: the two stratified ones, then seeded ones.
    pub fn trial(&self, trial: u64) -> TrialDice {
        TrialDice {
            first: self.first_two(trial),
            rolled: 0,
            rng: SplitMix::new(trial_seed(self.seed, trial)),
        }
    }
}

/// The sequence of rolls of one trial.
#[derive(Clone, Debug)]
pub struct TrialDice {
    first: [(u8, u8); 2],
    rolled: usize,
    rng: SplitMix,
}

impl Iterator for TrialDice {
    type Item = (u8, u8);

    fn next(&mut self) -> Option<(u8, u8)> {
        let r = match self.first.get(self.rolled) {
            Some(&r) => r,
            None => (self.rng.die(), self.rng.die()),
        };
        self.rolled += 1;
        Some(r)
    }
}

/// A candidate play: its steps (every stage) and the state after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidatePlay {
    /// The steps in the mover's numbering.
    pub steps: Vec<Step>,
    /// The state after the whole turn.
    pub end: GameState,
}

/// Why a list of plays is rejected: the 1-based token (0: the end of the
/// list) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaysError {
    /// 1-based index of the token, `None` at the end of the list.
    pub index: Option<usize>,
    /// The reason.
    pub reason: PlayFault,
}

/// Why a word of a list of plays is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayFault {
    /// `pass` where the dice can be played.
    #[error("'pass' but the dice can be played")]
    PassPlayable,
    /// A roll token: the plays are of the dice set.
    #[error("a roll is not expected: list plays of the pending dice")]
    Roll,
    /// The list ends inside a turn.
    #[error("the last play is not a whole turn")]
    Unfinished,
    /// The word does not read.
    #[error(transparent)]
    Notation(#[from] crate::notation::NotationError),
    /// The rules refuse it, or the words are not a turn.
    #[error(transparent)]
    Turn(#[from] TurnError),
    /// The rules refuse the step.
    #[error(transparent)]
    Move(#[from] crate::rules::turn::MoveError),
}

/// Reads candidate plays of the pending stage(s) from move words: each play
/// is a whole turn (every stage of a chain, or of a remainder), and the next
/// play begins where one ends, so no separator is needed. `pass` is the
/// play of a turn with nothing playable.
pub fn parse_plays(
    start: &GameState,
    opts: &RuleOptions,
    words: &[&str],
) -> Result<Vec<CandidatePlay>, PlaysError> {
    let err = |i: usize, reason: PlayFault| PlaysError {
        index: Some(i + 1),
        reason,
    };
    let mut plays = Vec::new();
    let mut turn = TurnSequence::new(*start, opts);
    let mut given = 0usize;
    // Where the play being read began (its first word's index).
    let mut begun = 0usize;
    let finish = |turn: TurnSequence<'_>| -> Result<CandidatePlay, TurnError> {
        let (end, stages) = turn.finish_with_stages()?;
        Ok(CandidatePlay {
            steps: stages.into_iter().flat_map(|s| s.steps).collect(),
            end,
        })
    };
    for (i, &w) in words.iter().enumerate() {
        if given > 0 && turn.is_over() {
            let done = std::mem::replace(&mut turn, TurnSequence::new(*start, opts));
            plays.push(finish(done).map_err(|r| err(i, r.into()))?);
            given = 0;
        }
        if given == 0 {
            begun = i;
        }
        if w == "pass" {
            if given == 0 && turn.is_over() {
                let done = std::mem::replace(&mut turn, TurnSequence::new(*start, opts));
                plays.push(finish(done).map_err(|r| err(i, r.into()))?);
                continue;
            }
            return Err(err(i, PlayFault::PassPlayable));
        }
        let token = parse_move_token(w).map_err(|e| err(i, e.into()))?;
        if let MoveToken::Roll(..) = token {
            return Err(err(i, PlayFault::Roll));
        }
        turn.push(token).map_err(|e| match e {
            // The token the rules blame (a stage wrong as a whole is
            // blamed on its first token), counted in the whole list.
            TurnError::Move(f) => err(begun + f.index.max(1) - 1, f.error.into()),
            other => err(i, other.into()),
        })?;
        given += 1;
    }
    if given > 0 {
        if !turn.is_over() {
            return Err(PlaysError {
                index: None,
                reason: PlayFault::Unfinished,
            });
        }
        plays.push(finish(turn).map_err(|reason| PlaysError {
            index: None,
            reason: reason.into(),
        })?);
    }
    Ok(plays)
}

/// Rolls trials out for a set of roots.
pub struct Rollout<'a> {
    eval: &'a dyn Evaluator,
    opts: RuleOptions,
    params: RolloutParams,
    dice: StratifiedDice,
}

impl<'a> Rollout<'a> {
    /// A rollout judged by `eval` under `opts`.
    pub fn new(eval: &'a dyn Evaluator, opts: RuleOptions, params: RolloutParams) -> Self {
        Rollout {
            eval,
            opts,
            params,
            dice: StratifiedDice::new(params.seed),
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            plies: self.params.plies.min(1),
            root_beam: BEAM,
            root_prefilter: PREFILTER,
            threads: 1,
            ..Limits::default()
        }
    }

    /// The side to move's turn in `state` (a stage pending), chosen as the
    /// players of the rollout choose.
    fn turn(&self, search: &Search<'_>, state: &GameState) -> GameState {
        search
            .best_turn(state, &self.limits(), &mut |_| {})
            .into_iter()
            .next()
            .map(|c| c.end)
            .unwrap_or_else(|| self.forced(state))
    }

    /// A turn with no candidate (never expected): its stages played empty.
    fn forced(&self, state: &GameState) -> GameState {
        let mover = state.to_move;
        let mut s = *state;
        while s.result().is_none() && s.to_move == mover && s.stage_dice().is_some() {
            s = s.after_stage(&self.opts, s.pos, 0);
        }
        s
    }

    /// Plays `roll` from `state` (to roll) and adds its luck, for `side`,
    /// to `luck`.
    fn play_roll(
        &self,
        search: &Search<'_>,
        state: &GameState,
        roll: (u8, u8),
        side: Side,
        luck: &mut Vec5,
    ) -> GameState {
        let roller = state.to_move;
        let Ok(rolled) = state.roll(&self.opts, roll.0, roll.1) else {
            return self.forced(state);
        };
        if !self.params.luck {
            return self.turn(search, &rolled);
        }
        let view = |p: Probs| vec5(&if roller == side { p } else { p.flipped() });
        let mut mean = [0.0; 5];
        let mut actual = [0.0; 5];
        let mut chosen = None;
        for o in search.roll_outcomes(state, BEAM, PREFILTER) {
            let v = view(o.probs);
            for (m, x) in mean.iter_mut().zip(v) {
                *m += x * f64::from(o.weight) / 36.0;
            }
            if o.is(roll) {
                actual = v;
                chosen = o.end;
            }
        }
        for ((l, a), m) in luck.iter_mut().zip(actual).zip(mean) {
            *l += a - m;
        }
        match chosen {
            // At 0-ply the rolled dice's best 0-ply turn is the player's.
            Some(end) if self.params.plies == 0 => end,
            _ => self.turn(search, &rolled),
        }
    }

    /// Trial `trial` from `root`; `None` when `halt` said stop on the way.
    pub fn trial(
        &self,
        search: &Search<'_>,
        root: &Root,
        trial: u64,
        halt: &dyn Fn() -> bool,
    ) -> Option<Trial> {
        let side = root.side;
        let mut s = root.state;
        let mut dice = self.dice.trial(trial);
        let mut luck = [0.0; 5];
        let mut plies = 0u32;
        let limit = if self.params.truncate == 0 {
            PLY_GUARD
        } else {
            self.params.truncate
        };
        let raw = loop {
            if let Some(p) = Probs::of_result(&s, side) {
                break vec5(&p);
            }
            if plies >= limit {
                break vec5(&probs_for(self.eval, &s, &self.opts, side));
            }
            if halt() {
                return None;
            }
            if s.stage_dice().is_some() {
                // A remainder (or a root's pending stage): no dice, no luck.
                s = self.turn(search, &s);
                continue;
            }
            let roll = dice.next().unwrap_or((1, 2));
            s = self.play_roll(search, &s, roll, side, &mut luck);
            plies += 1;
        };
        Some(Trial { raw, luck })
    }

    /// Rolls out every root for `params.games` trials on `params.threads`
    /// threads, stopping early when `stop` is raised or `deadline` passes.
    /// `report` is called, in trial order, after every
    /// [`RolloutParams::report_step`] merged trials (not after the last).
    /// Returns each root's totals over the trials `0..k` that finished.
    pub fn run(
        &self,
        roots: &[Root],
        stop: &AtomicBool,
        deadline: Option<Instant>,
        report: &(dyn Fn(&[Stats]) + Sync),
    ) -> Vec<Stats> {
        self.run_shard(roots, Shard::WHOLE, stop, deadline, report, false)
            .0
    }

    /// [`Rollout::run`] over the trials of `shard` only (trial numbers
    /// I, I + N, I + 2N … below `params.games`), also returning, when
    /// `keep`, every merged trial's results per root in trial order (what
    /// a shard file holds: [`merge_trials`] adds them up as one run would).
    pub fn run_shard(
        &self,
        roots: &[Root],
        shard: Shard,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        report: &(dyn Fn(&[Stats]) + Sync),
        keep: bool,
    ) -> (Vec<Stats>, Vec<(u64, Vec<Trial>)>) {
        let all = u64::from(self.params.games.min(MAX_GAMES));
        let (first, stride) = (shard.index as u64, shard.count as u64);
        // This shard's trials, numbered k = 0, 1, … locally.
        let games = if first < all {
            (all - first).div_ceil(stride)
        } else {
            0
        };
        let trial_of = |k: u64| first + k * stride;
        let step = u64::from(self.params.report_step());
        let window = (WINDOW_RESULTS / roots.len().max(1)).max(64) as u64;
        let halted =
            || stop.load(Ordering::Acquire) || deadline.is_some_and(|d| Instant::now() >= d);
        struct Merge {
            next: u64,
            waiting: BTreeMap<u64, Vec<Trial>>,
            stats: Vec<Stats>,
            kept: Vec<(u64, Vec<Trial>)>,
        }
        let merge = Mutex::new(Merge {
            next: 0,
            waiting: BTreeMap::new(),
            stats: vec![Stats::new(self.params.luck); roots.len()],
            kept: Vec::new(),
        });
        let merged = Condvar::new();
        let next_trial = AtomicU64::new(0);
        let work = || {
            let search = Search::new(self.eval, self.opts, stop).with_prefilter(PREFILTER);
            loop {
                let i = next_trial.fetch_add(1, Ordering::Relaxed);
                if i >= games || halted() {
                    break;
                }
                // Do not run further ahead of the merged prefix than the window.
                {
                    let Ok(mut m) = merge.lock() else { return };
                    while i >= m.next + window && !halted() {
                        m = match merged.wait_timeout(m, Duration::from_millis(20)) {
                            Ok((g, _)) => g,
                            Err(_) => return,
                        };
                    }
                }
                let mut results = Vec::with_capacity(roots.len());
                for root in roots {
                    match self.trial(&search, root, trial_of(i), &halted) {
                        Some(t) => results.push(t),
                        None => return,
                    }
                }
                // A trial is kept only when no stop came before its end (a
                // stop may have cut a 1-ply choice short inside it).
                if stop.load(Ordering::Acquire) {
                    return;
                }
                let Ok(mut m) = merge.lock() else { return };
                m.waiting.insert(i, results);
                loop {
                    let at = m.next;
                    let Some(ready) = m.waiting.remove(&at) else {
                        break;
                    };
                    for (s, t) in m.stats.iter_mut().zip(&ready) {
                        s.add(t);
                    }
                    if keep {
                        m.kept.push((trial_of(at), ready));
                    }
                    m.next += 1;
                    if m.next % step == 0 && m.next < games {
                        report(&m.stats);
                    }
                }
                drop(m);
                merged.notify_all();
            }
        };
        crate::search::on_threads(self.params.threads, &work);
        let m = match merge.into_inner() {
            Ok(m) => m,
            Err(p) => p.into_inner(),
        };
        (m.stats, m.kept)
    }
}

/// Each root's totals over trials given as `(trial number, results per
/// root)`, added in trial-number order: the shards of a rollout merged
/// give the unsharded run's figures bit for bit.
pub fn merge_trials(roots: usize, luck: bool, trials: &mut [(u64, Vec<Trial>)]) -> Vec<Stats> {
    trials.sort_by_key(|t| t.0);
    let mut stats = vec![Stats::new(luck); roots];
    for (_, results) in trials.iter() {
        for (s, t) in stats.iter_mut().zip(results) {
            s.add(t);
        }
    }
    stats
}

/// The roots of a rollout of candidate plays from `state` (each play's end,
/// for the side to move), with each play's text.
pub fn candidate_roots(
    state: &GameState,
    plays: &[CandidatePlay],
) -> (Vec<Root>, Vec<Option<String>>) {
    plays
        .iter()
        .map(|p| {
            (
                Root {
                    state: p.end,
                    side: state.to_move,
                },
                Some(crate::notation::play_text_at(
                    state.variant,
                    state.pos,
                    &p.steps,
                )),
            )
        })
        .unzip()
}

/// The roots of a rollout of the position before the roll: the state
/// itself, for the side to move (a pending remainder is played first).
pub fn before_roll_root(state: &GameState) -> Root {
    Root {
        state: *state,
        side: state.to_move,
    }
}

/// A number as the rollout lines write it: four decimals, never `-0.0000`.
pub fn fmt4(x: f64) -> String {
    let s = format!("{x:.4}");
    if s == "-0.0000" { "0.0000".into() } else { s }
}

/// The fields after `rolloutok` or `info rollout` (the bg fields in
/// backgammon only):
/// `equity <e> se <s> win <p> winmars <p> losemars <p> [winbg <p> losebg <p>]`
/// `games <n> rawequity <e> rawse <s>`.
pub fn stats_fields(stats: &Stats, backgammon: bool) -> String {
    let p = stats.probs();
    let mut s = format!(
        "equity {} se {} win {} winmars {} losemars {}",
        fmt4(stats.equity()),
        fmt4(stats.se()),
        fmt4(p[0]),
        fmt4(p[1]),
        fmt4(p[2]),
    );
    if backgammon {
        s.push_str(&format!(" winbg {} losebg {}", fmt4(p[3]), fmt4(p[4])));
    }
    s.push_str(&format!(
        " games {} rawequity {} rawse {}",
        stats.games,
        fmt4(stats.raw_equity()),
        fmt4(stats.raw_se())
    ));
    s
}

#[cfg(test)]
mod tests;
