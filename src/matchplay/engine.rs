//! A client for one engine that speaks the gulbara protocol: a spawned
//! process (stdin/stdout) or a TCP connection (`tcp://host:port`).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is reached and set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// A command line, or `tcp://host:port`.
    pub cmd: String,
    /// A label for reports.
    pub name: String,
    /// `set <key> <value>` sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses the cutechess-style `cmd=... name=... option.k=v` words.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut cmd = None;
        let mut name = None;
        let mut options = Vec::new();
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("engine argument '{w}' is not key=value"))?;
            match k {
                "cmd" => cmd = Some(v.to_string()),
                "name" => name = Some(v.to_string()),
                _ => match k.strip_prefix("option.") {
                    Some(key) if !key.is_empty() => options.push((key.to_string(), v.to_string())),
                    _ => return Err(format!("unknown engine argument '{k}'")),
                },
            }
        }
        let cmd = cmd.ok_or("an engine needs cmd=<command line>")?;
        let name = name.unwrap_or_else(|| cmd.clone());
        Ok(EngineSpec { cmd, name, options })
    }
}

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// It could not be started or reached.
    #[error("cannot start engine: {0}")]
    Start(String),
    /// It closed its output or the connection.
    #[error("engine closed the connection")]
    Closed,
    /// It did not answer in time.
    #[error("engine did not answer within {0} ms")]
    Timeout(u64),
    /// It answered with an error line or something unexpected.
    #[error("engine said: {0}")]
    Protocol(String),
}

enum Link {
    Process(Child, std::process::ChildStdin),
    Tcp(TcpStream),
}

/// A live engine.
pub struct Engine {
    link: Link,
    lines: Receiver<String>,
    /// Lines the engine wrote that were not the awaited answer (for logs).
    pub chatter: Vec<String>,
}

fn reader_thread<R: std::io::Read + Send + 'static>(r: R) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\r', '\n'])
                        .to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

impl Engine {
    /// Starts (or connects to) the engine, does the handshake and sends its options.
    pub fn start(
        spec: &EngineSpec,
        extra: &[(String, String)],
        timeout: Duration,
    ) -> Result<Engine, EngineError> {
        let mut engine = if let Some(addr) = spec.cmd.strip_prefix("tcp://") {
            let stream =
                TcpStream::connect(addr).map_err(|e| EngineError::Start(format!("{addr}: {e}")))?;
            let _ = stream.set_nodelay(true);
            let read = stream
                .try_clone()
                .map_err(|e| EngineError::Start(e.to_string()))?;
            Engine {
                link: Link::Tcp(stream),
                lines: reader_thread(read),
                chatter: Vec::new(),
            }
        } else {
            let words = shell_words(&spec.cmd);
            let (prog, args) = words
                .split_first()
                .ok_or_else(|| EngineError::Start("empty command".into()))?;
            let mut child = Command::new(prog)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| EngineError::Start(format!("{}: {e}", spec.cmd)))?;
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| EngineError::Start("no stdin".into()))?;
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| EngineError::Start("no stdout".into()))?;
            Engine {
                link: Link::Process(child, stdin),
                lines: reader_thread(stdout),
                chatter: Vec::new(),
            }
        };
        engine.send("ubgi")?;
        engine.expect(|l| l == "ubgiok", timeout)?;
        for (k, v) in spec.options.iter().chain(extra) {
            engine.send(&format!("set {k} {v}"))?;
        }
        engine.send("isready")?;
        let answer = engine.expect(|l| l == "readyok" || l.starts_with("error "), timeout)?;
        if answer.starts_with("error ") {
            return Err(EngineError::Protocol(answer));
        }
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let data = format!("{line}\n");
        let r = match &mut self.link {
            Link::Process(_, stdin) => stdin.write_all(data.as_bytes()).and_then(|_| stdin.flush()),
            Link::Tcp(s) => s.write_all(data.as_bytes()),
        };
        r.map_err(|_| EngineError::Closed)
    }

    /// Waits for a line matching `want`; other lines are kept as chatter,
    /// except `error` lines, which fail at once.
    pub fn expect(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if want(&line) {
                        return Ok(line);
                    }
                    if line.starts_with("error ") {
                        return Err(EngineError::Protocol(line));
                    }
                    if self.chatter.len() < 64 {
                        self.chatter.push(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout(timeout.as_millis() as u64));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Closed),
            }
        }
    }

    /// Asks for the best turn: returns the words after `bestmove`.
    pub fn best_move(
        &mut self,
        position: &str,
        dice: Option<(u8, u8)>,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        self.chatter.clear();
        self.send(&format!("position board {position}"))?;
        if let Some((a, b)) = dice {
            self.send(&format!("dice {a} {b}"))?;
        }
        self.send("go")?;
        let line = self.expect(|l| l.starts_with("bestmove"), timeout)?;
        Ok(line
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect())
    }

    /// Says goodbye and reaps the process.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        if let Link::Process(child, _) = &mut self.link {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Link::Process(child, _) = &mut self.link
            && let Ok(None) = child.try_wait()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Splits a command line into words, honouring single and double quotes.
pub fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                has = true;
            }
            None if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            None => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
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
        assert!(EngineSpec::parse(&["name=x".to_string()]).is_err());
        assert!(EngineSpec::parse(&["bogus".to_string()]).is_err());
    }

    #[test]
    fn shell_words_honour_quotes() {
        assert_eq!(shell_words("a 'b c' \"d\"  e"), vec!["a", "b c", "d", "e"]);
        assert_eq!(
            shell_words("python3 -c 'print(1)'"),
            vec!["python3", "-c", "print(1)"]
        );
    }
}
