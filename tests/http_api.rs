//! The JSON HTTP API (`gulbara serve --http`, `/api/v1/`) over real HTTP:
//! a started server process on port 0, raw requests on real sockets. Its
//! answers agree with the line protocol's for every game; bad requests
//! (malformed JSON, oversized bodies, unknown games, impossible positions,
//! stalled clients) get a 4xx JSON refusal and leave the server serving.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_gulbara");

/// A server process; killed when dropped.
struct Server {
    child: Child,
    http: SocketAddr,
    tcp: Option<SocketAddr>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `gulbara serve --http 127.0.0.1:0 args...` and reads the
/// addresses it announces.
fn start(args: &[&str]) -> Server {
    let mut child = Command::new(BIN)
        .args(["serve", "--http", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gulbara serve");
    let want_tcp = args.contains(&"--listen");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let (mut http, mut tcp) = (None, None);
    while http.is_none() || (want_tcp && tcp.is_none()) {
        let line = lines.next().expect("a listening line").expect("read");
        let addr = line.strip_prefix("listening ").expect("listening ...");
        match addr.strip_prefix("http://") {
            Some(a) => http = Some(a.trim_end_matches('/').parse().expect("address")),
            None => tcp = Some(addr.parse().expect("address")),
        }
    }
    Server {
        child,
        http: http.expect("http"),
        tcp,
    }
}

/// An HTTP answer: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: HashMap<String, String>,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Reads one HTTP/1.1 answer (the server closes after it, or it has a
/// Content-Length).
fn read_answer(s: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let (head_end, len) = loop {
        let n = s.read(&mut buf).expect("read the answer");
        assert!(n > 0, "connection closed before an answer: {raw:?}");
        raw.extend_from_slice(&buf[..n]);
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..at]).to_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse::<usize>().expect("length"));
            break (at + 4, len);
        }
    };
    match len {
        Some(len) => {
            while raw.len() < head_end + len {
                let n = s.read(&mut buf).expect("read the body");
                assert!(n > 0, "the body was cut short");
                raw.extend_from_slice(&buf[..n]);
            }
        }
        None => {
            let _ = s.read_to_end(&mut raw);
        }
    }
    let head = String::from_utf8_lossy(&raw[..head_end - 4]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))
        .collect();
    let body = String::from_utf8_lossy(&raw[head_end..]).into_owned();
    Answer {
        status,
        headers,
        body,
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s
}

/// Sends `method path` with `extra` header lines and `body`.
fn request(addr: SocketAddr, method: &str, path: &str, extra: &str, body: &[u8]) -> Answer {
    let mut s = connect(addr);
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    read_answer(&mut s)
}

fn post(addr: SocketAddr, op: &str, body: &Value) -> (u16, Value) {
    let a = request(
        addr,
        "POST",
        &format!("/api/v1/{op}"),
        "Content-Type: application/json\r\n",
        body.to_string().as_bytes(),
    );
    let v = a.json();
    (a.status, v)
}

fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let a = request(addr, "GET", path, "", b"");
    let v = a.json();
    (a.status, v)
}

/// A refusal: `status`, `code`, and a message.
fn assert_refused(answer: (u16, Value), status: u16, code: &str) -> String {
    let (s, v) = answer;
    assert_eq!(s, status, "{v}");
    assert_eq!(v["code"], code, "{v}");
    let msg = v["message"].as_str().expect("a message").to_string();
    assert!(!msg.is_empty());
    msg
}

/// The line protocol's answer lines to `lines` (stdio, one process).
fn protocol(lines: &str) -> Vec<String> {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gulbara");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("run");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn line_after<'a>(lines: &'a [String], prefix: &str) -> &'a str {
    lines
        .iter()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {lines:?}"))
}

const GAMES: [&str; 9] = [
    "gulbara",
    "long_nardy",
    "short_nardy",
    "backgammon",
    "fevga",
    "portes",
    "tabla",
    "plakoto",
    "tapa",
];

