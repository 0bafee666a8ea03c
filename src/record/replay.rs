//! Reading records back: the tags, each game's tokens, and a replay of
//! every game against the rules that checks its recorded result.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A record that fails to parse or replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Malformed text.
    #[error("line {line}: {why}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: SyntaxError,
    },
    /// The `Variant` and `Rules` tags name no game the rules know.
    #[error("line {line}: {source}")]
    Rules {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        #[source]
        source: RulesTagError,
    },
    /// A game's cube actions do not follow one another.
    #[error("game {game}: {why}")]
    Cube {
        /// 1-based game number.
        game: usize,
        /// What is wrong.
        why: CubeFault,
    },
    /// A game's `Score` line is no score of the record's match.
    #[error("game {game}: {why}")]
    Score {
        /// 1-based game number.
        game: usize,
        /// What is wrong.
        why: crate::cube::CubeStateError,
    },
    /// A game's moves are not legal.
    #[error("game {game}: {err}")]
    Illegal {
        /// 1-based game number.
        game: usize,
        /// The first bad token.
        err: MovesError,
    },
    /// The recorded result disagrees with the replay.
    #[error("game {game}: recorded '{recorded}', replay gives {replay:?}")]
    Result {
        /// 1-based game number.
        game: usize,
        /// The result line as recorded (without the cube's `, scoring N`).
        recorded: String,
        /// The result line the replay gives (`None`: the game goes on).
        replay: Option<String>,
    },
}

/// What is wrong with a line of a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A line of moves before any `Game` line.
    #[error("moves before the first 'Game' line")]
    MovesBeforeGame,
    /// A `Variant` tag that says another game than an earlier one.
    #[error("a second, different Variant tag '{0}'")]
    SecondVariant(String),
    /// An `Opening` line that names no starter.
    #[error("bad opening line '{0}'")]
    Opening(String),
    /// A `Score` line that is not `Score A-B to N [Crawford]`.
    #[error("bad score line '{0}'")]
    Score(String),
    /// A line that is none of a game's.
    #[error("unexpected line '{0}'")]
    Line(String),
    /// A cube action token that does not read.
    #[error("bad cube action '{0}' (double=N:take, double=N:beaver or double=N:drop)")]
    CubeAction(String),
    /// A roll marker that does not read.
    #[error("bad roll '{0}'")]
    Roll(String),
    /// The `Session` tag does not read.
    #[error("{0}")]
    Session(crate::cube::SessionSpecError),
    /// A game of the `Rotation` tag is not one.
    #[error("Rotation: {0}")]
    RotationGame(crate::rules::options::OptionError),
    /// The `Rotation` tag lists too many games, or not the `Variant` tag's first.
    #[error("Rotation '{text}' must list at most 16 games, the first the Variant tag's ({first})")]
    Rotation {
        /// The tag's text.
        text: String,
        /// The `Variant` tag's game.
        first: Variant,
    },
}

/// What is wrong with a game's cube actions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CubeFault {
    /// A token after the double that ended the game.
    #[error("'{0}' after a dropped double")]
    AfterDrop(String),
    /// A second cube action before one roll.
    #[error("two cube actions before a roll ('{0}')")]
    TwoActions(String),
    /// A cube action before a remainder (which is no roll).
    #[error("a cube action before a remainder")]
    BeforeRemainder,
    /// A move before any roll.
    #[error("a move before the first roll")]
    MoveBeforeRoll,
    /// A double where the side is not about to roll.
    #[error("a double by {} where no roll is due", side_name(*.0))]
    NoRollDue(Side),
    /// A double to another cube than twice the cube.
    #[error("a double to {offered} with the cube at {cube}")]
    NotTwice {
        /// The cube offered.
        offered: u32,
        /// The cube before.
        cube: u32,
    },
    /// A double by the side that does not own the cube.
    #[error("{} doubles a cube it does not own", side_name(*.0))]
    NotOwner(Side),
}

/// A roll (or `None` for a remainder) and the move tokens after it.
type Segment = (Option<(u8, u8)>, Vec<String>, Option<(u32, CubeAnswer)>);

