//! A match's shards: a shard's results go to a JSON file that `gulbara
//! merge` combines ([`crate::sharding`] splits the job). The summary is
//! computed from the pairs in index order, so the merged result is the
//! unsharded run's, bit for bit.

use super::sessions::{CubeCounts, MatchResult, SessionSpec};
use super::{MatchReport, PairOutcome};
use crate::rules::Variant;
use crate::sharding::{FormatError, Shard, ShardError, ShardKind, ShardTally, shard_of};

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
    /// Each engine's `option.KEY=VALUE` settings, as `KEY=VALUE` in the
    /// order given; `None` in files written before they were recorded
    /// (then they are not compared).
    pub options: Option<[Vec<String>; 2]>,
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
    /// Whether the pairs are only those finished so far (a match's file
    /// as it goes, or of a run stopped early): written `"partial":true`;
    /// a whole shard's file has no such field.
    pub partial: bool,
}

/// The format tag of a shard file.
const FORMAT: &str = "gulbara-match-shard-1";

// The shard file as it is written: each object's fields in the order of
// their names (the order the file has always had).

/// A shard file: read with its pairs as [`PairFile`]s, written with them
/// as the JSON texts of [`PairJson`] (each pair serialised once).
#[derive(serde::Serialize, serde::Deserialize)]
struct ShardFile<P> {
    engines: [String; 2],
    format: String,
    games: usize,
    luck_adjust: bool,
    /// Files written before 2026-12-07 have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    options: Option<[Vec<String>; 2]>,
    pairs: Vec<P>,
    /// Only in the file of a match still going or stopped early.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    partial: bool,
    rules: Vec<String>,
    seed: u64,
    /// Files written before sessions have none: cubeless money games.
    #[serde(default)]
    session: Option<SessionText>,
    shard: [u64; 2],
    #[serde(with = "crate::sharding::as_text")]
    variant: Variant,
}

/// A session as its text (`money cube on ...`, `match 5 ...`).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
struct SessionText(SessionSpec);

impl TryFrom<String> for SessionText {
    type Error = super::sessions::SessionSpecError;

    fn try_from(text: String) -> Result<SessionText, Self::Error> {
        text.parse().map(SessionText)
    }
}

impl From<SessionText> for String {
    fn from(s: SessionText) -> String {
        s.0.to_string()
    }
}

/// An engine's number in a shard file: 0 (the first `--engine`) or 1.
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "u8", into = "u8")]
struct EngineNumber(u8);

impl TryFrom<u8> for EngineNumber {
    type Error = String;

    fn try_from(n: u8) -> Result<EngineNumber, String> {
        if n < 2 {
            Ok(EngineNumber(n))
        } else {
            Err(format!("engine number {n}: not 0 or 1"))
        }
    }
}

impl From<EngineNumber> for u8 {
    fn from(e: EngineNumber) -> u8 {
        e.0
    }
}

impl EngineNumber {
    /// The number of engine `e` (0 or 1) of a report.
    fn of(e: usize) -> EngineNumber {
        EngineNumber(u8::from(e == 1))
    }

