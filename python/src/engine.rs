//! `Engine`: the search (best play, hints), evaluations of one position or
//! a batch, cube decisions, rollouts, and games and matches between two
//! engines.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::blocking;
use crate::err;
use crate::paths::{
    Builtin, Candidate, CubeQuestion, EngineConfig, EvalKind, EvalMode, Evaluator, GameRecord,
    GameStart, GameState, LibEngine, MAX_GAMES, MAX_TRUNCATE, MatchState, Pending, Player, Ply,
    Probs, Rollout, RolloutParams, Root, Search, SeededDice, Settings, Side, Stats, cubeful_at,
    decide_at, move_token_text, play_started_game, probs_for, probs_for_batch, valuation,
};
use crate::session::{PySession, default_of};
use crate::state::{
    COLUMNS, PyPlay, PyState, position_of_slice, setting_err, settings_for, side_name,
};

/// Cubeless chances of one side: winning (mars, i.e. gammon, wins
/// included), winning and losing a mars, a backgammon (backgammon only,
/// included in the mars), and the cubeless equity in points per game.
#[pyclass(name = "Chances", module = "gulbara", frozen, get_all)]
#[derive(Clone, Copy)]
pub(crate) struct PyChances {
    win: f32,
    win_mars: f32,
    lose_mars: f32,
    win_bg: f32,
    lose_bg: f32,
    equity: f32,
}

impl From<Probs> for PyChances {
    fn from(p: Probs) -> PyChances {
        PyChances {
            win: p.win,
            win_mars: p.win_mars,
            lose_mars: p.lose_mars,
            win_bg: p.win_bg,
            lose_bg: p.lose_bg,
            equity: p.equity(),
        }
    }
}

#[pymethods]
impl PyChances {
    /// `(win, win_mars, lose_mars, win_bg, lose_bg)`, the order of
    /// `Engine.evaluate_batch`'s columns.
    fn astuple(&self) -> (f32, f32, f32, f32, f32) {
        (
            self.win,
            self.win_mars,
            self.lose_mars,
            self.win_bg,
            self.lose_bg,
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Chances(win={:.4}, win_mars={:.4}, lose_mars={:.4}, win_bg={:.4}, lose_bg={:.4}, equity={:.4})",
            self.win, self.win_mars, self.lose_mars, self.win_bg, self.lose_bg, self.equity
        )
    }
}

/// One whole turn the search ranks: every step of every stage of it, the
/// state after it, the mover's chances after it and their worth.
#[pyclass(name = "Hint", module = "gulbara", frozen)]
pub(crate) struct PyHint {
    steps: Vec<(u8, u8)>,
    text: String,
    end: PyState,
    chances: PyChances,
    worth: Option<(f64, bool)>,
    ply: u8,
}

#[pymethods]
impl PyHint {
    /// The steps in play order, `(from, die)` in the mover's numbering.
    #[getter]
    fn steps(&self) -> Vec<(u8, u8)> {
        self.steps.clone()
    }

    /// The turn as the protocol writes it (`24/18 13/8`).
    #[getter]
    fn text(&self) -> String {
        self.text.clone()
    }

    /// The state after the turn.
    #[getter]
    fn end(&self) -> PyState {
        self.end
    }

    /// The mover's cubeless chances after the turn.
    #[getter]
    fn chances(&self) -> PyChances {
        self.chances
    }

    /// The mover's cubeless equity after the turn (points per game).
    #[getter]
    fn equity(&self) -> f32 {
        self.chances.equity
    }

    /// In a session with the cube or a match score: the mover's cubeful
    /// money equity (per unit of the cube) or its match-winning chance
    /// after the turn (see `worth_kind`); `None` in cubeless money play.
    #[getter]
    fn worth(&self) -> Option<f64> {
        self.worth.map(|w| w.0)
    }

    /// 'cubeful', 'mwc' or `None`: what `worth` is.
    #[getter]
    fn worth_kind(&self) -> Option<&'static str> {
        self.worth
            .map(|(_, mwc)| if mwc { "mwc" } else { "cubeful" })
    }

    /// The depth the judgement comes from, root-inclusive (1 = gnubg's 0-ply).
    #[getter]
    fn ply(&self) -> u8 {
        self.ply
    }

    fn __repr__(&self) -> String {
        format!("Hint({:?}, equity={:.4})", self.text, self.chances.equity)
    }
}