#[test]
fn every_game_answers_as_the_line_protocol_does() {
    let server = start(&[]);
    let a = server.http;
    for game in GAMES {
        for dice in ["65", "44"] {
            let (d1, d2) = (&dice[..1], &dice[1..]);
            let said = protocol(&format!(
                "set game.variant {game}\nposition startpos\ndice {d1} {d2}\nlegal limit 1\ngo ply 1\n"
            ));
            let best = line_after(&said, "bestmove ");
            let count: usize = line_after(&said, "legal count ")
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let (s, mv) = post(a, "move", &json!({"game": game, "dice": dice, "ply": 1}));
            assert_eq!(s, 200, "{mv}");
            assert_eq!(mv["best"], best, "{game} {dice}: {mv}");
            assert_eq!(mv["plays"][0]["play"], best);
            assert_eq!(mv["ply"], 1);
            let eq: Vec<f64> = mv["plays"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["equity"].as_f64().unwrap())
                .collect();
            assert!(eq.windows(2).all(|w| w[0] >= w[1]), "ranked: {eq:?}");
            let (s, lg) = post(
                a,
                "legal",
                &json!({"game": game, "dice": [d1.parse::<u8>().unwrap(), d2.parse::<u8>().unwrap()]}),
            );
            assert_eq!(s, 200, "{lg}");
            assert_eq!(lg["count"], count, "{game} {dice}");
            assert_eq!(lg["plays"].as_array().unwrap().len(), count);
            // The best play of a one-stage turn is one of the legal plays,
            // and both reach the same position.
            let one_stage = lg["dice"].as_array().unwrap().len()
                == mv["dice"].as_array().unwrap().len()
                && mv["plays"][0]["steps"].as_array().unwrap().len()
                    <= lg["dice"].as_array().unwrap().len();
            if one_stage {
                let same = lg["plays"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["play"] == best)
                    .unwrap_or_else(|| panic!("{game} {dice}: {best} not among the legal plays"));
                assert_eq!(same["position"], mv["plays"][0]["position"]);
            }
        }
        // Before the roll: the chances of the side to move, as eval says.
        let said = protocol(&format!(
            "set game.variant {game}\nset engine.ply 1\nposition startpos\neval\n"
        ));
        let ev = line_after(&said, "evaluation ");
        let words: Vec<&str> = ev.split_whitespace().collect();
        let field = |k: &str| -> f64 {
            let i = words.iter().position(|w| *w == k).unwrap();
            words[i + 1].parse().unwrap()
        };
        let (s, v) = post(a, "eval", &json!({"game": game, "ply": 1}));
        assert_eq!(s, 200, "{v}");
        assert!(
            (v["chances"]["win"].as_f64().unwrap() - field("win")).abs() < 6e-5,
            "{game}: {v} vs {ev}"
        );
        assert!((v["equity"].as_f64().unwrap() - field("equity")).abs() < 6e-5);
        assert_eq!(v["game"], game);
        assert_eq!(v["to_move"], "white");
    }
}

