//! Analysis of recorded games, like gnubg's: for every decision, the
//! engine's preferred turn and the equity the played turn gave up; per
//! player, the error rate (average equity lost per decision).

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use crate::analysis::rollout::{Rollout, RolloutParams, Root, Stats, fmt4};
use crate::cube::CubeAnswer;
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
    /// The engine's best turns ([`CANDIDATES`] at most), best first, each
    /// with its equity for the mover at the analysis's depth.
    pub candidates: Vec<(String, f32)>,
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

/// How many of the best turns a decision keeps ([`Decision::candidates`]).
pub const CANDIDATES: usize = 5;

/// What kind of cube error a cube decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeError {
    /// It did not double where the proper action doubles.
    MissedDouble,
    /// It doubled where the proper action does not.
    WrongDouble,
    /// It took a double it should have passed.
    WrongTake,
    /// It passed a double it should have taken.
    WrongPass,
}

impl CubeError {
    /// The words of the report.
    pub fn words(self) -> &'static str {
        match self {
            CubeError::MissedDouble => "missed double",
            CubeError::WrongDouble => "wrong double",
            CubeError::WrongTake => "wrong take",
            CubeError::WrongPass => "wrong pass",
        }
    }
}

/// One analysed cube decision: to double or not before a roll, or to take
/// or pass a double.
#[derive(Clone, Debug)]
pub struct CubeDecisionRecord {
    /// 1-based game number.
    pub game: usize,
    /// 1-based turn number: the roll the decision came before.
    pub turn: usize,
    /// The player who decided.
    pub player: String,
    /// What it did: `double`, `no double`, `take`, `beaver` or `pass`.
    pub did: &'static str,
    /// The equities (money, per unit of the cube) or match-winning chances
    /// of no double, double/take and double/pass, the doubler's view.
    pub equities: [f64; 3],
    /// Whether they are match-winning chances.
    pub mwc: bool,
    /// The proper action, as gnubg words it.
    pub proper: String,
    /// The error, if it was one.
    pub error: Option<CubeError>,
    /// What the error gave up (0 when none).
    pub loss: f64,
}

/// Per-player totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// Decisions (turns with more than one distinct outcome).
    pub decisions: usize,
    /// Total equity lost.
    pub total_loss: f64,
    /// Cube decisions that were close or acted on ([`CUBE_CLOSE`]).
    pub cube_decisions: usize,
    /// Cube errors by kind, in the order of [`CubeError`].
    pub cube_errors: [usize; 4],
    /// Total lost at the cube.
    pub cube_loss: f64,
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

    /// Average lost per cube decision.
    pub fn cube_error_rate(&self) -> f64 {
        if self.cube_decisions == 0 {
            0.0
        } else {
            self.cube_loss / self.cube_decisions as f64
        }
    }
}

/// A decision not to double counts as a cube decision (as gnubg's "close
/// or actual" ones) when doubling would have cost less than this, or when
/// the proper action doubles.
pub const CUBE_CLOSE: f64 = 0.1;

/// The analysis of a record.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The game of the record (a rotating match's first game).
    pub variant: Variant,
    /// A rotating match's games, in order of play (empty otherwise): its
    /// decisions then say which game each came from.
    pub rotation: Vec<Variant>,
    /// Every decision in order.
    pub decisions: Vec<Decision>,
    /// Totals per player name.
    pub players: BTreeMap<String, PlayerStats>,
    /// Every cube decision counted, in order (records played with the cube).
    pub cube: Vec<CubeDecisionRecord>,
}

impl Analysis {
    /// A report for people (a `variant <name>` line first for the games
    /// other than Gul bara).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        if !self.rotation.is_empty() {
            s.push_str(&format!(
                "rotation {}\n",
                Variant::list_text(&self.rotation)
            ));
        } else if self.variant != Variant::default() {
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
        for c in &self.cube {
            let [nd, dt, dp] = c.equities;
            let unit = if c.mwc { "mwc " } else { "" };
            s.push_str(&format!(
                "game {} turn {} {} cube: {}; {unit}no double {nd:+.3} double/take {dt:+.3} double/pass {dp:+.3}: {}; {}lost {:.3}\n",
                c.game,
                c.turn,
                c.player,
                c.did,
                c.proper,
                c.error.map_or(String::new(), |e| format!("{}, ", e.words())),
                c.loss
            ));
        }
        for (name, p) in &self.players {
            s.push_str(&format!(
                "player {name}: decisions {} total loss {:.3} error rate {:.4}\n",
                p.decisions,
                p.total_loss,
                p.error_rate()
            ));
            if p.cube_decisions > 0 {
                let [md, wd, wt, wp] = p.cube_errors;
                s.push_str(&format!(
                    "player {name}: cube decisions {} missed doubles {md} wrong doubles {wd} wrong takes {wt} wrong passes {wp} total loss {:.3} error rate {:.4}\n",
                    p.cube_decisions,
                    p.cube_loss,
                    p.cube_error_rate()
                ));
            }
        }
        s
    }
}

