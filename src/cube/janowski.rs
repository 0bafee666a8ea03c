//! Cubeful equity from cubeless chances, by Janowski's cube-life
//! interpolation (R. Janowski, "Take-points in money games", 1993): the
//! cubeful equity is `(1 − x)·dead + x·live`, where `dead` is the cubeless
//! equity, `live` the equity with a perfectly efficient cube (piecewise
//! linear in the chance of winning, through the take and cash points), and
//! `x` the cube's efficiency in the position.
//!
//! Equities are per unit of the current cube, from the view of the side
//! whose chances they are.

use crate::cube::CubeAnswer;
use crate::eval::Probs;
use crate::rules::GameState;

/// Who owns the cube, seen from the side whose chances are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeView {
    /// The cube is in the middle: either side may double.
    Centre,
    /// This side owns it: only it may double.
    Mine,
    /// The opponent owns it.
    Theirs,
}

/// The cube's efficiency in contact positions that [`efficiency`] uses:
/// gnubg 1.07's 0.68 (`engine.cube_efficiency` sets it per engine, in
/// hundredths; gnubg 1.08 raised its own to 0.76).
pub const CONTACT_EFFICIENCY: f64 = 0.68;

/// The engine's default contact efficiency, in hundredths
/// (`engine.cube_efficiency`), and the analysis's: 72, measured against
/// 68 on the same money cube decisions under gnubg 2-ply
/// (docs/journal/2026-12-07-cube-efficiency.md).
pub const DEFAULT_CONTACT_EFFICIENCY: u8 = 72;

/// The efficiency of the cube in `state`, from 0 (dead) to 1 (perfectly
/// live), with [`CONTACT_EFFICIENCY`] in contact.
pub fn efficiency(state: &GameState) -> f64 {
    efficiency_at(state, CONTACT_EFFICIENCY)
}

/// The efficiency of the cube in `state`, with `contact` in contact
/// positions.
///
/// gnubg's values elsewhere: in a race, 0.55 plus 0.00125 per pip of the
/// side on roll, kept within 0.6..0.7 (longer races leave more time to use
/// the cube); 0.6 once every checker is home. The running games have no
/// hitting, and their blocking play is judged as contact until both sides
/// are home.
pub fn efficiency_at(state: &GameState, contact: f64) -> f64 {
    if crate::eval::race::is_race(state) {
        return 0.6;
    }
    let spec = state.variant.spec();
    if spec.landing.has_bar() && !crate::eval::hitnet::contact(state.pos.own, state.pos.opp) {
        let pips = f64::from(state.pos.own.pips());
        return (0.55 + 0.00125 * pips).clamp(0.6, 0.7);
    }
    contact
}

/// The average points of a win and of a loss (1 to 3), from the chances.
/// `gammons` false: every win and loss counts 1 (the Jacoby rule with the
/// cube in the middle).
fn win_loss_values(p: &Probs, gammons: bool) -> (f64, f64) {
    if !gammons {
        return (1.0, 1.0);
    }
    let win = f64::from(p.win);
    let w = if win > 1e-7 {
        1.0 + f64::from(p.win_mars + p.win_bg) / win
    } else {
        1.0
    };
    let l = if win < 1.0 - 1e-7 {
        1.0 + f64::from(p.lose_mars + p.lose_bg) / (1.0 - win)
    } else {
        1.0
    };
    (w, l)
}

/// The money-play cubeful equity of the chances `p` with the cube where
/// `cube` says, at efficiency `x`; `jacoby`: gammons do not count while
/// the cube is in the middle.
pub fn money_equity(p: &Probs, cube: CubeView, x: f64, jacoby: bool) -> f64 {
    let win = f64::from(p.win);
    if jacoby && cube == CubeView::Centre {
        // Gammons count only once the cube is turned: not in the dead
        // cube's play to the end, but in the take and cash points of the
        // live cube, whose ends are a cash either way.
        let (w, l) = win_loss_values(p, true);
        let tp = (l - 0.5) / (w + l + 0.5);
        let cp = (l + 1.0) / (w + l + 0.5);
        let live = if win <= tp {
            -1.0
        } else if win < cp {
            -1.0 + 2.0 * (win - tp) / (cp - tp)
        } else {
            1.0
        };
        let dead = 2.0 * win - 1.0;
        return dead * (1.0 - x) + live * x;
    }
    let (w, l) = win_loss_values(p, true);
    let dead = win * w - (1.0 - win) * l;
    // The live cube: the opponent doubles us out at our take point, we
    // cash at our cash point; past them the game is played for its
    // gammons.
    let tp = (l - 0.5) / (w + l + 0.5);
    let cp = (l + 1.0) / (w + l + 0.5);
    let up = |from: f64| 1.0 + (w - 1.0) * (win - from) / (1.0 - from);
    let live = match cube {
        CubeView::Centre => {
            if win <= tp {
                -l + (l - 1.0) * win / tp
            } else if win < cp {
                -1.0 + 2.0 * (win - tp) / (cp - tp)
            } else {
                up(cp)
            }
        }
        CubeView::Mine => {
            if win < cp {
                -l + (l + 1.0) * win / cp
            } else {
                up(cp)
            }
        }
        CubeView::Theirs => {
            if win < tp {
                -l + (l - 1.0) * win / tp
            } else {
                -1.0 + (w + 1.0) * (win - tp) / (1.0 - tp)
            }
        }
    };
    dead * (1.0 - x) + live * x
}

