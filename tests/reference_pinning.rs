//! The pinning games' stage generator (Plakoto, Tapa) against a naive
//! reference written from the rule texts alone: a breadth-first walk over
//! every legal step with every die left, in every order, on plain arrays
//! with a pinned flag per point, judged by the must-play rules read
//! literally. The same distinct ends (pins included) and the same number of
//! playable dice on positions of random games, all 21 rolls and partial
//! stages, under every combination of the options `pinned_bearoff`
//! (`home` | `refuse`) and `mother_timing` (`step` | `end`); then each play
//! replays step by step to its end, and the position text writes and reads
//! every position back.

mod variants_common;

use std::collections::BTreeSet;

use gulbara::notation::{parse_state_text_in, state_text};
use gulbara::rules::options::{MotherTiming, PinnedBearoff};
use gulbara::rules::{GameState, Position, RuleOptions, Side, StageDice, StageGen, Variant};
use variants_common::{
    Rng, all_rolls, assert_no_failures, dice_list, die_counts, most_used, partial_stages,
};

/// One side: counts (0 off, 1..=24 points) and pinned flags per point.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Plain {
    n: [u8; 25],
    pinned: [bool; 25],
}

fn plain(c: gulbara::rules::Checkers) -> Plain {
    let mut p = Plain {
        n: [0; 25],
        pinned: [false; 25],
    };
    p.n[0] = c.off();
    for q in 1..=24u8 {
        p.n[usize::from(q)] = c.at(q);
        p.pinned[usize::from(q)] = c.pinned(q);
    }
    p
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    own: Plain,
    opp: Plain,
    left: [u8; 7],
    first: u8,
}

/// The readings the options choose, as the naive walk takes them.
#[derive(Clone, Copy, Debug)]
struct Readings {
    /// `pinned_bearoff home`: a pinned checker in the home counts as home.
    home: bool,
    /// `mother_timing step`: a mother pinned for good ends the play at once.
    at_step: bool,
}

impl Readings {
    fn of(opts: &RuleOptions) -> Readings {
        Readings {
            home: opts.pinned_bearoff == PinnedBearoff::Home,
            at_step: opts.mother_timing == MotherTiming::Step,
        }
    }

    /// Whether the play stops at a node: the last checker off, or (at the
    /// step) a mother pinned for good.
    fn stops(self, own: &Plain, opp: &Plain) -> bool {
        own.n[0] == 15 || (self.at_step && over(own, opp))
    }
}

/// Every combination of the pinning options of `variant`.
fn every_combination(variant: Variant) -> Vec<RuleOptions> {
    let mut out = Vec::new();
    for b in ["home", "refuse"] {
        for m in ["step", "end"] {
            let mut o = RuleOptions::for_variant(variant);
            o.set("pinned_bearoff", b).unwrap();
            o.set("mother_timing", m).unwrap();
            out.push(o);
        }
    }
    out
}

/// The mother rule read from the texts: a side whose last checker on its
/// start (its 24) is pinned loses unless the pinner still has checkers on
/// its own start; both pinned is a draw. Either way the game is over.
fn over(own: &Plain, opp: &Plain) -> bool {
    let mother = |me: &Plain, them: &Plain| me.pinned[24] && (them.n[24] == 0 || them.pinned[24]);
    own.n[0] == 15 || mother(own, opp) || mother(opp, own)
}

/// One step, or `None` when the texts forbid it.
fn step(r: Readings, node: &Node, from: usize, die: u8) -> Option<Node> {
    let d = usize::from(die);
    if node.own.n[from] == 0 || node.own.pinned[from] {
        return None;
    }
    let mut n = node.clone();
    if from > d {
        let to = from - d;
        let q = 25 - to;
        // Two or more opposing checkers, or one on top of a pinned checker
        // of the mover's, close the point.
        if node.opp.n[q] >= 2 || (node.opp.n[q] == 1 && node.own.pinned[to]) {
            return None;
        }
        if node.opp.n[q] == 1 && node.own.n[to] == 0 {
            n.opp.pinned[q] = true;
        }
        n.own.n[from] -= 1;
        n.own.n[to] += 1;
    } else {
        // Bearing off: every checker home (and, unless a pinned checker
        // counts as home, free); a higher die only from the highest point.
        if (7..=24).any(|p| node.own.n[p] > 0) {
            return None;
        }
        if !r.home && node.own.pinned.iter().any(|&b| b) {
            return None;
        }
        if from != d && (from + 1..=6).any(|p| node.own.n[p] > 0) {
            return None;
        }
        n.own.n[from] -= 1;
        n.own.n[0] += 1;
    }
    // The last pinner leaving frees the checker under it.
    if n.own.n[from] == 0 && n.opp.pinned[25 - from] {
        n.opp.pinned[25 - from] = false;
    }
    Some(n)
}

