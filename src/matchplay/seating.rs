//! The games of one seating: the engines a worker plays with, started when
//! first needed, and a game, a match or a seating of a pair played with them.

use std::time::Duration;

use super::builtin::Builtin;
use super::engine::{EngineError, ExternalEngine, TextPlayer};
use super::sessions::{CubeCounts, MatchResult};
use super::{GameOutcome, GameSummary, MatchConfig, roll_luck, rule_settings};
use crate::cube::CubeAnswer;
use crate::eval::Evaluator;
use crate::game::{
    self, CubeRequest, Forfeit, ForfeitReason, GameObserver, Player, PlayerFault, Turn, TurnRequest,
};
use crate::notation::{move_token_text, state_text};
use crate::record::{RecordedGame, RecordedTurn};
use crate::rules::dice::{GameStart, SeededDice};
use crate::rules::{GameState, RuleOptions, Side};

/// The engines one worker thread plays with, started when first needed.
pub(super) struct Seats<'a> {
    pub(super) cfg: &'a MatchConfig,
    pub(super) engines: [Option<Box<dyn Player>>; 2],
    /// The rules each engine was started with (a rotating match starts it
    /// anew for a game of another rule set).
    pub(super) started: [Option<RuleOptions>; 2],
}

impl Seats<'_> {
    pub(super) fn drop_engine(&mut self, i: usize) {
        if let Some(mut e) = self.engines[i].take() {
            e.quit();
        }
        self.started[i] = None;
    }
}

/// Starts engine `i` of the match: a builtin player or an external engine.
pub(super) fn start_player(
    cfg: &MatchConfig,
    i: usize,
    rules: &RuleOptions,
) -> Result<Box<dyn Player>, EngineError> {
    let extra = rule_settings(rules);
    let spec = &cfg.engines[i];
    Ok(if let Some(kind) = spec.cmd.strip_prefix("builtin:") {
        let mut all = spec.options.clone();
        all.extend(extra);
        Box::new(Builtin::new(kind, &all)?)
    } else {
        let engine =
            ExternalEngine::start(spec, &extra, cfg.move_timeout.max(Duration::from_secs(10)))?;
        Box::new(TextPlayer::new(engine, cfg.move_timeout))
    })
}

/// One seat of a game: engine `index`, started on its first turn and
/// dropped when it fails (the next game starts it anew).
struct Seat<'a> {
    cfg: &'a MatchConfig,
    index: usize,
    slot: &'a mut Option<Box<dyn Player>>,
    /// The game's rules, and those the seated player was started with.
    rules: RuleOptions,
    started: &'a mut Option<RuleOptions>,
}

impl Seat<'_> {
    /// Asks the seated player, starting it first if need be; a player that
    /// fails is dropped (the next game starts it anew).
    fn ask<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Player) -> Result<T, PlayerFault>,
    ) -> Result<T, PlayerFault> {
        if *self.started != Some(self.rules)
            && let Some(mut p) = self.slot.take()
        {
            p.quit();
        }
        if self.slot.is_none() {
            let started = start_player(self.cfg, self.index, &self.rules)
                .map_err(|e| PlayerFault::Failed(Box::new(e)))?;
            *self.slot = Some(started);
            *self.started = Some(self.rules);
        }
        let Some(player) = self.slot.as_mut() else {
            return Err(PlayerFault::Failed(Box::new(EngineError::Closed)));
        };
        let answer = f(player.as_mut());
        if matches!(answer, Err(PlayerFault::Failed(_)))
            && let Some(mut p) = self.slot.take()
        {
            p.quit();
        }
        answer
    }
}

impl Player for Seat<'_> {
    fn play_turn(&mut self, ask: &TurnRequest<'_>) -> Result<Turn, PlayerFault> {
        self.ask(|p| p.play_turn(ask))
    }

    fn offer_double(&mut self, ask: &CubeRequest<'_>) -> Result<bool, PlayerFault> {
        self.ask(|p| p.offer_double(ask))
    }

    fn answer_double(&mut self, ask: &CubeRequest<'_>) -> Result<CubeAnswer, PlayerFault> {
        self.ask(|p| p.answer_double(ask))
    }
}

