//! `match --resume`: a stopped run's `--out` file read back, checked to be
//! the same match's, so that a new run plays only the pairs it lacks.

use super::shard::MatchShard;
use super::{MatchConfig, PairOutcome, shard_with};
use crate::sharding::ShardError;

/// What a `--resume` run finds in its `--out` file.
#[derive(Debug)]
pub enum Resume {
    /// No file: the match starts from its first pair.
    Fresh,
    /// A stopped run's file (or one an SPRT stopped): these pairs are
    /// played (in pair order); the run plays the others.
    Partial(Vec<PairOutcome>),
    /// The file has every pair (a run that ended wrote it): nothing is
    /// played again.
    Finished(MatchShard),
}

/// An `--out` file that a run cannot resume.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// Not a match's shard file.
    #[error("--resume: {0}")]
    Format(ShardError),
    /// Another match's file (engine names, game, rules, seed, games, luck
    /// adjustment, session or shard differ).
    #[error(
        "--resume: {file} is another match's file: its {field} is {theirs}, this run's is {ours} \
         (give the options the file was made with, or another --out)"
    )]
    Mismatch {
        /// The file.
        file: String,
        /// What differs.
        field: &'static str,
        /// Its value in the file.
        theirs: String,
        /// Its value in this run.
        ours: String,
    },
    /// A pair is in the file twice.
    #[error("--resume: {file}: pair {pair} is there twice")]
    PairTwice {
        /// The file.
        file: String,
        /// The pair.
        pair: usize,
    },
}

/// What resuming the match of `cfg` from the `--out` file `file` with the
/// text `text` does (`None`: there is no such file). The file must be of
/// the same match and shard; its complete pairs are kept, as they are.
pub fn resume_of(cfg: &MatchConfig, file: &str, text: Option<&str>) -> Result<Resume, ResumeError> {
    let Some(text) = text else {
        return Ok(Resume::Fresh);
    };
    let mut theirs = MatchShard::from_json(file, text).map_err(ResumeError::Format)?;
    let ours = shard_with(cfg, Vec::new());
    let mismatch = |field, theirs: String, ours: String| ResumeError::Mismatch {
        file: file.to_string(),
        field,
        theirs,
        ours,
    };
    if let Some((field, t, o)) = theirs.key.difference(&ours.key) {
        return Err(mismatch(field, t, o));
    }
    if theirs.shard != ours.shard {
        return Err(mismatch(
            "shard",
            theirs.shard.to_string(),
            ours.shard.to_string(),
        ));
    }
    theirs.pairs.sort_by_key(|p| p.pair);
    if let Some(w) = theirs.pairs.windows(2).find(|w| w[0].pair == w[1].pair) {
        return Err(ResumeError::PairTwice {
            file: file.to_string(),
            pair: w[0].pair,
        });
    }
    // Whether the file says `partial` or not, it is finished when it has
    // every pair (a run killed after its last pair's write, before its
    // final one, left the whole match in a file still marked partial).
    let owned = cfg.owned_pairs();
    Ok(if theirs.pairs.len() < owned {
        Resume::Partial(theirs.pairs)
    } else {
        theirs.partial = false;
        Resume::Finished(theirs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::engine::EngineSpec;
    use crate::matchplay::{run_match, run_match_from, shard_of};
    use crate::rules::{RuleOptions, Variant};

    fn random(name: &str, seed: u32) -> EngineSpec {
        EngineSpec::parse(&[
            "cmd=builtin:random".to_string(),
            format!("name={name}"),
            format!("option.engine.seed={seed}"),
        ])
        .unwrap()
    }

    #[test]
    fn a_partial_file_resumes_to_the_whole_match_and_a_bad_one_is_refused() {
        let rules = RuleOptions::for_variant(Variant::GulBara);
        let cfg = MatchConfig::quiet([random("a", 1), random("b", 2)], rules, 12, 5224, 1);
        let whole = shard_of(&cfg, &run_match(&cfg));
        let text = whole.to_json();
        assert!(matches!(resume_of(&cfg, "f", None), Ok(Resume::Fresh)));
        let Ok(Resume::Finished(read)) = resume_of(&cfg, "f", Some(&text)) else {
            panic!("a whole file is not finished");
        };
        assert_eq!(read.to_json(), text);
        // Pairs 1 and 4 of 6, out of order: the others are played.
        let mut part = whole.clone();
        part.partial = true;
        part.pairs = vec![whole.pairs[4].clone(), whole.pairs[1].clone()];
        let Ok(Resume::Partial(done)) = resume_of(&cfg, "f", Some(&part.to_json())) else {
            panic!("a partial file is not resumed");
        };
        assert_eq!(done.iter().map(|p| p.pair).collect::<Vec<_>>(), [1, 4]);
        let resumed = shard_of(&cfg, &run_match_from(&cfg, done));
        assert_eq!(resumed.to_json(), text);
        // A pair twice; another seed; another match's shard.
        part.pairs = vec![whole.pairs[1].clone(), whole.pairs[1].clone()];
        let e = resume_of(&cfg, "f", Some(&part.to_json())).unwrap_err();
        assert_eq!(e.to_string(), "--resume: f: pair 1 is there twice");
        let other = MatchConfig {
            seed: 5225,
            ..cfg.clone()
        };
        let e = resume_of(&other, "f", Some(&text)).unwrap_err().to_string();
        assert!(e.contains("its seed is 5224, this run's is 5225"), "{e}");
        let other = MatchConfig {
            shard: "1/2".parse().unwrap(),
            ..cfg.clone()
        };
        let e = resume_of(&other, "f", Some(&text)).unwrap_err().to_string();
        assert!(e.contains("its shard is 0/1, this run's is 1/2"), "{e}");
        // Another engine option (a candidate's weights, say) under the
        // same names is another match; a file from before the options
        // were recorded is not compared on them.
        let mut other = cfg.clone();
        other.engines[1] = random("b", 3);
        let e = resume_of(&other, "f", Some(&text)).unwrap_err().to_string();
        assert!(
            e.contains("its options is [engine.seed=1] vs [engine.seed=2], this run's is [engine.seed=1] vs [engine.seed=3]"),
            "{e}"
        );
        let mut old = whole.clone();
        old.key.options = None;
        let old_text = old.to_json();
        assert!(!old_text.contains("\"options\""), "{old_text}");
        assert!(matches!(
            resume_of(&other, "f", Some(&old_text)),
            Ok(Resume::Finished(_))
        ));
        let e = resume_of(&cfg, "f", Some("[]")).unwrap_err().to_string();
        assert!(
            e.starts_with("--resume: f: not a gulbara match shard"),
            "{e}"
        );
    }
}
