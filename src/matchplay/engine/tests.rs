use super::*;

#[test]
fn spec_parses_cutechess_words() {
    let w: Vec<String> = ["cmd=./gulbara --x", "name=a", "option.engine.ply=1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let s = EngineSpec::parse(&w).unwrap();
    assert_eq!(s.cmd, "./gulbara --x");
    assert_eq!(s.name, "a");
    assert_eq!(s.options, vec![("engine.ply".into(), "1".into())]);
    for bad in [
        "option.rules.exempt_rolls=0",
        "option.game.variant=backgammon",
    ] {
        let w: Vec<String> = ["cmd=x", bad].iter().map(|s| s.to_string()).collect();
        let e = EngineSpec::parse(&w).expect_err(bad);
        assert!(matches!(e, SpecError::GameOption(_)), "{e}");
        assert!(e.to_string().contains("the match sets the game"), "{e}");
    }
    assert_eq!(
        EngineSpec::parse(&["name=x".to_string()]),
        Err(SpecError::NoCmd)
    );
    assert_eq!(
        EngineSpec::parse(&["bogus".to_string()]),
        Err(SpecError::NotKeyValue("bogus".into()))
    );
}

#[test]
fn a_missing_program_keeps_the_systems_error() {
    let spec = EngineSpec {
        cmd: "/nonexistent/gulbara-engine".into(),
        name: "x".into(),
        options: Vec::new(),
    };
    let Err(e) = ExternalEngine::start(&spec, &[], Duration::from_secs(5)) else {
        panic!("a missing program started");
    };
    let source = std::error::Error::source(&e).expect("a source");
    let io = source
        .downcast_ref::<std::io::Error>()
        .expect("an io::Error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn lines_are_read_up_to_the_limit() {
    let read_all = |data: &[u8], max: usize, cap: usize| {
        // A small buffer so that lines span several fills.
        let mut r = BufReader::with_capacity(cap, data);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let got = read_line_bounded(&mut r, &mut buf, max);
            match got {
                LineRead::Line => out.push(String::from_utf8_lossy(&buf).to_string()),
                LineRead::End => break,
                LineRead::TooLong => {
                    out.push("<too long>".into());
                    break;
                }
            }
        }
        out
    };
    for cap in [1, 3, 64] {
        assert_eq!(
            read_all(b"ab\ncd\n\nlast", 4, cap),
            ["ab", "cd", "", "last"]
        );
        assert_eq!(read_all(b"abcd\nefgh", 4, cap), ["abcd", "efgh"]);
        assert_eq!(read_all(b"ab\nabcde\nxy\n", 4, cap), ["ab", "<too long>"]);
        assert_eq!(read_all(b"abcdefgh", 4, cap), ["<too long>"]);
        assert!(read_all(b"", 4, cap).is_empty());
    }
    // The limit itself: a line of exactly MAX_LINE_BYTES is fine.
    let mut data = vec![b'x'; MAX_LINE_BYTES];
    data.push(b'\n');
    let mut r = BufReader::new(&data[..]);
    let mut buf = Vec::new();
    assert_eq!(
        read_line_bounded(&mut r, &mut buf, MAX_LINE_BYTES),
        LineRead::Line
    );
    assert_eq!(buf.len(), MAX_LINE_BYTES);
    data.insert(0, b'x');
    let mut r = BufReader::new(&data[..]);
    assert_eq!(
        read_line_bounded(&mut r, &mut buf, MAX_LINE_BYTES),
        LineRead::TooLong
    );
    assert!(buf.capacity() <= 2 * MAX_LINE_BYTES);
}

#[test]
fn an_endless_line_is_a_fault_not_a_memory_sink() {
    // An endless stream of 'x' without a line ending.
    let endless = std::io::repeat(b'x');
    let rx = reader_thread(endless);
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(Incoming::TooLong) => {}
        Ok(Incoming::Line(l)) => panic!("got a line of {} bytes", l.len()),
        Err(e) => panic!("no answer: {e}"),
    }
    // The reader has stopped.
    assert!(rx.recv_timeout(Duration::from_secs(30)).is_err());
}

