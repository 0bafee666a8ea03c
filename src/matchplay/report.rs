//! A match's report: how each game and pair went, and the figures over
//! all pairs (wins, gammons, ppg with its standard error, luck, the cube,
//! matches won), as text or JSON.

#[allow(clippy::wildcard_imports)]
use super::*;

/// How one game went, with its record.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Pair number (from 0).
    pub pair: usize,
    /// How it went.
    pub summary: GameSummary,
    /// The record of the game.
    pub record: RecordedGame,
    /// The dice seed of the pair.
    pub dice_seed: u64,
}

/// How one game went, without its record: what a shard file keeps and
/// the report counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Which engine played White.
    pub white_engine: usize,
    /// Points for engine 0 (negative when engine 1 won).
    pub points: i32,
    /// Winner engine and whether it was a mars (two points or more; in
    /// backgammon a gammon or a backgammon).
    pub winner: Option<(usize, bool)>,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, String)>,
    /// Sum of each engine's luck (equity) over its rolls.
    pub luck: [f64; 2],
    /// Each engine's cube actions.
    pub cube: [CubeCounts; 2],
    /// The game's result before the cube: 1 single, 2 gammon or mars, 3
    /// backgammon; 0 with no winner, or a dropped double or forfeit.
    pub result_points: u8,
}

/// A mirrored pair's two games, or its two matches' games.
#[derive(Clone, Debug, PartialEq)]
pub struct PairOutcome {
    /// Pair number (from 0).
    pub pair: usize,
    /// The dice seed of the pair.
    pub dice_seed: u64,
    /// Its games, engine 0 playing White first (in matches: the first
    /// match's games, then the second's).
    pub games: Vec<GameSummary>,
    /// Its two matches, engine 0 playing White in the first; empty in
    /// money play.
    pub matches: Vec<MatchResult>,
}

impl GameOutcome {
    /// The result without the record.
    pub fn result(&self) -> GameSummary {
        self.summary.clone()
    }
}

/// The final report.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Engine names.
    pub names: [String; 2],
    /// The game played (in a rotating match, its first game).
    pub variant: Variant,
    /// A rotating match's games, in order (empty without one).
    pub rotation: Vec<Variant>,
    /// In a match, the winner of each game started the next.
    pub winner_starts: bool,
    /// Games played.
    pub games: usize,
    /// Wins per engine.
    pub wins: [u32; 2],
    /// Mars wins per engine (wins worth two points or more: in backgammon
    /// gammons and backgammons).
    pub mars: [u32; 2],
    /// Backgammon wins (three points) per engine; zero in the other games.
    pub backgammons: [u32; 2],
    /// Games ended by the stuck rule.
    pub stuck: u32,
    /// Forfeits per engine (crash, timeout, illegal move).
    pub forfeits: [u32; 2],
    /// The session the pairs were played in.
    pub session: SessionSpec,
    /// The matches, when pairs were matches.
    pub matches: Option<MatchTally>,
    /// Each engine's cube actions.
    pub cube: [CubeCounts; 2],
    /// Engine 0's points per game (with the cube: the points it scored).
    pub ppg: f64,
    /// Its standard error over mirrored pairs.
    pub se: f64,
    /// Luck-adjusted ppg and its standard error, when asked for.
    pub luck_ppg: Option<(f64, f64)>,
    /// The SPRT outcome, when asked for.
    pub sprt: Option<SprtState>,
    /// Forfeit reasons (first few).
    pub forfeit_log: Vec<String>,
    /// Of a merge with a partial file (a stopped run's): the pairs there
    /// and the pairs of the whole match.
    pub partial: Option<[usize; 2]>,
    /// Record files that could not be written (`--records`): the file and
    /// why, the first few. Empty when every record was written.
    pub record_errors: Vec<String>,
    /// Every finished pair, in pair order (what `--out` writes).
    pub pairs: Vec<PairOutcome>,
}

impl MatchReport {
    /// The report of `pairs` (whole pairs, in pair order): the same
    /// arithmetic in the same order for a match played in one process and
    /// for its shards merged.
    pub fn tally(
        names: [String; 2],
        variant: Variant,
        session: SessionSpec,
        pairs: &[PairOutcome],
        luck_adjust: bool,
    ) -> MatchReport {
        let mut report = MatchReport {
            names,
            variant,
            rotation: Vec::new(),
            winner_starts: false,
            session,
            matches: None,
            cube: Default::default(),
            games: 0,
            wins: [0; 2],
            mars: [0; 2],
            backgammons: [0; 2],
            stuck: 0,
            forfeits: [0; 2],
            ppg: 0.0,
            se: 0.0,
            luck_ppg: None,
            sprt: None,
            forfeit_log: Vec::new(),
            partial: None,
            record_errors: Vec::new(),
            pairs: pairs.to_vec(),
        };
        if let Some(length) = session.match_length() {
            let matches: Vec<&[MatchResult]> = pairs.iter().map(|p| p.matches.as_slice()).collect();
            report.matches = Some(MatchTally::of(length, &matches));
        }
        let mut pair_points = Vec::with_capacity(pairs.len());
        let mut pair_adjusted = Vec::with_capacity(pairs.len());
        let mut total = 0i64;
        for p in pairs {
            for g in &p.games {
                report.games += 1;
                total += i64::from(g.points);
                for e in 0..2 {
                    report.cube[e].add(&g.cube[e]);
                }
                if let Some((w, mars)) = g.winner {
                    report.wins[w] += 1;
                    if mars {
                        report.mars[w] += 1;
                    }
                    if g.result_points == 3 {
                        report.backgammons[w] += 1;
                    }
                } else if g.forfeit.is_none() {
                    report.stuck += 1;
                }
                if let Some((f, why)) = &g.forfeit {
                    report.forfeits[*f] += 1;
                    if report.forfeit_log.len() < 20 {
                        report.forfeit_log.push(why.clone());
                    }
                }
            }
            // Per game of the pair (a pair of matches has more than two).
            let n = p.games.len().max(1) as f64;
            pair_points.push(p.games.iter().map(|g| f64::from(g.points)).sum::<f64>() / n);
            pair_adjusted.push(
                p.games
                    .iter()
                    .map(|g| f64::from(g.points) - (g.luck[0] - g.luck[1]))
                    .sum::<f64>()
                    / n,
            );
        }
        report.ppg = if report.games > 0 {
            total as f64 / report.games as f64
        } else {
            0.0
        };
        report.se = mean_se(&pair_points).1;
        if luck_adjust {
            report.luck_ppg = Some(mean_se(&pair_adjusted));
        }
        report
    }

