//! Writes the movegen benchmark corpus (`benches/corpus.txt`) to stdout.
//!
//! Plays random games (`RandomChooser` for both sides, `SeededDice`, fixed
//! seeds) and samples states where the side to move is about to roll, both
//! sides alike. Every distinct mover-view position is kept at most once. The
//! corpus is mostly contact positions: both sides still have a checker with
//! an opposing checker ahead of it. It holds `CONTACT` contact positions and
//! `NON_CONTACT` others (races and bear-offs).
//!
//! Run: `cargo run --release --example make_corpus > benches/corpus.txt`
//! (the summary goes to stderr).

use std::cell::RefCell;
use std::collections::HashSet;

use gulbara::game::{Chooser, RandomChooser, play_choosers};
use gulbara::notation::{parse_state_text, state_text};
use gulbara::rules::dice::SeededDice;
use gulbara::rules::options::RuleOptions;
use gulbara::rules::{GameState, Pending, Position, StageEnd};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Contact positions wanted.
const CONTACT: usize = 1_000;
/// Non-contact positions wanted.
const NON_CONTACT: usize = 100;
/// Chance that a roll-pending state is sampled (spreads samples over games).
const SAMPLE_P: f64 = 0.08;
/// The corpus seed.
const SEED: u64 = 20_240_601;

/// Whether the mover has a checker with an opposing checker ahead of it.
fn blocked_ahead(pos: Position) -> bool {
    let own = pos.own.mask();
    if own == 0 {
        return false;
    }
    let highest = 32 - own.leading_zeros();
    // Points below the mover's highest checker, in the mover's numbering.
    let ahead = (1u32 << (highest - 1)) - 1;
    pos.blocked() & ahead != 0
}

/// Both sides still have checkers in each other's way.
fn is_contact(pos: Position) -> bool {
    blocked_ahead(pos) && blocked_ahead(pos.flipped())
}

/// The state just before the roll that led to `state` (a stage of that roll
/// pending, nothing played yet), or `None` for later stages and remainders.
fn before_roll(state: &GameState) -> Option<GameState> {
    match state.pending {
        Pending::Roll2 { .. } | Pending::Chain { first: true, .. } => {
            let mut s = *state;
            s.pending = Pending::Roll;
            s.rolls[s.to_move.index()] -= 1;
            s.moved_this_turn = false;
            Some(s)
        }
        _ => None,
    }
}

struct Sampler {
    rng: StdRng,
    seen: HashSet<Position>,
    contact: Vec<String>,
    other: Vec<String>,
}

impl Sampler {
    fn offer(&mut self, state: &GameState) {
        let Some(s) = before_roll(state) else {
            return;
        };
        if s.pos.is_over() || !self.rng.random_bool(SAMPLE_P) {
            return;
        }
        let contact = is_contact(s.pos);
        let full = if contact {
            self.contact.len() >= CONTACT
        } else {
            self.other.len() >= NON_CONTACT
        };
        if full || !self.seen.insert(s.pos) {
            return;
        }
        let text = state_text(&s);
        let back = parse_state_text(&text).expect("state text parses back");
        assert_eq!(back.pos, s.pos, "{text}");
        if contact {
            self.contact.push(text);
        } else {
            self.other.push(text);
        }
    }

    fn done(&self) -> bool {
        self.contact.len() >= CONTACT && self.other.len() >= NON_CONTACT
    }
}

/// A random player that shows every state it is asked about to the sampler.
struct Sampling<'a> {
    inner: RandomChooser,
    sampler: &'a RefCell<Sampler>,
}

impl Chooser for Sampling<'_> {
    fn choose(&mut self, state: &GameState, ends: &[StageEnd]) -> usize {
        self.sampler.borrow_mut().offer(state);
        self.inner.choose(state, ends)
    }
}

fn main() {
    let opts = RuleOptions::default();
    let sampler = RefCell::new(Sampler {
        rng: StdRng::seed_from_u64(SEED),
        seen: HashSet::new(),
        contact: Vec::new(),
        other: Vec::new(),
    });
    let mut games = 0u64;
    while !sampler.borrow().done() {
        let seed = SEED.wrapping_mul(1_000).wrapping_add(games);
        let mut white = Sampling {
            inner: RandomChooser::new(seed ^ 0x5757),
            sampler: &sampler,
        };
        let mut black = Sampling {
            inner: RandomChooser::new(seed ^ 0xB1AC),
            sampler: &sampler,
        };
        play_choosers(&opts, &mut SeededDice::new(seed), &mut white, &mut black);
        games += 1;
    }
    let s = sampler.into_inner();
    let white_to_move = s
        .contact
        .iter()
        .chain(&s.other)
        .filter(|t| t.contains(" w "))
        .count();
    for line in s.contact.iter().chain(&s.other) {
        println!("{line}");
    }
    eprintln!(
        "{} positions from {games} games (seed {SEED}): {} contact, {} non-contact; {white_to_move} White to move, {} Black",
        s.contact.len() + s.other.len(),
        s.contact.len(),
        s.other.len(),
        s.contact.len() + s.other.len() - white_to_move,
    );
}