#[test]
fn positions_come_as_text_gnubg_ids_and_xgids_alike() {
    let server = start(&[]);
    let a = server.http;
    let text = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 w 0 0";
    let asks = [
        json!({"game": "backgammon", "position": text, "dice": [3, 1]}),
        json!({"game": "backgammon", "gnubgid": "4HPwATDgc/ABMA", "dice": "31"}),
        json!({"game": "backgammon", "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"}),
        json!({"game": "backgammon" , "dice": [1, 3]}),
    ];
    let mut answers = Vec::new();
    for ask in &asks {
        let (s, v) = post(a, "legal", ask);
        assert_eq!(s, 200, "{ask}: {v}");
        assert_eq!(v["count"], 16, "{ask}: {v}");
        // The dice are rolled: White's first roll is counted.
        assert_eq!(v["position"], text.replace("w 0 0", "w 1 0"));
        answers.push(v["plays"].clone());
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
    // The GET form says the same.
    let (s, v) = get(
        a,
        "/api/v1/legal?game=backgammon&gnubgid=4HPwATDgc%2FABMA&dice=31",
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["plays"], answers[0]);
    // Moves after the position: 8/5 6/5 then Black to roll.
    let (s, v) = post(
        a,
        "eval",
        &json!({"game": "backgammon", "moves": ["31", "8/5", "6/5"], "ply": 1}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["position"],
        "-2,0,0,0,2,4,0,2,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 b 1 0"
    );
    assert_eq!(v["ply"], 1);
    // Without ply, the engine's default depth, counted as engine.ply.
    let (s, v) = post(a, "move", &asks[1]);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ply"], 2, "{v}");
}

#[test]
fn cube_decisions_follow_the_session() {
    let server = start(&[]);
    let a = server.http;
    let race = "2,2,2,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2 w 0 0";
    // Money play: per cube unit, double/pass is 1.
    let (s, v) = post(
        a,
        "cube",
        &json!({"game": "backgammon", "position": race, "session": {"cube": 1}}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["unit"], "money");
    assert_eq!(v["double_pass"], 1.0);
    assert!(["double", "nodouble"].contains(&v["best"].as_str().unwrap()));
    // A match: match-winning chances, each within 0..1.
    let (s, v) = post(
        a,
        "cube",
        &json!({"game": "backgammon", "position": race, "session": {"length": 7, "score": [3, 4]}}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["unit"], "mwc");
    for k in ["no_double", "double_take", "double_pass"] {
        let x = v[k].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x), "{k} {x}");
    }
    // The Crawford game: no cube to turn.
    let (s, v) = post(
        a,
        "cube",
        &json!({"game": "backgammon", "position": race, "session": {"length": 5, "score": [2, 4], "crawford": true}}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["best"], "nodouble");
    assert!(v.get("action").is_none(), "{v}");
    // White has doubled: Black's answer is due, from the doubler's view.
    let (s, v) = post(
        a,
        "cube",
        &json!({"game": "backgammon", "position": race, "session": {"doubled": true}}),
    );
    assert_eq!(s, 200, "{v}");
    assert!(
        ["take", "drop", "beaver"].contains(&v["best"].as_str().unwrap()),
        "{v}"
    );
    // The opponent owns the cube: nothing to decide.
    let (s, v) = post(
        a,
        "cube",
        &json!({"game": "backgammon", "position": race, "session": {"cube": 2, "owner": "black"}}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["best"], "nodouble");
    // Dice given, or the cube off: not a cube decision.
    assert_refused(
        post(a, "cube", &json!({"game": "backgammon", "dice": [3, 1]})),
        422,
        "bad_state",
    );
    assert_refused(
        post(
            a,
            "cube",
            &json!({"game": "backgammon", "session": {"cube_on": false}}),
        ),
        422,
        "bad_state",
    );
}

#[test]
fn rollouts_are_seeded_and_capped() {
    let server = start(&["--max-rollout-games", "200"]);
    let a = server.http;
    let ask = json!({"game": "backgammon", "gnubgid": "4HPwATDgc/ABMA", "games": 36, "truncate": 5, "seed": 7});
    let (s, one) = post(a, "rollout", &ask);
    assert_eq!(s, 200, "{one}");
    let (_, two) = post(a, "rollout", &ask);
    assert_eq!(one, two, "the same seed, the same rollout");
    assert_eq!(one["results"][0]["games"], 36);
    assert_eq!(one["stopped"], false);
    assert_eq!(one["ply"], 1, "the players' default: the network alone");
    // Candidate plays with the dice.
    let (s, v) = post(
        a,
        "rollout",
        &json!({"game": "backgammon", "dice": [3, 1], "plays": ["8/5 6/5", "24/21 21/20"], "games": 12, "truncate": 2}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["results"][1]["play"], "24/21 21/20");
    assert_refused(
        post(a, "rollout", &json!({"game": "backgammon", "games": 201})),
        400,
        "bad_value",
    );
    assert_refused(
        post(
            a,
            "rollout",
            &json!({"game": "backgammon", "dice": [3, 1], "plays": ["8/2"]}),
        ),
        400,
        "bad_value",
    );
    assert_refused(
        post(a, "rollout", &json!({"game": "backgammon", "ply": 3})),
        400,
        "bad_value",
    );
    // Counted as engine.ply: a rollout's players search at 1 or 2.
    let m = assert_refused(
        post(a, "rollout", &json!({"game": "backgammon", "ply": 0})),
        400,
        "bad_value",
    );
    assert_eq!(m, "a rollout's ply must be 1 or 2, got 0");
}

#[test]
fn bad_requests_get_a_json_refusal_and_the_server_goes_on() {
    let server = start(&["--max-line", "4096"]);
    let a = server.http;
    let raw = |body: &[u8]| {
        let r = request(a, "POST", "/api/v1/move", "", body);
        let v = r.json();
        (r.status, v)
    };
    assert_refused(raw(b"{\"game\": \"backgammon\", "), 400, "bad_json");
    assert_refused(raw(b"not json"), 400, "bad_json");
    assert_refused(raw(b""), 400, "bad_json");
    assert_refused(raw(&[0xff, 0xfe, b'{']), 400, "bad_json");
    assert_refused(raw(b"[1, 2]"), 400, "bad_request");
    assert_refused(
        raw(b"{\"game\": \"backgammon\", \"colour\": 1}"),
        400,
        "bad_request",
    );
    assert_refused(raw(b"{\"game\": 7}"), 400, "bad_request");
    assert_refused(raw(b"{}"), 400, "bad_request");
    let m = assert_refused(raw(b"{\"game\": \"chess\"}"), 400, "unknown_game");
    assert!(m.contains("long_nardy"), "{m}");
    // Impossible positions: 16 checkers, a point of both sides' checkers
    // impossible to reach, a bad gnubg ID, an XGID in a game without one.
    let sixteen = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,3 w 0 0";
    for (game, pos) in [
        ("backgammon", json!({"position": sixteen})),
        ("backgammon", json!({"position": "1,2,3 w 0 0"})),
        ("backgammon", json!({"gnubgid": "!!!!"})),
        (
            "long_nardy",
            json!({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"}),
        ),
        ("backgammon", json!({"moves": ["31", "8/1"]})),
    ] {
        let mut ask = pos.clone();
        ask["game"] = json!(game);
        ask["dice"] = json!([3, 1]);
        assert_refused(post(a, "move", &ask), 400, "bad_position");
    }
    assert_refused(
        post(a, "move", &json!({"game": "backgammon", "dice": [7, 1]})),
        400,
        "bad_value",
    );
    // The depth counts as engine.ply does: 1 is the network alone, and
    // gnubg's 0 is no depth at all.
    let m = assert_refused(
        post(
            a,
            "move",
            &json!({"game": "backgammon", "dice": [3, 1], "ply": 0}),
        ),
        400,
        "bad_value",
    );
    assert_eq!(m, "ply must be 1..3, got 0");
    assert_refused(
        get(a, "/api/v1/eval?game=backgammon&ply=0"),
        400,
        "bad_value",
    );
    // Bodies refused as they are read: a value out of its range, an option
    // of no game, two positions at once, a session that cannot be.
    for (body, code) in [
        (
            json!({"game": "backgammon", "dice": [3, 1], "ply": 4}),
            "bad_value",
        ),
        (
            json!({"game": "backgammon", "dice": [3, 1], "count": 0}),
            "bad_value",
        ),
        (
            json!({"game": "fevga", "dice": [3, 1], "rules": {"nonsense": "x"}}),
            "bad_value",
        ),
        (
            json!({"game": "backgammon", "gnubgid": "4HPwATDgc/ABMA", "xgid": "x"}),
            "bad_request",
        ),
        (
            json!({"game": "backgammon", "session": {"length": 0, "score": [1, 2]}}),
            "bad_value",
        ),
        (
            json!({"game": "backgammon", "session": {"cube": 3}}),
            "bad_value",
        ),
    ] {
        assert_refused(post(a, "move", &body), 400, code);
    }
    assert_refused(
        post(a, "move", &json!({"game": "backgammon"})),
        422,
        "bad_state",
    );
    assert_refused(
        get(a, "/api/v1/move?game=backgammon&dice=31&colour=red"),
        400,
        "bad_request",
    );
    assert_refused(get(a, "/api/v1/nothing"), 404, "not_found");
    let r = request(a, "DELETE", "/api/v1/move", "", b"");
    assert_refused((r.status, r.json()), 405, "method_not_allowed");
    let r = request(a, "GET", "/api/v1/rollout", "", b"");
    assert_refused((r.status, r.json()), 405, "method_not_allowed");
    // A body over --max-line: refused before it is read.
    let big = format!(
        "{{\"game\": \"backgammon\", \"moves\": [\"{}\"]}}",
        "x".repeat(5000)
    );
    assert_refused(raw(big.as_bytes()), 413, "body_too_large");
    // The same without a Content-Length: chunked, counted as it comes.
    let mut s = connect(a);
    let chunk = "y".repeat(3000);
    let head = format!(
        "POST /api/v1/move HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len(),
        chunk.len()
    );
    let _ = s.write_all(head.as_bytes());
    let r = read_answer(&mut s);
    assert_refused((r.status, r.json()), 413, "body_too_large");
    // After all of it the server answers as before.
    let (s, v) = post(
        a,
        "move",
        &json!({"game": "backgammon", "dice": [3, 1], "ply": 1}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["best"], "8/5 6/5");
}

/// Whether `v` is what `schema` (a subset of JSON Schema: `$ref`, `allOf`,
/// `oneOf`, `type`, `enum`, `required`, `properties`, `items`) describes;
/// the first mismatch otherwise.
fn check_schema(doc: &Value, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r
            .strip_prefix("#/components/schemas/")
            .expect("a local $ref");
        let target = &doc["components"]["schemas"][name];
        assert!(target.is_object(), "{r} is not in the document");
        return check_schema(doc, target, v, at);
    }
    for s in schema["allOf"].as_array().into_iter().flatten() {
        check_schema(doc, s, v, at)?;
    }
    if let Some(any) = schema["oneOf"].as_array()
        && !any.iter().any(|s| check_schema(doc, s, v, at).is_ok())
    {
        return Err(format!("{at}: {v} is none of {}", schema["oneOf"]));
    }
    let type_ok = |t: &str| match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("type {other} in the document"),
    };
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !types.is_empty() && !types.iter().any(|t| type_ok(t)) {
        return Err(format!("{at}: {v} is not of type {}", schema["type"]));
    }
    if let Some(e) = schema["enum"].as_array()
        && !e.contains(v)
    {
        return Err(format!("{at}: {v} is not one of {}", schema["enum"]));
    }
    for k in schema["required"].as_array().into_iter().flatten() {
        let k = k.as_str().unwrap();
        if v.get(k).is_none() {
            return Err(format!("{at}: {k} is missing from {v}"));
        }
    }
    if let (Some(props), Some(obj)) = (schema["properties"].as_object(), v.as_object()) {
        for (k, s) in props {
            if let Some(x) = obj.get(k) {
                check_schema(doc, s, x, &format!("{at}.{k}"))?;
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            check_schema(doc, items, x, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// `%`-escapes a query value.
fn escape(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn every_example_of_the_openapi_document_is_answered_as_documented() {
    let server = start(&[]);
    let a = server.http;
    let (s, doc) = get(a, "/api/v1/openapi.json");
    assert_eq!(s, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    let mut sent = 0;
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let answer = if method == "post" {
                let example = &op["requestBody"]["content"]["application/json"]["example"];
                assert!(example.is_object(), "{method} {path} has no example");
                // The example is a request as the Request schema says.
                let req_schema = &op["requestBody"]["content"]["application/json"]["schema"];
                check_schema(&doc, req_schema, example, "request").unwrap();
                request(
                    a,
                    "POST",
                    path,
                    "Content-Type: application/json\r\n",
                    example.to_string().as_bytes(),
                )
            } else {
                let query: Vec<String> = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| {
                        let ex = p["example"].as_str().expect("an example per parameter");
                        format!("{}={}", p["name"].as_str().unwrap(), escape(ex))
                    })
                    .collect();
                let target = if query.is_empty() {
                    path.clone()
                } else {
                    format!("{path}?{}", query.join("&"))
                };
                request(a, "GET", &target, "", b"")
            };
            assert_eq!(answer.status, 200, "{method} {path}: {}", answer.body);
            assert_eq!(
                answer.headers.get("content-type").map(String::as_str),
                Some("application/json")
            );
            let schema = &op["responses"]["200"]["content"]["application/json"]["schema"];
            check_schema(&doc, schema, &answer.json(), &format!("{method} {path}"))
                .unwrap_or_else(|e| panic!("{e}"));
            // Every refusal it may give is documented with the Error schema.
            if path != "/api/v1/openapi.json" {
                for code in ["400", "413", "422"] {
                    assert!(op["responses"][code].is_object(), "{method} {path} {code}");
                }
            }
            sent += 1;
        }
    }
    // legal, move, eval, cube as POST and GET, rollout, the document.
    assert_eq!(sent, 10);
    // The checker is no rubber stamp: a wrong answer fails it.
    let bad = json!({"game": "x", "position": "p", "to_move": "green", "ply": 1, "best": "", "plays": []});
    let schema = json!({"$ref": "#/components/schemas/MoveAnswer"});
    assert!(check_schema(&doc, &schema, &bad, "bad").is_err());
    let bad = json!({"code": 4});
    let schema = json!({"$ref": "#/components/schemas/Error"});
    assert!(check_schema(&doc, &schema, &bad, "bad").is_err());
    // A refusal matches the Error schema.
    let (_, v) = post(a, "move", &json!({"game": "chess"}));
    check_schema(&doc, &schema, &v, "error").unwrap();
}

#[test]
fn clients_that_stall_in_their_headers_or_body_are_cut_off_and_hold_no_slot() {
    // One slot in all: a stalled client holding it would lock everyone out.
    let server = start(&["--max-connections", "1", "--line-timeout", "2"]);
    let a = server.http;
    // One stalls in its headers: closed within the timeout too.
    let mut in_head = connect(a);
    in_head
        .write_all(b"POST /api/v1/move HTTP/1.1\r\nHost: x\r\nContent-Le")
        .unwrap();
    let mut slow = connect(a);
    let head = format!(
        "POST /api/v1/move HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{{\"game\": \"backgammon\","
    );
    slow.write_all(head.as_bytes()).unwrap();
    // While it stalls, others are served.
    for _ in 0..3 {
        let (s, v) = post(
            a,
            "move",
            &json!({"game": "backgammon", "dice": [3, 1], "ply": 1}),
        );
        assert_eq!(s, 200, "{v}");
    }
    let begun = Instant::now();
    let r = read_answer(&mut slow);
    assert_refused((r.status, r.json()), 408, "timeout");
    assert!(begun.elapsed() < Duration::from_secs(30));
    // And the connection ends.
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    let mut rest = Vec::new();
    let _ = in_head.read_to_end(&mut rest);
    assert!(
        rest.is_empty() || rest.starts_with(b"HTTP/1.1 408"),
        "{}",
        String::from_utf8_lossy(&rest)
    );
    assert!(begun.elapsed() < Duration::from_secs(30));
    let (s, _) = post(
        a,
        "move",
        &json!({"game": "backgammon", "dice": [3, 1], "ply": 1}),
    );
    assert_eq!(s, 200);
}

/// Opens a protocol session on the TCP listener and waits until it is
/// served (so it holds a slot).
fn hold_a_slot(tcp: SocketAddr) -> TcpStream {
    let mut s = connect(tcp);
    s.write_all(b"isready\n").unwrap();
    let mut line = String::new();
    BufReader::new(s.try_clone().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "readyok");
    s
}

/// Sends `ask` until it is answered 200 (a slot given back is seen a
/// little after its connection closes); at most 20 s.
fn until_served(a: SocketAddr, ask: &Value) -> Value {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let (s, v) = post(a, "move", ask);
        if s == 200 {
            return v;
        }
        assert!(Instant::now() < end, "never served: {v}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn requests_share_the_servers_slots_with_its_sessions() {
    let ask = json!({"game": "backgammon", "dice": [3, 1], "ply": 1});
    // Every slot taken by a TCP session: busy, 503.
    let server = start(&["--listen", "127.0.0.1:0", "--max-connections", "1"]);
    let held = hold_a_slot(server.tcp.unwrap());
    assert_refused(post(server.http, "move", &ask), 503, "busy");
    drop(held);
    until_served(server.http, &ask);
    // This address's slots taken: too many requests, 429.
    let server = start(&[
        "--listen",
        "127.0.0.1:0",
        "--max-connections",
        "8",
        "--max-per-ip",
        "1",
        "--limit-loopback",
    ]);
    let held = hold_a_slot(server.tcp.unwrap());
    assert_refused(post(server.http, "move", &ask), 429, "too_many_requests");
    drop(held);
    until_served(server.http, &ask);
}

#[test]
fn searches_and_rollouts_stop_at_the_servers_time_cap() {
    let server = start(&["--max-search-ms", "300"]);
    let a = server.http;
    let begun = Instant::now();
    let (s, v) = post(
        a,
        "rollout",
        &json!({"game": "long_nardy", "games": 10000, "ply": 2}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["stopped"], true, "{v}");
    assert!(v["results"][0]["games"].as_u64().unwrap() < 10000);
    assert!(begun.elapsed() < Duration::from_secs(30));
}

#[test]
fn other_sites_pages_are_refused_unless_cors_lets_them_in() {
    let ask = json!({"game": "backgammon", "dice": [3, 1], "ply": 1}).to_string();
    let server = start(&[]);
    let a = server.http;
    let with_origin = |a: SocketAddr, o: &str| {
        request(
            a,
            "POST",
            "/api/v1/move",
            &format!("Origin: {o}\r\nContent-Type: application/json\r\n"),
            ask.as_bytes(),
        )
    };
    let r = with_origin(a, "http://evil.example");
    assert_refused((r.status, r.json()), 403, "cross_origin");
    assert!(!r.headers.contains_key("access-control-allow-origin"));
    // The server's own pages are let in.
    let r = with_origin(a, &format!("http://{a}"));
    assert_eq!(r.status, 200, "{}", r.body);

    let server = start(&["--cors", "https://app.example"]);
    let a = server.http;
    let r = with_origin(a, "https://app.example");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.headers
            .get("access-control-allow-origin")
            .map(String::as_str),
        Some("https://app.example")
    );
    let r = with_origin(a, "http://evil.example");
    assert_refused((r.status, r.json()), 403, "cross_origin");
    // The browser's preflight.
    let r = request(
        a,
        "OPTIONS",
        "/api/v1/move",
        "Origin: https://app.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n",
        b"",
    );
    assert!(r.status == 200 || r.status == 204, "{}", r.status);
    assert_eq!(
        r.headers
            .get("access-control-allow-origin")
            .map(String::as_str),
        Some("https://app.example")
    );
    assert!(
        r.headers
            .get("access-control-allow-methods")
            .is_some_and(|m| m.contains("POST"))
    );
    // `*`: any site.
    let server = start(&["--cors", "*"]);
    let r = with_origin(server.http, "http://anywhere.example");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.headers
            .get("access-control-allow-origin")
            .map(String::as_str),
        Some("*")
    );
}

#[test]
fn every_curl_line_of_the_http_doc_runs_as_written() {
    let server = start(&[]);
    let addr = server.http.to_string();
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/HTTP.md"),
    )
    .unwrap();
    let mut in_sh = false;
    let mut ran = 0;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh || !line.starts_with("curl ") {
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(line.replace("127.0.0.1:8080", &addr))
            .output()
            .expect("run sh (and curl)");
        assert!(out.status.success(), "{line}: {}", out.status);
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{line}: not JSON ({e})"));
        // `# 400 unknown_game`: the refusal the line shows.
        match line.split_once("# ") {
            Some((_, want)) => {
                let code = want.split_whitespace().nth(1).expect("# STATUS CODE");
                assert_eq!(v["code"], code, "{line}: {v}");
            }
            None => {
                assert!(v.get("code").is_none(), "{line}: {v}");
                assert!(v["game"].is_string(), "{line}: {v}");
            }
        }
        ran += 1;
    }
    assert!(ran >= 12, "only {ran} curl lines found");
}

#[test]
fn a_search_whose_client_is_gone_stops_and_gives_its_slot_back() {
    // One slot: while the long rollout runs, every other request is busy.
    let server = start(&["--max-connections", "1"]);
    let a = server.http;
    let long = json!({"game": "long_nardy", "games": 10000, "ply": 2}).to_string();
    let head = format!(
        "POST /api/v1/rollout HTTP/1.1\r\nHost: {a}\r\nContent-Length: {}\r\n\r\n{long}",
        long.len()
    );
    let send_long = || {
        let mut s = connect(a);
        s.write_all(head.as_bytes()).unwrap();
        s
    };
    let mut gone = send_long();
    let quick = json!({"game": "backgammon", "dice": [3, 1], "ply": 1});
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let (s, _) = post(a, "move", &quick);
        if s == 503 {
            break;
        }
        // The one slot is taken per request: a quick request that came in
        // first turns the rollout away (busy). Then it has an answer
        // already, and is sent again.
        gone.set_nonblocking(true).unwrap();
        let refused = gone.peek(&mut [0u8; 1]).is_ok();
        gone.set_nonblocking(false).unwrap();
        if refused {
            gone = send_long();
        }
        assert!(Instant::now() < end, "the rollout never took the slot");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Its client goes: the rollout (minutes of work) stops, the slot is free.
    drop(gone);
    let begun = Instant::now();
    until_served(a, &quick);
    assert!(begun.elapsed() < Duration::from_secs(20));
}

/// One rule reading where the sources disagree (issue 49): the games it
/// is a reading of, the options of each of its two readings, a hand-built
/// position where their legal plays differ (the positions of
/// tests/rules_readings.rs, worked out by hand there), the dice, and what
/// tells the two lists apart.
struct Reading {
    games: &'static [&'static str],
    options: [&'static [(&'static str, &'static str)]; 2],
    position: &'static str,
    dice: [u8; 2],
    /// Holds of the first reading's plays and not of the second's.
    tells: fn(&[String]) -> bool,
}

const READINGS: [Reading; 4] = [
    // Fevga, 1-1: 20/19 makes six in a row with every black checker behind;
    // `duty` allows it, `ban` does not.
    Reading {
        games: &["fevga"],
        options: [&[("prime", "duty")], &[("prime", "ban")]],
        position: "0,0,0,0,9,0,0,-5,0,0,0,-10,0,1,1,1,1,1,0,1,0,0,0,0 w 9 9",
        dice: [1, 1],
        tells: |plays| plays.iter().any(|p| p == "20/19 5/4 5/4 5/4"),
    },
    // Fevga, 6-1 with Black's start empty: under `quarter` 13/12 reaches
    // Black's starting quarter and frees the start for 24/18.
    Reading {
        games: &["fevga"],
        options: [
            &[("prime", "ban"), ("start_rule", "quarter")],
            &[("prime", "ban"), ("start_rule", "pass")],
        ],
        position: "0,0,0,0,0,0,0,-15,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,14 w 9 9",
        dice: [6, 1],
        tells: |plays| {
            plays
                .iter()
                .any(|p| p.contains("13/12") && p.contains("24/18"))
        },
    },
    // Plakoto and Tapa, 2-1, a checker pinned on White's 5: `home` bears
    // off around it, `refuse` does not bear off.
    Reading {
        games: &["plakoto", "tapa"],
        options: [
            &[("pinned_bearoff", "home")],
            &[("pinned_bearoff", "refuse")],
        ],
        position: "5,5,4,0,-1,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0,0,0,0 w 9 9 pins=5",
        dice: [2, 1],
        tells: |plays| plays.iter().any(|p| p.contains("/off")),
    },
    // Plakoto and Tapa, 6-5, Black's mother alone on White's 1: 6/1 pins
    // it; at the `step` the game ends there, at the `end` the 6 is played
    // too.
    Reading {
        games: &["plakoto", "tapa"],
        options: [&[("mother_timing", "step")], &[("mother_timing", "end")]],
        position: "-1,0,0,0,0,10,0,5,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0 w 9 9",
        dice: [6, 5],
        tells: |plays| plays.iter().any(|p| p == "6/1"),
    },
];

/// The plays of a `legal` answer, as texts.
fn play_texts(v: &Value) -> Vec<String> {
    v["plays"]
        .as_array()
        .unwrap_or_else(|| panic!("no plays in {v}"))
        .iter()
        .map(|p| p["play"].as_str().expect("a play text").to_string())
        .collect()
}

/// The rule readings of issue 49 chosen through the HTTP API, by POST's
/// `rules` object and by GET's `rules.NAME`: each reading's legal plays are
/// the line protocol's under the same `set rules.NAME`, and the two
/// readings' lists differ as worked out by hand. A value the option does
/// not have, and an option of another game, are refused.
#[test]
fn the_rule_readings_are_chosen_by_post_and_get() {
    let server = start(&[]);
    let a = server.http;
    for (r, &game) in READINGS
        .iter()
        .flat_map(|r| r.games.iter().map(move |g| (r, g)))
    {
        let mut lists = Vec::new();
        for options in r.options {
            let mut script = format!("set game.variant {}\n", game);
            let mut rules = serde_json::Map::new();
            let mut query = format!(
                "/api/v1/legal?game={}&position={}&dice={}{}",
                game,
                escape(r.position),
                r.dice[0],
                r.dice[1]
            );
            for (k, v) in options {
                script.push_str(&format!("set rules.{k} {v}\n"));
                rules.insert(k.to_string(), json!(v));
                query.push_str(&format!("&rules.{k}={v}"));
            }
            script.push_str(&format!(
                "position board {}\ndice {} {}\nlegal\n",
                r.position, r.dice[0], r.dice[1]
            ));
            let said = protocol(&script);
            let mut want: Vec<String> = said
                .iter()
                .filter_map(|l| l.strip_prefix("play "))
                .map(str::to_string)
                .collect();
            want.sort();
            assert!(!want.is_empty(), "{}: {said:?}", game);
            let (s, v) = post(
                a,
                "legal",
                &json!({"game": game, "position": r.position, "dice": r.dice, "rules": rules}),
            );
            assert_eq!(s, 200, "{v}");
            let mut posted = play_texts(&v);
            posted.sort();
            assert_eq!(posted, want, "{} {options:?}", game);
            let (s, v) = get(a, &query);
            assert_eq!(s, 200, "{query}: {v}");
            let mut got = play_texts(&v);
            got.sort();
            assert_eq!(got, want, "{query}");
            lists.push(posted);
        }
        assert!(
            (r.tells)(&lists[0]),
            "{} {:?}: {:?}",
            game,
            r.options[0],
            lists[0]
        );
        assert!(
            !(r.tells)(&lists[1]),
            "{} {:?}: {:?}",
            game,
            r.options[1],
            lists[1]
        );
    }
    let msg = assert_refused(
        post(
            a,
            "legal",
            &json!({"game": "plakoto", "dice": [2, 1], "rules": {"mother_timing": "later"}}),
        ),
        400,
        "bad_value",
    );
    assert!(
        msg.contains("rules.mother_timing must be one of step|end"),
        "{msg}"
    );
    let msg = assert_refused(
        get(a, "/api/v1/legal?game=plakoto&dice=21&rules.prime=duty"),
        400,
        "bad_value",
    );
    assert!(
        msg.contains("rules.prime is not an option of plakoto"),
        "{msg}"
    );
}
