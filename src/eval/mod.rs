//! Evaluators: from a state where the side to move is about to roll (or to
//! play a remainder and then roll), its chances of winning, winning a mars
//! and losing a mars.
//!
//! Evaluators compose behind the [`Evaluator`] trait: the hand-written
//! [`heuristic::Heuristic`] today, a trained network later, and the search
//! on top of either.

pub mod arith;
pub mod bearoff;
pub mod heuristic;
pub mod hitnet;
pub mod net;
pub mod phase;
pub mod race;
pub mod variants;

use std::sync::Arc;

use crate::rules::{EvalFamily, GameState, RuleOptions, ShippedNet, Side, Variant};

/// A game's network, loaded and checked for that game.
#[derive(Clone)]
pub enum GameNet {
    /// Gul bara's (input layout 1 or 4).
    GulBara(Arc<net::Net>),
    /// Long nardy's (input layout 3).
    LongNardy(Arc<net::Net>),
    /// Backgammon and short nardy's (input layouts 2, 6 and 7): the contact
    /// network and any network of its own for the other phases
    /// ([`phase::PhaseNets`]).
    Hitting(phase::PhaseNets),
    /// The pinning games' (the hitting games' shape and inputs, its own
    /// weights).
    Pinning(Arc<hitnet::HitNet>),
}

impl GameNet {
    /// The network of `variant`: from the bytes of a weights file, which
    /// must hold that game's network (the outputs and an input layout of
    /// its table row's evaluator family, [`net::NetShape`]: another is
    /// refused with [`net::WeightsError::OtherGame`]), or the shipped one
    /// (`None`).
    pub fn load(variant: Variant, bytes: Option<&[u8]>) -> Result<GameNet, net::WeightsError> {
        if let Some(b) = bytes {
            Self::check_file(variant, b)?;
        }
        Ok(match variant.spec().eval {
            EvalFamily::Hitting => GameNet::Hitting(phase::PhaseNets::single(match bytes {
                None => hitnet::shipped_shared()?,
                Some(b) => Arc::new(hitnet::HitNet::from_bytes(b)?),
            })),
            EvalFamily::LongNardy => GameNet::LongNardy(match (bytes, variant.spec().net) {
                (None, ShippedNet::Fevga) => net::fevga_shipped_shared()?,
                (None, _) => net::long_shipped_shared()?,
                (Some(b), _) => Arc::new(net::Net::from_bytes(b)?),
            }),
            EvalFamily::Pinning => GameNet::Pinning(match bytes {
                None => hitnet::pinning_shipped_shared()?,
                Some(b) => Arc::new(hitnet::HitNet::from_bytes(b)?),
            }),
            EvalFamily::GulBara => GameNet::GulBara(match bytes {
                None => net::shipped_shared()?,
                Some(b) => net::from_bytes_cached(b)?,
            }),
        })
    }

    /// Whether the weights file `bytes` holds a network of `variant`'s
    /// shape ([`net::NetShape`]), read from its header.
    fn check_file(variant: Variant, bytes: &[u8]) -> Result<(), net::WeightsError> {
        let (layout, outputs) = net::file_shape(bytes)?;
        net::NetShape::of(variant.spec().eval).check(variant, layout, outputs)
    }

    /// The same networks with `phase`'s own network read from `bytes`
    /// (`None`: that phase judged by the contact network again). Only the
    /// hitting games have networks per phase.
    pub fn with_phase(
        self,
        variant: Variant,
        phase: phase::Phase,
        bytes: Option<&[u8]>,
    ) -> Result<GameNet, net::WeightsError> {
        match self {
            other if bytes.is_none() && !matches!(other, GameNet::Hitting(_)) => Ok(other),
            GameNet::Hitting(set) => {
                let net = match bytes {
                    None => None,
                    Some(b) => {
                        Self::check_file(variant, b)?;
                        Some(Arc::new(hitnet::HitNet::from_bytes(b)?))
                    }
                };
                Ok(GameNet::Hitting(set.with(phase, net)))
            }
            _ => Err(net::WeightsError::NoPhaseNetworks(variant)),
        }
    }

    /// This network with the phase networks of `old` (the hitting games'
    /// contact network replaced, the others kept); other games' as they are.
    pub fn keeping_phases_of(self, old: &GameNet) -> GameNet {
        match (self, old) {
            (GameNet::Hitting(new), GameNet::Hitting(old)) => GameNet::Hitting(phase::PhaseNets {
                contact: new.contact,
                crashed: old.crashed.clone(),
                race: old.race.clone(),
            }),
            (new, _) => new,
        }
    }

    /// The network `phase` is judged by, where the game has networks per
    /// phase (the hitting games).
    pub fn phase_net(&self, phase: phase::Phase) -> Option<&Arc<hitnet::HitNet>> {
        match self {
            GameNet::Hitting(set) => Some(set.net(phase)),
            _ => None,
        }
    }

