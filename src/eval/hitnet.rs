//! The hitting games' network (backgammon and short nardy): one hidden
//! layer, five sigmoid outputs (win, win gammon, win backgammon, lose
//! gammon, lose backgammon) for the side to move before its roll, as
//! gnubg's networks have.
//!
//! Inputs (layout [`HIT_LAYOUT`]), from the side to move's view, each side
//! in its own numbering (its point `p` is the other's `25 - p`): per side,
//! four units per point (≥1, ≥2, ≥3 checkers, and (n−3)/2 beyond three),
//! two for the bar (≥1, and n/4), borne off / 15, pips / 167; then one unit
//! set when contact is over (a race). Layout [`HIT_CONTACT_LAYOUT`] adds,
//! while there is contact, per side ([`contact_units`]): the share of the
//! 36 rolls on which the other side hits one of its blots, and the share
//! on which its rearmost checker escapes past the other side's points in
//! front of it (gnubg's contact inputs, simplified). The weights file is the Gul bara
//! network's format ([`super::net`]) with this layout and five outputs; its
//! description names the game it was trained on.

use super::net::{
    Features, HIT_CONTACT_LAYOUT, HIT_GNUBG_LAYOUT, HIT_LAYOUT, InputSink, NetOf, Sparse,
    WeightsError,
};
use super::{Evaluator, Probs};
use crate::rules::position::Checkers;
use crate::rules::{GameState, RuleOptions, Side};

/// Inputs of layout [`HIT_LAYOUT`].
pub const INPUTS: usize = 2 * SIDE + 1;
/// Inputs of layout [`HIT_CONTACT_LAYOUT`]: [`INPUTS`] and two per side.
pub const CONTACT_INPUTS: usize = INPUTS + 4;
/// Inputs of layout [`HIT_GNUBG_LAYOUT`]: [`CONTACT_INPUTS`] and
/// [`super::net::contact_inputs::PER_SIDE`] per side.
pub const GNUBG_INPUTS: usize = CONTACT_INPUTS + 2 * super::net::contact_inputs::PER_SIDE;
/// Inputs per side.
const SIDE: usize = 24 * 4 + 2 + 2;
/// Outputs: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

/// The hitting games' network.
pub type HitNet = NetOf<OUTPUTS>;

/// The shipped backgammon weights (also short nardy's, Portes' and Tabla's).
pub static SHIPPED: &[u8] = include_bytes!("backgammon.gbnn");

/// The shipped weights of the pinning games (Plakoto, Tapa): the same
/// shape, trained by TD(λ) on Plakoto's own games (layout 2), then given the
/// pin inputs of layout 8 ([`super::net::pin_inputs`]) and supervised on
/// rolled-out positions (docs/journal/2026-12-06-plakoto.md).
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

/// The inputs of a state of a hitting game (side to move about to roll),
/// layout [`HIT_LAYOUT`].
pub fn features(state: &GameState) -> super::net::Inputs {
    features_of(HIT_LAYOUT, state)
}

/// The inputs of a state for a hitting network of `layout`
/// ([`HIT_LAYOUT`], [`HIT_CONTACT_LAYOUT`] or [`HIT_GNUBG_LAYOUT`]).
pub fn features_of(layout: u32, state: &GameState) -> super::net::Inputs {
    let mut active = Vec::with_capacity(80);
    features_to(state, layout, &mut active);
    super::net::Inputs { active }
}

/// [`features`] into `active` (cleared first).
pub fn features_into(state: &GameState, active: &mut Vec<(u16, f32)>) {
    features_to(state, HIT_LAYOUT, active);
}

/// A state's inputs for play's evaluation ([`NetOf::play_outputs`]), for
/// a network of `layout`.
#[derive(Clone, Copy)]
pub(crate) struct HitFeatures<'s> {
    pub(crate) state: &'s GameState,
    pub(crate) layout: u32,
}

impl Features for HitFeatures<'_> {
    #[inline(always)]
    fn write(self, sink: &mut impl InputSink) {
        features_to(self.state, self.layout, sink);
    }
}

