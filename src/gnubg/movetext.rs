//! Checker plays in gnubg's two notations.
//!
//! - The **combined** notation of gnubg's hints and of what an external
//!   player answers (`13/7*/5 6/5`, `bar/22`, `6/off`, `6/4(2)`): the steps
//!   are sorted by their source point, highest first (ties: the higher
//!   destination first); the steps of one checker are joined into one
//!   path, keeping a point where an opposing checker stood (it was hit) and
//!   dropping one where none stood; equal paths are written once with their
//!   count; a `*` follows the first landing on a point where an opposing
//!   checker stood, and every kept intermediate point.
//! - The **plain** notation of the `.mat` files gnubg exports (`13/10
//!   13/10 10/7 10/7`, `25/22*`, `6/0`): every step on its own in play
//!   order, 25 for the bar and 0 for off, a `*` after the first landing on
//!   a point where an opposing checker stood.
//!
//! Both are written from the mover's side: its points 24 down to 1. The
//! "opposing checker stood" tests look at the position before the play,
//! as gnubg's do.
//!
//! [`parse`] reads either notation (and the usual variants: `off`, `bar`,
//! `0`, `25`, `*` anywhere, `(n)`) into hops `(from, to)`; a hop may cover
//! several dice (`13/5` for 6-2). Plays are matched by the position they
//! end in, as gnubg matches them.

use crate::rules::position::BAR;
use crate::rules::{Position, Step};

/// The mover's point `p` in the opponent's numbering (the hitting games).
fn opposite(p: u8) -> u8 {
    25 - p
}

/// Whether an opposing checker stands on the mover's point `to` of `pos`.
fn opponent_on(pos: Position, to: u8) -> bool {
    (1..=24).contains(&to) && pos.opp.at(opposite(to)) > 0
}

fn point_text(p: u8, numeric: bool) -> String {
    match (p, numeric) {
        (0, false) => "off".into(),
        (BAR, false) => "bar".into(),
        _ => p.to_string(),
    }
}

/// A play in gnubg's combined notation, as its `FormatMove` writes it.
/// `steps` are the play's steps from `pos` (the mover's view); an empty
/// play is the empty string (gnubg's answer for "no move").
pub fn combined(pos: Position, steps: &[Step]) -> String {
    let mut hops: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to())).collect();
    // Highest source first, then the highest destination.
    hops.sort_by(|a, b| b.cmp(a));
    // Each path: the points it visits, the source first.
    let mut paths: Vec<Option<Vec<u8>>> = hops.iter().map(|&(f, t)| Some(vec![f, t])).collect();
    for i in 0..paths.len() {
        for j in i + 1..paths.len() {
            let (Some(pi), Some(pj)) = (&paths[i], &paths[j]) else {
                continue;
            };
            let last = pi[pi.len() - 1];
            if last != pj[0] {
                continue;
            }
            let next = pj[1];
            if let Some(pi) = paths[i].as_mut() {
                if opponent_on(pos, last) {
                    // A checker was hit there: the point stays in the path.
                    pi.push(next);
                } else {
                    let end = pi.len() - 1;
                    pi[end] = next;
                }
            }
            paths[j] = None;
        }
    }
    let mut counted: Vec<(Vec<u8>, usize)> = Vec::new();
    for p in paths.into_iter().flatten() {
        match counted.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n += 1,
            None => counted.push((p, 1)),
        }
    }
    let mut starred = [false; 26];
    let mut words = Vec::with_capacity(counted.len());
    for (path, count) in counted {
        let mut w = point_text(path[0], false);
        let last = path.len() - 1;
        for &mid in &path[1..last] {
            w.push('/');
            w.push_str(&point_text(mid, false));
            w.push('*');
            starred[usize::from(mid)] = true;
        }
        let dest = path[last];
        w.push('/');
        w.push_str(&point_text(dest, false));
        if dest > 0 && opponent_on(pos, dest) && !starred[usize::from(dest)] {
            w.push('*');
            starred[usize::from(dest)] = true;
        }
        if count > 1 {
            w.push_str(&format!("({count})"));
        }
        words.push(w);
    }
    words.join(" ")
}

