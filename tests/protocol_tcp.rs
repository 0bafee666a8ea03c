//! The protocol over TCP: `gulbara serve` on a loopback port.

mod common;

use std::time::Duration;

use common::{LineIo, Server, TcpClient, replay, transcripts};

#[test]
fn transcripts_replay_over_tcp() {
    let server = Server::start(&[]);
    for (name, text) in transcripts() {
        let mut c = server.connect();
        replay(&mut c, &name, &text);
        c.send("quit");
        // The server closes the connection after quit.
        assert_eq!(c.recv_timeout(Duration::from_secs(10)), None, "{name}");
    }
}

#[test]
fn concurrent_sessions_do_not_interfere() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let handles: Vec<_> = (0..16)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut c = TcpClient::connect(&addr);
                // Each session keeps its own settings, position and dice.
                let ply = 1 + i % 2;
                c.send(&format!("set engine.ply {ply}"));
                let (d1, d2) = (1 + i % 6, 1 + (i / 6) % 6);
                let d2 = if d1 == d2 { d2 % 6 + 1 } else { d2 };
                c.send(&format!("dice {d1} {d2}"));
                c.sync();
                for round in 0..3 {
                    assert_eq!(
                        c.ask("get engine.ply", 1),
                        vec![format!("value engine.ply {ply}")]
                    );
                    let show = c.ask("show", 11);
                    assert_eq!(show[9], format!("pending dice {d1}{d2}"), "{i} {round}");
                    c.send("go");
                    let got = c.recv_until("bestmove");
                    assert!(got.last().unwrap().starts_with("bestmove 24/"), "{got:?}");
                    c.sync();
                }
                c.send("quit");
            })
        })
        .collect();
    for h in handles {
        h.join().expect("client thread");
    }
    // The server is still fine.
    let mut c = server.connect();
    c.sync();
}

#[test]
fn a_client_vanishing_during_go_does_not_disturb_others() {
    let (server, log) = Server::start_logged(&[]);
    let mut other = server.connect();
    other.send("dice 6 5");
    other.sync();
    let mut clients: Vec<TcpClient> = (0..3).map(|_| server.connect()).collect();
    for c in &mut clients {
        c.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
        c.send("dice 1 1");
        c.send("go infinite");
        c.sync();
    }
    // Three searches wait for a stop (a thread names itself as it starts).
    #[cfg(target_os = "linux")]
    common::wait_until("three searches run", || {
        common::threads_named(server.pid(), "gulbara-go") == 3
    });
    let mut vanished = Vec::new();
    for c in clients {
        vanished.push(c.stream.local_addr().unwrap());
        // Gone without a word: the socket is closed under the session (the
        // reader thread's clone of it goes too).
        c.stream.shutdown(std::net::Shutdown::Both).unwrap();
    }
    // Each search ends: the server logs a connection closed only after
    // its session stopped the search and joined its thread. A search
    // left running (`go infinite` waits for a stop that never comes)
    // would hold its handler, and this would never be logged.
    log.wait_all("connection closed", &vanished);
    // And their threads are gone: nothing searches for a client that left.
    #[cfg(target_os = "linux")]
    common::wait_until("the vanished clients' searches end", || {
        common::threads_named(server.pid(), "gulbara-go") == 0
    });
    other.send("go ply 1");
    let got = other.recv_until("bestmove");
    assert!(got.last().unwrap().starts_with("bestmove 24/"));
    other.sync();
    let mut fresh = server.connect();
    fresh.sync();
}

#[test]
fn stop_isready_and_second_go_over_tcp() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    c.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    c.send("dice 1 1");
    c.sync();
    c.send("go infinite");
    c.send("isready");
    c.send("go");
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.starts_with("error")) {
        lines.push(c.recv());
    }
    assert!(lines.contains(&"readyok".to_string()));
    assert!(lines.iter().any(|l| l.starts_with("error bad_state")));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    c.send("stop");
    let got = c.recv_until("bestmove");
    assert_eq!(got.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    c.sync();
}

#[test]
fn garbage_overlong_lines_and_invalid_utf8_over_tcp() {
    let server = Server::start(&["--max-line", "100"]);
    let mut c = server.connect();
    c.send("position startpos moves 65 24/13");
    let before = c.ask("show", 11);
    c.send_bytes(&[b'x'; 5000]);
    c.send_bytes(b"\n");
    assert!(c.recv().starts_with("error bad_command line too long"));
    c.send_bytes(b"\xff\xff\xff\r\n");
    assert!(c.recv().starts_with("error bad_command"));
    c.send("position startpos moves 65 24/18 13/8");
    assert!(c.recv().starts_with("error bad_value moves token 3 '13/8'"));
    c.send("\t\t");
    let after = c.ask("show", 11);
    assert_eq!(before, after);
}

#[test]
fn connection_limit_refuses_extra_clients() {
    let server = Server::start(&["--max-connections", "2", "--max-per-ip", "2"]);
    let mut a = server.connect();
    let mut b = server.connect();
    a.sync();
    b.sync();
    let mut c = server.connect();
    let l = c.recv();
    assert!(l.starts_with("error bad_state too many connections"), "{l}");
    assert_eq!(c.recv_timeout(Duration::from_secs(10)), None);
    a.send("quit");
    assert_eq!(a.recv_timeout(Duration::from_secs(10)), None);
    // The slot was given back before the connection closed: free at once.
    let mut d = server.connect();
    d.sync();
    b.sync();
}

#[test]
fn idle_connections_are_closed() {
    let server = Server::start(&["--idle-timeout", "1"]);
    let mut c = server.connect();
    c.sync();
    let l = c.recv_timeout(Duration::from_secs(10));
    assert!(l.is_some_and(|l| l.starts_with("error bad_state idle timeout")));
    assert_eq!(c.recv_timeout(Duration::from_secs(10)), None);
}

#[cfg(unix)]
#[test]
fn sigterm_shuts_down_cleanly() {
    let mut server = Server::start(&[]);
    let mut c = server.connect();
    c.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    c.send("dice 1 1");
    c.send("go infinite");
    c.sync();
    server.proc.terminate();
    let lines: Vec<String> =
        std::iter::from_fn(|| c.recv_timeout(Duration::from_secs(20))).collect();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string server shutting down"),
        "{lines:?}"
    );
    let status = server.proc.wait_timeout(Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

/// The README's first way to query a server: the bundled scripts, which need
/// only bash and Python (no netcat on a bare machine).
#[cfg(unix)]
#[test]
fn the_readme_scripts_query_a_server() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("bash")
        .arg(format!("{root}/scripts/bestmove.sh"))
        .args(["31", "startpos moves 65 24/13"])
        .env("PORT", &port)
        .env("PLY", "1")
        .output()
        .expect("run bestmove.sh");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("bestmove "), "{text}");
    let out = std::process::Command::new("python3")
        .arg(format!("{root}/scripts/client.py"))
        .args(["--port", &port, "--roll", "65"])
        .output()
        .expect("run client.py");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bestmove 24/"), "{text}");
}
