//! Jobs split across processes or machines: `--shard I/N` runs the units
//! (mirrored pairs of a match, games of a self-play run, positions of a
//! rollout or labelling job) whose index is I modulo N. Each unit's dice
//! come from the job's seed and the unit's index alone ([`pair_seed`]), so
//! the shards of a job, merged, are the unsharded run, bit for bit.

use std::fmt;
use std::str::FromStr;

/// The part of a job one process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, from 0.
    pub index: usize,
    /// How many shards the job has.
    pub count: usize,
}

impl Shard {
    /// The whole job in one process.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether unit `i` belongs to this shard.
    pub fn owns(&self, i: usize) -> bool {
        i % self.count == self.index
    }

    /// The units of `0..total` this shard runs, in order.
    pub fn units(&self, total: usize) -> impl Iterator<Item = usize> + '_ {
        (self.index..total).step_by(self.count)
    }
}

/// The most shards a job may have.
pub const MAX_SHARDS: usize = 100_000;

/// A malformed `--shard` or shard file, or shard files that do not belong
/// to one job.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// `--shard` is not `I/N` with 0 ≤ I < N ≤ [`MAX_SHARDS`].
    #[error("bad shard {0:?}: expected I/N with 0 <= I < N <= {MAX_SHARDS}, e.g. 0/4")]
    Spec(String),
    /// A file is not a shard of its kind.
    #[error("{file}: not a gulbara {kind} shard: {why}")]
    Format {
        /// The file.
        file: String,
        /// The kind of shard it was read as.
        kind: ShardKind,
        /// What is wrong.
        why: FormatError,
    },
    /// Two files come from different jobs.
    #[error("{file}: {field} differs from the first file's ({theirs} vs {ours})")]
    Mismatch {
        /// The file.
        file: String,
        /// The field that differs.
        field: &'static str,
        /// Its value there.
        theirs: String,
        /// Its value in the first file.
        ours: String,
    },
    /// The same shard appears twice.
    #[error("{file}: shard {shard} given twice")]
    ShardTwice {
        /// The file that gives it again.
        file: String,
        /// The shard.
        shard: Shard,
    },
    /// The same unit (a pair, a trial) appears twice.
    #[error("{unit} {index} given twice")]
    UnitTwice {
        /// What the units are: `pair`, `trial`.
        unit: &'static str,
        /// Its number.
        index: u64,
    },
    /// No files at all.
    #[error("incomplete job: no shard files given")]
    NoFiles,
    /// Shards are missing (the first ten named).
    #[error("incomplete job: shard(s) {} not given", list(.0))]
    ShardsMissing(Vec<Shard>),
    /// Every shard is there, and units are not (a shard stopped early).
    #[error(
        "incomplete job: {got} of the {job}'s {want} {unit}s are there (a shard stopped early?)"
    )]
    UnitsMissing {
        /// The job: `match`, `rollout`.
        job: &'static str,
        /// What the units are: `pair`, `trial`.
        unit: &'static str,
        /// Units there.
        got: usize,
        /// Units of the whole job.
        want: u64,
    },
}

/// The shards, comma-separated.
fn list(shards: &[Shard]) -> String {
    let words: Vec<String> = shards.iter().map(Shard::to_string).collect();
    words.join(", ")
}

/// Which kind of shard file a file was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardKind {
    /// A match's (`gulbara match --shard`).
    Match,
    /// A rollout's (`gulbara rollout --shard`).
    Rollout,
}

impl fmt::Display for ShardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShardKind::Match => "match",
            ShardKind::Rollout => "rollout",
        })
    }
}