/// A play in the plain notation of gnubg's `.mat` export (`FormatMovePlain`):
/// each step in play order, 25 the bar, 0 off, a `*` after the first
/// landing on a point where an opposing checker stood before the play, a
/// space after every step but a fourth.
pub fn plain(pos: Position, steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        let to = s.to();
        out.push_str(&format!("{}/{}", s.from, to));
        if opponent_on(pos, to) && !steps[..i].iter().any(|e| e.to() == to) {
            out.push('*');
        }
        if i < 3 {
            out.push(' ');
        }
    }
    out
}

/// Why a play's text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// A word that is not a path of points.
    #[error("'{0}' is not a checker move (like 13/7*/5, bar/22, 6/off, 6/4(2))")]
    BadWord(String),
    /// More hops than a turn has dice.
    #[error("more than four checker moves")]
    TooMany,
}

fn parse_point(t: &str) -> Option<u8> {
    match t {
        "bar" | "b" => Some(BAR),
        "off" | "o" => Some(0),
        _ if !t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()) => {
            t.parse::<u8>().ok().filter(|&p| p <= 25)
        }
        _ => None,
    }
}

/// The hops `(from, to)` of a play's text in either notation, in order:
/// `13/7*/5` is `(13, 7), (7, 5)`, `6/4(2)` is `(6, 4)` twice, `13/5` is
/// one hop. At most four hops; empty text is no move. Never panics.
pub fn parse(text: &str) -> Result<Vec<(u8, u8)>, MoveTextError> {
    let mut hops = Vec::new();
    for word in text.split_whitespace() {
        let bad = || MoveTextError::BadWord(word.chars().take(40).collect());
        let lower = word.to_ascii_lowercase();
        let (body, count) = match lower.split_once('(') {
            Some((body, rest)) => {
                let n = rest
                    .strip_suffix(')')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(bad)?;
                (body.to_string(), n)
            }
            None => (lower, 1),
        };
        let points: Vec<u8> = body
            .split('/')
            .map(|p| parse_point(p.trim_end_matches('*')).ok_or_else(bad))
            .collect::<Result<_, _>>()?;
        if points.len() < 2 || points.windows(2).any(|w| w[1] >= w[0]) {
            return Err(bad());
        }
        for _ in 0..count {
            for w in points.windows(2) {
                if hops.len() == 4 {
                    return Err(MoveTextError::TooMany);
                }
                hops.push((w[0], w[1]));
            }
        }
    }
    Ok(hops)
}

