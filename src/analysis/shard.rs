//! `gulbara rollout`: a rollout from the command line, whole or one shard
//! of it (`--shard I/N`), with every trial's results written as JSON for
//! `gulbara merge`, which adds the shards' trials up in trial order: the
//! unsharded rollout's figures, bit for bit.
//!
//! The position is set up with protocol lines (`--setup`: `set`,
//! `newgame`, `position`, `dice`), applied to an engine as a session
//! applies them (by `crate::cli::rollout`), so a rollout here means what
//! `rollout` means there.

use std::sync::atomic::AtomicBool;

use crate::analysis::rollout::{
    MAX_CANDIDATES, MAX_GAMES, MAX_TRUNCATE, Rollout, RolloutParams, Root, Stats, Trial,
    before_roll_root, candidate_roots, merge_trials, parse_plays, stats_fields,
};
use crate::engine::Engine;
use crate::rules::Variant;
use crate::sharding::{Shard, ShardError, ShardTally};

/// The most trial results (trials × plays) one process keeps for its
/// shard file (each is ten floats).
pub const MAX_KEPT_RESULTS: u64 = 5_000_000;

/// The format tag of a rollout shard file.
pub const FORMAT: &str = "gulbara-rollout-shard-1";

/// What identifies a rollout: its shards agree on all of it.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutKey {
    /// The protocol lines that set the position up.
    pub setup: Vec<String>,
    /// The game.
    pub variant: Variant,
    /// The candidate plays (none: the position before the roll).
    pub moves: Vec<String>,
    /// Trials of the whole rollout.
    pub games: u32,
    /// Truncation in plies (0: none).
    pub truncate: u32,
    /// The players' gnubg ply.
    pub plies: u8,
    /// The dice seed.
    pub seed: u64,
    /// Whether the luck correction is on.
    pub luck: bool,
}

/// One rollout shard: the key, which shard, and its trials.
#[derive(Clone, Debug)]
pub struct RolloutShard {
    /// The rollout.
    pub key: RolloutKey,
    /// Which part of it.
    pub shard: Shard,
    /// Each root's name (`None`: the position before the roll).
    pub names: Vec<Option<String>>,
    /// The trials, `(trial number, results per root)`, in trial order.
    pub trials: Vec<(u64, Vec<Trial>)>,
}

fn vec5_json(v: &[f64; 5]) -> serde_json::Value {
    serde_json::json!(v)
}

impl RolloutShard {
    /// The shard as one JSON object (floats read back to the same bits).
    pub fn to_json(&self) -> String {
        let trials: Vec<serde_json::Value> = self
            .trials
            .iter()
            .map(|(i, rs)| {
                let rs: Vec<serde_json::Value> = rs
                    .iter()
                    .map(|t| serde_json::json!({"raw": vec5_json(&t.raw), "luck": vec5_json(&t.luck)}))
                    .collect();
                serde_json::json!([i, rs])
            })
            .collect();
        serde_json::json!({
            "format": FORMAT,
            "setup": self.key.setup,
            "variant": self.key.variant.to_string(),
            "moves": self.key.moves,
            "games": self.key.games,
            "truncate": self.key.truncate,
            "plies": self.key.plies,
            "seed": self.key.seed,
            "luck": self.key.luck,
            "shard": [self.shard.index, self.shard.count],
            "names": self.names,
            "trials": trials,
        })
        .to_string()
    }