/// A cube action token: `double=N:take`, `double=N:beaver` or
/// `double=N:drop`, N the cube offered.
fn parse_double(t: &str) -> Option<(u32, CubeAnswer)> {
    let (n, answer) = t.strip_prefix("double=")?.split_once(':')?;
    let n: u32 = n
        .parse()
        .ok()
        .filter(|n: &u32| n.is_power_of_two() && *n >= 2)?;
    let answer = match answer {
        "take" => CubeAnswer::Take,
        "beaver" => CubeAnswer::Beaver,
        "drop" => CubeAnswer::Drop,
        _ => return None,
    };
    Some((n, answer))
}

/// One turn of a replayed game.
#[derive(Clone, Debug)]
pub struct ReplayedTurn {
    /// The state before it: the side to move about to roll, or with a
    /// remainder pending.
    pub before: GameState,
    /// The roll, `None` for a remainder.
    pub roll: Option<(u8, u8)>,
    /// The move tokens of the turn.
    pub moves: Vec<String>,
    /// The side doubled before the roll, and the other side's answer.
    pub double: Option<CubeAnswer>,
}

/// One replayed game.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// The rules the game was played under (in a rotating match, its
    /// game of the rotation).
    pub opts: RuleOptions,
    /// White's and Black's names from the record.
    pub players: [String; 2],
    /// Every turn with the state before it.
    pub turns: Vec<ReplayedTurn>,
    /// The final state.
    pub final_state: GameState,
    /// The starter.
    pub starter: Side,
    /// The starter was the last game's winner, who rolled both dice with
    /// no opening throw (`Opening winner`), so a cube decision came first.
    pub by_winner: bool,
    /// The move tokens in order (rolls and steps), as `apply_moves` takes them.
    pub tokens: Vec<String>,
    /// The recorded result line, if any.
    pub result_line: Option<String>,
    /// The side whose double was dropped, which ended the game.
    pub dropped_by: Option<Side>,
    /// The session at the game's start, from the record's `Session` tag
    /// and the game's `Score` line; cubeless money play when the record
    /// has neither.
    pub session: MatchState,
}

/// Parses the `Rules` tag (if any) and every game's move tokens, replays each
/// game against the rules, and checks the recorded results.
///
/// This reads gulbara's records; `crate::anyrecord::replay_any` reads a
/// Jellyfish `.mat` file too.
pub fn replay(text: &str) -> Result<(RuleOptions, Vec<ReplayedGame>), RecordError> {
    let read = read_lines(text)?;
    let (opts, base, rotation) = settle_rules(&read)?;
    let mut out = Vec::new();
    for (i, game) in read.games.into_iter().enumerate() {
        let opts = if rotation.is_empty() {
            opts
        } else {
            rotation[i % rotation.len()]
        };
        let mut session = base;
        if let Some((white, black, crawford)) = game.score {
            session
                .set_score(white, black, Some(crawford))
                .map_err(|why| RecordError::Score { game: i + 1, why })?;
        }
        out.push(replay_game(i + 1, game, opts, session)?);
    }
    Ok((opts, out))
}

/// One game as its lines read, before the replay.
struct ReadGame {
    /// The starter (`Opening ... starter`).
    starter: Side,
    /// The move tokens, cube actions and roll markers in order.
    marked: Vec<String>,
    /// The recorded result line, if any.
    result_line: Option<String>,
    /// Started by the last game's winner, with no opening throw.
    by_winner: bool,
    /// The match score at its start (`Score 3-1 to 7 [Crawford]`).
    score: Option<(u32, u32, bool)>,
    /// White's and Black's names.
    names: [String; 2],
}

/// A record's tags (each with its 1-based line) and its games, as read.
#[derive(Default)]
struct ReadRecord {
    variant_tag: Option<(usize, String)>,
    rotation_tag: Option<(usize, String)>,
    rules_words: Option<(usize, String)>,
    session_tag: Option<(usize, String)>,
    games: Vec<ReadGame>,
}

