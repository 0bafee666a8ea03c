//! `show`: the board, the position text, the side to move, pips, borne-off
//! and bar checkers, gnubg's and XG's texts where they describe the game,
//! the pending roll or stage, the result, then `showok`.

use super::{Verb, bare_word};
use crate::cube::CubeOwner;
use crate::notation::{side_text, state_text, white_view};
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};
use crate::rules::{GameState, Pending, Side, Variant};

bare_word!(
    /// `show`: the board and the state, then `showok`.
    Show = "show"
);

impl Verb for Show {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        show(session);
        Ok(Flow::Continue)
    }
}

/// Writes `show`'s lines.
fn show(this: &Session) {
    let s = this.state();
    for l in board_lines(s) {
        this.say(&l);
    }
    this.say(&format!("position {}", state_text(s)));
    let (w, b) = match s.to_move {
        Side::White => (s.pos.own, s.pos.opp),
        Side::Black => (s.pos.opp, s.pos.own),
    };
    this.say(&format!("tomove {}", side_text(s.to_move)));
    this.say(&format!("pips white {} black {}", w.pips(), b.pips()));
    this.say(&format!("off white {} black {}", w.off(), b.off()));
    // Gul bara's lines stay as they always were; the other games add
    // their name (and the bar in the hitting games).
    if s.variant.spec().landing.has_bar() {
        this.say(&format!("bar white {} black {}", w.bar(), b.bar()));
    }
    if let Some((gnubgid, xgid)) = id_texts(s, this.engine().session()) {
        this.say(&format!("gnubgid {gnubgid}"));
        this.say(&format!("xgid {xgid}"));
    }
    if s.variant != Variant::default() {
        this.say(&format!("variant {}", s.variant));
    }
    this.say(&format!("rolls white {} black {}", s.rolls[0], s.rolls[1]));
    let pending = match s.pending {
        Pending::Roll => "roll".to_string(),
        Pending::Roll2 { d1, d2 } => format!("dice {d1}{d2}"),
        Pending::Chain { die, first: true } => format!("dice {die}{die} escalating"),
        Pending::Chain { die, first: false } => format!("chain {die}"),
        Pending::Remainder { die, count } => format!("remainder {die}x{count}"),
    };
    this.say(&format!("pending {pending}"));
    if let Some(r) = s.result() {
        match r.winner {
            Some(side) => this.say(&format!(
                "result winner {} points {}",
                side_text(side),
                r.points
            )),
            // Both mothers pinned (the pinning games) is a draw.
            None if s.pos.mothers().is_some() => this.say("result draw points 0"),
            None => this.say("result stuck points 0"),
        }
    }
    let session = this.engine().session();
    if *session != crate::engine::default_session(s.variant) {
        this.say(&session_line(session));
    }
    if let Some(r) = this.engine().rotation() {
        this.say(&format!(
            "rotation {} game {}",
            crate::rules::Variant::list_text(&r.games),
            r.played + 1
        ));
        if !r.winner_starts {
            this.say("rotation starter throw");
        }
    }
    this.say("showok");
}

/// gnubg's Position and Match IDs (`<PositionID>:<MatchID>`) and eXtreme
/// Gammon's XGID of `s` in session `m`, the side to move on roll (with its
/// dice when they are rolled); `None` in the games gnubg does not play.
pub fn id_texts(s: &GameState, m: &crate::cube::MatchState) -> Option<(String, String)> {
    if !s.variant.spec().gnubg {
        return None;
    }
    let board = crate::gnubg::board_of(s.pos);
    let dice = match s.pending {
        Pending::Roll2 { d1, d2 } => Some((d1, d2)),
        _ => None,
    };
    let mover = s.to_move;
    // Player 1 is on roll, as gnubg's own IDs have it by default.
    let player = |side: Side| u8::from(side == mover);
    let doubled = m.doubled_by() == Some(mover);
    let info = crate::gnubg::matchid::MatchInfo {
        dice,
        cube: m.cube(),
        cube_owner: match m.owner() {
            CubeOwner::Centre => None,
            CubeOwner::Side(o) => Some(player(o)),
        },
        on_roll: player(mover),
        deciding: if doubled {
            player(mover.opponent())
        } else {
            player(mover)
        },
        doubled,
        crawford: m.is_crawford(),
        match_length: m.length(),
        score: [m.score(mover.opponent()), m.score(mover)],
        jacoby: m.rules().jacoby,
        ..Default::default()
    };
    Some((
        format!(
            "{}:{}",
            crate::gnubg::position_id::encode(&board),
            crate::gnubg::matchid::encode(&info)
        ),
        crate::gnubg::xgid::encode_in(&board, dice, m, mover),
    ))
}

/// `show`'s line of a session other than the game's default (money play,
/// 0-0, the cube in the middle): `session money|match [length <n>] score
/// white <a> black <b> cube <value> owner <center|white|black>
/// [crawford|postcrawford] [doubled <white|black>] [jacoby] [beavers]
/// [nocube]`.
pub fn session_line(m: &crate::cube::MatchState) -> String {
    use crate::cube::{SessionKind, state::side_name};
    let mut l = match m.kind() {
        SessionKind::Money => "session money".to_string(),
        SessionKind::Match { length } => format!("session match length {length}"),
    };
    l.push_str(&format!(
        " score white {} black {} cube {} owner {}",
        m.score(Side::White),
        m.score(Side::Black),
        m.cube(),
        m.owner()
    ));
    if m.is_crawford() {
        l.push_str(" crawford");
    } else if m.is_post_crawford() {
        l.push_str(" postcrawford");
    }
    if let Some(d) = m.doubled_by() {
        l.push_str(&format!(" doubled {}", side_name(d)));
    }
    let r = m.rules();
    if r.jacoby {
        l.push_str(" jacoby");
    }
    if r.beavers {
        l.push_str(" beavers");
    }
    if !r.cube {
        l.push_str(" nocube");
    }
    l
}

/// The ASCII board of `show`: four lines starting with `board`, points
/// 13..24 on top and 12..1 below (White's numbering), `15W` for fifteen
/// White checkers, `3B` for three Black ones, `.` for an empty point; in the
/// pinning games `1Wb` for one White checker pinning a Black one (`2Bw`:
/// two Black pinning a White).
pub fn board_lines(state: &GameState) -> Vec<String> {
    let v = white_view(state);
    let pins = crate::notation::pinned_points(state);
    let cell = |p: usize| -> String {
        let c = v[p - 1];
        let pinned = pins.contains(&(p as u8));
        let t = match c {
            0 => ".".to_string(),
            n if n > 0 && pinned => format!("{n}Wb"),
            n if n > 0 => format!("{n}W"),
            n if pinned => format!("{}Bw", -n),
            n => format!("{}B", -n),
        };
        format!("{t:>4}")
    };
    let num = |p: usize| format!("{p:>4}");
    let row = |pts: &[usize], f: &dyn Fn(usize) -> String| -> String {
        let a: String = pts[..6].iter().map(|&p| f(p)).collect();
        let b: String = pts[6..].iter().map(|&p| f(p)).collect();
        format!("board{a} |{b}")
    };
    let top: Vec<usize> = (13..=24).collect();
    let bottom: Vec<usize> = (1..=12).rev().collect();
    vec![
        row(&top, &num),
        row(&top, &cell),
        row(&bottom, &cell),
        row(&bottom, &num),
    ]
}