/// Where the two sides' point units start.
pub(crate) const BASES: [usize; 2] = [0, SIDE];

#[inline(always)]
fn features_to(state: &GameState, layout: u32, active: &mut impl InputSink) {
    active.clear();
    let (own, opp) = (state.pos.own, state.pos.opp);
    let (own_mask, opp_mask) = (own.mask(), opp.mask());
    side_features(own, own_mask, 0, BASES[0], active);
    side_features(opp, opp_mask, 1, BASES[1], active);
    if !contact_masked(own, own_mask, opp, opp_mask) {
        active.push((2 * SIDE) as u16, 1.0);
    } else if layout == HIT_CONTACT_LAYOUT {
        push_contact_units(contact_units_of_both(own, own_mask, opp, opp_mask), active);
    } else if layout == HIT_GNUBG_LAYOUT {
        // Every input computed before the first is added: play's sums stay
        // in registers while they are added. Layout 6's shots come from
        // the same landings as layout 7's double shots and pip loss.
        use super::net::contact_inputs;
        let (gnubg, shots, [own_made, opp_made]) =
            contact_inputs::both_sides(own, own_mask, opp, opp_mask);
        let turned = contact_inputs::turned;
        let units = [
            [
                shots[0],
                escape_share_of(own.bar(), own_mask, turned(opp_made)),
            ],
            [
                shots[1],
                escape_share_of(opp.bar(), opp_mask, turned(own_made)),
            ],
        ];
        push_contact_units(units, active);
        contact_inputs::write(&gnubg, CONTACT_INPUTS, active);
    }
    if layout == super::net::pin_inputs::PIN_LAYOUT {
        super::net::pin_inputs::write(own, opp, INPUTS, active);
    }
}

/// Layout 6's contact units of both sides (from [`contact_units_of_both`])
/// as inputs, the zeros left out.
#[inline(always)]
fn push_contact_units(units: [[f32; 2]; 2], active: &mut impl InputSink) {
    for (k, [shots, escapes]) in units.into_iter().enumerate() {
        let i = INPUTS + 2 * k;
        if shots > 0.0 {
            active.push(i as u16, shots);
        }
        if escapes > 0.0 {
            active.push(i as u16 + 1, escapes);
        }
    }
}

/// The contact units of side `me` against `them` (each in its own
/// numbering, `me`'s point `p` being `them`'s `25 - p`): the share of the
/// 36 rolls on which `them` can hit a blot of `me`, and the share on
/// which `me`'s rearmost checker can reach a point past `them`'s made
/// points among the twelve in front of it (1 when none stands there).
///
/// Simplified from gnubg's: a side with checkers on the bar hits only by
/// entering, and neither count asks whether the rest of the roll can be
/// played.
pub fn contact_units(me: Checkers, them: Checkers) -> [f32; 2] {
    contact_units_of_both(me, me.mask(), them, them.mask())[0]
}

/// [`contact_units`] of `own` against `opp` and of `opp` against `own`,
/// each side's points read once.
#[inline]
fn contact_units_of_both(
    own: Checkers,
    own_mask: u32,
    opp: Checkers,
    opp_mask: u32,
) -> [[f32; 2]; 2] {
    // Each side's blots and made points in the other's numbering.
    let (own_blots, own_blocks) = blots_and_blocks(own, own_mask);
    let (opp_blots, opp_blocks) = blots_and_blocks(opp, opp_mask);
    [
        [
            hit_share_of(opp.bar(), opp_mask, own_blots, own_blocks),
            escape_share_of(own.bar(), own_mask, opp_blocks),
        ],
        [
            hit_share_of(own.bar(), own_mask, opp_blots, opp_blocks),
            escape_share_of(opp.bar(), opp_mask, own_blocks),
        ],
    ]
}