/// Reads the tags wherever they stand and each game's lines, checking the
/// syntax of every line; the rules are settled afterwards
/// ([`settle_rules`]), whichever order `Variant` and `Rules` came in.
fn read_lines(text: &str) -> Result<ReadRecord, RecordError> {
    let mut read = ReadRecord::default();
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let syntax = |why: SyntaxError| RecordError::Syntax { line: ln + 1, why };
        if let Some(tag) = line.strip_prefix("; [") {
            read_tag(&mut read, ln + 1, tag).map_err(syntax)?;
            continue;
        }
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if line.starts_with("Game ") {
            read.games.push(ReadGame {
                starter: Side::White,
                marked: Vec::new(),
                result_line: None,
                by_winner: false,
                score: None,
                names: [String::new(), String::new()],
            });
            continue;
        }
        let Some(game) = read.games.last_mut() else {
            return Err(syntax(SyntaxError::MovesBeforeGame));
        };
        read_game_line(game, line).map_err(syntax)?;
    }
    Ok(read)
}

/// One `; [Tag "value"]` line (`tag` after its `; [`) at 1-based line `at`.
fn read_tag(read: &mut ReadRecord, at: usize, tag: &str) -> Result<(), SyntaxError> {
    let value = |rest: &str| rest.trim_end_matches("\"]").to_string();
    if let Some(rest) = tag.strip_prefix("Rules \"") {
        // Several Rules tags add up, later words winning.
        let words = match read.rules_words.take() {
            Some((first, before)) => (first, format!("{before} {}", value(rest))),
            None => (at, value(rest)),
        };
        read.rules_words = Some(words);
    } else if let Some(rest) = tag.strip_prefix("Rotation \"") {
        read.rotation_tag = Some((at, value(rest)));
    } else if let Some(rest) = tag.strip_prefix("Session \"") {
        read.session_tag = Some((at, value(rest)));
    } else if let Some(rest) = tag.strip_prefix("Variant \"") {
        let v = value(rest);
        if read
            .variant_tag
            .as_ref()
            .is_some_and(|(_, w)| w.trim() != v.trim())
        {
            return Err(SyntaxError::SecondVariant(v));
        }
        read.variant_tag = Some((at, v));
    }
    Ok(())
}

/// One line of a game after its `Game` line: names, opening, score, result,
/// or a numbered line of rolls, moves and cube actions.
fn read_game_line(game: &mut ReadGame, line: &str) -> Result<(), SyntaxError> {
    if let Some(rest) = line.strip_prefix("White :") {
        if let Some((w, b)) = rest.split_once(" Black : ") {
            game.names = [w.trim().to_string(), b.trim().to_string()];
        }
        return Ok(());
    }
    if let Some(rest) = line.strip_prefix("Opening ") {
        game.starter = if rest.ends_with("starter Black") {
            Side::Black
        } else if rest.ends_with("starter White") {
            Side::White
        } else {
            return Err(SyntaxError::Opening(line.to_string()));
        };
        game.by_winner = rest.starts_with("winner ");
        return Ok(());
    }
    if let Some(rest) = line.strip_prefix("Score ") {
        // `Score 3-1 to 7 [Crawford]`: the match score at the game's start.
        let words: Vec<&str> = rest.split_whitespace().collect();
        let parsed = match words.as_slice() {
            [ab, "to", _, more @ ..] if more.is_empty() || more == ["Crawford"] => ab
                .split_once('-')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?, !more.is_empty()))),
            _ => None,
        };
        let Some(score) = parsed else {
            return Err(SyntaxError::Score(line.to_string()));
        };
        game.score = Some(score);
        return Ok(());
    }
    if line.starts_with("Wins ") || line.starts_with("Stuck") || line.starts_with("Unfinished") {
        game.result_line = Some(line.to_string());
        return Ok(());
    }
    let mut toks = line.split_whitespace();
    match toks.next() {
        Some(t) if t.ends_with(')') && t[..t.len() - 1].parse::<u32>().is_ok() => {}
        _ => return Err(SyntaxError::Line(line.to_string())),
    }
    for t in toks {
        if t == "--" || t == "pass" {
            continue;
        }
        if t.starts_with("double=") && parse_double(t).is_none() {
            return Err(SyntaxError::CubeAction(t.to_string()));
        }
        // A remainder marker (`rDxN:`) is kept so turns can be split again.
        let remainder = t.starts_with('r') && t.ends_with(':');
        if !t.starts_with("double=")
            && !remainder
            && let Some(roll) = t.strip_suffix(':')
            && notation::parse_roll(roll).is_none()
        {
            return Err(SyntaxError::Roll(t.to_string()));
        }
        game.marked.push(t.to_string());
    }
    Ok(())
}

