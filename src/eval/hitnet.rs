//! The hitting games' network (backgammon and short nardy): one hidden
//! layer, five sigmoid outputs (win, win gammon, win backgammon, lose
//! gammon, lose backgammon) for the side to move before its roll, as
//! gnubg's networks have.
//!
//! Inputs (layout [`HIT_LAYOUT`]), from the side to move's view, each side
//! in its own numbering (its point `p` is the other's `25 - p`): per side,
//! four units per point (≥1, ≥2, ≥3 checkers, and (n−3)/2 beyond three),
//! two for the bar (≥1, and n/4), borne off / 15, pips / 167; then one unit
//! set when contact is over (a race). The weights file is the Gul bara
//! network's format ([`super::net`]) with this layout and five outputs; its
//! description names the game it was trained on.

use super::net::{Features, HIT_LAYOUT, InputSink, NetOf, Sparse, WeightsError};
use super::{Evaluator, Probs};
use crate::rules::position::Checkers;
use crate::rules::{GameState, RuleOptions, Side};

/// Inputs of layout [`HIT_LAYOUT`].
pub const INPUTS: usize = 2 * SIDE + 1;
/// Inputs per side.
const SIDE: usize = 24 * 4 + 2 + 2;
/// Outputs: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

/// The hitting games' network.
pub type HitNet = NetOf<OUTPUTS>;

/// The shipped backgammon weights (also short nardy's, Portes' and Tabla's).
pub static SHIPPED: &[u8] = include_bytes!("backgammon.gbnn");

/// The shipped weights of the pinning games (Plakoto, Tapa): the same
/// shape and inputs, trained by TD(λ) on Plakoto's own games.
pub static PINNING_SHIPPED: &[u8] = include_bytes!("plakoto.gbnn");

#[inline(always)]
fn side_features(c: Checkers, m: u32, side: usize, base: usize, out: &mut impl InputSink) {
    let bar = c.bar();
    let pips = super::net::point_units(c, m, side, base, out) + 25 * u32::from(bar);
    if bar > 0 {
        out.push((base + 96) as u16, 1.0);
        out.push((base + 97) as u16, f32::from(bar) / 4.0);
    }
    let off = c.off();
    if off > 0 {
        out.push((base + 98) as u16, f32::from(off) / 15.0);
    }
    out.push((base + 99) as u16, pips as f32 / 167.0);
}

/// Whether the sides can still meet: some checker of the mover stands
/// behind (in its numbering, above) some checker of the opponent.
pub fn contact(own: Checkers, opp: Checkers) -> bool {
    contact_masked(own, own.mask(), opp, opp.mask())
}

/// [`contact`] with the sides' occupancy masks at hand.
fn contact_masked(own: Checkers, own_mask: u32, opp: Checkers, opp_mask: u32) -> bool {
    // The mover's rearmost checker (the bar counts as 25) against the
    // opponent's rearmost, seen in the mover's numbering (25 - q).
    let rear = |c: Checkers, m: u32| {
        if c.bar() > 0 {
            25
        } else {
            32 - m.leading_zeros()
        }
    };
    let (mine, theirs) = (rear(own, own_mask), rear(opp, opp_mask));
    mine > 0 && theirs > 0 && mine + theirs > 25
}

/// The inputs of a state of a hitting game (side to move about to roll).
pub fn features(state: &GameState) -> super::net::Inputs {
    let mut active = Vec::with_capacity(80);
    features_into(state, &mut active);
    super::net::Inputs { active }
}

/// [`features`] into `active` (cleared first).
pub fn features_into(state: &GameState, active: &mut Vec<(u16, f32)>) {
    features_to(state, active);
}

/// A state's inputs for play's evaluation ([`NetOf::play_outputs`]).
#[derive(Clone, Copy)]
pub(crate) struct HitFeatures<'s>(pub(crate) &'s GameState);

impl Features for HitFeatures<'_> {
    #[inline(always)]
    fn write(self, sink: &mut impl InputSink) {
        features_to(self.0, sink);
    }
}

/// Where the two sides' point units start.
pub(crate) const BASES: [usize; 2] = [0, SIDE];

#[inline(always)]
fn features_to(state: &GameState, active: &mut impl InputSink) {
    active.clear();
    let (own, opp) = (state.pos.own, state.pos.opp);
    let (own_mask, opp_mask) = (own.mask(), opp.mask());
    side_features(own, own_mask, 0, BASES[0], active);
    side_features(opp, opp_mask, 1, BASES[1], active);
    if !contact_masked(own, own_mask, opp, opp_mask) {
        active.push((2 * SIDE) as u16, 1.0);
    }
}

/// Games without 3-point wins (short nardy): a backgammon is a mars there.
fn scored(state: &GameState, mut p: Probs) -> Probs {
    if state.variant.spec().scores.triple.is_none() {
        p.win_bg = 0.0;
        p.lose_bg = 0.0;
    }
    p
}

impl HitNet {
    /// A fresh network of this layout with small random weights.
    pub fn random(hidden: usize, seed: u64) -> HitNet {
        HitNet::random_layout(HIT_LAYOUT, INPUTS, hidden, seed)
    }

