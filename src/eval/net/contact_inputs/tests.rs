//! The gnubg-class inputs against a naive count written separately, on
//! hand-counted positions, and their invariants.

use super::*;
use crate::rules::Variant;

/// One side's checkers from `(point, count)` pairs (25: the bar).
fn side(points: &[(usize, u8)]) -> Checkers {
    let mut c = [0u8; 24];
    let mut bar = 0;
    for &(p, n) in points {
        if p == 25 {
            bar = n;
        } else {
            c[p - 1] = n;
        }
    }
    Checkers::from_counts_with_bar(&c, bar).expect("at most 15 checkers")
}

/// A side's counts, index `p` for point `p` and 25 for the bar.
fn counts(c: Checkers) -> [u32; 26] {
    std::array::from_fn(|p| if p == 0 { 0 } else { u32::from(c.at(p as u8)) })
}

/// The 36 rolls, in order, each once.
fn rolls() -> impl Iterator<Item = (i32, i32)> {
    (1..=6).flat_map(|a| (1..=6).map(move |b| (a, b)))
}

/// Of the 36 rolls, those that let a checker on `p` (13–25) pass every
/// point `made` says the other side holds among the twelve in front of
/// it, walked one step at a time (points further on count as open).
fn escapes_naive(made: &dyn Fn(i32) -> bool, p: i32) -> u32 {
    let blocked = |q: i32| q >= p - 12 && q < p && q >= 1 && made(q);
    let Some(goal) = (p - 12..p).find(|&q| blocked(q)) else {
        return 36;
    };
    rolls()
        .filter(|&(a, b)| {
            let paths = if a == b {
                vec![vec![a; 4]]
            } else {
                vec![vec![a, b], vec![b, a]]
            };
            paths.iter().any(|path| {
                let mut x = p;
                for d in path {
                    x -= d;
                    if blocked(x) {
                        return false;
                    }
                    if x < goal {
                        return true;
                    }
                }
                false
            })
        })
        .count() as u32
}