    /// Reads a shard file's text (`file` names it in errors).
    pub fn from_json(file: &str, v: &serde_json::Value) -> Result<RolloutShard, ShardError> {
        let why = |w: &str| ShardError::Format {
            file: file.to_string(),
            why: w.to_string(),
        };
        let strings = |k: &str| -> Result<Vec<String>, ShardError> {
            v[k].as_array()
                .ok_or_else(|| why(&format!("{k} missing")))?
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(|| why(k)))
                .collect()
        };
        let uint = |k: &str| v[k].as_u64().ok_or_else(|| why(&format!("{k} missing")));
        let small =
            |k: &str| -> Result<u32, ShardError> { u32::try_from(uint(k)?).map_err(|_| why(k)) };
        let key = RolloutKey {
            setup: strings("setup")?,
            variant: v["variant"]
                .as_str()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| why("variant"))?,
            moves: strings("moves")?,
            games: Some(small("games")?)
                .filter(|g| (1..=MAX_GAMES).contains(g))
                .ok_or_else(|| why("games: not 1..=1,000,000"))?,
            truncate: small("truncate")?,
            plies: u8::try_from(uint("plies")?).map_err(|_| why("plies"))?,
            seed: uint("seed")?,
            luck: v["luck"].as_bool().ok_or_else(|| why("luck missing"))?,
        };
        let shard = match v["shard"].as_array().map(Vec::as_slice) {
            Some([i, n]) => format!("{}/{}", i.as_u64().unwrap_or(u64::MAX), n)
                .parse::<Shard>()
                .map_err(|_| why("shard: not I/N"))?,
            _ => return Err(why("shard: not [I, N]")),
        };
        let names: Vec<Option<String>> = v["names"]
            .as_array()
            .ok_or_else(|| why("names missing"))?
            .iter()
            .map(|n| n.as_str().map(str::to_string))
            .collect();
        if names.is_empty() || names.len() > MAX_CANDIDATES {
            return Err(why("names: not 1..100 roots"));
        }
        let five = |x: &serde_json::Value| -> Result<[f64; 5], ShardError> {
            let a = x
                .as_array()
                .filter(|a| a.len() == 5)
                .ok_or_else(|| why("a result"))?;
            let mut out = [0.0; 5];
            for (o, y) in out.iter_mut().zip(a) {
                *o = y.as_f64().ok_or_else(|| why("a result"))?;
            }
            Ok(out)
        };
        let mut trials = Vec::new();
        for t in v["trials"]
            .as_array()
            .ok_or_else(|| why("trials missing"))?
        {
            let i = t[0].as_u64().ok_or_else(|| why("a trial number"))?;
            if i >= u64::from(key.games) || !shard.owns(i as usize) {
                return Err(why(&format!("trial {i} is not one of shard {shard}'s")));
            }
            let rs = t[1].as_array().ok_or_else(|| why("a trial"))?;
            if rs.len() != names.len() {
                return Err(why(&format!(
                    "trial {i}: {} results for {} roots",
                    rs.len(),
                    names.len()
                )));
            }
            let results = rs
                .iter()
                .map(|r| {
                    Ok(Trial {
                        raw: five(&r["raw"])?,
                        luck: five(&r["luck"])?,
                    })
                })
                .collect::<Result<Vec<_>, ShardError>>()?;
            trials.push((i, results));
        }
        Ok(RolloutShard {
            key,
            shard,
            names,
            trials,
        })
    }

    /// Each root's figures over the trials held.
    pub fn stats(&self) -> Vec<Stats> {
        let mut trials = self.trials.clone();
        merge_trials(self.names.len(), self.key.luck, &mut trials)
    }

    /// The `rolloutok` lines, as the protocol's `rollout` prints them.
    pub fn result_lines(&self) -> Vec<String> {
        let bg = self.key.variant.spec().scores.triple.is_some();
        self.stats()
            .iter()
            .zip(&self.names)
            .map(|(s, n)| format!("rolloutok {}", root_fields(s, bg, n.as_deref())))
            .collect()
    }
}

/// A root's figures as the protocol's `rollout` writes them after
/// `info rollout` and `rolloutok`: the stats' fields (with the
/// backgammons when `bg`), then `move <play>` for a named play.
pub fn root_fields(s: &Stats, bg: bool, name: Option<&str>) -> String {
    let mut l = stats_fields(s, bg);
    if let Some(n) = name {
        l.push_str(" move ");
        l.push_str(n);
    }
    l
}

/// Combines the shards of one rollout, checking they are one job's, each
/// shard once, with every trial there.
pub fn merge(shards: Vec<(String, RolloutShard)>) -> Result<RolloutShard, ShardError> {
    let Some((_, first)) = shards.first() else {
        return Err(ShardError::Missing("no shard files given".into()));
    };
    let (key, names) = (first.key.clone(), first.names.clone());
    let mut tally = ShardTally::new(first.shard.count);
    let mut trials = Vec::new();
    for (file, s) in shards {
        if s.key != key || s.names != names {
            return Err(ShardError::Mismatch {
                file,
                field: "rollout (setup, moves, games, truncate, ply, seed or luck)",
                theirs: format!("{:?}", s.key),
                ours: format!("{key:?}"),
            });
        }
        tally.add(&file, s.shard)?;
        trials.extend(s.trials);
    }
    tally.finish()?;
    trials.sort_by_key(|t| t.0);
    if let Some(w) = trials.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(ShardError::Duplicate(format!(
            "trial {} given twice",
            w[0].0
        )));
    }
    if trials.len() as u64 != u64::from(key.games) {
        return Err(ShardError::Missing(format!(
            "{} of the rollout's {} trials are there (a shard stopped early?)",
            trials.len(),
            key.games
        )));
    }
    Ok(RolloutShard {
        key,
        shard: Shard::WHOLE,
        names,
        trials,
    })
}

