//! `hint [n] [rollout <games> ...]`: the `n` best plays of the current
//! stage, ranked by the search or by a rollout of each, as `hint` lines,
//! then `hintok`.

use std::time::Instant;

use crate::analysis::rollout::{Rollout, Root, Stats, stats_fields};
use crate::engine::JobKind;
use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::number;
use crate::protocol::session::Session;
use crate::search::Limits;

use super::eval::{after_play_worth, worth_fields};
use super::rollout::{RolloutArgs, check_games, parse_options};
use super::{Command, fmt_p, need_stage};

/// The default number of `hint` lines.
pub const DEFAULT_HINT_COUNT: usize = 5;
/// The largest `hint` count.
pub const MAX_HINT_COUNT: usize = 1000;

/// Parses the words after `hint`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let (count, rest) = match args.split_first() {
        None => (DEFAULT_HINT_COUNT, args),
        Some((&"rollout" | &"probs", _)) => (DEFAULT_HINT_COUNT, args),
        Some((first, rest)) => (number::<usize>("hint", Some(first))?, rest),
    };
    let (probs, rest) = match rest.split_first() {
        Some((&"probs", more)) => (true, more),
        _ => (false, rest),
    };
    if !(1..=MAX_HINT_COUNT).contains(&count) {
        return Err(ProtocolError::bad_value(format!(
            "hint count must be 1..{MAX_HINT_COUNT}, got {count}"
        )));
    }
    let rollout = match rest.split_first() {
        None => None,
        Some((&"rollout", more)) => {
            let games = number::<u32>("hint rollout", more.first())?;
            let mut r = parse_options(&more[1..], true)?;
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
        Some((t, _)) => {
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
    Ok(Command::Hint {
        count,
        rollout,
        probs,
    })
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

impl Session {
    /// Starts `hint`.
    pub(in crate::protocol) fn hint(
        &mut self,
        count: usize,
        rollout: Option<RolloutArgs>,
        probs: bool,
    ) -> Result<(), ProtocolError> {
        need_stage(self.state(), "hint")?;
        let mut limits = self.engine().limits(None);
        limits.candidates = limits.candidates.max(count);
        limits.deadline = self.engine().deadline_from(Instant::now());
        let state = *self.state();
        let session = *self.engine().session();
        if let Some(args) = rollout {
            return self.hint_rollout(count, &args, limits);
        }
        self.spawn(JobKind::Hint, false, move |job, _| {
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
                        worth_fields(after_play_worth(c, &state, &session)),
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
        &mut self,
        count: usize,
        a: &RolloutArgs,
        limits: Limits,
    ) -> Result<(), ProtocolError> {
        let state = *self.state();
        let params = self.rollout_params(a);
        let deadline = self.engine().deadline_from(Instant::now());
        self.spawn(JobKind::Hint, false, move |job, out| {
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
                    out(&format!("info rollout {} move {n}", stats_fields(s, bg)));
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
}