/// The position after the hops from `pos` (the mover's view), as gnubg
/// applies a parsed move: each hop lifts a checker from its source and, if
/// it lands on a single opposing checker, sends that one to the bar.
/// `None` if a hop starts where the mover has no checker or lands on a
/// point the opponent holds.
pub fn apply_hops(pos: Position, hops: &[(u8, u8)]) -> Option<Position> {
    let mut at = pos;
    for &(from, to) in hops {
        if from > BAR || to >= from || at.own.at(from) == 0 {
            return None;
        }
        if to > 0 {
            match at.opp.at(opposite(to)) {
                0 => {}
                1 => at.opp = at.opp.moved(opposite(to), BAR),
                _ => return None,
            }
        }
        at.own = at.own.moved(from, to);
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Checkers;
    use crate::rules::hitting::START;

    fn pos(own: &[(u8, u8)], opp: &[(u8, u8)]) -> Position {
        let side = |pts: &[(u8, u8)]| {
            let mut counts = [0u8; 24];
            let mut bar = 0;
            for &(p, n) in pts {
                if p == BAR {
                    bar = n;
                } else {
                    counts[usize::from(p) - 1] = n;
                }
            }
            Checkers::from_counts_with_bar(&counts, bar).unwrap()
        };
        Position {
            own: side(own),
            opp: side(opp),
        }
    }

    fn steps(list: &[(u8, u8)]) -> Vec<Step> {
        list.iter().map(|&(f, d)| Step::new(f, d)).collect()
    }

    #[test]
    fn combined_like_gnubg() {
        // 31 from the start: the point-making play.
        assert_eq!(combined(START, &steps(&[(6, 1), (8, 3)])), "8/5 6/5");
        // 64 running: one checker, no hit on the way.
        assert_eq!(combined(START, &steps(&[(24, 6), (18, 4)])), "24/14");
        // 33: two checkers 13/7, and 8/5(2) in any order of steps.
        let s = steps(&[(13, 3), (8, 3), (10, 3), (8, 3)]);
        assert_eq!(combined(START, &s), "13/7 8/5(2)");
        assert_eq!(combined(START, &[]), "");
        // A hit on the way and at the end; the bar; bearing off.
        let p = pos(&[(BAR, 1), (13, 5), (6, 5)], &[(18, 1), (20, 1), (24, 2)]);
        // The opponent's 18 and 20 are the mover's 7 and 5.
        assert_eq!(combined(p, &steps(&[(13, 6), (7, 2)])), "13/7*/5*");
        assert_eq!(combined(p, &steps(&[(BAR, 3), (13, 6)])), "bar/22 13/7*");
        let home = pos(&[(6, 2), (2, 1)], &[(20, 1)]);
        assert_eq!(combined(home, &steps(&[(6, 6), (6, 6)])), "6/off(2)");
        assert_eq!(combined(home, &steps(&[(2, 1), (1, 1)])), "2/off");
        // Through a blot on the way off: the hit point stays.
        let blot = pos(&[(2, 1)], &[(24, 1)]);
        assert_eq!(combined(blot, &steps(&[(2, 1), (1, 1)])), "2/1*/off");
    }

    #[test]
    fn plain_like_the_mat_export() {
        let s = steps(&[(13, 3), (13, 3), (10, 3), (10, 3)]);
        assert_eq!(plain(START, &s), "13/10 13/10 10/7 10/7");
        assert_eq!(plain(START, &steps(&[(13, 2), (24, 1)])), "13/11 24/23 ");
        let p = pos(&[(BAR, 1), (13, 5), (6, 5)], &[(3, 1), (24, 2)]);
        assert_eq!(plain(p, &steps(&[(BAR, 3), (13, 3)])), "25/22* 13/10 ");
        let home = pos(&[(6, 2)], &[(24, 1)]);
        assert_eq!(plain(home, &steps(&[(6, 6), (6, 6)])), "6/0 6/0 ");
    }

    #[test]
    fn parses_both_notations() {
        assert_eq!(parse("13/7*/5 6/5").unwrap(), [(13, 7), (7, 5), (6, 5)]);
        assert_eq!(parse("bar/22 6/off").unwrap(), [(25, 22), (6, 0)]);
        assert_eq!(parse("6/4(2)").unwrap(), [(6, 4), (6, 4)]);
        assert_eq!(
            parse("25/22* 13/10 6/0").unwrap(),
            [(25, 22), (13, 10), (6, 0)]
        );
        assert_eq!(parse("  ").unwrap(), []);
        assert_eq!(parse("13/5").unwrap(), [(13, 5)]);
        for bad in ["13-7", "7/13", "13/", "26/20", "6/4(5)", "x/y", "13/7(2"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("6/4(2) 8/7(2) 1/off"), Err(MoveTextError::TooMany));
    }

    #[test]
    fn hops_apply_with_hits() {
        let p = pos(&[(13, 5), (6, 5)], &[(18, 1), (24, 2)]);
        let after = apply_hops(p, &[(13, 7), (7, 5)]).unwrap();
        assert_eq!(after.opp.bar(), 1);
        assert_eq!(after.own.at(5), 1);
        // A jump over the blot does not hit it.
        let jumped = apply_hops(p, &[(13, 5)]).unwrap();
        assert_eq!(jumped.opp.bar(), 0);
        assert!(apply_hops(p, &[(12, 5)]).is_none());
        assert!(apply_hops(p, &[(6, 1)]).is_none()); // the opponent's 24 is held
    }
}