/// Points of `c` holding two or more checkers (bit `p - 1` for point `p`).
#[inline(always)]
fn made_points(c: Checkers) -> u32 {
    use crate::rules::position::compress_nibbles;
    // Point p's count is nibble p; its bits 1–3 say "two or more".
    let x = c.0 >> 4;
    let two = (x >> 1) | (x >> 2) | (x >> 3);
    (compress_nibbles(two as u64) | (compress_nibbles((two >> 64) as u64) << 16)) & 0xFF_FFFF
}

/// Points of `c` (whose occupancy mask is `occupied`) holding exactly one
/// checker / two or more, as masks of the other side's numbering (bit
/// `q - 1` for its point `q = 25 - p`).
#[inline]
fn blots_and_blocks(c: Checkers, occupied: u32) -> (u32, u32) {
    let blocks = made_points(c);
    // Point p (bit p − 1) is the other side's 25 − p (bit 24 − p).
    let turned = super::net::contact_inputs::turned;
    (turned(occupied & !blocks), turned(blocks))
}

/// The share of the 36 rolls on which `hitter` (moving down its own
/// numbering) can land on a blot of `target`.
#[cfg(test)]
fn hit_share(hitter: Checkers, target: Checkers) -> f32 {
    let (blots, blocks) = blots_and_blocks(target, target.mask());
    hit_share_of(hitter.bar(), hitter.mask(), blots, blocks)
}

/// `hit_share` with the target's blots and made points at hand (in the
/// hitter's numbering).
#[inline]
fn hit_share_of(bar: u8, hitter_mask: u32, blots: u32, blocks: u32) -> f32 {
    // The checkers that may move first (bit 24: the bar, point 25).
    let sources = if bar > 0 { 1u32 << 24 } else { hitter_mask };
    reach_share(sources, bar, blots, !blocks & 0xFF_FFFF)
}

/// The share of the 36 rolls on which some checker of `sources` (a mask,
/// bit `p - 1` for point `p`, moving down) can land on a point of
/// `targets`, every landing on the way on an `open` point: all the
/// checkers at once, as a mask shifted by the dice. `bar` checkers on the
/// bar limit the steps of the first ([`steps_of_the_first_checker`]).
#[inline]
fn reach_share(sources: u32, bar: u8, targets: u32, open: u32) -> f32 {
    if targets == 0 || sources == 0 {
        return 0.0;
    }
    // Where one step of each die lands.
    let one: [u32; 7] = std::array::from_fn(|d| if d == 0 { 0 } else { (sources >> d) & open });
    // The steps a doublet's first checker may take beyond its first, and a
    // non-doublet's second step, as masks (branch-free below).
    let most = steps_of_the_first_checker(true, bar);
    let upto = |k: u32| if most >= k { u32::MAX } else { 0 };
    let (m2, m3, m4) = (upto(2), upto(3), upto(4));
    let second = if steps_of_the_first_checker(false, bar) == 2 {
        u32::MAX
    } else {
        0
    };
    let mut hits = 0u32;
    for (d, &r1) in one.iter().enumerate().skip(1) {
        let r2 = (r1 >> d) & open & m2;
        let r3 = (r2 >> d) & open & m3;
        let r4 = (r3 >> d) & open & m4;
        hits += u32::from((r1 | r2 | r3 | r4) & targets != 0);
    }
    for a in 1..6 {
        for b in a + 1..=6 {
            let two = ((one[a] >> b) | (one[b] >> a)) & second;
            hits += 2 * u32::from((one[a] | one[b] | two) & targets != 0);
        }
    }
    hits as f32 / 36.0
}

/// How many steps of a roll one checker may take: all of them, unless
/// checkers on the bar must use some to enter.
#[inline]
pub(crate) fn steps_of_the_first_checker(doublet: bool, bar: u8) -> u32 {
    match (doublet, bar) {
        (true, 0) => 4,
        (false, 0 | 1) => 2,
        (true, n) => 5 - u32::from(n.min(4)),
        (false, _) => 1,
    }
}

