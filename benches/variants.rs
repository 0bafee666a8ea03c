//! Stage generation speed for the other variants.
//!
//! * Backgammon: `HitGen` over wildbg's benchmark positions (gnubg Position
//!   IDs in `../shared/peer-vectors/backgammon-positions/{contact,race}.csv`,
//!   read at run time), each with the 15 non-doublets and the 6 doublets as
//!   one stage of four dice, exactly as wildbg's `move_generation_bench`
//!   counts them (185,957 / 218,356 / 122,570 / 140,720 ends).
//! * Short nardy: the same generator as backgammon (`StageGen` sends both to
//!   `HitGen`); measured over its own corpus of random-game positions.
//! * Long nardy: `StageGen` (i.e. `MoveGen<LongNardySteps>` with the turn's
//!   head limit) over a corpus of random-game positions.
//! * Fevga (`MoveGen<FevgaSteps>`), Portes and Tabla (`HitGen`), Plakoto and
//!   Tapa (`PinGen`): `StageGen` over corpora of their own random games
//!   (default rules); Fevga's doublets again with `prime ban` and Plakoto's
//!   with `mother_timing end`, over the same corpora.
//!
//! The random-game corpora are built at start-up: seeded games, both sides
//! picking a uniformly random distinct end with the real generator, every
//! pre-roll state kept with chance 1/8, distinct positions, 1,000 of them.
//! Counts distinct stage ends per second (a stage with nothing playable
//! yields its one unchanged end, which counts). Run with
//! `cargo bench --bench variants`; besides criterion's report (elements/s) a
//! summary line per case gives total ends / median time of whole passes.

mod common;

use std::collections::HashSet;
use std::hint::black_box;

use common::{doublets, non_doublets};
use gulbara::rules::hitting::HitGen;
use gulbara::rules::{
    Checkers, GameState, Pending, Position, RuleOptions, Side, StageDice, StageEnd, StageGen,
    Variant,
};

const POSITIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/peer-vectors/backgammon-positions"
);

/// wildbg's positions, mover's view.
fn backgammon(file: &str) -> Vec<Position> {
    let path = format!("{POSITIONS}/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|id| {
            let b = gulbara::gnubg::position_id::decode(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            let side = |c: &[u8; 25]| {
                let points: [u8; 24] = c[..24].try_into().unwrap();
                Checkers::from_counts_with_bar(&points, c[24]).unwrap()
            };
            Position {
                own: side(&b.on_roll),
                opp: side(&b.opponent),
            }
        })
        .collect()
}

/// A small deterministic generator (xorshift64*), independent of `rand`.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
    fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// Pre-roll states of seeded random games of `variant`, distinct positions,
/// each marked as having made its roll (so the turn context, e.g. long
/// nardy's first-turn head rule, is that of the roll to be played).
fn random_corpus(variant: Variant, n: usize, seed: u64) -> Vec<GameState> {
    random_corpus_where(variant, n, seed, |_| true)
}

/// Whether a running game (long nardy, Fevga) is a race: both sides have
/// every checker in the second half of their path (their points 1..=12),
/// so no checker of one can still land where a checker of the other will.
fn running_race(pos: &Position) -> bool {
    const FIRST_HALF: u32 = 0xFF_F000;
    pos.own.mask() & FIRST_HALF == 0 && pos.opp.mask() & FIRST_HALF == 0
}

/// [`random_corpus`] keeping only the positions `keep` accepts.
fn random_corpus_where(
    variant: Variant,
    n: usize,
    seed: u64,
    keep: impl Fn(&Position) -> bool,
) -> Vec<GameState> {
    let opts = RuleOptions::for_variant(variant);
    let mut rng = Rng(seed);
    let mut gen_ = StageGen::new();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut corpus = Vec::new();
    let mut state = GameState::start_of(variant, Side::White);
    while corpus.len() < n {
        if state.result().is_some() {
            state = GameState::start_of(variant, Side::White);
        }
        if state.pending == Pending::Roll {
            if !state.pos.is_over()
                && rng.below(8) == 0
                && keep(&state.pos)
                && seen.insert(state.pos)
            {
                let mut s = state;
                s.rolls[s.to_move.index()] += 1;
                corpus.push(s);
            }
            state = state.roll(&opts, rng.die(), rng.die()).unwrap();
        }
        let dice = state.stage_dice().unwrap();
        let used = gen_.generate(&opts, &state, dice, &mut out);
        let end = out[rng.below(out.len())].pos;
        state = state.after_stage(&opts, end, used);
    }
    corpus
}

/// What a case runs: `HitGen` on bare positions, or `StageGen` on states.
enum Input {
    Hit(Vec<Position>),
    Stage(RuleOptions, Vec<GameState>),
}

impl Input {
    fn len(&self) -> usize {
        match self {
            Input::Hit(v) => v.len(),
            Input::Stage(_, v) => v.len(),
        }
    }
}

/// Reusable generators for a pass.
#[derive(Default)]
struct Gens {
    hit: HitGen,
    stage: StageGen,
    out: Vec<StageEnd>,
}

/// One pass: every position with every stage; returns the ends generated.
#[inline(never)]
fn pass(g: &mut Gens, input: &Input, stages: &[StageDice]) -> usize {
    let mut total = 0;
    match input {
        Input::Hit(positions) => {
            for &pos in positions {
                for &dice in stages {
                    g.hit.generate(black_box(pos), dice, &mut g.out);
                    total += black_box(&g.out).len();
                }
            }
        }
        Input::Stage(opts, states) => {
            for state in states {
                for &dice in stages {
                    g.stage.generate(opts, black_box(state), dice, &mut g.out);
                    total += black_box(&g.out).len();
                }
            }
        }
    }
    total
}

