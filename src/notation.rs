//! Text notation: positions, steps, plays, rolls and move lists.
//!
//! Documented for users in `protocol/NOTATION.md`.
//!
//! - Position text: 24 comma-separated signed counts for points 1..24 in
//!   White's numbering (White positive, Black negative, an empty token is 0),
//!   the side to move `w`|`b`, White's and Black's roll counts, then optional
//!   fields: `chain=D` (the side to move is in the middle of its escalating
//!   chain; its next stage is four `D`s), `rem=DxN` (the side to move plays a
//!   remainder: `N` dice of `D`, then four of each higher number) and
//!   `stuck=N` (rolls in a row without a checker moving), and in the
//!   hitting games `bar=W,B` (checkers on the bar) whenever either is
//!   non-zero, and in the pinning games `pins=P,...` (White's points where a
//!   checker lies pinned under the other colour's; the count gives the
//!   pinner's checkers). Black's own point `q` is White's `q ± 12` in Gul bara and long
//!   nardy, White's `25 − q` in short nardy and backgammon.
//! - A step: `from/to` in the mover's numbering, `from/off` when borne off,
//!   `bar/to` when it enters, a `*` after a hit. A play is its steps in
//!   order, or `pass`. A roll: two digits, `65`.

use crate::rules::options::{RuleOptions, Variant};
use crate::rules::position::{BAR, CHECKERS, Checkers, Position};
use crate::rules::state::{GameState, Pending, Side};
use crate::rules::step::Step;
use crate::rules::turn::{MoveFailure, MoveSequence, MoveToken, TurnError, TurnSequence};