/// The share of the 36 rolls on which `runner`'s rearmost checker can
/// reach a point below the lowest of `blocker`'s made points among the
/// twelve in front of it (1 when none stands there; 0 when `runner` has no
/// checker left).
#[cfg(test)]
fn escape_share(runner: Checkers, blocker: Checkers) -> f32 {
    escape_share_of(
        runner.bar(),
        runner.mask(),
        blots_and_blocks(blocker, blocker.mask()).1,
    )
}

/// `escape_share` with the blocker's made points at hand (in the
/// runner's numbering).
#[inline]
fn escape_share_of(bar: u8, runner_mask: u32, blocks: u32) -> f32 {
    let from = if bar > 0 {
        25
    } else if runner_mask == 0 {
        return 0.0;
    } else {
        32 - runner_mask.leading_zeros()
    };
    let below = |p: u32| (1u32 << (p - 1)) - 1;
    let window = blocks & below(from) & !below(from.saturating_sub(12).max(1));
    if window == 0 {
        return 1.0;
    }
    let goal = window.trailing_zeros() + 1;
    let open = !blocks & 0xFF_FFFF;
    reach_share(1 << (from - 1), bar, below(goal) & open, open)
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
        let out = self.play_outputs(
            BASES,
            HitFeatures {
                state,
                layout: self.layout,
            },
        );
        scored(state, HitNet::probs(&out)).settled(state)
    }

    fn eval_batch(&self, states: &[GameState], _opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        out.extend(states.iter().map(|s| {
            let o = self.play_outputs(
                BASES,
                HitFeatures {
                    state: s,
                    layout: self.layout,
                },
            );
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
            features_to(state, self.0.layout, active);
            scored(state, HitNet::probs(&self.0.outputs_of(active)))
        })
    }

    fn eval_batch(&self, states: &[GameState], _opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        super::net::with_inputs_buffer(|active| {
            for s in states {
                features_to(s, self.0.layout, active);
                out.push(scored(s, HitNet::probs(&self.0.outputs_of(active))));
            }
        });
    }

    fn name(&self) -> &'static str {
        "hitnet"
    }
}

#[cfg(test)]
pub(crate) mod tests {
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

    /// One side's checkers from `(point, count)` pairs in its numbering.
    fn side(points: &[(usize, u8)]) -> Checkers {
        let mut c = [0u8; 24];
        for &(p, n) in points {
            c[p - 1] = n;
        }
        Checkers::from_counts(&c).unwrap()
    }

    #[test]
    fn a_blot_six_away_is_hit_by_seventeen_rolls() {
        // The hitter's lone checker on its 13, the blot on the hitter's 7
        // (the target's 18): 11 rolls with a six, 5-1, 4-2, 3-3 and 2-2.
        let hitter = side(&[(13, 1)]);
        let target = side(&[(18, 1)]);
        assert_eq!(hit_share(hitter, target), 17.0 / 36.0);
        // The target's point on the hitter's 10 (its 15) stops 3-3 only.
        let target = side(&[(18, 1), (15, 2)]);
        assert_eq!(hit_share(hitter, target), 16.0 / 36.0);
        // Two blots, 1 and 2 away: every roll with a 1 or a 2 (20), 1-1
        // already counted, and nothing else reaches (no other distance).
        let target = side(&[(13, 1), (14, 1)]);
        assert_eq!(hit_share(hitter, target), 20.0 / 36.0);
        // From the bar: the blot on the hitter's 20 (the target's 5) is
        // hit entering with a 5 (11 rolls), or entering and moving on
        // with 4-1 and 3-2 (4 more).
        let hitter = Checkers::from_counts_with_bar(&[0; 24], 1).unwrap();
        let target = side(&[(5, 1)]);
        assert_eq!(hit_share(hitter, target), 15.0 / 36.0);
        assert_eq!(contact_units(target, hitter)[0], 15.0 / 36.0);
        // With two on the bar both dice enter: only the 5s hit.
        let two = Checkers::from_counts_with_bar(&[0; 24], 2).unwrap();
        assert_eq!(hit_share(two, target), 11.0 / 36.0);
    }

