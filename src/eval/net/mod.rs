//! The networks of the running games (Gul bara's and long nardy's): one
//! hidden layer, three sigmoid outputs (win, win mars, lose mars) for the
//! side to move before its roll. The hitting games' five-output network is
//! [`super::hitnet`]; both share this module's file format and arithmetic.
//!
//! Split by job: [`inputs`] (each input layout's features), [`model`] (the
//! network, its forward passes, training step and evaluators), [`format`](mod@format)
//! (the weights file) and [`cache`] (networks shared once loaded).
//!
//! Input layouts, all from the side to move's point of view:
//! - 1 ([`LAYOUT_VERSION`], the first): for each side, in its own
//!   numbering, four units per point (≥1, ≥2, ≥3 checkers, and (n−3)/2
//!   beyond three), borne-off count / 15, pips / 200; then, for each side,
//!   whether its next roll escalates; the pips of a pending remainder / 84;
//!   and, per side, how many of its checkers stand behind 3+, 4+, 5+ and 6
//!   closed points in a row within a die's reach;
//! - 3 ([`LONG_LAYOUT`]): long nardy's, layout 1 and four inputs more;
//! - 4 ([`BLOCK_LAYOUT`]): layout 1 and, per side, the dice it cannot play
//!   at all and the share of rolls it cannot move with: the shipped Gul
//!   bara network's;
//! - 5 ([`MOBILITY_LAYOUT`]): layout 4 and, per side, how many checkers can
//!   step each die, and whether the sides are past each other.
//! - 8 ([`pin_inputs::PIN_LAYOUT`]): the pinning games' (Plakoto, Tapa):
//!   layout 2 (`eval::hitnet`) and, per side, which checkers are pinned, the
//!   mother's state, the chances to be pinned next roll, the longest prime
//!   and the checkers outside home (see [`pin_inputs`]).
//! - 9 ([`block_inputs::RUN_BLOCK_LAYOUT`]): the blocking games' (long
//!   nardy, Fevga): layout 3 and, per side, the rows in front of the other
//!   side's rearmost checker and the checkers behind rows of 4, 5 and 6, the
//!   head, the rearmost checker's escape, the race to the home (see
//!   [`block_inputs`]).
//!
//! The weights file: magic `GBNN`, then little-endian u32s: format version,
//! input-layout version, inputs, hidden, outputs, description length; the
//! UTF-8 description; then f32s: hidden weights input-major
//! (`inputs × hidden`), hidden biases, output weights output-major
//! (`outputs × hidden`), output biases.
//!
//! Format version 2 is a network of two hidden layers: the header has one
//! u32 more, after the description's length: the second layer's units
//! `hidden2`; the f32s are the first layer's weights and biases as in
//! version 1, then the second layer's weights unit-major
//! (`hidden2 × hidden`) and biases, then the output weights output-major
//! (`outputs × hidden2`) and biases. A one-layer network is always written
//! as version 1, so the files from before read and write unchanged.

use super::{Evaluator, Probs};
use crate::rules::position::{Checkers, compress_nibbles, longest_block_in_front};
use crate::rules::{GameState, Pending, Position, RuleOptions};

/// Inputs of layout version 1.
pub const INPUTS: usize = 2 * (24 * 4 + 2) + 2 + 1 + 2 * 4;
/// Outputs: win, win mars, lose mars.
pub const OUTPUTS: usize = 3;
/// The weights file's format version of a network of one hidden layer.
pub const FORMAT_VERSION: u32 = 1;
/// The weights file's format version of a network of two hidden layers.
pub const FORMAT_VERSION_TWO_LAYERS: u32 = 2;
/// The first input layout (Gul bara's original inputs). The shipped Gul
/// bara network uses [`BLOCK_LAYOUT`], long nardy's [`LONG_LAYOUT`].
pub const LAYOUT_VERSION: u32 = 1;
const MAGIC: &[u8; 4] = b"GBNN";
/// The largest weight magnitude a weights file may hold.
pub const MAX_WEIGHT: f32 = 1.0e4;
/// Hidden layers up to this size are evaluated without allocating.
pub const MAX_HIDDEN: usize = 512;