    /// The engine's index.
    fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A pair of a shard file.
#[derive(serde::Serialize, serde::Deserialize)]
struct PairFile {
    dice_seed: u64,
    games: Vec<GameFile>,
    #[serde(default)]
    matches: Vec<MatchFile>,
    pair: usize,
}

/// A game of a pair.
#[derive(serde::Serialize, serde::Deserialize)]
struct GameFile {
    /// Files written before the cube have none: no cube action.
    #[serde(default)]
    cube: Option<[[u32; 4]; 2]>,
    forfeit: Option<(EngineNumber, String)>,
    luck: [f64; 2],
    points: i32,
    /// Files written before the cube have none: the points are the result.
    #[serde(default)]
    result_points: Option<u8>,
    white_engine: EngineNumber,
    winner: Option<(EngineNumber, bool)>,
}

/// A match of a pair (a match session's).
#[derive(serde::Serialize, serde::Deserialize)]
struct MatchFile {
    score: [u32; 2],
    white_engine: EngineNumber,
    winner: Option<EngineNumber>,
}

/// A pair as its text in a shard file, serialised once: a match that keeps
/// its `--out` file as it goes serialises each pair when it finishes, not
/// every pair at every write.
pub struct PairJson(Box<serde_json::value::RawValue>);

impl PairJson {
    /// The text of pair `p` (floats written so they read back to the same
    /// bits).
    pub fn of(p: &PairOutcome) -> PairJson {
        let engine = EngineNumber::of;
        let pair = PairFile {
            dice_seed: p.dice_seed,
            games: p
                .games
                .iter()
                .map(|g| GameFile {
                    cube: Some([g.cube[0].as_array(), g.cube[1].as_array()]),
                    forfeit: g.forfeit.as_ref().map(|(w, why)| (engine(*w), why.clone())),
                    luck: g.luck,
                    points: g.points,
                    result_points: Some(g.result_points),
                    white_engine: engine(g.white_engine),
                    winner: g.winner.map(|(w, m)| (engine(w), m)),
                })
                .collect(),
            matches: p
                .matches
                .iter()
                .map(|m| MatchFile {
                    score: m.score,
                    white_engine: engine(m.white_engine),
                    winner: m.winner.map(engine),
                })
                .collect(),
            pair: p.pair,
        };
        // Plain data (non-finite luck is written as null, as serde_json
        // always has): serialising it cannot fail.
        PairJson(
            serde_json::value::to_raw_value(&pair)
                .unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned()),
        )
    }
}

/// The text of the shard file of `key` and `shard` whose pairs have the
/// texts `pairs` (in pair order), `"partial":true` when `partial`: the
/// same text as [`MatchShard::to_json`] of the same pairs.
pub fn shard_json<'a>(
    key: &MatchKey,
    shard: Shard,
    partial: bool,
    pairs: impl IntoIterator<Item = &'a PairJson>,
) -> String {
    let file = ShardFile {
        engines: key.names.clone(),
        format: FORMAT.to_string(),
        games: key.games,
        luck_adjust: key.luck_adjust,
        options: key.options.clone(),
        pairs: pairs.into_iter().map(|p| &*p.0).collect::<Vec<_>>(),
        partial,
        rules: key.rules.clone(),
        seed: key.seed,
        session: Some(SessionText(key.session)),
        shard: [shard.index as u64, shard.count as u64],
        variant: key.variant,
    };
    // Plain data: serialising it cannot fail.
    serde_json::to_string(&file).unwrap_or_default()
}

impl MatchKey {
    /// The first field in which `self` (a file's) differs from `ours`:
    /// its name, its value here and there.
    pub fn difference(&self, ours: &MatchKey) -> Option<(&'static str, String, String)> {
        let (t, o) = (self, ours);
        differs("engines", &t.names, &o.names, |n| n.join(" vs "))
            .or_else(|| differs("variant", &t.variant, &o.variant, ToString::to_string))
            .or_else(|| differs("rules", &t.rules, &o.rules, |r| r.join(" ")))
            .or_else(|| differs("seed", &t.seed, &o.seed, ToString::to_string))
            .or_else(|| differs("games", &t.games, &o.games, ToString::to_string))
            .or_else(|| {
                differs(
                    "luck_adjust",
                    &t.luck_adjust,
                    &o.luck_adjust,
                    ToString::to_string,
                )
            })
            .or_else(|| differs("session", &t.session, &o.session, ToString::to_string))
            // A file written before the options were recorded matches any.
            .or_else(|| match (&t.options, &o.options) {
                (Some(a), Some(b)) => differs("options", a, b, |o| {
                    format!("[{}] vs [{}]", o[0].join(" "), o[1].join(" "))
                }),
                _ => None,
            })
    }
}

/// `Some((name, theirs, ours))`, shown by `show`, when the two differ.
fn differs<T: PartialEq>(
    name: &'static str,
    theirs: &T,
    ours: &T,
    show: impl Fn(&T) -> String,
) -> Option<(&'static str, String, String)> {
    (theirs != ours).then(|| (name, show(theirs), show(ours)))
}

impl MatchShard {
    /// The shard as one JSON object (pairs in order; floats written so
    /// they read back to the same bits).
    pub fn to_json(&self) -> String {
        let pairs: Vec<PairJson> = self.pairs.iter().map(PairJson::of).collect();
        shard_json(&self.key, self.shard, self.partial, &pairs)
    }

