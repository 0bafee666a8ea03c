//! The protocol over a WebSocket, without a browser: `gulbara serve --http`
//! on an ephemeral loopback port, a Rust WebSocket client (one text message
//! per line), the transcripts replayed, and the limits a WebSocket session
//! shares with TCP (line length, connection limits counted together with
//! TCP's, idle timeout, no files, shutdown), the page served, and foreign
//! pages refused.
//!
//! No test asserts how fast something happens: deadlines are set short and
//! the waits for them are long hang guards.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{LineIo, TcpClient, Web, replay, transcripts};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

/// How long a test waits for something the server must do by itself.
const GUARD: Duration = Duration::from_secs(30);

/// A WebSocket protocol client: a thread runs the socket; lines come and go
/// through channels. `recv_timeout` gives `None` once the server closed.
struct WsClient {
    out: tokio::sync::mpsc::UnboundedSender<Message>,
    lines: mpsc::Receiver<String>,
}

impl WsClient {
    /// Connects to `ws://<addr>/ws`, with an `Origin` header if given.
    fn connect(addr: &str, origin: Option<&str>) -> Result<WsClient, tungstenite::Error> {
        let mut req = format!("ws://{addr}/ws").into_client_request()?;
        if let Some(o) = origin {
            req.headers_mut().insert("origin", o.parse().unwrap());
        }
        let (ready_tx, ready_rx) = mpsc::channel();
        let (out, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<Message>();
        let (lines_tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let ws = match tokio_tungstenite::connect_async(req).await {
                    Ok((ws, _)) => {
                        let _ = ready_tx.send(Ok(()));
                        ws
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let (mut sink, mut stream) = ws.split();
                loop {
                    tokio::select! {
                        m = out_rx.recv() => match m {
                            Some(m) => if sink.send(m).await.is_err() { break },
                            None => break,
                        },
                        m = stream.next() => match m {
                            Some(Ok(Message::Text(t))) => {
                                if lines_tx.send(t.to_string()).is_err() { break }
                            }
                            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                            Some(Ok(_)) => {}
                        },
                    }
                }
            });
        });
        ready_rx.recv_timeout(GUARD).expect("connect finishes")?;
        Ok(WsClient { out, lines })
    }

    /// Sends one message as it is.
    fn message(&mut self, text: &str) {
        let _ = self.out.send(Message::Text(text.to_string().into()));
    }

    /// Everything until the server closes the socket.
    fn read_to_close(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.recv_timeout(GUARD)).collect()
    }
}

trait WsConnect {
    fn ws(&self) -> WsClient;
}

impl WsConnect for Web {
    fn ws(&self) -> WsClient {
        WsClient::connect(&self.http, None).expect("websocket connects")
    }
}

impl LineIo for WsClient {
    /// One message per line (the line ending is not sent).
    fn send_bytes(&mut self, bytes: &[u8]) {
        for line in String::from_utf8_lossy(bytes).lines() {
            self.message(line);
        }
    }
    fn recv_timeout(&mut self, t: Duration) -> Option<String> {
        self.lines.recv_timeout(t).ok()
    }
}

/// A plain HTTP/1.1 GET: status line, headers and body.
fn get(addr: &str, path: &str) -> (String, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(GUARD)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let text = String::from_utf8_lossy(&resp).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_string(), headers.to_lowercase(), body.to_string())
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let web = Web::start(false, &[]);
    let (status, headers, body) = get(&web.http, "/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("content-type: text/html"), "{headers}");
    assert!(headers.contains("content-security-policy: default-src 'self'"));
    assert!(body.contains("<svg") && body.contains("app.js"), "{body}");
    // Nothing from elsewhere: no CDN, works offline.
    assert!(!body.contains("https://") && !body.contains("http://"));
    let (status, headers, js) = get(&web.http, "/app.js");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("content-type: text/javascript"));
    assert!(js.contains("WebSocket"));
    let (status, headers, _) = get(&web.http, "/style.css");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("content-type: text/css"));
    assert_eq!(get(&web.http, "/nothing-here").0, "HTTP/1.1 404 Not Found");
}

