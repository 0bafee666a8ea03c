//! Match equity tables: the chance of winning the match from a score, before
//! a game starts. Backgammon uses Kazaross-XG2 ([`super::kazaross_xg2`]),
//! gnubg's default.

use super::kazaross_xg2;

/// A match equity table: match-winning chances by points away, before
/// and after the Crawford game.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    /// Its name, as gnubg names it.
    pub name: &'static str,
    /// `pre[i][j]`: the chance of the player `i + 1` away against `j + 1` away.
    pre: &'static [[f64; 25]; 25],
    /// `post[i]`: the trailer `i + 1` away against a leader 1 away, after
    /// the Crawford game.
    post: &'static [f64; 25],
}

/// Kazaross-XG2, 25 points.
pub static KAZAROSS_XG2: Met = Met {
    name: "Kazaross XG2 25 point MET",
    pre: &kazaross_xg2::PRE,
    post: &kazaross_xg2::POST,
};

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
        let i = (trailer_away as usize).min(self.post.len()) - 1;
        self.post[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_a_table_of_chances() {
        let m = &KAZAROSS_XG2;
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
        let flat: Vec<f64> = kazaross_xg2::PRE.iter().flatten().copied().collect();
        assert_eq!(pre, flat);
        assert_eq!(values("post-crawford-table"), kazaross_xg2::POST.to_vec());
    }
}
