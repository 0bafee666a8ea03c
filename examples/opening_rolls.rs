//! The starter's first roll of each game a `gulbara match` plays on the
//! dice seeds read from stdin (one a line, as a match `--out` file gives
//! them per pair), under the rules of the game named: the opening throw
//! itself where it is played (`opening single`), the starter's fresh roll
//! where it is rolled afresh (`reroll`).
//!
//! ```sh
//! python3 -c "import json; [print(p['dice_seed']) for p in json.load(open('tabla-5230.json'))['pairs']]" \
//!     | target/release/examples/opening_rolls tabla
//! ```
//! (prints `seed starter die1 die2`, the larger die first)

use std::io::BufRead;

use gulbara::rules::dice::{DiceSource, SeededDice, open_game};
use gulbara::rules::{RuleOptions, Variant};

fn main() {
    let variant: Variant = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("tabla")
        .parse()
        .expect("a game");
    let opts = RuleOptions::for_variant(variant);
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let Ok(seed) = line.trim().parse::<u64>() else {
            continue;
        };
        let mut dice = SeededDice::new(seed);
        let opened = open_game(&opts, &mut dice);
        let (a, b) = opened
            .first_roll
            .unwrap_or_else(|| (dice.die(), dice.die()));
        println!("{seed} {:?} {} {}", opened.starter, a.max(b), a.min(b));
    }
}
