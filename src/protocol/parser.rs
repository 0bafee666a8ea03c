//! The command parser: one protocol line in, one typed [`Command`] out.
//!
//! It reads the line's command word with the [`Words`] cursor (a nom
//! parser) and hands the rest to that command's own `parse` (one file per
//! command under [`crate::protocol::cmd`]). It knows nothing about sockets,
//! sessions or the search: it checks syntax and the shape of values
//! (numbers, dice, position text) and leaves every question about the game
//! (is this move legal? is a search running?) to the session.

pub use super::cmd::{
    Answer, Base, Command, DiceCmd, Double, Eval, Get, Go, GoParams, Hint, IsReady, Keys, Legal,
    NewGame, NewSession, PositionCmd, Quit, RolloutArgs, Set, SetCube, SetScore, SetTurn, Show,
    Stop, Ubgi, Variants,
};
pub use super::error::{ErrorCode, ProtocolError, quote};
pub use super::words::Words;

use crate::cube::CubeAnswer;

/// Parses one line (without its line ending).
pub fn parse_command(line: &str) -> Result<Command, ProtocolError> {
    let mut words = Words::new(line);
    let Some(kw) = words.next() else {
        return Ok(Command::Empty);
    };
    let w = &mut words;
    Ok(match kw {
        "ubgi" => Command::Ubgi(Ubgi::parse(w)?),
        "isready" => Command::IsReady(IsReady::parse(w)?),
        "newgame" => Command::NewGame(NewGame::parse(w)?),
        "quit" => Command::Quit(Quit::parse(w)?),
        "stop" => Command::Stop(Stop::parse(w)?),
        "keys" => Command::Keys(Keys::parse(w)?),
        "variants" => Command::Variants(Variants::parse(w)?),
        "show" => Command::Show(Show::parse(w)?),
        "eval" => Command::Eval(Eval::parse(w)?),
        "set" => Command::Set(Set::parse(w)?),
        "setoption" => Command::Set(Set::parse_setoption(w)?),
        "get" => Command::Get(Get::parse(w)?),
        "position" => Command::Position(PositionCmd::parse(w)?),
        "dice" => Command::Dice(DiceCmd::parse(w)?),
        "go" => Command::Go(Go::parse(w)?),
        "legal" => Command::Legal(Legal::parse(w)?),
        "hint" => Command::Hint(Hint::parse(w)?),
        "rollout" => Command::Rollout(RolloutArgs::parse(w)?),
        "newsession" => Command::NewSession(NewSession::parse(w)?),
        "setscore" => Command::SetScore(SetScore::parse(w)?),
        "setcube" => Command::SetCube(SetCube::parse(w)?),
        "setturn" => Command::SetTurn(SetTurn::parse(w)?),
        "double" => Command::Double(Double::parse(w)?),
        "take" => Command::Answer(Answer::parse(CubeAnswer::Take, kw, w)?),
        "drop" | "pass" => Command::Answer(Answer::parse(CubeAnswer::Drop, kw, w)?),
        "beaver" => Command::Answer(Answer::parse(CubeAnswer::Beaver, kw, w)?),
        "uci" | "ucinewgame" | "ponderhit" | "register" | "debug" | "d" => {
            return Err(ProtocolError::unsupported(format!(
                "{} is not part of this protocol (see protocol/SPEC.md)",
                quote(kw)
            )));
        }
        _ => {
            return Err(ProtocolError::new(
                ErrorCode::UnknownCommand,
                format!("unknown command {}", quote(kw)),
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ply;
    use crate::notation;
    use crate::rules::Side;

    fn code(line: &str) -> ErrorCode {
        parse_command(line).unwrap_err().code
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command("ubgi").unwrap(), Command::Ubgi(Ubgi));
        assert_eq!(
            parse_command("  isready \t").unwrap(),
            Command::IsReady(IsReady)
        );
        assert_eq!(parse_command("").unwrap(), Command::Empty);
        assert_eq!(parse_command(" \t ").unwrap(), Command::Empty);
        assert_eq!(code("isready now"), ErrorCode::BadCommand);
        assert_eq!(code("ISREADY"), ErrorCode::UnknownCommand);
        assert_eq!(code("uci"), ErrorCode::Unsupported);
    }

    #[test]
    fn set_forms() {
        let want = Command::Set(Set::new("engine.ply", "1"));
        assert_eq!(parse_command("set engine.ply 1").unwrap(), want);
        assert_eq!(
            parse_command("setoption name engine.ply value 1").unwrap(),
            want
        );
        assert_eq!(
            parse_command("setoption\tname  engine.ply\tvalue   1 ").unwrap(),
            want
        );
        assert_eq!(code("set engine.ply"), ErrorCode::BadCommand);
        assert_eq!(code("setoption name engine.ply"), ErrorCode::BadCommand);
        assert_eq!(code("get"), ErrorCode::BadCommand);
    }

    #[test]
    fn position_forms() {
        let c = parse_command("position startpos b moves 65 24/13").unwrap();
        assert_eq!(
            c,
            Command::Position(PositionCmd {
                base: Base::Start(Side::Black),
                moves: vec!["65".into(), "24/13".into()],
            })
        );
        let c = parse_command(&format!("position board {} moves", notation::START_TEXT)).unwrap();
        assert!(
            matches!(c, Command::Position(PositionCmd { base: Base::Board(_), ref moves }) if moves.is_empty())
        );
        let spaced = "0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 w 0 0 rem=3x2";
        let c = parse_command(&format!("position board {spaced}")).unwrap();
        assert!(matches!(
            c,
            Command::Position(PositionCmd {
                base: Base::Board(_),
                ..
            })
        ));
        // The board is read by the session, which knows the variant.
        let c = parse_command("position board 1,2,3 w 0 0").unwrap();
        assert!(
            matches!(c, Command::Position(PositionCmd { base: Base::Board(ref t), .. }) if t.len() == 4)
        );
        let c = parse_command("position gnubgid 4HPwATDgc/ABMA moves 31 8/5 6/5").unwrap();
        assert!(
            matches!(c, Command::Position(PositionCmd { base: Base::GnubgId(ref id), ref moves }) if id == "4HPwATDgc/ABMA" && moves.len() == 3)
        );
        assert_eq!(code("position gnubgid"), ErrorCode::BadCommand);
        assert_eq!(code("position gnubgid moves 31"), ErrorCode::BadCommand);
        assert_eq!(code("position startpos 65"), ErrorCode::BadCommand);
        assert_eq!(code("position"), ErrorCode::BadCommand);
    }

    #[test]
    fn go_and_dice() {
        let c = parse_command("go movetime 100 nodes 5 ply 1 infinite").unwrap();
        assert_eq!(
            c,
            Command::Go(Go(GoParams {
                movetime: Some(100),
                nodes: Some(5),
                ply: Ply::new(1),
                infinite: true,
                cube: false,
                turn: false,
                role: false,
            }))
        );
        assert!(matches!(
            parse_command("go cube").unwrap(),
            Command::Go(Go(GoParams { cube: true, .. }))
        ));
        // UBGI v0.1's roles and depth.
        assert!(matches!(
            parse_command("go role cube").unwrap(),
            Command::Go(Go(GoParams {
                cube: true,
                role: true,
                turn: false,
                ..
            }))
        ));
        assert!(matches!(
            parse_command("go role turn depth 1 trials 36").unwrap(),
            Command::Go(Go(GoParams { cube: false, role: true, turn: true, ply: Some(p), .. })) if p == Ply::new(1).unwrap()
        ));
        assert!(matches!(
            parse_command("go role chequer movetime 10").unwrap(),
            Command::Go(Go(GoParams {
                cube: false,
                role: true,
                turn: false,
                movetime: Some(10),
                ..
            }))
        ));
        assert_eq!(code("go role queen"), ErrorCode::BadValue);
        assert_eq!(code("go role"), ErrorCode::BadCommand);
        assert_eq!(code("go depth 4"), ErrorCode::BadValue);
        assert_eq!(code("go movetime"), ErrorCode::BadCommand);
        assert_eq!(code("go movetime -1"), ErrorCode::BadValue);
        assert_eq!(code("go ply 9"), ErrorCode::BadValue);
        assert_eq!(code("go ponder"), ErrorCode::Unsupported);
        assert_eq!(
            parse_command("dice 6 5").unwrap(),
            Command::Dice(DiceCmd { d1: 6, d2: 5 })
        );
        assert_eq!(
            parse_command("dice 33").unwrap(),
            Command::Dice(DiceCmd { d1: 3, d2: 3 })
        );
        assert_eq!(code("dice 7 1"), ErrorCode::BadValue);
        assert_eq!(code("dice"), ErrorCode::BadCommand);
    }

    #[test]
    fn legal_and_hint() {
        assert_eq!(
            parse_command("legal limit 3").unwrap(),
            Command::Legal(Legal {
                limit: 3,
                orders: false
            })
        );
        assert_eq!(
            parse_command("hint").unwrap(),
            Command::Hint(Hint {
                count: 5,
                rollout: None,
                probs: false
            })
        );
        assert_eq!(
            parse_command("hint 3 probs").unwrap(),
            Command::Hint(Hint {
                count: 3,
                rollout: None,
                probs: true
            })
        );
        assert_eq!(
            parse_command("hint probs").unwrap(),
            Command::Hint(Hint {
                count: 5,
                rollout: None,
                probs: true
            })
        );
        assert_eq!(code("hint 0"), ErrorCode::BadValue);
        assert_eq!(code("legal 3"), ErrorCode::BadCommand);
    }

    #[test]
    fn rollout_forms() {
        let c = parse_command("rollout").unwrap();
        assert_eq!(c, Command::Rollout(RolloutArgs::default()));
        let c = parse_command(
            "rollout games 72 truncate 10 ply 2 seed 9 luck off every 8 moves 24/18 24/13 24/13",
        )
        .unwrap();
        assert_eq!(
            c,
            Command::Rollout(RolloutArgs {
                games: 72,
                truncate: 10,
                ply: Ply::new(2).unwrap(),
                seed: Some(9),
                luck: false,
                every: 8,
                moves: Some(vec!["24/18".into(), "24/13".into(), "24/13".into()]),
            })
        );
        for bad in [
            "rollout games 0",
            "rollout games 1000001",
            "rollout ply 3",
            "rollout truncate 99999",
            "rollout luck maybe",
            "rollout seed -1",
            "hint 101 rollout 10",
            "hint 3 rollout 0",
        ] {
            assert_eq!(code(bad), ErrorCode::BadValue, "{bad}");
        }
        for bad in [
            "rollout games",
            "rollout moves",
            "rollout bogus 1",
            "hint 3 rollout",
            "hint 3 rollout 10 moves 24/18",
            "hint 3 rollout 10 games 5",
            "hint 3 4",
        ] {
            assert_eq!(code(bad), ErrorCode::BadCommand, "{bad}");
        }
        let c = parse_command("hint 3 rollout 36 truncate 5 seed 2").unwrap();
        let Command::Hint(Hint {
            count: 3,
            rollout: Some(r),
            ..
        }) = c
        else {
            panic!("{c:?}");
        };
        assert_eq!((r.games, r.truncate, r.seed), (36, 5, Some(2)));
        assert!(matches!(
            parse_command("hint rollout 36").unwrap(),
            Command::Hint(Hint {
                count: 5,
                rollout: Some(_),
                ..
            })
        ));
    }

    #[test]
    fn session_commands() {
        assert_eq!(
            parse_command("setscore 3 2 postcrawford").unwrap(),
            Command::SetScore(SetScore {
                white: 3,
                black: 2,
                crawford: Some(false)
            })
        );
        assert_eq!(parse_command("double").unwrap(), Command::Double(Double));
        assert_eq!(
            parse_command("pass").unwrap(),
            Command::Answer(Answer(CubeAnswer::Drop))
        );
        assert!(matches!(
            parse_command("newsession type match length 5 crawford off").unwrap(),
            Command::NewSession(NewSession {
                length: Some(5),
                crawford: Some(false),
                ..
            })
        ));
        assert_eq!(
            code("newsession type money length 5"),
            ErrorCode::BadCommand
        );
        assert_eq!(code("newsession type chess"), ErrorCode::BadValue);
        assert_eq!(code("setscore 1"), ErrorCode::BadCommand);
        assert_eq!(code("setscore 1 2 3"), ErrorCode::BadCommand);
        assert_eq!(code("setcube value 2 owner nobody"), ErrorCode::BadValue);
        assert_eq!(code("double now"), ErrorCode::BadCommand);
    }

    #[test]
    fn long_tokens_are_quoted_short() {
        let long = "x".repeat(500);
        let e = parse_command(&long).unwrap_err();
        assert!(e.to_string().len() < 100);
    }
}
