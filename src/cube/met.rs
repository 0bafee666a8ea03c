//! Match equity tables: the chance of winning the match from a score, before
//! a game starts. Backgammon uses Kazaross-XG2 ([`super::kazaross_xg2()`]),
//! gnubg's default.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::generate::read_table;
use super::kazaross_xg2 as xg2_data;
use crate::rules::Variant;

/// A match equity table: match-winning chances by points away, before
/// and after the Crawford game.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    /// Its name.
    pub name: String,
    /// `pre[i][j]`: the chance of the player `i + 1` away against `j + 1` away.
    pre: Vec<Vec<f64>>,
    /// `post[i]`: the trailer `i + 1` away against a leader 1 away, after
    /// the Crawford game; `None` when the Crawford rule changes nothing
    /// (matches without the cube).
    post: Option<Vec<f64>>,
}

/// Kazaross-XG2, 25 points.
pub fn kazaross_xg2() -> &'static Met {
    static TABLE: OnceLock<Met> = OnceLock::new();
    TABLE.get_or_init(|| Met {
        name: "Kazaross XG2 25 point MET".into(),
        pre: xg2_data::PRE.iter().map(|r| r.to_vec()).collect(),
        post: Some(xg2_data::POST.to_vec()),
    })
}

/// The table a match of `variant` is played with: its own (written by
/// `gulbara met`, in its row of the variant table) when it is played
/// without the cube and has one, else Kazaross-XG2.
pub fn met_for(variant: Variant, cube: bool) -> &'static Met {
    static TABLES: OnceLock<Mutex<HashMap<Variant, &'static Met>>> = OnceLock::new();
    let Some(text) = variant.spec().met.filter(|_| !cube) else {
        return kazaross_xg2();
    };
    let Ok(mut tables) = TABLES.get_or_init(Default::default).lock() else {
        return kazaross_xg2();
    };
    tables.entry(variant).or_insert_with(|| match read_table(text) {
        Some(pre) => Box::leak(Box::new(Met {
            name: format!("gulbara's {variant} table without the cube"),
            pre,
            post: None,
        })),
        None => {
            tracing::error!(%variant, "the game's match equity table does not read; Kazaross-XG2 instead");
            kazaross_xg2()
        }
    })
}

impl Met {
    /// The longest match the table covers.
    pub fn max_length(&self) -> u32 {
        self.pre.len() as u32
    }

    /// The match-winning chance of a player `me` points away against an
    /// opponent `opp` away; `post_crawford`: the Crawford game has been
    /// played (it matters only when one of them is 1 away). 0 away has
    /// won. Scores beyond the table are read at its edge.
    pub fn mwc(&self, me: u32, opp: u32, post_crawford: bool) -> f64 {
        match (me, opp) {
            (0, _) => 1.0,
            (_, 0) => 0.0,
            (1, o) if post_crawford && o > 1 => 1.0 - self.post_of(o),
            (m, 1) if post_crawford && m > 1 => self.post_of(m),
            (m, o) => {
                let n = self.pre.len();
                let i = (m as usize).min(n) - 1;
                let j = (o as usize).min(n) - 1;
                self.pre[i][j]
            }
        }
    }

    fn post_of(&self, trailer_away: u32) -> f64 {
        match &self.post {
            Some(post) => post[(trailer_away as usize).min(post.len()) - 1],
            None => self.mwc(trailer_away, 1, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_a_table_of_chances() {
        let m = kazaross_xg2();
        for a in 1..=25 {
            for b in 1..=25 {
                let x = m.mwc(a, b, false);
                assert!((x + m.mwc(b, a, false) - 1.0).abs() < 1e-9, "{a} {b}");
                // Nearer victory is better.
                if a > 1 {
                    assert!(m.mwc(a - 1, b, false) > x, "{a} {b}");
                }
            }
        }
        assert_eq!(m.mwc(1, 1, false), 0.5);
        // Published values: 2-away against 1-away (Crawford) and post-Crawford.
        assert_eq!(m.mwc(1, 2, false), 0.67736);
        assert_eq!(m.mwc(2, 1, true), 0.48803);
        assert_eq!(m.mwc(1, 2, true), 1.0 - 0.48803);
        assert_eq!(m.mwc(0, 3, false), 1.0);
        assert_eq!(m.mwc(3, 0, false), 0.0);
    }

    #[test]
    fn every_game_without_the_cube_has_its_own_table() {
        for v in Variant::ALL {
            let own = met_for(v, false);
            let cubeful = met_for(v, true);
            assert_eq!(cubeful, kazaross_xg2(), "{v}");
            if v.spec().met.is_none() {
                assert_eq!(own, kazaross_xg2());
                continue;
            }
            assert_ne!(own, kazaross_xg2(), "{v}: its table did not read");
            let n = own.max_length();
            assert!(n >= 11, "{v}: {n} points");
            for a in 1..=n {
                for b in 1..=n {
                    let x = own.mwc(a, b, false);
                    assert!((x + own.mwc(b, a, false) - 1.0).abs() < 2e-6, "{v} {a} {b}");
                    if a > 1 {
                        assert!(own.mwc(a - 1, b, false) >= x, "{v} {a} {b}");
                    }
                }
            }
            // Without the cube the Crawford game changes nothing.
            assert_eq!(own.mwc(3, 1, true), own.mwc(3, 1, false));
        }
    }

    /// The numbers are gnubg's own, read from its file.
    #[test]
    #[ignore = "needs gnubg's data (apt-get install -y gnubg); run with --include-ignored"]
    fn the_numbers_are_gnubgs_file() {
        let path = std::path::Path::new("/usr/share/gnubg/met/Kazaross-XG2.xml");
        let xml = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{}: {e} (apt-get install -y gnubg)", path.display()));
        let values = |section: &str| -> Vec<f64> {
            let start = xml.find(&format!("<{section}")).unwrap();
            let end = xml.find(&format!("</{section}>")).unwrap();
            xml[start..end]
                .split("<me>")
                .skip(1)
                .map(|v| v.split('<').next().unwrap().trim().parse().unwrap())
                .collect()
        };
        let pre = values("pre-crawford-table");
        let flat: Vec<f64> = xg2_data::PRE.iter().flatten().copied().collect();
        assert_eq!(pre, flat);
        assert_eq!(values("post-crawford-table"), xg2_data::POST.to_vec());
        assert_eq!(super::kazaross_xg2().pre.concat(), flat);
    }
}