    /// Reads a shard file's text (`file` names it in errors).
    pub fn from_json(file: &str, text: &str) -> Result<MatchShard, ShardError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format_error(file, FormatError::Json(e)))?;
        MatchShard::from_value(file, &v)
    }

    /// [`MatchShard::from_json`] of JSON already parsed.
    pub fn from_value(file: &str, v: &serde_json::Value) -> Result<MatchShard, ShardError> {
        let why = |why: FormatError| format_error(file, why);
        if v["format"] != FORMAT {
            return Err(why(FormatError::NoFormat(FORMAT)));
        }
        let f = <ShardFile<PairFile> as serde::Deserialize>::deserialize(v)
            .map_err(|e| why(FormatError::Fields(e)))?;
        let shard = shard_of(f.shard[0], f.shard[1]).map_err(why)?;
        let key = MatchKey {
            names: f.engines,
            variant: f.variant,
            rules: f.rules,
            seed: f.seed,
            games: f.games,
            luck_adjust: f.luck_adjust,
            session: f.session.map_or_else(SessionSpec::cubeless, |s| s.0),
            options: f.options,
        };
        let in_matches = key.session.match_length().is_some();
        let total_pairs = key.games.div_ceil(2).max(1);
        let mut pairs = Vec::new();
        for p in f.pairs {
            pairs.push(pair_of(p, &shard, total_pairs, in_matches).map_err(why)?);
        }
        Ok(MatchShard {
            key,
            shard,
            pairs,
            partial: f.partial,
        })
    }
}

/// `file` is not a match shard: `why`.
fn format_error(file: &str, why: FormatError) -> ShardError {
    ShardError::Format {
        file: file.to_string(),
        kind: ShardKind::Match,
        why,
    }
}

/// A pair of a shard file, checked: one of `shard`'s of `total_pairs`,
/// with two games or (`in_matches`) two matches, points and results in
/// range (its engine numbers were checked as it was read).
fn pair_of(
    p: PairFile,
    shard: &Shard,
    total_pairs: usize,
    in_matches: bool,
) -> Result<PairOutcome, FormatError> {
    let pair = p.pair;
    if pair >= total_pairs || !shard.owns(pair) {
        return Err(FormatError::NotTheShards {
            unit: "pair",
            index: pair as u64,
            shard: *shard,
        });
    }
    let mut games = Vec::new();
    for g in p.games {
        if g.points.unsigned_abs() > 3 * crate::cube::state::MAX_CUBE {
            let most = i64::from(3 * crate::cube::state::MAX_CUBE);
            return Err(FormatError::OutOfRange {
                field: "points",
                value: i64::from(g.points),
                range: (-most, most),
            });
        }
        let result_points = match g.result_points {
            None => g.points.unsigned_abs() as u8,
            Some(r) if r <= 3 => r,
            Some(r) => {
                return Err(FormatError::OutOfRange {
                    field: "result_points",
                    value: i64::from(r),
                    range: (0, 3),
                });
            }
        };
        let cube = g.cube.unwrap_or_default();
        games.push(super::GameSummary {
            white_engine: g.white_engine.index(),
            points: g.points,
            winner: g.winner.map(|(w, m)| (w.index(), m)),
            forfeit: g.forfeit.map(|(w, why)| (w.index(), why)),
            luck: g.luck,
            cube: [
                CubeCounts::from_array(cube[0]),
                CubeCounts::from_array(cube[1]),
            ],
            result_points,
        });
    }
    let matches: Vec<MatchResult> = p
        .matches
        .into_iter()
        .map(|m| MatchResult {
            white_engine: m.white_engine.index(),
            winner: m.winner.map(EngineNumber::index),
            score: m.score,
        })
        .collect();
    let (parts, got) = if in_matches {
        ("matches", matches.len())
    } else {
        ("games", games.len())
    };
    if got != 2 {
        return Err(FormatError::Parts {
            unit: "pair",
            index: pair as u64,
            parts,
            got,
            want: 2,
        });
    }
    Ok(PairOutcome {
        pair,
        dice_seed: p.dice_seed,
        games,
        matches,
    })
}