/// A cube decision of the side to roll: the equities of no double,
/// double/take and double/pass from its view (money equity per unit of
/// the cube, or match-winning chances in a match) and the right action.
#[pyclass(name = "CubeDecision", module = "gulbara", frozen, get_all)]
pub(crate) struct PyCubeDecision {
    /// gnubg's words: 'Double, take', 'No double, take', 'Too good to double, pass'...
    action: String,
    /// Whether the side to roll should double.
    doubles: bool,
    /// The other side's right answer to a double: 'take', 'drop' or 'beaver'.
    answer: &'static str,
    no_double: f64,
    double_take: f64,
    double_pass: f64,
    /// 'money' or 'mwc': the unit of the three equities.
    unit: &'static str,
    /// The cubeless chances before the roll the decision is made from.
    chances: PyChances,
}

#[pymethods]
impl PyCubeDecision {
    fn __repr__(&self) -> String {
        format!(
            "CubeDecision({:?}, no_double={:.4}, double_take={:.4}, double_pass={:.4})",
            self.action, self.no_double, self.double_take, self.double_pass
        )
    }
}

/// The totals of a rollout of one position or play.
#[pyclass(name = "RolloutResult", module = "gulbara", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyRolloutResult {
    /// Trials played.
    games: u64,
    /// The mean equity (luck-corrected when `luck`), for the side the
    /// rollout counts for.
    equity: f64,
    /// Its standard error.
    se: f64,
    /// The mean chances (win, win_mars, lose_mars, win_bg, lose_bg).
    chances: (f64, f64, f64, f64, f64),
    /// The equity of the raw results and its standard error.
    raw_equity: f64,
    raw_se: f64,
    /// The play rolled out, `None` for the position before the roll.
    play: Option<String>,
}

#[pymethods]
impl PyRolloutResult {
    fn __repr__(&self) -> String {
        format!(
            "RolloutResult(games={}, equity={:.4}, se={:.4}{})",
            self.games,
            self.equity,
            self.se,
            self.play
                .as_ref()
                .map(|p| format!(", play={p:?}"))
                .unwrap_or_default()
        )
    }
}

fn rollout_result(s: &Stats, play: Option<String>) -> PyRolloutResult {
    let p = s.probs();
    PyRolloutResult {
        games: s.games,
        equity: s.equity(),
        se: s.se(),
        chances: (p[0], p[1], p[2], p[3], p[4]),
        raw_equity: s.raw_equity(),
        raw_se: s.raw_se(),
        play,
    }
}

/// An engine: a game with its rule options, an evaluator (the game's
/// trained network, or its hand-written baseline), and the search settings
/// the protocol's `engine.*` keys name. Its methods are safe to call from
/// several threads; long ones release the GIL and stop on Ctrl-C.
#[pyclass(name = "Engine", module = "gulbara", frozen)]
pub(crate) struct PyEngine {
    settings: Settings,
    eval: Arc<dyn Evaluator>,
}

impl PyEngine {
    fn ply_of(&self, ply: Option<u8>) -> PyResult<Ply> {
        match ply {
            None => Ok(self.settings.ply),
            Some(n) => Ply::new(n).ok_or_else(|| {
                err(format!(
                    "ply counts root-inclusive, 1..3 (1 = gnubg's 0-ply), got {n}"
                ))
            }),
        }
    }

    /// The state, checked to be of the engine's game.
    fn check(&self, st: &PyState) -> PyResult<()> {
        let mine = self.settings.rules.variant;
        if st.state.variant != mine {
            return Err(err(format!(
                "a {} position in a {mine} engine",
                st.state.variant
            )));
        }
        Ok(())
    }

    fn valuation_of(
        &self,
        st: &GameState,
        session: &MatchState,
    ) -> Option<[crate::paths::Valuation; 2]> {
        match self.settings.eval_mode {
            EvalMode::Cubeful => valuation(st.variant, session),
            EvalMode::Cubeless => None,
        }
    }

