use super::*;

/// Part of a file gnubg 1.07 exported (a money session, player 0 the
/// left column), with a double and a take.
const GNUBG_EXPORT: &str = "; [EventDate \"2026.12.01\"]

 0 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23 
  2) 52: 13/8 13/11              63: 8/5 11/5 
  3) 31:                          Doubles => 2
  4)  Takes                      21: 6/4 5/4 
";

#[test]
fn reads_gnubg_columns_and_cube_actions() {
    let rec = to_record(GNUBG_EXPORT).unwrap();
    let g = &rec.games[0];
    assert_eq!(g.players, ["gnubg".to_string(), "root".to_string()]);
    assert_eq!(g.starter, Side::Black);
    let sides: Vec<Side> = g.turns.iter().map(|t| t.side).collect();
    use Side::*;
    assert_eq!(sides, [Black, White, Black, White, Black]);
    assert_eq!(g.turns[1].moves, ["13/8", "13/11"]);
    assert!(g.turns[3].moves.is_empty());
    assert_eq!(g.result, None);
}

/// gnubg writes a resignation as `Wins N points` after the last roll,
/// as it writes a game played out: the rules tell them apart.
#[test]
fn a_resignation_is_not_a_played_out_result() {
    let text = " 0 point match

 Game 1
 gnubg : 0                      root : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 61: 13/7 8/7
                                  Wins 1 point
";
    let rec = to_record(text).unwrap();
    let g = &rec.games[0];
    assert_eq!(g.turns.len(), 3);
    assert_eq!(g.result, None);
    assert_eq!(
        g.note.as_deref(),
        Some("ended by a resignation: Wins 1 point")
    );
    let (_, games) = crate::anyrecord::replay_any(text).unwrap();
    assert!(games[0].final_state.result().is_none());
}

#[test]
fn rejects_what_is_not_a_mat_file() {
    assert!(!is_mat("; [Variant \"backgammon\"]\n\n Game 1\n"));
    assert!(is_mat("; x\n\n 5 point match\n"));
    assert!(to_record(" Game 1\n").is_err());
    let bad = GNUBG_EXPORT.replace("13/8 13/11", "13/8 hello");
    let e = to_record(&bad).unwrap_err();
    assert_eq!(
        e,
        MatReadError::Syntax {
            line: 8,
            why: MatSyntax::Word("hello".into())
        }
    );
    assert_eq!(
        e.to_string(),
        "line 8: unexpected 'hello' in a .mat move line"
    );
    let bad = GNUBG_EXPORT.replace("13/8 13/11", "13/8 13/x");
    assert!(matches!(
        to_record(&bad),
        Err(MatReadError::Syntax {
            line: 8,
            why: MatSyntax::MoveText(_)
        })
    ));
    let bad = GNUBG_EXPORT.replace("; [EventDate", "; [Variant \"gulbara\"]\n; [EventDate");
    assert_eq!(
        to_record(&bad).unwrap_err().to_string(),
        "line 1: gulbara games have no .mat form"
    );
}
