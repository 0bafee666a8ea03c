//! The TCP server's limits, each over a real socket against the real
//! binary: weights files (refused, or only inside --weights-dir), bounded
//! output with backpressure, descriptor exhaustion, slot pinning (line and
//! idle deadlines, the search cap, the per-address limit), one-line
//! responses, exit statuses and warnings.
//!
//! No test asserts how fast something happens: deadlines are set short and
//! the waits for them are long hang guards.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{LineIo, Server, TcpClient, bin, peak_rss_kib, rss_kib, scratch_dir};

const SHIPPED: &[u8] = include_bytes!("../src/eval/gulbara.gbnn");

/// How long a test waits for something the server must do by itself.
const GUARD: Duration = Duration::from_secs(30);

/// Reads until the server closes the connection; returns what came.
fn read_to_close(c: &mut TcpClient) -> Vec<String> {
    std::iter::from_fn(|| c.recv_timeout(GUARD)).collect()
}

/// The one line a command is answered with (nothing else comes before `readyok`).
fn one_line_answer(c: &mut TcpClient, cmd: &str) -> String {
    c.ask(cmd, 1).remove(0)
}

/// The single text every file-system refusal gets, over TCP, with a weights directory.
const REFUSED: &str = "error bad_value engine.weights: no readable weights file of that name in the weights directory";

#[test]
fn without_a_weights_dir_a_client_reads_no_file() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    let rss_before = rss_kib(server.pid()).unwrap_or(0);
    let mut answers = Vec::new();
    for path in [
        "/dev/zero",
        "/etc/passwd",
        "/nonexistent",
        "/tmp",
        "/proc/self/fd/0",
    ] {
        let a = one_line_answer(&mut c, &format!("set engine.weights {path}"));
        assert!(a.starts_with("error unsupported engine.weights"), "{a}");
        assert!(!a.contains(path), "the answer names the path: {a}");
        answers.push(a);
    }
    // Each path gets the same answer: nothing to learn about the files.
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    assert_eq!(
        c.ask("get engine.weights", 1),
        vec!["value engine.weights shipped"]
    );
    c.sync();
    assert!(c.ask("set engine.weights shipped", 0).is_empty());
    // /dev/zero was not read: no gigabytes.
    let rss_after = rss_kib(server.pid()).unwrap_or(0);
    assert!(
        rss_after < rss_before + 50 * 1024,
        "{rss_before} -> {rss_after} KiB"
    );
}

#[cfg(unix)]
#[test]
fn a_weights_dir_serves_only_its_own_regular_files() {
    let base = scratch_dir("weights-dir");
    let dir = base.join("nets");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("good.gbnn"), SHIPPED).unwrap();
    std::fs::write(dir.join("sub/also.gbnn"), SHIPPED).unwrap();
    std::fs::write(dir.join("bad.gbnn"), b"GBNN not really").unwrap();
    // A valid file outside the directory, reachable by `..`, a symlink and its absolute path.
    std::fs::write(base.join("outside.gbnn"), SHIPPED).unwrap();
    std::os::unix::fs::symlink(base.join("outside.gbnn"), dir.join("link.gbnn")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero")).unwrap();
    let fifo = dir.join("fifo");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    // Bigger than any weights file may be (sparse: no disk used).
    let huge = std::fs::File::create(dir.join("huge.gbnn")).unwrap();
    huge.set_len(17 << 20).unwrap();
    drop(huge);

    let server = Server::start(&["--weights-dir", dir.to_str().unwrap()]);
    let mut c = server.connect();
    for good in [
        "good.gbnn",
        "sub/also.gbnn",
        "./sub/../good.gbnn",
        dir.join("good.gbnn").to_str().unwrap(),
    ] {
        c.send(&format!("set engine.weights {good}"));
        c.sync();
        assert_eq!(
            c.ask("get engine.weights", 1),
            vec![format!("value engine.weights {good}")]
        );
    }
    c.send("dice 6 5");
    c.send("go");
    let got = c.recv_until("bestmove");
    assert!(got.last().unwrap().starts_with("bestmove 24/"), "{got:?}");
    c.sync();

    let outside = base.join("outside.gbnn");
    for refused in [
        "../outside.gbnn",
        outside.to_str().unwrap(),
        "link.gbnn",
        "zero",
        "fifo",
        "huge.gbnn",
        "missing.gbnn",
        "sub",
        ".",
        "/etc/passwd",
    ] {
        let a = one_line_answer(&mut c, &format!("set engine.weights {refused}"));
        assert_eq!(a, REFUSED, "{refused}");
    }
    // A file inside the directory may say what is wrong with its contents.
    let a = one_line_answer(&mut c, "set engine.weights bad.gbnn");
    assert!(
        a.starts_with("error bad_value engine.weights: bad weights file"),
        "{a}"
    );
    // Refusals changed nothing.
    assert_eq!(
        c.ask("get engine.weights", 1),
        vec![format!(
            "value engine.weights {}",
            dir.join("good.gbnn").display()
        )]
    );
}