/// The record's rules (from its `Variant` and `Rules` tags), its session at
/// the first game's start (the `Session` tag, else cubeless money play), and
/// a rotating match's games (empty when it has none).
fn settle_rules(
    read: &ReadRecord,
) -> Result<(RuleOptions, MatchState, Vec<RuleOptions>), RecordError> {
    let opts = rules_from_tags(
        read.variant_tag.as_ref().map(|t| t.1.as_str()),
        read.rules_words.as_ref().map(|t| t.1.as_str()),
    )
    .map_err(|source| RecordError::Rules {
        line: read
            .rules_words
            .as_ref()
            .or(read.variant_tag.as_ref())
            .map_or(0, |t| t.0),
        source,
    })?;
    let base = match &read.session_tag {
        Some((line, text)) => {
            text.parse::<crate::cube::SessionSpec>()
                .map_err(|e| RecordError::Syntax {
                    line: *line,
                    why: SyntaxError::Session(e),
                })?
                .0
        }
        None => crate::cube::cubeless(),
    };
    // A rotating match: game k is the (k mod n)-th game of the rotation,
    // each under its defaults; the first is the Variant tag's game.
    let rotation = match &read.rotation_tag {
        None => Vec::new(),
        Some((line, text)) => rotation_of(*line, text, opts.variant)?,
    };
    Ok((opts, base, rotation))
}

/// The games of a `Rotation` tag at `line`: at most 16, the first `first`.
fn rotation_of(line: usize, text: &str, first: Variant) -> Result<Vec<RuleOptions>, RecordError> {
    let mut list = Vec::new();
    for name in text.split(',') {
        let v: Variant = name
            .trim()
            .parse()
            .map_err(
                |e: crate::rules::options::OptionError| RecordError::Syntax {
                    line,
                    why: SyntaxError::RotationGame(e),
                },
            )?;
        list.push(RuleOptions::for_variant(v));
    }
    if list.len() > 16 || list.first().map(|o| o.variant) != Some(first) {
        return Err(RecordError::Syntax {
            line,
            why: SyntaxError::Rotation {
                text: text.to_string(),
                first,
            },
        });
    }
    Ok(list)
}

/// A game's tokens split into turns at the `65:` and `rDxN:` markers; a
/// cube action belongs to the roll after it, and a drop (the cube it
/// offered is returned) ends the game.
fn split_turns(
    game: usize,
    marked: Vec<String>,
) -> Result<(Vec<Segment>, Option<u32>), RecordError> {
    let mut segments: Vec<Segment> = Vec::new();
    let mut double: Option<(u32, CubeAnswer)> = None;
    let mut dropped: Option<u32> = None;
    let game_error = |why: CubeFault| RecordError::Cube { game, why };
    for t in marked {
        if dropped.is_some() {
            return Err(game_error(CubeFault::AfterDrop(t)));
        }
        if let Some((offered, answer)) = parse_double(&t) {
            if double.is_some() {
                return Err(game_error(CubeFault::TwoActions(t)));
            }
            if answer == CubeAnswer::Drop {
                dropped = Some(offered);
            } else {
                double = Some((offered, answer));
            }
        } else if let Some(head) = t.strip_suffix(':') {
            let roll = notation::parse_roll(head);
            if double.is_some() && roll.is_none() {
                return Err(game_error(CubeFault::BeforeRemainder));
            }
            segments.push((roll, Vec::new(), double.take()));
        } else if let Some(seg) = segments.last_mut() {
            seg.1.push(t);
        } else {
            return Err(game_error(CubeFault::MoveBeforeRoll));
        }
    }
    Ok((segments, dropped))
}

/// A double by the side to roll in `state`: the cube it offers must be
/// twice the cube, and the cube its own or in the middle. The doubler.
fn check_double(
    state: &GameState,
    cube: u32,
    owner: Option<Side>,
    offered: u32,
) -> Result<Side, CubeFault> {
    let doubler = state.to_move;
    if state.pending != crate::rules::Pending::Roll || state.result().is_some() {
        Err(CubeFault::NoRollDue(doubler))
    } else if offered != cube.saturating_mul(2) {
        Err(CubeFault::NotTwice { offered, cube })
    } else if owner.is_some_and(|o| o != doubler) {
        Err(CubeFault::NotOwner(doubler))
    } else {
        Ok(doubler)
    }
}