/// Why position text, a step or a move token does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A `pins=` point with no checker.
    #[error("pins={0}: no checker on {0} to pin it")]
    PinWithoutChecker(u8),
    /// A side with more than 15 checkers once the pinned are added.
    #[error("{0} has more than 15 checkers with the pinned ones")]
    TooManyWithPins(&'static str),
    /// Checkers on the bar in a game without one.
    #[error("{0} has no bar")]
    NoBar(Variant),
    /// A side with more than 15 checkers.
    #[error("{who} has {count} checkers on the board and the bar, at most 15 allowed")]
    TooManyCheckers {
        /// `White` or `Black`.
        who: &'static str,
        /// Its checkers.
        count: u32,
    },
    /// No checker left on either side.
    #[error("both sides have borne off all checkers")]
    AllBorneOff,
    /// Counts no side's checkers can make.
    #[error("bad counts")]
    BadCounts,
    /// A point's count out of range.
    #[error("point {point}: '{token}' is not a count between -15 and 15")]
    BadCount {
        /// The point, 1..24.
        point: usize,
        /// Its token.
        token: String,
    },
    /// No board at all.
    #[error("missing the 24 point counts")]
    MissingCounts,
    /// Not 24 counts.
    #[error("expected 24 comma-separated point counts, got {0}")]
    CountFields(usize),
    /// The side to move is not `w` or `b`.
    #[error("side to move must be w or b, got '{0}'")]
    BadSideToMove(String),
    /// No side to move.
    #[error("missing the side to move (w or b)")]
    MissingSideToMove,
    /// A side's roll count is missing.
    #[error("missing {0}'s roll count")]
    MissingRollCount(&'static str),
    /// A side's roll count is not a number.
    #[error("{who}'s roll count must be a whole number, got '{token}'")]
    BadRollCount {
        /// `White` or `Black`.
        who: &'static str,
        /// The token.
        token: String,
    },
    /// `bar=` in a game without a bar.
    #[error("{0} has no bar (bar= is for the hitting games)")]
    BarField(Variant),
    /// A malformed `bar=`.
    #[error("bar=W,B needs two counts 0..15, got '{0}'")]
    BadBar(String),
    /// `pins=` in a game without pins.
    #[error("{0} has no pinned checkers (pins= is for the pinning games)")]
    PinsField(Variant),
    /// `pins=` twice.
    #[error("pins= may be given once")]
    PinsTwice,
    /// A malformed `pins=`.
    #[error("pins= needs points 1..24, got '{0}'")]
    BadPins(String),
    /// A point pinned twice.
    #[error("pins= names {0} twice")]
    PinNamedTwice(u8),
    /// `chain=` in a game without escalation.
    #[error("{0} has no escalating chains")]
    NoChains(Variant),
    /// Both `chain=` and `rem=`.
    #[error("only one of chain= and rem= may be given")]
    ChainAndRemainder,
    /// A malformed `chain=`.
    #[error("chain=D needs D in 2..6 (a later stage), got '{0}'")]
    BadChain(String),
    /// `rem=` in a game without escalation.
    #[error("{0} has no remainders")]
    NoRemainders(Variant),
    /// A malformed `rem=`.
    #[error("rem=DxN needs D in 1..6 and N in 1..4, got '{0}'")]
    BadRemainder(String),
    /// A malformed `stuck=`.
    #[error("stuck=N needs N in 0..100, got '{0}'")]
    BadStuck(String),
    /// The position breaks the game's rules.
    #[error(transparent)]
    Position(#[from] crate::rules::ruleset::PositionError),
    /// A stage pending in a finished game.
    #[error("a finished game has no pending stage")]
    PendingInFinishedGame,
    /// Words after the position.
    #[error("unexpected '{0}' after the position")]
    Trailing(String),
    /// A token that is not `from/to`.
    #[error("'{0}' is not a step (from/to)")]
    NotAStep(String),
    /// A step's source is not a point or the bar.
    #[error("'{0}': source must be a point 1..24 or bar")]
    BadSource(String),
    /// A step's destination is not a point or off.
    #[error("'{0}': destination must be a point 1..24 or off")]
    BadDestination(String),
    /// A step that moves backwards.
    #[error("'{0}': checkers move from higher to lower points")]
    Backwards(String),
}

/// The start position text.
pub const START_TEXT: &str = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 0 0";

/// The start position text of `variant`.
pub fn start_text(variant: Variant) -> String {
    state_text(&GameState::start_of(variant, Side::White))
}

/// Counts in White's numbering (White positive) from a state.
pub fn white_view(state: &GameState) -> [i8; 24] {
    let (white, black) = match state.to_move {
        Side::White => (state.pos.own, state.pos.opp),
        Side::Black => (state.pos.opp, state.pos.own),
    };
    let mut out = [0i8; 24];
    for p in 1..=24u8 {
        let q = state.variant.opponent_point(p);
        let w = white.at(p) as i8;
        let b = black.at(q) as i8;
        // A pinned checker is written in `pins=`, its pinner's count here.
        out[p as usize - 1] = if black.pinned(q) {
            w
        } else if white.pinned(p) {
            -b
        } else {
            w - b
        };
    }
    out
}

/// The points (White's numbering, increasing) where a checker lies pinned
/// under the other colour's (the pinning games).
pub fn pinned_points(state: &GameState) -> Vec<u8> {
    let (white, black) = match state.to_move {
        Side::White => (state.pos.own, state.pos.opp),
        Side::Black => (state.pos.opp, state.pos.own),
    };
    (1..=24u8)
        .filter(|&p| white.pinned(p) || black.pinned(state.variant.opponent_point(p)))
        .collect()
}

/// White's and Black's checkers on the bar.
pub fn bar_counts(state: &GameState) -> [u8; 2] {
    let (white, black) = match state.to_move {
        Side::White => (state.pos.own, state.pos.opp),
        Side::Black => (state.pos.opp, state.pos.own),
    };
    [white.bar(), black.bar()]
}

/// Builds the mover-view Gul bara position from White-view counts.
pub fn position_from_white_view(
    counts: &[i8; 24],
    to_move: Side,
) -> Result<Position, NotationError> {
    position_from_white_view_in(Variant::default(), counts, [0, 0], to_move)
}

/// [`position_from_white_view_in`] with the pinned checkers of the pinning
/// games: on each of `pins` (White's numbering) a single checker of the
/// other colour than the count's lies pinned under the count's checkers.
pub fn position_from_white_view_pinned(
    variant: Variant,
    counts: &[i8; 24],
    bar: [u8; 2],
    pins: &[u8],
    to_move: Side,
) -> Result<Position, NotationError> {
    if pins.is_empty() {
        return position_from_white_view_in(variant, counts, bar, to_move);
    }
    // Each side's checkers without the pinned ones, then the pinned added.
    let base = position_from_white_view_in(variant, counts, bar, Side::White)?;
    let (mut white, mut black) = (base.own, base.opp);
    for &p in pins {
        let q = variant.opponent_point(p);
        let c = counts[usize::from(p) - 1];
        let (who, side, at) = match c {
            1.. => ("Black", &mut black, q),
            ..=-1 => ("White", &mut white, p),
            0 => return Err(NotationError::PinWithoutChecker(p)),
        };
        if side.off() == 0 {
            return Err(NotationError::TooManyWithPins(who));
        }
        *side = side.moved(0, at).with_pin(at, true);
    }
    Ok(mover_view(white, black, to_move))
}

/// The position seen by `to_move`, from White's and Black's checkers.
fn mover_view(white: Checkers, black: Checkers, to_move: Side) -> Position {
    match to_move {
        Side::White => Position {
            own: white,
            opp: black,
        },
        Side::Black => Position {
            own: black,
            opp: white,
        },
    }
}

/// Builds the mover-view position of `variant` from White-view counts and
/// the bar counts (White's, Black's).
pub fn position_from_white_view_in(
    variant: Variant,
    counts: &[i8; 24],
    bar: [u8; 2],
    to_move: Side,
) -> Result<Position, NotationError> {
    if !variant.spec().landing.has_bar() && bar != [0, 0] {
        return Err(NotationError::NoBar(variant));
    }
    let mut white = [0u8; 24];
    let mut black = [0u8; 24];
    for (i, &c) in counts.iter().enumerate() {
        let p = i as u8 + 1;
        if c > 0 {
            white[i] = c as u8;
        } else if c < 0 {
            black[variant.opponent_point(p) as usize - 1] = c.unsigned_abs();
        }
    }
    let w: u32 = white.iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(bar[0]);
    let b: u32 = black.iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(bar[1]);
    if w > u32::from(CHECKERS) {
        return Err(NotationError::TooManyCheckers {
            who: "White",
            count: w,
        });
    }
    if b > u32::from(CHECKERS) {
        return Err(NotationError::TooManyCheckers {
            who: "Black",
            count: b,
        });
    }
    if w == 0 && b == 0 {
        return Err(NotationError::AllBorneOff);
    }
    let white = Checkers::from_counts_with_bar(&white, bar[0]).ok_or(NotationError::BadCounts)?;
    let black = Checkers::from_counts_with_bar(&black, bar[1]).ok_or(NotationError::BadCounts)?;
    Ok(mover_view(white, black, to_move))
}

/// Formats a state as position text (with its optional fields).
pub fn state_text(state: &GameState) -> String {
    let counts: Vec<String> = white_view(state).iter().map(|c| c.to_string()).collect();
    let mut s = format!(
        "{} {} {} {}",
        counts.join(","),
        side_text(state.to_move),
        state.rolls[0],
        state.rolls[1]
    );
    match state.pending {
        Pending::Chain { die, first: false } => s.push_str(&format!(" chain={die}")),
        Pending::Remainder { die, count } => s.push_str(&format!(" rem={die}x{count}")),
        _ => {}
    }
    if state.stuck > 0 {
        s.push_str(&format!(" stuck={}", state.stuck));
    }
    let bar = bar_counts(state);
    if bar != [0, 0] {
        s.push_str(&format!(" bar={},{}", bar[0], bar[1]));
    }
    let pins = pinned_points(state);
    if !pins.is_empty() {
        let list: Vec<String> = pins.iter().map(u8::to_string).collect();
        s.push_str(&format!(" pins={}", list.join(",")));
    }
    s
}

/// `w` or `b`.
pub fn side_text(side: Side) -> &'static str {
    match side {
        Side::White => "w",
        Side::Black => "b",
    }
}

/// The 24 point counts of a board token (`counts,...`).
fn parse_counts(board: &str) -> Result<[i8; 24], NotationError> {
    let parts: Vec<&str> = board.split(',').collect();
    if parts.len() != 24 {
        return Err(NotationError::CountFields(parts.len()));
    }
    let mut counts = [0i8; 24];
    for (i, t) in parts.iter().enumerate() {
        counts[i] = parse_count(t, i + 1)?;
    }
    Ok(counts)
}

/// White's and Black's roll counts, tokens 2 and 3.
fn parse_rolls(tokens: &[&str]) -> Result<[u32; 2], NotationError> {
    let mut rolls = [0u32; 2];
    for (k, who) in [(2, "White"), (3, "Black")] {
        let Some(t) = tokens.get(k) else {
            return Err(NotationError::MissingRollCount(who));
        };
        rolls[k - 2] = match t.parse::<u32>() {
            Ok(n) if n <= 100_000 => n,
            _ => {
                return Err(NotationError::BadRollCount {
                    who,
                    token: t.to_string(),
                });
            }
        };
    }
    Ok(rolls)
}

/// The value of a `bar=W,B` field.
fn parse_bar(variant: Variant, v: &str) -> Result<[u8; 2], NotationError> {
    if !variant.spec().landing.has_bar() {
        return Err(NotationError::BarField(variant));
    }
    let parsed = v.split_once(',').and_then(|(w, b)| {
        let w = w.parse::<u8>().ok()?;
        let b = b.parse::<u8>().ok()?;
        (w <= CHECKERS && b <= CHECKERS).then_some([w, b])
    });
    parsed.ok_or_else(|| NotationError::BadBar(v.to_string()))
}

/// Reads the value of a `pins=p,...` field into `pins` (empty before: a
/// second field is refused).
fn parse_pins(variant: Variant, v: &str, pins: &mut Vec<u8>) -> Result<(), NotationError> {
    if variant.spec().landing != crate::rules::Landing::Pin {
        return Err(NotationError::PinsField(variant));
    }
    if !pins.is_empty() {
        return Err(NotationError::PinsTwice);
    }
    for p in v.split(',') {
        let p = match p.parse::<u8>() {
            Ok(p) if (1..=24).contains(&p) => p,
            _ => return Err(NotationError::BadPins(v.to_string())),
        };
        if pins.contains(&p) {
            return Err(NotationError::PinNamedTwice(p));
        }
        pins.push(p);
    }
    Ok(())
}

/// The die and count of a `rem=DxN` field.
fn parse_remainder(v: &str) -> Result<(u8, u8), NotationError> {
    let parsed = v.split_once('x').and_then(|(d, n)| {
        let d = d.parse::<u8>().ok()?;
        let n = n.parse::<u8>().ok()?;
        ((1..=6).contains(&d) && (1..=4).contains(&n)).then_some((d, n))
    });
    parsed.ok_or_else(|| NotationError::BadRemainder(v.to_string()))
}

fn parse_count(tok: &str, point: usize) -> Result<i8, NotationError> {
    if tok.is_empty() {
        return Ok(0);
    }
    match tok.parse::<i8>() {
        Ok(n) if (-15..=15).contains(&n) => Ok(n),
        _ => Err(NotationError::BadCount {
            point,
            token: tok.to_string(),
        }),
    }
}

/// Parses Gul bara position text from its tokens. Returns the state and how
/// many tokens it used (the optional fields are taken while they match).
pub fn parse_state(tokens: &[&str]) -> Result<(GameState, usize), NotationError> {
    parse_state_in(Variant::default(), tokens)
}

/// Parses position text of `variant` from its tokens, as [`parse_state`].
pub fn parse_state_in(
    variant: Variant,
    tokens: &[&str],
) -> Result<(GameState, usize), NotationError> {
    let Some(board) = tokens.first() else {
        return Err(NotationError::MissingCounts);
    };
    let counts = parse_counts(board)?;
    let to_move = match tokens.get(1) {
        Some(&"w") => Side::White,
        Some(&"b") => Side::Black,
        Some(t) => return Err(NotationError::BadSideToMove(t.to_string())),
        None => return Err(NotationError::MissingSideToMove),
    };
    let rolls = parse_rolls(tokens)?;
    // The optional bar field may come anywhere among the optional fields;
    // the board is built once it is known.
    let mut bar = [0u8; 2];
    let mut pins: Vec<u8> = Vec::new();
    let mut state = GameState {
        variant,
        pos: variant.start(),
        to_move,
        rolls,
        pending: Pending::Roll,
        stuck: 0,
        moved_this_turn: false,
    };
    let mut used = 4;
    let mut seen_pending = false;
    while let Some(t) = tokens.get(used) {
        if let Some(v) = t.strip_prefix("bar=") {
            bar = parse_bar(variant, v)?;
        } else if let Some(v) = t.strip_prefix("pins=") {
            parse_pins(variant, v, &mut pins)?;
        } else if let Some(v) = t.strip_prefix("chain=") {
            if !variant.escalating() {
                return Err(NotationError::NoChains(variant));
            }
            if seen_pending {
                return Err(NotationError::ChainAndRemainder);
            }
            let die = match v.parse::<u8>() {
                Ok(d) if (2..=6).contains(&d) => d,
                _ => return Err(NotationError::BadChain(v.to_string())),
            };
            state.pending = Pending::Chain { die, first: false };
            // A later stage of a chain is reached only by playing the
            // previous stage's four dice: this roll has moved checkers (the
            // stuck count restarts when the chain ends).
            state.moved_this_turn = true;
            seen_pending = true;
        } else if let Some(v) = t.strip_prefix("rem=") {
            if !variant.escalating() {
                return Err(NotationError::NoRemainders(variant));
            }
            if seen_pending {
                return Err(NotationError::ChainAndRemainder);
            }
            let (die, count) = parse_remainder(v)?;
            state.pending = Pending::Remainder { die, count };
            seen_pending = true;
        } else if let Some(v) = t.strip_prefix("stuck=") {
            state.stuck = match v.parse::<u32>() {
                Ok(n) if n <= 100 => n,
                _ => return Err(NotationError::BadStuck(v.to_string())),
            };
        } else {
            break;
        }
        used += 1;
    }
    state.pos = position_from_white_view_pinned(variant, &counts, bar, &pins, to_move)?;
    crate::rules::ruleset::check_position(variant, state.pos)?;
    if state.result().is_some() && seen_pending {
        return Err(NotationError::PendingInFinishedGame);
    }
    Ok((state, used))
}

/// Parses a whole Gul bara position text string.
pub fn parse_state_text(text: &str) -> Result<GameState, NotationError> {
    parse_state_text_in(Variant::default(), text)
}

/// Parses a whole position text string of `variant`.
pub fn parse_state_text_in(variant: Variant, text: &str) -> Result<GameState, NotationError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (state, used) = parse_state_in(variant, &tokens)?;
    if used != tokens.len() {
        return Err(NotationError::Trailing(tokens[used].to_string()));
    }
    Ok(state)
}

