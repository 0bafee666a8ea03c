//! Shared helpers for the protocol integration tests: the transcript format
//! of protocol/transcripts/*.txt and bounded line I/O with the real binary.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long any single expected line may take (debug builds search slowly).
pub const LINE_TIMEOUT: Duration = Duration::from_secs(60);

/// One expected response line.
#[derive(Debug, Clone)]
pub enum Expect {
    /// `< line`: exactly this.
    Exact(String),
    /// `<~ pattern`: `*` matches any run of characters.
    Pattern(String),
}

impl Expect {
    pub fn matches(&self, line: &str) -> bool {
        match self {
            Expect::Exact(s) => s == line,
            Expect::Pattern(p) => glob(p, line),
        }
    }
}

/// One command with the lines it must produce.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub send: String,
    pub expect: Vec<Expect>,
    pub line_no: usize,
}

/// `*` matches any run of characters (including none).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && p[pi] != '*' && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// Parses a transcript file.
pub fn parse_transcript(text: &str) -> Vec<Exchange> {
    let mut out: Vec<Exchange> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("> ") {
            out.push(Exchange {
                send: cmd.to_string(),
                expect: Vec::new(),
                line_no: i + 1,
            });
        } else if let Some(p) = line.strip_prefix("<~ ") {
            out.last_mut()
                .expect("expectation before any command")
                .expect
                .push(Expect::Pattern(p.to_string()));
        } else if let Some(l) = line.strip_prefix("< ") {
            out.last_mut()
                .expect("expectation before any command")
                .expect
                .push(Expect::Exact(l.to_string()));
        } else {
            panic!("transcript line {}: cannot read {line:?}", i + 1);
        }
    }
    out
}

/// Every transcript in protocol/transcripts (the native dialect's), by file name.
pub fn transcripts() -> Vec<(String, String)> {
    transcripts_in("")
}

/// Every transcript in protocol/transcripts/`sub`, by file name.
pub fn transcripts_in(sub: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("protocol/transcripts")
        .join(sub);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("protocol/transcripts")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts found");
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Line I/O with an engine, every read bounded by a timeout.
pub trait LineIo {
    fn send_bytes(&mut self, bytes: &[u8]);
    fn recv_timeout(&mut self, t: Duration) -> Option<String>;

    fn send(&mut self, line: &str) {
        let mut b = line.as_bytes().to_vec();
        b.push(b'\n');
        self.send_bytes(&b);
    }

    fn recv(&mut self) -> String {
        self.recv_timeout(LINE_TIMEOUT)
            .expect("timed out waiting for a response line")
    }

    /// Sends `isready` and expects `readyok` as the next synchronous line.
    /// A running search's `info` lines are asynchronous (SPEC orders only
    /// the answers to commands), so they may come first and are skipped;
    /// any other line before `readyok` fails the test.
    fn sync(&mut self) {
        self.sync_collect();
    }

    /// Like [`LineIo::sync`], returning the `info` lines that came first.
    fn sync_collect(&mut self) -> Vec<String> {
        self.send("isready");
        let mut info = Vec::new();
        loop {
            let l = self.recv();
            if l == "readyok" {
                return info;
            }
            assert!(l.starts_with("info "), "expected readyok, got {l:?}");
            info.push(l);
        }
    }

    /// Sends a line and reads exactly `n` response lines (then syncs).
    fn ask(&mut self, line: &str, n: usize) -> Vec<String> {
        self.send(line);
        let v: Vec<String> = (0..n).map(|_| self.recv()).collect();
        self.sync();
        v
    }

    /// Reads lines until one starts with `prefix`; returns them all.
    fn recv_until(&mut self, prefix: &str) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            v.push(l);
            if done {
                return v;
            }
        }
    }
}

