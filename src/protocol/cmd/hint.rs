//! `hint [n] [rollout <games> ...]`: the `n` best plays of the current
//! stage, ranked by the search or by a rollout of each, as `hint` lines,
//! then `hintok`.

use std::fmt;
use std::time::Instant;

use crate::analysis::rollout::{Rollout, Root, Stats, stats_fields};
use crate::analysis::shard::root_fields;
use crate::engine::JobKind;
use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;
use crate::search::Limits;

use super::eval::{after_play_worth, worth_fields};
use super::rollout::{HintOptions, RolloutArgs, check_games, parse_options, rollout_params};
use super::{Verb, fmt_p, need_stage};

/// The default number of `hint` lines.
pub const DEFAULT_HINT_COUNT: usize = 5;
/// The largest `hint` count.
pub const MAX_HINT_COUNT: usize = 1000;

/// `hint [n] [probs] [rollout <games> [rollout options]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// How many plays to list.
    pub count: usize,
    /// `rollout G ...`: rank the plays by a rollout of each.
    pub rollout: Option<RolloutArgs>,
    /// `probs`: each line also gives the chances after the play.
    pub probs: bool,
}

impl Hint {
    /// Parses the words after `hint`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let count = match words.peek() {
            None | Some("rollout" | "probs") => DEFAULT_HINT_COUNT,
            Some(_) => words.number::<usize>("hint")?,
        };
        let probs = words.next_is("probs");
        if !(1..=MAX_HINT_COUNT).contains(&count) {
            return Err(ProtocolError::bad_value(format!(
                "hint count must be 1..{MAX_HINT_COUNT}, got {count}"
            )));
        }
        let rollout = match words.next() {
            None => None,
            Some("rollout") => {
                let games = words.number::<u32>("hint rollout")?;
                let mut r = parse_options(words, true)?;
                check_games(games)?;
                r.games = games;
                if count > crate::analysis::rollout::MAX_CANDIDATES {
                    return Err(ProtocolError::bad_value(format!(
                        "hint rollout ranks at most {} plays, got {count}",
                        crate::analysis::rollout::MAX_CANDIDATES
                    )));
                }
                Some(r)
            }
            Some(t) => {
                return Err(ProtocolError::bad_command(format!(
                    "usage: hint [n] [probs] [rollout <games> [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>]]; got {}",
                    quote(t)
                )));
            }
        };
        if probs && rollout.is_some() {
            return Err(ProtocolError::bad_command(
                "hint probs lists the search's plays; a rollout's lines give their chances already",
            ));
        }
        Ok(Hint {
            count,
            rollout,
            probs,
        })
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hint {}", self.count)?;
        if self.probs {
            f.write_str(" probs")?;
        }
        if let Some(r) = &self.rollout {
            fmt::Display::fmt(&HintOptions(r), f)?;
        }
        Ok(())
    }
}

impl Verb for Hint {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        hint(session, self.count, self.rollout, self.probs)?;
        Ok(Flow::Continue)
    }
}

/// ` win <p> winmars <p> losemars <p>` (and ` winbg <p> losebg <p>` in
/// backgammon): the mover's chances after a play, as `eval` words them.
fn chance_fields(variant: crate::rules::Variant, p: &crate::eval::Probs) -> String {
    let line = super::eval::evaluation_line_for(variant, p);
    let fields = line.trim_start_matches("evaluation");
    match fields.rfind(" equity ") {
        Some(at) => fields[..at].to_string(),
        None => fields.to_string(),
    }
}

/// Starts `hint` on `this`'s worker.
fn hint(
    this: &mut Session,
    count: usize,
    rollout: Option<RolloutArgs>,
    probs: bool,
) -> Result<(), ProtocolError> {
    need_stage(this.state(), "hint")?;
    let mut limits = this.engine().limits(None);
    limits.candidates = limits.candidates.max(count);
    limits.deadline = this.engine().deadline_from(Instant::now());
    let state = *this.state();
    let session = *this.engine().session();
    let contact = this.settings().contact_efficiency();
    if let Some(args) = rollout {
        return hint_rollout(this, count, &args, limits);
    }
    this.spawn(JobKind::Hint, false, move |job, _| {
        let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
        let mut lines: Vec<String> = ranked
            .iter()
            .take(count)
            .enumerate()
            .map(|(i, c)| {
                let chances = if probs {
                    chance_fields(state.variant, &c.probs)
                } else {
                    String::new()
                };
                format!(
                    "hint {} equity {}{}{chances} play {}",
                    i + 1,
                    fmt_p(c.probs.equity()),
                    worth_fields(after_play_worth(c, &state, &session, contact)),
                    play_text_at(state.variant, state.pos, &c.steps)
                )
            })
            .collect();
        lines.push("hintok".into());
        lines
    })
}

/// `hint <n> rollout <games> ...`: the `n` best plays by the search,
/// each rolled out, ranked by their rollout equity.
fn hint_rollout(
    this: &mut Session,
    count: usize,
    a: &RolloutArgs,
    limits: Limits,
) -> Result<(), ProtocolError> {
    let state = *this.state();
    let params = rollout_params(this, a);
    let deadline = this.engine().deadline_from(Instant::now());
    this.spawn(JobKind::Hint, false, move |job, out| {
        let ranked = job.search.best_turn(&state, &limits, &mut |_| {});
        let top: Vec<_> = ranked.into_iter().take(count).collect();
        let roots: Vec<Root> = top
            .iter()
            .map(|c| Root {
                state: c.end,
                side: state.to_move,
            })
            .collect();
        let names: Vec<String> = top
            .iter()
            .map(|c| play_text_at(state.variant, state.pos, &c.steps))
            .collect();
        let bg = state.variant.spec().scores.triple.is_some();
        let report = |stats: &[Stats]| {
            for (s, n) in stats.iter().zip(&names) {
                out(&format!("info rollout {}", root_fields(s, bg, Some(n))));
            }
        };
        let ro = Rollout::new(job.eval, job.rules, params);
        let stats = ro.run(&roots, job.stop.flag(), deadline, &report);
        let mut order: Vec<usize> = (0..stats.len()).collect();
        // Stable: equal equities keep the search's order.
        order.sort_by(|&x, &y| stats[y].equity().total_cmp(&stats[x].equity()));
        let mut lines: Vec<String> = order
            .iter()
            .enumerate()
            .map(|(rank, &k)| {
                format!(
                    "hint {} {} play {}",
                    rank + 1,
                    stats_fields(&stats[k], bg),
                    names[k]
                )
            })
            .collect();
        lines.push("hintok".into());
        lines
    })
}
