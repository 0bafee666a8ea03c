//! The FIBS bot on a real FIBS server: BaldLies (`../shared/third-party/`,
//! a FIBS reimplementation in Perl) runs here on a free port with its own
//! data directory, and `gulbara fibs` plays on it.
//!
//! - Two gulbara bots register through `guest`, one invites the other, and
//!   they play 3-point matches to the end until one has seen a double
//!   (offered, taken or dropped).
//! - gulbara plays a match against BaldLies's own client bot, which plays
//!   through GNU Backgammon.
//!
//! BaldLies needs Debian's Perl modules (libconfig-general-perl,
//! libfile-homedir-perl, libdbd-sqlite3-perl, libnet-interface-perl) and
//! the second test gnubg; `.ci/run` installs them and runs these tests
//! (`--include-ignored`). Without them they fail and say what is missing.

mod common;

use std::io::Read;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{bin, free_port};

/// How long a whole match may take (a 3-point match takes seconds).
const MATCH_LIMIT: Duration = Duration::from_secs(300);

/// One BaldLies at a time: a port is picked free and then bound by the
/// server a moment later, so two servers started at once could pick the
/// same one, and the second test would talk to the first test's server.
static ONE_SERVER: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn baldlies_dir() -> PathBuf {
    common::shared_path("third-party/BaldLies")
}

/// A process group, killed whole when dropped (baldlies-client starts gnubg).
struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

/// `perl` with SIGPIPE ignored. BaldLies never handles it, so a write to a
/// bot that has just logged out and closed its socket would kill the
/// server (and the next bot's connection is refused); ignored, the write
/// fails and the server goes on. Rust resets SIGPIPE in the children it
/// spawns, so a shell sets it and `exec` keeps it (and the process).
fn perl() -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", "trap '' PIPE; exec perl \"$@\"", "perl"]);
    c
}