#[cfg(unix)]
#[test]
fn stdio_weights_never_block_or_stream() {
    let dir = scratch_dir("stdio-weights");
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut e = common::StdioEngine::start();
    for path in [
        "/dev/zero".to_string(),
        fifo.display().to_string(),
        "/proc/self/fd/0".to_string(),
    ] {
        e.send(&format!("set engine.weights {path}"));
        let a = e.recv();
        assert!(
            a.starts_with("error bad_value engine.weights:") && a.contains("not a regular file"),
            "{a}"
        );
        // Later input still reaches the engine (stdin was not swallowed).
        e.sync();
    }
    assert!(rss_kib(e.proc.0.id()).unwrap_or(0) < 100 * 1024);
}

#[test]
fn the_weights_cache_is_bounded_whatever_the_spelling() {
    let dir = scratch_dir("weights-cache");
    let file = dir.join("net.gbnn");
    std::fs::write(&file, SHIPPED).unwrap();
    // A few distinct networks too: the cache keeps only a handful.
    let mut distinct = Vec::new();
    for k in 0..8u8 {
        let mut bytes = SHIPPED.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= k + 1;
        let p = dir.join(format!("net{k}.gbnn"));
        std::fs::write(&p, bytes).unwrap();
        distinct.push(p);
    }
    let mut e = common::StdioEngine::start();
    e.sync();
    let before = rss_kib(e.proc.0.id()).unwrap_or(0);
    let dir_text = dir.display().to_string();
    for i in 0..3000 {
        // 3,000 distinct spellings of one file, each under PATH_MAX.
        let spelled = format!(
            "{dir_text}{}{}net.gbnn",
            "/.".repeat(i % 1500 + 1),
            "/".repeat(i / 1500 + 1)
        );
        e.send(&format!("set engine.weights {spelled}"));
        if i % 7 == 0 {
            e.send(&format!(
                "set engine.weights {}",
                distinct[i % distinct.len()].display()
            ));
        }
    }
    e.sync();
    let after = rss_kib(e.proc.0.id()).unwrap_or(0);
    // Unbounded, 3,000 copies of a 52 KB network would be over 150 MB.
    assert!(after < before + 40 * 1024, "{before} -> {after} KiB");
}

/// A client that sends `show` `thousands` × 1,000 times and never reads,
/// each write giving up after `timeout`: its socket, and a thread that
/// returns how many `show`s went out.
fn flood_without_reading(
    addr: &str,
    thousands: usize,
    timeout: Duration,
) -> (TcpStream, std::thread::JoinHandle<usize>) {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_write_timeout(Some(timeout)).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let flood = std::thread::spawn(move || {
        let chunk = "show\n".repeat(1000);
        let mut sent = 0;
        for _ in 0..thousands {
            if writer.write_all(chunk.as_bytes()).is_err() {
                break;
            }
            sent += 1000;
        }
        sent
    });
    (stream, flood)
}

#[test]
fn a_client_that_never_reads_is_bounded_then_closed() {
    let (server, log) = Server::start_logged(&["--write-timeout", "2", "--max-connections", "1"]);
    {
        let mut warm = server.connect();
        warm.sync();
        warm.send("quit");
        assert!(read_to_close(&mut warm).is_empty());
    }
    let before = peak_rss_kib(server.pid()).unwrap_or(0);
    // 100,000 `show`s (about 9 MB of answers), never read.
    let (stream, flood) = flood_without_reading(&server.addr, 100, Duration::from_secs(5));
    // The server closes the flooder once its output has gone unread for
    // --write-timeout (it logs that, then that the connection closed)...
    let peer = stream.local_addr().unwrap();
    log.wait_for("client does not read its output; closing", None);
    log.wait_closed(peer);
    // ... and has given its only slot back: the next client is served.
    server.connect().sync();
    let sent = flood.join().unwrap();
    assert!(sent > 0);
    // A megabyte of queue plus buffers, not the ~9 MB of answers.
    let peak = peak_rss_kib(server.pid()).unwrap_or(0);
    assert!(peak < before + 32 * 1024, "peak {before} -> {peak} KiB");
    drop(stream);
}

