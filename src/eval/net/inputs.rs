//! The network's inputs: each layout's features of a position, from the
//! side to move's point of view, written into any input sink (a list, the
//! fast evaluation's table rows, or play's running sums).

use super::*;

/// The longest row of points in the occupancy mask `m`.
pub(super) fn longest_row(mut m: u32) -> u32 {
    let mut best = 0;
    while m != 0 {
        // Each round strips one point off every row: the rounds are the longest.
        m &= m >> 1;
        best += 1;
    }
    best
}

/// The inputs of a long-nardy state (layout [`LONG_LAYOUT`]): those of
/// layout 1 (whose escalation and remainder inputs stay zero), then for the
/// side to move and its opponent whether its first turn is still to come
/// (the head rule's doublet exception), then each side's longest row of
/// held points / 6 (the six-block rule's concern).
pub fn long_features(state: &GameState, opts: &RuleOptions) -> Inputs {
    let mut x = Inputs { active: Vec::new() };
    long_features_into(state, opts, &mut x.active);
    x
}

#[inline(always)]
pub(super) fn long_features_into(
    state: &GameState,
    opts: &RuleOptions,
    active: &mut impl InputSink,
) {
    let masks = features_layout1_masked(state, opts, active);
    let side = state.to_move;
    let i = INPUTS;
    if state.rolls[side.index()] == 0 {
        active.push(i as u16, 1.0);
    }
    if state.rolls[side.opponent().index()] == 0 {
        active.push(i as u16 + 1, 1.0);
    }
    for (k, m) in masks.into_iter().enumerate() {
        let row = longest_row(m);
        if row > 0 {
            active.push((i + 2 + k) as u16, row as f32 / 6.0);
        }
    }
}

/// The inputs of layout [`block_inputs::RUN_BLOCK_LAYOUT`] (long nardy,
/// Fevga): layout 3's, then the blocks, head, escape and race inputs of
/// [`block_inputs`].
#[inline(always)]
pub(super) fn run_block_features_into(
    state: &GameState,
    opts: &RuleOptions,
    active: &mut impl InputSink,
) {
    long_features_into(state, opts, active);
    block_inputs::write(state.pos.own, state.pos.opp, LONG_INPUTS, active);
}

/// Which dice the mover of `pos` cannot play a single step of (Gul bara
/// and long nardy: any opposing checker closes a point).
pub fn blocked_dice(pos: Position) -> [bool; 6] {
    blocked_dice_of(pos.own.mask(), pos.blocked())
}

/// [`blocked_dice`] of a mover whose checkers occupy `occ` and whose
/// points in `closed` are closed (both in its numbering).
pub(super) fn blocked_dice_of(occ: u32, closed: u32) -> [bool; 6] {
    step_sources(occ, closed).map(|from| from == 0)
}

/// For each die, the occupied points with a legal single step of it
/// ([`crate::rules::movegen::step_is_legal`]'s rule): a landing on an open
/// point, or, with every checker home, a bear-off from the die's point or
/// from the highest point when none stands on the die's point or above.
pub(super) fn step_sources(occ: u32, closed: u32) -> [u32; 6] {
    let home = occ & !crate::rules::position::HOME_MASK == 0;
    std::array::from_fn(|i| {
        let d = i as u32 + 1;
        // A checker on p lands on p − d: open when bit p − d − 1 of
        // `closed` is clear.
        let mut from = occ & ((!closed & 0xFF_FFFF) << d) & 0xFF_FFFF;
        if home {
            from |= occ & (1 << (d - 1));
            if occ != 0 && occ >> (d - 1) == 0 {
                from |= 1 << (31 - occ.leading_zeros());
            }
        }
        from
    })
}

/// The inputs of layout [`BLOCK_LAYOUT`] (Gul bara): those of layout 1,
/// then for the side to move and then its opponent, one unit per die it
/// cannot play at all, and the share of rolls with no playable die
/// ((blocked dice / 6)², doublets of the blocked numbers included).
pub fn features_v4(state: &GameState, opts: &RuleOptions) -> Inputs {
    let mut x = Inputs { active: Vec::new() };
    features_v4_into(state, opts, &mut x.active);
    x
}

