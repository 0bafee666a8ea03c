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
use crate::sharding::{FormatError, Shard, ShardError, ShardKind, ShardTally, shard_of};

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

/// A rollout shard file (its fields in the order of their names, the
/// order the file has always had).
#[derive(serde::Serialize, serde::Deserialize)]
struct RolloutFile {
    format: String,
    games: u32,
    luck: bool,
    moves: Vec<String>,
    names: Vec<Option<String>>,
    plies: u8,
    seed: u64,
    setup: Vec<String>,
    shard: [u64; 2],
    trials: Vec<(u64, Vec<TrialFile>)>,
    truncate: u32,
    #[serde(with = "crate::sharding::as_text")]
    variant: Variant,
}

/// One root's results of one trial.
#[derive(serde::Serialize, serde::Deserialize)]
struct TrialFile {
    luck: [f64; 5],
    raw: [f64; 5],
}

impl RolloutShard {
    /// The shard as one JSON object (floats read back to the same bits).
    pub fn to_json(&self) -> String {
        let file = RolloutFile {
            format: FORMAT.to_string(),
            games: self.key.games,
            luck: self.key.luck,
            moves: self.key.moves.clone(),
            names: self.names.clone(),
            plies: self.key.plies,
            seed: self.key.seed,
            setup: self.key.setup.clone(),
            shard: [self.shard.index as u64, self.shard.count as u64],
            trials: self
                .trials
                .iter()
                .map(|(i, rs)| {
                    let rs = rs
                        .iter()
                        .map(|t| TrialFile {
                            luck: t.luck,
                            raw: t.raw,
                        })
                        .collect();
                    (*i, rs)
                })
                .collect(),
            truncate: self.key.truncate,
            variant: self.key.variant,
        };
        // Plain data: serialising it cannot fail.
        serde_json::to_string(&file).unwrap_or_default()
    }

