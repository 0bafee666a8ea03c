//! A cheap score that decides which ends of a doublet stage the search
//! judges with the evaluator: a doublet stage can have hundreds of ends and
//! an escalating chain several such stages, so judging only the best few by
//! this score keeps a 1-ply decision within a few milliseconds.

use crate::rules::position::longest_block_in_front;
use crate::rules::{Checkers, Position};

/// How many ends of a doublet stage inside the look-ahead are judged by the
/// evaluator by default; the rest are dropped by [`quick_score`].
pub const INNER_PREFILTER: usize = 8;

/// Quarter-pips a checker loses standing behind a row of 0..=6 closed points.
const TRAP_QUARTERS: [i32; 7] = [0, 0, 0, 6, 14, 28, 56];

/// Quarter-pips `runner`'s checkers lose to the points in `blocks` (a mask
/// in the runner's numbering): 0.5 pip per closed point within a die's reach
/// and more behind rows of three or more.
fn held_up(runner: Checkers, blocks: u32) -> i32 {
    let mut total = 0;
    let mut m = runner.mask() & !0x3F;
    while m != 0 {
        let p = m.trailing_zeros() as u8 + 1;
        m &= m - 1;
        let n = i32::from(runner.at(p));
        let window = (blocks >> (p - 7)) & 0x3F;
        let run = usize::from(longest_block_in_front(blocks, p));
        total += n * (2 * window.count_ones() as i32 + TRAP_QUARTERS[run]);
    }
    total
}

/// A cheap score of a stage end for the mover (higher is better), in
/// quarter-pips: the race, and the blocking both ways. It only decides
/// which ends of a doublet stage the look-ahead judges, so an opponent's
/// escalating chain costs a few dozen evaluations instead of a thousand.
pub fn quick_score(pos: Position) -> i32 {
    -4 * pos.own.pips() as i32 + held_up(pos.opp, pos.own.mask_in_other_numbering())
        - held_up(pos.own, pos.blocked())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_score_prefers_the_shorter_race_and_the_block() {
        let start = Position::START;
        let ahead = Position {
            own: start.own.moved(24, 20),
            opp: start.opp,
        };
        assert!(quick_score(ahead) > quick_score(start));
        // The opponent's checkers start on its 24-point, our 12: our points
        // 11..=6 are the six in front of them. A full prime there beats the
        // same six checkers spread out, though those are further on.
        let mut own = start.own;
        for p in [11u8, 10, 9, 8, 7, 6] {
            own = own.moved(24, p);
        }
        let primed = Position {
            own,
            opp: start.opp,
        };
        let mut own2 = start.own;
        for p in [11u8, 9, 7, 5, 3, 1] {
            own2 = own2.moved(24, p);
        }
        let scattered = Position {
            own: own2,
            opp: start.opp,
        };
        assert!(own.pips() > own2.pips());
        assert!(quick_score(primed) > quick_score(scattered));
    }
}
