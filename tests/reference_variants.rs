//! The long-nardy and hitting-game stage generators against naive reference
//! generators (tests/variants_common): the same set of distinct end
//! positions and the same number of playable dice on random reachable
//! positions (random games played with the real generators, plus random
//! bear-off and bar-heavy positions for the hitting games), all 21 rolls and
//! partial stages of one to three equal dice; long nardy under head limits 1
//! and 2 and both six-block modes. Then properties of every end (checker
//! conservation, one colour a point, each play replays step by step to its
//! end), the first-turn head rule, and the perft from the long-nardy start
//! computed with the naive generator alone. Fevga's generator against its
//! naive reference the same way under every combination of its options
//! (`six_block`, `prime`, `start_rule`) on at least 3,000 positions, and
//! the hitting presets (Portes, Tabla) against the hitting games' reference
//! through `StageGen`.

mod variants_common;

use gulbara::rules::hitting::{self, HitGen};
use gulbara::rules::movegen::step_is_legal;
use gulbara::rules::nardy::{self, LongNardySteps};
use gulbara::rules::options::{HeadFirstTurn, SixBlock};
use gulbara::rules::{MoveGen, Position, RuleOptions, StageDice, StageEnd, Variant};
use variants_common::*;

// ------------------------------------------------------------ sampling