/// Analyses a gulbara record's text at `plies` (gnubg plies: 0, 1 or 2);
/// a gnubg `.mat` file is read by `anyrecord::replay_any`, then
/// judged by [`analyse_replayed`]. The game is the record's; `eval` (a Gul bara evaluator) judges the records of
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
    analyse_replayed_at(
        opts,
        games,
        eval,
        plies,
        rollout,
        f64::from(crate::cube::DEFAULT_CONTACT_EFFICIENCY) / 100.0,
    )
}

/// [`analyse_replayed`] with the cube's efficiency `cube_efficiency` in
/// contact positions (`engine.cube_efficiency` as a fraction; races keep
/// their own) for the cube decisions.
pub fn analyse_replayed_at(
    opts: &RuleOptions,
    games: &[ReplayedGame],
    eval: &dyn Evaluator,
    plies: u8,
    rollout: Option<&RolloutParams>,
    cube_efficiency: f64,
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
            let candidates = ranked
                .iter()
                .take(CANDIDATES)
                .map(|c| {
                    let e = if c.plies == plies {
                        c.probs.equity()
                    } else {
                        value(&c.end).equity()
                    };
                    (play_text_at(start.variant, start.pos, &c.steps), e)
                })
                .collect();
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
                candidates,
                rollout: None,
            };
            let stats = out.players.entry(player).or_default();
            stats.decisions += 1;
            stats.total_loss += f64::from(d.loss());
            out.decisions.push(d);
        }
    }
    for (gi, g) in games.iter().enumerate() {
        analyse_cube(&search, plies, cube_efficiency, gi, g, &mut out);
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

/// [`analyse_replayed`] for a record whose games were played under
/// different rules (a rotating match): each game under its own rules,
/// judged by `judge_for` its game, the decisions numbered by the record's
/// games and the players' totals summed. The first error of `judge_for`
/// is the result.
pub fn analyse_rotation<E>(
    games: &[ReplayedGame],
    judge_for: &dyn Fn(Variant) -> Result<std::sync::Arc<dyn Evaluator>, E>,
    plies: u8,
    rollout: Option<&RolloutParams>,
    cube_efficiency: f64,
) -> Result<Analysis, E> {
    let mut out = Analysis {
        variant: games
            .first()
            .map_or_else(Variant::default, |g| g.opts.variant),
        ..Analysis::default()
    };
    for (gi, g) in games.iter().enumerate() {
        let judge = judge_for(g.opts.variant)?;
        let one = analyse_replayed_at(
            &g.opts,
            std::slice::from_ref(g),
            judge.as_ref(),
            plies,
            rollout,
            cube_efficiency,
        );
        out.rotation.push(g.opts.variant);
        out.decisions.extend(
            one.decisions
                .into_iter()
                .map(|d| Decision { game: gi + 1, ..d }),
        );
        out.cube.extend(
            one.cube
                .into_iter()
                .map(|c| CubeDecisionRecord { game: gi + 1, ..c }),
        );
        for (name, p) in one.players {
            let t = out.players.entry(name).or_default();
            t.decisions += p.decisions;
            t.total_loss += p.total_loss;
            t.cube_decisions += p.cube_decisions;
            for (a, b) in t.cube_errors.iter_mut().zip(p.cube_errors) {
                *a += b;
            }
            t.cube_loss += p.cube_loss;
        }
    }
    Ok(out)
}

/// The cube decisions of game `gi` (its session's cube on): before each
/// roll the side that could double, and after each double the side that
/// answered, judged by the search's chances before the roll at `plies`.
fn analyse_cube(
    search: &Search,
    plies: u8,
    cube_efficiency: f64,
    gi: usize,
    g: &ReplayedGame,
    out: &mut Analysis,
) {
    let mut session = g.session;
    if !session.rules().cube {
        return;
    }
    let name = |side: Side| {
        let n = &g.players[side.index()];
        if n.is_empty() {
            format!("{side:?}")
        } else {
            n.clone()
        }
    };
    let beam = Limits::default().inner_beam;
    // The turns before which a roll was due, with what was done at the
    // cube; a dropped double ends the game after the last one.
    let mut moments: Vec<(usize, GameState, Option<CubeAnswer>)> = g
        .turns
        .iter()
        .enumerate()
        .filter(|(ti, t)| {
            // The opening throw comes with no cube decision before it; a
            // game the last winner started does.
            t.roll.is_some()
                && !(*ti == 0
                    && g.opts.opening == crate::rules::options::Opening::Single
                    && !g.by_winner)
        })
        .map(|(ti, t)| (ti + 1, t.before, t.double))
        .collect();
    if g.dropped_by.is_some() {
        moments.push((g.turns.len() + 1, g.final_state, Some(CubeAnswer::Drop)));
    }
    for (turn, before, done) in moments {
        let doubler = before.to_move;
        if session.may_double(doubler).is_err() {
            continue;
        }
        let probs = search.before_roll(&before, plies, beam);
        let Some(d) = crate::cube::decide_at(&probs, &before, &session, doubler, cube_efficiency)
        else {
            continue;
        };
        let mwc = session.length() > 0;
        let equities = [d.no_double, d.double_take, d.double_pass];
        let redouble = session.owner() != crate::cube::CubeOwner::Centre;
        let proper = d.action.words(redouble);
        // What doubling gives the doubler: the opponent answers properly.
        let doubled_worth = d.double_take.min(d.double_pass);
        let mut record = |player: Side, did: &'static str, error: Option<CubeError>, loss: f64| {
            let loss = if error.is_some() { loss.max(0.0) } else { 0.0 };
            let stats = out.players.entry(name(player)).or_default();
            stats.cube_decisions += 1;
            if let Some(e) = error {
                stats.cube_errors[e as usize] += 1;
            }
            stats.cube_loss += loss;
            out.cube.push(CubeDecisionRecord {
                game: gi + 1,
                turn,
                player: name(player),
                did,
                equities,
                mwc,
                proper: proper.clone(),
                error,
                loss,
            });
        };
        let should_double = d.action.doubles();
        match done {
            None => {
                let close = should_double || d.no_double - doubled_worth < CUBE_CLOSE;
                if close {
                    let error = should_double.then_some(CubeError::MissedDouble);
                    record(doubler, "no double", error, doubled_worth - d.no_double);
                }
            }
            Some(answer) => {
                let error = (!should_double).then_some(CubeError::WrongDouble);
                record(doubler, "double", error, d.no_double - doubled_worth);
                let taker = doubler.opponent();
                // The taker's loss in the doubler's units: what its answer
                // gave the doubler beyond the right answer.
                let (did, error, loss) = match answer {
                    CubeAnswer::Drop => (
                        "pass",
                        (d.double_take < d.double_pass).then_some(CubeError::WrongPass),
                        d.double_pass - d.double_take,
                    ),
                    CubeAnswer::Take | CubeAnswer::Beaver => (
                        if answer == CubeAnswer::Take {
                            "take"
                        } else {
                            "beaver"
                        },
                        (d.double_take > d.double_pass).then_some(CubeError::WrongTake),
                        d.double_take - d.double_pass,
                    ),
                };
                record(taker, did, error, loss);
                let _ = session.double(doubler);
                let _ = match answer {
                    CubeAnswer::Beaver => session.beaver(),
                    _ => session.take(),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::heuristic::Heuristic;
    use crate::game::{RandomChooser, play_choosers};
    use crate::record::{Record, RecordedGame, game_tags, rules_tag, write_record};
    use crate::rules::RuleOptions;
    use crate::rules::dice::SeededDice;

    /// Plays at random, doubles at every chance and takes every double.
    struct Reckless(RandomChooser);

    impl crate::game::Player for Reckless {
        fn play_turn(
            &mut self,
            ask: &crate::game::TurnRequest<'_>,
        ) -> Result<crate::game::Turn, crate::game::PlayerFault> {
            crate::game::StagePlayer(&mut self.0).play_turn(ask)
        }

        fn offer_double(
            &mut self,
            _ask: &crate::game::CubeRequest<'_>,
        ) -> Result<bool, crate::game::PlayerFault> {
            Ok(true)
        }
    }

    /// The record of driver games between "a" (White) and "b" (Black) in
    /// `session`.
    fn session_record(
        opts: &RuleOptions,
        session: &crate::cube::MatchState,
        games: &[crate::game::GameRecord],
    ) -> String {
        let games = games
            .iter()
            .map(|g| RecordedGame {
                cube: crate::record::GameCube {
                    scored: g.scored().map(|(_, p)| p),
                    ..Default::default()
                },
                ..RecordedGame::finished(["a", "b"], g)
            })
            .collect();
        let mut tags = game_tags(opts);
        tags.extend(crate::record::session_tags(session));
        write_record(&Record { tags, games })
    }

    #[test]
    fn a_game_the_last_winner_started_has_a_cube_decision_before_its_first_roll() {
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let session = crate::cube::MatchState::money(crate::cube::SessionRules::default());
        let first_turn_decisions = |start: crate::rules::dice::GameStart| {
            let mut a = Reckless(RandomChooser::new(5));
            let mut b = Reckless(RandomChooser::new(6));
            let g = crate::game::play_started_game(
                &opts,
                &session,
                start,
                &mut SeededDice::new(5),
                [&mut a, &mut b],
                &mut (),
            );
            let text = session_record(&opts, &session, &[g]);
            let an = analyse(&text, &Heuristic, 0).unwrap();
            let first: Vec<String> = an
                .cube
                .iter()
                .filter(|c| c.turn == 1)
                .map(|c| c.player.clone())
                .collect();
            (text, first)
        };
        let (text, first) = first_turn_decisions(crate::rules::dice::GameStart::By(Side::Black));
        assert!(text.contains("Opening winner starter Black"), "{text}");
        // Black's double before its first roll, and White's take.
        assert_eq!(first, ["b", "a"], "{text}");
        // After an opening throw the first roll is the throw: no decision.
        let (text, first) = first_turn_decisions(crate::rules::dice::GameStart::OpeningThrow);
        assert!(!text.contains("Opening winner"), "{text}");
        assert!(first.is_empty(), "{first:?}");
    }

    #[test]
    fn reckless_cube_actions_are_found_with_what_they_lost() {
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let session = crate::cube::MatchState::money(crate::cube::SessionRules::default());
        let mut games = Vec::new();
        for seed in 0..3 {
            let mut a = Reckless(RandomChooser::new(seed));
            let mut b = Reckless(RandomChooser::new(seed + 10));
            let g = crate::game::play_session_game(
                &opts,
                &session,
                &mut SeededDice::new(seed),
                [&mut a, &mut b],
                &mut (),
            );
            assert!(g.turns.iter().filter(|t| t.double.is_some()).count() >= 2);
            games.push(g);
        }
        let text = session_record(&opts, &session, &games);
        let an = analyse(&text, &Heuristic, 0).unwrap();
        // Doubling at every chance, from the start, is mostly wrong; taking
        // every redouble of a random game now and then too.
        for who in ["a", "b"] {
            let p = &an.players[who];
            assert!(p.cube_decisions > 0, "{who}");
            assert!(
                p.cube_errors[CubeError::WrongDouble as usize] > 0,
                "{who}: {p:?}"
            );
            assert!(p.cube_loss > 0.0);
        }
        assert!(an.cube.iter().any(|c| c.did == "take"));
        let report = an.to_text();
        assert!(report.contains("cube: double;"), "{report}");
        assert!(report.contains("wrong double"), "{report}");
        // Each error's loss is what the action gave up by the equities shown.
        for c in an.cube.iter().filter(|c| c.error.is_some()) {
            let [nd, dt, dp] = c.equities;
            let want = match c.error.unwrap() {
                CubeError::WrongDouble => nd - dt.min(dp),
                CubeError::MissedDouble => dt.min(dp) - nd,
                CubeError::WrongTake => dt - dp,
                CubeError::WrongPass => dp - dt,
            };
            assert!((c.loss - want).abs() < 1e-9 && c.loss > 0.0, "{c:?}");
        }
    }

    #[test]
    fn engine_against_itself_loses_nothing_and_random_loses_more() {
        let opts = RuleOptions::default();
        let mut a = RandomChooser::new(5);
        let mut b = RandomChooser::new(6);
        let g = play_choosers(&opts, &mut SeededDice::new(5), &mut a, &mut b);
        let rec = Record {
            tags: vec![("Rules".into(), rules_tag(&opts))],
            games: vec![RecordedGame::finished(["rand1", "rand2"], &g)],
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
                games: vec![RecordedGame::finished(["rand1", "rand2"], &g)],
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