/// The seventeen inputs counted point by point and roll by roll from the
/// counts (the reference for [`side_inputs`]).
fn naive(me: Checkers, them: Checkers) -> [f64; PER_SIDE] {
    let n = counts(me);
    let t = counts(them);
    // Theirs on my point p.
    let theirs = |p: i32| {
        if (1..=24).contains(&p) {
            t[(25 - p) as usize]
        } else {
            0
        }
    };
    let their_made = |p: i32| theirs(p) >= 2;
    let mut x = [0f64; PER_SIDE];
    let rear = if t[25] > 0 {
        0
    } else {
        (1..=24).find(|&p| theirs(p) > 0).unwrap_or(25)
    };
    for p in 1..=25 {
        let k = f64::from(n[p as usize]);
        if p > rear {
            x[0] += k * f64::from(p - rear);
        } else {
            x[1] += k * f64::from(p);
        }
    }
    x[0] /= 152.0;
    x[1] /= 167.0;
    let back = (1..=25).rev().find(|&p| n[p as usize] > 0).unwrap_or(0);
    x[2] = f64::from(back) / 25.0;
    let anchor = (1..=24).rev().find(|&p| n[p as usize] >= 2).unwrap_or(0);
    x[3] = f64::from(anchor) / 24.0;
    if let Some(p) = (13..=24).find(|&p| n[p as usize] >= 2) {
        x[4] = f64::from(25 - p) / 12.0;
    }
    // Their shots, in their numbering: my count on their point q.
    let mine = |q: i32| n[(25 - q) as usize];
    let their_bar = them.bar();
    let sources: Vec<i32> = if their_bar > 0 {
        vec![25]
    } else {
        (1..=24).filter(|&q| t[q as usize] > 0).collect()
    };
    let (mut loss, mut double) = (0, 0);
    for (a, b) in rolls() {
        let most = crate::eval::hitnet::steps_of_the_first_checker(a == b, their_bar) as usize;
        let paths: Vec<Vec<i32>> = if a == b {
            vec![vec![a; most]]
        } else {
            vec![vec![a, b][..most].to_vec(), vec![b, a][..most].to_vec()]
        };
        let mut hit = std::collections::BTreeSet::new();
        for &s in &sources {
            for path in &paths {
                let mut q = s;
                for d in path {
                    q -= d;
                    if q < 1 || mine(q) >= 2 {
                        break;
                    }
                    if mine(q) == 1 {
                        hit.insert(q);
                    }
                }
            }
        }
        loss += hit.iter().max().copied().unwrap_or(0);
        double += i32::from(hit.len() >= 2);
    }
    x[5] = f64::from(loss) / (36.0 * 24.0);
    x[6] = f64::from(double) / 36.0;
    let esc = |p: i32| escapes_naive(&their_made, p);
    x[7] = f64::from(esc(24)) / 36.0;
    x[8] = 1.0 - f64::from((15..=24).map(esc).min().unwrap_or(36)) / 36.0;
    x[9] = x[8] * x[8];
    x[10] = (13..=25).map(|p| n[p as usize] * esc(p)).sum::<u32>() as f64 / 540.0;
    let left: u32 = n[1..].iter().sum();
    if left > 0 {
        let pips: u32 = (1..=25).map(|p| p as u32 * n[p]).sum();
        let mean = f64::from(pips) / f64::from(left);
        let spread: f64 = (1..=25)
            .filter(|&p| p as f64 > mean)
            .map(|p| f64::from(n[p]) * (p as f64 - mean).powi(2))
            .sum();
        x[11] = spread / 960.0;
    }
    let closed = (19..=24).filter(|&p| their_made(p)).count() as f64;
    x[12] = (closed / 6.0).powi(2);
    let mut timing = 0;
    for (p, &k) in n.iter().enumerate().skip(1) {
        if p > 6 {
            timing += k * (p as u32 - 6);
        } else if k > 2 {
            timing += (k - 2) * (p as u32 - 1);
        }
    }
    x[13] = f64::from(timing) / 167.0;
    let (mut run, mut best) = (0, 0);
    for &k in &n[1..=24] {
        run = if k >= 2 { run + 1 } else { 0 };
        best = best.max(run);
    }
    x[14] = f64::from(best) / 6.0;
    let anchors = (19..=24).filter(|&p| n[p] >= 2).count();
    if anchors >= 2 {
        x[15] = (anchors - 1) as f64 / 4.0;
    } else if anchors == 1 {
        x[16] = f64::from((19..=25).map(|p| n[p]).sum::<u32>()) / 8.0;
    }
    x
}

fn assert_close(got: [f32; PER_SIDE], want: [f64; PER_SIDE], what: &dyn std::fmt::Debug) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(*g) - w).abs() < 1e-5,
            "{} is {g}, counted {w}: {what:?}",
            NAMES[i]
        );
    }
}

#[test]
fn the_inputs_agree_with_the_naive_count() {
    let mut nonzero = [0usize; PER_SIDE];
    let mut seen = 0;
    for v in [Variant::Backgammon, Variant::ShortNardy] {
        for pos in crate::rules::dice::random_game_positions(v, 30, 11, 80) {
            for (me, them) in [(pos.own, pos.opp), (pos.opp, pos.own)] {
                let got = side_inputs(me, them);
                assert_close(got, naive(me, them), &pos);
                for (k, g) in got.iter().enumerate() {
                    nonzero[k] += usize::from(*g != 0.0);
                }
                seen += 1;
            }
        }
    }
    assert!(seen > 1000, "{seen}");
    // Every input takes values other than zero in real games.
    for (k, n) in nonzero.iter().enumerate() {
        assert!(*n > 20, "{}: {n} of {seen}", NAMES[k]);
    }
}

