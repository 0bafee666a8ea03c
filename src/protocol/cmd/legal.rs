//! `legal [orders] [limit <n>]`: the current stage's legal plays, one
//! `play` line each sorted by text, then `legal count <n> playable <k>
//! [truncated]`. With `orders`, after the `play` lines, an `order` line for
//! each play whose checker moves by both dice of a roll and may also take
//! them the other way round (its other stop on the way), so a board can
//! take the steps in either order.

use std::fmt;

use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;
use crate::rules::state::apply_steps_with;
use crate::rules::{Position, RuleOptions, StageDice, StageGen, Step};

use super::{Verb, need_stage};

/// The default of `legal limit`.
pub const DEFAULT_LEGAL_LIMIT: usize = 10_000;

/// `legal [orders] [limit <n>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal {
    /// At most this many `play` lines.
    pub limit: usize,
    /// `orders`: every order of each play's steps that reaches its end.
    pub orders: bool,
}

impl Default for Legal {
    fn default() -> Self {
        Legal {
            limit: DEFAULT_LEGAL_LIMIT,
            orders: false,
        }
    }
}

impl Legal {
    /// Parses the words after `legal`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let orders = words.next_is("orders");
        match words.next() {
            None => Ok(Legal {
                limit: DEFAULT_LEGAL_LIMIT,
                orders,
            }),
            Some("limit") => {
                let limit = words.number::<usize>("legal limit")?;
                words.finish("legal limit <n>")?;
                Ok(Legal { limit, orders })
            }
            Some(t) => Err(ProtocolError::bad_command(format!(
                "usage: legal [orders] [limit <n>], got {}",
                quote(t)
            ))),
        }
    }
}

impl fmt::Display for Legal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("legal")?;
        if self.orders {
            f.write_str(" orders")?;
        }
        if self.limit != DEFAULT_LEGAL_LIMIT {
            write!(f, " limit {}", self.limit)?;
        }
        Ok(())
    }
}

/// The play's steps and, when one checker moves by both dice of a roll,
/// the same move with the dice the other way round where the rules allow
/// each step of it (it ends where the play ends, so the stage's own rules
/// hold for it too).
fn orders_of(opts: &RuleOptions, pos: Position, dice: StageDice, steps: &[Step]) -> Vec<Vec<Step>> {
    let variant = opts.variant;
    let mut out = vec![steps.to_vec()];
    if let [a, b] = steps
        && a.die != b.die
        && b.from == a.to()
        && a.from > b.die
    {
        let other = [Step::new(a.from, b.die), Step::new(a.from - b.die, a.die)];
        let end = steps.iter().fold(pos, |p, &s| variant.apply_step(p, s));
        if apply_steps_with(opts, pos, dice, &other, 0).is_ok_and(|p| p == end) {
            out.push(other.to_vec());
        }
    }
    out
}

impl Verb for Legal {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        say_legal(session, self.limit, self.orders)?;
        Ok(Flow::Continue)
    }
}

/// Writes `legal`'s lines.
fn say_legal(this: &Session, limit: usize, orders: bool) -> Result<(), ProtocolError> {
    let state = this.state();
    need_stage(state, "legal")?;
    let Some(dice) = state.stage_dice() else {
        return Ok(());
    };
    let mut movegen = StageGen::new();
    let mut ends = Vec::new();
    let playable = movegen.generate(&this.settings().rules, state, dice, &mut ends);
    let (variant, pos) = (state.variant, state.pos);
    // Sorted by text, so the order does not depend on the generator's.
    let mut plays: Vec<(String, Vec<String>)> = ends
        .iter()
        .map(|e| {
            let steps = e.play.steps();
            let others = if orders {
                orders_of(&this.settings().rules, pos, dice, steps)
                    .iter()
                    .skip(1)
                    .map(|o| play_text_at(variant, pos, o))
                    .collect()
            } else {
                Vec::new()
            };
            (play_text_at(variant, pos, steps), others)
        })
        .collect();
    plays.sort_unstable();
    let shown = &plays[..plays.len().min(limit)];
    for (p, _) in shown {
        this.say(&format!("play {p}"));
    }
    for o in shown.iter().flat_map(|(_, others)| others) {
        this.say(&format!("order {o}"));
    }
    let truncated = if ends.len() > limit { " truncated" } else { "" };
    this.say(&format!(
        "legal count {} playable {playable}{truncated}",
        ends.len()
    ));
    Ok(())
}
