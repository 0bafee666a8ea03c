//! A match's shards: a shard's results go to a JSON file that `gulbara
//! merge` combines ([`crate::sharding`] splits the job). The summary is
//! computed from the pairs in index order, so the merged result is the
//! unsharded run's, bit for bit.

use super::sessions::{CubeCounts, MatchResult, SessionSpec};
use super::{MatchReport, PairOutcome};
use crate::rules::Variant;
use crate::sharding::{Shard, ShardError, ShardTally};

/// What identifies a match: shards of one match agree on all of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchKey {
    /// Engine names.
    pub names: [String; 2],
    /// The game.
    pub variant: Variant,
    /// The rule settings sent to the engines (`name=value`).
    pub rules: Vec<String>,
    /// The match seed.
    pub seed: u64,
    /// Games asked for (the whole match).
    pub games: usize,
    /// Whether a luck-adjusted ppg is reported.
    pub luck_adjust: bool,
    /// What the pairs are played as (money games or matches, the cube).
    pub session: SessionSpec,
}

/// One shard's results: the key, which shard, and its pairs.
#[derive(Clone, Debug)]
pub struct MatchShard {
    /// The match.
    pub key: MatchKey,
    /// Which part of it.
    pub shard: Shard,
    /// Its pairs, in pair order.
    pub pairs: Vec<PairOutcome>,
}

/// The format tag of a shard file.
const FORMAT: &str = "gulbara-match-shard-1";

impl MatchShard {
    /// The shard as one JSON object (pairs in order; floats written so
    /// they read back to the same bits).
    pub fn to_json(&self) -> String {
        let pairs: Vec<serde_json::Value> = self
            .pairs
            .iter()
            .map(|p| {
                let games: Vec<serde_json::Value> = p
                    .games
                    .iter()
                    .map(|g| {
                        serde_json::json!({
                            "white_engine": g.white_engine,
                            "points": g.points,
                            "winner": g.winner.map(|(w, m)| serde_json::json!([w, m])),
                            "forfeit": g.forfeit.as_ref().map(|(w, why)| serde_json::json!([w, why])),
                            "luck": g.luck,
                            "result_points": g.result_points,
                            "cube": [g.cube[0].as_array(), g.cube[1].as_array()],
                        })
                    })
                    .collect();
                let matches: Vec<serde_json::Value> = p
                    .matches
                    .iter()
                    .map(|m| {
                        serde_json::json!({
                            "white_engine": m.white_engine,
                            "winner": m.winner,
                            "score": m.score,
                        })
                    })
                    .collect();
                serde_json::json!({"pair": p.pair, "dice_seed": p.dice_seed, "games": games, "matches": matches})
            })
            .collect();
        serde_json::json!({
            "format": FORMAT,
            "engines": self.key.names,
            "variant": self.key.variant.to_string(),
            "rules": self.key.rules,
            "seed": self.key.seed,
            "games": self.key.games,
            "luck_adjust": self.key.luck_adjust,
            "session": self.key.session.to_string(),
            "shard": [self.shard.index, self.shard.count],
            "pairs": pairs,
        })
        .to_string()
    }