/// The shipped weights.
pub static SHIPPED: &[u8] = include_bytes!("../gulbara.gbnn");

/// The shipped long-nardy weights (layout [`LONG_LAYOUT`]: TD(λ), then
/// supervised on rolled-out positions and their turns' groups).
pub static LONG_SHIPPED: &[u8] = include_bytes!("../long_nardy.gbnn");

/// The shipped Fevga weights (layout [`LONG_LAYOUT`]: trained by TD(λ) on
/// Fevga, then supervised on rolled-out positions, docs/TRAINING.md).
pub static FEVGA_SHIPPED: &[u8] = include_bytes!("../fevga.gbnn");

/// A network of one hidden layer (or two: [`NetOf::hidden2`]) with `OUT`
/// sigmoid outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct NetOf<const OUT: usize> {
    /// The input layout its weights were trained for (the file header's).
    pub layout: u32,
    /// Inputs.
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// `inputs × hidden`, input-major.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Units of the second hidden layer (0: none, the outputs read the
    /// first hidden layer).
    pub hidden2: usize,
    /// The second hidden layer's weights, `hidden2 × hidden`, unit-major
    /// (empty without one).
    pub w_mid: Vec<f32>,
    /// The second hidden layer's biases (`hidden2`; empty without one).
    pub b_mid: Vec<f32>,
    /// `outputs × top`, output-major, `top` the last hidden layer's units
    /// ([`NetOf::top`]).
    pub w2: Vec<f32>,
    /// Output biases.
    pub b2: Vec<f32>,
    /// What the weights are.
    pub description: String,
    /// The fast evaluation's rows, built on first use from `w1` (forgotten
    /// by [`NetOf::train`]; code that changes `w1` otherwise must not have
    /// evaluated the network fast before).
    pub rows: RowTable,
}

/// Gul bara's network: three outputs, input layout [`LAYOUT_VERSION`].
pub type Net = NetOf<OUTPUTS>;

/// The input layout of the hitting games' networks (`eval::hitnet`).
pub const HIT_LAYOUT: u32 = 2;

/// The hitting games' second input layout: layout 2 and, per side, the
/// share of rolls that hit one of its blots and the share that let its
/// rearmost checker escape (`eval::hitnet::contact_units`).
pub const HIT_CONTACT_LAYOUT: u32 = 6;

// The hitting games' third input layout, layout 6 and gnubg's class of
// contact inputs, is `contact_inputs::HIT_GNUBG_LAYOUT` (7).

/// The input layout of long nardy's network: layout 1 and four inputs
/// more (see [`long_features`]).
pub const LONG_LAYOUT: u32 = 3;
/// Inputs of layout [`LONG_LAYOUT`].
pub const LONG_INPUTS: usize = INPUTS + 4;

/// Gul bara's second input layout: layout 1 and, per side, the dice it
/// cannot play at all and the share of rolls it cannot move with (see
/// [`features_v4`]).
pub const BLOCK_LAYOUT: u32 = 4;
/// Inputs of layout [`BLOCK_LAYOUT`].
pub const BLOCK_INPUTS: usize = INPUTS + 2 * 7;

/// Gul bara's third input layout: layout 4 and, per side, how many of its
/// checkers can step each die (at most four counted: a doublet stage's
/// steps), and whether the two sides are past each other (see
/// [`features_v5`]).
pub const MOBILITY_LAYOUT: u32 = 5;
/// Inputs of layout [`MOBILITY_LAYOUT`].
pub const MOBILITY_INPUTS: usize = BLOCK_INPUTS + 2 * 6 + 1;

pub mod block_inputs;
pub mod cache;
pub mod contact_inputs;
pub mod format;
pub mod inputs;
pub mod model;
pub mod pin_inputs;
#[cfg(test)]
mod tests;

pub use cache::*;
pub use contact_inputs::HIT_GNUBG_LAYOUT;
pub use format::*;
pub use inputs::*;
pub use model::*;