/// Sums each engine's luck over its rolls.
struct LuckWatch<'a> {
    reference: Option<std::sync::Arc<dyn Evaluator + Send + Sync>>,
    opts: &'a RuleOptions,
    white_engine: usize,
    luck: [f64; 2],
}

impl GameObserver for LuckWatch<'_> {
    fn rolled(&mut self, before: &GameState, roll: (u8, u8)) {
        if let Some(reference) = &self.reference {
            let who = engine_of(self.white_engine, before.to_move);
            self.luck[who] += roll_luck(reference.as_ref(), before, self.opts, roll);
        }
    }
}

/// The engine playing `side` when `white_engine` plays White.
fn engine_of(white_engine: usize, side: Side) -> usize {
    if side == Side::White {
        white_engine
    } else {
        1 - white_engine
    }
}

/// The text of a forfeit by engine `who`.
fn forfeit_text(cfg: &MatchConfig, who: usize, f: &Forfeit) -> String {
    let name = &cfg.engines[who].name;
    match &f.reason {
        ForfeitReason::Player(fault) => format!("{name}: {fault}"),
        ForfeitReason::IllegalAnswer { .. } => format!("{name}: {}", f.reason),
        ForfeitReason::IllegalTurn { turn, error } => {
            let words: Vec<String> = turn.moves.iter().map(|&m| move_token_text(m)).collect();
            format!(
                "{name}: illegal move 'bestmove {}' in {}{}: {error}",
                words.join(" "),
                state_text(&f.before),
                f.roll
                    .map(|(a, b)| format!(" dice {a}{b}"))
                    .unwrap_or_default()
            )
        }
    }
}

/// Plays one game with dice from `dice_seed`, `white_engine` playing White,
/// in `session` (its score and cube at the start).
fn play_game(
    seats: &mut Seats,
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
    session: &crate::cube::MatchState,
    opts: RuleOptions,
    start: GameStart,
) -> GameOutcome {
    let cfg = seats.cfg;
    let engine_of = |s: Side| engine_of(white_engine, s);
    let mut watch = LuckWatch {
        reference: cfg
            .luck_adjust
            .then(|| cfg.luck_reference.evaluator(opts.variant)),
        opts: &opts,
        white_engine,
        luck: [0.0; 2],
    };
    let [slot0, slot1] = &mut seats.engines;
    let [started0, started1] = &mut seats.started;
    let mut seat0 = Seat {
        cfg,
        index: 0,
        slot: slot0,
        rules: opts,
        started: started0,
    };
    let mut seat1 = Seat {
        cfg,
        index: 1,
        slot: slot1,
        rules: opts,
        started: started1,
    };
    let players: [&mut dyn Player; 2] = if white_engine == 0 {
        [&mut seat0, &mut seat1]
    } else {
        [&mut seat1, &mut seat0]
    };
    let g = game::play_started_game(
        &opts,
        session,
        start,
        &mut SeededDice::new(dice_seed),
        players,
        &mut watch,
    );
    let forfeit = g.forfeit.as_ref().map(|f| {
        let who = engine_of(f.side);
        (who, forfeit_text(cfg, who, f))
    });
    let names = [
        cfg.engines[white_engine].name.clone(),
        cfg.engines[1 - white_engine].name.clone(),
    ];
    let signed = |w: usize, p: u32| {
        let p = i32::try_from(p).unwrap_or(i32::MAX);
        if w == 0 { p } else { -p }
    };
    let (result, points, winner, result_points) = match (&forfeit, g.scored()) {
        // A forfeit loses the game at the cube's value.
        (Some((f, _)), _) => {
            let w = 1 - *f;
            (None, signed(w, g.session.cube()), Some((w, false)), 0)
        }
        (None, Some((side, scored))) => {
            let w = engine_of(side);
            let r = g.result;
            let result_points = if g.dropped { 0 } else { r.points };
            (
                (!g.dropped).then_some(r),
                signed(w, scored),
                Some((w, result_points >= 2)),
                result_points,
            )
        }
        (None, None) => (g.final_state.result(), 0, None, 0),
    };
    let by_side = CubeCounts::of_game(&g);
    let mut cube = [CubeCounts::default(); 2];
    cube[white_engine] = by_side[0];
    cube[1 - white_engine] = by_side[1];
    GameOutcome {
        pair,
        summary: GameSummary {
            white_engine,
            points,
            winner,
            forfeit: forfeit.clone(),
            luck: watch.luck,
            cube,
            result_points,
        },
        record: RecordedGame {
            players: names,
            opening: g.openings.last().copied(),
            starter: g.starter,
            turns: g.turns.iter().map(RecordedTurn::from_driver).collect(),
            result,
            note: forfeit.map(|(_, why)| format!("forfeit: {why}")),
            cube: crate::record::GameCube {
                score: crate::record::GameScore::of(session),
                dropped_by: g.dropped.then_some(g.final_state.to_move),
                scored: g.scored().map(|(_, p)| p),
            },
        },
        dice_seed,
    }
}