    /// Reads a shard file's text (`file` names it in errors).
    pub fn from_json(file: &str, text: &str) -> Result<MatchShard, ShardError> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| ShardError::Format {
            file: file.to_string(),
            why: format!("JSON: {e}"),
        })?;
        MatchShard::from_value(file, &v)
    }

    /// [`MatchShard::from_json`] of JSON already parsed.
    pub fn from_value(file: &str, v: &serde_json::Value) -> Result<MatchShard, ShardError> {
        let why = |w: &str| ShardError::Format {
            file: file.to_string(),
            why: w.to_string(),
        };
        if v["format"] != FORMAT {
            return Err(why(&format!("no \"format\": \"{FORMAT}\"")));
        }
        let text_of = |k: &str| {
            v[k].as_str()
                .map(str::to_string)
                .ok_or_else(|| why(&format!("{k} missing")))
        };
        let uint = |x: &serde_json::Value, k: &str| {
            x[k].as_u64().ok_or_else(|| why(&format!("{k} missing")))
        };
        let names = match v["engines"].as_array().map(Vec::as_slice) {
            Some([a, b]) => [
                a.as_str().ok_or_else(|| why("engines"))?.to_string(),
                b.as_str().ok_or_else(|| why("engines"))?.to_string(),
            ],
            _ => return Err(why("engines: not two names")),
        };
        let variant: Variant = text_of("variant")?
            .parse()
            .map_err(|_| why("unknown variant"))?;
        let rules = v["rules"]
            .as_array()
            .ok_or_else(|| why("rules missing"))?
            .iter()
            .map(|r| r.as_str().map(str::to_string).ok_or_else(|| why("rules")))
            .collect::<Result<Vec<_>, _>>()?;
        let shard = match v["shard"].as_array().map(Vec::as_slice) {
            Some([i, n]) => format!("{}/{}", i.as_u64().unwrap_or(u64::MAX), n)
                .parse::<Shard>()
                .map_err(|_| why("shard: not I/N"))?,
            _ => return Err(why("shard: not [I, N]")),
        };
        let key = MatchKey {
            names,
            variant,
            rules,
            seed: uint(v, "seed")?,
            games: usize::try_from(uint(v, "games")?).map_err(|_| why("games"))?,
            luck_adjust: v["luck_adjust"]
                .as_bool()
                .ok_or_else(|| why("luck_adjust missing"))?,
            // Files written before sessions: cubeless money games.
            session: match v["session"].as_str() {
                None => SessionSpec::cubeless(),
                Some(t) => t
                    .parse()
                    .map_err(|e: super::sessions::SessionSpecError| why(&e.to_string()))?,
            },
        };
        let in_matches = key.session.match_length().is_some();
        let total_pairs = key.games.div_ceil(2).max(1);
        let mut pairs = Vec::new();
        for p in v["pairs"].as_array().ok_or_else(|| why("pairs missing"))? {
            let pair = usize::try_from(uint(p, "pair")?).map_err(|_| why("pair"))?;
            if pair >= total_pairs || !shard.owns(pair) {
                return Err(why(&format!("pair {pair} is not one of shard {shard}'s")));
            }
            let mut games = Vec::new();
            for g in p["games"]
                .as_array()
                .ok_or_else(|| why("games of a pair"))?
            {
                let engine = |x: &serde_json::Value| {
                    x.as_u64()
                        .filter(|&e| e < 2)
                        .map(|e| e as usize)
                        .ok_or_else(|| why("an engine number"))
                };
                let winner = match &g["winner"] {
                    serde_json::Value::Null => None,
                    w => Some((engine(&w[0])?, w[1].as_bool().ok_or_else(|| why("winner"))?)),
                };
                let forfeit = match &g["forfeit"] {
                    serde_json::Value::Null => None,
                    f => Some((
                        engine(&f[0])?,
                        f[1].as_str().ok_or_else(|| why("forfeit"))?.to_string(),
                    )),
                };
                let luck = |i: usize| g["luck"][i].as_f64().ok_or_else(|| why("luck"));
                let points = g["points"]
                    .as_i64()
                    .and_then(|x| i32::try_from(x).ok())
                    .filter(|x| x.unsigned_abs() <= 3 * crate::cube::state::MAX_CUBE)
                    .ok_or_else(|| why("points"))?;
                let cube = |e: usize| -> Result<CubeCounts, ShardError> {
                    let mut a = [0u32; 4];
                    for (k, x) in a.iter_mut().enumerate() {
                        *x = match &g["cube"] {
                            serde_json::Value::Null => 0,
                            c => c[e][k]
                                .as_u64()
                                .and_then(|n| u32::try_from(n).ok())
                                .ok_or_else(|| why("cube"))?,
                        };
                    }
                    Ok(CubeCounts::from_array(a))
                };
                // Files written before the cube: the points are the result.
                let result_points = match &g["result_points"] {
                    serde_json::Value::Null => points.unsigned_abs() as u8,
                    r => r
                        .as_u64()
                        .filter(|&r| r <= 3)
                        .ok_or_else(|| why("result_points"))? as u8,
                };
                games.push(super::GameSummary {
                    white_engine: engine(&g["white_engine"])?,
                    points,
                    winner,
                    forfeit,
                    luck: [luck(0)?, luck(1)?],
                    cube: [cube(0)?, cube(1)?],
                    result_points,
                });
            }
            let mut matches = Vec::new();
            for m in p["matches"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                let engine = |x: &serde_json::Value| {
                    x.as_u64()
                        .filter(|&e| e < 2)
                        .map(|e| e as usize)
                        .ok_or_else(|| why("an engine number"))
                };
                let score = |i: usize| {
                    m["score"][i]
                        .as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| why("a match score"))
                };
                matches.push(MatchResult {
                    white_engine: engine(&m["white_engine"])?,
                    winner: match &m["winner"] {
                        serde_json::Value::Null => None,
                        w => Some(engine(w)?),
                    },
                    score: [score(0)?, score(1)?],
                });
            }
            if in_matches && matches.len() != 2 {
                return Err(why(&format!(
                    "pair {pair} has {} matches, not 2",
                    matches.len()
                )));
            }
            if !in_matches && games.len() != 2 {
                return Err(why(&format!(
                    "pair {pair} has {} games, not 2",
                    games.len()
                )));
            }
            pairs.push(PairOutcome {
                pair,
                dice_seed: uint(p, "dice_seed")?,
                games,
                matches,
            });
        }
        Ok(MatchShard { key, shard, pairs })
    }
}

