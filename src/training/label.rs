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
//!   0-ply judgement differ by more than a threshold in equity.
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
use crate::rules::game::{SeededDice, open_game};
use crate::rules::{GameState, Pending, RuleOptions, Variant};
use crate::search::Search;
use crate::splitmix::SplitMix;

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
        if s.result().is_none() && s.pending == Pending::Roll && seen.insert(*s) {
            found.push((kind, *s));
        }
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
                        use crate::rules::game::DiceSource;
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
pub fn parse_positions(text: &str, variant: Variant, name: &str) -> anyhow::Result<Vec<GameState>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = line.split_once('\t').map_or(line, |(_, p)| p);
        let s = crate::notation::parse_state_text_in(variant, pos)
            .map_err(|e| anyhow::anyhow!("{name}:{}: not a position: {e}", n + 1))?;
        out.push(s);
    }
    Ok(out)
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
