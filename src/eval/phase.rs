//! The phase of a hitting game's position, and the networks per phase.
//!
//! - **Race**: no checker can meet another any more (the sides' rearmost
//!   checkers have passed each other: [`super::hitnet::contact`] is false).
//!   All-home races go to the exact tables before any network
//!   ([`super::race`]); the race network judges the others.
//! - **Crashed**: contact, and one side's board has collapsed: gnubg's
//!   published definition, as a fact (its own words: "a position is crashed
//!   if most of a player's chequers have ended up on his own 1 and 2
//!   points"). With `T` a side's checkers still in play (bar included),
//!   `a` on its ace point and `d` on its deuce point, the side is crashed
//!   when `T ≤ 6`; or, with `a ≥ 2`, when `T − a ≤ 6` or (with `d ≥ 2` too)
//!   `T − a − d + 1 ≤ 6`; or, with `a ≤ 1`, when `T − d + 1 ≤ 6`. The
//!   position is crashed when either side is.
//! - **Contact**: every other position.
//!
//! [`PhaseNets`] is the backgammon family's set of networks: the contact
//! network (the shipped file) and, optionally, a race and a crashed
//! network; a phase without its own network is judged by the contact one.

use std::sync::Arc;

use super::hitnet::{HitNet, contact};
use super::{Evaluator, Probs};
use crate::rules::position::Checkers;
use crate::rules::{GameState, RuleOptions};

/// The phase of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The sides can still meet, and neither board has crashed.
    Contact,
    /// The sides can still meet, and one side's board has crashed.
    Crashed,
    /// No checker can meet another any more.
    Race,
}

impl Phase {
    /// Every phase, in the order the network sets list them.
    pub const ALL: [Phase; 3] = [Phase::Contact, Phase::Crashed, Phase::Race];

    /// Its name, as `supervise --phase` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Contact => "contact",
            Phase::Crashed => "crashed",
            Phase::Race => "race",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Phase {
    type Err = String;

    fn from_str(s: &str) -> Result<Phase, String> {
        Phase::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown phase {s:?}: contact, crashed or race"))
    }
}

/// Checkers a crashed side has at most outside its crashed points.
const CRASHED_REST: u32 = 6;

/// Whether side `c` (in its own numbering) has crashed its board: see the
/// module's text.
pub fn crashed(c: Checkers) -> bool {
    let t = u32::from(c.on_board());
    let (a, d) = (u32::from(c.at(1)), u32::from(c.at(2)));
    if t <= CRASHED_REST {
        return true;
    }
    if a >= 2 {
        t - a <= CRASHED_REST || (d >= 2 && t + 1 - a - d <= CRASHED_REST)
    } else {
        t < CRASHED_REST + d
    }
}

/// The phase of the position `own` (to move) against `opp`.
pub fn phase_of(own: Checkers, opp: Checkers) -> Phase {
    if !contact(own, opp) {
        Phase::Race
    } else if crashed(own) || crashed(opp) {
        Phase::Crashed
    } else {
        Phase::Contact
    }
}

/// The phase of `state`'s position.
pub fn phase(state: &GameState) -> Phase {
    phase_of(state.pos.own, state.pos.opp)
}

/// The hitting games' networks: one a phase, the contact network standing
/// in for a phase that has none.
#[derive(Clone)]
pub struct PhaseNets {
    /// The contact network (the game's weights file).
    pub contact: Arc<HitNet>,
    /// The crashed positions' network, if any.
    pub crashed: Option<Arc<HitNet>>,
    /// The race network (races outside the tables), if any.
    pub race: Option<Arc<HitNet>>,
}

impl PhaseNets {
    /// The contact network alone.
    pub fn single(contact: Arc<HitNet>) -> PhaseNets {
        PhaseNets {
            contact,
            crashed: None,
            race: None,
        }
    }

    /// The network of `phase` (the contact one when it has none).
    pub fn net(&self, phase: Phase) -> &Arc<HitNet> {
        let own = match phase {
            Phase::Contact => None,
            Phase::Crashed => self.crashed.as_ref(),
            Phase::Race => self.race.as_ref(),
        };
        own.unwrap_or(&self.contact)
    }

    /// The set with `net` as `phase`'s network (`None`: that phase judged
    /// by the contact network; for [`Phase::Contact`] `None` changes
    /// nothing).
    pub fn with(mut self, phase: Phase, net: Option<Arc<HitNet>>) -> PhaseNets {
        match phase {
            Phase::Contact => {
                if let Some(n) = net {
                    self.contact = n;
                }
            }
            Phase::Crashed => self.crashed = net,
            Phase::Race => self.race = net,
        }
        self
    }

