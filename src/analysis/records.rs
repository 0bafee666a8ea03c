//! Analysis of recorded games, like gnubg's: for every decision, the
//! engine's preferred turn and the equity the played turn gave up; per
//! player, the error rate (average equity lost per decision).

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use crate::analysis::rollout::{Rollout, RolloutParams, Root, Stats, fmt4};
use crate::eval::{Evaluator, Probs, probs_for};
use crate::notation::{apply_turn, play_text_at};
use crate::record::{RecordError, ReplayedGame, replay};
use crate::rules::skip_forced_empty;
use crate::rules::{EvalFamily, GameState, RuleOptions, Side, StageGen, Variant};
use crate::search::{Limits, Search};

/// One analysed decision.
#[derive(Clone, Debug)]
pub struct Decision {
    /// 1-based game number.
    pub game: usize,
    /// 1-based turn number within the game.
    pub turn: usize,
    /// The player's name.
    pub player: String,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// What was played.
    pub played: String,
    /// Its equity for the mover.
    pub played_equity: f32,
    /// The engine's preferred turn.
    pub best: String,
    /// Its equity.
    pub best_equity: f32,
    /// The side that decided.
    pub mover: Side,
    /// The state after the played turn.
    pub played_end: GameState,
    /// The state after the preferred turn.
    pub best_end: GameState,
    /// With `--rollout`, for a decision that lost equity: the rollouts of
    /// the played turn and of the preferred one (the same dice for both).
    pub rollout: Option<[Stats; 2]>,
}

impl Decision {
    /// Equity given up (never negative).
    pub fn loss(&self) -> f32 {
        (self.best_equity - self.played_equity).max(0.0)
    }
}

/// Per-player totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// Decisions (turns with more than one distinct outcome).
    pub decisions: usize,
    /// Total equity lost.
    pub total_loss: f64,
}

impl PlayerStats {
    /// Average equity lost per decision.
    pub fn error_rate(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.total_loss / self.decisions as f64
        }
    }
}

/// The analysis of a record.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The game of the record.
    pub variant: Variant,
    /// Every decision in order.
    pub decisions: Vec<Decision>,
    /// Totals per player name.
    pub players: BTreeMap<String, PlayerStats>,
}

impl Analysis {
    /// A report for people (a `variant <name>` line first for the games
    /// other than Gul bara).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        if self.variant != Variant::default() {
            s.push_str(&format!("variant {}\n", self.variant));
        }
        for d in &self.decisions {
            let head = match d.roll {
                Some((a, b)) => format!("{a}{b}"),
                None => "remainder".into(),
            };
            s.push_str(&format!(
                "game {} turn {} {} {}: played {} ({:+.3}); best {} ({:+.3}); lost {:.3}\n",
                d.game,
                d.turn,
                d.player,
                head,
                d.played,
                d.played_equity,
                d.best,
                d.best_equity,
                d.loss()
            ));
            if let Some([played, best]) = &d.rollout {
                s.push_str(&format!(
                    "  rollout played {} se {} best {} se {} games {}\n",
                    fmt4(played.equity()),
                    fmt4(played.se()),
                    fmt4(best.equity()),
                    fmt4(best.se()),
                    played.games
                ));
            }
        }
        for (name, p) in &self.players {
            s.push_str(&format!(
                "player {name}: decisions {} total loss {:.3} error rate {:.4}\n",
                p.decisions,
                p.total_loss,
                p.error_rate()
            ));
        }
        s
    }
}

/// Analyses a record's text at `plies` (gnubg plies: 0, 1 or 2). The game
/// is the record's; `eval` (a Gul bara evaluator) judges the records of
/// games of Gul bara's evaluator family only, every other game is judged by
/// its hand-written baseline (a Gul bara evaluator never judges another
/// game).
pub fn analyse(text: &str, eval: &dyn Evaluator, plies: u8) -> Result<Analysis, RecordError> {
    analyse_with(text, eval, plies, None)
}