/// What is wrong with a shard file.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// Not JSON (serde's words, with the place).
    #[error("JSON: {0}")]
    Json(serde_json::Error),
    /// A field missing, of the wrong type or with a value its type does
    /// not read (serde's words).
    #[error("{0}")]
    Fields(serde_json::Error),
    /// The format tag is not the kind's.
    #[error("no \"format\": \"{0}\"")]
    NoFormat(&'static str),
    /// `shard` is not `[I, N]` with 0 ≤ I < N ≤ [`MAX_SHARDS`].
    #[error("shard: [{index}, {count}] is not I/N")]
    ShardNumbers {
        /// I.
        index: u64,
        /// N.
        count: u64,
    },
    /// A number out of its range.
    #[error("{field}: {value} is not {}..={}", .range.0, .range.1)]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Its value.
        value: i64,
        /// Its range.
        range: (i64, i64),
    },
    /// A unit (a pair, a trial) the file's shard does not run.
    #[error("{unit} {index} is not one of shard {shard}'s")]
    NotTheShards {
        /// What the units are: `pair`, `trial`.
        unit: &'static str,
        /// Its number.
        index: u64,
        /// The file's shard.
        shard: Shard,
    },
    /// A unit with the wrong number of parts.
    #[error("{unit} {index} has {got} {parts}, not {want}")]
    Parts {
        /// What the units are: `pair`, `trial`.
        unit: &'static str,
        /// Its number.
        index: u64,
        /// Its parts: `games`, `matches`, `results`.
        parts: &'static str,
        /// How many it has.
        got: usize,
        /// How many it should have.
        want: usize,
    },
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Spec(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Which shards of an N-shard job have been given: each once, none
/// missing, all of the same N.
pub struct ShardTally {
    seen: Vec<bool>,
}

impl ShardTally {
    /// A job of `count` shards, none given yet.
    pub fn new(count: usize) -> ShardTally {
        ShardTally {
            seen: vec![false; count],
        }
    }

    /// Counts `shard`, read from `file`: an error for another job's shard
    /// count or a shard given twice.
    pub fn add(&mut self, file: &str, shard: Shard) -> Result<(), ShardError> {
        if shard.count != self.seen.len() {
            return Err(ShardError::Mismatch {
                file: file.to_string(),
                field: "shard count",
                theirs: shard.count.to_string(),
                ours: self.seen.len().to_string(),
            });
        }
        if std::mem::replace(&mut self.seen[shard.index], true) {
            return Err(ShardError::ShardTwice {
                file: file.to_string(),
                shard,
            });
        }
        Ok(())
    }

    /// An error naming the shards not given (the first ten).
    pub fn finish(&self) -> Result<(), ShardError> {
        let count = self.seen.len();
        let missing: Vec<Shard> = (0..count)
            .filter(|&i| !self.seen[i])
            .map(|index| Shard { index, count })
            .take(10)
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(ShardError::ShardsMissing(missing))
        }
    }
}

/// The shard `[index, count]` of a shard file.
pub fn shard_of(index: u64, count: u64) -> Result<Shard, FormatError> {
    let bad = FormatError::ShardNumbers { index, count };
    let (Ok(i), Ok(n)) = (usize::try_from(index), usize::try_from(count)) else {
        return Err(bad);
    };
    if n == 0 || n > MAX_SHARDS || i >= n {
        return Err(bad);
    }
    Ok(Shard { index: i, count: n })
}

/// A shard file's field written as its text (`Display`) and read back
/// with `FromStr`, whose error, if any, becomes serde's: for
/// `#[serde(with = "crate::sharding::as_text")]`.
pub mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    /// Writes `v` as its text.
    pub fn serialize<T: Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// Reads a text and parses it.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: serde::Deserializer<'de>,
    {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Seed of pair `i` of a match seeded `seed` (splitmix64).
pub fn pair_seed(seed: u64, i: usize) -> u64 {
    crate::splitmix::nth(seed, i as u64)
}

/// Writes `bytes` to `path` atomically: to a temporary file beside it
/// (`path` and `.tmp`), then renamed over it, so that a reader (or a run
/// stopped mid-write) sees the old file or the new one, never half of one.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_parse_and_split_the_units() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert_eq!(s.units(8).collect::<Vec<_>>(), [1, 4, 7]);
        assert!(s.owns(4) && !s.owns(5));
        assert_eq!(s.to_string(), "1/3");
        for bad in ["3/3", "0/0", "1", "a/b", "-1/2", "0/100001", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Every unit is in exactly one shard.
        let all: Vec<usize> = (0..4)
            .flat_map(|i| Shard { index: i, count: 4 }.units(10).collect::<Vec<_>>())
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }
}
