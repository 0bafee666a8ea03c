//! `Env`: a reinforcement-learning environment for every game, self-play
//! by stages: each action is one legal play of the stage to play.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::err;
use crate::paths::{
    GameState, Pending, RuleOptions, SeededDice, Side, StageEnd, StageGen, open_game,
};
use crate::state::{COLUMNS, PyPlay, PyState, board_rows, rules_for, side_name};

/// A self-play environment of one game. `reset()` opens a game with the
/// opening throw; each decision is a stage with more than one distinct
/// legal end, its actions numbered `0..n` (`legal_actions()`); rolls,
/// and stages with a single legal end (forced plays, passes), are played
/// by the environment. `step(action)` returns `(state, reward, done)`,
/// the reward for the side that acted: the points it won (+) or lost (-)
/// once the game is over, else 0. Dice come from the seed.
#[pyclass(name = "Env", module = "gulbara")]
pub(crate) struct PyEnv {
    rules: RuleOptions,
    dice: SeededDice,
    state: GameState,
    movegen: StageGen,
    ends: Vec<StageEnd>,
    playable: u8,
}

impl PyEnv {
    /// Rolls and plays forced stages until a decision or the end.
    fn advance(&mut self) -> PyResult<()> {
        use crate::paths::DiceSource;
        loop {
            if self.state.result().is_some() {
                self.ends.clear();
                return Ok(());
            }
            if self.state.pending == Pending::Roll {
                let (a, b) = (self.dice.die(), self.dice.die());
                self.state = self.state.roll(&self.rules, a, b).map_err(err)?;
            }
            let Some(dice) = self.state.stage_dice() else {
                return Err(err("no stage to play after a roll"));
            };
            self.playable = self
                .movegen
                .generate(&self.rules, &self.state, dice, &mut self.ends);
            match self.ends.len() {
                0 => return Err(err("a stage without a legal end")),
                1 => {
                    self.state =
                        self.state
                            .after_stage(&self.rules, self.ends[0].pos, self.playable)
                }
                _ => return Ok(()),
            }
        }
    }

    fn reward_for(&self, side: Side) -> i32 {
        match self.state.result() {
            Some(r) => match r.winner {
                Some(w) if w == side => i32::from(r.points),
                Some(_) => -i32::from(r.points),
                None => 0,
            },
            None => 0,
        }
    }

    fn start(&mut self) -> PyResult<()> {
        let o = open_game(&self.rules, &mut self.dice);
        let mut st = GameState::start_of(self.rules.variant, o.starter);
        if let Some((a, b)) = o.first_roll {
            st = st.roll(&self.rules, a, b).map_err(err)?;
        }
        self.state = st;
        self.advance()
    }
}

#[pymethods]
impl PyEnv {
    /// An environment of `game` under `rules`, dice from `seed`.
    #[new]
    #[pyo3(signature = (game, seed=0, rules=None))]
    fn new(game: &str, seed: u64, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyEnv> {
        let rules = rules_for(game, rules)?;
        let mut env = PyEnv {
            rules,
            dice: SeededDice::new(seed),
            state: GameState::start_of(rules.variant, Side::White),
            movegen: StageGen::new(),
            ends: Vec::new(),
            playable: 0,
        };
        env.start()?;
        Ok(env)
    }

    /// Starts a new game (dice from `seed` when given, else the stream
    /// goes on) and returns its first decision's state.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, seed: Option<u64>) -> PyResult<PyState> {
        if let Some(s) = seed {
            self.dice = SeededDice::new(s);
        }
        self.start()?;
        Ok(self.state())
    }

    /// The current state: a stage to play, or the game over.
    #[getter]
    fn state(&self) -> PyState {
        PyState::new(self.state, self.rules)
    }

    /// Whether the game is over.
    #[getter]
    fn done(&self) -> bool {
        self.state.result().is_some()
    }

    /// The side to act: 'w' or 'b'.
    #[getter]
    fn to_move(&self) -> &'static str {
        side_name(self.state.to_move)
    }

    /// The actions: `0..n`, one per legal end of the stage (empty once
    /// the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        (0..self.ends.len()).collect()
    }

    /// The number of actions.
    fn num_actions(&self) -> usize {
        self.ends.len()
    }

    /// The plays the actions stand for, in action order.
    fn plays(&self) -> Vec<PyPlay> {
        let before = PyState::new(self.state, self.rules);
        self.ends
            .iter()
            .map(|e| PyPlay {
                before,
                steps: e.play.steps().to_vec(),
                end: PyState::new(
                    self.state.after_stage(&self.rules, e.pos, self.playable),
                    self.rules,
                ),
            })
            .collect()
    }

    /// The board after each action, from the actor's view (its row
    /// first, as `State.board`): an `int8` array of shape (n, 2, 26),
    /// for an agent that judges afterstates.
    fn afterstates<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<i8>> {
        let n = self.ends.len();
        let mut flat = Vec::with_capacity(n * 2 * COLUMNS);
        for e in &self.ends {
            for row in board_rows(e.pos) {
                flat.extend_from_slice(&row);
            }
        }
        Array3::from_shape_vec((n, 2, COLUMNS), flat)
            .unwrap_or_else(|_| Array3::zeros((n, 2, COLUMNS)))
            .into_pyarray(py)
    }

    /// The board of the current state (`State.board`).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<i8>> {
        PyState::new(self.state, self.rules).board_of(py)
    }

    /// Plays action `action` and then every roll and forced stage up to
    /// the next decision; returns `(state, reward, done)`, the reward for
    /// the side that acted.
    fn step(&mut self, action: usize) -> PyResult<(PyState, i32, bool)> {
        let Some(end) = self.ends.get(action) else {
            return Err(err(if self.ends.is_empty() {
                "the game is over: reset() starts another".to_string()
            } else {
                format!("action {action} out of 0..{}", self.ends.len())
            }));
        };
        let actor = self.state.to_move;
        self.state = self.state.after_stage(&self.rules, end.pos, self.playable);
        self.advance()?;
        Ok((self.state(), self.reward_for(actor), self.done()))
    }

    /// Each side's points at the end: `(white, black)`, 0 while playing.
    #[getter]
    fn returns(&self) -> (i32, i32) {
        (self.reward_for(Side::White), self.reward_for(Side::Black))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEnv>()?;
    Ok(())
}
