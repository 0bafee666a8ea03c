//! Reading records back: the tags, each game's tokens, and a replay of
//! every game against the rules that checks its recorded result.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A record that fails to parse or replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Malformed text.
    #[error("line {line}: {msg}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
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
    /// A game's moves are not legal.
    #[error("game {game}: {err}")]
    Illegal {
        /// 1-based game number.
        game: usize,
        /// The first bad token.
        err: MovesError,
    },
    /// The recorded result disagrees with the replay.
    #[error("game {game}: {msg}")]
    Result {
        /// 1-based game number.
        game: usize,
        /// What differs.
        msg: String,
    },
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
    // Tags are read wherever they stand; the rules are settled once the
    // whole text is read, whichever order `Variant` and `Rules` came in.
    let mut variant_tag: Option<(usize, String)> = None;
    let mut rotation_tag: Option<(usize, String)> = None;
    let mut rules_words: Option<(usize, String)> = None;
    let mut games: Vec<(Side, Vec<String>, Option<String>)> = Vec::new();
    // Per game: started by the last game's winner, with no opening throw.
    let mut by_winner: Vec<bool> = Vec::new();
    let mut session_tag: Option<(usize, String)> = None;
    let mut scores: Vec<Option<(u32, u32, bool)>> = Vec::new();
    let mut names: Vec<[String; 2]> = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let syntax = |msg: String| RecordError::Syntax { line: ln + 1, msg };
        if let Some(tag) = line.strip_prefix("; [") {
            let value = |rest: &str| rest.trim_end_matches("\"]").to_string();
            if let Some(rest) = tag.strip_prefix("Rules \"") {
                // Several Rules tags add up, later words winning.
                let words = match rules_words.take() {
                    Some((at, before)) => (at, format!("{before} {}", value(rest))),
                    None => (ln + 1, value(rest)),
                };
                rules_words = Some(words);
            } else if let Some(rest) = tag.strip_prefix("Rotation \"") {
                rotation_tag = Some((ln + 1, value(rest)));
            } else if let Some(rest) = tag.strip_prefix("Session \"") {
                session_tag = Some((ln + 1, value(rest)));
            } else if let Some(rest) = tag.strip_prefix("Variant \"") {
                let v = value(rest);
                if variant_tag
                    .as_ref()
                    .is_some_and(|(_, w)| w.trim() != v.trim())
                {
                    return Err(syntax(format!("a second, different Variant tag '{v}'")));
                }
                variant_tag = Some((ln + 1, v));
            }
            continue;
        }
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if line.starts_with("Game ") {
            games.push((Side::White, Vec::new(), None));
            by_winner.push(false);
            scores.push(None);
            names.push([String::new(), String::new()]);
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(syntax("moves before the first 'Game' line".into()));
        };
        if let Some(rest) = line.strip_prefix("White :") {
            if let (Some(n), Some((w, b))) = (names.last_mut(), rest.split_once(" Black : ")) {
                *n = [w.trim().to_string(), b.trim().to_string()];
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("Opening ") {
            game.0 = if rest.ends_with("starter Black") {
                Side::Black
            } else if rest.ends_with("starter White") {
                Side::White
            } else {
                return Err(syntax(format!("bad opening line '{line}'")));
            };
            if let Some(last) = by_winner.last_mut() {
                *last = rest.starts_with("winner ");
            }
            continue;
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
                return Err(syntax(format!("bad score line '{line}'")));
            };
            if let Some(last) = scores.last_mut() {
                *last = Some(score);
            }
            continue;
        }
        if line.starts_with("Wins ") || line.starts_with("Stuck") || line.starts_with("Unfinished")
        {
            game.2 = Some(line.to_string());
            continue;
        }
        let mut toks = line.split_whitespace();
        match toks.next() {
            Some(t) if t.ends_with(')') && t[..t.len() - 1].parse::<u32>().is_ok() => {}
            _ => return Err(syntax(format!("unexpected line '{line}'"))),
        }
        for t in toks {
            if t == "--" || t == "pass" {
                continue;
            }
            if t.starts_with("double=") {
                if parse_double(t).is_none() {
                    return Err(syntax(format!(
                        "bad cube action '{t}' (double=N:take, double=N:beaver or double=N:drop)"
                    )));
                }
                game.1.push(t.to_string());
                continue;
            }
            if t.starts_with('r') && t.ends_with(':') {
                // Remainder marker: kept so turns can be split again.
                game.1.push(t.to_string());
                continue;
            }
            if let Some(roll) = t.strip_suffix(':') {
                if notation::parse_roll(roll).is_none() {
                    return Err(syntax(format!("bad roll '{t}'")));
                }
                game.1.push(t.to_string());
            } else {
                game.1.push(t.to_string());
            }
        }
    }
    let opts = rules_from_tags(
        variant_tag.as_ref().map(|t| t.1.as_str()),
        rules_words.as_ref().map(|t| t.1.as_str()),
    )
    .map_err(|source| RecordError::Rules {
        line: rules_words
            .as_ref()
            .or(variant_tag.as_ref())
            .map_or(0, |t| t.0),
        source,
    })?;
    let base = match &session_tag {
        Some((line, text)) => {
            text.parse::<crate::cube::SessionSpec>()
                .map_err(|e| RecordError::Syntax {
                    line: *line,
                    msg: e.to_string(),
                })?
                .0
        }
        None => crate::cube::cubeless(),
    };
    // A rotating match: game k is the (k mod n)-th game of the rotation,
    // each under its defaults; the first is the Variant tag's game.
    let rotation: Vec<RuleOptions> = match &rotation_tag {
        None => Vec::new(),
        Some((line, text)) => {
            let mut list = Vec::new();
            for name in text.split(',') {
                let v: Variant =
                    name.trim()
                        .parse()
                        .map_err(
                            |e: crate::rules::options::OptionError| RecordError::Syntax {
                                line: *line,
                                msg: format!("Rotation: {e}"),
                            },
                        )?;
                list.push(RuleOptions::for_variant(v));
            }
            if list.len() > 16 || list.first().map(|o| o.variant) != Some(opts.variant) {
                return Err(RecordError::Syntax {
                    line: *line,
                    msg: format!(
                        "Rotation '{text}' must list at most 16 games, the first the Variant tag's ({})",
                        opts.variant
                    ),
                });
            }
            list
        }
    };
    let mut out = Vec::new();
    for (i, (starter, marked, result_line)) in games.into_iter().enumerate() {
        let opts = if rotation.is_empty() {
            opts
        } else {
            rotation[i % rotation.len()]
        };
        let mut session = base;
        if let Some(Some((white, black, crawford))) = scores.get(i) {
            session
                .set_score(*white, *black, Some(*crawford))
                .map_err(|e| RecordError::Syntax {
                    line: 0,
                    msg: format!("game {}: {e}", i + 1),
                })?;
        }
        // Split into turns at the `65:` and `rDxN:` markers; a cube action
        // belongs to the roll after it (a drop ends the game).
        let mut segments: Vec<Segment> = Vec::new();
        let mut double: Option<(u32, CubeAnswer)> = None;
        let mut dropped: Option<u32> = None;
        let game_error = |msg: String| RecordError::Syntax {
            line: 0,
            msg: format!("game {}: {msg}", i + 1),
        };
        for t in marked {
            if dropped.is_some() {
                return Err(game_error(format!("'{t}' after a dropped double")));
            }
            if let Some((offered, answer)) = parse_double(&t) {
                if double.is_some() {
                    return Err(game_error(format!(
                        "two cube actions before a roll ('{t}')"
                    )));
                }
                if answer == CubeAnswer::Drop {
                    dropped = Some(offered);
                } else {
                    double = Some((offered, answer));
                }
            } else if let Some(head) = t.strip_suffix(':') {
                let roll = notation::parse_roll(head);
                if double.is_some() && roll.is_none() {
                    return Err(game_error("a cube action before a remainder".into()));
                }
                segments.push((roll, Vec::new(), double.take()));
            } else if let Some(seg) = segments.last_mut() {
                seg.1.push(t);
            } else {
                return Err(RecordError::Syntax {
                    line: 0,
                    msg: format!("game {}: a move before the first roll", i + 1),
                });
            }
        }
        let mut state = GameState::start_of(opts.variant, starter);
        let mut movegen = crate::rules::StageGen::new();
        let mut ends = Vec::new();
        let mut turns = Vec::new();
        let mut tokens = Vec::new();
        let mut cube = 1u32;
        let mut owner: Option<Side> = None;
        // A double by the side to roll in `state`: the cube it offers must
        // be twice the cube, and the cube its own or in the middle.
        let check_double = |state: &GameState, cube: u32, owner: Option<Side>, offered: u32| {
            let doubler = state.to_move;
            if state.pending != crate::rules::Pending::Roll || state.result().is_some() {
                Err(format!(
                    "a double by {} where no roll is due",
                    side_name(doubler)
                ))
            } else if offered != cube.saturating_mul(2) {
                Err(format!("a double to {offered} with the cube at {cube}"))
            } else if owner.is_some_and(|o| o != doubler) {
                Err(format!(
                    "{} doubles a cube it does not own",
                    side_name(doubler)
                ))
            } else {
                Ok(doubler)
            }
        };
        for (roll, moves, double) in segments {
            let before = state;
            if let Some((offered, answer)) = double {
                let doubler = check_double(&state, cube, owner, offered).map_err(&game_error)?;
                owner = Some(doubler.opponent());
                cube = if answer == CubeAnswer::Beaver {
                    offered.saturating_mul(2)
                } else {
                    offered
                };
            }
            let illegal = |reason: String, tok: &str| RecordError::Illegal {
                game: i + 1,
                err: MovesError {
                    index: tokens.len() + 1,
                    token: tok.to_string(),
                    reason,
                },
            };
            let start = match roll {
                Some((a, b)) => {
                    let t = format!("{a}{b}");
                    state
                        .roll(&opts, a, b)
                        .map_err(|e| illegal(e.to_string(), &t))?
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
                        game: i + 1,
                        err: MovesError {
                            index: tokens.len() + usize::from(roll.is_some()) + e.index,
                            ..e
                        },
                    },
                    other => illegal(
                        other.to_string(),
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
            Some(offered) => Some(check_double(&state, cube, owner, offered).map_err(&game_error)?),
            None => None,
        };
        if let Some(line) = &result_line {
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
                _ => line.as_str(),
            };
            if line != "Unfinished" && want.as_deref() != Some(line) {
                return Err(RecordError::Result {
                    game: i + 1,
                    msg: format!("recorded '{line}', replay gives {want:?}"),
                });
            }
        }
        out.push(ReplayedGame {
            opts,
            players: names.get(i).cloned().unwrap_or_default(),
            turns,
            final_state: state,
            starter,
            by_winner: by_winner.get(i).copied().unwrap_or(false),
            tokens,
            result_line,
            dropped_by,
            session,
        });
    }
    Ok((opts, out))
}