    /// The turns of `st` ranked by the search, best first.
    fn ranked(
        &self,
        py: Python<'_>,
        st: &PyState,
        session: &MatchState,
        ply: Ply,
        count: usize,
    ) -> PyResult<Vec<Candidate>> {
        let mut limits = self.settings.limits(ply);
        limits.candidates = limits.candidates.max(count);
        let val = self.valuation_of(&st.state, session);
        let (eval, rules, state) = (self.eval.as_ref(), st.rules, st.state);
        let search = move |stop: &AtomicBool| {
            Search::new(eval, rules, stop)
                .with_valuation(val)
                .best_turn(&state, &limits, &mut |_| {})
        };
        if ply.get() == 1 {
            // Short: on this thread, without the GIL.
            let stop = AtomicBool::new(false);
            Ok(py.detach(|| search(&stop)))
        } else {
            blocking::run(
                py,
                |stop, _: &std::sync::mpsc::Sender<()>| search(stop),
                |_, ()| Ok(()),
            )
        }
    }

    fn hint_of(&self, st: &PyState, session: &MatchState, c: &Candidate) -> PyHint {
        let next = st.state.to_move.opponent();
        let contact = self.settings.contact_efficiency();
        let worth = cubeful_at(&c.probs.flipped(), &c.end, session, next, contact)
            .map(|(v, mwc)| (if mwc { 1.0 - v } else { -v }, mwc));
        PyHint {
            steps: c.steps.iter().map(|s| (s.from, s.die)).collect(),
            text: crate::paths::play_text_at(st.state.variant, st.state.pos, &c.steps),
            end: PyState::new(c.end, st.rules),
            chances: c.probs.into(),
            worth,
            ply: c.plies + 1,
        }
    }

    /// The state with a stage to play: rolled with `dice` when given.
    fn to_play(&self, st: &PyState, dice: Option<(u8, u8)>) -> PyResult<PyState> {
        self.check(st)?;
        let s = match dice {
            Some((a, b)) => st.state.roll(&st.rules, a, b).map_err(err)?,
            None => st.state,
        };
        if s.result().is_some() {
            return Err(err("the game is over"));
        }
        if s.stage_dice().is_none() {
            return Err(err(
                "nothing to play: the side to move must roll (give the dice)",
            ));
        }
        Ok(PyState::new(s, st.rules))
    }

    fn session_of(st: &PyState, session: Option<PyRef<'_, PySession>>) -> MatchState {
        session.map(|s| s.session).unwrap_or_else(|| default_of(st))
    }

    /// Builtin-player options of these settings: every key of the game.
    fn options(&self) -> Vec<(String, String)> {
        self.settings
            .current_defs()
            .iter()
            .filter_map(|d| Some((d.name.to_string(), self.settings.get(d.name)?)))
            .collect()
    }
}

