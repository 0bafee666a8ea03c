//! Positions and the rules: `State` (a game state under its rule options),
//! `Play` (one legal play of a stage), board arrays, the opening throw.

use numpy::ndarray::{Array2, ArrayView2};
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::err;
use crate::paths::{
    Base, Checkers, EngineConfig, GameState, LibEngine, MatchState, Pending, Position, PositionCmd,
    ProtocolError, RuleOptions, SeededDice, SettingError, Settings, Side, StageEnd, StageGen, Step,
    Variant, check_position, default_session, id_texts, open_game, parse_state_text_in,
    play_text_at, state_text,
};
use crate::session::PySession;

/// Columns of a board row: borne off, points 1..24, the bar.
pub(crate) const COLUMNS: usize = 26;
/// The column of the bar.
const BAR_COLUMN: usize = 25;

/// A protocol error as a Python exception with its message.
pub(crate) fn protocol_err(e: ProtocolError) -> PyErr {
    err(e.detail)
}

/// A setting refused by the engine, as a Python exception with the message
/// the protocol's `error bad_value` line carries.
pub(crate) fn setting_err(e: SettingError) -> PyErr {
    err(e.to_string())
}

/// Settings for `game` with the `rules.*` options of `rules` (keys with or
/// without the `rules.` prefix), read as the protocol's `set` reads them.
pub(crate) fn settings_for(game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut s = Settings::default();
    s.set("game.variant", game).map_err(setting_err)?;
    if let Some(d) = rules {
        for (k, v) in d.iter() {
            let k: String = k.extract()?;
            let key = if k.starts_with("rules.") {
                k
            } else {
                format!("rules.{k}")
            };
            let value = v.str()?.to_string();
            s.set(&key, &value).map_err(setting_err)?;
        }
    }
    Ok(s)
}

/// The rule options of `game` with `rules`.
pub(crate) fn rules_for(game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<RuleOptions> {
    Ok(settings_for(game, rules)?.rules)
}

/// `w`/`white` or `b`/`black`.
pub(crate) fn side_of(text: &str) -> PyResult<Side> {
    match text {
        "w" | "white" => Ok(Side::White),
        "b" | "black" => Ok(Side::Black),
        _ => Err(err(format!("a side is 'w' or 'b', got '{text}'"))),
    }
}

/// `w` or `b`.
pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "w",
        Side::Black => "b",
    }
}

/// One side's row: borne off, points 1..24 (its own numbering), the bar;
/// a pinned checker (alone on its point) is -1.
fn row_of(c: Checkers) -> [i8; COLUMNS] {
    let mut row = [0i8; COLUMNS];
    row[0] = c.off() as i8;
    for p in 1..=24u8 {
        row[usize::from(p)] = if c.pinned(p) { -1 } else { c.at(p) as i8 };
    }
    row[BAR_COLUMN] = c.bar() as i8;
    row
}

/// The board array of a position: the mover's row, then the opponent's.
pub(crate) fn board_rows(pos: Position) -> [[i8; COLUMNS]; 2] {
    [row_of(pos.own), row_of(pos.opp)]
}

/// One side's checkers from its row.
fn checkers_of(row: &[i8], who: &str) -> Result<Checkers, String> {
    let mut counts = [0u8; 24];
    let mut pins = Vec::new();
    for p in 1..=24usize {
        counts[p - 1] = match row[p] {
            -1 => {
                pins.push(p as u8);
                1
            }
            n @ 0..=15 => n as u8,
            n => return Err(format!("{who}: {n} checkers on point {p}")),
        };
    }
    let bar = match row[BAR_COLUMN] {
        n @ 0..=15 => n as u8,
        n => return Err(format!("{who}: {n} checkers on the bar")),
    };
    let on: u32 = counts.iter().map(|&n| u32::from(n)).sum::<u32>() + u32::from(bar);
    if on > 15 {
        return Err(format!("{who}: {on} checkers, more than 15"));
    }
    let off = 15 - on as i8;
    if row[0] != off {
        return Err(format!(
            "{who}: {} borne off, but {on} checkers are in play (off must be {off})",
            row[0]
        ));
    }
    let mut c = Checkers::from_counts_with_bar(&counts, bar)
        .ok_or_else(|| format!("{who}: more than 15 checkers"))?;
    for p in pins {
        c = c.with_pin(p, true);
    }
    Ok(c)
}