/// Replays game number `game` (1-based) under `opts` from `session`, turn
/// by turn, and checks its recorded result.
fn replay_game(
    game: usize,
    read: ReadGame,
    opts: RuleOptions,
    session: MatchState,
) -> Result<ReplayedGame, RecordError> {
    let game_error = |why: CubeFault| RecordError::Cube { game, why };
    let (segments, dropped) = split_turns(game, read.marked)?;
    let mut state = GameState::start_of(opts.variant, read.starter);
    let mut movegen = crate::rules::StageGen::new();
    let mut ends = Vec::new();
    let mut turns = Vec::new();
    let mut tokens = Vec::new();
    let mut cube = 1u32;
    let mut owner: Option<Side> = None;
    for (roll, moves, double) in segments {
        let before = state;
        if let Some((offered, answer)) = double {
            let doubler = check_double(&state, cube, owner, offered).map_err(game_error)?;
            owner = Some(doubler.opponent());
            cube = if answer == CubeAnswer::Beaver {
                offered.saturating_mul(2)
            } else {
                offered
            };
        }
        let illegal = |reason: notation::MoveFault, tok: &str| RecordError::Illegal {
            game,
            err: MovesError {
                index: tokens.len() + 1,
                token: tok.to_string(),
                reason,
            },
        };
        let start = match roll {
            Some((a, b)) => {
                let t = format!("{a}{b}");
                state.roll(&opts, a, b).map_err(|e| illegal(e.into(), &t))?
            }
            None => state,
        };
        let start = crate::rules::skip_forced_empty(start, &opts, &mut movegen, &mut ends);
        let words: Vec<&str> = moves.iter().map(String::as_str).collect();
        let over = start.result().is_some()
            || start.to_move != before.to_move
            || start.stage_dice().is_none();
        state = if over && words.is_empty() {
            start
        } else {
            notation::apply_turn(&start, &opts, &words).map_err(|why| match why {
                // The word itself is named once, counted in the game's
                // whole token list (the roll token first).
                notation::TurnWordsError::Moves(e) => RecordError::Illegal {
                    game,
                    err: MovesError {
                        index: tokens.len() + usize::from(roll.is_some()) + e.index,
                        ..e
                    },
                },
                other => illegal(
                    notation::MoveFault::Turn(Box::new(other)),
                    moves.first().map(String::as_str).unwrap_or(""),
                ),
            })?
        };
        if let Some((a, b)) = roll {
            tokens.push(format!("{a}{b}"));
        }
        tokens.extend(moves.iter().cloned());
        turns.push(ReplayedTurn {
            before,
            roll,
            moves,
            double: double.map(|d| d.1),
        });
    }
    let dropped_by = match dropped {
        Some(offered) => Some(check_double(&state, cube, owner, offered).map_err(game_error)?),
        None => None,
    };
    if let Some(line) = &read.result_line {
        check_result(game, line, &state, cube, dropped_by)?;
    }
    Ok(ReplayedGame {
        opts,
        players: read.names,
        turns,
        final_state: state,
        starter: read.starter,
        by_winner: read.by_winner,
        tokens,
        result_line: read.result_line,
        dropped_by,
        session,
    })
}

/// The recorded result `line` of game `game` against the replay's: the
/// final `state`, or a drop by `dropped_by` of the double to `cube`.
fn check_result(
    game: usize,
    line: &str,
    state: &GameState,
    cube: u32,
    dropped_by: Option<Side>,
) -> Result<(), RecordError> {
    let want = match dropped_by {
        Some(w) => Some(format!("{} on a drop", wins_line(cube, w))),
        None => state.result().map(|r| match r.winner {
            Some(w) => wins_line(u32::from(r.points), w),
            None => "Stuck: no points".into(),
        }),
    };
    // What the cube made of the result is the writer's word.
    let line = match line.split_once(", scoring ") {
        Some((head, n)) if n.parse::<u32>().is_ok() => head,
        _ => line,
    };
    if line != "Unfinished" && want.as_deref() != Some(line) {
        return Err(RecordError::Result {
            game,
            recorded: line.to_string(),
            replay: want,
        });
    }
    Ok(())
}
