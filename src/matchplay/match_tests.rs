use super::*;
use crate::rules::Side;

fn spec(cmd: &str, name: &str, opts: &[(&str, &str)]) -> EngineSpec {
    EngineSpec {
        cmd: cmd.into(),
        name: name.into(),
        options: opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

/// A quiet match of `engines` on two jobs, ten seconds a decision.
fn config(engines: [EngineSpec; 2], rules: RuleOptions, games: usize, seed: u64) -> MatchConfig {
    MatchConfig {
        move_timeout: Duration::from_secs(10),
        ..MatchConfig::quiet(engines, rules, games, seed, 2)
    }
}

#[test]
fn builtin_match_is_reproducible_and_counts_add_up() {
    let cfg = MatchConfig {
        luck_adjust: true,
        ..config(
            [
                spec("builtin:heuristic", "h0", &[("engine.ply", "1")]),
                spec("builtin:random", "random", &[]),
            ],
            RuleOptions::default(),
            8,
            11,
        )
    };
    let a = run_match(&cfg);
    assert_eq!(a.games, 8);
    assert_eq!(a.forfeits, [0, 0]);
    assert_eq!(a.wins[0] + a.wins[1] + a.stuck, 8);
    // The same games whatever the number of jobs (the random player
    // draws from the position, not from a per-process stream).
    let b = run_match(&MatchConfig {
        jobs: 1,
        ..cfg.clone()
    });
    assert_eq!((a.wins, a.mars, a.ppg), (b.wins, b.mars, b.ppg));
    assert!(a.luck_ppg.is_some());
}

#[test]
fn every_variant_plays_with_luck_judged_by_its_baseline() {
    // Gul bara's family judges luck by its network (above).
    let by_baseline = Variant::ALL
        .into_iter()
        .filter(|v| v.spec().eval != EvalFamily::GulBara);
    for v in by_baseline {
        let cfg = MatchConfig {
            luck_adjust: true,
            ..config(
                [
                    spec("builtin:net", "net", &[("engine.ply", "1")]),
                    spec("builtin:random", "random", &[]),
                ],
                RuleOptions::for_variant(v),
                4,
                5,
            )
        };
        let a = run_match(&cfg);
        assert_eq!(a.variant, v);
        assert_eq!(a.games, 4);
        assert_eq!(a.forfeits, [0, 0], "{v}: {:?}", a.forfeit_log);
        assert_eq!(a.wins[0] + a.wins[1], 4, "{v}");
        assert!(a.ppg.abs() <= f64::from(v.spec().scores.max()));
        assert!(a.luck_ppg.is_some());
        let json: serde_json::Value = serde_json::from_str(&a.to_json()).unwrap();
        assert_eq!(json["variant"], v.to_string());
        let b = run_match(&MatchConfig { jobs: 1, ..cfg });
        assert_eq!((a.wins, a.mars, a.ppg), (b.wins, b.mars, b.ppg));
        assert_eq!(a.luck_ppg, b.luck_ppg);
    }
    // Luck in another game is judged by that game's baseline.
    let s = GameState::start_of(Variant::Backgammon, Side::White);
    let o = RuleOptions::for_variant(Variant::Backgammon);
    let by_net = roll_luck(
        LuckReference::Net.evaluator(Variant::Backgammon).as_ref(),
        &s,
        &o,
        (6, 5),
    );
    let by_baseline = roll_luck(
        crate::eval::variants::baseline(Variant::Backgammon),
        &s,
        &o,
        (6, 5),
    );
    assert_eq!(by_net, by_baseline);
}

#[test]
fn matches_with_the_cube_reach_the_length_and_their_records_replay() {
    let dir = std::env::temp_dir().join(format!("gulbara-cube-matches-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = MatchConfig {
        records: Some(dir.clone()),
        session: "match 5 cube on crawford on".parse().unwrap(),
        ..config(
            [
                spec("builtin:net", "net", &[("engine.ply", "1")]),
                spec("builtin:heuristic", "base", &[("engine.ply", "1")]),
            ],
            RuleOptions::for_variant(Variant::Backgammon),
            6,
            3,
        )
    };
    let a = run_match(&cfg);
    let m = a.matches.expect("match figures");
    assert_eq!((m.length, m.played), (5, 6));
    assert_eq!(m.wins[0] + m.wins[1] + m.unfinished, 6);
    for p in &a.pairs {
        assert_eq!(p.matches.len(), 2);
        assert_eq!(
            p.matches.iter().map(|m| m.white_engine).collect::<Vec<_>>(),
            [0, 1]
        );
        for r in &p.matches {
            let w = r.winner.expect("a finished match");
            assert!(r.score[w] >= 5 && r.score[1 - w] < 5, "{r:?}");
        }
    }
    // Every double was answered, by the other engine.
    let [c0, c1] = a.cube;
    assert!(c0.doubles + c1.doubles > 0, "no double in six matches");
    assert_eq!(c0.doubles, c1.takes + c1.drops + c1.beavers);
    assert_eq!(c1.doubles, c0.takes + c0.drops + c0.beavers);
    // The same matches whatever the number of jobs.
    let b = run_match(&MatchConfig {
        jobs: 1,
        records: None,
        ..cfg.clone()
    });
    assert_eq!(b.matches, a.matches);
    assert_eq!((a.cube, a.ppg, a.games), (b.cube, b.ppg, b.games));
    // One record per match, every game in it, replaying to its result.
    let mut replayed = 0;
    for n in 1..=6 {
        let text = std::fs::read_to_string(dir.join(format!("match-{n:06}.txt"))).unwrap();
        assert!(text.contains("[Session \"match 5 cube on crawford on\"]"));
        let (_, games) = crate::record::replay(&text).unwrap();
        let mat = std::fs::read_to_string(dir.join(format!("match-{n:06}.mat"))).unwrap();
        assert!(mat.contains(" 5 point match"));
        let (_, from_mat) = crate::anyrecord::replay_any(&mat).unwrap();
        assert_eq!(games.len(), from_mat.len());
        for (g, h) in games.iter().zip(&from_mat) {
            assert_eq!(g.final_state, h.final_state);
            assert_eq!(g.dropped_by, h.dropped_by);
            let doubles = |g: &crate::record::ReplayedGame| -> Vec<_> {
                g.turns.iter().map(|t| t.double).collect()
            };
            assert_eq!(doubles(g), doubles(h));
        }
        replayed += games.len();
    }
    assert_eq!(replayed, a.games);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rotating match plays its games in the rotation's order, each
/// under its own rules, and its records say so and replay game by game.
#[test]
fn a_rotating_match_plays_its_games_in_turn() {
    let dir = std::env::temp_dir().join(format!("gulbara-rotation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rotation: Vec<RuleOptions> = [Variant::Portes, Variant::Plakoto, Variant::Fevga]
        .into_iter()
        .map(RuleOptions::for_variant)
        .collect();
    let cfg = MatchConfig {
        records: Some(dir.clone()),
        session: "match 5 cube off crawford on".parse().unwrap(),
        rotation: rotation.clone(),
        winner_starts: true,
        ..config(
            [
                spec("builtin:net", "net", &[("engine.ply", "1")]),
                spec("builtin:random", "random", &[]),
            ],
            rotation[0],
            4,
            11,
        )
    };
    let a = run_match(&cfg);
    assert_eq!(a.forfeits, [0, 0], "{:?}", a.forfeit_log);
    assert_eq!(
        a.rotation,
        [Variant::Portes, Variant::Plakoto, Variant::Fevga]
    );
    assert!(
        a.to_text().contains("rotation portes,plakoto,fevga\n"),
        "{}",
        a.to_text()
    );
    assert!(
        a.to_text()
            .contains("the winner of each game started the next\n")
    );
    let m = a.matches.expect("match figures");
    assert_eq!(m.played, 4);
    let mut longest = 0;
    let mut by_winner = 0;
    for n in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("match-{n:06}.txt"))).unwrap();
        assert!(text.contains("; [Rotation \"portes,plakoto,fevga\"]"));
        let (opts, games) = crate::record::replay(&text).unwrap();
        assert_eq!(opts.variant, Variant::Portes);
        for (k, g) in games.iter().enumerate() {
            assert_eq!(g.opts, rotation[k % 3], "match {n} game {}", k + 1);
            assert_eq!(g.final_state.variant, rotation[k % 3].variant);
        }
        // The first game opens with the throw; each later one is
        // started by the last game's winner, with no throw.
        let openings: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(" Opening "))
            .collect();
        assert_eq!(openings.len(), games.len());
        assert!(
            !openings[0].starts_with(" Opening winner"),
            "{}",
            openings[0]
        );
        for (k, pair) in games.windows(2).enumerate() {
            let last_winner = pair[0].final_state.result().and_then(|r| r.winner);
            if let Some(w) = last_winner {
                assert_eq!(pair[1].starter, w, "match {n} game {}", k + 2);
                assert!(openings[k + 1].starts_with(" Opening winner starter"));
                by_winner += 1;
            }
        }
        longest = longest.max(games.len());
        // No .mat: gnubg has no Plakoto nor Fevga.
        assert!(!dir.join(format!("match-{n:06}.mat")).exists());
    }
    assert!(
        longest >= 3,
        "a match of {longest} games never reached Fevga"
    );
    assert!(by_winner >= 2, "{by_winner} games started by a winner");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rule_settings_name_the_variant_first() {
    let mut o = RuleOptions::for_variant(Variant::LongNardy);
    o.set("six_block", "per_step").unwrap();
    let keys: Vec<String> = rule_settings(&o)
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    assert_eq!(
        keys,
        [
            "game.variant long_nardy",
            "rules.opening reroll",
            "rules.head_first_turn needs_second",
            "rules.six_block per_step"
        ]
    );
    let g = rule_settings(&RuleOptions::default());
    assert_eq!(g.len(), 4);
    assert!(g.iter().all(|(k, _)| k.starts_with("rules.")));
    assert!(parse_rules(Variant::Backgammon, &["opening=reroll".into()]).is_ok());
    assert!(parse_rules(Variant::Backgammon, &["remainder=lost".into()]).is_err());
    assert!(parse_rules(Variant::ShortNardy, &["opening".into()]).is_err());
}