#[inline(always)]
pub(super) fn features_v4_into(state: &GameState, opts: &RuleOptions, active: &mut impl InputSink) {
    features_v4_masked(state, opts, active);
}

/// [`features_v4_into`], returning the two sides' occupancy masks.
#[inline(always)]
pub(super) fn features_v4_masked(
    state: &GameState,
    opts: &RuleOptions,
    active: &mut impl InputSink,
) -> [u32; 2] {
    let [own, opp] = features_layout1_masked(state, opts, active);
    // The mover's view, then its opponent's.
    let views = [
        (own, other_numbering_mask(opp)),
        (opp, other_numbering_mask(own)),
    ];
    for (k, (occ, closed)) in views.into_iter().enumerate() {
        let base = INPUTS + 7 * k;
        let blocked = blocked_dice_of(occ, closed);
        let mut n = 0u32;
        for (d, &b) in blocked.iter().enumerate() {
            if b {
                active.push((base + d) as u16, 1.0);
                n += 1;
            }
        }
        if n > 0 {
            let share = n as f32 / 6.0;
            active.push((base + 6) as u16, share * share);
        }
    }
    [own, opp]
}

/// The inputs of layout [`MOBILITY_LAYOUT`] (Gul bara): those of layout 4,
/// then for the side to move and then its opponent, for each die, the
/// checkers that can step it (a step to an open point or a legal bear-off)
/// / 4, counting at most four (what a doublet stage needs); then 1 when no
/// contact is left (each side has every checker on its own points 1–12,
/// so neither can block the other again).
pub fn features_v5(state: &GameState, opts: &RuleOptions) -> Inputs {
    let mut x = Inputs { active: Vec::new() };
    features_v5_into(state, opts, &mut x.active);
    x
}

#[inline(always)]
pub(super) fn features_v5_into(state: &GameState, opts: &RuleOptions, active: &mut impl InputSink) {
    let [own, opp] = features_v4_masked(state, opts, active);
    let views = [
        (state.pos.own, own, other_numbering_mask(opp)),
        (state.pos.opp, opp, other_numbering_mask(own)),
    ];
    for (k, (c, occ, closed)) in views.into_iter().enumerate() {
        let base = BLOCK_INPUTS + 6 * k;
        for (d, movers) in movers_by_die(c, occ, closed).into_iter().enumerate() {
            if movers > 0 {
                active.push((base + d) as u16, f32::from(movers) / 4.0);
            }
        }
    }
    if (own | opp) & 0xFF_F000 == 0 {
        active.push((BLOCK_INPUTS + 12) as u16, 1.0);
    }
}

/// The occupancy mask of the points of `c` holding at least 2, 3 and 4
/// checkers.
pub(super) fn masks_at_least(c: Checkers) -> [u32; 3] {
    let compress = |x: u128| {
        let lo = compress_nibbles(x as u64);
        let hi = compress_nibbles((x >> 64) as u64);
        (lo | (hi << 16)) & 0xFF_FFFF
    };
    // Point 1's count in the low nibble; each nibble's bits b3 b2 b1 b0.
    let x = c.0 >> 4;
    let nib = 0x1111_1111_1111_1111_1111_1111_1111_1111u128;
    let (b0, b1, b2, b3) = (x & nib, (x >> 1) & nib, (x >> 2) & nib, (x >> 3) & nib);
    [
        compress(b1 | b2 | b3),
        compress((b0 & b1) | b2 | b3),
        compress(b2 | b3),
    ]
}