#[test]
fn pipelined_output_is_delivered_whole() {
    // Backpressure must not lose or reorder anything for a client that reads.
    let server = Server::start(&[]);
    let mut c = server.connect();
    let n = 5000;
    let mut burst = String::new();
    for _ in 0..n {
        burst.push_str("show\n");
    }
    let mut writer = c.stream.try_clone().unwrap();
    let t = std::thread::spawn(move || writer.write_all(burst.as_bytes()).unwrap());
    let mut shows = 0;
    while shows < n {
        let l = c.recv();
        if l == "showok" {
            shows += 1;
        } else {
            assert!(
                l.starts_with("board") || l.contains(' '),
                "unexpected line {l:?}"
            );
        }
    }
    t.join().unwrap();
    c.sync();
}

#[cfg(target_os = "linux")]
#[test]
fn out_of_descriptors_the_server_waits_and_keeps_serving() {
    let (server, log) = Server::start_logged(&["--max-connections", "8"]);
    let pid = server.pid() as libc::pid_t;
    let mut a = server.connect();
    a.sync();
    // The lowest free descriptor number: with the soft limit there, every
    // new descriptor is refused (EMFILE), while the open ones keep working.
    let open: std::collections::HashSet<u64> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    let open_fds = (0..).find(|n| !open.contains(n)).unwrap();
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    let tight = libc::rlimit {
        rlim_cur: open_fds,
        rlim_max: libc::RLIM_INFINITY,
    };
    // Only the soft limit changes; the hard one is read back and kept.
    // SAFETY: prlimit reads and writes only the structs given.
    let r = unsafe { libc::prlimit(pid, libc::RLIMIT_NOFILE, std::ptr::null(), &mut old) };
    assert_eq!(r, 0);
    let tight = libc::rlimit {
        rlim_max: old.rlim_max,
        ..tight
    };
    let r = unsafe { libc::prlimit(pid, libc::RLIMIT_NOFILE, &tight, std::ptr::null_mut()) };
    assert_eq!(r, 0);
    // The kernel completes the handshake; accept() fails with EMFILE.
    let mut b = server.connect();
    b.send("isready");
    log.wait_for("accept failed; retrying with a back-off", None);
    // The existing client is still served, and the server is still there.
    a.sync();
    a.send("dice 6 5");
    a.send("go ply 1");
    assert!(
        a.recv_until("bestmove")
            .last()
            .unwrap()
            .starts_with("bestmove ")
    );
    a.sync();
    let r = unsafe { libc::prlimit(pid, libc::RLIMIT_NOFILE, &old, std::ptr::null_mut()) };
    assert_eq!(r, 0);
    // Descriptors are back: the waiting client is accepted and answered.
    assert_eq!(b.recv(), "readyok");
    b.sync();
    let mut server = server;
    assert!(server.proc.0.try_wait().unwrap().is_none(), "server exited");
}

#[cfg(unix)]
#[test]
fn max_connections_is_clamped_below_the_descriptor_limit() {
    let log = scratch_dir("clamp").join("stderr.log");
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" serve --listen 127.0.0.1:0 --max-connections 5000")
        .arg(bin());
    let server = Server::spawn(cmd, std::fs::File::create(&log).unwrap());
    let mut c = server.connect();
    c.sync();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("--max-connections is above what the open-file limit allows; clamped"),
        "{text}"
    );
}

#[test]
fn a_real_failure_exits_non_zero() {
    // The address is taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    for args in [
        vec!["serve", "--listen", addr.as_str()],
        vec![
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--weights-dir",
            "/nonexistent/dir",
        ],
    ] {
        let out = Command::new(bin())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}: {:?}", out.status);
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn a_non_loopback_listener_is_warned_about() {
    let log = scratch_dir("loopback").join("stderr.log");
    let mut cmd = Command::new(bin());
    cmd.args(["serve", "--listen", "0.0.0.0:0"]);
    let server = Server::spawn(cmd, std::fs::File::create(&log).unwrap());
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let mut c = TcpClient::connect(&format!("127.0.0.1:{port}"));
    c.sync();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("WARN") && text.contains("not loopback"),
        "{text}"
    );
    // And a loopback listener is not.
    let log2 = scratch_dir("loopback2").join("stderr.log");
    let server2 = Server::start_with_stderr(&[], std::fs::File::create(&log2).unwrap());
    server2.connect().sync();
    let text = std::fs::read_to_string(&log2).unwrap();
    assert!(!text.contains("not loopback"), "{text}");
}

