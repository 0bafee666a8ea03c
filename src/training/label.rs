//! Data for supervised training: positions found by self-play, then
//! labelled by rollouts.
//!
//! **Finding** ([`find_positions`]) plays seeded self-play games with the
//! variant's network at 0-ply. Every turn's candidates are judged at 0-ply,
//! and these before-roll positions (the opponent to roll) are kept:
//! - `best`: the end of the best turn, for a sample of turns;
//! - `played`: the end actually played, where it is not the best (the
//!   self-play explores: now and then it plays one of the top few turns);
//! - `middle`: the end of a middle-ranked turn, for a sample of turns;
//! - `phase`: the best turn's end where it changes the game's phase
//!   (contact to no contact, or into an all-home race), and the best
//!   candidate that changes it where the best turn does not;
//! - `discrepancy`: the best turn's end where its 1-ply judgement and its
//!   0-ply judgement differ by more than a threshold in equity;
//! - `turn` and `sibling` (only where asked for): the ends of a sample of
//!   turns' top few plays, together: `turn` the first of them, `sibling`
//!   each other. A sibling is labelled with its `turn`'s dice, so the
//!   labels of a turn's plays share their luck and their differences,
//!   which decide play, are far less noisy than the labels themselves.
//!
//! A position found twice is kept once, under its first kind. The list is
//! a pure function of the settings.
//!
//! **Labelling** ([`label_position`]) rolls a position out before its roll
//! with the project's rollouts (stratified dice, the luck correction,
//! optional truncation), seeded by the position's index, so a label never
//! depends on which shard or sitting computed it.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use crate::analysis::rollout::{Rollout, RolloutParams, before_roll_root};
use crate::eval::Evaluator;
use crate::rules::EvalFamily;
use crate::rules::dice::{SeededDice, open_game};
use crate::rules::{GameState, Pending, RuleOptions, Variant};
use crate::search::Search;
use crate::splitmix::SplitMix;
use crate::training::TrainError;

/// Why a position was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoundKind {
    /// The end of the best 0-ply turn.
    Best,
    /// The end of the turn played, where it is not the best.
    Played,
    /// The end of a middle-ranked turn.
    Middle,
    /// A turn's end that changes the game's phase.
    Phase,
    /// The best end, where 0-ply and 1-ply disagree.
    Discrepancy,
    /// The first of a turn's top plays' ends kept together.
    Turn,
    /// Another of those ends, labelled with the dice of the `turn` above it.
    Sibling,
}

impl FoundKind {
    /// The word in a positions file.
    pub fn word(self) -> &'static str {
        match self {
            FoundKind::Best => "best",
            FoundKind::Played => "played",
            FoundKind::Middle => "middle",
            FoundKind::Phase => "phase",
            FoundKind::Discrepancy => "discrepancy",
            FoundKind::Turn => "turn",
            FoundKind::Sibling => "sibling",
        }
    }

    /// The kind a word names.
    pub fn from_word(w: &str) -> Option<FoundKind> {
        [
            FoundKind::Best,
            FoundKind::Played,
            FoundKind::Middle,
            FoundKind::Phase,
            FoundKind::Discrepancy,
            FoundKind::Turn,
            FoundKind::Sibling,
        ]
        .into_iter()
        .find(|k| k.word() == w)
    }
}

/// Settings of position finding.
#[derive(Clone, Debug)]
pub struct FindConfig {
    /// Self-play games.
    pub games: u64,
    /// Seed of the dice and of the sampling.
    pub seed: u64,
    /// Chain beam of the self-play's turns.
    pub beam: usize,
    /// Share of turns whose best end is kept.
    pub best_share: f64,
    /// Share of turns whose middle-ranked end is kept.
    pub middle_share: f64,
    /// Share of turns where the self-play plays one of the top few turns
    /// at random instead of the best.
    pub explore_share: f64,
    /// How many of the top turns exploring picks from.
    pub explore_top: usize,
    /// The equity gap between 1-ply and 0-ply that makes a discrepancy
    /// (0: none looked for).
    pub discrepancy: f32,
    /// Share of turns whose top plays' ends are kept together as a `turn`
    /// and its `sibling`s (0: none; then the sampling draws exactly as
    /// before this existed, so older generations are found again alike).
    pub sibling_share: f64,
    /// How many of a turn's top plays such a group keeps.
    pub siblings: usize,
}