    /// Which network serves `variant` (games sharing a shipped network
    /// share it): an index `0..ShippedNet::COUNT`.
    pub fn slot(variant: Variant) -> usize {
        variant.spec().net.index()
    }

    /// The network as an evaluator, behind the race tables (all-home races
    /// are answered from [`bearoff`]; see [`race`]).
    pub fn evaluator(&self) -> Arc<dyn Evaluator> {
        race::with_tables(self.net_evaluator())
    }

    /// The network alone, judging races too (`engine.race eval`, and the
    /// measurements of its error against the tables).
    pub fn net_evaluator(&self) -> Arc<dyn Evaluator> {
        match self {
            GameNet::GulBara(n) | GameNet::LongNardy(n) => n.clone(),
            GameNet::Hitting(set) => set.evaluator(),
            GameNet::Pinning(n) => n.clone(),
        }
    }

    /// [`GameNet::evaluator`] or, with `tables` false, [`GameNet::net_evaluator`].
    pub fn evaluator_with(&self, tables: bool) -> Arc<dyn Evaluator> {
        if tables {
            self.evaluator()
        } else {
            self.net_evaluator()
        }
    }
}

/// The bytes of the weights file shipped as `net`.
pub fn shipped_bytes(net: ShippedNet) -> &'static [u8] {
    match net {
        ShippedNet::GulBara => net::SHIPPED,
        ShippedNet::LongNardy => net::LONG_SHIPPED,
        ShippedNet::Fevga => net::FEVGA_SHIPPED,
        ShippedNet::Backgammon => hitnet::SHIPPED,
        ShippedNet::Plakoto => hitnet::PINNING_SHIPPED,
    }
}

/// Cubeless outcome probabilities for one side.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Probs {
    /// Probability of winning (mars wins included).
    pub win: f32,
    /// Probability of winning a mars (2 points).
    pub win_mars: f32,
    /// Probability of losing a mars.
    pub lose_mars: f32,
    /// Probability of winning a backgammon (3 points; backgammon only,
    /// included in `win_mars`).
    pub win_bg: f32,
    /// Probability of losing a backgammon (included in `lose_mars`).
    pub lose_bg: f32,
}

/// The chances as a three-output network writes them: win, win mars,
/// lose mars (no backgammons).
impl From<[f32; 3]> for Probs {
    fn from(o: [f32; 3]) -> Probs {
        Probs {
            win: o[0],
            win_mars: o[1],
            lose_mars: o[2],
            win_bg: 0.0,
            lose_bg: 0.0,
        }
    }
}

impl From<Probs> for [f32; 3] {
    fn from(p: Probs) -> [f32; 3] {
        [p.win, p.win_mars, p.lose_mars]
    }
}

/// The chances as the hitting games' network writes them: win, win
/// gammon, win backgammon, lose gammon, lose backgammon.
impl From<[f32; 5]> for Probs {
    fn from(o: [f32; 5]) -> Probs {
        Probs {
            win: o[0],
            win_mars: o[1],
            win_bg: o[2],
            lose_mars: o[3],
            lose_bg: o[4],
        }
    }
}

impl From<Probs> for [f32; 5] {
    fn from(p: Probs) -> [f32; 5] {
        [p.win, p.win_mars, p.win_bg, p.lose_mars, p.lose_bg]
    }
}

/// A network's output row seen by the other side: [`Probs::flipped`], the
/// one place the outcome flip is written, in the row's own order.
pub fn flipped_outputs<const N: usize>(out: &[f32; N]) -> [f32; N]
where
    Probs: From<[f32; N]>,
    [f32; N]: From<Probs>,
{
    Probs::from(*out).flipped().into()
}

impl Probs {
    /// Cubeless equity in points per game: a single win 1 point, a mars
    /// (gammon) 2, a backgammon 3, as every game scores them
    /// ([`crate::rules::Scores`]). In the games that score no backgammon
    /// the evaluators report `win_bg` and `lose_bg` as 0 (the five-output
    /// networks' through `hitnet::scored`), so their backgammon outputs
    /// count nothing here nor anywhere these chances go (search, cube,
    /// analysis, rollouts).
    #[inline]
    pub fn equity(&self) -> f32 {
        2.0 * self.win - 1.0 + self.win_mars - self.lose_mars + self.win_bg - self.lose_bg
    }

    /// The same chances seen by the opponent.
    #[inline]
    pub fn flipped(&self) -> Probs {
        Probs {
            win: 1.0 - self.win,
            win_mars: self.lose_mars,
            lose_mars: self.win_mars,
            win_bg: self.lose_bg,
            lose_bg: self.win_bg,
        }
    }

    /// Weighted sum helper for averaging.
    #[inline]
    pub fn add_scaled(&mut self, other: &Probs, w: f32) {
        self.win += other.win * w;
        self.win_mars += other.win_mars * w;
        self.lose_mars += other.lose_mars * w;
        self.win_bg += other.win_bg * w;
        self.lose_bg += other.lose_bg * w;
    }