#[pymethods]
impl PyEngine {
    /// An engine for `game` under `rules` (the `rules.*` options), searching
    /// `ply` deep (root-inclusive, as `engine.ply`: 1 is gnubg's 0-ply, 2
    /// its 1-ply, 3 its 2-ply), with `eval` 'net' (the trained network,
    /// from `weights`: a file, or 'shipped') or 'heuristic'. `options`:
    /// any other protocol key (`{"engine.beam": 8, "engine.threads": 2}`).
    #[new]
    #[pyo3(signature = (game="backgammon", ply=1, rules=None, eval="net", weights=None, options=None))]
    fn new(
        game: &str,
        ply: u8,
        rules: Option<&Bound<'_, PyDict>>,
        eval: &str,
        weights: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEngine> {
        let mut s = settings_for(game, rules)?;
        s.set("engine.ply", &ply.to_string()).map_err(setting_err)?;
        s.set("engine.eval", eval).map_err(setting_err)?;
        if let Some(w) = weights {
            s.set("engine.weights", w).map_err(setting_err)?;
        }
        if let Some(d) = options {
            for (k, v) in d.iter() {
                let k: String = k.extract()?;
                if k == "game.variant" {
                    return Err(err("the game is the engine's `game`, not an option"));
                }
                s.set(&k, &v.str()?.to_string()).map_err(setting_err)?;
            }
        }
        let engine = LibEngine::new(s.clone(), EngineConfig::default()).map_err(err)?;
        let eval = engine.evaluator().map_err(err)?;
        Ok(PyEngine { settings: s, eval })
    }

    /// The engine's game.
    #[getter]
    fn game(&self) -> String {
        self.settings.rules.variant.to_string()
    }

    /// Its search depth, root-inclusive.
    #[getter]
    fn ply(&self) -> u8 {
        self.settings.ply.get()
    }

    /// Every protocol key of its game and its value.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.options() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The best turn of the side to move in `state` (with `dice` rolled
    /// first when given), at `ply` (the engine's when `None`), in
    /// `session` (at a match score plays are ranked by match-winning
    /// chances).
    #[pyo3(signature = (state, dice=None, ply=None, session=None))]
    fn best_play(
        &self,
        py: Python<'_>,
        state: &PyState,
        dice: Option<(u8, u8)>,
        ply: Option<u8>,
        session: Option<PyRef<'_, PySession>>,
    ) -> PyResult<PyHint> {
        let mut hints = self.hints(py, state, 1, dice, ply, session)?;
        hints.pop().ok_or_else(|| err("the search found no turn"))
    }

    /// The `n` best turns, best first, as `hint` ranks them.
    #[pyo3(signature = (state, n=5, dice=None, ply=None, session=None))]
    fn hints(
        &self,
        py: Python<'_>,
        state: &PyState,
        n: usize,
        dice: Option<(u8, u8)>,
        ply: Option<u8>,
        session: Option<PyRef<'_, PySession>>,
    ) -> PyResult<Vec<PyHint>> {
        if n == 0 {
            return Err(err("hints: n must be at least 1"));
        }
        let st = self.to_play(state, dice)?;
        let m = Self::session_of(&st, session);
        let ply = self.ply_of(ply)?;
        let ranked = self.ranked(py, &st, &m, ply, n)?;
        Ok(ranked
            .iter()
            .take(n)
            .map(|c| self.hint_of(&st, &m, c))
            .collect())
    }

    /// The chances of the side to move in `state`: before its roll, judged
    /// at `ply` (1: the evaluator alone, a static evaluation); with dice
    /// to play, after its best turn at that depth; exact once the game is
    /// over.
    #[pyo3(signature = (state, ply=1))]
    fn evaluate(&self, py: Python<'_>, state: &PyState, ply: u8) -> PyResult<PyChances> {
        self.check(state)?;
        let ply = self.ply_of(Some(ply))?;
        let st = state.state;
        if st.result().is_none()
            && matches!(st.pending, Pending::Roll2 { .. } | Pending::Chain { .. })
        {
            let ranked = self.ranked(py, state, &default_of(state), ply, 1)?;
            return ranked
                .first()
                .map(|c| c.probs.into())
                .ok_or_else(|| err("the search found no turn"));
        }
        let (eval, rules) = (self.eval.as_ref(), state.rules);
        if ply.get() == 1 {
            return Ok(py
                .detach(|| probs_for(eval, &st, &rules, st.to_move))
                .into());
        }
        let beam = crate::paths::Limits::default().inner_beam;
        let probs = blocking::run(
            py,
            |stop, _: &std::sync::mpsc::Sender<()>| {
                Search::new(eval, rules, stop).before_roll(&st, ply.gnubg(), beam)
            },
            |_, ()| Ok(()),
        )?;
        Ok(probs.into())
    }

    /// Static evaluations of a batch: `boards` an `int8` array of shape
    /// (n, 2, 26), each a board as `State.board` lays it out (the side to
    /// move about to roll; in Gul bara past its exempt rolls); returns a
    /// `float32` array of shape (n, 5), each row the side to move's
    /// (win, win_mars, lose_mars, win_bg, lose_bg). A bad board raises
    /// with its index.
    fn evaluate_batch<'py>(
        &self,
        py: Python<'py>,
        boards: PyReadonlyArray3<'py, i8>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let view = boards.as_array();
        let shape = view.shape().to_vec();
        if shape[1] != 2 || shape[2] != COLUMNS {
            return Err(err(format!(
                "boards must have shape (n, 2, {COLUMNS}), got {shape:?}"
            )));
        }
        let n = shape[0];
        let rules = self.settings.rules;
        let variant = rules.variant;
        let mut template = GameState::start_of(variant, Side::White);
        template.rolls = crate::state::board_rolls(&rules);
        let mut out = Vec::with_capacity(n * 5);
        let eval = self.eval.as_ref();
        // The boards in logical order, flat: as they are when C-contiguous.
        let owned: Vec<i8>;
        let flat: &[i8] = match boards.as_slice() {
            Ok(s) => s,
            Err(_) => {
                owned = view.iter().copied().collect();
                &owned
            }
        };
        const CHUNK: usize = 1 << 15;
        let mut states = Vec::with_capacity(CHUNK.min(n));
        let mut probs = Vec::with_capacity(CHUNK.min(n));
        let mut start = 0;
        while start < n {
            let end = (start + CHUNK).min(n);
            states.clear();
            for i in start..end {
                let board = &flat[i * 2 * COLUMNS..(i + 1) * 2 * COLUMNS];
                let pos = position_of_slice(variant, board)
                    .map_err(|e| err(format!("board {i}: {e}")))?;
                let mut s = template;
                s.pos = pos;
                states.push(s);
            }
            py.detach(|| probs_for_batch(eval, &states, &rules, Side::White, &mut probs));
            for p in &probs {
                out.extend_from_slice(&[p.win, p.win_mars, p.lose_mars, p.win_bg, p.lose_bg]);
            }
            py.check_signals()?;
            start = end;
        }
        let a = Array2::from_shape_vec((n, 5), out).map_err(err)?;
        Ok(a.into_pyarray(py))
    }