/// A step as `from/to` or `from/off`.
pub fn step_text(s: Step) -> String {
    s.to_string()
}

/// Steps played from `pos` in `variant` as text, a `*` after each step that
/// hits (as gnubg writes it), `pass` for none.
pub fn play_text_at(variant: Variant, pos: Position, steps: &[Step]) -> String {
    if steps.is_empty() || !variant.spec().landing.marks_hits() {
        return play_text(steps);
    }
    let mut out = Vec::with_capacity(steps.len());
    let mut at = pos;
    for &s in steps {
        let hit = crate::rules::hitting::step_hits(at, s);
        out.push(if hit {
            format!("{}*", step_text(s))
        } else {
            step_text(s)
        });
        at = variant.apply_step(at, s);
    }
    out.join(" ")
}

/// Steps as text, `pass` for none.
pub fn play_text(steps: &[Step]) -> String {
    if steps.is_empty() {
        return "pass".into();
    }
    steps
        .iter()
        .map(|&s| step_text(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move-list token as text: `65`, `24/18`, `6/off`, `bar/22`, `pass`.
pub fn move_token_text(token: MoveToken) -> String {
    match token {
        MoveToken::Roll(a, b) => format!("{a}{b}"),
        MoveToken::Move { from: BAR, to } => format!("bar/{to}"),
        MoveToken::Move { from, to: 0 } => format!("{from}/off"),
        MoveToken::Move { from, to } => format!("{from}/{to}"),
        MoveToken::Pass => "pass".into(),
    }
}

/// A roll token `65` (two digits 1..6).
pub fn parse_roll(tok: &str) -> Option<(u8, u8)> {
    let b = tok.as_bytes();
    if b.len() == 2 && (b'1'..=b'6').contains(&b[0]) && (b'1'..=b'6').contains(&b[1]) {
        Some((b[0] - b'0', b[1] - b'0'))
    } else {
        None
    }
}

/// A `from/to` token: the source (25 for `bar`) and the destination (0 for
/// `off`). A `*` after the destination (a hit) is accepted and ignored: the
/// rules know whether a landing hits.
pub fn parse_step_token(tok: &str) -> Result<(u8, u8), NotationError> {
    let Some((f, t)) = tok.split_once('/') else {
        return Err(NotationError::NotAStep(tok.to_string()));
    };
    let t = t.strip_suffix('*').unwrap_or(t);
    let from = match f.parse::<u8>() {
        Ok(n) if (1..=24).contains(&n) => n,
        _ if f == "bar" => BAR,
        _ => return Err(NotationError::BadSource(tok.to_string())),
    };
    let to = if t == "off" {
        0
    } else {
        match t.parse::<u8>() {
            Ok(n) if (1..=24).contains(&n) => n,
            _ => return Err(NotationError::BadDestination(tok.to_string())),
        }
    };
    if to != 0 && to >= from {
        return Err(NotationError::Backwards(tok.to_string()));
    }
    Ok((from, to))
}

/// A move-list token: a roll (`65`), `pass`, or a checker's move
/// (`24/18`, combined `24/13`, `6/off`).
pub fn parse_move_token(tok: &str) -> Result<MoveToken, NotationError> {
    if let Some((d1, d2)) = parse_roll(tok) {
        return Ok(MoveToken::Roll(d1, d2));
    }
    if tok == "pass" {
        return Ok(MoveToken::Pass);
    }
    let (from, to) = parse_step_token(tok)?;
    Ok(MoveToken::Move { from, to })
}

/// An error in a move list: which token and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move token {index} '{token}': {reason}")]
pub struct MovesError {
    /// 1-based index of the token in the list.
    pub index: usize,
    /// The token itself (empty at the end of the list).
    pub token: String,
    /// What is wrong.
    pub reason: MoveFault,
}

/// Why a move token cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveFault {
    /// The rules refuse it.
    #[error(transparent)]
    Rules(#[from] crate::rules::turn::MoveError),
    /// It does not read.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A roll that cannot be rolled there.
    #[error(transparent)]
    Roll(#[from] crate::rules::state::PlayError),
    /// The words are not the turn (more, or fewer).
    #[error(transparent)]
    Turn(Box<TurnWordsError>),
}

impl MovesError {
    fn from_failure(tokens: &[&str], f: MoveFailure) -> MovesError {
        MovesError {
            index: f.index,
            token: f
                .index
                .checked_sub(1)
                .and_then(|i| tokens.get(i))
                .map(|t| t.to_string())
                .unwrap_or_default(),
            reason: MoveFault::Rules(f.error),
        }
    }
}

/// A move token that does not parse, reported as the rules would report
/// any move at that point (game over, a roll expected) or else as text.
fn unparsed(
    moves: &MoveSequence<'_>,
    tokens: &[&str],
    index: usize,
    e: NotationError,
) -> MovesError {
    match moves.expect_move() {
        Err(f) => MovesError::from_failure(tokens, f),
        Ok(_) => MovesError {
            index: index + 1,
            token: tokens[index].to_string(),
            reason: MoveFault::Notation(e),
        },
    }
}

/// Applies a move list written as text (see [`MoveSequence`] for what the
/// tokens do): roll tokens start turns, step tokens play the pending stage,
/// `pass` confirms a stage with nothing playable.
pub fn apply_moves(
    state: GameState,
    opts: &RuleOptions,
    tokens: &[&str],
) -> Result<GameState, MovesError> {
    let mut moves = MoveSequence::new(state, opts);
    for (i, &tok) in tokens.iter().enumerate() {
        let token = parse_move_token(tok).map_err(|e| unparsed(&moves, tokens, i, e))?;
        moves
            .push(token)
            .map_err(|f| MovesError::from_failure(tokens, f))?;
    }
    moves
        .finish()
        .map_err(|f| MovesError::from_failure(tokens, f))
}

/// Why the words of a turn are not exactly one turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnWordsError {
    /// A word cannot be applied (indices count the words other than `pass`).
    #[error(transparent)]
    Moves(#[from] MovesError),
    /// The turn ended before these words.
    #[error("extra words after the turn ended: '{words}'")]
    Extra {
        /// The extra words, space-separated.
        words: String,
    },
    /// The words stop before the turn ends.
    #[error("the turn is not complete")]
    Incomplete,
}

/// Applies exactly one turn of the side to move from `start` (a stage
/// pending: a rolled roll, or a remainder) written as words: they must make
/// up that whole turn, every stage of a chain included, and nothing more.
/// `pass` words are ignored (a turn with nothing playable is empty).
pub fn apply_turn(
    start: &GameState,
    opts: &RuleOptions,
    words: &[&str],
) -> Result<GameState, TurnWordsError> {
    let toks: Vec<&str> = words.iter().copied().filter(|w| *w != "pass").collect();
    let mut turn = TurnSequence::new(*start, opts);
    let from_turn = |toks: &[&str], e: TurnError| match e {
        TurnError::Move(f) => TurnWordsError::Moves(MovesError::from_failure(toks, f)),
        TurnError::Extra { index } => TurnWordsError::Extra {
            words: toks[index.saturating_sub(1).min(toks.len())..].join(" "),
        },
        TurnError::Incomplete => TurnWordsError::Incomplete,
    };
    for (k, &tok) in toks.iter().enumerate() {
        if turn.is_over() {
            return Err(TurnWordsError::Extra {
                words: toks[k..].join(" "),
            });
        }
        let token = parse_move_token(tok).map_err(|e| unparsed(turn.moves(), &toks, k, e))?;
        turn.push(token).map_err(|e| from_turn(&toks, e))?;
    }
    turn.finish().map_err(|e| from_turn(&toks, e))
}

#[cfg(test)]
mod tests;