#[test]
fn the_start_is_counted_by_hand() {
    // Each side: 2 on 24, 5 on 13, 3 on 8, 5 on 6; the other's in this
    // numbering: 2 on 1, 5 on 12, 3 on 17, 5 on 19.
    let start = crate::rules::hitting::START;
    // Moment: the mean is 167/15; the 24s and the 13s stand behind it.
    let spread = (2.0 * 193.0f64.powi(2) + 5.0 * 28.0f64.powi(2)) / 225.0;
    let want = [
        1.0,            // 2·23 + 5·12 + 3·7 + 5·5 = 152 pips past their rearmost (on my 1)
        0.0,            // nothing past it
        24.0 / 25.0,    // the rearmost on 24
        1.0,            // the 24 point held
        1.0,            // the 13 point: 12 pips from their side's end
        0.0,            // no blot
        0.0,            //
        0.0,            // from 24, past their 12 with no landing on 17, 19 or 12: no roll
        1.0,            // so the worst of 15–24 is no roll at all
        1.0,            //
        5.0 / 540.0,    // from 13 only 5-5 passes their 1 point (13, 8, 3, off)
        spread / 960.0, //
        1.0 / 36.0,     // one point (their 6) closed of their home board
        92.0 / 167.0,   // 2·18 + 5·7 + 3·2 outside, and the 6 point's three spares 5 pips each
        1.0 / 6.0,      // no two points in a row
        0.0,            // one anchor in their home board:
        2.0 / 8.0,      // two checkers back
    ];
    assert_close(side_inputs(start.own, start.opp), want, &"own");
    assert_close(side_inputs(start.opp, start.own), want, &"opp");
}

#[test]
fn two_blots_in_reach_are_counted_by_hand() {
    // My blots on my 7 and 5 (their 18 and 20); their one checker on
    // their 24 (my 1), 6 and 4 pips from them.
    let me = side(&[(7, 1), (5, 1)]);
    let them = side(&[(24, 1)]);
    let x = side_inputs(me, them);
    // Rolls that hit: the 20 with a 4 or a 6, and 1-3, 2-2, 1-1 (4 pips),
    // 1-5, 3-3 (6 pips): 27 (layout 6's shots). Both in reach: 6-4, 4-2,
    // 2-2: 5. The 4 away (their 20, my 5, 20 pips lost) with the 15 rolls
    // that reach it, otherwise their 18: 15·20 + 12·18 = 516.
    let shots = crate::eval::hitnet::contact_units(me, them)[0];
    assert_eq!(shots, 27.0 / 36.0);
    assert_eq!(x[6], 5.0 / 36.0);
    assert_eq!(x[5], 516.0 / 864.0);
    assert_eq!(x[0], 10.0 / 152.0);
    assert_eq!(x[2], 7.0 / 25.0);
    assert_eq!(x[7], 1.0);
    assert_eq!(x[8], 0.0);
    assert_eq!(x[11], 1.0 / 960.0);
    assert_eq!(x[13], 1.0 / 167.0);
    // Theirs: one blot (1 pip lost when hit), hit by the same 27 rolls;
    // it escapes freely and stands 6 pips behind my rearmost.
    let y = side_inputs(them, me);
    assert_eq!(y[5], 27.0 / 864.0);
    assert_eq!(y[6], 0.0);
    assert_eq!(y[0], 6.0 / 152.0);
    assert_eq!(y[10], 36.0 / 540.0);
    assert_eq!(y[13], 18.0 / 167.0);
}

#[test]
fn escapes_are_counted_by_hand() {
    // One point 6 pips in front of the checker on 24 (their 7 on my 18):
    // the non-doublets of 7 or more (18 rolls) and 4-4 and 5-5.
    assert_eq!(escapes_from(1 << 17, 24), 20);
    // A full prime in front: nothing; nothing in front: everything.
    assert_eq!(escapes_from(0x3F << 17, 24), 0);
    assert_eq!(escapes_from(0, 24), 36);
    // A point 12 pips away (the window's far end) from 13: only doublets
    // go 13 pips, and 6-6, 4-4 and 3-3 land on it: 5-5 alone (8, 3, off).
    assert_eq!(escapes_from(1, 13), 1);
    let me = side(&[(24, 2)]);
    let prime = side(&[(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)]);
    let x = side_inputs(me, prime);
    assert_eq!((x[7], x[8], x[9], x[10]), (0.0, 1.0, 1.0, 0.0));
    // Their board: 2–6 closed (their 1 open): 25/36 of rolls stay out.
    assert_eq!(x[12], 25.0 / 36.0);
    // One made point against six in a row.
    assert_eq!(x[14], 1.0 / 6.0);
    assert_eq!(side_inputs(prime, me)[14], 1.0);
}