    /// The cube decision of the side to roll in `state` in `session`
    /// (before its roll; with its double waiting, the decision it was),
    /// from its chances before the roll at the engine's cube depth
    /// (`engine.cube_ply`, or the engine's ply but not below
    /// `engine.cube_min_ply`, by default 2: gnubg's 1-ply). `None` when
    /// it has no cube to turn (the opponent owns it, the Crawford game).
    #[pyo3(signature = (state, session=None))]
    fn cube(
        &self,
        py: Python<'_>,
        state: &PyState,
        session: Option<PyRef<'_, PySession>>,
    ) -> PyResult<Option<PyCubeDecision>> {
        self.check(state)?;
        let st = state.state;
        let m = Self::session_of(state, session);
        let question = CubeQuestion::before_roll(&st, &m).map_err(err)?;
        let ply = self.settings.cube_depth();
        let contact = self.settings.contact_efficiency();
        let beam = crate::paths::Limits::default().inner_beam;
        let val = self.valuation_of(&st, &m);
        let (eval, rules) = (self.eval.as_ref(), state.rules);
        let judge = move |stop: &AtomicBool| {
            Search::new(eval, rules, stop)
                .with_valuation(val)
                .before_roll(&st, ply.gnubg(), beam)
        };
        let probs = if ply.get() == 1 {
            let stop = AtomicBool::new(false);
            py.detach(|| judge(&stop))
        } else {
            blocking::run(
                py,
                |stop, _: &std::sync::mpsc::Sender<()>| judge(stop),
                |_, ()| Ok(()),
            )?
        };
        Ok(
            decide_at(&probs, &st, &m, question.doubler, contact).map(|d| PyCubeDecision {
                action: d.action.words(question.redouble),
                doubles: d.action.doubles(),
                answer: d.action.answer(),
                no_double: d.no_double,
                double_take: d.double_take,
                double_pass: d.double_pass,
                unit: question.unit(),
                chances: probs.into(),
            }),
        )
    }