/// A BaldLies server with its own data directory (and the lock that keeps
/// it the only one).
struct Server {
    _proc: Group,
    _alone: std::sync::MutexGuard<'static, ()>,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Server {
    fn start(name: &str) -> Server {
        let alone = ONE_SERVER.lock().unwrap_or_else(|e| e.into_inner());
        let modules = Command::new("perl")
            .args([
                "-MConfig::General",
                "-MFile::HomeDir",
                "-MDBD::SQLite",
                "-MNet::Interface",
                "-e1",
            ])
            .stderr(Stdio::null())
            .status()
            .expect("perl");
        assert!(
            modules.success(),
            "BaldLies needs libconfig-general-perl libfile-homedir-perl libdbd-sqlite3-perl \
             libnet-interface-perl (.ci/run installs them)"
        );
        let bl = baldlies_dir();
        assert!(
            bl.join("bin/baldlies").is_file(),
            "BaldLies is not at {}",
            bl.display()
        );
        let dir =
            std::env::temp_dir().join(format!("gulbara-baldlies-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("data directory");
        let port = free_port();
        let child = perl()
            .arg("-w")
            .arg("-I")
            .arg(bl.join("lib"))
            .arg(bl.join("bin/baldlies"))
            .args(["-d", "--listen", &format!("127.0.0.1:{port}")])
            .env("BALDLIES_DATA_DIR", &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start BaldLies");
        let server = Server {
            _proc: Group(child),
            _alone: alone,
            port,
            dir,
        };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "BaldLies did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
}

/// A bot's summary line: won, lost, doubles, takes, drops.
fn report(stdout: &str) -> [u32; 5] {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("matches won "))
        .unwrap_or_else(|| panic!("no report in {stdout:?}"));
    let nums: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    nums.try_into()
        .unwrap_or_else(|_| panic!("bad report {line:?}"))
}

/// Runs `gulbara fibs ARGS` to its end; its stdout.
fn run_bot(args: &[&str]) -> String {
    let mut child = Command::new(bin())
        .args(["--log-level", "gulbara=debug", "fibs"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot");
    let mut out = String::new();
    let mut err = String::new();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let e = std::thread::spawn(move || {
        let _ = stderr.read_to_string(&mut err);
        err
    });
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break s;
        }
        if start.elapsed() > MATCH_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the bot {args:?} did not finish in {MATCH_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = stdout.read_to_string(&mut out);
    let err = e.join().unwrap_or_default();
    let tail: Vec<&str> = err.lines().rev().take(40).collect();
    assert!(
        status.success(),
        "bot {args:?} failed; the end of its log:\n{}",
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    );
    out
}

/// A gulbara bot waiting for invitations, playing on until killed.
fn waiting_bot(server: &Server, user: &str) -> Group {
    let child = Command::new(bin())
        .args(["fibs", "--server", &server.addr(), "--user", user])
        .args(["--password", &format!("{user}-pw"), "--register"])
        .args(["--set", "engine.ply=1", "--idle-timeout", "300"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start the waiting bot");
    Group(child)
}

#[test]
#[ignore = "runs BaldLies, which needs Debian's Perl modules (.ci/run installs them)"]
fn two_gulbara_bots_play_3_point_matches_with_the_cube_on_baldlies() {
    // Each match on a fresh server: BaldLies does not always start a second
    // match between the same two players (the board stays between games).
    let mut cube_actions = 0;
    let mut matches = 0;
    while cube_actions == 0 && matches < 6 {
        let server = Server::start("bots");
        let _alice = waiting_bot(&server, "alice");
        let addr = server.addr();
        let out = run_bot(&[
            "--server",
            &addr,
            "--user",
            "bob",
            "--password",
            "bob-pw",
            "--register",
            "--invite",
            "alice",
            "--length",
            "3",
            "--set",
            "engine.ply=1",
            "--idle-timeout",
            "120",
        ]);
        let [won, lost, doubles, takes, drops] = report(&out);
        assert_eq!(won + lost, 1, "{out}");
        matches += 1;
        cube_actions += doubles + takes + drops;
    }
    assert!(cube_actions > 0, "no double in {matches} 3-point matches");
}

#[test]
#[ignore = "runs BaldLies and gnubg (.ci/run installs them)"]
fn gulbara_plays_a_match_against_baldlies_gnubg_bot() {
    let gnubg = PathBuf::from("/usr/games/gnubg");
    assert!(
        gnubg.is_file(),
        "gnubg is not installed (.ci/run installs it)"
    );
    let server = Server::start("gnubot");
    // Registered and made ready by a bot that logs out again, as the
    // client cannot do it itself.
    let out = run_bot(&[
        "--server",
        &server.addr(),
        "--user",
        "gnubot",
        "--password",
        "gnubot-pw",
        "--register",
        "--setup",
    ]);
    assert_eq!(report(&out), [0; 5], "{out}");
    let conf = server.dir.join("gnubot.conf");
    std::fs::write(
        &conf,
        format!(
            "backend GNU\nbackend_path {}\nbackend_port {}\nhost 127.0.0.1\nport {}\n",
            gnubg.display(),
            free_port(),
            server.port
        ),
    )
    .unwrap();
    let bl = baldlies_dir();
    let home = server.dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let client = perl()
        .arg("-I")
        .arg(bl.join("lib"))
        .arg(bl.join("bin/baldlies-client"))
        .arg("-c")
        .arg(&conf)
        .args(["-u", "gnubot", "-p", "gnubot-pw"])
        .env("HOME", &home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start baldlies-client");
    let _client = Group(client);
    // BaldLies's client cannot answer a double (it asks the server for a
    // board, a command BaldLies does not have), so gulbara does not offer
    // one here; gnubg's doubles are answered.
    let out = run_bot(&[
        "--server",
        &server.addr(),
        "--user",
        "carol",
        "--password",
        "carol-pw",
        "--register",
        "--invite",
        "gnubot",
        "--length",
        "3",
        "--never-double",
        "--set",
        "engine.ply=1",
        "--idle-timeout",
        "120",
    ]);
    let [won, lost, doubles, _, _] = report(&out);
    assert_eq!((won + lost, doubles), (1, 0), "{out}");
}