    /// The hit share counted one checker, one path and one point at a
    /// time, from the counts (the reference for [`hit_share`]).
    fn hit_share_naive(hitter: Checkers, target: Checkers) -> f32 {
        let count_at = |q: i32| target.at((25 - q) as u8);
        let blot = |q: i32| (1..=24).contains(&q) && count_at(q) == 1;
        let block = |q: i32| (1..=24).contains(&q) && count_at(q) >= 2;
        let bar = hitter.bar();
        let sources: Vec<i32> = if bar > 0 {
            vec![25]
        } else {
            (1..=24).filter(|&p| hitter.at(p as u8) > 0).collect()
        };
        let mut hits = 0;
        for a in 1..=6i32 {
            for b in 1..=6i32 {
                let most = steps_of_the_first_checker(a == b, bar) as usize;
                let paths: Vec<Vec<i32>> = if a == b {
                    vec![vec![a; most]]
                } else {
                    vec![vec![a, b][..most].to_vec(), vec![b, a][..most].to_vec()]
                };
                let hit = sources.iter().any(|&t| {
                    paths.iter().any(|path| {
                        let mut x = t;
                        for d in path {
                            x -= d;
                            if x < 1 || block(x) {
                                return false;
                            }
                            if blot(x) {
                                return true;
                            }
                        }
                        false
                    })
                });
                hits += u32::from(hit);
            }
        }
        hits as f32 / 36.0
    }

    /// The escape share walked roll by roll, from the counts (the
    /// reference for [`escape_share`]; a runner with one checker at most
    /// on the bar).
    fn escape_share_naive(runner: Checkers, blocker: Checkers) -> f32 {
        let block = |q: i32| (1..=24).contains(&q) && blocker.at((25 - q) as u8) >= 2;
        let Some(from) = (1..=25i32).rev().find(|&p| {
            if p == 25 {
                runner.bar() > 0
            } else {
                runner.at(p as u8) > 0
            }
        }) else {
            return 0.0;
        };
        let Some(goal) = ((from - 12).max(1)..from).find(|&q| block(q)) else {
            return 1.0;
        };
        let mut n = 0;
        for a in 1..=6i32 {
            for b in 1..=6i32 {
                let paths = if a == b {
                    vec![vec![a; 4]]
                } else {
                    vec![vec![a, b], vec![b, a]]
                };
                let out = paths.iter().any(|path| {
                    let mut x = from;
                    for d in path {
                        x -= d;
                        if x < 1 || block(x) {
                            return false;
                        }
                        if x < goal {
                            return true;
                        }
                    }
                    false
                });
                n += u32::from(out);
            }
        }
        n as f32 / 36.0
    }