    /// Whether the contact network judges every phase.
    pub fn is_single(&self) -> bool {
        self.crashed.is_none() && self.race.is_none()
    }

    /// The set as an evaluator: the contact network itself while it is
    /// alone (the same evaluator, bit for bit, as before there were
    /// phases), else one that picks a network per position.
    pub fn evaluator(&self) -> Arc<dyn Evaluator> {
        if self.is_single() {
            self.contact.clone()
        } else {
            Arc::new(self.clone())
        }
    }
}

impl Evaluator for PhaseNets {
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs {
        self.net(phase(state)).eval(state, opts)
    }

    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        out.extend(states.iter().map(|s| self.eval(s, opts)));
    }

    fn name(&self) -> &'static str {
        "hitnet"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Side, Variant};

    /// Checkers from `(point, count)` pairs and a bar count, the rest off.
    fn side(points: &[(u8, u8)], bar: u8) -> Checkers {
        let mut counts = [0u8; 24];
        for &(p, n) in points {
            counts[usize::from(p) - 1] += n;
        }
        Checkers::from_counts_with_bar(&counts, bar).expect("at most 15")
    }

    /// gnubg's definition as its text states it, written out case by case
    /// over the counts (no shared code with [`crashed`]).
    fn naive_crashed(c: Checkers) -> bool {
        let counts = c.counts();
        let in_play: i32 = counts.iter().map(|&n| i32::from(n)).sum::<i32>() + i32::from(c.bar());
        let ace = i32::from(counts[0]);
        let deuce = i32::from(counts[1]);
        let rest_after_ace = in_play - ace;
        let rest_after_both = in_play - ace - deuce;
        in_play <= 6
            || (ace > 1 && rest_after_ace <= 6)
            || (ace > 1 && deuce > 1 && rest_after_both < 6)
            || (ace <= 1 && in_play - (deuce - 1) <= 6)
    }

    /// Whether some checker of `own` has an opposing checker in front of
    /// it, point by point (the naive count of contact).
    fn naive_contact(own: Checkers, opp: Checkers) -> bool {
        let mut own_points: Vec<u8> = (1..=24).filter(|&p| own.at(p) > 0).collect();
        if own.bar() > 0 {
            own_points.push(25);
        }
        // Opponent's point q is the mover's 25 - q; its bar the mover's 0.
        let mut opp_points: Vec<u8> = (1..=24)
            .filter(|&q| opp.at(q) > 0)
            .map(|q| 25 - q)
            .collect();
        if opp.bar() > 0 {
            opp_points.push(0);
        }
        own_points
            .iter()
            .any(|&p| opp_points.iter().any(|&q| q < p))
    }

    #[test]
    fn hand_checked_positions() {
        let start = GameState::start_of(Variant::Backgammon, Side::White).pos;
        assert_eq!(phase_of(start.own, start.opp), Phase::Contact);
        // Everything home on both sides: a race (the tables' case).
        let home = side(&[(1, 5), (2, 5), (6, 5)], 0);
        assert_eq!(phase_of(home, home), Phase::Race);
        // A race outside the tables: the sides have passed, one has
        // checkers in its outfield.
        let runner = side(&[(9, 3), (6, 6), (4, 6)], 0);
        assert_eq!(phase_of(runner, home), Phase::Race);
        // The gnubg mailing list's crashed board: eight checkers on the
        // ace point, four on the deuce, and three outside: 15 − 8 = 7 > 6,
        // 15 − 8 − 4 + 1 = 4 ≤ 6: crashed, against an anchor behind it.
        let crashed_side = side(&[(1, 8), (2, 4), (5, 1), (13, 2)], 0);
        assert!(crashed(crashed_side));
        let anchored = side(&[(24, 2), (13, 5), (8, 3), (6, 5)], 0);
        assert_eq!(phase_of(crashed_side, anchored), Phase::Crashed);
        assert_eq!(phase_of(anchored, crashed_side), Phase::Crashed);
        // Seven checkers left in play, one on the ace point: 7 − (0 − 1) =
        // 8 > 6, not crashed; with two on the deuce point 7 − 1 = 6: crashed.
        assert!(!crashed(side(&[(1, 1), (6, 2), (24, 4)], 0)));
        assert!(crashed(side(&[(2, 2), (6, 1), (24, 4)], 0)));
        // Six checkers left: crashed however they stand; a back game with
        // all 15 spread is not.
        assert!(crashed(side(&[(24, 2), (20, 2), (13, 2)], 0)));
        assert!(!crashed(side(
            &[(24, 2), (20, 2), (13, 4), (8, 3), (6, 4)],
            0
        )));
        // The bar counts as in play: two on the ace point and six on the
        // midpoint are crashed (8 − 2 = 6), one more on the bar is not.
        assert!(crashed(side(&[(1, 2), (13, 6)], 0)));
        assert!(!crashed(side(&[(1, 2), (13, 6)], 1)));
        // The start: nobody crashed.
        assert!(!crashed(start.own));
    }

    #[test]
    fn crashed_and_contact_agree_with_naive_counts() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(45);
        let mut seen = [0usize; 3];
        for _ in 0..20_000 {
            let make = |rng: &mut rand::rngs::StdRng| {
                let mut counts = [0u8; 24];
                let total = rng.random_range(1..=15u8);
                let mut bar = 0u8;
                for _ in 0..total {
                    // Crashed shapes often: half the checkers low.
                    let p = if rng.random_bool(0.4) {
                        rng.random_range(1..=2usize)
                    } else {
                        rng.random_range(0..=24usize)
                    };
                    if p == 0 {
                        bar += 1;
                    } else {
                        counts[p - 1] += 1;
                    }
                }
                Checkers::from_counts_with_bar(&counts, bar).expect("at most 15")
            };
            let (own, opp) = (make(&mut rng), make(&mut rng));
            assert_eq!(crashed(own), naive_crashed(own), "{:?}", own.counts());
            assert_eq!(contact(own, opp), naive_contact(own, opp));
            let expected = if !naive_contact(own, opp) {
                Phase::Race
            } else if naive_crashed(own) || naive_crashed(opp) {
                Phase::Crashed
            } else {
                Phase::Contact
            };
            let p = phase_of(own, opp);
            assert_eq!(p, expected);
            seen[Phase::ALL.iter().position(|&q| q == p).unwrap_or(0)] += 1;
        }
        // The sample reached every phase.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn a_set_without_phase_networks_is_the_contact_network() {
        let net = crate::eval::hitnet::shipped_shared().expect("shipped");
        let set = PhaseNets::single(net.clone());
        assert!(set.is_single());
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let state = GameState::start_of(Variant::Backgammon, Side::White);
        assert_eq!(set.evaluator().eval(&state, &opts), net.eval(&state, &opts));
        assert!(Arc::ptr_eq(set.net(Phase::Race), &net));
        assert!(Arc::ptr_eq(set.net(Phase::Crashed), &net));
    }

    #[test]
    fn each_phase_is_judged_by_its_network() {
        let contact_net = Arc::new(HitNet::random(8, 1));
        let race_net = Arc::new(HitNet::random(8, 2));
        let crashed_net = Arc::new(HitNet::random(8, 3));
        let set = PhaseNets::single(contact_net.clone())
            .with(Phase::Race, Some(race_net.clone()))
            .with(Phase::Crashed, Some(crashed_net.clone()));
        let opts = RuleOptions::for_variant(Variant::Backgammon);
        let mut state = GameState::start_of(Variant::Backgammon, Side::White);
        let eval = set.evaluator();
        let cases = [
            (state.pos, &contact_net),
            (
                Position {
                    own: side(&[(9, 3), (6, 6), (4, 6)], 0),
                    opp: side(&[(1, 5), (2, 5), (6, 5)], 0),
                },
                &race_net,
            ),
            (
                Position {
                    own: side(&[(1, 8), (2, 4), (5, 1), (13, 2)], 0),
                    opp: side(&[(24, 2), (13, 5), (8, 3), (6, 5)], 0),
                },
                &crashed_net,
            ),
        ];
        let mut states = Vec::new();
        for (pos, net) in cases {
            state.pos = pos;
            assert_eq!(eval.eval(&state, &opts), net.eval(&state, &opts));
            states.push(state);
        }
        let mut batch = Vec::new();
        eval.eval_batch(&states, &opts, &mut batch);
        let one_by_one: Vec<Probs> = states.iter().map(|s| eval.eval(s, &opts)).collect();
        assert_eq!(batch, one_by_one);
        // Without a race network the race goes to the contact one.
        let set = set.with(Phase::Race, None);
        state.pos = states[1].pos;
        assert_eq!(
            set.evaluator().eval(&state, &opts),
            contact_net.eval(&state, &opts)
        );
    }
}
