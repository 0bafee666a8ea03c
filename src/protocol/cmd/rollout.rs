//! `rollout [games N] [truncate P] [ply K] [seed S] [luck on|off] [every K]
//! [moves <play> ...]`: the position before the roll, or the candidate
//! plays `moves` names, rolled out on the engine's worker, with `info
//! rollout` lines as it goes and a `rolloutok` line per root.

use std::fmt;
use std::time::Instant;

use crate::analysis::rollout::{MAX_CANDIDATES, Rollout, RolloutParams, Stats, parse_plays};
use crate::analysis::shard::root_fields;
use crate::engine::{JobKind, Ply};
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;
use crate::rules::Pending;

use super::{Verb, need_stage};

/// The `rollout` command: its arguments (and those of `hint ... rollout`).
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

impl RolloutArgs {
    /// Parses the words after `rollout`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        parse_options(words, false)
    }

    /// The options after the number of games, as `hint ... rollout`
    /// writes them: each that is not its default.
    fn write_options(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.truncate != 0 {
            write!(f, " truncate {}", self.truncate)?;
        }
        if self.ply != ROLLOUT_PLY {
            write!(f, " ply {}", self.ply.get())?;
        }
        if let Some(seed) = self.seed {
            write!(f, " seed {seed}")?;
        }
        if !self.luck {
            f.write_str(" luck off")?;
        }
        if self.every != 0 {
            write!(f, " every {}", self.every)?;
        }
        Ok(())
    }
}

impl fmt::Display for RolloutArgs {
    /// `rollout games <n>`, the options that are not their defaults, then
    /// `moves ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rollout games {}", self.games)?;
        self.write_options(f)?;
        if let Some(moves) = &self.moves {
            f.write_str(" moves")?;
            for m in moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// What `hint ... rollout <games>` writes after its number of games.
pub(super) struct HintOptions<'a>(pub &'a RolloutArgs);

impl fmt::Display for HintOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " rollout {}", self.0.games)?;
        self.0.write_options(f)
    }
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
pub(super) fn parse_options(
    words: &mut Words<'_>,
    in_hint: bool,
) -> Result<RolloutArgs, ProtocolError> {
    let usage = if in_hint {
        "usage: hint [n] rollout <games> [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>]"
    } else {
        "usage: rollout [games <n>] [truncate <p>] [ply <k>] [seed <s>] [luck on|off] [every <k>] [moves <play> ...]"
    };
    let mut r = RolloutArgs::default();
    while let Some(t) = words.next() {
        match t {
            "games" if !in_hint => {
                r.games = words.number("rollout games")?;
                check_games(r.games)?;
            }
            "truncate" => {
                r.truncate = words.number("rollout truncate")?;
                let max = crate::analysis::rollout::MAX_TRUNCATE;
                if r.truncate > max {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout truncate must be 0..{max}, got {}",
                        r.truncate
                    )));
                }
            }
            "ply" => {
                let n: u8 = words.number("rollout ply")?;
                r.ply = match Ply::new(n) {
                    Some(p) if n <= 2 => p,
                    _ => {
                        return Err(ProtocolError::bad_value(format!(
                            "rollout ply must be 1..2 (1: gnubg's 0-ply, 2: its 1-ply), got {n}"
                        )));
                    }
                };
            }
            "seed" => r.seed = Some(words.number("rollout seed")?),
            "every" => {
                r.every = words.number("rollout every")?;
                if r.every > crate::analysis::rollout::MAX_GAMES {
                    return Err(ProtocolError::bad_value(format!(
                        "rollout every must be 0..{}, got {}",
                        crate::analysis::rollout::MAX_GAMES,
                        r.every
                    )));
                }
            }
            "luck" => {
                r.luck = match words.next() {
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
                let plays: Vec<String> = words.all().into_iter().map(str::to_string).collect();
                if plays.is_empty() {
                    return Err(ProtocolError::bad_command(
                        "rollout moves needs at least one play",
                    ));
                }
                r.moves = Some(plays);
                return Ok(r);
            }
            _ => {
                return Err(ProtocolError::bad_command(format!(
                    "{usage}; got {}",
                    quote(t)
                )));
            }
        }
    }
    Ok(r)
}

impl Verb for RolloutArgs {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        rollout(session, self)?;
        Ok(Flow::Continue)
    }
}

/// What `rollout` and `hint ... rollout` play, from their arguments and
/// `this`'s settings.
pub(super) fn rollout_params(this: &Session, a: &RolloutArgs) -> RolloutParams {
    RolloutParams {
        threads: this.settings().threads,
        every: a.every,
        ..RolloutParams::at_root_ply(
            a.ply.get(),
            a.games,
            a.truncate,
            a.seed.unwrap_or(this.settings().seed),
            a.luck,
        )
    }
}

/// `rollout ...`: the position before the roll, or the candidate plays
/// `moves` names, rolled out on `this`'s worker.
fn rollout(this: &mut Session, a: RolloutArgs) -> Result<(), ProtocolError> {
    let state = *this.state();
    if state.result().is_some() {
        return Err(ProtocolError::bad_state("the game is over"));
    }
    let opts = this.settings().rules;
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
    let params = rollout_params(this, &a);
    let deadline = this.engine().deadline_from(Instant::now());
    this.spawn(JobKind::Rollout, false, move |job, out| {
        let bg = state.variant.spec().scores.triple.is_some();
        let with_move = |s: &Stats, name: &Option<String>| root_fields(s, bg, name.as_deref());
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