/// What `gulbara rollout` was asked.
#[derive(Clone, Debug)]
pub struct RolloutJob {
    /// Protocol lines that set the game, the options and the position up.
    pub setup: Vec<String>,
    /// Candidate plays of the dice set (none: the position before the roll).
    pub moves: Vec<String>,
    /// Trials of the whole rollout.
    pub games: u32,
    /// Truncation in plies.
    pub truncate: u32,
    /// Root-inclusive ply of the players, as `rollout ply` (1 or 2).
    pub ply: crate::engine::Ply,
    /// The dice seed.
    pub seed: u64,
    /// The luck correction.
    pub luck: bool,
    /// Worker threads.
    pub threads: usize,
    /// The part this process runs.
    pub shard: Shard,
}

/// Why a rollout job cannot run (its messages name `gulbara rollout`'s options).
#[derive(Debug, thiserror::Error)]
pub enum RolloutJobError {
    /// Trials out of range.
    #[error("--games must be 1..={MAX_GAMES}")]
    Games,
    /// Truncation out of range.
    #[error("--truncate must be at most {MAX_TRUNCATE}")]
    Truncate,
    /// A ply the rollout players do not play.
    #[error("--ply must be 1 or 2")]
    Ply,
    /// The position set up is a finished game.
    #[error("the game is over in the position set up")]
    GameOver,
    /// Dice are set and no plays are named.
    #[error("dice are set: name the plays to roll out with --moves")]
    NoPlays,
    /// The plays do not read.
    #[error("--moves: {}", .0.reason)]
    Moves(crate::analysis::rollout::PlaysError),
    /// Too many plays.
    #[error("at most {MAX_CANDIDATES} plays")]
    TooManyPlays,
    /// More trial results than a shard keeps.
    #[error(
        "{owned} trials of {plays} plays is more than {MAX_KEPT_RESULTS} results to keep: split the rollout into more shards"
    )]
    TooManyResults {
        /// Trials this shard runs.
        owned: u64,
        /// Plays rolled out.
        plays: usize,
    },
    /// The engine's evaluator does not load.
    #[error(transparent)]
    Evaluator(#[from] crate::engine::LoadNetError),
}

impl RolloutJob {
    /// The job's own limits: trials, truncation and ply.
    pub fn check(&self) -> Result<(), RolloutJobError> {
        if self.games == 0 || self.games > MAX_GAMES {
            return Err(RolloutJobError::Games);
        }
        if self.truncate > MAX_TRUNCATE {
            return Err(RolloutJobError::Truncate);
        }
        if self.ply.get() > 2 {
            return Err(RolloutJobError::Ply);
        }
        Ok(())
    }
}

/// Runs a rollout job from the position `engine` was set up to (with the
/// job's setup lines, by the caller): this shard's trials.
pub fn run(job: &RolloutJob, engine: &Engine) -> Result<RolloutShard, RolloutJobError> {
    job.check()?;
    let state = *engine.state();
    let opts = engine.settings().rules;
    if state.result().is_some() {
        return Err(RolloutJobError::GameOver);
    }
    let (roots, names): (Vec<Root>, Vec<Option<String>>) = if job.moves.is_empty() {
        if state.stage_dice().is_some()
            && !matches!(state.pending, crate::rules::Pending::Remainder { .. })
        {
            return Err(RolloutJobError::NoPlays);
        }
        (vec![before_roll_root(&state)], vec![None])
    } else {
        let toks: Vec<&str> = job
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect();
        let plays = parse_plays(&state, &opts, &toks).map_err(RolloutJobError::Moves)?;
        if plays.len() > MAX_CANDIDATES {
            return Err(RolloutJobError::TooManyPlays);
        }
        candidate_roots(&state, &plays)
    };
    // Every trial's results are kept for the shard file: bound what that holds.
    let owned = job.shard.units(job.games as usize).count() as u64;
    if owned * roots.len() as u64 > MAX_KEPT_RESULTS {
        return Err(RolloutJobError::TooManyResults {
            owned,
            plays: roots.len(),
        });
    }
    let params = RolloutParams {
        games: job.games,
        truncate: job.truncate,
        plies: job.ply.gnubg(),
        seed: job.seed,
        luck: job.luck,
        threads: job.threads.clamp(1, 64),
        every: 0,
    };
    let eval = engine.evaluator()?;
    let ro = Rollout::new(eval.as_ref(), opts, params);
    let stop = AtomicBool::new(false);
    let (_, trials) = ro.run_shard(&roots, job.shard, &stop, None, &|_| {}, true);
    Ok(RolloutShard {
        key: RolloutKey {
            setup: job.setup.clone(),
            variant: state.variant,
            moves: names.iter().flatten().cloned().collect(),
            games: job.games,
            truncate: job.truncate,
            plies: params.plies,
            seed: job.seed,
            luck: job.luck,
        },
        shard: job.shard,
        names,
        trials,
    })
}