#[test]
fn transcripts_replay_over_a_websocket() {
    let web = Web::start(false, &[]);
    for (name, text) in transcripts() {
        let mut c = web.ws();
        replay(&mut c, &name, &text);
        c.send("quit");
        // The server closes the socket after quit, saying nothing more.
        assert_eq!(c.read_to_close(), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn a_message_longer_than_max_line_is_an_error_and_the_session_goes_on() {
    let web = Web::start(false, &["--max-line", "100"]);
    let mut c = web.ws();
    c.message(&"x".repeat(101));
    assert_eq!(
        c.recv(),
        "error bad_command line too long (more than 100 bytes); ignored"
    );
    c.sync();
    // Exactly the limit is a line like any other.
    c.message(&format!("get {}", "k".repeat(96)));
    assert!(c.recv().starts_with("error bad_value unknown key"));
    c.sync();
    // A message far beyond any line is not buffered: the socket closes.
    c.message(&"y".repeat(64 * 1024));
    assert_eq!(c.read_to_close(), Vec::<String>::new());
    // The server serves the next client.
    web.ws().sync();
}

#[test]
fn a_message_is_one_line_and_never_more() {
    let web = Web::start(false, &[]);
    let mut c = web.ws();
    // A trailing line ending is no part of the line.
    c.message("isready\r\n");
    assert_eq!(c.recv(), "readyok");
    // Two lines in one message are two lines, never one with a break inside.
    c.message("get engine.ply\nget game.variant");
    assert_eq!(c.recv(), "value engine.ply 2");
    assert_eq!(c.recv(), "value game.variant gulbara");
    c.sync();
}

#[test]
fn tcp_and_websocket_sessions_share_the_connection_limit() {
    let web = Web::start(true, &["--max-connections", "2", "--max-per-ip", "8"]);
    let tcp_addr = web.tcp.clone().unwrap();
    let mut t = TcpClient::connect(&tcp_addr);
    t.sync();
    let mut w = web.ws();
    w.sync();
    // Both slots are taken: a third session on either transport is refused.
    let mut refused_ws = web.ws();
    assert_eq!(
        refused_ws.read_to_close(),
        vec!["error bad_state too many connections; try again later"]
    );
    let mut refused_tcp = TcpClient::connect(&tcp_addr);
    assert_eq!(
        refused_tcp.recv_timeout(GUARD).as_deref(),
        Some("error bad_state too many connections; try again later")
    );
    // A session that quits gives its slot back.
    w.send("quit");
    assert!(w.read_to_close().is_empty());
    let mut again = web.ws();
    again.sync();
    t.sync();
}

#[test]
fn one_address_cannot_take_every_websocket_slot() {
    let web = Web::start(
        false,
        &[
            "--max-connections",
            "8",
            "--max-per-ip",
            "1",
            "--limit-loopback",
        ],
    );
    let mut first = web.ws();
    first.sync();
    assert_eq!(
        web.ws().read_to_close(),
        vec!["error bad_state too many connections from your address; try again later"]
    );
}

#[test]
fn an_idle_websocket_is_told_and_closed() {
    let web = Web::start(false, &["--idle-timeout", "1"]);
    let mut c = web.ws();
    c.sync();
    assert_eq!(
        c.read_to_close(),
        vec!["error bad_state idle timeout; closing the connection"]
    );
}

#[test]
fn a_websocket_client_reads_no_file() {
    let web = Web::start(false, &[]);
    let mut c = web.ws();
    c.send("set engine.weights /etc/passwd");
    let l = c.recv();
    assert!(
        l.starts_with("error unsupported engine.weights: this server reads no weights files"),
        "{l}"
    );
    c.sync();
    assert_eq!(
        c.ask("get engine.weights", 1),
        vec!["value engine.weights shipped"]
    );
}

#[test]
fn a_page_of_another_site_cannot_open_the_websocket() {
    let web = Web::start(false, &[]);
    let foreign = WsClient::connect(&web.http, Some("http://evil.example"));
    match foreign {
        Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403),
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a cross-origin WebSocket was accepted"),
    }
    // The server's own page may.
    let own = format!("http://{}", web.http);
    let mut c = WsClient::connect(&web.http, Some(&own)).expect("same origin");
    c.sync();
}

#[test]
fn sigterm_tells_websocket_sessions_and_exits_cleanly() {
    let mut web = Web::start(false, &[]);
    let mut c = web.ws();
    c.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    c.send("dice 1 1");
    c.send("go infinite");
    c.sync();
    web.proc.terminate();
    let status = web.proc.wait_timeout(GUARD);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let lines = c.read_to_close();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string server shutting down"),
        "{lines:?}"
    );
}

#[test]
fn a_websocket_client_that_never_reads_is_closed_and_its_slot_given_back() {
    let web = Web::start(false, &["--write-timeout", "2", "--max-connections", "1"]);
    let addr = web.http.clone();
    // `show` after `show` (about 500 bytes of answers each), never read,
    // until a send fails because the server closed the socket.
    let flood = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
                .await
                .expect("connect");
            // The reading half is kept and never polled.
            let (mut sink, _unread) = ws.split();
            let mut sent = 0u32;
            // Whether a send failed: the server closed the socket (rather
            // than the flood running out or hanging until the guard).
            let closed = tokio::time::timeout(GUARD, async {
                loop {
                    if sink.send(Message::Text("show".into())).await.is_err() {
                        return;
                    }
                    sent += 1;
                }
            })
            .await
            .is_ok();
            (sent, closed)
        })
    });
    // The one slot is the flooder's until the server closes it; then a
    // new client is served.
    let deadline = Instant::now() + GUARD;
    loop {
        if let Ok(mut probe) = WsClient::connect(&web.http, None) {
            probe.send("isready");
            if probe.recv_timeout(Duration::from_secs(5)).as_deref() == Some("readyok") {
                break;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the flooding client was never closed"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let (sent, closed) = flood.join().unwrap();
    assert!(
        sent > 0 && closed,
        "sent {sent}, closed by the server: {closed}"
    );
}

/// A plain HTTP/1.1 POST of `body` with an optional `Origin`: status line and body.
fn post(addr: &str, path: &str, body: &str, origin: Option<&str>) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(GUARD)).unwrap();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let text = String::from_utf8_lossy(&resp).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, body.to_string())
}