    #[test]
    fn hit_and_escape_shares_agree_with_the_naive_counts() {
        let (mut seen, mut escapes) = (0, 0);
        for v in [
            crate::rules::Variant::Backgammon,
            crate::rules::Variant::ShortNardy,
        ] {
            for pos in crate::rules::dice::random_game_positions(v, 30, 9, 80) {
                for (h, t) in [(pos.own, pos.opp), (pos.opp, pos.own)] {
                    let want = hit_share_naive(h, t);
                    assert_eq!(hit_share(h, t), want, "{pos:?}");
                    seen += usize::from(want > 0.0);
                    if h.bar() < 2 {
                        let want = escape_share_naive(h, t);
                        assert_eq!(escape_share(h, t), want, "{pos:?}");
                        escapes += usize::from(want > 0.0 && want < 1.0);
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
        assert!(escapes > 100, "{escapes}");
    }

    #[test]
    fn a_full_prime_holds_and_open_ground_is_escaped() {
        // The runner on its 24; the blocker's points on the runner's
        // 18–23 (its 2–7): no first step lands.
        let runner = side(&[(24, 1)]);
        let prime = side(&[(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)]);
        assert_eq!(escape_share(runner, prime), 0.0);
        assert_eq!(escape_share(runner, side(&[(1, 2)])), 1.0);
        // One point on the runner's 18 (the blocker's 7): past it go the
        // non-doublets of 7 or more (18 rolls; the die played first need
        // not be the six) and 4-4 and 5-5 (3-3 and 6-6 land on 18, 2-2
        // reaches it after three steps, 1-1 falls short).
        let one = side(&[(7, 2)]);
        assert_eq!(escape_share(runner, one), 20.0 / 36.0);
    }

    #[test]
    fn contact_inputs_start_as_the_network_they_extend() {
        let net = layout_6_network();
        let wide = net.with_inputs(HIT_CONTACT_LAYOUT, CONTACT_INPUTS);
        let o = RuleOptions::for_variant(crate::rules::Variant::Backgammon);
        let start = GameState::start_of(crate::rules::Variant::Backgammon, Side::White);
        let mut seen = 0;
        let mut with_contact_units = start;
        for pos in
            crate::rules::dice::random_game_positions(crate::rules::Variant::Backgammon, 4, 5, 60)
        {
            let s = GameState { pos, ..start };
            let x = features_of(HIT_CONTACT_LAYOUT, &s);
            assert!(
                x.active
                    .iter()
                    .all(|&(i, _)| usize::from(i) < CONTACT_INPUTS)
            );
            if x.active.iter().any(|&(i, _)| usize::from(i) >= INPUTS) {
                seen += 1;
                with_contact_units = s;
            }
            let (a, b) = (net.eval(&s, &o), wide.eval(&s, &o));
            assert!((a.equity() - b.equity()).abs() < 1e-4, "{a:?} {b:?}");
            let (a, b) = (Sparse(&net).eval(&s, &o), Sparse(&wide).eval(&s, &o));
            assert!((a.equity() - b.equity()).abs() < 1e-5, "{a:?} {b:?}");
        }
        assert!(seen > 10, "{seen}");
        // Trained weights on the new rows move the outputs.
        let mut moved = wide.clone();
        for w in &mut moved.w1[INPUTS * moved.hidden..] {
            *w = 0.5;
        }
        // The fast rows were built from the old weights.
        moved.rows = Default::default();
        let s = with_contact_units;
        assert_ne!(moved.eval(&s, &o), wide.eval(&s, &o));
        assert_ne!(Sparse(&moved).eval(&s, &o), Sparse(&wide).eval(&s, &o));
    }

    #[test]
    fn flipping_twice_is_the_identity_and_results_are_exact() {
        let o = [0.6, 0.2, 0.05, 0.1, 0.01];
        assert_eq!(flip(&flip(&o)), o);
        let p = HitNet::probs(&o);
        assert!((p.equity() - (0.2 + 0.2 - 0.1 + 0.05 - 0.01)).abs() < 1e-6);
    }

    /// The backgammon network shipped before layout 7's (generation 1
    /// with the contact inputs, layout 6), kept in data/training.
    pub(crate) fn layout_6_network() -> HitNet {
        let net = HitNet::from_bytes(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/training/backgammon/gen1-contact.gbnn"
        )))
        .expect("generation 1's layout-6 weights");
        assert_eq!(
            (net.layout, net.inputs),
            (HIT_CONTACT_LAYOUT, CONTACT_INPUTS)
        );
        net
    }

    #[test]
    fn shipped_weights_load() {
        let net = HitNet::shipped().unwrap();
        assert_eq!(net.layout, HIT_GNUBG_LAYOUT);
        assert_eq!(net.inputs, GNUBG_INPUTS);
        // The pinning games' network: layout 2 and the pin inputs.
        let pinning = HitNet::from_bytes(PINNING_SHIPPED).unwrap();
        use super::super::net::pin_inputs::{PIN_INPUTS, PIN_LAYOUT};
        assert_eq!((pinning.layout, pinning.inputs), (PIN_LAYOUT, PIN_INPUTS));
        assert!(net.description.contains("backgammon"));
        // Gul bara's loader refuses them, and this one Gul bara's.
        assert!(super::super::net::Net::from_bytes(SHIPPED).is_err());
        assert!(HitNet::from_bytes(super::super::net::SHIPPED).is_err());
    }

    /// The games without a 3-point win (short nardy, Portes, Tabla,
    /// Plakoto, Tapa) play five-output networks whose backgammon outputs
    /// are not 0 (Portes, Tabla and short nardy play backgammon's own
    /// network): the engine's evaluators report them as 0 ([`scored`]),
    /// so [`Probs::equity`] is each game's own scoring there; backgammon's
    /// chances are the network's, untouched. Over positions of seeded
    /// random games, against the raw outputs.
    #[test]
    fn games_without_backgammons_judge_none_and_backgammon_keeps_its_own() {
        use crate::eval::{Evaluator, GameNet, phase::phase};
        use crate::rules::{EvalFamily, Variant, dice::random_game_positions};
        for v in Variant::ALL {
            if !matches!(v.spec().eval, EvalFamily::Hitting | EvalFamily::Pinning) {
                continue;
            }
            let opts = RuleOptions::for_variant(v);
            let game = GameNet::load(v, None).expect("shipped");
            let (engine, bare) = (game.evaluator(), game.net_evaluator());
            let triple = v.spec().scores.triple.is_some();
            let (mut judged, mut with_bg) = (0, 0);
            for pos in random_game_positions(v, 40, 5151, 300) {
                let state = GameState {
                    pos,
                    ..GameState::start_of(v, Side::White)
                };
                let net = match v.spec().eval {
                    EvalFamily::Pinning => match &game {
                        GameNet::Pinning(n) => n.clone(),
                        _ => panic!("{v}: not a pinning network"),
                    },
                    _ => game
                        .phase_net(phase(&state))
                        .expect("a phase network")
                        .clone(),
                };
                let raw = net.play_outputs(
                    BASES,
                    HitFeatures {
                        state: &state,
                        layout: net.layout,
                    },
                );
                // The network's chances before any scoring.
                let own = HitNet::probs(&raw).settled(&state);
                let p = bare.eval(&state, &opts);
                let q = engine.eval(&state, &opts);
                judged += 1;
                if own.win_bg + own.lose_bg > 0.0 {
                    with_bg += 1;
                }
                if triple {
                    assert_eq!(p, own, "{v} {pos:?}");
                    continue;
                }
                let want = Probs {
                    win_bg: 0.0,
                    lose_bg: 0.0,
                    ..own
                };
                assert_eq!(p, want, "{v} {pos:?}");
                assert_eq!((q.win_bg, q.lose_bg), (0.0, 0.0), "{v} {pos:?}");
                // The equity is single·(2w − 1) + (double − single)·(wm − lm)
                // with the game's own points (1 and 2).
                let s = v.spec().scores;
                let (one, two) = (f32::from(s.single), f32::from(s.double));
                let by_scores =
                    one * (2.0 * p.win - 1.0) + (two - one) * (p.win_mars - p.lose_mars);
                assert!((p.equity() - by_scores).abs() < 1e-6, "{v} {pos:?}");
            }
            // The raw backgammon outputs are not 0 in most positions (in
            // these games: backgammon's network, mean 0.027, up to 0.99;
            // Plakoto's, mean 0.0007, up to 0.0016): what the zeroing keeps
            // out of the equity.
            assert!(judged > 1000, "{v}: {judged} positions");
            assert!(
                with_bg * 2 > judged,
                "{v}: {with_bg} of {judged} with backgammon outputs"
            );
        }
    }

    /// Every game scores 1 for a single win, 2 for a mars (gammon) and, if
    /// at all, 3 for a backgammon: the points [`Probs::equity`] counts.
    #[test]
    fn every_game_scores_what_the_equity_counts() {
        for v in crate::rules::Variant::ALL {
            let s = v.spec().scores;
            assert_eq!((s.single, s.double), (1, 2), "{v}");
            assert!(matches!(s.triple, None | Some(3)), "{v}");
        }
    }
}