struct Case {
    name: &'static str,
    input: Input,
    stages: Vec<StageDice>,
    ends: usize,
    expected: Option<usize>,
}

fn cases() -> Vec<Case> {
    let contact = backgammon("contact.csv");
    let race = backgammon("race.csv");
    let long = random_corpus(Variant::LongNardy, 1_000, 0x6C6F_6E67);
    let long_contact =
        random_corpus_where(Variant::LongNardy, 1_000, 0x6C6F_6E67, |p| !running_race(p));
    let long_race = random_corpus_where(Variant::LongNardy, 1_000, 0x6C6F_6E67, running_race);
    let short = random_corpus(Variant::ShortNardy, 1_000, 0x7368_6F72);
    let ln = RuleOptions::for_variant(Variant::LongNardy);
    let sn = RuleOptions::for_variant(Variant::ShortNardy);
    let own = |v: Variant, seed: u64| (RuleOptions::for_variant(v), random_corpus(v, 1_000, seed));
    let (fe, fevga) = own(Variant::Fevga, 0x6665_7667);
    let (po, portes) = own(Variant::Portes, 0x706F_7274);
    let (ta, tabla) = own(Variant::Tabla, 0x7461_626C);
    let (pl, plakoto) = own(Variant::Plakoto, 0x706C_616B);
    let (tp, tapa) = own(Variant::Tapa, 0x7461_7061);
    // The other readings of the options where the sources disagree, over
    // the same corpora: Fevga's prime banned, Plakoto's mother judged at
    // the end of the play (which lets more doublets take the fast paths).
    let mut fe_ban = fe;
    fe_ban.prime = gulbara::rules::options::Prime::Ban;
    let mut pl_end = pl;
    pl_end.mother_timing = gulbara::rules::options::MotherTiming::End;
    let mut g = Gens::default();
    let mut v = Vec::new();
    for (name, input, stages, expected) in [
        (
            "backgammon/contact/non_doublets",
            Input::Hit(contact.clone()),
            non_doublets(),
            Some(185_957),
        ),
        (
            "backgammon/contact/doublets",
            Input::Hit(contact),
            doublets(),
            Some(218_356),
        ),
        (
            "backgammon/race/non_doublets",
            Input::Hit(race.clone()),
            non_doublets(),
            Some(122_570),
        ),
        (
            "backgammon/race/doublets",
            Input::Hit(race),
            doublets(),
            Some(140_720),
        ),
        (
            "short_nardy/non_doublets",
            Input::Stage(sn, short.clone()),
            non_doublets(),
            None,
        ),
        (
            "short_nardy/doublets",
            Input::Stage(sn, short),
            doublets(),
            None,
        ),
        (
            "long_nardy/non_doublets",
            Input::Stage(ln, long.clone()),
            non_doublets(),
            None,
        ),
        (
            "long_nardy/doublets",
            Input::Stage(ln, long),
            doublets(),
            None,
        ),
        (
            "long_nardy/contact/non_doublets",
            Input::Stage(ln, long_contact.clone()),
            non_doublets(),
            None,
        ),
        (
            "long_nardy/contact/doublets",
            Input::Stage(ln, long_contact),
            doublets(),
            None,
        ),
        (
            "long_nardy/race/non_doublets",
            Input::Stage(ln, long_race.clone()),
            non_doublets(),
            None,
        ),
        (
            "long_nardy/race/doublets",
            Input::Stage(ln, long_race),
            doublets(),
            None,
        ),
        (
            "fevga/non_doublets",
            Input::Stage(fe, fevga.clone()),
            non_doublets(),
            None,
        ),
        (
            "fevga/prime_ban/doublets",
            Input::Stage(fe_ban, fevga.clone()),
            doublets(),
            None,
        ),
        ("fevga/doublets", Input::Stage(fe, fevga), doublets(), None),
        (
            "portes/non_doublets",
            Input::Stage(po, portes.clone()),
            non_doublets(),
            None,
        ),
        (
            "portes/doublets",
            Input::Stage(po, portes),
            doublets(),
            None,
        ),
        (
            "tabla/non_doublets",
            Input::Stage(ta, tabla.clone()),
            non_doublets(),
            None,
        ),
        ("tabla/doublets", Input::Stage(ta, tabla), doublets(), None),
        (
            "plakoto/non_doublets",
            Input::Stage(pl, plakoto.clone()),
            non_doublets(),
            None,
        ),
        (
            "plakoto/mother_end/doublets",
            Input::Stage(pl_end, plakoto.clone()),
            doublets(),
            None,
        ),
        (
            "plakoto/doublets",
            Input::Stage(pl, plakoto),
            doublets(),
            None,
        ),
        (
            "tapa/non_doublets",
            Input::Stage(tp, tapa.clone()),
            non_doublets(),
            None,
        ),
        ("tapa/doublets", Input::Stage(tp, tapa), doublets(), None),
    ] {
        let ends = pass(&mut g, &input, &stages);
        if let Some(e) = expected {
            assert_eq!(ends, e, "{name}: wildbg counts {e} ends");
        }
        v.push(Case {
            name,
            input,
            stages,
            ends,
            expected,
        });
    }
    v
}

impl common::Case for Case {
    type Gens = Gens;

    fn name(&self) -> &'static str {
        self.name
    }

    fn ends(&self) -> usize {
        self.ends
    }

    fn pass(&self, g: &mut Gens) -> usize {
        pass(g, &self.input, &self.stages)
    }

    fn sizes(&self) -> (usize, usize, &'static str) {
        let note = if self.expected.is_some() {
            " (= wildbg)"
        } else {
            ""
        };
        (self.input.len(), self.stages.len(), note)
    }
}

fn main() {
    common::run("variants", 32, &cases());
}