/// The rolls a state read from a board array has made: none, or in the
/// escalating games both sides past the rolls whose doublets do not
/// escalate (a position in the middle of a game).
pub(crate) fn board_rolls(opts: &RuleOptions) -> [u32; 2] {
    if opts.variant.escalating() {
        [opts.exempt_rolls, opts.exempt_rolls]
    } else {
        [0, 0]
    }
}

/// The position of a board array (2 rows of 26), checked against the game.
pub(crate) fn position_of_rows(
    variant: Variant,
    rows: ArrayView2<'_, i8>,
) -> Result<Position, String> {
    if rows.shape() != [2, COLUMNS] {
        return Err(format!(
            "a board is 2 rows of {COLUMNS} (off, points 1..24, bar), got shape {:?}",
            rows.shape()
        ));
    }
    let flat: Vec<i8> = rows.iter().copied().collect();
    position_of_slice(variant, &flat)
}

/// The position of a board laid out flat (the mover's 26 numbers, then
/// the opponent's), checked against the game.
pub(crate) fn position_of_slice(variant: Variant, flat: &[i8]) -> Result<Position, String> {
    let (own, opp) = flat.split_at(COLUMNS);
    let pos = Position {
        own: checkers_of(own, "the mover")?,
        opp: checkers_of(opp, "the opponent")?,
    };
    check_position(variant, pos).map_err(|e| e.to_string())?;
    Ok(pos)
}

/// The state and the session that a gnubg ID or an XGID describes, read
/// as the protocol's `position` reads them.
pub(crate) fn read_id(
    game: &str,
    rules: Option<&Bound<'_, PyDict>>,
    base: Base,
) -> PyResult<(GameState, RuleOptions, MatchState)> {
    let settings = settings_for(game, rules)?;
    let opts = settings.rules;
    let mut engine = LibEngine::new(settings, EngineConfig::default()).map_err(err)?;
    PositionCmd {
        base,
        moves: Vec::new(),
    }
    .apply_to(&mut engine)
    .map_err(protocol_err)?;
    Ok((*engine.state(), opts, *engine.session()))
}

/// A game state: the game and its rule options, the position, the side to
/// move and what it has to do (roll, or play the dice of a stage).
/// Immutable: every move returns a new state.
#[pyclass(name = "State", module = "gulbara", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct PyState {
    pub(crate) state: GameState,
    pub(crate) rules: RuleOptions,
}

/// One legal play of the stage to play: its steps and where it ends.
#[pyclass(name = "Play", module = "gulbara", frozen)]
#[derive(Clone)]
pub(crate) struct PyPlay {
    pub(crate) before: PyState,
    pub(crate) steps: Vec<Step>,
    pub(crate) end: PyState,
}

impl std::hash::Hash for PyState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.state.hash(h);
    }
}

impl PyState {
    pub(crate) fn new(state: GameState, rules: RuleOptions) -> PyState {
        PyState { state, rules }
    }

    /// The state ready to play a stage: rolled with `dice` when given.
    fn with_dice(&self, dice: Option<(u8, u8)>) -> PyResult<GameState> {
        match dice {
            None => Ok(self.state),
            Some((a, b)) if self.state.pending == Pending::Roll => {
                self.state.roll(&self.rules, a, b).map_err(err)
            }
            Some(_) => Err(err(format!(
                "the dice are rolled already: {}",
                self.state.pending_description()
            ))),
        }
    }

    /// Every legal play of the pending stage of `st`, sorted by text.
    pub(crate) fn plays_of(
        st: &GameState,
        rules: &RuleOptions,
        movegen: &mut StageGen,
        ends: &mut Vec<StageEnd>,
    ) -> PyResult<Vec<PyPlay>> {
        if st.result().is_some() {
            return Err(err("the game is over"));
        }
        let Some(dice) = st.stage_dice() else {
            return Err(err(
                "nothing to play: the side to move must roll (give the dice)",
            ));
        };
        let playable = movegen.generate(rules, st, dice, ends);
        let before = PyState::new(*st, *rules);
        let mut plays: Vec<(String, PyPlay)> = ends
            .iter()
            .map(|e| {
                let steps = e.play.steps().to_vec();
                let text = play_text_at(st.variant, st.pos, &steps);
                let end = PyState::new(st.after_stage(rules, e.pos, playable), *rules);
                (text, PyPlay { before, steps, end })
            })
            .collect();
        plays.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(plays.into_iter().map(|(_, p)| p).collect())
    }