/// Combines the shards of one match (`(file name, shard)`, any order)
/// into the whole match's pairs, after checking that they are one job's
/// and that every shard is there once.
pub fn merge(shards: Vec<(String, MatchShard)>) -> Result<MatchShard, ShardError> {
    let Some((_, first)) = shards.first() else {
        return Err(ShardError::Missing("no shard files given".into()));
    };
    let key = first.key.clone();
    let mut tally = ShardTally::new(first.shard.count);
    let mut pairs = Vec::new();
    for (file, s) in shards {
        let mismatch = |field: &'static str, theirs: String, ours: String| ShardError::Mismatch {
            file: file.clone(),
            field,
            theirs,
            ours,
        };
        if s.key.names != key.names {
            return Err(mismatch(
                "engines",
                s.key.names.join(" vs "),
                key.names.join(" vs "),
            ));
        }
        if s.key.variant != key.variant {
            return Err(mismatch(
                "variant",
                s.key.variant.to_string(),
                key.variant.to_string(),
            ));
        }
        if s.key.rules != key.rules {
            return Err(mismatch(
                "rules",
                s.key.rules.join(" "),
                key.rules.join(" "),
            ));
        }
        if s.key.seed != key.seed {
            return Err(mismatch(
                "seed",
                s.key.seed.to_string(),
                key.seed.to_string(),
            ));
        }
        if s.key.games != key.games {
            return Err(mismatch(
                "games",
                s.key.games.to_string(),
                key.games.to_string(),
            ));
        }
        if s.key.luck_adjust != key.luck_adjust {
            return Err(mismatch(
                "luck_adjust",
                s.key.luck_adjust.to_string(),
                key.luck_adjust.to_string(),
            ));
        }
        if s.key.session != key.session {
            return Err(mismatch(
                "session",
                s.key.session.to_string(),
                key.session.to_string(),
            ));
        }
        tally.add(&file, s.shard)?;
        pairs.extend(s.pairs);
    }
    tally.finish()?;
    pairs.sort_by_key(|p| p.pair);
    if let Some(w) = pairs.windows(2).find(|w| w[0].pair == w[1].pair) {
        return Err(ShardError::Duplicate(format!(
            "pair {} given twice",
            w[0].pair
        )));
    }
    let total = key.games.div_ceil(2).max(1);
    if pairs.len() != total {
        return Err(ShardError::Missing(format!(
            "{} of the match's {total} pairs are there (a shard stopped early?)",
            pairs.len()
        )));
    }
    Ok(MatchShard {
        key,
        shard: Shard::WHOLE,
        pairs,
    })
}

/// The report of a whole (merged) match.
pub fn report_of(whole: &MatchShard) -> MatchReport {
    let mut report = MatchReport::tally(
        whole.key.names.clone(),
        whole.key.variant,
        whole.key.session,
        &whole.pairs,
        whole.key.luck_adjust,
    );
    report.rotation = whole
        .key
        .rules
        .iter()
        .filter_map(|r| r.strip_prefix("rotation="))
        .flat_map(|games| games.split(',').filter_map(|g| g.parse().ok()))
        .collect();
    report.winner_starts = whole.key.rules.iter().any(|r| r == "next_starter=winner");
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shard_files_are_refused_with_the_reason() {
        for (text, want) in [
            ("{", "JSON"),
            ("{}", "format"),
            (r#"{"format":"gulbara-match-shard-1"}"#, "engines"),
        ] {
            let e = MatchShard::from_json("f.json", text)
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{e}");
        }
        assert!(matches!(merge(vec![]), Err(ShardError::Missing(_))));
    }
}
