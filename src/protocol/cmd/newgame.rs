//! `newgame`: the start of a new game of the current variant, White to
//! roll; the settings stay. In a rotating match, the start of the
//! rotation's next game (its default rules; the session stays).

use crate::engine::Engine;

/// Applies `newgame` to `engine`.
pub fn apply(engine: &mut Engine) {
    engine.next_game();
}
