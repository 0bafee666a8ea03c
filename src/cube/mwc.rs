//! Cube decisions at a match score: match-winning chances (MWC) instead of
//! money equity. The same cube-life interpolation as in money play
//! ([`super::janowski`]), in MWC: the dead cube's MWC is the chances of
//! each result times the match equity after it; the live cube's is
//! piecewise linear in the chance of winning, through the take point (where
//! the opponent doubles us out: we lose the cube's value), the cash point
//! (we double them out: we win it) and the ends (we win or lose the game with
//! its gammon share). The take and cash points come from the table, cube
//! level by cube level, as gnubg finds them: a side's take point at a cube
//! is where taking is worth what passing is, its equity after the take
//! running from a loss at the doubled cube up to its own cash point one
//! level up (where it redoubles and the doubler passes); at the level where
//! a redouble can no longer change the match the cube is dead, and the take
//! point is the dead cube's. So a side whose single win at the doubled cube
//! already wins the match gets no value from owning the cube, and the
//! asymmetric scores near a match's end get their own take points.

use super::janowski::{CubeDecision, CubeView};
use super::met::Met;
use crate::eval::Probs;

/// The score seen from the side whose chances are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// Points this side still needs.
    pub me: u32,
    /// Points the opponent still needs.
    pub opp: u32,
    /// The Crawford game has been played.
    pub post_crawford: bool,
}

impl MatchScore {
    /// The same score seen from the opponent.
    pub(crate) fn flipped(&self) -> MatchScore {
        MatchScore {
            me: self.opp,
            opp: self.me,
            post_crawford: self.post_crawford,
        }
    }

    /// This side's MWC after it wins `points` (`points` < 0: loses them).
    pub(crate) fn after(&self, met: &Met, points: i64) -> f64 {
        let (mut me, mut opp) = (i64::from(self.me), i64::from(self.opp));
        if points >= 0 {
            me -= points;
        } else {
            opp += points;
        }
        if me <= 0 {
            return 1.0;
        }
        if opp <= 0 {
            return 0.0;
        }
        // Whoever comes to 1 away now, with the other more, plays the
        // Crawford game next; a side already 1 away keeps the reading.
        let post = self.post_crawford && (me == 1 || opp == 1);
        met.mwc(me as u32, opp as u32, post)
    }
}

/// The chances of each result, from the judged side's view: wins and
/// losses of 1, 2 and 3 points (singles, gammons or mars, backgammons).
fn results(p: &Probs) -> [(i64, f64); 6] {
    let win = f64::from(p.win);
    let wg = f64::from(p.win_mars);
    let wbg = f64::from(p.win_bg);
    let lg = f64::from(p.lose_mars);
    let lbg = f64::from(p.lose_bg);
    [
        (1, (win - wg).max(0.0)),
        (2, (wg - wbg).max(0.0)),
        (3, wbg),
        (-1, (1.0 - win - lg).max(0.0)),
        (-2, (lg - lbg).max(0.0)),
        (-3, lbg),
    ]
}

/// The MWC of a game played to its end at cube `cube` (the cube dead).
pub(crate) fn dead(p: &Probs, met: &Met, score: &MatchScore, cube: i64) -> f64 {
    results(p)
        .iter()
        .map(|&(k, q)| q * score.after(met, k * cube))
        .sum()
}

/// The MWC of winning, and of losing, the game at cube `cube`, averaged
/// over its gammon share.
fn ends(p: &Probs, met: &Met, score: &MatchScore, cube: i64) -> (f64, f64) {
    let r = results(p);
    let avg = |sign: i64| {
        let (mut q_sum, mut m_sum) = (0.0, 0.0);
        for &(k, q) in r.iter().filter(|(k, _)| k.signum() == sign) {
            q_sum += q;
            m_sum += q * score.after(met, k * cube);
        }
        if q_sum > 1e-9 {
            m_sum / q_sum
        } else {
            score.after(met, sign * cube)
        }
    };
    (avg(1), avg(-1))
}

/// How a game ends for one side, as chances of winning (or losing) 1, 2
/// and 3 times the cube, given that it wins (or loses): the gammon share.
type Shares = [f64; 3];

fn shares(p: &Probs, winning: bool) -> Shares {
    let r = results(p);
    let pick: Vec<f64> = r
        .iter()
        .filter(|(k, _)| (*k > 0) == winning)
        .map(|&(_, q)| q)
        .collect();
    let total: f64 = pick.iter().sum();
    if total < 1e-9 {
        return [1.0, 0.0, 0.0];
    }
    [pick[0] / total, pick[1] / total, pick[2] / total]
}

