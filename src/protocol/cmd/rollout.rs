//! `rollout [games N] [truncate P] [ply K] [seed S] [luck on|off] [every K]
//! [moves <play> ...]`: the position before the roll, or the candidate
//! plays `moves` names, rolled out on the engine's worker, with `info
//! rollout` lines as it goes and a `rolloutok` line per root.

use std::time::Instant;

use crate::analysis::rollout::{
    MAX_CANDIDATES, Rollout, RolloutParams, Stats, parse_plays, stats_fields,
};
use crate::engine::{JobKind, Ply};
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::number;
use crate::protocol::session::Session;
use crate::rules::Pending;

use super::{Command, need_stage};

/// The arguments of `rollout` (and of `hint ... rollout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutArgs {
    /// `games N`: trials, 1..=[`crate::analysis::rollout::MAX_GAMES`].
    pub games: u32,
    /// `truncate P`: plies per trial, 0 (to the end)..=[`crate::analysis::rollout::MAX_TRUNCATE`].
    pub truncate: u32,
    /// `ply K`: the players' depth, root-inclusive as `engine.ply` (1 or 2).
    pub ply: Ply,
    /// `seed S`; `None`: `engine.seed`.
    pub seed: Option<u64>,
    /// `luck on|off`: the luck correction (on by default).
    pub luck: bool,
    /// `every K`: an `info rollout` report after every K trials (0: about ten).
    pub every: u32,
    /// `moves <play> ...`: the candidate plays' words; `None`: the position
    /// before the roll.
    pub moves: Option<Vec<String>>,
}

impl Default for RolloutArgs {
    fn default() -> Self {
        RolloutArgs {
            games: DEFAULT_ROLLOUT_GAMES,
            truncate: 0,
            ply: ROLLOUT_PLY,
            seed: None,
            luck: true,
            every: 0,
            moves: None,
        }
    }
}

/// The default depth of the rollout players: gnubg's 0-ply.
const ROLLOUT_PLY: Ply = match Ply::new(1) {
    Some(p) => p,
    None => Ply::MAX,
};

/// The default number of rollout games.
pub const DEFAULT_ROLLOUT_GAMES: u32 = 1296;

/// Parses the words after `rollout`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    parse_options(args, false).map(Command::Rollout)
}

pub(super) fn check_games(games: u32) -> Result<(), ProtocolError> {
    let max = crate::analysis::rollout::MAX_GAMES;
    if !(1..=max).contains(&games) {
        return Err(ProtocolError::bad_value(format!(
            "rollout games must be 1..{max}, got {games}"
        )));
    }
    Ok(())
}

/// The options of `rollout` (`in_hint`: after `hint n rollout G`, where
/// `games` and `moves` have no place).
pub(super) fn parse_options(args: &[&str], in_hint: bool) -> Result<RolloutArgs, ProtocolError> {
    let usage = if in_hint {
        "usage: hint [n] rollout <games> [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>]"
    } else {
        "usage: rollout [games <n>] [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>] [moves <play> ...]"
    };
    let mut r = RolloutArgs::default();
    let mut i = 0;
    while let Some(&t) = args.get(i) {
        let value = args.get(i + 1);
        match t {
            "games" if !in_hint => {
                r.games = number("rollout games", value)?;
                check_games(r.games)?;
            }
            "truncate" => {
                r.truncate = number("rollout truncate", value)?;
                let max = crate::analysis::rollout::MAX_TRUNCATE;
                if r.truncate > max {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout truncate must be 0..{max}, got {}",
                        r.truncate
                    )));
                }
            }
            "ply" => {
                let n: u8 = number("rollout ply", value)?;
                r.ply = match Ply::new(n) {
                    Some(p) if n <= 2 => p,
                    _ => {
                        return Err(ProtocolError::bad_value(format!(
                            "rollout ply must be 1..2 (1: gnubg's 0-ply, 2: its 1-ply), got {n}"
                        )));
                    }
                };
            }
            "seed" => r.seed = Some(number("rollout seed", value)?),
            "every" => {
                r.every = number("rollout every", value)?;
                if r.every > crate::analysis::rollout::MAX_GAMES {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout every must be 0..{}, got {}",
                        crate::analysis::rollout::MAX_GAMES,
                        r.every
                    )));
                }
            }
            "luck" => {
                r.luck = match value.copied() {
                    Some("on") => true,
                    Some("off") => false,
                    Some(v) => {
                        return Err(ProtocolError::bad_value(format!(
                            "rollout luck must be on or off, got {}",
                            quote(v)
                        )));
                    }
                    None => return Err(ProtocolError::bad_command("rollout luck needs on or off")),
                }
            }
            "moves" if !in_hint => {
                let words: Vec<String> = args[i + 1..].iter().map(|s| s.to_string()).collect();
                if words.is_empty() {
                    return Err(ProtocolError::bad_command(
                        "rollout moves needs at least one play",
                    ));
                }
                r.moves = Some(words);
                return Ok(r);
            }
            _ => {
                return Err(ProtocolError::bad_command(format!(
                    "{usage}; got {}",
                    quote(t)
                )));
            }
        }
        i += 2;
    }
    Ok(r)
}

