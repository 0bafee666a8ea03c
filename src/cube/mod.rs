//! The doubling cube and match play: the state of a session (money or a
//! match to N points, the score, Crawford, the cube), match equity tables,
//! and cubeful equities from the network's cubeless chances.
//!
//! The rules of checker play know nothing of this: a game is played the
//! same whatever the score; the session decides what its result is worth.

pub mod janowski;
pub mod kazaross_xg2;
pub mod match_play;
pub mod met;
pub mod state;

pub use janowski::{CubeAction, CubeDecision, CubeView, efficiency, money_decision, money_equity};
pub use match_play::{MatchScore, match_decision, match_mwc};
pub use met::{KAZAROSS_XG2, Met};
pub use state::{CubeOwner, CubeStateError, MatchState, SessionKind, SessionRules};

use crate::eval::Probs;
use crate::rules::{GameState, Side};

/// The cube decision of `doubler` (the side to move, before its roll) with
/// its cubeless chances `probs` in `state`, in `session`: money equity in
/// money play, match-winning chances in a match (through Kazaross-XG2).
/// With a double of its waiting, the decision it was (whose `answer` is
/// the opponent's right reply). `None` when it has no cube to turn.
pub fn decide(
    probs: &Probs,
    state: &GameState,
    session: &MatchState,
    doubler: Side,
) -> Option<CubeDecision> {
    let waiting = session.doubled_by() == Some(doubler);
    if !waiting && session.may_double(doubler).is_err() {
        return None;
    }
    let view = match session.owner() {
        CubeOwner::Centre => CubeView::Centre,
        CubeOwner::Side(s) if s == doubler => CubeView::Mine,
        CubeOwner::Side(_) => return None,
    };
    let x = efficiency(state);
    let rules = session.rules();
    Some(match session.kind() {
        SessionKind::Money => money_decision(probs, view, x, rules.jacoby, rules.beavers),
        SessionKind::Match { .. } => {
            let score = MatchScore {
                me: session.away(doubler).unwrap_or(1),
                opp: session.away(doubler.opponent()).unwrap_or(1),
                post_crawford: session.is_post_crawford(),
            };
            match_decision(probs, &KAZAROSS_XG2, &score, session.cube(), view, x)
        }
    })
}