struct Naive {
    ends: BTreeSet<(Plain, Plain)>,
    playable: u8,
}

fn naive(r: Readings, pos: Position, dice: StageDice) -> Naive {
    let list = dice_list(dice);
    let total = list.len() as u8;
    let left = die_counts(&list);
    let start = Node {
        own: plain(pos.own),
        opp: plain(pos.opp),
        left,
        first: 0,
    };
    let mut reached: Vec<(Node, u8)> = Vec::new();
    let mut level = BTreeSet::from([start]);
    for used in 1..=total {
        let mut next = BTreeSet::new();
        for node in &level {
            if r.stops(&node.own, &node.opp) {
                continue;
            }
            for die in 1..=6u8 {
                if node.left[usize::from(die)] == 0 {
                    continue;
                }
                for from in 1..=24 {
                    if let Some(mut n) = step(r, node, from, die) {
                        n.left[usize::from(die)] -= 1;
                        if n.first == 0 {
                            n.first = die;
                        }
                        next.insert(n);
                    }
                }
            }
        }
        for n in &next {
            // A play that ends the game has played all it needs to.
            let u = if r.stops(&n.own, &n.opp) { total } else { used };
            reached.push((n.clone(), u));
        }
        level = next;
    }
    let (playable, mut best) = most_used(reached.iter());
    if let (StageDice::Pair(a, b), 1) = (dice, playable) {
        let hi = a.max(b);
        if best.iter().any(|n| n.first == hi) {
            best.retain(|n| n.first == hi);
        }
    }
    let mut ends: BTreeSet<(Plain, Plain)> = best.iter().map(|n| (n.own, n.opp)).collect();
    if ends.is_empty() {
        ends.insert((plain(pos.own), plain(pos.opp)));
    }
    Naive { ends, playable }
}

/// Positions met in random games of `opts` played with the real
/// generator; four choices in ten prefer an end that pins.
fn game_positions(opts: &RuleOptions, seed: u64, games: usize) -> Vec<GameState> {
    let (opts, variant) = (*opts, opts.variant);
    let mut rng = Rng::new(seed);
    let mut stages = StageGen::new();
    let mut ends = Vec::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut s = GameState::start_of(variant, Side::White);
        for _ in 0..300 {
            if s.result().is_some() {
                break;
            }
            out.push(s);
            let Ok(rolled) = s.roll(&opts, rng.die(), rng.die()) else {
                break;
            };
            s = rolled;
            while s.result().is_none() {
                let Some(stage) = s.stage_dice() else { break };
                let n = stages.generate(&opts, &s, stage, &mut ends);
                let pins = |i: usize| ends[i].pos.opp.pinned_mask().count_ones();
                let most = (0..ends.len()).max_by_key(|&i| (pins(i), i)).unwrap_or(0);
                let pick = if rng.chance(40) {
                    most
                } else {
                    rng.below(ends.len() as u64) as usize
                };
                s = s.after_stage(&opts, ends[pick].pos, n);
            }
        }
    }
    out
}

/// At least this many positions of each game are checked, each under every
/// combination of the options.
const POSITIONS_PER_GAME: usize = 3_000;