/// For each die, how many checkers of `c` (occupying `occ`, with the points
/// in `closed` closed to them, both in its numbering) can step it, at most
/// four: the checkers of the points [`step_sources`] gives.
pub(super) fn movers_by_die(c: Checkers, occ: u32, closed: u32) -> [u8; 6] {
    let [two, three, four] = masks_at_least(c);
    step_sources(occ, closed).map(|from| {
        let n = from.count_ones()
            + (from & two).count_ones()
            + (from & three).count_ones()
            + (from & four).count_ones();
        n.min(4) as u8
    })
}

/// The inputs a network of three outputs reads, by its layout (Gul bara's
/// two, or long nardy's).
pub fn features_for(net: &Net, state: &GameState, opts: &RuleOptions) -> Inputs {
    let mut x = Inputs {
        active: Vec::with_capacity(96),
    };
    features_for_into(net, state, opts, &mut x.active);
    x
}

/// [`features_for`] into `active` (cleared first).
pub fn features_for_into(
    net: &Net,
    state: &GameState,
    opts: &RuleOptions,
    active: &mut Vec<(u16, f32)>,
) {
    features_by_layout(net.layout, state, opts, active);
}

/// The inputs of `layout` (one of the three-output networks') into `active`.
#[inline(always)]
pub(super) fn features_by_layout(
    layout: u32,
    state: &GameState,
    opts: &RuleOptions,
    active: &mut impl InputSink,
) {
    match layout {
        LONG_LAYOUT => long_features_into(state, opts, active),
        block_inputs::RUN_BLOCK_LAYOUT => run_block_features_into(state, opts, active),
        BLOCK_LAYOUT => features_v4_into(state, opts, active),
        MOBILITY_LAYOUT => features_v5_into(state, opts, active),
        _ => features_layout1(state, opts, active),
    }
}

/// Sparse input vector: indices and values of the non-zero inputs.
pub struct Inputs {
    /// Active (index, value) pairs.
    pub active: Vec<(u16, f32)>,
}

/// An occupancy mask seen from the other side (as
/// [`Checkers::mask_in_other_numbering`]).
#[inline]
pub(super) fn other_numbering_mask(m: u32) -> u32 {
    ((m << 12) | (m >> 12)) & 0xFF_FFFF
}

#[inline(always)]
pub(super) fn side_features(
    c: Checkers,
    m: u32,
    side: usize,
    base: usize,
    out: &mut impl InputSink,
) {
    let pips = point_units(c, m, side, base, out) + 25 * u32::from(c.bar());
    let off = c.off();
    if off > 0 {
        out.push((base + 96) as u16, f32::from(off) / 15.0);
    }
    out.push((base + 97) as u16, pips as f32 / 200.0);
}

/// Where a feature function writes its inputs: a sparse input vector (the
/// training and reference form, each of a point's four units its own
/// input), or the fast evaluation's list of rows ([`TableSink`], a point's
/// units summed into one precomputed row).
pub(crate) trait InputSink {
    /// Empties the list.
    fn clear(&mut self);
    /// Point `p` of side `side` (0: the side to move, 1: its opponent),
    /// whose units start at input `base`, holds `n` ≥ 1 checkers.
    fn point(&mut self, side: usize, base: usize, p: u8, n: u8);
    /// Input `i` has the value `v` (not zero).
    fn push(&mut self, i: u16, v: f32);
}

impl InputSink for Vec<(u16, f32)> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn point(&mut self, _side: usize, base: usize, p: u8, n: u8) {
        let i = (base + (p as usize - 1) * 4) as u16;
        self.push((i, 1.0));
        if n >= 2 {
            self.push((i + 1, 1.0));
        }
        if n >= 3 {
            self.push((i + 2, 1.0));
        }
        if n > 3 {
            self.push((i + 3, f32::from(n - 3) / 2.0));
        }
    }
    #[inline]
    fn push(&mut self, i: u16, v: f32) {
        Vec::push(self, (i, v));
    }
}

/// Rows of the fast evaluation's table per side: one per point and count.
pub(super) const SIDE_ROWS: usize = 24 * 16;
/// Table rows before the network's own input rows.
pub(crate) const TABLE_ROWS: usize = 2 * SIDE_ROWS;

