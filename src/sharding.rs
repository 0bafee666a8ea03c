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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// `--shard` is not `I/N` with 0 ≤ I < N ≤ [`MAX_SHARDS`].
    #[error("bad shard {0:?}: expected I/N with 0 <= I < N <= {MAX_SHARDS}, e.g. 0/4")]
    Spec(String),
    /// A file is not a match shard.
    #[error("{file}: not a gulbara match shard: {why}")]
    Format {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
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
    /// The same shard or pair appears twice.
    #[error("{0}")]
    Duplicate(String),
    /// Shards are missing.
    #[error("incomplete job: {0}")]
    Missing(String),
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
            return Err(ShardError::Duplicate(format!(
                "{file}: shard {shard} given twice"
            )));
        }
        Ok(())
    }

    /// An error naming the shards not given (the first ten).
    pub fn finish(&self) -> Result<(), ShardError> {
        let count = self.seen.len();
        let missing: Vec<String> = (0..count)
            .filter(|&i| !self.seen[i])
            .map(|i| format!("{i}/{count}"))
            .take(10)
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(ShardError::Missing(format!(
                "shard(s) {} not given",
                missing.join(", ")
            )))
        }
    }
}

/// Seed of pair `i` of a match seeded `seed` (splitmix64).
pub fn pair_seed(seed: u64, i: usize) -> u64 {
    crate::splitmix::nth(seed, i as u64)
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