impl Session {
    /// What `rollout` and `hint ... rollout` play, from their arguments and
    /// the settings.
    pub(super) fn rollout_params(&self, a: &RolloutArgs) -> RolloutParams {
        RolloutParams {
            games: a.games,
            truncate: a.truncate,
            plies: a.ply.gnubg(),
            seed: a.seed.unwrap_or(self.settings().seed),
            luck: a.luck,
            threads: self.settings().threads,
            every: a.every,
        }
    }

    /// `rollout ...`: the position before the roll, or the candidate plays
    /// `moves` names, rolled out on the worker thread.
    pub(in crate::protocol) fn rollout(&mut self, a: RolloutArgs) -> Result<(), ProtocolError> {
        let state = *self.state();
        if state.result().is_some() {
            return Err(ProtocolError::bad_state("the game is over"));
        }
        let opts = self.settings().rules;
        let (roots, names) = match &a.moves {
            None => {
                if matches!(state.pending, Pending::Roll2 { .. } | Pending::Chain { .. }) {
                    return Err(ProtocolError::bad_state(format!(
                        "dice are set ({}): name the plays to roll out (rollout moves <play> ...), or use hint <n> rollout <games>",
                        state.pending_description()
                    )));
                }
                (
                    vec![crate::analysis::rollout::before_roll_root(&state)],
                    vec![None],
                )
            }
            Some(words) => {
                need_stage(&state, "rollout moves")?;
                let toks: Vec<&str> = words.iter().map(String::as_str).collect();
                let plays = parse_plays(&state, &opts, &toks).map_err(|e| {
                    let at = match e.index {
                        Some(i) => format!("{i} {}", quote(toks[i - 1])),
                        None => format!("{} (end of list)", toks.len() + 1),
                    };
                    ProtocolError::bad_value(format!("rollout moves token {at}: {}", e.reason))
                })?;
                if plays.len() > MAX_CANDIDATES {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout compares at most {MAX_CANDIDATES} plays, got {}",
                        plays.len()
                    )));
                }
                crate::analysis::rollout::candidate_roots(&state, &plays)
            }
        };
        let params = self.rollout_params(&a);
        let deadline = self.engine().deadline_from(Instant::now());
        self.spawn(JobKind::Rollout, false, move |job, out| {
            let bg = state.variant.spec().scores.triple.is_some();
            let with_move = |s: &Stats, name: &Option<String>| {
                let mut l = stats_fields(s, bg);
                if let Some(n) = name {
                    l.push_str(" move ");
                    l.push_str(n);
                }
                l
            };
            let report = |stats: &[Stats]| {
                for (s, n) in stats.iter().zip(&names) {
                    out(&format!("info rollout {}", with_move(s, n)));
                }
            };
            let ro = Rollout::new(job.eval, job.rules, params);
            let stats = ro.run(&roots, job.stop.flag(), deadline, &report);
            stats
                .iter()
                .zip(&names)
                .map(|(s, n)| format!("rolloutok {}", with_move(s, n)))
                .collect()
        })
    }
}
