//! `Session`: money play or a match to N, the score, Crawford, the cube.
//! Match equity tables.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::err;
use crate::paths::{
    Base, CubeOwner, MatchState, SessionKind, SessionRules, Side, Variant, met_for,
};
use crate::state::{PyState, read_id, side_name, side_of};

/// A session: money play or a match to N points, with its score, the
/// Crawford game, the cube (value, owner, a double waiting) and its rules
/// (cube on or off, Jacoby, beavers, the Crawford rule). Immutable.
#[pyclass(name = "Session", module = "gulbara", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct PySession {
    pub(crate) session: MatchState,
}

fn owner_of(text: &str) -> PyResult<CubeOwner> {
    match text {
        "center" | "centre" => Ok(CubeOwner::Centre),
        other => Ok(CubeOwner::Side(side_of(other).map_err(|_| {
            err(format!(
                "the cube's owner is 'center', 'w' or 'b', got '{other}'"
            ))
        })?)),
    }
}

#[pymethods]
impl PySession {
    /// Money play: with the cube (or not), the Jacoby rule, beavers; the
    /// cube at `cube` owned by `owner` ('center', 'w' or 'b').
    #[staticmethod]
    #[pyo3(signature = (cube=true, jacoby=false, beavers=false, cube_value=1, owner="center"))]
    fn money(
        cube: bool,
        jacoby: bool,
        beavers: bool,
        cube_value: u32,
        owner: &str,
    ) -> PyResult<PySession> {
        let mut m = MatchState::money(SessionRules {
            cube,
            jacoby,
            beavers,
            ..SessionRules::default()
        });
        m.set_cube(cube_value, owner_of(owner)?).map_err(err)?;
        Ok(PySession { session: m })
    }

    /// A match to `length` points at `score` (White's, Black's), the cube
    /// at `cube_value` owned by `owner`. `crawford`: whether this game is
    /// the Crawford game (`None`: as the score says, a side having just
    /// come to one away); `crawford_rule`: whether the match plays the
    /// Crawford rule; `cube`: whether it is played with the cube.
    #[staticmethod]
    #[pyo3(signature = (length, score=(0, 0), cube_value=1, owner="center", crawford=None, cube=true, crawford_rule=true))]
    fn match_to(
        length: u32,
        score: (u32, u32),
        cube_value: u32,
        owner: &str,
        crawford: Option<bool>,
        cube: bool,
        crawford_rule: bool,
    ) -> PyResult<PySession> {
        let mut m = MatchState::match_to(
            length,
            SessionRules {
                cube,
                crawford: crawford_rule,
                ..SessionRules::default()
            },
        )
        .map_err(err)?;
        m.set_score(score.0, score.1, crawford).map_err(err)?;
        m.set_cube(cube_value, owner_of(owner)?).map_err(err)?;
        Ok(PySession { session: m })
    }

    /// The session a gnubg Match ID describes (`PositionID:MatchID`), the
    /// player on roll as White.
    #[staticmethod]
    #[pyo3(signature = (id, game="backgammon", rules=None))]
    fn from_gnubg_id(
        id: &str,
        game: &str,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PySession> {
        let (_, _, m) = read_id(game, rules, Base::GnubgId(id.to_string()))?;
        Ok(PySession { session: m })
    }

    /// The session an XGID describes, the player on turn as White.
    #[staticmethod]
    #[pyo3(signature = (xgid, game="backgammon", rules=None))]
    fn from_xgid(xgid: &str, game: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PySession> {
        let (_, _, m) = read_id(game, rules, Base::Xgid(xgid.to_string()))?;
        Ok(PySession { session: m })
    }

    /// 'money' or 'match'.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.session.kind() {
            SessionKind::Money => "money",
            SessionKind::Match { .. } => "match",
        }
    }

    /// The match length, 0 in money play.
    #[getter]
    fn length(&self) -> u32 {
        self.session.length()
    }

    /// The score: `(white, black)`.
    #[getter]
    fn score(&self) -> (u32, u32) {
        (
            self.session.score(Side::White),
            self.session.score(Side::Black),
        )
    }