/// The right cube action, as gnubg words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeAction {
    /// Double, and the opponent should take.
    DoubleTake,
    /// Double, and the opponent should pass.
    DoublePass,
    /// Double, and the opponent should beaver.
    DoubleBeaver,
    /// Not yet; the opponent would take.
    NoDoubleTake,
    /// Not yet; the opponent would beaver.
    NoDoubleBeaver,
    /// Better to play on for a gammon than to cash; the opponent would pass.
    TooGoodPass,
    /// Better to play on; the opponent would take.
    TooGoodTake,
}

impl CubeAction {
    /// gnubg's words for it: `Double, take` ... (`Redouble` when the
    /// cube is already owned).
    pub fn words(self, redouble: bool) -> String {
        let d = if redouble { "redouble" } else { "double" };
        let cap = if redouble { "Redouble" } else { "Double" };
        match self {
            CubeAction::DoubleTake => format!("{cap}, take"),
            CubeAction::DoublePass => format!("{cap}, pass"),
            CubeAction::DoubleBeaver => format!("{cap}, beaver"),
            CubeAction::NoDoubleTake => format!("No {d}, take"),
            CubeAction::NoDoubleBeaver => format!("No {d}, beaver"),
            CubeAction::TooGoodPass => format!("Too good to {d}, pass"),
            CubeAction::TooGoodTake => format!("Too good to {d}, take"),
        }
    }

    /// Whether the side on roll should double.
    pub fn doubles(self) -> bool {
        matches!(
            self,
            CubeAction::DoubleTake | CubeAction::DoublePass | CubeAction::DoubleBeaver
        )
    }

    /// The opponent's right answer to a double: `take`, `drop` or `beaver`.
    pub fn answer(self) -> &'static str {
        self.reply().word()
    }

    /// The doubled side's right reply.
    pub fn reply(self) -> CubeAnswer {
        match self {
            CubeAction::DoublePass | CubeAction::TooGoodPass => CubeAnswer::Drop,
            CubeAction::DoubleBeaver | CubeAction::NoDoubleBeaver => CubeAnswer::Beaver,
            _ => CubeAnswer::Take,
        }
    }
}

/// The right action from the equities (money or MWC, the doubler's view)
/// of no double, double/take and double/pass; `beaver`: the equity of a
/// beaver when the taker should beaver.
fn action_of(no_double: f64, take: f64, double_pass: f64, beaver: Option<f64>) -> CubeAction {
    if take >= double_pass {
        if no_double >= double_pass {
            CubeAction::TooGoodPass
        } else {
            CubeAction::DoublePass
        }
    } else if no_double >= double_pass {
        CubeAction::TooGoodTake
    } else if let Some(b) = beaver {
        if b > no_double {
            CubeAction::DoubleBeaver
        } else {
            CubeAction::NoDoubleBeaver
        }
    } else if take > no_double {
        CubeAction::DoubleTake
    } else {
        CubeAction::NoDoubleTake
    }
}

/// A cube decision: the equities of its three outcomes, per unit of the
/// cube before the double, from the doubler's view, and the right action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    /// Playing on without doubling.
    pub no_double: f64,
    /// Doubling, and the opponent takes (or beavers, when that is right
    /// and allowed: then the equity of the beaver).
    pub double_take: f64,
    /// Doubling, and the opponent passes: always 1.
    pub double_pass: f64,
    /// The right action.
    pub action: CubeAction,
}

impl CubeDecision {
    /// The decision from the equities (money or MWC, the doubler's view) of
    /// no double, double/take and double/pass; `beaver`: the equity of a
    /// beaver when the taker should beaver (it then stands for the take).
    pub(crate) fn from_equities(
        no_double: f64,
        take: f64,
        double_pass: f64,
        beaver: Option<f64>,
    ) -> CubeDecision {
        CubeDecision {
            no_double,
            double_take: beaver.unwrap_or(take),
            double_pass,
            action: action_of(no_double, take, double_pass, beaver),
        }
    }
}