/// The longest row of the mover's points along the opponent's path with
/// no opposing checker ahead of it (where the six-block rule would bite).
fn longest_free_row(own: &Side, opp: &Side) -> usize {
    if opp[0] > 0 {
        return 0;
    }
    let lowest = (1..=24).find(|&q| opp[q] > 0).unwrap_or(25);
    let mut held = [false; 26];
    for p in 1..=24 {
        if own[p] > 0 {
            held[nardy_other(p)] = true;
        }
    }
    let (mut best, mut run) = (0, 0);
    for h in held.iter().take(lowest).skip(1) {
        run = if *h { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Positions (mover's view) met in random long-nardy games played with the
/// real generator; most choices go to the end with the longest row that no
/// opposing checker has passed, so that rows of five and attempted sixes
/// are common.
fn nardy_positions(seed: u64, games: usize, six_block: SixBlock) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut ends = Vec::new();
    let heads = [HeadFirstTurn::NeedsSecond, HeadFirstTurn::Fixed346];
    for g in 0..games {
        let mut pos = nardy_start();
        let mut first = [true, true];
        let mut side = 0;
        for _turn in 0..400 {
            if pos.is_over() {
                break;
            }
            out.push(pos);
            let dice = StageDice::from_roll(rng.die(), rng.die());
            let rules = LongNardySteps::for_turn(pos, dice, first[side], heads[g % 2], six_block);
            first[side] = false;
            MoveGen::with_rules(rules).generate(pos, dice, &mut ends);
            let pick = if rng.chance(70) {
                let opp = side_of(pos.opp);
                (0..ends.len())
                    .max_by_key(|&i| {
                        let own = side_of(ends[i].pos.own);
                        let lowest = (1..=24).find(|&p| own[p] > 0).unwrap_or(0);
                        (longest_free_row(&own, &opp), lowest, i)
                    })
                    .unwrap()
            } else {
                rng.below(ends.len() as u64) as usize
            };
            pos = ends[pick].pos.flipped();
            side ^= 1;
        }
    }
    out
}

/// Positions met in random hitting games from the start; a third of the
/// choices prefer an end that hits.
fn hitting_game_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut ends = Vec::new();
    let mut hg = HitGen::new();
    for _ in 0..games {
        let mut pos = hitting::START;
        for _turn in 0..600 {
            if pos.is_over() {
                break;
            }
            out.push(pos);
            let dice = StageDice::from_roll(rng.die(), rng.die());
            hg.generate(pos, dice, &mut ends);
            let hitting: Vec<usize> = (0..ends.len())
                .filter(|&i| ends[i].pos.opp.bar() > pos.opp.bar())
                .collect();
            let pick = if !hitting.is_empty() && rng.chance(33) {
                hitting[rng.below(hitting.len() as u64) as usize]
            } else {
                rng.below(ends.len() as u64) as usize
            };
            pos = ends[pick].pos.flipped();
        }
    }
    out
}

/// Places `n` checkers of `me` on random points of `points` (own
/// numbering), never where `other` (the other side, mirrored) stands.
fn place(rng: &mut Rng, me: &mut Side, other: &Side, points: &[usize], n: u8) {
    for _ in 0..n {
        loop {
            let p = points[rng.below(points.len() as u64) as usize];
            if other[25 - p] == 0 {
                me[p] += 1;
                break;
            }
        }
    }
}

/// A random bear-off position: the mover all home (some borne off), the
/// opponent with blots in the mover's home and sometimes on the bar.
fn random_bear_off(rng: &mut Rng) -> Position {
    let mut own = [0u8; 26];
    let mut opp = [0u8; 26];
    let off = rng.below(14) as u8;
    own[0] = off;
    let home: Vec<usize> = (1..=6).collect();
    // At most two opposing blots in the mover's home, first.
    let blots = rng.below(3) as u8;
    for _ in 0..blots {
        let p = 1 + rng.below(6) as usize;
        if opp[25 - p] == 0 {
            opp[25 - p] = 1;
        }
    }
    place(rng, &mut own, &opp, &home, 15 - off);
    let bar = rng.below(3) as u8;
    opp[25] = bar;
    let opp_off = rng.below(6) as u8;
    opp[0] = opp_off;
    let placed: u8 = opp.iter().sum();
    let rest: Vec<usize> = (1..=18).collect();
    place(rng, &mut opp, &own, &rest, 15 - placed);
    position_of(&own, &opp)
}

/// A random position with the mover on the bar (one to four) against an
/// opponent's home board of random points and blots.
fn random_bar_heavy(rng: &mut Rng) -> Position {
    let mut own = [0u8; 26];
    let mut opp = [0u8; 26];
    own[25] = 1 + rng.below(4) as u8;
    // The opponent's home (its 1..6, the mover's 24..19).
    for q in 1..=6 {
        opp[q] = [0, 0, 1, 2, 2, 3][rng.below(6) as usize].min(13 - opp.iter().sum::<u8>());
    }
    opp[25] = u8::from(rng.chance(20));
    let used: u8 = opp.iter().sum();
    let all: Vec<usize> = (1..=24).collect();
    let mine: u8 = 15 - own[25];
    let off = rng.below(3) as u8;
    own[0] = off;
    place(rng, &mut own, &opp, &all, mine - off);
    let rest: Vec<usize> = (7..=24).collect();
    place(rng, &mut opp, &own, &rest, 15 - used);
    position_of(&own, &opp)
}

fn all_stages() -> Vec<StageDice> {
    let mut v = all_rolls();
    v.extend(partial_stages());
    v
}

// ------------------------------------------------------------ long nardy

fn nardy_samples() -> Vec<Position> {
    let mut v = nardy_positions(11, 20, SixBlock::EndOfTurn);
    v.extend(nardy_positions(12, 20, SixBlock::PerStep));
    // Thin out to keep the run short, keeping positions of every phase.
    v.into_iter().step_by(2).collect()
}

/// Compares the real generator with the naive one under `six_block`, head
/// limits 1 and 2, on every sampled position and stage. Returns the
/// mismatches and how often the six-block rule bit (the result without it
/// would differ), cost a die, and how often `per_step` differed from
/// `end_of_turn` (both naive).
fn compare_nardy(six_block: SixBlock) -> (Vec<String>, [u32; 4]) {
    let positions = nardy_samples();
    assert!(positions.len() > 1500, "{}", positions.len());
    let stages = all_stages();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    let mut counts = [0u32; 4];
    let naive_rules = |per_step, six_rule| NaiveNardy {
        head_limit: 1,
        per_step,
        six_rule,
    };
    for &pos in &positions {
        for &dice in &stages {
            for head_limit in [1u8, 2] {
                if head_limit == 2 && pos.own.at(24) < 2 {
                    continue;
                }
                let rules = long_nardy_steps(pos, dice, head_limit, six_block);
                let n = MoveGen::with_rules(rules).generate(pos, dice, &mut out);
                let naive = naive_nardy(pos, dice, NaiveNardy::from_rules(rules));
                counts[0] += 1;
                if let Err(e) = same_result(&format!("{rules:?}"), pos, dice, &out, n, &naive) {
                    failures.push(e);
                }
            }
            let free = naive_nardy(pos, dice, naive_rules(false, false));
            let end = naive_nardy(pos, dice, naive_rules(false, true));
            let step = naive_nardy(pos, dice, naive_rules(true, true));
            counts[1] += u32::from(free.ends != end.ends || free.playable != end.playable);
            counts[2] += u32::from(free.playable > end.playable);
            counts[3] += u32::from(step.ends != end.ends || step.playable != end.playable);
        }
    }
    eprintln!(
        "long nardy {six_block:?}: {} positions, {} cases; six-block bites {} (fewer dice {}), \
         per_step differs {}",
        positions.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    (failures, counts)
}

#[test]
fn long_nardy_end_of_turn_matches_naive_reference() {
    let (failures, counts) = compare_nardy(SixBlock::EndOfTurn);
    assert_no_failures(&failures);
    assert!(counts[1] > 50, "the six-block rule bit {} times", counts[1]);
    assert!(counts[3] > 20, "per_step differed {} times", counts[3]);
}

/// Fails: with equal dice the generator only tries non-increasing sources,
/// which is not the most permissive order under `per_step`: moving a lower
/// checker first can break a row that a higher checker's landing would
/// otherwise make six (see rules_long_nardy.rs,
/// `per_step_lets_a_lower_checker_break_the_row_first`).
#[test]
fn long_nardy_per_step_matches_naive_reference() {
    let (failures, _) = compare_nardy(SixBlock::PerStep);
    assert_no_failures(&failures);
}

/// Every end of the real generator: 15 checkers a side, no point with both
/// colours, the opponent unchanged, its play replays step by step (legal
/// steps, the head limit, per step no illegal six) to exactly that end,
/// which holds no illegal six, and the play is as long as the playable
/// count unless it bore off the last checker.
#[test]
fn long_nardy_end_properties() {
    let positions = nardy_samples();
    let stages = all_stages();
    let mut out = Vec::new();
    let mut checked = 0u64;
    for &pos in &positions {
        for &dice in &stages {
            for six_block in [SixBlock::EndOfTurn, SixBlock::PerStep] {
                for head_limit in [1u8, 2] {
                    let rules = long_nardy_steps(pos, dice, head_limit, six_block);
                    let n = MoveGen::with_rules(rules).generate(pos, dice, &mut out);
                    assert!(n <= dice.count());
                    ends_set(&out).unwrap();
                    for e in &out {
                        check_nardy_end(pos, dice, rules, n, e);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

fn check_nardy_end(pos: Position, dice: StageDice, rules: LongNardySteps, n: u8, e: &StageEnd) {
    let ctx = || format!("{pos:?} {dice:?} {rules:?} {:?}", e.play);
    let own = side_of(e.pos.own);
    let opp = side_of(e.pos.opp);
    assert_eq!(total(&own), 15, "{}", ctx());
    assert_eq!(total(&opp), 15, "{}", ctx());
    assert_eq!(own[25], 0, "{}", ctx());
    assert_eq!(e.pos.opp, pos.opp, "{}", ctx());
    for p in 1..=24 {
        assert!(own[p] == 0 || opp[nardy_other(p)] == 0, "{}", ctx());
    }
    let mut cur = pos;
    let mut heads = 0;
    let mut dice_left = dice_list(dice);
    for &s in e.play.steps() {
        assert!(step_is_legal(cur, s), "{}: step {s:?}", ctx());
        let i = dice_left.iter().position(|&d| d == s.die);
        dice_left.remove(i.unwrap_or_else(|| panic!("{}: die {}", ctx(), s.die)));
        if s.from == 24 {
            heads += 1;
        }
        cur.own = cur.own.moved(s.from, s.to());
        if rules.six_block == SixBlock::PerStep {
            assert!(
                !naive_illegal_six(&side_of(cur.own), &opp),
                "{}: step {s:?} makes an illegal six",
                ctx()
            );
        }
    }
    assert!(heads <= rules.head_limit, "{}", ctx());
    assert_eq!(cur, e.pos, "{}", ctx());
    if !e.play.is_empty() {
        assert!(!naive_illegal_six(&own, &opp), "{}", ctx());
    }
    assert!(!nardy::has_illegal_block(e.pos.own, e.pos.opp) || e.play.is_empty());
    assert_whole_play(e.play.len(), n, own[0] == 15, &ctx);
}

/// `LongNardySteps::for_turn` against the head rule read naively, on
/// White's first turn and on Black's first turn after every White opening.
#[test]
fn first_turn_head_rule_matches_naive_reading() {
    let start = nardy_start();
    let options = [
        (HeadFirstTurn::NeedsSecond, "needs_second"),
        (HeadFirstTurn::Fixed346, "fixed_3_4_6"),
        (HeadFirstTurn::Fixed46, "fixed_4_6"),
        (HeadFirstTurn::AnyDouble, "any_double"),
    ];
    let mut firsts = vec![start];
    for dice in all_rolls() {
        let r = LongNardySteps::for_turn(start, dice, true, options[0].0, SixBlock::EndOfTurn);
        let (ends, _) = nardy::stage_ends(start, dice, r);
        firsts.extend(ends.iter().map(|e| e.pos.flipped()));
    }
    let mut differ = 0;
    for &pos in &firsts {
        for (head, name) in options {
            for die in 1..=6 {
                let dice = StageDice::Same { die, count: 4 };
                let r = LongNardySteps::for_turn(pos, dice, true, head, SixBlock::EndOfTurn);
                let want = 1 + u8::from(naive_first_turn_second(pos, die, name));
                assert_eq!(r.head_limit, want, "{name} {die}-{die} {pos:?}");
                // Never on a later turn, never without a doublet.
                let later = LongNardySteps::for_turn(pos, dice, false, head, SixBlock::PerStep);
                assert_eq!(later.head_limit, 1);
                assert_eq!(later.six_block, SixBlock::PerStep);
            }
            for a in 2..=6 {
                let r = LongNardySteps::for_turn(
                    pos,
                    StageDice::Pair(a, a - 1),
                    true,
                    head,
                    SixBlock::EndOfTurn,
                );
                assert_eq!(r.head_limit, 1);
            }
        }
        for die in 1..=6 {
            if naive_first_turn_second(pos, die, "needs_second")
                != naive_first_turn_second(pos, die, "fixed_3_4_6")
            {
                differ += 1;
            }
        }
    }
    // Black's 2-2 after White's 5-5, Black's 5-5 after White's 6-2 ...
    assert!(differ > 0);
}

/// Leaves of the tree from the start over the 21 rolls and each turn's
/// distinct ends, computed with the naive generator and the naive head rule
/// only (White's and Black's first turns, then White's second).
fn naive_perft(pos: Position, depth: u32, turn: u32, head: &str) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for dice in all_rolls() {
        let first = turn < 2;
        let head_limit = match dice {
            StageDice::Same { die, .. } if first && naive_first_turn_second(pos, die, head) => 2,
            _ => 1,
        };
        let r = NaiveNardy {
            head_limit,
            per_step: false,
            six_rule: true,
        };
        let naive = naive_nardy(pos, dice, r);
        if depth == 1 {
            leaves += naive.ends.len() as u64;
            continue;
        }
        for (own, opp) in &naive.ends {
            leaves += naive_perft(position_of(own, opp).flipped(), depth - 1, turn + 1, head);
        }
    }
    leaves
}

#[test]
fn naive_perft_from_the_start() {
    let start = nardy_start();
    let mut got = Vec::new();
    for head in ["needs_second", "fixed_3_4_6"] {
        for depth in 1..=3 {
            got.push(naive_perft(start, depth, 0, head));
        }
    }
    assert_eq!(got, [22, 489, 35_722, 22, 484, 35_387]);
}

// -------------------------------------------------------------------- Fevga

/// Positions met in random Fevga games played with the real generator
/// (`StageGen`, so the turn context is the game's); most choices go to the
/// end with the longest row no opposing checker has passed, or the most
/// points of the starting quarter held, so that walls are tried often.
fn fevga_positions(seed: u64, games: usize, opts: &RuleOptions) -> Vec<Position> {
    use gulbara::rules::{GameState, Side, StageGen};
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut ends = Vec::new();
    let mut stages = StageGen::new();
    for _ in 0..games {
        let mut s = GameState::start_of(Variant::Fevga, Side::White);
        for _turn in 0..400 {
            if s.result().is_some() {
                break;
            }
            out.push(s.pos);
            let Ok(rolled) = s.roll(opts, rng.die(), rng.die()) else {
                break;
            };
            s = rolled;
            while s.result().is_none() {
                let Some(stage) = s.stage_dice() else { break };
                let n = stages.generate(opts, &s, stage, &mut ends);
                let pick = if rng.chance(70) {
                    let opp = side_of(s.pos.opp);
                    (0..ends.len())
                        .max_by_key(|&i| {
                            let own = side_of(ends[i].pos.own);
                            let quarter = (19..=24).filter(|&p| own[p] > 0).count();
                            (longest_free_row(&own, &opp).max(quarter), i)
                        })
                        .unwrap()
                } else {
                    rng.below(ends.len() as u64) as usize
                };
                s = s.after_stage(opts, ends[pick].pos, n);
            }
        }
    }
    out
}

/// Every combination of Fevga's options (`six_block`, `prime`,
/// `start_rule`), with the naive walk's reading of each.
fn fevga_combinations() -> Vec<(RuleOptions, NaiveFevga)> {
    let mut out = Vec::new();
    for six_block in ["end_of_turn", "per_step"] {
        for prime in ["duty", "ban"] {
            for start_rule in ["pass", "quarter"] {
                let mut o = RuleOptions::for_variant(Variant::Fevga);
                o.set("six_block", six_block).unwrap();
                o.set("prime", prime).unwrap();
                o.set("start_rule", start_rule).unwrap();
                let r = NaiveFevga {
                    per_step: six_block == "per_step",
                    ban: prime == "ban",
                    quarter: start_rule == "quarter",
                };
                out.push((o, r));
            }
        }
    }
    out
}

/// Puts `n` checkers of a side on random points of `allowed` (its own
/// numbering).
fn scatter(rng: &mut Rng, side: &mut Side, n: u8, allowed: &[usize]) {
    for _ in 0..n {
        side[allowed[rng.below(allowed.len() as u64) as usize]] += 1;
    }
}

/// A position in which the duty to open a prime binds: every opposing
/// checker on one point (its `q`, 7..=24), the mover holding the six points
/// in front of it, its other checkers anywhere else.
fn fevga_trapped(rng: &mut Rng) -> Position {
    let q = 7 + rng.below(18) as usize;
    let mut opp: Side = [0; 26];
    opp[q] = 15;
    let mut own: Side = [0; 26];
    for r in q - 6..q {
        own[nardy_other(r)] = 1;
    }
    let free: Vec<usize> = (1..=24).filter(|&p| p != nardy_other(q)).collect();
    scatter(rng, &mut own, 9, &free);
    position_of(&own, &opp)
}

/// A position of the starting rule with the opponent's start empty: the
/// mover's runner on its 13..=18, fourteen on its start; the opponent's
/// checkers anywhere but its start and the mover's points.
fn fevga_runner_out(rng: &mut Rng) -> Position {
    let mut own: Side = [0; 26];
    own[24] = 14;
    own[13 + rng.below(6) as usize] = 1;
    let free: Vec<usize> = (1..=23).filter(|&q| own[nardy_other(q)] == 0).collect();
    let mut opp: Side = [0; 26];
    scatter(rng, &mut opp, 15, &free);
    position_of(&own, &opp)
}

/// At least this many Fevga positions are checked, each under every
/// combination of the options.
const FEVGA_POSITIONS: usize = 3_000;

/// Fevga's generator under every combination of its options against the
/// naive reference on positions of random games (played under each
/// combination of `prime` and `start_rule`), positions where the duty to
/// open a prime binds, positions with the opponent's start empty before
/// the runner has passed, and every first turn; then every play replays
/// step by step under the starting rule to its end.
#[test]
fn fevga_matches_naive_reference_under_every_option() {
    use gulbara::rules::{GameState, Side as Colour, StageGen};
    let combos = fevga_combinations();
    let mut positions = vec![nardy_start()];
    for (k, (o, _)) in combos.iter().take(4).enumerate() {
        positions.extend(fevga_positions(31 + k as u64, 14, o).into_iter().step_by(2));
    }
    let mut rng = Rng::new(37);
    for _ in 0..150 {
        positions.push(fevga_trapped(&mut rng));
        positions.push(fevga_runner_out(&mut rng));
    }
    assert!(positions.len() >= FEVGA_POSITIONS, "{}", positions.len());
    let (rolls, partial) = (all_rolls(), partial_stages());
    let mut stages = StageGen::new();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    // Where each rule bites: the starting rule, the walls (past the
    // start), the duty (ends dropped), `quarter` against `pass`.
    let mut bit = [0u32; 4];
    let mut cases = 0u32;
    for (i, &pos) in positions.iter().enumerate() {
        let mut s = GameState::start_of(Variant::Fevga, Colour::White);
        s.pos = pos;
        let own = side_of(pos.own);
        let pending = own[24] < 15 && own[0] == 0 && (1..12).all(|p| own[p] == 0);
        let trapped = naive_trapped(&own, &side_of(pos.opp));
        for (opts, r) in &combos {
            for &dice in rolls.iter().chain(partial.iter().filter(|_| i % 4 == 0)) {
                let n = stages.generate(opts, &s, dice, &mut out);
                let naive = naive_fevga(pos, dice, *r);
                cases += 1;
                if let Err(e) = same_result(&format!("{r:?}"), pos, dice, &out, n, &naive) {
                    failures.push(e);
                }
                // The walk with neither rule (long nardy's with no head
                // limit and no six-block), under one combination only.
                if !r.per_step && r.ban && !r.quarter {
                    let free = naive_nardy(
                        pos,
                        dice,
                        NaiveNardy {
                            head_limit: 15,
                            per_step: false,
                            six_rule: false,
                        },
                    );
                    if free.ends.len() > naive.ends.len() {
                        bit[usize::from(!pending)] += 1;
                    }
                }
                if trapped && !r.ban && !r.per_step {
                    let before = naive_fevga_without_duty(pos, dice, *r);
                    assert_eq!(before.playable, naive.playable);
                    bit[2] += u32::from(before.ends.len() > naive.ends.len());
                }
                if r.quarter && !r.per_step && r.ban {
                    let pass = naive_fevga(
                        pos,
                        dice,
                        NaiveFevga {
                            quarter: false,
                            ..*r
                        },
                    );
                    bit[3] += u32::from(pass.ends != naive.ends);
                }
                for e in &out {
                    let mut cur = side_of(pos.own);
                    let line = if r.quarter { 12 } else { 11 };
                    for st in e.play.steps() {
                        if st.from == 24 && cur[24] < 15 {
                            assert!(
                                cur[0] > 0 || (1..=line).any(|p| cur[p] > 0),
                                "{pos:?} {dice:?}: {:?} leaves the start before the runner passed",
                                e.play
                            );
                        }
                        cur[usize::from(st.from)] -= 1;
                        if st.from > st.die {
                            cur[usize::from(st.from - st.die)] += 1;
                        } else {
                            cur[0] += 1;
                        }
                    }
                    assert_eq!(cur, side_of(e.pos.own), "{pos:?} {dice:?} {:?}", e.play);
                }
            }
        }
    }
    eprintln!(
        "Fevga: {} positions, {cases} cases; the starting rule cut ends {} times, the walls \
         (past the start) {}, the duty to open a prime {}, quarter differed from pass {}",
        positions.len(),
        bit[0],
        bit[1],
        bit[2],
        bit[3]
    );
    assert_no_failures(&failures);
    assert!(bit.iter().all(|&n| n > 50), "{bit:?}");
}

// ------------------------------------------------------------ hitting games

fn hitting_samples() -> Vec<(Position, &'static str)> {
    let mut v: Vec<(Position, &str)> = hitting_game_positions(21, 36)
        .into_iter()
        .step_by(3)
        .map(|p| (p, "game"))
        .collect();
    let mut rng = Rng::new(22);
    for _ in 0..250 {
        v.push((random_bear_off(&mut rng), "bear-off"));
        v.push((random_bar_heavy(&mut rng), "bar"));
    }
    v
}

#[test]
fn hitting_matches_naive_reference() {
    let positions = hitting_samples();
    assert!(positions.len() > 2000, "{}", positions.len());
    let stages = all_stages();
    let mut hg = HitGen::new();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    // Cases seen: hits, entering, dances, bear-offs, hits while bearing off.
    let mut seen = [0u32; 5];
    for &(pos, kind) in &positions {
        let own = side_of(pos.own);
        let opp = side_of(pos.opp);
        assert_eq!((total(&own), total(&opp)), (15, 15), "{kind}");
        for p in 1..=24 {
            assert!(own[p] == 0 || opp[25 - p] == 0, "{kind} {own:?} {opp:?}");
        }
        for &dice in &stages {
            let n = hg.generate(pos, dice, &mut out);
            let naive = naive_hitting(pos, dice);
            if let Err(e) = same_result(kind, pos, dice, &out, n, &naive) {
                failures.push(e);
            }
            let hit = naive.ends.iter().any(|(_, o)| o[25] > opp[25]);
            let bore_off = naive.ends.iter().any(|(m, _)| m[0] > own[0]);
            seen[0] += u32::from(hit);
            seen[1] += u32::from(own[25] > 0 && naive.playable > 0);
            seen[2] += u32::from(own[25] > 0 && naive.playable == 0);
            seen[3] += u32::from(bore_off);
            seen[4] += u32::from(bore_off && hit);
        }
    }
    eprintln!(
        "hitting: {} positions; hits {}, entering {}, dances {}, bear-offs {}, hit while bearing off {}",
        positions.len(),
        seen[0],
        seen[1],
        seen[2],
        seen[3],
        seen[4]
    );
    assert_no_failures(&failures);
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

/// Portes and Tabla are presets of the hitting rules: `StageGen` plays
/// their stages as the naive hitting reference does.
#[test]
fn the_hitting_presets_match_the_naive_reference() {
    use gulbara::rules::{GameState, Side, StageGen};
    let positions: Vec<(Position, &str)> = hitting_samples().into_iter().step_by(4).collect();
    let mut stages = StageGen::new();
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for variant in [Variant::Portes, Variant::Tabla] {
        let opts = RuleOptions::for_variant(variant);
        for &(pos, kind) in &positions {
            let mut s = GameState::start_of(variant, Side::White);
            s.pos = pos;
            for dice in all_stages() {
                let n = stages.generate(&opts, &s, dice, &mut out);
                let naive = naive_hitting(pos, dice);
                if let Err(e) =
                    same_result(&format!("{variant} {kind}"), pos, dice, &out, n, &naive)
                {
                    failures.push(e);
                }
            }
        }
    }
    assert_no_failures(&failures);
}

/// Every end of `HitGen`: 15 checkers a side, never both colours on a
/// point, the play replays through `step_problem` / `apply_step` to that
/// end, and is as long as the playable count unless the last checker left.
#[test]
fn hitting_end_properties() {
    let positions = hitting_samples();
    let stages = all_stages();
    let mut hg = HitGen::new();
    let mut out = Vec::new();
    let mut checked = 0u64;
    for &(pos, kind) in &positions {
        for &dice in &stages {
            let n = hg.generate(pos, dice, &mut out);
            assert!(n <= dice.count());
            ends_set(&out).unwrap();
            for e in &out {
                let ctx = || format!("{kind} {pos:?} {dice:?} {:?}", e.play);
                let own = side_of(e.pos.own);
                let opp = side_of(e.pos.opp);
                assert_eq!((total(&own), total(&opp)), (15, 15), "{}", ctx());
                for p in 1..=24 {
                    assert!(own[p] == 0 || opp[25 - p] == 0, "{}", ctx());
                }
                let mut cur = pos;
                let mut dice_left = dice_list(dice);
                for &s in e.play.steps() {
                    assert_eq!(hitting::step_problem(cur, s), None, "{}: {s:?}", ctx());
                    let i = dice_left.iter().position(|&d| d == s.die).unwrap();
                    dice_left.remove(i);
                    cur = hitting::apply_step(cur, s);
                }
                assert_eq!(cur, e.pos, "{}", ctx());
                // Checkers only move forward; the opponent only loses blots.
                assert!(e.pos.own.pips() <= pos.own.pips(), "{}", ctx());
                assert!(e.pos.opp.pips() >= pos.opp.pips(), "{}", ctx());
                assert_whole_play(e.play.len(), n, own[0] == 15, &ctx);
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// Long nardy's step rules for `pos` and `dice` with this head limit and
/// six-block rule: the rows of six it could still build.
fn long_nardy_steps(
    pos: Position,
    dice: StageDice,
    head_limit: u8,
    six_block: SixBlock,
) -> LongNardySteps {
    LongNardySteps {
        head_limit,
        six_block,
        rows_possible: nardy::row_of_six_within(
            pos.own,
            dice.count(),
            nardy::forbidden_row_starts(pos.opp),
        ),
    }
}

/// A play uses all `n` dice that can be played, or fewer only when it
/// bears the side's last checker off (`all_off`).
fn assert_whole_play(steps: usize, n: u8, all_off: bool, ctx: &dyn Fn() -> String) {
    assert!(
        steps == usize::from(n) || (all_off && steps < usize::from(n)),
        "{}: {steps} steps, playable {n}",
        ctx()
    );
}