    /// The outputs as consistent chances.
    pub fn probs(out: &[f32; OUTPUTS]) -> Probs {
        let or = |x: f32, default: f32| if x.is_nan() { default } else { x };
        let win = or(out[0], 0.5).clamp(0.0, 1.0);
        let win_mars = or(out[1], 0.0).clamp(0.0, win);
        let lose_mars = or(out[3], 0.0).clamp(0.0, 1.0 - win);
        Probs {
            win,
            win_mars,
            win_bg: or(out[2], 0.0).clamp(0.0, win_mars),
            lose_mars,
            lose_bg: or(out[4], 0.0).clamp(0.0, lose_mars),
        }
    }

    /// The shipped weights.
    pub fn shipped() -> Result<HitNet, WeightsError> {
        HitNet::from_bytes(SHIPPED)
    }
}

/// The same outputs seen by the other side.
pub fn flip(out: &[f32; OUTPUTS]) -> [f32; OUTPUTS] {
    super::flipped_outputs(out)
}

/// The outputs an ended game has, from `side`'s view (a game cut off
/// counts as even).
pub fn exact_outputs(state: &GameState, side: Side) -> [f32; OUTPUTS] {
    match state.result() {
        Some(r) => {
            let g = if r.points >= 2 { 1.0 } else { 0.0 };
            let bg = if r.points >= 3 { 1.0 } else { 0.0 };
            match r.winner {
                Some(w) if w == side => [1.0, g, bg, 0.0, 0.0],
                Some(_) => [0.0, 0.0, 0.0, g, bg],
                None => [0.5, 0.0, 0.0, 0.0, 0.0],
            }
        }
        None => [0.5, 0.0, 0.0, 0.0, 0.0],
    }
}

/// The shipped network, parsed once.
pub fn shipped_shared() -> Result<std::sync::Arc<HitNet>, WeightsError> {
    use std::sync::{Arc, OnceLock};
    static NET: OnceLock<Result<Arc<HitNet>, WeightsError>> = OnceLock::new();
    NET.get_or_init(|| HitNet::shipped().map(Arc::new)).clone()
}

/// The pinning games' shipped network, parsed once.
pub fn pinning_shipped_shared() -> Result<std::sync::Arc<HitNet>, WeightsError> {
    use std::sync::{Arc, OnceLock};
    static NET: OnceLock<Result<Arc<HitNet>, WeightsError>> = OnceLock::new();
    NET.get_or_init(|| HitNet::from_bytes(PINNING_SHIPPED).map(Arc::new))
        .clone()
}

impl Evaluator for HitNet {
    fn eval(&self, state: &GameState, _opts: &RuleOptions) -> Probs {
        let out = self.play_outputs(BASES, HitFeatures(state));
        scored(state, HitNet::probs(&out)).settled(state)
    }

    fn eval_batch(&self, states: &[GameState], _opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        out.extend(states.iter().map(|s| {
            let o = self.play_outputs(BASES, HitFeatures(s));
            scored(s, HitNet::probs(&o)).settled(s)
        }));
    }

    fn name(&self) -> &'static str {
        "hitnet"
    }
}

/// The hitting games' network evaluated the way it is trained (see
/// [`Sparse`]).
impl Evaluator for Sparse<'_, OUTPUTS> {
    fn eval(&self, state: &GameState, _opts: &RuleOptions) -> Probs {
        super::net::with_inputs_buffer(|active| {
            features_into(state, active);
            scored(state, HitNet::probs(&self.0.outputs_of(active)))
        })
    }

    fn eval_batch(&self, states: &[GameState], _opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        super::net::with_inputs_buffer(|active| {
            for s in states {
                features_into(s, active);
                out.push(scored(s, HitNet::probs(&self.0.outputs_of(active))));
            }
        });
    }

    fn name(&self) -> &'static str {
        "hitnet"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;
    use crate::rules::hitting::START;

    #[test]
    fn features_fit_the_layout_and_see_the_race() {
        let s = GameState::start_of(crate::rules::Variant::Backgammon, Side::White);
        let x = features(&s);
        assert!(x.active.iter().all(|&(i, _)| usize::from(i) < INPUTS));
        assert!(contact(START.own, START.opp));
        // Everyone home: a race.
        let home = Checkers::from_counts(&{
            let mut c = [0u8; 24];
            c[0] = 15;
            c
        })
        .unwrap();
        assert!(!contact(home, home));
        let s2 = GameState {
            pos: Position {
                own: home,
                opp: home,
            },
            ..s
        };
        assert!(
            features(&s2)
                .active
                .iter()
                .any(|&(i, _)| usize::from(i) == INPUTS - 1)
        );
    }

    #[test]
    fn flipping_twice_is_the_identity_and_results_are_exact() {
        let o = [0.6, 0.2, 0.05, 0.1, 0.01];
        assert_eq!(flip(&flip(&o)), o);
        let p = HitNet::probs(&o);
        assert!((p.equity() - (0.2 + 0.2 - 0.1 + 0.05 - 0.01)).abs() < 1e-6);
    }

    #[test]
    fn shipped_weights_load() {
        let net = HitNet::shipped().unwrap();
        assert_eq!(net.layout, HIT_LAYOUT);
        assert_eq!(net.inputs, INPUTS);
        assert!(net.description.contains("backgammon"));
        // Gul bara's loader refuses them, and this one Gul bara's.
        assert!(super::super::net::Net::from_bytes(SHIPPED).is_err());
        assert!(HitNet::from_bytes(super::super::net::SHIPPED).is_err());
    }
}
