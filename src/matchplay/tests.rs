use super::*;
use crate::rules::Side;

#[test]
fn referee_accepts_exact_turns_only() {
    let o = RuleOptions::default();
    let s = GameState::start(Side::White).roll(&o, 6, 5).unwrap();
    let w = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert!(referee_turn(&s, &o, &w("24/18 24/19")).is_ok());
    assert!(referee_turn(&s, &o, &w("24/13")).is_ok());
    assert!(referee_turn(&s, &o, &w("24/18")).is_err());
    assert!(referee_turn(&s, &o, &w("24/18 24/19 12/7")).is_err());
    assert!(referee_turn(&s, &o, &w("pass")).is_err());
    assert!(referee_turn(&s, &o, &w("hello")).is_err());
}

#[test]
fn pair_seeds_differ() {
    assert_ne!(pair_seed(1, 0), pair_seed(1, 1));
    assert_ne!(pair_seed(1, 0), pair_seed(2, 0));
    assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
}

#[test]
fn luck_of_all_rolls_averages_to_zero() {
    use crate::search::ROLLS;
    let o = RuleOptions::default();
    let s = crate::notation::parse_state_text(
        "2,1,2,2,0,1,-1,-2,-3,0,0,-5,3,0,0,-1,-3,4,0,0,0,0,0,0 w 10 10",
    )
    .unwrap();
    let mut total = 0.0;
    for &(a, b, w) in ROLLS.iter() {
        total +=
            roll_luck(&crate::eval::heuristic::Heuristic, &s, &o, (a, b)) * f64::from(w) / 36.0;
    }
    assert!(total.abs() < 1e-6, "{total}");
    let net = LuckReference::Net.evaluator(Variant::GulBara);
    let mut total = 0.0;
    let mut spread = 0.0;
    for &(a, b, w) in ROLLS.iter() {
        let l = roll_luck(net.as_ref(), &s, &o, (a, b));
        total += l * f64::from(w) / 36.0;
        spread += l.abs();
    }
    assert!(total.abs() < 1e-6, "{total}");
    assert!(spread > 0.1, "rolls differ in value: {spread}");
}