    /// The pending stage as `show` words it.
    fn pending_text(&self) -> String {
        match self.state.pending {
            Pending::Roll => "roll".to_string(),
            Pending::Roll2 { d1, d2 } => format!("dice {d1}{d2}"),
            Pending::Chain { die, first: true } => format!("dice {die}{die} escalating"),
            Pending::Chain { die, first: false } => format!("chain {die}"),
            Pending::Remainder { die, count } => format!("remainder {die}x{count}"),
        }
    }
}

#[pymethods]
impl PyState {
    /// The start of `game` (one of `gulbara.GAMES`) under its rule options
    /// `rules` (`{"opening": "reroll"}`: the `rules.*` keys, the prefix
    /// optional), `first` ('w' or 'b') to roll.
    #[staticmethod]
    #[pyo3(signature = (game, rules=None, first="w"))]
    fn start(game: &str, rules: Option<&Bound<'_, PyDict>>, first: &str) -> PyResult<PyState> {
        let opts = rules_for(game, rules)?;
        Ok(PyState::new(
            GameState::start_of(opts.variant, side_of(first)?),
            opts,
        ))
    }

    /// A state of `game` from the engine's position text
    /// (`protocol/NOTATION.md`), e.g. the start of Gul bara,
    /// `0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0`.
    #[staticmethod]
    #[pyo3(signature = (text, game, rules=None))]
    fn from_text(text: &str, game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyState> {
        let opts = rules_for(game, rules)?;
        let st = parse_state_text_in(opts.variant, text)
            .map_err(|e| err(format!("bad position: {e}")))?;
        Ok(PyState::new(st, opts))
    }

    /// A state from a gnubg Position ID, with its Match ID after a colon
    /// when given (`4HPwATDgc/ABMA:cAkAAAAAAAAA`); the player on roll is
    /// White. The session the Match ID describes: `Session.from_gnubg_id`.
    #[staticmethod]
    #[pyo3(signature = (id, game="backgammon", rules=None))]
    fn from_gnubg_id(id: &str, game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyState> {
        let (st, opts, _) = read_id(game, rules, Base::GnubgId(id.to_string()))?;
        Ok(PyState::new(st, opts))
    }

    /// A state from an XGID (`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`);
    /// the player on turn is White.
    #[staticmethod]
    #[pyo3(signature = (xgid, game="backgammon", rules=None))]
    fn from_xgid(xgid: &str, game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyState> {
        let (st, opts, _) = read_id(game, rules, Base::Xgid(xgid.to_string()))?;
        Ok(PyState::new(st, opts))
    }

    /// A state of `game` from a board array (see `board`), the side to
    /// move `to_move` to roll.
    #[staticmethod]
    #[pyo3(signature = (board, game, rules=None, to_move="w"))]
    fn from_board(
        board: PyReadonlyArray2<'_, i8>,
        game: &str,
        rules: Option<&Bound<'_, PyDict>>,
        to_move: &str,
    ) -> PyResult<PyState> {
        let opts = rules_for(game, rules)?;
        let pos = position_of_rows(opts.variant, board.as_array()).map_err(err)?;
        let mut st = GameState::start_of(opts.variant, side_of(to_move)?);
        st.pos = pos;
        st.rolls = board_rolls(&opts);
        Ok(PyState::new(st, opts))
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> String {
        self.state.variant.to_string()
    }

    /// The rule options, `{name: value}` (without the `rules.` prefix).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for name in self.rules.variant.option_names() {
            if let Some(v) = self.rules.get(name) {
                d.set_item(name, v)?;
            }
        }
        Ok(d)
    }

    /// The side to move: 'w' or 'b'.
    #[getter(to_move)]
    fn side_to_move(&self) -> &'static str {
        side_name(self.state.to_move)
    }

    /// The position text (`protocol/NOTATION.md`).
    #[getter]
    fn text(&self) -> String {
        state_text(&self.state)
    }

    /// What the side to move does next, as `show` words it: `roll`,
    /// `dice 65`, `dice 55 escalating`, `chain 6`, `remainder 4x2`.
    #[getter]
    fn pending(&self) -> String {
        self.pending_text()
    }

    /// The dice of the stage to play, as a list: `[6, 5]`, `[4, 4, 4, 4]`,
    /// `[5, 5]` for a remainder of two 5s; `None` when the side to move
    /// must roll.
    #[getter]
    fn dice(&self) -> Option<Vec<u32>> {
        use crate::paths::StageDice;
        // u32, not u8: PyO3 turns a Vec<u8> into bytes.
        self.state.stage_dice().map(|d| match d {
            StageDice::Pair(a, b) => vec![u32::from(a), u32::from(b)],
            StageDice::Same { die, count } => vec![u32::from(die); usize::from(count)],
        })
    }

    /// The rolls each side has made: `(white, black)`.
    #[getter]
    fn rolls(&self) -> (u32, u32) {
        (self.state.rolls[0], self.state.rolls[1])
    }

    /// The pip counts: `(side to move, opponent)`.
    #[getter]
    fn pips(&self) -> (u32, u32) {
        (self.state.pos.own.pips(), self.state.pos.opp.pips())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.state.result().is_some()
    }

    /// The result once the game is over: `(winner, points)`, the winner
    /// 'w' or 'b', or `None` for a game without a winner (the stuck rule,
    /// both mothers pinned), then 0 points; `None` while it goes on.
    #[getter]
    fn result(&self) -> Option<(Option<&'static str>, u8)> {
        self.state
            .result()
            .map(|r| (r.winner.map(side_name), r.points))
    }

    /// The board as a numpy `int8` array of shape (2, 26): row 0 the side
    /// to move, row 1 its opponent, each in its own numbering (it bears
    /// off from its points 1..6): column 0 its checkers borne off, columns
    /// 1..24 its checkers on points 1..24, column 25 on the bar; a pinned
    /// checker (Plakoto, Tapa), alone under the other colour, is -1.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.board_of(py)
    }