    /// These chances for the side to move in `state` with the multiple wins
    /// that cannot happen set to 0: in every game a side with a checker
    /// borne off loses a single point at most (no mars, gammon or
    /// backgammon), which a network only approximates.
    #[inline]
    pub fn settled(mut self, state: &GameState) -> Probs {
        if state.pos.own.off() > 0 {
            self.lose_mars = 0.0;
            self.lose_bg = 0.0;
        }
        if state.pos.opp.off() > 0 {
            self.win_mars = 0.0;
            self.win_bg = 0.0;
        }
        self
    }

    /// The exact outcome of a finished game, for `side`.
    pub fn of_result(state: &GameState, side: Side) -> Option<Probs> {
        let r = state.result()?;
        let p = match r.winner {
            None => Probs {
                win: 0.5,
                ..Probs::default()
            },
            Some(w) => {
                let mars = if r.points >= 2 { 1.0 } else { 0.0 };
                let bg = if r.points >= 3 { 1.0 } else { 0.0 };
                let won = Probs {
                    win: 1.0,
                    win_mars: mars,
                    win_bg: bg,
                    ..Probs::default()
                };
                if w == side { won } else { won.flipped() }
            }
        };
        Some(p)
    }
}

/// Something that judges positions.
pub trait Evaluator: Send + Sync {
    /// Chances of `state.to_move`, which is about to roll or to play a
    /// pending remainder and then roll. `state` is not finished.
    fn eval(&self, state: &GameState, opts: &RuleOptions) -> Probs;

    /// [`Evaluator::eval`] of each of `states` in order, into `out`
    /// (cleared first): the search judges all the ends of a stage in one
    /// call. The networks override it to keep their buffers across the
    /// batch; the results are the same bits as one call per state.
    fn eval_batch(&self, states: &[GameState], opts: &RuleOptions, out: &mut Vec<Probs>) {
        out.clear();
        out.extend(states.iter().map(|s| self.eval(s, opts)));
    }

    /// Short name for `info string` and logs.
    fn name(&self) -> &'static str;
}

/// Chances of `side` in any state: exact when the game is over; otherwise
/// the evaluator's view of the side to move, turned round when needed.
/// A state in the middle of a chain is judged as if the chain stopped there.
pub fn probs_for(eval: &dyn Evaluator, state: &GameState, opts: &RuleOptions, side: Side) -> Probs {
    if let Some(p) = Probs::of_result(state, side) {
        return p;
    }
    let s = settled(state);
    let p = eval.eval(&s, opts);
    if s.to_move == side { p } else { p.flipped() }
}

/// [`probs_for`] of each of `states` in order, into `out` (cleared
/// first), with one [`Evaluator::eval_batch`] call for the unfinished ones.
pub fn probs_for_batch(
    eval: &dyn Evaluator,
    states: &[GameState],
    opts: &RuleOptions,
    side: Side,
    out: &mut Vec<Probs>,
) {
    let settled_states: Vec<GameState> = states
        .iter()
        .filter(|s| s.result().is_none())
        .map(settled)
        .collect();
    let mut judged = Vec::with_capacity(settled_states.len());
    eval.eval_batch(&settled_states, opts, &mut judged);
    let mut judged = settled_states.iter().zip(judged);
    out.clear();
    for state in states {
        if let Some(p) = Probs::of_result(state, side) {
            out.push(p);
        } else if let Some((s, p)) = judged.next() {
            out.push(if s.to_move == side { p } else { p.flipped() });
        }
    }
}

/// The state as if the side to move's own roll were finished: a pending
/// own stage (a roll's stage or a chain stage) is dropped and the opponent
/// is to roll. Remainders and rolls stay as they are.
pub fn settled(state: &GameState) -> GameState {
    use crate::rules::Pending;
    match state.pending {
        Pending::Roll | Pending::Remainder { .. } => *state,
        Pending::Roll2 { .. } | Pending::Chain { .. } => {
            let mut s = *state;
            s.pos = s.pos.flipped();
            s.to_move = s.to_move.opponent();
            s.pending = Pending::Roll;
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game plays the shipped network its table entry names: loaded
    /// by default or from that file's bytes, it judges alike; games that
    /// share a slot share the file.
    #[test]
    fn each_game_plays_the_network_its_table_names() {
        for v in Variant::ALL {
            let opts = RuleOptions::for_variant(v);
            let state = GameState::start_of(v, Side::White);
            let default = GameNet::load(v, None).expect("shipped").net_evaluator();
            let bytes = shipped_bytes(v.spec().net);
            let named = GameNet::load(v, Some(bytes)).expect("its bytes");
            assert_eq!(
                default.eval(&state, &opts),
                named.net_evaluator().eval(&state, &opts),
                "{v}"
            );
            for w in Variant::ALL {
                assert_eq!(
                    GameNet::slot(v) == GameNet::slot(w),
                    v.spec().net == w.spec().net,
                    "{v} {w}"
                );
            }
        }
        assert_ne!(
            GameNet::slot(Variant::Fevga),
            GameNet::slot(Variant::LongNardy)
        );
    }
}
