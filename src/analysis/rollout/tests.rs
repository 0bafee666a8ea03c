use super::*;

#[test]
fn the_first_two_rolls_cover_every_pair_once_in_1296_trials() {
    for seed in [0, 1, 77] {
        let d = StratifiedDice::new(seed);
        let mut seen = std::collections::HashSet::new();
        for i in 0..1296 {
            assert!(seen.insert(d.first_two(i)), "seed {seed} trial {i}");
        }
        assert_eq!(seen.len(), 1296);
        // Every 36 trials roll every roll first and second once.
        let firsts: std::collections::HashSet<_> = (36..72).map(|i| d.first_two(i)[0]).collect();
        let seconds: std::collections::HashSet<_> = (36..72).map(|i| d.first_two(i)[1]).collect();
        assert_eq!((firsts.len(), seconds.len()), (36, 36));
    }
}

#[test]
fn report_steps_are_bounded() {
    let p = |games, every| RolloutParams {
        games,
        every,
        ..RolloutParams::default()
    };
    assert_eq!(p(100, 0).report_step(), 10);
    assert_eq!(p(100, 1).report_step(), 1);
    assert_eq!(p(MAX_GAMES, 1).report_step(), MAX_GAMES / MAX_REPORTS);
    assert_eq!(p(1, 0).report_step(), 1);
}
