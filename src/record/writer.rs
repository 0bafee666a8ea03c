//! Writing records: each game's lines and the whole record.

use std::fmt::Write as _;

#[allow(clippy::wildcard_imports)]
use super::*;

/// Writes one game.
pub fn write_game(out: &mut String, number: usize, g: &RecordedGame) {
    let _ = writeln!(out, " Game {number}");
    let _ = writeln!(
        out,
        " White : {:<32} Black : {}",
        g.players[0], g.players[1]
    );
    if let Some(sc) = g.cube.score {
        let _ = writeln!(
            out,
            " Score {}-{} to {}{}",
            sc.white,
            sc.black,
            sc.length,
            if sc.crawford { " Crawford" } else { "" }
        );
    }
    match g.opening {
        Some((w, b)) => {
            let _ = writeln!(out, " Opening {w}-{b} starter {}", side_name(g.starter));
        }
        None => {
            let _ = writeln!(out, " Opening winner starter {}", side_name(g.starter));
        }
    }
    // Group turns into White/Black slots: a slot is a side's remainder (if
    // any) and then its roll.
    let mut slots: Vec<[Vec<String>; 2]> = Vec::new();
    let mut current: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let has_roll = |v: &Vec<String>| v.iter().any(|s| !s.starts_with('r'));
    let mut cube = 1u32;
    let mut items: Vec<(Side, String)> = g
        .turns
        .iter()
        .map(|t| (t.side, t.text(&mut cube)))
        .collect();
    if let Some(doubler) = g.cube.dropped_by {
        items.push((doubler, format!("double={}:drop", cube.saturating_mul(2))));
    }
    for (side, text) in items {
        let i = side.index();
        let new_line = if i == 0 {
            !current[1].is_empty() || has_roll(&current[0])
        } else {
            has_roll(&current[1])
        };
        if new_line {
            slots.push(std::mem::take(&mut current));
        }
        current[i].push(text);
    }
    if !current[0].is_empty() || !current[1].is_empty() {
        slots.push(current);
    }
    for (n, [w, b]) in slots.iter().enumerate() {
        let w = if w.is_empty() {
            "--".to_string()
        } else {
            w.join(" ")
        };
        let b = if b.is_empty() {
            "--".to_string()
        } else {
            b.join(" ")
        };
        let _ = writeln!(out, "{:>3}) {:<40} {}", n + 1, w, b);
    }
    if let Some(note) = &g.note {
        let _ = writeln!(out, " ; {note}");
    }
    let line = match (g.cube.dropped_by, g.result) {
        (Some(doubler), _) => format!("{} on a drop", wins_line(cube, doubler)),
        (
            None,
            Some(GameResult {
                winner: Some(w),
                points,
            }),
        ) => {
            let scored = match g.cube.scored {
                Some(n) if n != u32::from(points) => format!(", scoring {n}"),
                _ => String::new(),
            };
            format!("{}{scored}", wins_line(u32::from(points), w))
        }
        (None, Some(GameResult { winner: None, .. })) => "Stuck: no points".into(),
        (None, None) => "Unfinished".into(),
    };
    let _ = writeln!(out, " {line}");
    out.push('\n');
}

/// The whole record as text.
pub fn write_record(rec: &Record) -> String {
    let mut out = String::new();
    for (k, v) in &rec.tags {
        let _ = writeln!(out, "; [{k} \"{}\"]", v.replace('"', "'"));
    }
    out.push('\n');
    for (i, g) in rec.games.iter().enumerate() {
        write_game(&mut out, i + 1, g);
    }
    out
}