/// The board's record and analysis requests over real HTTP: a record's
/// turns and tokens, an analysis, clear refusals of nonsense, oversized
/// text and other sites' pages, and the rules page.
#[test]
fn the_boards_record_and_analysis_requests() {
    let web = Web::start(false, &[]);
    let record = "; [Variant \"backgammon\"]\n\n Game 1\n White : a                                Black : b\n Opening 3-1 starter White\n  1) 31: 8/5 6/5                            64: 24/18 13/9\n Unfinished\n";
    let (status, body) = post(&web.http, "/api/record", record, None);
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["variant"], "backgammon");
    assert_eq!(v["games"][0]["tokens"][0], "31");
    assert_eq!(v["games"][0]["turns"][1]["steps"][0], "24/18");
    let (status, body) = post(
        &web.http,
        "/api/analyse",
        record,
        Some(&format!("http://{}", web.http)),
    );
    assert_eq!(status, "HTTP/1.1 200 OK", "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["decisions"].as_array().unwrap().len(), 2, "{v}");
    // An illegal play is refused with the record's own error, as JSON.
    let bad = record.replace("8/5 6/5", "8/1 6/5");
    let (status, body) = post(&web.http, "/api/record", &bad, None);
    assert_eq!(status, "HTTP/1.1 400 Bad Request", "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(v["error"].as_str().unwrap().contains("'8/1'"), "{v}");
    let big = "x".repeat(300 * 1024);
    let (status, body) = post(&web.http, "/api/analyse", &big, None);
    assert_eq!(status, "HTTP/1.1 400 Bad Request", "{body}");
    assert!(body.contains("longer than"), "{body}");
    let (status, _) = post(
        &web.http,
        "/api/record",
        record,
        Some("http://evil.example"),
    );
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    let (status, headers, page) = get(&web.http, "/rules.html");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("content-type: text/html"));
    assert!(page.contains("id=\"long_nardy\"") && page.contains("six-block"));
}
