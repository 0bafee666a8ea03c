//! `gulbara bearoff`: generates the race tables (timing each), reports
//! their sizes, and measures each game's shipped network and baseline
//! against them on random all-home races (the numbers of
//! docs/STRENGTH.md, "Race tables").

use std::time::Instant;

use crate::eval::bearoff::{self, Dice, MAX_EXEMPT};
use crate::eval::{Evaluator, GameNet, Probs, race};
use crate::rules::position::Checkers;
use crate::rules::{GameState, Position, RuleOptions, Side, Variant};

/// A small deterministic generator (xorshift64*), so that the sample is the
/// same on every machine and every version of the `rand` crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) % n
    }
}

/// One side of a random race: all 15 checkers a quarter of the time (so
/// that mars chances are measured), else 1..=14; each checker on a home
/// point chosen uniformly.
fn random_side(rng: &mut Rng) -> Checkers {
    let n = if rng.below(4) == 0 {
        15
    } else {
        1 + rng.below(14)
    };
    let mut c = [0u8; 24];
    for _ in 0..n {
        c[rng.below(6) as usize] += 1;
    }
    Checkers::from_counts(&c).unwrap_or_default()
}

/// Errors of one evaluator against the tables.
#[derive(Default)]
struct Errors {
    n: usize,
    win: f64,
    equity: f64,
    max_win: f64,
    mars_n: usize,
    win_mars: f64,
    lose_mars: f64,
}

impl Errors {
    fn add(&mut self, got: Probs, want: Probs, both_full: bool) {
        let dw = f64::from((got.win - want.win).abs());
        self.n += 1;
        self.win += dw;
        self.max_win = self.max_win.max(dw);
        self.equity += f64::from((got.equity() - want.equity()).abs());
        if both_full {
            self.mars_n += 1;
            self.win_mars += f64::from((got.win_mars - want.win_mars).abs());
            self.lose_mars += f64::from((got.lose_mars - want.lose_mars).abs());
        }
    }

    fn line(&self, who: &str) -> String {
        let n = self.n.max(1) as f64;
        let m = self.mars_n.max(1) as f64;
        format!(
            "  {who:<9} win MAE {:.4} (max {:.3})  equity MAE {:.4}  mars (both 15 home, {}) win {:.4} lose {:.4}",
            self.win / n,
            self.max_win,
            self.equity / n,
            self.mars_n,
            self.win_mars / m,
            self.lose_mars / m
        )
    }
}

/// Why `gulbara bearoff` stopped.
#[derive(Debug, thiserror::Error)]
pub enum RaceCheckError {
    /// A race table could not be made.
    #[error(transparent)]
    Bearoff(#[from] bearoff::BearoffError),
    /// A game's shipped network could not be read.
    #[error(transparent)]
    Weights(#[from] crate::eval::net::WeightsError),
}

/// Runs `gulbara bearoff`: the tables generated and timed, then `samples`
/// random races per game (`variant`, or every game) judged against them.
pub fn run_bearoff(
    variant: Option<Variant>,
    samples: usize,
    seed: u64,
) -> Result<(), RaceCheckError> {
    println!(
        "race tables: {} arrangements of 0..15 checkers on 6 points",
        bearoff::POSITIONS
    );
    let mut kinds = vec![Dice::Ordinary];
    kinds.extend((0..=MAX_EXEMPT).map(|exempt| Dice::Escalating { exempt }));
    for dice in kinds {
        // Derived tables start from the one below (cached by then): the
        // time is that of the pass of its own.
        let t0 = Instant::now();
        let t = bearoff::generate(dice)?;
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        println!(
            "  {dice:?}: generated in {ms:.0} ms, {} rolls at most, first checker within {} rolls, {:.1} MB; 15 on the 6-point: {:.4} rolls",
            t.len() - 1,
            t.first_len() - 1,
            t.bytes() as f64 / 1e6,
            t.mean(&[0, 0, 0, 0, 0, 15]).unwrap_or(f64::NAN)
        );
        // Keep the cache warm for the derived tables and the measurement.
        bearoff::table(dice)?;
    }
    let variants = match variant {
        Some(v) => vec![v],
        None => Variant::ALL.to_vec(),
    };
    for variant in variants {
        let opts = RuleOptions::for_variant(variant);
        let net = GameNet::load(variant, None)?.net_evaluator();
        let base = crate::eval::variants::plain_baseline(variant);
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let (mut net_err, mut base_err) = (Errors::default(), Errors::default());
        let mut s = GameState::start_of(variant, Side::White);
        s.rolls = [10, 10];
        let mut table_time = std::time::Duration::ZERO;
        for _ in 0..samples {
            s.pos = Position {
                own: random_side(&mut rng),
                opp: random_side(&mut rng),
            };
            let t0 = Instant::now();
            let answer = race::race_probs(&s, &opts);
            table_time += t0.elapsed();
            let Some(want) = answer else {
                continue;
            };
            let full = s.pos.own.off() == 0 && s.pos.opp.off() == 0;
            net_err.add(net.eval(&s, &opts), want, full);
            base_err.add(base.eval(&s, &opts), want, full);
        }
        println!(
            "{variant}: {} random all-home races (seed {}), {:.0} ns per answer from the tables",
            net_err.n,
            seed,
            table_time.as_secs_f64() * 1e9 / net_err.n.max(1) as f64
        );
        println!("{}", net_err.line(net.name()));
        println!("{}", base_err.line("baseline"));
    }
    Ok(())
}