/// [`analyse`], and with `rollout`, every decision that lost equity rolled
/// out: the played turn and the preferred one, each for the mover, with the
/// same dice (judged by the same evaluator as the analysis).
pub fn analyse_with(
    text: &str,
    eval: &dyn Evaluator,
    plies: u8,
    rollout: Option<&RolloutParams>,
) -> Result<Analysis, RecordError> {
    let (opts, games) = replay(text)?;
    let eval = match opts.variant.spec().eval {
        EvalFamily::GulBara => eval,
        _ => crate::eval::variants::baseline(opts.variant),
    };
    Ok(analyse_replayed(&opts, &games, eval, plies, rollout))
}

/// [`analyse_with`] of a record already replayed ([`replay`]), judged by
/// `eval` whatever the game: the caller picks an evaluator of the record's
/// game (`opts.variant`), such as that game's network.
pub fn analyse_replayed(
    opts: &RuleOptions,
    games: &[ReplayedGame],
    eval: &dyn Evaluator,
    plies: u8,
    rollout: Option<&RolloutParams>,
) -> Analysis {
    let opts = *opts;
    let plies = plies.min(2);
    let stop = AtomicBool::new(false);
    let search = Search::new(eval, opts, &stop);
    let limits = Limits {
        plies,
        ..Limits::default()
    };
    let mut movegen = StageGen::new();
    let mut ends = Vec::new();
    let mut out = Analysis {
        variant: opts.variant,
        ..Analysis::default()
    };
    for (gi, g) in games.iter().enumerate() {
        for (ti, t) in g.turns.iter().enumerate() {
            let mover = t.before.to_move;
            let start = match t.roll {
                Some((a, b)) => match t.before.roll(&opts, a, b) {
                    Ok(s) => s,
                    Err(_) => continue,
                },
                None => t.before,
            };
            let start = skip_forced_empty(start, &opts, &mut movegen, &mut ends);
            if start.result().is_some() || start.to_move != mover || start.stage_dice().is_none() {
                continue;
            }
            let ranked = search.best_turn(&start, &limits, &mut |_| {});
            if ranked.len() <= 1 {
                continue;
            }
            let words: Vec<&str> = t.moves.iter().map(String::as_str).collect();
            let Ok(played_end) = apply_turn(&start, &opts, &words) else {
                continue;
            };
            let value = |end: &GameState| -> Probs {
                match plies {
                    0 => probs_for(eval, end, &opts, mover),
                    1 => search.one_ply(end, mover, limits.inner_beam),
                    _ => search
                        .plied(end, mover, limits.inner_beam, plies, None)
                        .unwrap_or_else(|| search.one_ply(end, mover, limits.inner_beam)),
                }
            };
            let best = &ranked[0];
            let best_equity = if best.plies == plies {
                best.probs.equity()
            } else {
                value(&best.end).equity()
            };
            let played_equity = match ranked
                .iter()
                .find(|c| c.end == played_end && c.plies == plies)
            {
                Some(c) => c.probs.equity(),
                None => value(&played_end).equity(),
            };
            let player = match mover {
                Side::White => g.players[0].clone(),
                Side::Black => g.players[1].clone(),
            };
            let player = if player.is_empty() {
                format!("{mover:?}")
            } else {
                player
            };
            let d = Decision {
                game: gi + 1,
                turn: ti + 1,
                player: player.clone(),
                roll: t.roll,
                played: if t.moves.is_empty() {
                    "pass".into()
                } else {
                    t.moves.join(" ")
                },
                played_equity,
                best: play_text_at(start.variant, start.pos, &best.steps),
                best_equity,
                mover,
                played_end,
                best_end: best.end,
                rollout: None,
            };
            let stats = out.players.entry(player).or_default();
            stats.decisions += 1;
            stats.total_loss += f64::from(d.loss());
            out.decisions.push(d);
        }
    }
    if let Some(params) = rollout {
        let ro = Rollout::new(eval, opts, *params);
        for d in out.decisions.iter_mut().filter(|d| d.loss() > 0.0) {
            let roots = [d.played_end, d.best_end].map(|state| Root {
                state,
                side: d.mover,
            });
            let stats = ro.run(&roots, &stop, None, &|_| {});
            let mut each = stats.into_iter();
            if let (Some(played), Some(best)) = (each.next(), each.next()) {
                d.rollout = Some([played, best]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;
    use crate::record::{Record, RecordedGame, RecordedTurn, game_tags, rules_tag, write_record};
    use crate::rules::RuleOptions;
    use crate::rules::game::{RandomChooser, SeededDice, play_choosers};

    #[test]
    fn engine_against_itself_loses_nothing_and_random_loses_more() {
        let opts = RuleOptions::default();
        let mut a = RandomChooser::new(5);
        let mut b = RandomChooser::new(6);
        let g = play_choosers(&opts, &mut SeededDice::new(5), &mut a, &mut b);
        let rec = Record {
            tags: vec![("Rules".into(), rules_tag(&opts))],
            games: vec![RecordedGame {
                players: ["rand1".into(), "rand2".into()],
                opening: *g.openings.last().unwrap(),
                starter: g.starter,
                turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
                result: Some(g.result),
                note: None,
                cube: Default::default(),
            }],
        };
        let text = write_record(&rec);
        let an = analyse(&text, &Heuristic, 0).unwrap();
        assert!(!an.decisions.is_empty());
        // Replaying the engine's own choices loses nothing.
        for d in &an.decisions {
            if d.played == d.best {
                assert!(d.loss() < 1e-6);
            }
            assert!(d.loss() >= 0.0);
        }
        let total: f64 = an.players.values().map(|p| p.total_loss).sum();
        assert!(total > 0.0, "random play should give up some equity");
        assert!(an.to_text().contains("error rate"));
        // With rollouts: the flagged decisions (and only those) are rolled out.
        let params = RolloutParams {
            games: 8,
            truncate: 2,
            ..RolloutParams::default()
        };
        let ro = analyse_with(&text, &Heuristic, 0, Some(&params)).unwrap();
        assert_eq!(ro.decisions.len(), an.decisions.len());
        for d in &ro.decisions {
            match &d.rollout {
                Some([p, b]) => {
                    assert!(d.loss() > 0.0);
                    assert_eq!((p.games, b.games), (8, 8));
                }
                None => assert!(d.loss() <= 0.0),
            }
        }
        assert!(ro.decisions.iter().any(|d| d.rollout.is_some()));
        assert!(ro.to_text().contains("  rollout played "));
    }

    #[test]
    fn every_variant_is_analysed_with_its_baseline() {
        // Gul bara's family is judged by the evaluator passed.
        let by_baseline = Variant::ALL
            .into_iter()
            .filter(|v| v.spec().eval != EvalFamily::GulBara);
        for v in by_baseline {
            let opts = RuleOptions::for_variant(v);
            let mut a = RandomChooser::new(7);
            let mut b = RandomChooser::new(8);
            let g = play_choosers(&opts, &mut SeededDice::new(7), &mut a, &mut b);
            let text = write_record(&Record {
                tags: game_tags(&opts),
                games: vec![RecordedGame {
                    players: ["rand1".into(), "rand2".into()],
                    opening: *g.openings.last().unwrap(),
                    starter: g.starter,
                    turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
                    result: Some(g.result),
                    note: None,
                    cube: Default::default(),
                }],
            });
            // Whatever evaluator is passed, the variant's baseline judges:
            // the same analysis as with that baseline itself.
            let an = analyse(&text, &Heuristic, 0).unwrap();
            let own = analyse(&text, crate::eval::variants::baseline(v), 0).unwrap();
            assert_eq!(an.variant, v);
            assert!(!an.decisions.is_empty(), "{v}");
            assert_eq!(an.players, own.players, "{v}");
            for d in &an.decisions {
                assert!(d.loss() >= 0.0);
                if d.played == d.best {
                    assert!(d.loss() < 1e-6, "{v}: {d:?}");
                }
            }
            let total: f64 = an.players.values().map(|p| p.total_loss).sum();
            assert!(total > 0.0, "{v}: random play should give up some equity");
            assert!(an.to_text().starts_with(&format!("variant {v}\n")));
        }
    }
}