    /// Rolls out `state` before its roll (for the side to move), or each
    /// of `plays` (the mover's plays of it, `Play` or `Hint`) for the
    /// mover: `games` trials (at most 1,000,000), each `truncate` plies
    /// long (0: to the end) played at `ply` (1 or 2), dice from `seed`,
    /// with the luck correction when `luck`. Stops early after
    /// `max_seconds` or on Ctrl-C (which raises). `progress(results)` is
    /// called every `every` trials (0: about ten times) with the totals
    /// so far. Returns one result per root.
    #[pyo3(signature = (state, games=1296, truncate=0, ply=1, seed=0, luck=true, threads=1, plays=None, max_seconds=None, every=0, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn rollout(
        &self,
        py: Python<'_>,
        state: &PyState,
        games: u32,
        truncate: u32,
        ply: u8,
        seed: u64,
        luck: bool,
        threads: usize,
        plays: Option<Vec<Bound<'_, PyAny>>>,
        max_seconds: Option<f64>,
        every: u32,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyRolloutResult>> {
        self.check(state)?;
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(err(format!("games must be 1..{MAX_GAMES}, got {games}")));
        }
        if !(1..=2).contains(&ply) {
            return Err(err(format!("a rollout plays at ply 1 or 2, got {ply}")));
        }
        if truncate > MAX_TRUNCATE {
            return Err(err(format!(
                "truncate must be 0..{MAX_TRUNCATE} (0: to the end), got {truncate}"
            )));
        }
        if !(1..=64).contains(&threads) {
            return Err(err(format!("threads must be 1..64, got {threads}")));
        }
        let st = state.state;
        let (roots, names): (Vec<Root>, Vec<Option<String>>) = match plays {
            None => {
                if !matches!(st.pending, Pending::Roll | Pending::Remainder { .. }) {
                    return Err(err(
                        "a position with dice to play is rolled out play by play: give plays",
                    ));
                }
                (
                    vec![Root {
                        state: st,
                        side: st.to_move,
                    }],
                    vec![None],
                )
            }
            Some(list) => {
                if list.is_empty() || list.len() > crate::paths::MAX_CANDIDATES {
                    return Err(err(format!(
                        "plays: 1..{} of them",
                        crate::paths::MAX_CANDIDATES
                    )));
                }
                let mut roots = Vec::new();
                let mut names = Vec::new();
                for p in list {
                    let (end, text) = if let Ok(p) = p.cast::<PyPlay>() {
                        let p = p.get();
                        if p.before != *state {
                            return Err(err("a play is not one of this state's"));
                        }
                        (
                            p.end.state,
                            crate::paths::play_text_at(st.variant, st.pos, &p.steps),
                        )
                    } else if let Ok(h) = p.cast::<PyHint>() {
                        let h = h.get();
                        (h.end.state, h.text.clone())
                    } else {
                        return Err(err("plays are Play or Hint objects"));
                    };
                    roots.push(Root {
                        state: end,
                        side: st.to_move,
                    });
                    names.push(Some(text));
                }
                (roots, names)
            }
        };
        let params = RolloutParams {
            threads,
            every,
            ..RolloutParams::at_root_ply(ply, games, truncate, seed, luck)
        };
        let deadline = match max_seconds {
            Some(s) if s.is_finite() && s > 0.0 => {
                Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(s))
            }
            Some(s) => return Err(err(format!("max_seconds must be positive, got {s}"))),
            None => None,
        };
        let (eval, rules) = (self.eval.as_ref(), state.rules);
        let roots_ref = &roots;
        let stats = blocking::run(
            py,
            move |stop, tx: &std::sync::mpsc::Sender<Vec<Stats>>| {
                let tx = std::sync::Mutex::new(tx.clone());
                let report = move |s: &[Stats]| {
                    if let Ok(tx) = tx.lock() {
                        let _ = tx.send(s.to_vec());
                    }
                };
                Rollout::new(eval, rules, params).run(roots_ref, stop, deadline, &report)
            },
            |py, s: Vec<Stats>| {
                if let Some(cb) = &progress {
                    let list: Vec<PyRolloutResult> = s
                        .iter()
                        .zip(&names)
                        .map(|(s, n)| rollout_result(s, n.clone()))
                        .collect();
                    cb.call1((list,))?;
                }
                let _ = py;
                Ok(())
            },
        )?;
        Ok(stats
            .iter()
            .zip(&names)
            .map(|(s, n)| rollout_result(s, n.clone()))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(game={:?}, ply={}, eval={:?})",
            self.game(),
            self.ply(),
            self.settings.get("engine.eval").unwrap_or_default()
        )
    }
}