impl Default for FindConfig {
    fn default() -> Self {
        FindConfig {
            games: 1000,
            seed: 1,
            beam: 4,
            best_share: 0.25,
            middle_share: 0.1,
            explore_share: 0.1,
            explore_top: 4,
            discrepancy: 0.08,
            sibling_share: 0.0,
            siblings: 4,
        }
    }
}

/// A coarse phase of the game: whether the sides can still meet, and
/// whether both have every checker home.
fn phase(state: &GameState) -> (bool, bool) {
    let contact = match state.variant.spec().eval {
        EvalFamily::Hitting | EvalFamily::Pinning => {
            crate::eval::hitnet::contact(state.pos.own, state.pos.opp)
        }
        // A running game has no hits; its contact ends with the race
        // tables' all-home positions.
        _ => !crate::eval::race::is_race(state),
    };
    (contact, crate::eval::race::is_race(state))
}

/// True with probability `p`.
fn chance(rng: &mut SplitMix, p: f64) -> bool {
    ((rng.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
}

/// Finds before-roll positions by self-play (see the module's words), in
/// the order found, each with its kind; `progress` is called after every
/// game with the games done.
pub fn find_positions(
    eval: &dyn Evaluator,
    opts: &RuleOptions,
    cfg: &FindConfig,
    progress: &mut dyn FnMut(u64),
) -> Vec<(FoundKind, GameState)> {
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, *opts, &stop);
    let mut seen: HashSet<GameState> = HashSet::new();
    let mut found = Vec::new();
    let mut keep = |kind: FoundKind, s: &GameState, found: &mut Vec<(FoundKind, GameState)>| {
        let new = s.result().is_none() && s.pending == Pending::Roll && seen.insert(*s);
        if new {
            found.push((kind, *s));
        }
        new
    };
    for g in 0..cfg.games {
        let game_seed = crate::splitmix::nth(cfg.seed, g);
        let mut dice = SeededDice::new(game_seed);
        let mut pick = SplitMix::new(game_seed ^ 0x51A7_E5EE_D000_0001);
        let opened = open_game(opts, &mut dice);
        let mut first_roll = opened.first_roll;
        let mut state = GameState::start_of(opts.variant, opened.starter);
        let mut turns = 0;
        while state.result().is_none() && turns < 2000 {
            turns += 1;
            let start = match state.pending {
                Pending::Roll => {
                    let (a, b) = first_roll.take().unwrap_or_else(|| {
                        use crate::rules::dice::DiceSource;
                        (dice.die(), dice.die())
                    });
                    match state.roll(opts, a, b) {
                        Ok(s) => s,
                        Err(_) => break,
                    }
                }
                _ => state,
            };
            let cands = search.turns(&start, cfg.beam);
            let Some(best) = cands.first() else { break };
            let n = cands.len();
            // Drawn only when asked for, so that the draws below, and the
            // generations found before groups existed, stay as they were.
            if cfg.sibling_share > 0.0 && n >= 2 && chance(&mut pick, cfg.sibling_share) {
                // The first end kept is the `turn`, the rest its siblings;
                // an end found before is not kept again.
                let mut kind = FoundKind::Turn;
                for c in cands.iter().take(cfg.siblings.max(2)) {
                    if keep(kind, &c.end, &mut found) {
                        kind = FoundKind::Sibling;
                    }
                }
            }
            if chance(&mut pick, cfg.best_share) {
                keep(FoundKind::Best, &best.end, &mut found);
            }
            if n >= 3 && chance(&mut pick, cfg.middle_share) {
                keep(FoundKind::Middle, &cands[n / 2].end, &mut found);
            }
            let before = phase(&state);
            if phase(&best.end) != before {
                keep(FoundKind::Phase, &best.end, &mut found);
            } else if let Some(c) = cands.iter().find(|c| phase(&c.end) != before) {
                keep(FoundKind::Phase, &c.end, &mut found);
            }
            if cfg.discrepancy > 0.0 && best.end.result().is_none() {
                let zero = search.before_roll(&best.end, 0, cfg.beam).equity();
                let one = search.before_roll(&best.end, 1, cfg.beam).equity();
                if (zero - one).abs() > cfg.discrepancy {
                    keep(FoundKind::Discrepancy, &best.end, &mut found);
                }
            }
            let played = if n > 1 && chance(&mut pick, cfg.explore_share) {
                let i = pick.below(n.min(cfg.explore_top.max(1)));
                if i > 0 {
                    keep(FoundKind::Played, &cands[i].end, &mut found);
                }
                cands[i].end
            } else {
                best.end
            };
            state = played;
        }
        progress(g + 1);
    }
    found
}

/// The positions of a positions file's `text` (`kind<TAB>position text`
/// lines, or bare position text; `#` lines are comments), in order; `name`
/// names the file in errors.
pub fn parse_positions(
    text: &str,
    variant: Variant,
    name: &str,
) -> Result<Vec<GameState>, TrainError> {
    Ok(parse_found(text, variant, name)?
        .into_iter()
        .map(|(_, s)| s)
        .collect())
}

/// The positions of a positions file's `text` as [`parse_positions`]
/// reads them, each with its kind where its line names one (an unknown
/// word is an error: it would change how the file is labelled).
pub fn parse_found(
    text: &str,
    variant: Variant,
    name: &str,
) -> Result<Vec<(Option<FoundKind>, GameState)>, TrainError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, pos) = match line.split_once('\t') {
            Some((word, pos)) => {
                let kind =
                    FoundKind::from_word(word.trim()).ok_or_else(|| TrainError::UnknownKind {
                        name: name.to_string(),
                        line: n + 1,
                        word: word.to_string(),
                    })?;
                (Some(kind), pos)
            }
            None => (None, line),
        };
        let s = crate::notation::parse_state_text_in(variant, pos).map_err(|why| {
            TrainError::NotAPosition {
                name: name.to_string(),
                line: n + 1,
                why,
            }
        })?;
        out.push((kind, s));
    }
    Ok(out)
}