#[test]
fn a_made_point_more_never_helps_an_escape() {
    // Every window, every point added.
    for w in 0..4096u32 {
        for b in 0..12 {
            let more = w | (1 << b);
            assert!(
                ESCAPES[more as usize] <= ESCAPES[w as usize],
                "{w:#x} + {b}"
            );
        }
    }
    assert_eq!(ESCAPES[0], 36);
    assert_eq!(ESCAPES[0xFFF], 0);
}

#[test]
fn the_sides_swap_when_the_position_is_seen_from_the_other() {
    use crate::eval::hitnet::{GNUBG_INPUTS, features_of};
    use crate::rules::{GameState, Position, Side};
    let start = GameState::start_of(Variant::Backgammon, Side::White);
    let base = crate::eval::hitnet::CONTACT_INPUTS;
    let mut seen = 0;
    for pos in crate::rules::dice::random_game_positions(Variant::Backgammon, 6, 3, 80) {
        let s = GameState { pos, ..start };
        let t = GameState {
            pos: Position {
                own: pos.opp,
                opp: pos.own,
            },
            ..start
        };
        let dense = |s: &GameState| {
            let mut x = vec![0f32; GNUBG_INPUTS];
            for (i, v) in features_of(HIT_GNUBG_LAYOUT, s).active {
                x[usize::from(i)] = v;
            }
            x
        };
        let (a, b) = (dense(&s), dense(&t));
        let (a0, a1) = a[base..].split_at(PER_SIDE);
        let (b0, b1) = b[base..].split_at(PER_SIDE);
        assert_eq!((a0, a1), (b1, b0), "{pos:?}");
        // Layout 6's units swap too, and the new ones come with contact.
        assert_eq!(a[base - 4..base - 2], b[base - 2..base]);
        let contact = crate::eval::hitnet::contact(pos.own, pos.opp);
        assert_eq!(contact, a[base..].iter().any(|&v| v != 0.0), "{pos:?}");
        // The chances of two hits are within those of one.
        for (me, them) in [(pos.own, pos.opp), (pos.opp, pos.own)] {
            let x = side_inputs(me, them);
            let one = crate::eval::hitnet::contact_units(me, them)[0];
            assert!(x[6] <= one && (x[5] > 0.0) == (one > 0.0), "{pos:?}");
        }
        seen += usize::from(contact);
    }
    assert!(seen > 100, "{seen}");
}

#[test]
fn the_new_inputs_start_as_the_network_they_extend_and_play_as_trained() {
    use crate::eval::Evaluator;
    use crate::eval::hitnet::{GNUBG_INPUTS, HitNet};
    use crate::eval::net::Sparse;
    use crate::rules::{GameState, RuleOptions, Side};
    let net = crate::eval::hitnet::tests::layout_6_network();
    let wide = net.with_inputs(HIT_GNUBG_LAYOUT, GNUBG_INPUTS);
    // Every new row's weights set: the outputs move, and play's fixed-point
    // evaluation still agrees with the sparse one the training uses.
    let mut moved = wide.clone();
    for (k, w) in moved.w1[net.inputs * moved.hidden..].iter_mut().enumerate() {
        *w = ((k % 7) as f32 - 3.0) * 0.1;
    }
    let moved = HitNet::from_bytes(&moved.to_bytes()).expect("round trip");
    let o = RuleOptions::for_variant(Variant::Backgammon);
    let start = GameState::start_of(Variant::Backgammon, Side::White);
    let mut changed = 0;
    for pos in crate::rules::dice::random_game_positions(Variant::Backgammon, 4, 5, 60) {
        let s = GameState { pos, ..start };
        let (a, b) = (net.eval(&s, &o), wide.eval(&s, &o));
        assert!((a.equity() - b.equity()).abs() < 1e-4, "{a:?} {b:?}");
        let (fast, sparse) = (moved.eval(&s, &o), Sparse(&moved).eval(&s, &o));
        assert!(
            (fast.equity() - sparse.equity()).abs() < 2e-3,
            "{fast:?} {sparse:?}"
        );
        changed += usize::from((fast.equity() - b.equity()).abs() > 1e-3);
    }
    assert!(changed > 50, "{changed}");
}