/// A fake engine on a TCP port: it answers the handshake, `go` and
/// `go cube`, and hands back every line it was sent, up to `quit`.
fn fake_engine() -> (String, std::thread::JoinHandle<Vec<String>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = listener.local_addr().expect("its address");
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("the client");
        let mut out = stream.try_clone().expect("a writer");
        let mut got = Vec::new();
        for line in BufReader::new(stream).lines() {
            let line = line.expect("a line");
            let answer = match line.as_str() {
                "ubgi" => Some("ubgiok"),
                "isready" => Some("readyok"),
                "go" => Some("bestmove 24/18 13/8"),
                "go cube" => Some("bestcube take"),
                _ => None,
            };
            let quit = line == "quit";
            got.push(line);
            if let Some(a) = answer {
                writeln!(out, "{a}").expect("an answer");
            }
            if quit {
                break;
            }
        }
        got
    });
    (format!("tcp://{addr}"), server)
}

#[test]
fn the_client_sends_the_protocols_lines() {
    let (cmd, server) = fake_engine();
    let spec = EngineSpec {
        cmd,
        name: "fake".into(),
        options: vec![("engine.ply".into(), "1".into())],
    };
    let extra = [("game.variant".to_string(), "backgammon".to_string())];
    let timeout = Duration::from_secs(30);
    let mut e = ExternalEngine::start(&spec, &extra, timeout).expect("the handshake");
    let start = crate::rules::GameState::start_of(crate::rules::Variant::Backgammon, Side::White);
    let text = notation::state_text(&start);
    assert_eq!(
        e.best_move(&text, Some((6, 5)), timeout).expect("a move"),
        ["24/18", "13/8"]
    );
    assert_eq!(
        e.best_cube(&text, true, timeout).expect("an answer"),
        "take"
    );
    e.quit();
    let position = format!("position board {text}");
    assert_eq!(
        server.join().expect("the fake engine"),
        [
            "ubgi",
            "set game.variant backgammon",
            "set engine.ply 1",
            "isready",
            &position,
            "dice 6 5",
            "go",
            &position,
            "double",
            "go cube",
            "quit"
        ]
    );
}

#[test]
fn sessions_are_told_in_the_protocols_words() {
    let rules = SessionRules {
        cube: true,
        jacoby: true,
        beavers: false,
        crawford: true,
    };
    let money = MatchState::money(rules);
    assert_eq!(
        NewSession::of(&money).to_string(),
        "newsession type money jacoby on beavers off cube on"
    );
    // Jacoby is money play's: a match is not told it.
    let match_rules = SessionRules {
        cube: false,
        jacoby: false,
        ..rules
    };
    let m = MatchState::match_to(5, match_rules).expect("a match");
    assert_eq!(
        NewSession::of(&m).to_string(),
        "newsession type match length 5 crawford on cube off"
    );
    let score = SetScore {
        white: 4,
        black: 2,
        crawford: Some(true),
    };
    assert_eq!(score.to_string(), "setscore 4 2 crawford");
    let cube = SetCube {
        value: 2,
        owner: crate::cube::CubeOwner::Side(Side::Black),
    };
    assert_eq!(cube.to_string(), "setcube value 2 owner black");
    // Each reads back as the session it announces.
    for line in [
        NewSession::of(&money).to_string(),
        NewSession::of(&m).to_string(),
    ] {
        let back = crate::protocol::parse_command(&line).expect("a command");
        let mut engine = crate::engine::Engine::with_config(Default::default());
        crate::protocol::apply_setup(&mut engine, back).expect("applied");
        let told = engine.session();
        let want = if line.contains("money") { &money } else { &m };
        assert_eq!(
            (told.kind(), told.rules()),
            (want.kind(), want.rules()),
            "{line}"
        );
    }
}

#[test]
fn shell_words_honour_quotes() {
    assert_eq!(shell_words("a 'b c' \"d\"  e"), vec!["a", "b c", "d", "e"]);
    assert_eq!(
        shell_words("python3 -c 'print(1)'"),
        vec!["python3", "-c", "print(1)"]
    );
}
