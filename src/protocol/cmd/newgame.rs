//! `newgame`: the start of a new game of the current variant, White to
//! roll; the settings stay.

use crate::engine::Engine;

/// Applies `newgame` to `engine`.
pub fn apply(engine: &mut Engine) {
    engine.new_game();
}