/// How one game between two engines went.
#[pyclass(name = "GameResult", module = "gulbara", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyGameResult {
    /// The winner ('w' or 'b'), `None` without one (stuck, a forfeit).
    winner: Option<&'static str>,
    /// The points the winner scores in the session (the cube included).
    points: u32,
    /// The game's own result: 1 single, 2 mars (gammon), 3 backgammon.
    result_points: u8,
    /// Whether it ended with a dropped double.
    dropped: bool,
    /// Why a player forfeited, if one did.
    forfeit: Option<String>,
    /// The opening throws.
    openings: Vec<(u8, u8)>,
    /// Each turn as `side roll moves`: `w 65 24/18 13/8`, a remainder as
    /// `b - 5/1`.
    turns: Vec<String>,
    /// The last state.
    final_state: PyState,
}

fn game_result(rec: &GameRecord, rules: crate::paths::RuleOptions) -> PyGameResult {
    let scored = rec.scored();
    PyGameResult {
        winner: scored.map(|(s, _)| side_name(s)),
        points: scored.map(|(_, p)| p).unwrap_or(0),
        result_points: rec.result.points,
        dropped: rec.dropped,
        forfeit: rec
            .forfeit
            .as_ref()
            .map(|f| format!("{} {}", side_name(f.side), f.reason)),
        openings: rec.openings.clone(),
        turns: rec
            .turns
            .iter()
            .map(|t| {
                let roll = t
                    .roll
                    .map(|(a, b)| format!("{a}{b}"))
                    .unwrap_or_else(|| "-".to_string());
                let moves: Vec<String> = t.moves.iter().map(|m| move_token_text(*m)).collect();
                let moves = if moves.is_empty() {
                    "pass".to_string()
                } else {
                    moves.join(" ")
                };
                format!("{} {roll} {moves}", side_name(t.side))
            })
            .collect(),
        final_state: PyState::new(rec.final_state, rules),
    }
}

#[pymethods]
impl PyGameResult {
    fn __repr__(&self) -> String {
        format!(
            "GameResult(winner={:?}, points={}, turns={})",
            self.winner,
            self.points,
            self.turns.len()
        )
    }
}

/// How a match between two engines went.
#[pyclass(name = "MatchResult", module = "gulbara", frozen, get_all)]
pub(crate) struct PyMatchResult {
    /// The winner: 'w' (the first engine) or 'b'; `None` when stopped.
    winner: Option<&'static str>,
    /// The final score (White's, Black's).
    score: (u32, u32),
    /// Its games in order.
    games: Vec<PyGameResult>,
}