    /// The summary as one JSON object.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::json!({
            "engines": self.names,
            "variant": self.variant.to_string(),
            "games": self.games,
            "wins": self.wins,
            "mars": self.mars,
            "stuck": self.stuck,
            "forfeits": self.forfeits,
            "ppg": self.ppg,
            "se": self.se,
            "ci95": [self.ppg - 1.96 * self.se, self.ppg + 1.96 * self.se],
        });
        if self.variant.spec().scores.triple.is_some() {
            v["backgammons"] = serde_json::json!(self.backgammons);
        }
        if let Some((p, s)) = self.luck_ppg {
            v["luck_adjusted_ppg"] = serde_json::json!(p);
            v["luck_adjusted_se"] = serde_json::json!(s);
        }
        if let Some(s) = self.sprt {
            v["sprt"] = serde_json::json!(format!("{s:?}"));
        }
        v["session"] = serde_json::json!(self.session.to_string());
        if let Some([got, of]) = self.partial {
            v["partial"] = serde_json::json!({ "pairs": got, "of": of });
        }
        if !self.rotation.is_empty() {
            v["rotation"] = serde_json::json!(Variant::list_text(&self.rotation));
        }
        if self.matches.is_some() {
            v["next_starter"] = serde_json::json!(if self.winner_starts {
                "winner"
            } else {
                "throw"
            });
        }
        if let Some(m) = &self.matches {
            v["matches"] = serde_json::json!({
                "length": m.length,
                "played": m.played,
                "wins": m.wins,
                "unfinished": m.unfinished,
                "share": m.share,
                "se": m.se,
            });
        }
        if self.session.0.rules().cube {
            let c = |f: fn(&CubeCounts) -> u32| [f(&self.cube[0]), f(&self.cube[1])];
            v["cube"] = serde_json::json!({
                "doubles": c(|x| x.doubles),
                "takes": c(|x| x.takes),
                "drops": c(|x| x.drops),
                "beavers": c(|x| x.beavers),
            });
        }
        v.to_string()
    }

    /// The summary for people (the variant on a line of its own after the
    /// first, for the games other than Gul bara).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "games {}  {} vs {}\nwins {} - {}  (mars {} - {})  stuck {}  forfeits {} - {}\nppg {:+.3} ± {:.3} (95% {:+.3} .. {:+.3})\n",
            self.games,
            self.names[0],
            self.names[1],
            self.wins[0],
            self.wins[1],
            self.mars[0],
            self.mars[1],
            self.stuck,
            self.forfeits[0],
            self.forfeits[1],
            self.ppg,
            self.se,
            self.ppg - 1.96 * self.se,
            self.ppg + 1.96 * self.se
        );
        if self.session != SessionSpec::cubeless() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, &format!("session {}\n", self.session));
        }
        if !self.rotation.is_empty() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(
                at,
                &format!("rotation {}\n", Variant::list_text(&self.rotation)),
            );
        } else if self.variant != Variant::default() {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, &format!("variant {}\n", self.variant));
        }
        if self.winner_starts {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(at, "the winner of each game started the next\n");
        }
        if let Some([got, of]) = self.partial {
            let at = s.find('\n').map_or(s.len(), |i| i + 1);
            s.insert_str(
                at,
                &format!("partial: {got} of {of} pairs (a match stopped early)\n"),
            );
        }
        if self.variant.spec().scores.triple.is_some() {
            s.push_str(&format!(
                "backgammons {} - {}\n",
                self.backgammons[0], self.backgammons[1]
            ));
        }
        if let Some((p, e)) = self.luck_ppg {
            s.push_str(&format!("luck-adjusted ppg {p:+.3} ± {e:.3}\n"));
        }
        if let Some(st) = self.sprt {
            s.push_str(&format!("sprt {st:?}\n"));
        }
        if let Some(m) = &self.matches {
            s.push_str(&format!(
                "matches {} to {}  {} {} - {} {}{}\nmatch wins {:.1}% ± {:.1}% (95% {:.1}% .. {:.1}%)\n",
                m.played,
                m.length,
                self.names[0],
                m.wins[0],
                m.wins[1],
                self.names[1],
                if m.unfinished > 0 {
                    format!("  unfinished {}", m.unfinished)
                } else {
                    String::new()
                },
                100.0 * m.share,
                100.0 * m.se,
                100.0 * (m.share - 1.96 * m.se).max(0.0),
                100.0 * (m.share + 1.96 * m.se).min(1.0),
            ));
        }
        if self.session.0.rules().cube {
            let [a, b] = self.cube;
            s.push_str(&format!(
                "cube  doubles {} - {}  takes {} - {}  drops {} - {}  beavers {} - {}\n",
                a.doubles, b.doubles, a.takes, b.takes, a.drops, b.drops, a.beavers, b.beavers
            ));
        }
        for f in &self.forfeit_log {
            s.push_str(&format!("forfeit: {f}\n"));
        }
        s
    }
}