/// A client that sends `byte` every 200 ms and never ends a line, on a
/// server with `args`, until the server closes the connection: returns
/// what the server said before it closed. (The 200 ms is the pace of the
/// client being imitated, not a wait: the server's deadlines of a second
/// or more must close it whatever the pace.)
fn trickle_until_closed(args: &[&str], byte: u8) -> Vec<String> {
    let server = Server::start(args);
    let mut c = server.connect();
    c.sync();
    let mut writer = c.stream.try_clone().unwrap();
    let closed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = closed.clone();
    let trickle = std::thread::spawn(move || {
        while !seen.load(std::sync::atomic::Ordering::Relaxed) {
            if writer.write_all(&[byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let lines = read_to_close(&mut c);
    closed.store(true, std::sync::atomic::Ordering::Relaxed);
    trickle.join().unwrap();
    lines
}

#[test]
fn an_unfinished_line_must_be_finished_in_time() {
    // A byte now and then is no excuse (slowloris).
    assert_eq!(
        trickle_until_closed(&["--line-timeout", "1", "--idle-timeout", "0"], b'x'),
        vec!["error bad_state line not finished in time; closing the connection"]
    );
}

#[test]
fn bytes_of_an_unfinished_line_are_not_activity() {
    assert_eq!(
        trickle_until_closed(&["--idle-timeout", "1", "--line-timeout", "0"], b'i'),
        vec!["error bad_state idle timeout; closing the connection"]
    );
}

#[test]
fn go_infinite_is_capped_by_the_server() {
    let server = Server::start(&["--max-search-ms", "300"]);
    let mut c = server.connect();
    c.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    c.send("dice 1 1");
    c.send("go infinite");
    // No stop is sent: the cap ends the search and it answers.
    let got = c.recv_until("bestmove");
    assert!(got.last().unwrap().starts_with("bestmove 24/"), "{got:?}");
    c.sync();
    // A long movetime is capped too.
    c.send("go movetime 86400000");
    assert!(
        c.recv_until("bestmove")
            .last()
            .unwrap()
            .starts_with("bestmove ")
    );
    c.sync();
}

#[test]
fn loopback_scripts_share_only_the_global_limit() {
    // A local script opens 32 sessions at once: every one is served, though
    // --max-per-ip defaults to a quarter of the 64 slots.
    let server = Server::start(&[]);
    let mut clients: Vec<_> = (0..32).map(|_| server.connect()).collect();
    for c in &mut clients {
        c.sync();
    }
    // The global limit still holds for loopback.
    let small = Server::start(&["--max-connections", "2", "--max-per-ip", "1"]);
    let mut a = small.connect();
    let mut b = small.connect();
    a.sync();
    b.sync();
    let mut c = small.connect();
    assert_eq!(
        read_to_close(&mut c),
        vec!["error bad_state too many connections; try again later"]
    );
}

#[test]
fn one_address_cannot_take_every_slot() {
    // Loopback is held to the per-address limit with --limit-loopback, as
    // every other address is.
    let server = Server::start(&[
        "--max-connections",
        "8",
        "--max-per-ip",
        "2",
        "--limit-loopback",
    ]);
    let mut a = server.connect();
    let mut b = server.connect();
    a.sync();
    b.sync();
    let mut c = server.connect();
    assert_eq!(
        read_to_close(&mut c),
        vec!["error bad_state too many connections from your address; try again later"]
    );
    // The slot is given back before the close is seen: no retry needed.
    a.send("quit");
    assert!(read_to_close(&mut a).is_empty());
    let mut d = server.connect();
    d.sync();
    b.sync();
}

#[test]
fn every_response_stays_one_line() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    for bad in [
        "get a\rb",
        "set engine.weights a\rb",
        "set engine.weights a b",
        "set engine.beam \u{1b}[2J",
        "position board \r\r\r",
        "legal limit \u{7}",
    ] {
        c.send(bad);
        let a = c.recv();
        assert!(a.starts_with("error "), "{bad:?}: {a:?}");
        assert!(!a.chars().any(char::is_control), "{bad:?}: {a:?}");
        c.sync();
    }
    // engine.weights is still one token in key and value lines.
    c.send("keys");
    let line = c.recv_until("key engine.cube_min_ply");
    let w = line
        .iter()
        .find(|l| l.starts_with("key engine.weights "))
        .unwrap();
    assert!(w.starts_with("key engine.weights string shipped "), "{w}");
    c.sync();
}

#[test]
fn the_last_unterminated_line_obeys_max_line() {
    for (len, want) in [
        (
            65_537,
            "error bad_command line too long (more than 65536 bytes); ignored",
        ),
        (65_536, "error bad_command unknown command"),
    ] {
        let mut e = common::StdioEngine::start();
        e.send_bytes(&vec![b'x'; len]);
        e.close_input();
        let got = e.recv();
        assert!(got.starts_with(want), "{len}: {got}");
    }
    // And over TCP.
    let server = Server::start(&["--max-line", "100"]);
    let mut c = server.connect();
    c.send_bytes(&[b'x'; 101]);
    c.stream.shutdown(std::net::Shutdown::Write).unwrap();
    let lines = read_to_close(&mut c);
    assert_eq!(
        lines,
        vec!["error bad_command line too long (more than 100 bytes); ignored"]
    );
}

#[cfg(unix)]
#[test]
fn sigterm_ends_serve_while_handlers_are_busy() {
    let dir = scratch_dir("sigterm-busy");
    std::fs::write(dir.join("net.gbnn"), SHIPPED).unwrap();
    let (mut server, log) = Server::start_logged(&["--weights-dir", dir.to_str().unwrap()]);
    // One client searching forever, one half-way through a line, one that never reads.
    let mut searching = server.connect();
    searching.send("position board 0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w 3 3");
    searching.send("dice 1 1");
    searching.send("go infinite");
    searching.sync();
    let mut partial = server.connect();
    partial.send_bytes(b"set engine.we");
    let (flooder, flood) = flood_without_reading(&server.addr, 50, Duration::from_secs(2));
    // All three are being served when the signal comes.
    let peers = [&searching.stream, &partial.stream, &flooder].map(|s| s.local_addr().unwrap());
    log.wait_all("connection opened", &peers);
    server.proc.terminate();
    let status = server.proc.wait_timeout(GUARD);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let lines = read_to_close(&mut searching);
    assert!(
        lines
            .iter()
            .any(|l| l == "info string server shutting down"),
        "{lines:?}"
    );
    assert!(read_to_close(&mut partial).contains(&"info string server shutting down".to_string()));
    flood.join().unwrap();
}

/// Voluntary context switches of the process's `go` threads, by thread id.
#[cfg(target_os = "linux")]
fn go_thread_switches(pid: u32) -> std::collections::HashMap<String, u64> {
    let mut out = std::collections::HashMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
    {
        let path = task.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        if comm.trim() != "gulbara-go" {
            continue;
        }
        let status = std::fs::read_to_string(path.join("status")).unwrap_or_default();
        if let Some(n) = status
            .lines()
            .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|v| v.trim().parse().ok())
        {
            out.insert(task.file_name().to_string_lossy().into_owned(), n);
        }
    }
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_finished_go_infinite_waits_without_polling() {
    let server = Server::start(&[]);
    let mut clients: Vec<TcpClient> = (0..4).map(|_| server.connect()).collect();
    for c in &mut clients {
        c.send("position board 1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 30 30");
        c.send("dice 2 1");
        c.send("go infinite");
        // The one play is found at once; then the search waits for stop.
        let info = c.recv();
        assert!(info.starts_with("info depth"), "{info}");
        c.sync();
    }
    let before = go_thread_switches(server.pid());
    assert_eq!(before.len(), 4, "{before:?}");
    std::thread::sleep(Duration::from_secs(1));
    let after = go_thread_switches(server.pid());
    for (tid, n) in &before {
        let woke = after[tid] - n;
        // A 2 ms polling loop wakes about 500 times a second.
        assert!(woke < 25, "thread {tid} woke {woke} times in a second");
    }
    for c in &mut clients {
        c.send("stop");
        let got = c.recv_until("bestmove");
        assert_eq!(got.last().unwrap(), "bestmove 1/off", "{got:?}");
        c.sync();
    }
}