/// The most games a match may take before it is cut off unfinished (a
/// run of stuck games could otherwise go on without end).
const MAX_GAMES_PER_POINT: u32 = 64;

/// Plays one match of a pair, `white_engine` playing White in every game:
/// game k on dice seeded from `dice_seed` and k, so that both matches of a
/// pair play their k-th games on the same dice. A forfeit loses the match.
fn play_match(
    seats: &mut Seats,
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
) -> (Vec<GameOutcome>, MatchResult) {
    let mut session = seats.cfg.session.0;
    let length = session.length();
    let engine_of = |side: Side| engine_of(white_engine, side);
    let mut games = Vec::new();
    let mut winner = None;
    // Who starts the next game: the opening throw, or (tavli's and
    // tabla's rule) the last game's winner; a game with no winner leaves
    // the next to the throw.
    let mut start = GameStart::OpeningThrow;
    for k in 0..length.saturating_mul(MAX_GAMES_PER_POINT) {
        let g = play_game(
            seats,
            pair,
            white_engine,
            crate::splitmix::nth(dice_seed, u64::from(k)),
            &session,
            seats.cfg.game_rules(k),
            start,
        );
        let forfeit = g.summary.forfeit.as_ref().map(|(who, _)| *who);
        start = GameStart::OpeningThrow;
        if let Some((w, _)) = g.summary.winner.filter(|_| forfeit.is_none()) {
            let side = if w == white_engine {
                Side::White
            } else {
                Side::Black
            };
            session.score_game(side, g.summary.points.unsigned_abs());
            if seats.cfg.winner_starts {
                start = GameStart::By(side);
            }
        }
        games.push(g);
        winner = forfeit
            .map(|f| 1 - f)
            .or_else(|| session.winner().map(engine_of));
        if winner.is_some() {
            break;
        }
    }
    let mut score = [0; 2];
    for side in [Side::White, Side::Black] {
        score[engine_of(side)] = session.score(side);
    }
    let result = MatchResult {
        white_engine,
        winner,
        score,
    };
    (games, result)
}

/// One seating of a pair: a money game, or a whole match.
pub(super) struct Seating {
    pub(super) pair: usize,
    pub(super) white_engine: usize,
    pub(super) dice_seed: u64,
    pub(super) games: Vec<GameOutcome>,
    pub(super) result: Option<MatchResult>,
}

/// Plays one seating of pair `pair`.
pub(super) fn play_seating(
    seats: &mut Seats,
    pair: usize,
    white_engine: usize,
    dice_seed: u64,
) -> Seating {
    if seats.cfg.session.match_length().is_some() {
        let (games, result) = play_match(seats, pair, white_engine, dice_seed);
        Seating {
            pair,
            white_engine,
            dice_seed,
            games,
            result: Some(result),
        }
    } else {
        let session = seats.cfg.session.0;
        let rules = seats.cfg.rules;
        let g = play_game(
            seats,
            pair,
            white_engine,
            dice_seed,
            &session,
            rules,
            GameStart::OpeningThrow,
        );
        Seating {
            pair,
            white_engine,
            dice_seed,
            games: vec![g],
            result: None,
        }
    }
}