    /// The cube's value.
    #[getter]
    fn cube_value(&self) -> u32 {
        self.session.cube()
    }

    /// The cube's owner: 'center', 'w' or 'b'.
    #[getter]
    fn owner(&self) -> &'static str {
        match self.session.owner() {
            CubeOwner::Centre => "center",
            CubeOwner::Side(s) => side_name(s),
        }
    }

    /// Whether this game is the Crawford game.
    #[getter]
    fn crawford(&self) -> bool {
        self.session.is_crawford()
    }

    /// Whether the Crawford game has been played.
    #[getter]
    fn post_crawford(&self) -> bool {
        self.session.is_post_crawford()
    }

    /// Whether the session is played with the cube.
    #[getter]
    fn cube(&self) -> bool {
        self.session.rules().cube
    }

    /// The side whose double waits for its answer, if any.
    #[getter]
    fn doubled_by(&self) -> Option<&'static str> {
        self.session.doubled_by().map(side_name)
    }

    /// The winner of the match, once it is won.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.session.winner().map(side_name)
    }

    /// The session after `winner` ('w' or 'b') scored `points` (the cube
    /// back in the middle; the Crawford game when the score makes it).
    fn scored(&self, winner: &str, points: u32) -> PyResult<PySession> {
        let mut m = self.session;
        m.score_game(side_of(winner)?, points);
        Ok(PySession { session: m })
    }

    /// The session with `side`'s double waiting for its answer.
    fn doubled(&self, side: &str) -> PyResult<PySession> {
        let mut m = self.session;
        m.double(side_of(side)?).map_err(err)?;
        Ok(PySession { session: m })
    }

    fn __repr__(&self) -> String {
        gulbara::protocol::cmd::show::session_line(&self.session)
    }
}

/// The match equity table `game` plays a match with (its own without the
/// cube where it has one, else Kazaross-XG2): a numpy array `t` of shape
/// (n, n), `t[i, j]` the match-winning chance of a player `i + 1` away
/// against one `j + 1` away, before the Crawford game.
#[pyfunction]
#[pyo3(signature = (game="backgammon", cube=true, length=None))]
fn met<'py>(
    py: Python<'py>,
    game: &str,
    cube: bool,
    length: Option<u32>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let v: Variant = game.parse().map_err(err)?;
    let table = met_for(v, cube);
    let n = length
        .unwrap_or(table.max_length())
        .clamp(1, table.max_length()) as usize;
    let a = Array2::from_shape_fn((n, n), |(i, j)| {
        table.mwc(i as u32 + 1, j as u32 + 1, false)
    });
    Ok(a.into_pyarray(py))
}

/// The name of the match equity table `game` plays with.
#[pyfunction]
#[pyo3(signature = (game="backgammon", cube=true))]
fn met_name(game: &str, cube: bool) -> PyResult<String> {
    let v: Variant = game.parse().map_err(err)?;
    Ok(met_for(v, cube).name.clone())
}

/// The match-winning chance of a player `away` points from victory
/// against one `opp_away` away (0 away has won), after the Crawford game
/// when `post_crawford`.
#[pyfunction]
#[pyo3(signature = (away, opp_away, post_crawford=false, game="backgammon", cube=true))]
fn mwc(away: u32, opp_away: u32, post_crawford: bool, game: &str, cube: bool) -> PyResult<f64> {
    let v: Variant = game.parse().map_err(err)?;
    Ok(met_for(v, cube).mwc(away, opp_away, post_crawford))
}

/// The default session of a state's game: money play with its cube.
pub(crate) fn default_of(state: &PyState) -> MatchState {
    crate::paths::default_session(state.state.variant)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySession>()?;
    m.add_function(wrap_pyfunction!(met, m)?)?;
    m.add_function(wrap_pyfunction!(met_name, m)?)?;
    m.add_function(wrap_pyfunction!(mwc, m)?)?;
    Ok(())
}