/// A player of `play_game`: an engine, or 'random'.
enum Seat {
    Engine(Vec<(String, String)>, &'static str),
    Random,
}

fn seat_of(p: &Bound<'_, PyAny>, game: &str) -> PyResult<Seat> {
    if let Ok(e) = p.cast::<PyEngine>() {
        let e = e.get();
        if e.settings.rules.variant.to_string() != game {
            return Err(err(format!(
                "a {} engine cannot play {game}",
                e.settings.rules.variant
            )));
        }
        let kind = match e.settings.eval {
            EvalKind::Net => "net",
            EvalKind::Heuristic => "heuristic",
        };
        return Ok(Seat::Engine(e.options(), kind));
    }
    match p.extract::<String>() {
        Ok(s) if s == "random" => Ok(Seat::Random),
        _ => Err(err("a player is an Engine or 'random'")),
    }
}

fn builtin(seat: &Seat, game: &str, seed: u64) -> Result<Builtin, String> {
    match seat {
        Seat::Engine(opts, kind) => Builtin::new(kind, opts).map_err(|e| e.to_string()),
        Seat::Random => Builtin::new(
            "random",
            &[
                ("game.variant".to_string(), game.to_string()),
                ("engine.seed".to_string(), (seed % (1 << 32)).to_string()),
            ],
        )
        .map_err(|e| e.to_string()),
    }
}

/// Plays games on a worker thread; Ctrl-C stops between games.
fn run_games(
    py: Python<'_>,
    seats: [Seat; 2],
    game: String,
    rules: crate::paths::RuleOptions,
    session: MatchState,
    seed: u64,
    whole_match: bool,
) -> PyResult<(Vec<PyGameResult>, MatchState)> {
    let (out, m) = blocking::run(
        py,
        move |stop,
              _: &std::sync::mpsc::Sender<()>|
              -> Result<(Vec<PyGameResult>, MatchState), String> {
            let mut white = builtin(&seats[0], &game, seed)?;
            let mut black = builtin(&seats[1], &game, seed.wrapping_add(1))?;
            let mut dice = SeededDice::new(seed);
            let mut session = session;
            let mut games = Vec::new();
            loop {
                let players: [&mut dyn Player; 2] = [&mut white, &mut black];
                let rec = play_started_game(
                    &rules,
                    &session,
                    GameStart::OpeningThrow,
                    &mut dice,
                    players,
                    &mut (),
                );
                let scored = rec.scored();
                games.push(game_result(&rec, rules));
                if !whole_match {
                    break;
                }
                match scored {
                    Some((side, points)) => session.score_game(side, points),
                    None => return Err("a game of the match ended without a winner".into()),
                }
                if session.winner().is_some() || stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            Ok((games, session))
        },
        |_, ()| Ok(()),
    )?
    .map_err(err)?;
    Ok((out, m))
}

/// Plays one game between `white` and `black` (each an `Engine` of the
/// game, or 'random'), dice from `seed`, opened by the opening throw, in
/// `session` (cubeless money play when `None`; with the cube, the
/// engines double and answer).
#[pyfunction]
#[pyo3(signature = (white, black, seed=0, game=None, rules=None, session=None))]
fn play_game(
    py: Python<'_>,
    white: &Bound<'_, PyAny>,
    black: &Bound<'_, PyAny>,
    seed: u64,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyDict>>,
    session: Option<PyRef<'_, PySession>>,
) -> PyResult<PyGameResult> {
    let (game, opts) = game_and_rules(white, black, game, rules)?;
    let seats = [seat_of(white, &game)?, seat_of(black, &game)?];
    let m = session
        .map(|s| s.session)
        .unwrap_or_else(crate::paths::cubeless);
    let (mut games, _) = run_games(py, seats, game, opts, m, seed, false)?;
    games.pop().ok_or_else(|| err("no game was played"))
}

/// Plays a match to `length` points between `white` (White in every game)
/// and `black`, dice from `seed`, with the cube (engines double and
/// answer) unless `cube=False`, and the Crawford rule. Ctrl-C stops it
/// between games (and raises).
#[pyfunction]
#[pyo3(signature = (white, black, length, seed=0, game=None, rules=None, cube=true))]
#[allow(clippy::too_many_arguments)]
fn play_match(
    py: Python<'_>,
    white: &Bound<'_, PyAny>,
    black: &Bound<'_, PyAny>,
    length: u32,
    seed: u64,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyDict>>,
    cube: bool,
) -> PyResult<PyMatchResult> {
    let (game, opts) = game_and_rules(white, black, game, rules)?;
    let seats = [seat_of(white, &game)?, seat_of(black, &game)?];
    let m = MatchState::match_to(
        length,
        crate::paths::SessionRules {
            cube,
            ..crate::paths::SessionRules::default()
        },
    )
    .map_err(err)?;
    let (games, m) = run_games(py, seats, game, opts, m, seed, true)?;
    Ok(PyMatchResult {
        winner: m.winner().map(side_name),
        score: (m.score(Side::White), m.score(Side::Black)),
        games,
    })
}

/// The game and rules of a game between `white` and `black`: `game` and
/// `rules` when given, else the first engine's.
fn game_and_rules(
    white: &Bound<'_, PyAny>,
    black: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<(String, crate::paths::RuleOptions)> {
    if let Some(g) = game {
        let opts = crate::state::rules_for(g, rules)?;
        return Ok((g.to_string(), opts));
    }
    for p in [white, black] {
        if let Ok(e) = p.cast::<PyEngine>() {
            let r = e.get().settings.rules;
            if rules.is_some() {
                return Err(err("give the game with the rules"));
            }
            return Ok((r.variant.to_string(), r));
        }
    }
    Err(err("two random players need a game"))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyChances>()?;
    m.add_class::<PyHint>()?;
    m.add_class::<PyCubeDecision>()?;
    m.add_class::<PyRolloutResult>()?;
    m.add_class::<PyGameResult>()?;
    m.add_class::<PyMatchResult>()?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    Ok(())
}