/// The most cube levels the take points are followed up (a cube of 2^12
/// times the current one is far past any match's end).
const MAX_LEVELS: u32 = 12;

/// The take point of the side `taker` facing a double to `2 * cube` at
/// `score` (from the taker's view), its wins ending as `win` says and its
/// losses as `lose`; `live` follows its redouble up the cube levels.
fn take_point(
    met: &Met,
    score: &MatchScore,
    cube: i64,
    win: &Shares,
    lose: &Shares,
    level: u32,
) -> f64 {
    let after = |points: i64| score.after(met, points);
    let avg = |sh: &Shares, sign: i64, c: i64| -> f64 {
        sh.iter()
            .enumerate()
            .map(|(i, q)| q * after(sign * (i as i64 + 1) * c))
            .sum()
    };
    let drop = after(-cube);
    let lose2 = avg(lose, -1, 2 * cube);
    let win2 = avg(win, 1, 2 * cube);
    let dead = if win2 - lose2 > 1e-12 {
        ((drop - lose2) / (win2 - lose2)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    // The taker's redouble to 4 * cube matters only while the match is
    // not decided by a single game at 2 * cube for either side.
    let me = i64::from(score.me);
    let opp = i64::from(score.opp);
    if level >= MAX_LEVELS || (2 * cube >= me && 2 * cube >= opp) {
        return dead;
    }
    let flipped = score.flipped();
    // The doubler's take point facing the redouble: the taker's cash point
    // is one minus it.
    let doubler_tp = take_point(met, &flipped, 2 * cube, lose, win, level + 1);
    let cash_point = 1.0 - doubler_tp;
    let cashed = after(2 * cube);
    if cashed - lose2 < 1e-12 {
        return dead;
    }
    (cash_point * (drop - lose2) / (cashed - lose2)).clamp(0.0, 1.0)
}

/// Where a match's cube stands for the side whose chances are judged.
#[derive(Clone, Copy, Debug)]
pub struct MatchCube<'a> {
    /// The match equity table.
    pub met: &'a Met,
    /// The score, from the judged side.
    pub score: MatchScore,
    /// The cube's value.
    pub cube: u32,
    /// Who holds the cube, from the judged side.
    pub view: CubeView,
    /// The cube's efficiency (0: dead, 1: fully live).
    pub x: f64,
}

/// The cubeful MWC of the chances `p` with the match's cube at `at`.
pub fn match_mwc(p: &Probs, at: &MatchCube) -> f64 {
    let MatchCube {
        met,
        score,
        cube,
        view,
        x,
    } = *at;
    let score = &score;
    let c = i64::from(cube);
    let win = f64::from(p.win);
    let dead_mwc = dead(p, met, score, c);
    let (w_end, l_end) = ends(p, met, score, c);
    let cash = score.after(met, c);
    let dropped = score.after(met, -c);
    // Our take point facing the opponent's double, and our cash point: one
    // minus the opponent's take point facing ours.
    let (my_wins, my_losses) = (shares(p, true), shares(p, false));
    let tp = take_point(met, score, c, &my_wins, &my_losses, 0);
    let cp = (1.0 - take_point(met, &score.flipped(), c, &my_losses, &my_wins, 0)).max(tp);
    let line = |x0: f64, y0: f64, x1: f64, y1: f64| {
        if x1 - x0 < 1e-9 {
            y1
        } else {
            y0 + (y1 - y0) * (win - x0) / (x1 - x0)
        }
    };
    let live = match view {
        CubeView::Centre => {
            if win <= tp {
                line(0.0, l_end, tp, dropped)
            } else if win < cp {
                line(tp, dropped, cp, cash)
            } else {
                line(cp, cash, 1.0, w_end)
            }
        }
        CubeView::Mine => {
            if win < cp {
                line(0.0, l_end, cp, cash)
            } else {
                line(cp, cash, 1.0, w_end)
            }
        }
        CubeView::Theirs => {
            if win < tp {
                line(0.0, l_end, tp, dropped)
            } else {
                line(tp, dropped, 1.0, w_end)
            }
        }
    };
    dead_mwc * (1.0 - x) + live * x
}

/// The cube decision at a match score of the side to roll with chances
/// `p`, the match's cube at `at` (centred or its own), in MWC.
pub fn match_decision(p: &Probs, at: &MatchCube) -> CubeDecision {
    let no_double = match_mwc(p, at);
    let doubled = MatchCube {
        cube: at.cube * 2,
        view: CubeView::Theirs,
        ..*at
    };
    let double_take = match_mwc(p, &doubled);
    let double_pass = at.score.after(at.met, i64::from(at.cube));
    CubeDecision::from_equities(no_double, double_take, double_pass, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::janowski::CubeAction;
    use crate::cube::janowski::tests::probs;
    use crate::cube::kazaross_xg2;

    fn at(met: &Met, score: MatchScore, cube: u32, view: CubeView, x: f64) -> MatchCube<'_> {
        MatchCube {
            met,
            score,
            cube,
            view,
            x,
        }
    }

    fn score(me: u32, opp: u32, post_crawford: bool) -> MatchScore {
        MatchScore {
            me,
            opp,
            post_crawford,
        }
    }

    #[test]
    fn a_dead_cube_is_the_mwc_of_the_results() {
        let met = kazaross_xg2();
        let s = score(7, 7, false);
        let p = probs(0.6, 0.2, 0.1);
        let want = 0.4 * met.mwc(6, 7, false)
            + 0.2 * met.mwc(5, 7, false)
            + 0.3 * met.mwc(7, 6, false)
            + 0.1 * met.mwc(7, 5, false);
        let got = match_mwc(&p, &at(met, s, 1, CubeView::Centre, 0.0));
        assert!((got - want).abs() < 1e-6, "{got} {want}");
    }

    #[test]
    fn take_points_follow_the_cube_up_the_levels() {
        let met = kazaross_xg2();
        let single: Shares = [1.0, 0.0, 0.0];
        // A long match at an even score plays like money: the live take
        // point of a game without gammons is about money's 20%, the dead
        // cube's 25% above it.
        let long = score(15, 15, false);
        let tp = take_point(met, &long, 1, &single, &single, 0);
        assert!((0.17..0.23).contains(&tp), "{tp}");
        let dead = take_point(met, &long, 1, &single, &single, MAX_LEVELS);
        assert!((0.22..0.28).contains(&dead) && dead > tp, "{dead}");
        // A taker whose single win at the doubled cube wins the match has no
        // use for the cube: its take point is the dead cube's.
        let leader = score(2, 4, false);
        let live = take_point(met, &leader, 1, &single, &single, 0);
        let dead = take_point(met, &leader, 1, &single, &single, MAX_LEVELS);
        assert!((live - dead).abs() < 1e-12, "{live} {dead}");
        // The trailer taking there keeps a redouble that matters.
        let trailer = score(4, 2, false);
        let live = take_point(met, &trailer, 1, &single, &single, 0);
        let dead = take_point(met, &trailer, 1, &single, &single, MAX_LEVELS);
        assert!(live < dead, "{live} {dead}");
    }

    #[test]
    fn decisions_at_match_scores() {
        let met = kazaross_xg2();
        let d = |w: f32, s: MatchScore| {
            match_decision(&probs(w, 0.0, 0.0), &at(met, s, 1, CubeView::Centre, 0.68)).action
        };
        // Early in a long match the cube works much as for money.
        assert_eq!(d(0.55, score(7, 7, false)), CubeAction::NoDoubleTake);
        assert_eq!(d(0.72, score(7, 7, false)), CubeAction::DoubleTake);
        assert_eq!(d(0.92, score(7, 7, false)), CubeAction::DoublePass);
        // Both one away: any win wins the match, the cube is worth nothing.
        assert!(!d(0.7, score(1, 1, false)).doubles());
        // The trailer after the Crawford game doubles at once: the leader
        // has nothing to lose by taking.
        assert_eq!(d(0.5, score(4, 1, true)), CubeAction::DoubleTake);
        // Holding the cube is worth MWC, and facing it costs.
        let p = probs(0.6, 0.1, 0.05);
        let s = score(5, 5, false);
        let mine = match_mwc(&p, &at(met, s, 2, CubeView::Mine, 0.68));
        let centre = match_mwc(&p, &at(met, s, 1, CubeView::Centre, 0.68));
        let theirs = match_mwc(&p, &at(met, s, 2, CubeView::Theirs, 0.68));
        assert!(mine > theirs && centre > theirs, "{mine} {centre} {theirs}");
    }
}