/// The table row of `n` checkers on point `p` of side `side`.
#[inline]
pub(super) fn table_row(side: usize, p: u8, n: u8) -> usize {
    side * SIDE_ROWS + (p as usize - 1) * 16 + usize::from(n)
}

/// The fast evaluation's sink: a point's units become one row of the
/// table ([`RowTable`]), every other input its own row after the table.
pub(crate) struct TableSink<'a>(pub &'a mut Vec<(u16, f32)>);

impl InputSink for TableSink<'_> {
    #[inline]
    fn clear(&mut self) {
        self.0.clear();
    }
    #[inline]
    fn point(&mut self, side: usize, _base: usize, p: u8, n: u8) {
        self.0.push((table_row(side, p, n) as u16, 1.0));
    }
    #[inline]
    fn push(&mut self, i: u16, v: f32) {
        self.0.push((TABLE_ROWS as u16 + i, v));
    }
}

/// Play's sink: each row added to the hidden layer's sums as it comes
/// ([`crate::eval::arith::FixedSums`]), a point's units as its table row.
impl<const H: usize> InputSink for crate::eval::arith::FixedSums<'_, H> {
    #[inline(always)]
    fn clear(&mut self) {
        self.reset();
    }
    #[inline(always)]
    fn point(&mut self, side: usize, _base: usize, p: u8, n: u8) {
        self.add_int_row(table_row(side, p, n));
    }
    #[inline(always)]
    fn push(&mut self, i: u16, v: f32) {
        self.add_float_row(TABLE_ROWS + usize::from(i), v);
    }
}

/// A position's inputs, to be written into any [`InputSink`]: how play's
/// evaluation ([`NetOf::play_outputs`]) gets them without a list.
pub(crate) trait Features: Copy {
    /// Writes the inputs into `sink` (cleared first).
    fn write(self, sink: &mut impl InputSink);
}

impl<const H: usize, F: Features> crate::eval::arith::FillSums<H> for F {
    #[inline(always)]
    fn fill(self, sums: &mut crate::eval::arith::FixedSums<'_, H>) {
        self.write(sums);
    }
}

/// The inputs of a state for a three-output network of `layout`.
#[derive(Clone, Copy)]
pub(super) struct LayoutFeatures<'s> {
    pub(super) layout: u32,
    pub(super) state: &'s GameState,
    pub(super) opts: &'s RuleOptions,
}

impl Features for LayoutFeatures<'_> {
    #[inline(always)]
    fn write(self, sink: &mut impl InputSink) {
        features_by_layout(self.layout, self.state, self.opts, sink);
    }
}

/// The four units of each point of a side, from `base` on (every layout's
/// first 96 inputs of a side): ≥1, ≥2, ≥3 checkers, and (n−3)/2 beyond
/// three.
/// `occupied` is `c.mask()` (the callers have it). Returns the pips of the
/// checkers on the points (the bar not counted), counted on the way.
#[inline(always)]
pub(crate) fn point_units(
    c: Checkers,
    occupied: u32,
    side: usize,
    base: usize,
    out: &mut impl InputSink,
) -> u32 {
    // Only occupied points, in ascending order (the layout's order).
    let mut m = occupied;
    let mut pips = 0;
    while m != 0 {
        let p = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let n = c.at(p);
        pips += u32::from(p) * u32::from(n);
        out.point(side, base, p, n);
    }
    pips
}

/// Counts of `runner`'s checkers behind 3+, 4+, 5+, 6 closed points in a
/// row within a die's reach (`blocks` in the runner's numbering).
#[cfg(test)]
pub(super) fn trapped(runner: Checkers, blocks: u32) -> [f32; 4] {
    trapped_masked(runner, runner.mask(), blocks)
}