/// The inputs as the first code computed them (commit `ffef1b8`): one
/// division per input, branches per point, each side on its own. The
/// reference [`measure`] must give to the bit: it regroups the work (one
/// array of counts divided lane by lane, no branch per point, the shots
/// shared with layout 6's) but does every floating-point operation of
/// this one on the same values.
fn straightforward(me: Checkers, them: Checkers) -> [f32; PER_SIDE] {
    let (me, them) = (Side::of(me), Side::of(them));
    let mut x = [0f32; PER_SIDE];
    let c = me.c;
    let bar = u32::from(c.bar());
    let their_made = turned(them.made);
    let their_occupied = turned(them.occupied);
    let rear = if them.c.bar() > 0 {
        0
    } else if their_occupied == 0 {
        25
    } else {
        their_occupied.trailing_zeros() + 1
    };
    let escapes_from = |p: u32| ESCAPES[((their_made >> (p - 13)) & 0xFFF) as usize];
    let (mut behind, mut free) = (bar * (25 - rear), 0u32);
    let mut pips = 25 * bar;
    let mut timing = 19 * bar;
    let mut mobility = bar * u32::from(escapes_from(25));
    for p in 1..=24u32 {
        let n = u32::from(c.at(p as u8));
        if n == 0 {
            continue;
        }
        if p > rear {
            behind += n * (p - rear);
        } else {
            free += n * p;
        }
        pips += n * p;
        if p > 6 {
            timing += n * (p - 6);
        } else if n > 2 {
            timing += (n - 2) * (p - 1);
        }
        if p >= 13 {
            mobility += n * u32::from(escapes_from(p));
        }
    }
    x[0] = behind as f32 / 152.0;
    x[1] = free as f32 / 167.0;
    let back = if bar > 0 {
        25
    } else {
        32 - me.occupied.leading_zeros()
    };
    x[2] = back as f32 / 25.0;
    x[3] = (32 - me.made.leading_zeros()) as f32 / 24.0;
    let far_anchors = me.made & 0xFF_F000;
    if far_anchors != 0 {
        x[4] = (24 - far_anchors.trailing_zeros()) as f32 / 12.0;
    }
    let my_blots = turned(me.occupied & !me.made);
    if my_blots != 0 {
        let sources = if them.c.bar() > 0 {
            1 << 24
        } else {
            them.occupied
        };
        let hits = landings(
            sources,
            them.c.bar(),
            my_blots,
            !turned(me.made) & 0xFF_FFFF,
        );
        let (mut loss, mut double) = (0u32, 0u32);
        for (h, (_, _, w)) in hits.into_iter().zip(ROLLS) {
            if h != 0 {
                loss += w * (32 - h.leading_zeros());
                double += w * u32::from(h & (h - 1) != 0);
            }
        }
        x[5] = loss as f32 / (36.0 * 24.0);
        x[6] = double as f32 / 36.0;
    }
    x[7] = f32::from(escapes_from(24)) / 36.0;
    let worst = (15..=24).map(escapes_from).min().unwrap_or(36);
    x[8] = 1.0 - f32::from(worst) / 36.0;
    x[9] = x[8] * x[8];
    x[10] = mobility as f32 / (36.0 * 15.0);
    let left = u32::from(c.on_board());
    if left > 0 {
        let mut spread = 0u64;
        for p in 1..=25u32 {
            let n = if p == 25 {
                bar
            } else {
                u32::from(c.at(p as u8))
            };
            if left * p > pips {
                let d = u64::from(left * p - pips);
                spread += u64::from(n) * d * d;
            }
        }
        x[11] = (spread as f64 / f64::from(left * left) / (15.0 * 64.0)) as f32;
    }
    let closed = (their_made & THEIR_HOME).count_ones() as f32 / 6.0;
    x[12] = closed * closed;
    x[13] = timing as f32 / 167.0;
    x[14] = longest_row(me.made) as f32 / 6.0;
    let anchors = (me.made & THEIR_HOME).count_ones();
    if anchors >= 2 {
        x[15] = (anchors - 1) as f32 / 4.0;
    } else if anchors == 1 {
        let back_checkers: u32 = (19..=24).map(|p| u32::from(c.at(p))).sum::<u32>() + bar;
        x[16] = back_checkers as f32 / 8.0;
    }
    x
}