    /// gnubg's Position ID and Match ID, `PositionID:MatchID`, of the
    /// hitting games gnubg plays (backgammon, short nardy, Portes, Tabla),
    /// in `session` (money play with the game's cube when `None`).
    #[pyo3(signature = (session=None))]
    fn gnubg_id(&self, session: Option<PyRef<'_, PySession>>) -> PyResult<String> {
        Ok(self.ids(session)?.0)
    }

    /// eXtreme Gammon's XGID of the position in `session`.
    #[pyo3(signature = (session=None))]
    fn xgid(&self, session: Option<PyRef<'_, PySession>>) -> PyResult<String> {
        Ok(self.ids(session)?.1)
    }

    /// The side to move rolls `d1 d2`: the state with that stage to play
    /// (an escalating doublet starts its chain).
    fn roll(&self, d1: u8, d2: u8) -> PyResult<PyState> {
        let st = self.state.roll(&self.rules, d1, d2).map_err(err)?;
        Ok(PyState::new(st, self.rules))
    }

    /// Every legal play of the stage to play, sorted by its text (as the
    /// protocol's `legal` lists them): one play per distinct end position.
    /// `dice=(6, 5)` rolls them first when the side to move must roll.
    #[pyo3(signature = (dice=None))]
    fn legal_plays(&self, dice: Option<(u8, u8)>) -> PyResult<Vec<PyPlay>> {
        let st = self.with_dice(dice)?;
        PyState::plays_of(&st, &self.rules, &mut StageGen::new(), &mut Vec::new())
    }

    /// Plays `play`: a `Play` of this state, or move words as the
    /// protocol's `moves` take them (`"24/18 13/8"`, with roll words such
    /// as `"65 24/18 13/8"` to roll first; `pass` for a stage with nothing
    /// to play). Returns the new state; an illegal play raises.
    fn play(&self, play: &Bound<'_, PyAny>) -> PyResult<PyState> {
        if let Ok(p) = play.cast::<PyPlay>() {
            let p = p.get();
            if p.before != *self {
                return Err(err("the play is not one of this state's"));
            }
            return Ok(p.end);
        }
        let words: String = play
            .extract()
            .map_err(|_| err("a play is a Play or move words such as '24/18 13/8'"))?;
        let toks: Vec<&str> = words.split_whitespace().collect();
        let st = gulbara::notation::apply_moves(self.state, &self.rules, &toks).map_err(err)?;
        Ok(PyState::new(st, self.rules))
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, game={:?})", self.text(), self.game())
    }

    fn __str__(&self) -> String {
        self.text()
    }
}