#[test]
fn plakoto_and_tapa_match_the_naive_reference() {
    let rolls = all_rolls();
    let partial = partial_stages();
    let mut stages = StageGen::new();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    // Cases seen: pins made, pinned checkers held, pins freed, mothers
    // pinned for good, bear-offs, bear-offs beside a pinned checker, and
    // mothers pinned within a play that goes on (judged at the end).
    let mut seen = [0u32; 7];
    let mut checked = 0;
    for (variant, seed) in [(Variant::Plakoto, 41), (Variant::Tapa, 42)] {
        let combos = every_combination(variant);
        // Positions of games played under each combination (every other
        // one kept), so that each reading's own positions come up.
        let mut states = Vec::new();
        for (k, o) in combos.iter().enumerate() {
            states.extend(
                game_positions(o, seed + 100 * k as u64, 26)
                    .into_iter()
                    .step_by(2),
            );
        }
        assert!(
            states.len() >= POSITIONS_PER_GAME,
            "{variant}: {}",
            states.len()
        );
        for (i, s) in states.iter().enumerate() {
            let pos = s.pos;
            for opts in &combos {
                let r = Readings::of(opts);
                // Every roll; the partial stages on every fourth position.
                let partial_too = i % 4 == 0;
                for &dice in rolls.iter().chain(partial.iter().filter(|_| partial_too)) {
                    let n = stages.generate(opts, s, dice, &mut out);
                    let want = naive(r, pos, dice);
                    let got: BTreeSet<(Plain, Plain)> = out
                        .iter()
                        .map(|e| (plain(e.pos.own), plain(e.pos.opp)))
                        .collect();
                    checked += 1;
                    if got.len() != out.len() {
                        failures.push(format!("{variant} {pos:?} {dice:?}: an end listed twice"));
                    }
                    if got != want.ends || n != want.playable {
                        failures.push(format!(
                            "{variant} {r:?} {} {dice:?}: playable {n}, naive {}; {} ends, naive {}",
                            state_text(s),
                            want.playable,
                            got.len(),
                            want.ends.len()
                        ));
                    }
                    let pins_before = pos.opp.pinned_mask().count_ones();
                    let pins = |o: &Plain| o.pinned.iter().filter(|&&b| b).count() as u32;
                    seen[0] += u32::from(want.ends.iter().any(|(_, o)| pins(o) > pins_before));
                    seen[1] += u32::from(pos.own.pinned_mask() != 0);
                    seen[2] += u32::from(want.ends.iter().any(|(_, o)| pins(o) < pins_before));
                    seen[3] += u32::from(want.ends.iter().any(|(m, o)| over(m, o) && m.n[0] < 15));
                    let bore_off = want.ends.iter().any(|(m, _)| m.n[0] > pos.own.off());
                    seen[4] += u32::from(bore_off);
                    seen[5] += u32::from(bore_off && pos.own.pinned_mask() != 0);
                    // Each play replays, step by step, to its end; a play
                    // that goes on past a mother pinned for good is judged
                    // at its end only.
                    for e in &out {
                        let mut cur = pos;
                        for (k, &st) in e.play.steps().iter().enumerate() {
                            assert_eq!(opts.step_problem(cur, st), None, "{r:?} {:?}", e.play);
                            if k > 0 && cur.is_over() {
                                assert!(!r.at_step, "{r:?} {:?}", e.play);
                                seen[6] += 1;
                            }
                            cur = variant.apply_step(cur, st);
                        }
                        assert_eq!(cur, e.pos, "{} {dice:?} {:?}", state_text(s), e.play);
                    }
                }
            }
            // The position text keeps the pins.
            let text = state_text(s);
            let back = parse_state_text_in(variant, &text).unwrap();
            assert_eq!(back.pos, s.pos, "{text}");
        }
    }
    eprintln!(
        "pinning: {checked} cases; pins made {}, pinned checkers {}, pins freed {}, \
         mothers pinned for good {}, bear-offs {}, bear-offs beside a pin {}, \
         plays going on past a pinned mother {}",
        seen[0], seen[1], seen[2], seen[3], seen[4], seen[5], seen[6]
    );
    assert_no_failures(&failures);
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

/// The worked cases of the rule texts, through the protocol's position
/// text: a pin written with `pins=`, a pinned checker that cannot move, and
/// the mother rule (a loss of two points, and a draw when both are pinned).
#[test]
fn the_texts_cases_in_position_text() {
    let v = Variant::Plakoto;
    // Black's 14 on its start (White's 1); White has pinned Black's blot
    // on White's 5 (Black's 20).
    let text = "-14,0,0,0,1,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,12 w 3 3 pins=5";
    let s = parse_state_text_in(v, text).unwrap();
    assert!(s.pos.opp.pinned(20));
    assert_eq!(state_text(&s), text);
    // A pin where there is no checker above it, or in a game without pins.
    let unpinned = "-14,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,13 w 3 3 pins=5";
    assert!(parse_state_text_in(v, unpinned).is_err());
    assert!(parse_state_text_in(Variant::Backgammon, text).is_err());
    // Black, to move, cannot move its pinned checker on its 20.
    let b = parse_state_text_in(v, &text.replace(" w ", " b ")).unwrap();
    let opts = RuleOptions::for_variant(v);
    let mut stages = StageGen::new();
    let mut ends = Vec::new();
    let rolled = b.roll(&opts, 6, 5).unwrap();
    stages.generate(&opts, &rolled, StageDice::Pair(6, 5), &mut ends);
    assert!(
        ends.iter()
            .all(|e| e.pos.own.pinned(20) && e.pos.own.at(20) == 1)
    );
    // The mother rule: White pins Black's last checker on Black's 24
    // (White's 1) and has none left on its own start: White wins 2.
    let mother = "-1,2,0,0,0,13,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-14 w 9 9";
    let s = parse_state_text_in(v, mother).unwrap();
    let rolled = s.roll(&opts, 1, 3).unwrap();
    let n = stages.generate(&opts, &rolled, StageDice::Pair(1, 3), &mut ends);
    let win = ends
        .iter()
        .find(|e| e.pos.is_over())
        .expect("2/1 pins the mother");
    let after = rolled.after_stage(&opts, win.pos, n);
    let r = after.result().unwrap();
    assert_eq!((r.winner, r.points), (Some(Side::White), 2));
    assert!(state_text(&after).contains("pins=1"));
}