/// Played positions of the hitting games, both sides' views (thousands).
fn played_sides() -> Vec<(Checkers, Checkers)> {
    let mut out = Vec::new();
    for (v, seed) in [
        (Variant::Backgammon, 4501),
        (Variant::ShortNardy, 4502),
        (Variant::Portes, 4503),
    ] {
        for pos in crate::rules::dice::random_game_positions(v, 60, seed, 120) {
            out.push((pos.own, pos.opp));
            out.push((pos.opp, pos.own));
        }
    }
    out
}

#[test]
fn the_fast_inputs_are_the_straightforward_ones_to_the_bit() {
    let sides = played_sides();
    let (mut contact, mut blots) = (0, 0);
    for &(me, them) in &sides {
        let want = straightforward(me, them);
        let got = side_inputs(me, them);
        assert_eq!(
            got.map(f32::to_bits),
            want.map(f32::to_bits),
            "{me:?} {them:?}"
        );
        // Both sides at once, with layout 6's shots: the same bits as
        // each side alone and as layout 6's own count.
        let (both, shots, made) = both_sides(me, me.mask(), them, them.mask());
        assert_eq!(both[0].map(f32::to_bits), want.map(f32::to_bits));
        assert_eq!(
            both[1].map(f32::to_bits),
            straightforward(them, me).map(f32::to_bits)
        );
        let units = [
            crate::eval::hitnet::contact_units(me, them)[0],
            crate::eval::hitnet::contact_units(them, me)[0],
        ];
        assert_eq!(shots.map(f32::to_bits), units.map(f32::to_bits));
        let made_by_count =
            |c: Checkers| (1..=24u8).fold(0u32, |m, p| m | u32::from(c.at(p) >= 2) << (p - 1));
        assert_eq!(made, [made_by_count(me), made_by_count(them)]);
        contact += usize::from(crate::eval::hitnet::contact(me, them));
        blots += usize::from(want[6] > 0.0);
    }
    assert!(sides.len() > 10_000, "{}", sides.len());
    assert!(contact > 5_000 && blots > 1_000, "{contact} {blots}");
}

#[test]
fn the_escape_table_is_the_window_count() {
    // The table built when compiling against the naive walk, every window.
    for w in 0..4096u32 {
        let made = |q: i32| (13..=24).contains(&q) && w & (1 << (q - 13)) != 0;
        assert_eq!(
            u32::from(ESCAPES[w as usize]),
            escapes_naive(&made, 25),
            "{w:b}"
        );
    }
}

#[test]
fn layout_7_lists_layout_6_then_the_straightforward_inputs() {
    use crate::eval::hitnet::{CONTACT_INPUTS, contact, features_of};
    use crate::eval::net::HIT_CONTACT_LAYOUT;
    use crate::rules::{GameState, Side};
    let start = GameState::start_of(Variant::Backgammon, Side::White);
    let mut contacts = 0;
    for pos in crate::rules::dice::random_game_positions(Variant::Backgammon, 60, 4504, 120) {
        let s = GameState { pos, ..start };
        let mut want = features_of(HIT_CONTACT_LAYOUT, &s).active;
        if contact(pos.own, pos.opp) {
            contacts += 1;
            let x = [
                straightforward(pos.own, pos.opp),
                straightforward(pos.opp, pos.own),
            ];
            for (k, side) in x.iter().enumerate() {
                for (i, &v) in side.iter().enumerate() {
                    if v != 0.0 {
                        want.push(((CONTACT_INPUTS + k * PER_SIDE + i) as u16, v));
                    }
                }
            }
        }
        let got = features_of(HIT_GNUBG_LAYOUT, &s).active;
        let bits = |l: &[(u16, f32)]| l.iter().map(|&(i, v)| (i, v.to_bits())).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "{pos:?}");
    }
    assert!(contacts > 2_000, "{contacts}");
}