impl PyState {
    /// The board array of the state (`State.board`).
    pub(crate) fn board_of<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let flat: Vec<i8> = board_rows(self.state.pos).concat();
        // Two rows of COLUMNS by construction.
        Array2::from_shape_vec((2, COLUMNS), flat)
            .unwrap_or_else(|_| Array2::zeros((2, COLUMNS)))
            .into_pyarray(py)
    }

    fn ids(&self, session: Option<PyRef<'_, PySession>>) -> PyResult<(String, String)> {
        let m = session
            .map(|s| s.session)
            .unwrap_or_else(|| default_session(self.state.variant));
        id_texts(&self.state, &m).ok_or_else(|| {
            err(format!(
                "gnubg's IDs describe the hitting games gnubg plays, not {}",
                self.state.variant
            ))
        })
    }
}

#[pymethods]
impl PyPlay {
    /// The steps in play order, `(from, die)` each in the mover's
    /// numbering (25 is the bar; a checker moved below 1 is borne off).
    #[getter]
    fn steps(&self) -> Vec<(u8, u8)> {
        self.steps.iter().map(|s| (s.from, s.die)).collect()
    }

    /// The play as the protocol writes it (`24/18 13/8`, `*` after a
    /// hit, `pass` for none).
    #[getter]
    fn text(&self) -> String {
        play_text_at(
            self.before.state.variant,
            self.before.state.pos,
            &self.steps,
        )
    }

    /// The state after the play (the next stage of a chain, or the
    /// opponent to move).
    #[getter]
    fn end(&self) -> PyState {
        self.end
    }

    /// The state the play is played from.
    #[getter]
    fn before(&self) -> PyState {
        self.before
    }

    fn __repr__(&self) -> String {
        format!("Play({:?})", self.text())
    }

    fn __str__(&self) -> String {
        self.text()
    }
}

/// How a game opened: the opening throws, the starter, its first roll
/// (`None` when the rules make it roll anew), and the state to play from.
#[pyclass(name = "Opening", module = "gulbara", frozen, get_all)]
pub(crate) struct PyOpening {
    /// The throws, White's die first, ties included.
    throws: Vec<(u8, u8)>,
    /// 'w' or 'b'.
    starter: &'static str,
    /// The starter's first roll, `(its die, the other)`, or `None`.
    first_roll: Option<(u8, u8)>,
    /// The state after the opening: the first roll to play, or the
    /// starter to roll.
    state: PyState,
}

/// Throws the opening of `game` with the dice of `seed`, as the match
/// runner does: pairs until they differ; the higher die starts and plays
/// them (`rules.opening single`) or rolls anew (`reroll`).
#[pyfunction]
#[pyo3(signature = (game, seed, rules=None))]
fn opening_throw(game: &str, seed: u64, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyOpening> {
    let opts = rules_for(game, rules)?;
    let o = open_game(&opts, &mut SeededDice::new(seed));
    let mut st = GameState::start_of(opts.variant, o.starter);
    if let Some((a, b)) = o.first_roll {
        st = st.roll(&opts, a, b).map_err(err)?;
    }
    Ok(PyOpening {
        throws: o.throws,
        starter: side_name(o.starter),
        first_roll: o.first_roll,
        state: PyState::new(st, opts),
    })
}

/// The point `p` of the mover's numbering in its opponent's numbering, in
/// `game` (`25 - p` in backgammon, `p ± 12` in nardy).
#[pyfunction]
fn opponent_point(game: &str, p: u8) -> PyResult<u8> {
    let v: Variant = game.parse().map_err(err)?;
    if !(1..=24).contains(&p) {
        return Err(err(format!("a point is 1..24, got {p}")));
    }
    Ok(v.opponent_point(p))
}

/// The `rules.*` options of `game` and their values by default.
#[pyfunction]
fn rule_options<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyDict>> {
    PyState::start(game, None, "w")?.rules(py)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_class::<PyPlay>()?;
    m.add_class::<PyOpening>()?;
    m.add_function(wrap_pyfunction!(opening_throw, m)?)?;
    m.add_function(wrap_pyfunction!(opponent_point, m)?)?;
    m.add_function(wrap_pyfunction!(rule_options, m)?)?;
    Ok(())
}