/// The index whose seed labels each position: its own, but a `sibling`'s
/// is that of the nearest `turn` above it, so a turn's plays are rolled
/// out with the same dice (a sibling with no `turn` above keeps its own).
pub fn seed_indices(kinds: &[Option<FoundKind>]) -> Vec<u64> {
    let mut head = None;
    kinds
        .iter()
        .enumerate()
        .map(|(i, k)| match k {
            Some(FoundKind::Sibling) => head.unwrap_or(i) as u64,
            Some(FoundKind::Turn) => {
                head = Some(i);
                i as u64
            }
            _ => {
                head = None;
                i as u64
            }
        })
        .collect()
}

/// Settings of a label's rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelConfig {
    /// Trials per position.
    pub games: u32,
    /// Plies per trial before the evaluator scores it (0: to the end).
    pub truncate: u32,
    /// The players' gnubg ply (0 or 1).
    pub plies: u8,
    /// The seed the positions' own seeds come from.
    pub seed: u64,
}

/// A position's label: the rolled-out chances of the side to roll (win,
/// win mars, lose mars, win backgammon, lose backgammon), luck-corrected,
/// with the equity's standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    /// The five chances.
    pub probs: [f64; 5],
    /// The cubeless equity.
    pub equity: f64,
    /// Its standard error over the trials.
    pub se: f64,
}