    /// Reads a shard file's JSON (`file` names it in errors).
    pub fn from_value(file: &str, v: &serde_json::Value) -> Result<RolloutShard, ShardError> {
        let why = |why: FormatError| ShardError::Format {
            file: file.to_string(),
            kind: ShardKind::Rollout,
            why,
        };
        if v["format"] != FORMAT {
            return Err(why(FormatError::NoFormat(FORMAT)));
        }
        let f = <RolloutFile as serde::Deserialize>::deserialize(v)
            .map_err(|e| why(FormatError::Fields(e)))?;
        let out_of_range = |field: &'static str, value: usize, most: usize| {
            why(FormatError::OutOfRange {
                field,
                value: i64::try_from(value).unwrap_or(i64::MAX),
                range: (1, most as i64),
            })
        };
        if !(1..=MAX_GAMES).contains(&f.games) {
            return Err(out_of_range("games", f.games as usize, MAX_GAMES as usize));
        }
        if f.names.is_empty() || f.names.len() > MAX_CANDIDATES {
            return Err(out_of_range("roots", f.names.len(), MAX_CANDIDATES));
        }
        let shard = shard_of(f.shard[0], f.shard[1]).map_err(why)?;
        let mut trials = Vec::with_capacity(f.trials.len());
        for (i, rs) in f.trials {
            if i >= u64::from(f.games) || !shard.owns(i as usize) {
                return Err(why(FormatError::NotTheShards {
                    unit: "trial",
                    index: i,
                    shard,
                }));
            }
            if rs.len() != f.names.len() {
                return Err(why(FormatError::Parts {
                    unit: "trial",
                    index: i,
                    parts: "results",
                    got: rs.len(),
                    want: f.names.len(),
                }));
            }
            let results = rs
                .into_iter()
                .map(|t| Trial {
                    raw: t.raw,
                    luck: t.luck,
                })
                .collect();
            trials.push((i, results));
        }
        Ok(RolloutShard {
            key: RolloutKey {
                setup: f.setup,
                variant: f.variant,
                moves: f.moves,
                games: f.games,
                truncate: f.truncate,
                plies: f.plies,
                seed: f.seed,
                luck: f.luck,
            },
            shard,
            names: f.names,
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
        return Err(ShardError::NoFiles);
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
        return Err(ShardError::UnitTwice {
            unit: "trial",
            index: w[0].0,
        });
    }
    if trials.len() as u64 != u64::from(key.games) {
        return Err(ShardError::UnitsMissing {
            job: "rollout",
            unit: "trial",
            got: trials.len(),
            want: u64::from(key.games),
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-root shard 1/2 of a 4-trial rollout, trials 1 and 3.
    fn shard() -> RolloutShard {
        let trial = |x: f64| Trial {
            raw: [x, 0.25, 0.0, 0.125, 0.0],
            luck: [0.1 * x, -0.3, 0.0, 1e-17, 0.0],
        };
        RolloutShard {
            key: RolloutKey {
                setup: vec![
                    "set game.variant backgammon".into(),
                    "position startpos".into(),
                ],
                variant: Variant::Backgammon,
                moves: vec!["8/5 6/5".into(), "24/21 21/20".into()],
                games: 4,
                truncate: 2,
                plies: 0,
                seed: 9,
                luck: true,
            },
            shard: Shard { index: 1, count: 2 },
            names: vec![Some("8/5 6/5".into()), Some("24/21 21/20".into())],
            trials: vec![
                (1, vec![trial(0.5), trial(0.75)]),
                (3, vec![trial(1.0 / 3.0), trial(0.0)]),
            ],
        }
    }

    fn read(text: &str) -> Result<RolloutShard, ShardError> {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        RolloutShard::from_value("r.json", &v)
    }

    #[test]
    fn shard_files_read_back_to_the_same_bits() {
        let s = shard();
        let text = s.to_json();
        // The fields in the order of their names, as the file has always had them.
        assert!(
            text.starts_with(r#"{"format":"gulbara-rollout-shard-1","games":4,"luck":true,"moves":["8/5 6/5","24/21 21/20"],"names":["#),
            "{text}"
        );
        assert!(
            text.ends_with(r#""truncate":2,"variant":"backgammon"}"#),
            "{text}"
        );
        let back = read(&text).unwrap();
        assert_eq!(back.key, s.key);
        assert_eq!(back.shard, s.shard);
        assert_eq!(back.names, s.names);
        assert_eq!(back.to_json(), text);
        let bits = |r: &RolloutShard| -> Vec<u64> {
            r.trials
                .iter()
                .flat_map(|(_, ts)| ts.iter().flat_map(|t| t.raw.iter().chain(&t.luck)))
                .map(|x| x.to_bits())
                .collect()
        };
        assert_eq!(bits(&back), bits(&s));
    }

    #[test]
    fn bad_shard_files_get_typed_errors_that_say_what_is_wrong() {
        let good = shard().to_json();
        let why = |text: &str| match read(text) {
            Err(ShardError::Format {
                file,
                kind: ShardKind::Rollout,
                why,
            }) => {
                assert_eq!(file, "r.json");
                why
            }
            other => panic!("{text}: {other:?}"),
        };
        assert!(matches!(why("{}"), FormatError::NoFormat(FORMAT)));
        let e = why(&good.replace(r#""luck":true"#, r#""luck":1"#));
        assert!(matches!(e, FormatError::Fields(_)), "{e}");
        let e = why(&good.replace(r#""seed":9,"#, ""));
        assert!(e.to_string().contains("missing field `seed`"), "{e}");
        let e = why(&good.replace("\"backgammon\"}", "\"chess\"}"));
        assert!(e.to_string().contains("got 'chess'"), "{e}");
        assert!(matches!(
            why(&good.replace(r#""games":4"#, r#""games":0"#)),
            FormatError::OutOfRange {
                field: "games",
                value: 0,
                ..
            }
        ));
        assert!(matches!(
            why(&good.replace(r#""shard":[1,2]"#, r#""shard":[2,2]"#)),
            FormatError::ShardNumbers { index: 2, count: 2 }
        ));
        // Trial 1 is not one of shard 0/2.
        assert!(matches!(
            why(&good.replace(r#""shard":[1,2]"#, r#""shard":[0,2]"#)),
            FormatError::NotTheShards {
                unit: "trial",
                index: 1,
                ..
            }
        ));
        // A result with four numbers, and a trial with one root's results.
        let e = why(&good.replacen(",0.0,0.125,0.0]", ",0.125,0.0]", 1));
        assert!(e.to_string().contains("length 4"), "{e}");
        let one_root = good.replacen(
            r#""names":["8/5 6/5","24/21 21/20"]"#,
            r#""names":["8/5 6/5"]"#,
            1,
        );
        assert!(matches!(
            why(&one_root),
            FormatError::Parts {
                unit: "trial",
                index: 1,
                got: 2,
                want: 1,
                ..
            }
        ));
        assert_eq!(why(&one_root).to_string(), "trial 1 has 2 results, not 1");
    }
}
