//! The Python package `gulbara`: the engine in-process through PyO3.
//!
//! [`state`] holds positions and the rules (legal plays, applying a play,
//! results, the opening, IDs, board arrays); [`engine`] the search, the
//! evaluations, the cube, rollouts and games between engines; [`env`] the
//! reinforcement-learning environment. Every item of the library it uses
//! is named in [`paths`]. Long calls release the GIL and stop on Ctrl-C
//! ([`blocking`]).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod blocking;
mod engine;
mod env;
mod paths;
mod session;
mod state;

create_exception!(
    gulbara,
    GulbaraError,
    PyValueError,
    "The engine refused a request: its message says why (a bad position, an illegal play, an unknown option...)."
);

/// A Python exception carrying the engine's message.
pub(crate) fn err(msg: impl std::fmt::Display) -> PyErr {
    GulbaraError::new_err(msg.to_string())
}

#[pymodule]
fn _gulbara(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GulbaraError", m.py().get_type::<GulbaraError>())?;
    m.add("GAMES", paths::Variant::NAMES.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    state::register(m)?;
    session::register(m)?;
    engine::register(m)?;
    env::register(m)?;
    Ok(())
}