/// Replays a transcript: after each command's expected lines, `isready`
/// must be answered by the very next line, so nothing unexpected was written.
pub fn replay(io: &mut dyn LineIo, name: &str, text: &str) {
    for ex in parse_transcript(text) {
        io.send(&ex.send);
        for e in &ex.expect {
            let got = io.recv_timeout(LINE_TIMEOUT).unwrap_or_else(|| {
                panic!(
                    "{name}:{}: '{}': timed out waiting for {e:?}",
                    ex.line_no, ex.send
                )
            });
            assert!(
                e.matches(&got),
                "{name}:{}: '{}': expected {e:?}, got {got:?}",
                ex.line_no,
                ex.send
            );
        }
        io.send("isready");
        let got = io.recv_timeout(LINE_TIMEOUT);
        assert_eq!(
            got.as_deref(),
            Some("readyok"),
            "{name}:{}: '{}': unexpected extra output",
            ex.line_no,
            ex.send
        );
    }
}

/// A child process killed when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Proc {
    /// Sends the process SIGTERM (through `kill`, as a supervisor would).
    pub fn terminate(&self) {
        let ok = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .expect("kill");
        assert!(ok.success());
    }

    /// Waits up to `t` for the process to exit.
    pub fn wait_timeout(&mut self, t: Duration) -> Option<std::process::ExitStatus> {
        let start = std::time::Instant::now();
        while start.elapsed() < t {
            if let Ok(Some(s)) = self.0.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// Lines of a reader, delivered through a channel by a thread.
pub fn line_channel(r: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Runs `lines` through one engine on a pipe and returns every reply
/// line; after a `go cube` or a `go` it waits for the search's last line
/// (`bestcube`, `bestmove` or an error) before sending more, so searches
/// never overlap. The engine must end cleanly after `quit`.
pub fn session_replies<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let mut child = Command::new(bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gulbara");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut got = Vec::new();
    for line in lines {
        let line = line.as_ref();
        writeln!(stdin, "{line}").expect("write");
        let last = match line {
            "go cube" => Some("bestcube"),
            "go" => Some("bestmove"),
            _ => None,
        };
        if let Some(last) = last {
            loop {
                let mut reply = String::new();
                assert!(
                    out.read_line(&mut reply).expect("read") > 0,
                    "gulbara ended"
                );
                let reply = reply.trim().to_string();
                let done = reply.starts_with(last) || reply.starts_with("error");
                got.push(reply);
                if done {
                    break;
                }
            }
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    let mut rest = String::new();
    while out.read_line(&mut rest).expect("read") > 0 {}
    got.extend(rest.lines().map(str::to_string));
    assert!(child.wait().expect("gulbara ends").success());
    got
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_gulbara")
}

/// The engine on a pipe.
pub struct StdioEngine {
    pub proc: Proc,
    pub stdin: Option<ChildStdin>,
    pub lines: mpsc::Receiver<String>,
}

impl StdioEngine {
    pub fn start() -> StdioEngine {
        StdioEngine::start_with(&[])
    }

    /// The engine on a pipe, started with these arguments.
    pub fn start_with(args: &[&str]) -> StdioEngine {
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gulbara");
        let stdin = child.stdin.take();
        let lines = line_channel(child.stdout.take().unwrap());
        StdioEngine {
            proc: Proc(child),
            stdin,
            lines,
        }
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }
}

impl LineIo for StdioEngine {
    fn send_bytes(&mut self, bytes: &[u8]) {
        let s = self.stdin.as_mut().expect("stdin open");
        s.write_all(bytes).expect("write to engine");
        s.flush().unwrap();
    }
    fn recv_timeout(&mut self, t: Duration) -> Option<String> {
        self.lines.recv_timeout(t).ok()
    }
}

/// `gulbara serve` on an ephemeral loopback port.
pub struct Server {
    pub proc: Proc,
    pub addr: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        Server::start_with_stderr(extra, Stdio::null())
    }

    /// Starts the server with its log (stderr) going to `stderr`.
    pub fn start_with_stderr(extra: &[&str], stderr: impl Into<Stdio>) -> Server {
        let mut cmd = Command::new(bin());
        cmd.args(["serve", "--listen", "127.0.0.1:0"]).args(extra);
        Server::spawn(cmd, stderr)
    }

    /// Starts a prepared `serve` command line (it must listen on port 0).
    pub fn spawn(mut cmd: Command, stderr: impl Into<Stdio>) -> Server {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start gulbara serve");
        let lines = line_channel(child.stdout.take().unwrap());
        let first = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("server announces its address");
        let addr = first
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_string();
        Server {
            proc: Proc(child),
            addr,
        }
    }

    /// Starts the server with its log at level `info`, read line by line:
    /// the log tells when a connection has been served to its end.
    pub fn start_logged(extra: &[&str]) -> (Server, ServerLog) {
        let mut cmd = Command::new(bin());
        cmd.args(["--log-level", "info", "serve", "--listen", "127.0.0.1:0"])
            .args(extra);
        let mut server = Server::spawn(cmd, Stdio::piped());
        let log = line_channel(server.proc.0.stderr.take().expect("stderr piped"));
        (server, ServerLog(log))
    }

    pub fn connect(&self) -> TcpClient {
        TcpClient::connect(&self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.proc.0.id()
    }
}

/// The log lines (stderr) of a server started by [`Server::start_logged`].
pub struct ServerLog(pub mpsc::Receiver<String>);

impl ServerLog {
    /// Waits for the next log line with `what` in it and, when `peer` is
    /// given, that peer's address as its `peer=` field; the lines before it
    /// are passed over. Panics if none comes within [`LINE_TIMEOUT`] (a
    /// hang guard) or the server exits first.
    pub fn wait_for(&self, what: &str, peer: Option<std::net::SocketAddr>) -> String {
        let field = peer.map(|p| format!("peer={p}"));
        loop {
            let line = self
                .0
                .recv_timeout(LINE_TIMEOUT)
                .unwrap_or_else(|_| panic!("no server log line {what:?} ({field:?})"));
            let from_peer = field
                .as_deref()
                .is_none_or(|f| line.split_whitespace().any(|w| w == f));
            if line.contains(what) && from_peer {
                return line;
            }
        }
    }

    /// Waits until the server logs that the connection from `peer` (the
    /// client's local address) is closed: its handler has ended, its
    /// search stopped and joined, and its slot given back.
    pub fn wait_closed(&self, peer: std::net::SocketAddr) -> String {
        self.wait_for("connection closed", Some(peer))
    }

    /// Waits until the server has logged `what` for every one of `peers`,
    /// in any order (e.g. "connection opened", "connection closed").
    pub fn wait_all(&self, what: &str, peers: &[std::net::SocketAddr]) {
        let mut left: Vec<String> = peers.iter().map(|p| format!("peer={p}")).collect();
        while !left.is_empty() {
            let line = self
                .0
                .recv_timeout(LINE_TIMEOUT)
                .unwrap_or_else(|_| panic!("never logged {what:?}: {left:?}"));
            if line.contains(what) {
                left.retain(|f| !line.split_whitespace().any(|w| w == f));
            }
        }
    }
}

/// `gulbara serve --http` (and `--listen` when asked) on ephemeral
/// loopback ports, with the addresses it announced.
pub struct Web {
    pub proc: Proc,
    /// `127.0.0.1:PORT` of the HTTP listener.
    pub http: String,
    /// The TCP listener's address, when one was asked for.
    pub tcp: Option<String>,
}

impl Web {
    pub fn start(with_tcp: bool, extra: &[&str]) -> Web {
        let mut cmd = Command::new(bin());
        cmd.arg("serve");
        if with_tcp {
            cmd.args(["--listen", "127.0.0.1:0"]);
        }
        cmd.args(["--http", "127.0.0.1:0"]).args(extra);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gulbara serve --http");
        let lines = line_channel(child.stdout.take().unwrap());
        let proc = Proc(child);
        let mut tcp = None;
        let mut http = None;
        for _ in 0..if with_tcp { 2 } else { 1 } {
            let l = lines
                .recv_timeout(Duration::from_secs(30))
                .expect("server announces its address");
            let addr = l.strip_prefix("listening ").expect("listening line");
            match addr.strip_prefix("http://") {
                Some(h) => http = Some(h.trim_end_matches('/').to_string()),
                None => tcp = Some(addr.to_string()),
            }
        }
        Web {
            proc,
            http: http.expect("an http listener"),
            tcp,
        }
    }
}

/// The resident set size of a process in KiB (Linux), from /proc.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// How many live threads of process `pid` are named `name` (Linux, from
/// /proc; a thread that has exited but not yet been released counts as
/// gone).
#[cfg(target_os = "linux")]
pub fn threads_named(pid: u32, name: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|t| {
            let path = t.path();
            let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
            let status = std::fs::read_to_string(path.join("status")).unwrap_or_default();
            let dead = status
                .lines()
                .find_map(|l| l.strip_prefix("State:"))
                .is_some_and(|s| s.trim_start().starts_with(['X', 'Z']));
            comm.trim() == name && !status.is_empty() && !dead
        })
        .count()
}

/// Waits until `done()` holds, checking it again and again; panics after
/// [`LINE_TIMEOUT`] (a hang guard: the test waits for the state, never for
/// a time).
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < LINE_TIMEOUT, "never happened: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The peak resident set size of a process in KiB (Linux), from /proc:
/// the most it ever held, however briefly.
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// A fresh empty directory under the target directory, for one test.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `gulbara ARGS` in `dir` with no input and waits for it; its output,
/// which must be a success (else the test fails with the command and what
/// it wrote on stderr).
pub fn gulbara_ok<S: AsRef<std::ffi::OsStr>>(
    dir: &std::path::Path,
    args: &[S],
) -> std::process::Output {
    let out = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("start gulbara");
    let words: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
    assert!(
        out.status.success(),
        "gulbara {}: {}\n{}",
        words.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// [`gulbara_ok`]'s standard output, as text.
pub fn gulbara_stdout<S: AsRef<std::ffi::OsStr>>(dir: &std::path::Path, args: &[S]) -> String {
    String::from_utf8_lossy(&gulbara_ok(dir, args).stdout).into_owned()
}

/// The words of a command line written as the docs write it: split at
/// white space, a `'...'` group kept whole (without its quotes), and `$B`
/// standing for the gulbara binary (as in `cmd=$B`).
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let word;
        if let Some(quoted) = rest.strip_prefix('\'') {
            let end = quoted
                .find('\'')
                .unwrap_or_else(|| panic!("an unclosed ' in {line:?}"));
            word = &quoted[..end];
            rest = &quoted[end + 1..];
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            word = &rest[..end];
            rest = &rest[end..];
        }
        out.push(word.replace("$B", bin()));
        rest = rest.trim_start();
    }
    out
}

/// [`gulbara_stdout`] of a command line's [`words`]: `gulbara LINE` in `dir`.
pub fn gulbara_line(dir: &std::path::Path, line: &str) -> String {
    gulbara_stdout(dir, &words(line))
}

/// `gulbara match` engine arguments: the network (named net) against the
/// heuristic baseline (named base), both at engine.ply 1; the network's
/// cube decisions at 0-ply too (`engine.cube_min_ply 1`), as the tests that
/// analyse them at `--ply 1` need.
pub const NET_VS_BASE: [&str; 9] = [
    "--engine",
    "cmd=builtin:net",
    "name=net",
    "option.engine.ply=1",
    "option.engine.cube_min_ply=1",
    "--engine",
    "cmd=builtin:heuristic",
    "name=base",
    "option.engine.ply=1",
];

/// `gulbara match` engine arguments: this build's binary twice, as engine
/// processes named a and b, both at engine.ply 1.
pub const SPAWNED_PAIR: [&str; 8] = [
    "--engine",
    concat!("cmd=", env!("CARGO_BIN_EXE_gulbara")),
    "name=a",
    "option.engine.ply=1",
    "--engine",
    concat!("cmd=", env!("CARGO_BIN_EXE_gulbara")),
    "name=b",
    "option.engine.ply=1",
];

/// `gulbara match` engine arguments: the random player twice, unnamed.
pub const RANDOM_PAIR: [&str; 4] = [
    "--engine",
    "cmd=builtin:random",
    "--engine",
    "cmd=builtin:random",
];

/// `gulbara match` engine arguments: the random player, named random.
pub const RANDOM_ENGINE: [&str; 3] = ["--engine", "cmd=builtin:random", "name=random"];

/// `gulbara match ARGS --json --no-progress` in the working directory: its
/// JSON summary.
pub fn match_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--no-progress"]);
    let text = gulbara_stdout(std::path::Path::new("."), &all);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("bad JSON '{text}': {e}"))
}

/// The count `key` of engine `i` (0 or 1) in a match's JSON summary.
pub fn engine_count(v: &serde_json::Value, key: &str, i: usize) -> u64 {
    v[key][i]
        .as_u64()
        .unwrap_or_else(|| panic!("no count {key}[{i}] in {v}"))
}

/// A loopback port free when asked, for a program that must be told its
/// port (one that can take port 0 and say which it bound should be given
/// 0 instead). Another process may take it before the program binds it.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("its address").port()
}

/// A path under `../shared` (the directory beside the repository that the
/// tests read at run time: the peer vectors in `peer-vectors/`, BaldLies in
/// `third-party/`). When it is missing the test fails with what is missing
/// and how to get it, instead of an unexplained read error.
pub fn shared_path(rel: &str) -> PathBuf {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let path = shared.join(rel);
    if !path.exists() {
        let shared_state = if shared.is_dir() {
            "../shared has no such path"
        } else {
            "there is no ../shared"
        };
        panic!(
            "this test reads ../shared/{rel} ({}), and {shared_state}. The tests read \
             the project's shared directory, `shared/` beside the repository, at run \
             time (README.md, \"Quick start\"): put a copy of it there (its \
             peer-vectors/ and third-party/), or run only the tests that do not need it",
            path.display(),
        );
    }
    path
}

/// The peer-vector file `name` (../shared/peer-vectors/`name`, read
/// through [`shared_path`]), as JSON.
pub fn peer_vector(name: &str) -> serde_json::Value {
    let path = shared_path(&format!("peer-vectors/{name}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

/// The dice of a peer-vector case: its `dice`, a list of die values.
pub fn case_dice(case: &serde_json::Value) -> Vec<u8> {
    let list = case["dice"]
        .as_array()
        .unwrap_or_else(|| panic!("a case without a dice list: {case}"));
    list.iter()
        .map(|d| match d.as_u64() {
            Some(d @ 1..=6) => d as u8,
            _ => panic!("a die that is not 1 to 6: {d} in {case}"),
        })
        .collect()
}

/// A stage's dice from their list: two different dice, or one value one to
/// four times.
pub fn stage_dice(dice: &[u8]) -> gulbara::rules::StageDice {
    use gulbara::rules::StageDice;
    match dice {
        [a, b] if a != b => StageDice::Pair(*a, *b),
        [die, ..] if dice.iter().all(|d| d == die) => StageDice::Same {
            die: *die,
            count: dice.len() as u8,
        },
        _ => panic!("not a stage's dice: {dice:?}"),
    }
}

/// A protocol client over TCP.
pub struct TcpClient {
    pub stream: TcpStream,
    pub lines: mpsc::Receiver<String>,
}

impl TcpClient {
    pub fn connect(addr: &str) -> TcpClient {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_write_timeout(Some(LINE_TIMEOUT)).unwrap();
        let lines = line_channel(stream.try_clone().unwrap());
        TcpClient { stream, lines }
    }
}

impl LineIo for TcpClient {
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("write to server");
    }
    fn recv_timeout(&mut self, t: Duration) -> Option<String> {
        self.lines.recv_timeout(t).ok()
    }
}

#[test]
fn words_split_as_the_docs_write_them() {
    assert_eq!(
        words("  match --setup 'set game.variant fevga'  --engine cmd=$B x "),
        [
            "match",
            "--setup",
            "set game.variant fevga",
            "--engine",
            &format!("cmd={}", bin()),
            "x"
        ]
    );
    assert_eq!(words("''"), [""]);
    assert!(words(" ").is_empty());
}

#[test]
fn glob_works() {
    assert!(glob("a * c", "a b c"));
    assert!(glob("a*", "a"));
    assert!(glob("*", ""));
    assert!(glob("x * y * z", "x 1 2 y 3 z"));
    assert!(!glob("a * c", "a b d"));
    assert!(!glob("abc", "abcd"));
}