/// Rolls out `state` (before its roll) for the label of position `index`.
pub fn label_position(
    eval: &dyn Evaluator,
    opts: &RuleOptions,
    state: &GameState,
    index: u64,
    cfg: &LabelConfig,
) -> Label {
    let params = RolloutParams {
        games: cfg.games,
        truncate: cfg.truncate,
        plies: cfg.plies,
        seed: crate::splitmix::nth(cfg.seed, index),
        luck: true,
        threads: 1,
        every: 0,
    };
    let ro = Rollout::new(eval, *opts, params);
    let stop = AtomicBool::new(false);
    let stats = ro.run(&[before_roll_root(state)], &stop, None, &|_| {});
    let s = &stats[0];
    let p = s.probs();
    Label {
        probs: p.map(|x| x.clamp(0.0, 1.0)),
        equity: s.equity(),
        se: s.se(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_is_reproducible_and_keeps_before_roll_positions_once() {
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let eval = crate::eval::variants::baseline_shared(Variant::Backgammon);
        let cfg = FindConfig {
            games: 3,
            discrepancy: 0.0,
            ..FindConfig::default()
        };
        let a = find_positions(eval.as_ref(), &opts, &cfg, &mut |_| {});
        let b = find_positions(eval.as_ref(), &opts, &cfg, &mut |_| {});
        assert!(a.len() > 10, "{} positions", a.len());
        assert_eq!(a, b);
        let distinct: HashSet<GameState> = a.iter().map(|(_, s)| *s).collect();
        assert_eq!(distinct.len(), a.len());
        for (_, s) in &a {
            assert_eq!(s.pending, Pending::Roll);
            assert!(s.result().is_none());
        }
        let kinds: HashSet<FoundKind> = a.iter().map(|(k, _)| *k).collect();
        assert!(kinds.contains(&FoundKind::Best) && kinds.contains(&FoundKind::Middle));
    }

    #[test]
    fn a_sibling_takes_the_seed_of_the_turn_above_it() {
        use FoundKind::*;
        let kinds = [
            Some(Best),
            Some(Turn),
            Some(Sibling),
            Some(Sibling),
            Some(Middle),
            Some(Sibling),
            None,
            Some(Turn),
            Some(Sibling),
            Some(Turn),
            Some(Sibling),
        ];
        assert_eq!(seed_indices(&kinds), [0, 1, 1, 1, 4, 5, 6, 7, 7, 9, 9]);
        assert_eq!(seed_indices(&[Some(Sibling)]), [0]);
        assert!(seed_indices(&[]).is_empty());
    }

    #[test]
    fn groups_are_a_turns_top_plays_and_leave_the_other_kinds_alone() {
        let opts = RuleOptions::for_variant(Variant::ShortNardy);
        let eval = crate::eval::variants::baseline_shared(Variant::ShortNardy);
        let plain = FindConfig {
            games: 2,
            discrepancy: 0.0,
            ..FindConfig::default()
        };
        let grouped = FindConfig {
            sibling_share: 0.5,
            best_share: 0.0,
            middle_share: 0.0,
            ..plain.clone()
        };
        let found = find_positions(eval.as_ref(), &opts, &grouped, &mut |_| {});
        let kinds: Vec<FoundKind> = found.iter().map(|(k, _)| *k).collect();
        assert!(kinds.contains(&FoundKind::Turn) && kinds.contains(&FoundKind::Sibling));
        assert!(!kinds.contains(&FoundKind::Best) && !kinds.contains(&FoundKind::Middle));
        for (i, (k, s)) in found.iter().enumerate() {
            if *k != FoundKind::Sibling {
                continue;
            }
            // A sibling follows its turn or another sibling, and is the end
            // of the same turn: the same side to roll after the same rolls.
            let (before, t) = &found[i - 1];
            assert!(matches!(before, FoundKind::Turn | FoundKind::Sibling));
            assert_eq!((s.to_move, s.rolls), (t.to_move, t.rolls));
            assert_ne!(s.pos, t.pos);
        }
        let groups = kinds.iter().filter(|k| **k == FoundKind::Turn).count();
        let siblings = kinds.iter().filter(|k| **k == FoundKind::Sibling).count();
        assert!(
            siblings >= 2 * groups,
            "{groups} turns, {siblings} siblings"
        );
        // Without groups, the draws are those of a finding that never had them.
        let again = find_positions(eval.as_ref(), &opts, &plain, &mut |_| {});
        assert!(
            again
                .iter()
                .all(|(k, _)| !matches!(k, FoundKind::Turn | FoundKind::Sibling))
        );
    }

    #[test]
    fn a_label_is_the_rollout_of_its_index_seed_and_a_sure_win_is_labelled_so() {
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let eval = crate::eval::variants::baseline_shared(Variant::Backgammon);
        let cfg = LabelConfig {
            games: 36,
            truncate: 4,
            plies: 0,
            seed: 5,
        };
        let start = GameState::start_of(Variant::Backgammon, crate::rules::Side::White);
        let a = label_position(eval.as_ref(), &opts, &start, 7, &cfg);
        let b = label_position(eval.as_ref(), &opts, &start, 7, &cfg);
        assert_eq!(a, b);
        let c = label_position(eval.as_ref(), &opts, &start, 8, &cfg);
        assert_ne!(a, c, "another index rolls other dice");
        for p in a.probs {
            assert!((0.0..=1.0).contains(&p));
        }
        // White's last checker on its 2-point bears off with any roll, and
        // Black's fifteen still stand in White's home board: a backgammon.
        let mut won = "-15,1".to_string();
        won.push_str(&",0".repeat(22));
        won.push_str(" w 0 0");
        let s = crate::notation::parse_state_text_in(Variant::Backgammon, &won)
            .expect("the position parses");
        let l = label_position(eval.as_ref(), &opts, &s, 1, &cfg);
        // Every trial is a backgammon; the luck correction may move the
        // mean by the evaluator's small misjudgement of the root.
        let sure = [1.0, 1.0, 0.0, 1.0, 0.0];
        for (p, want) in l.probs.iter().zip(sure) {
            assert!((p - want).abs() < 0.01, "{l:?}");
        }
    }
}