/// Combines the shards of one match (`(file name, shard)`, any order)
/// into the whole match's pairs, after checking that they are one job's
/// and that every shard is there once. Every pair must be there unless a
/// file is partial (a stopped run's): then the merge is partial too.
pub fn merge(shards: Vec<(String, MatchShard)>) -> Result<MatchShard, ShardError> {
    let Some((_, first)) = shards.first() else {
        return Err(ShardError::NoFiles);
    };
    let key = first.key.clone();
    let mut tally = ShardTally::new(first.shard.count);
    let mut pairs = Vec::new();
    let mut partial = false;
    for (file, s) in shards {
        if let Some((field, theirs, ours)) = s.key.difference(&key) {
            return Err(ShardError::Mismatch {
                file,
                field,
                theirs,
                ours,
            });
        }
        tally.add(&file, s.shard)?;
        partial |= s.partial;
        pairs.extend(s.pairs);
    }
    tally.finish()?;
    pairs.sort_by_key(|p| p.pair);
    if let Some(w) = pairs.windows(2).find(|w| w[0].pair == w[1].pair) {
        return Err(ShardError::UnitTwice {
            unit: "pair",
            index: w[0].pair as u64,
        });
    }
    let total = key.games.div_ceil(2).max(1);
    if pairs.len() != total && !partial {
        return Err(ShardError::UnitsMissing {
            job: "match",
            unit: "pair",
            got: pairs.len(),
            want: total as u64,
        });
    }
    Ok(MatchShard {
        key,
        shard: Shard::WHOLE,
        partial: pairs.len() < total,
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
    if whole.partial {
        report.partial = Some([whole.pairs.len(), whole.key.games.div_ceil(2).max(1)]);
    }
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
        // One engine, an engine number 2, a result of 4 points.
        let good = r#"{"engines":["a","b"],"format":"gulbara-match-shard-1","games":2,"luck_adjust":false,"pairs":[{"dice_seed":7,"games":[{"cube":[[0,0,0,0],[0,0,0,0]],"forfeit":null,"luck":[0.5,-0.25],"points":1,"result_points":1,"white_engine":0,"winner":[0,false]},{"cube":[[0,0,0,0],[0,0,0,0]],"forfeit":[1,"timeout"],"luck":[0.0,0.0],"points":1,"result_points":0,"white_engine":1,"winner":[0,false]}],"matches":[],"pair":0}],"rules":[],"seed":3,"session":"money cube off jacoby off beavers off","shard":[0,1],"variant":"gulbara"}"#;
        let shard = MatchShard::from_json("f.json", good).unwrap();
        assert_eq!(shard.to_json(), good);
        for (from, to, want) in [
            (
                r#""engines":["a","b"]"#,
                r#""engines":["a"]"#,
                "f.json: not a gulbara match shard: invalid length 1, expected an array of length 2",
            ),
            (
                r#""white_engine":1"#,
                r#""white_engine":2"#,
                "f.json: not a gulbara match shard: engine number 2: not 0 or 1",
            ),
            (
                r#""result_points":1"#,
                r#""result_points":4"#,
                "f.json: not a gulbara match shard: result_points: 4 is not 0..=3",
            ),
            (
                r#""pair":0"#,
                r#""pair":1"#,
                "f.json: not a gulbara match shard: pair 1 is not one of shard 0/1's",
            ),
            (
                r#""variant":"gulbara""#,
                r#""variant":"chess""#,
                "got 'chess'",
            ),
            (
                r#""session":"money"#,
                r#""session":"cash"#,
                "bad session 'cash",
            ),
        ] {
            let e = MatchShard::from_json("f.json", &good.replace(from, to)).unwrap_err();
            assert!(
                matches!(
                    e,
                    ShardError::Format {
                        kind: ShardKind::Match,
                        ..
                    }
                ),
                "{e:?}"
            );
            assert!(e.to_string().contains(want), "{e}");
        }
        // Files of before the cube: no cube, no result points.
        let old = good
            .replace(r#""cube":[[0,0,0,0],[0,0,0,0]],"#, "")
            .replace(r#""result_points":0,"#, "");
        let read = MatchShard::from_json("f.json", &old).unwrap();
        assert_eq!(read.pairs[0].games[1].result_points, 1);
        assert!(matches!(merge(vec![]), Err(ShardError::NoFiles)));
    }
}