/// The money-play cube decision of the side to roll with chances `p`
/// (before its roll), the cube where `cube` says (never [`CubeView::Theirs`]:
/// then it may not double), at efficiency `x`.
pub fn money_decision(
    p: &Probs,
    cube: CubeView,
    x: f64,
    jacoby: bool,
    beavers: bool,
) -> CubeDecision {
    let no_double = money_equity(p, cube, x, jacoby);
    let take = 2.0 * money_equity(p, CubeView::Theirs, x, jacoby);
    let double_pass = 1.0;
    // The taker beavers when taking leaves it ahead.
    let beaver = beavers && take < 0.0;
    CubeDecision::from_equities(no_double, take, double_pass, beaver.then_some(2.0 * take))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Chances without backgammons: winning, winning a gammon, losing one.
    pub(in crate::cube) fn probs(win: f32, wg: f32, lg: f32) -> Probs {
        Probs {
            win,
            win_mars: wg,
            lose_mars: lg,
            win_bg: 0.0,
            lose_bg: 0.0,
        }
    }

    #[test]
    fn under_the_jacoby_rule_gammons_count_once_the_cube_turns() {
        let gammonish = probs(0.7, 0.35, 0.05);
        // The dead cube: singles only.
        let dead = money_equity(&gammonish, CubeView::Centre, 0.0, true);
        assert!((dead - 0.4).abs() < 1e-6, "{dead}");
        // Far ahead, the live cube cashes a single: +1, not the gammons.
        let far = probs(0.95, 0.6, 0.0);
        assert!((money_equity(&far, CubeView::Centre, 1.0, true) - 1.0).abs() < 1e-9);
        // The take and cash points are those of a turned cube, gammons in:
        // between them the live equity runs from -1 to +1.
        let between = probs(0.6, 0.25, 0.05);
        let mid = money_equity(&between, CubeView::Centre, 1.0, true);
        assert!(mid > -1.0 && mid < 1.0, "{mid}");
        // Without the rule the gammons count in the middle too.
        assert!(
            money_equity(&gammonish, CubeView::Centre, 0.68, false)
                > money_equity(&gammonish, CubeView::Centre, 0.68, true)
        );
        // Owned cubes are turned cubes: the rule changes nothing there.
        for view in [CubeView::Mine, CubeView::Theirs] {
            let a = money_equity(&gammonish, view, 0.68, true);
            let b = money_equity(&gammonish, view, 0.68, false);
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn a_dead_cube_is_the_cubeless_equity() {
        for p in [
            probs(0.3, 0.05, 0.1),
            probs(0.6, 0.2, 0.05),
            probs(0.9, 0.4, 0.0),
        ] {
            for cube in [CubeView::Centre, CubeView::Mine, CubeView::Theirs] {
                let e = money_equity(&p, cube, 0.0, false);
                assert!((e - f64::from(p.equity())).abs() < 1e-6, "{p:?} {cube:?}");
            }
        }
    }

    #[test]
    fn gammonless_live_cube_has_the_classic_points() {
        // No gammons and a live cube: the classic take point 20% and cash
        // point 80% (W = L = 1: TP = 0.5 / 2.5, CP = 2 / 2.5).
        let at = |w: f32, cube| money_equity(&probs(w, 0.0, 0.0), cube, 1.0, false);
        assert!((at(0.2, CubeView::Centre) + 1.0).abs() < 1e-6);
        assert!((at(0.8, CubeView::Centre) - 1.0).abs() < 1e-6);
        assert!((at(0.8, CubeView::Mine) - 1.0).abs() < 1e-6);
        assert!((at(0.2, CubeView::Theirs) + 1.0).abs() < 1e-6);
        // Owning the cube is worth something, facing it costs.
        let p = probs(0.6, 0.1, 0.05);
        let mine = money_equity(&p, CubeView::Mine, 0.68, false);
        let centre = money_equity(&p, CubeView::Centre, 0.68, false);
        let theirs = money_equity(&p, CubeView::Theirs, 0.68, false);
        assert!(mine > centre && centre > theirs, "{mine} {centre} {theirs}");
    }

    #[test]
    fn decisions_follow_the_chances() {
        let d = |w: f32, wg: f32| {
            money_decision(&probs(w, wg, 0.0), CubeView::Centre, 0.68, false, false)
        };
        assert_eq!(d(0.55, 0.0).action, CubeAction::NoDoubleTake);
        assert_eq!(d(0.72, 0.0).action, CubeAction::DoubleTake);
        assert_eq!(d(0.9, 0.0).action, CubeAction::DoublePass);
        assert_eq!(d(0.95, 0.8).action, CubeAction::TooGoodPass);
        assert!(d(0.72, 0.0).action.doubles());
        assert_eq!(d(0.9, 0.0).action.answer(), "drop");
        // A beaver: the doubler is behind.
        let b = money_decision(&probs(0.35, 0.0, 0.0), CubeView::Centre, 0.68, false, true);
        assert_eq!(b.action, CubeAction::NoDoubleBeaver);
        assert_eq!(CubeAction::DoubleTake.words(true), "Redouble, take");
        assert_eq!(
            CubeAction::TooGoodPass.words(false),
            "Too good to double, pass"
        );
    }
}
