//! Match equity tables for the games that have no published one, from the
//! game's own results: how often a game ends in a gammon (mars) or a
//! backgammon when the shipped network plays itself (measured by
//! `crate::matchplay::met_rates`, which runs the matches), then the match
//! recursion over those results.
//!
//! These tables are for matches played without the cube (the Gul bara and
//! nardy default): each game is a coin toss between equal players, won
//! single, gammon or backgammon at the measured rates, so the chance from a
//! score is the average over the game's results of the chance from the
//! score after it. The Crawford rule changes nothing without a cube: the
//! post-Crawford row is the pre-Crawford one.

use std::fmt::Write as _;

use crate::rules::Variant;

/// How a game of a variant ends between equal players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// Games measured.
    pub games: usize,
    /// Share of games won by a gammon (mars) that is not a backgammon.
    pub gammon: f64,
    /// Share of games won by a backgammon.
    pub backgammon: f64,
}

/// The match equity table to `length` points of a game without the cube
/// whose games end at `rates`: `table[i][j]` is the chance of the player
/// `i + 1` away against `j + 1` away.
pub fn cubeless_table(length: usize, rates: &Rates) -> Vec<Vec<f64>> {
    let single = (1.0 - rates.gammon - rates.backgammon).max(0.0);
    let results = [(1usize, single), (2, rates.gammon), (3, rates.backgammon)];
    // m[a][b] with a, b = points away, 0 = won.
    let mut m = vec![vec![0.0f64; length + 1]; length + 1];
    for a in 0..=length {
        for b in 0..=length {
            m[a][b] = match (a, b) {
                (0, _) => 1.0,
                (_, 0) => 0.0,
                _ => {
                    let mut v = 0.0;
                    for &(k, q) in &results {
                        v += 0.5 * q * m[a.saturating_sub(k)][b];
                        v += 0.5 * q * m[a][b.saturating_sub(k)];
                    }
                    v
                }
            };
        }
    }
    (1..=length)
        .map(|a| (1..=length).map(|b| m[a][b]).collect())
        .collect()
}

/// The table as `gulbara met` writes it: `#` comment lines saying what it
/// is, then one row per line (the player 1, 2, ... away), values separated
/// by spaces.
pub fn write_table(variant: Variant, rates: &Rates, table: &[Vec<f64>]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# gulbara match equity table: {variant}, without the cube, {} points",
        table.len()
    );
    let _ = writeln!(
        out,
        "# from {} games of the shipped network against itself at 0-ply: gammon (mars) {:.4}, backgammon {:.4}",
        rates.games, rates.gammon, rates.backgammon
    );
    let _ = writeln!(
        out,
        "# row i, column j: the chance of the player i away against j away"
    );
    for row in table {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:.6}")).collect();
        let _ = writeln!(out, "{}", cells.join(" "));
    }
    out
}

/// Reads a table `write_table` wrote; `None` if it is not square, or a
/// value is not a chance.
pub fn read_table(text: &str) -> Option<Vec<Vec<f64>>> {
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().ok()).collect())
        .collect::<Option<_>>()?;
    let n = rows.len();
    let ok = n > 0
        && rows
            .iter()
            .all(|r| r.len() == n && r.iter().all(|v| (0.0..=1.0).contains(v)));
    ok.then_some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recursion_by_hand() {
        // No gammons: from 1-away each, 1/2; 2-away against 1-away, 1/4.
        let r = Rates {
            games: 0,
            gammon: 0.0,
            backgammon: 0.0,
        };
        let t = cubeless_table(3, &r);
        assert!((t[0][0] - 0.5).abs() < 1e-12);
        assert!((t[1][0] - 0.25).abs() < 1e-12);
        // All gammons: 2-away is 1-away.
        let g = Rates {
            games: 0,
            gammon: 1.0,
            backgammon: 0.0,
        };
        let t = cubeless_table(4, &g);
        assert!((t[1][0] - 0.5).abs() < 1e-12);
        for (a, row) in t.iter().enumerate() {
            for (b, x) in row.iter().enumerate() {
                assert!((x + t[b][a] - 1.0).abs() < 1e-12);
            }
        }
        let text = write_table(Variant::GulBara, &g, &t);
        let back = read_table(&text).unwrap();
        assert!(
            back.iter()
                .flatten()
                .zip(t.iter().flatten())
                .all(|(a, b)| (a - b).abs() < 1e-6)
        );
    }
}