/// [`trapped`] with the runner's occupancy mask at hand.
pub(super) fn trapped_masked(runner: Checkers, occupied: u32, blocks: u32) -> [f32; 4] {
    let mut out = [0f32; 4];
    // Bit s of `run3`: points s+1..=s+3 closed. The six points in front of
    // point p (p−6..=p−1) are bits p−7..=p−2 of `blocks`, so they hold that
    // run when bit p−1 is one of s+3..=s+6: only runners there can count
    // (skipping the others adds no zero, so no bit changes).
    let run3 = blocks & (blocks >> 1) & (blocks >> 2);
    if run3 == 0 {
        return out;
    }
    let reach = (run3 << 3) | (run3 << 4) | (run3 << 5) | (run3 << 6);
    // Points 7..=24 that hold a runner.
    let mut m = occupied & !0x3F & reach;
    while m != 0 {
        let p = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let n = runner.at(p);
        let best = usize::from(longest_block_in_front(blocks, p));
        for (k, slot) in out.iter_mut().enumerate() {
            if best >= 3 + k {
                *slot += f32::from(n) / 15.0;
            }
        }
    }
    out
}

/// The inputs of a state (side to move about to roll or to play a remainder).
pub fn features(state: &GameState, opts: &RuleOptions) -> Inputs {
    let mut x = Inputs {
        active: Vec::with_capacity(96),
    };
    features_into(state, opts, &mut x.active);
    x
}

/// [`features`] into `active` (cleared first), so a caller can keep one
/// buffer for many evaluations.
pub fn features_into(state: &GameState, opts: &RuleOptions, active: &mut Vec<(u16, f32)>) {
    features_layout1(state, opts, active);
}

#[inline(always)]
pub(super) fn features_layout1(state: &GameState, opts: &RuleOptions, active: &mut impl InputSink) {
    features_layout1_masked(state, opts, active);
}

/// [`features_layout1`], returning the two sides' occupancy masks (each in
/// its own numbering) for the layouts built on it: a mask is computed once
/// per evaluation.
#[inline(always)]
pub(super) fn features_layout1_masked(
    state: &GameState,
    opts: &RuleOptions,
    active: &mut impl InputSink,
) -> [u32; 2] {
    active.clear();
    let pos = state.pos;
    let (own, opp) = (pos.own.mask(), pos.opp.mask());
    side_features(pos.own, own, 0, 0, active);
    side_features(pos.opp, opp, 1, 98, active);
    let mut i = 196;
    if state.escalates(opts, state.to_move) {
        active.push(i as u16, 1.0);
    }
    i += 1;
    if state.escalates(opts, state.to_move.opponent()) {
        active.push(i as u16, 1.0);
    }
    i += 1;
    if let Pending::Remainder { die, count } = state.pending {
        let mut pips = u32::from(die) * u32::from(count);
        for d in die + 1..=6 {
            pips += 4 * u32::from(d);
        }
        active.push(i as u16, pips as f32 / 84.0);
    }
    i += 1;
    for (k, v) in trapped_masked(pos.own, own, other_numbering_mask(opp))
        .into_iter()
        .enumerate()
    {
        if v > 0.0 {
            active.push((i + k) as u16, v);
        }
    }
    i += 4;
    for (k, v) in trapped_masked(pos.opp, opp, other_numbering_mask(own))
        .into_iter()
        .enumerate()
    {
        if v > 0.0 {
            active.push((i + k) as u16, v);
        }
    }
    debug_assert!(i + 4 == INPUTS);
    [own, opp]
}

thread_local! {
    /// One inputs buffer per thread, so an evaluation allocates nothing.
    static INPUTS_BUFFER: std::cell::RefCell<Vec<(u16, f32)>> =
        std::cell::RefCell::new(Vec::with_capacity(128));
}

/// `f` with this thread's inputs buffer (a fresh one if it is in use).
pub(crate) fn with_inputs_buffer<R>(f: impl FnOnce(&mut Vec<(u16, f32)>) -> R) -> R {
    INPUTS_BUFFER.with(|b| match b.try_borrow_mut() {
        Ok(mut buf) => f(&mut buf),
        Err(_) => f(&mut Vec::with_capacity(128)),
    })
}
