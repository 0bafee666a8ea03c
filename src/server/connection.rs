//! Framing only: bytes in, whole lines out, with a maximum line length.
//!
//! [`LineFramer`] is the transport-independent core (used by stdio and TCP);
//! [`Connection`] reads frames from a TCP socket with it.

use tokio::io::AsyncReadExt;
use tokio::net::tcp::OwnedReadHalf;

/// The default maximum line length in bytes (line ending excluded).
pub const DEFAULT_MAX_LINE: usize = 65_536;

/// One unit of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line without its LF or CRLF ending (may be invalid UTF-8).
    Line(Vec<u8>),
    /// A line longer than the maximum; its bytes were discarded up to its end.
    TooLong,
}

/// Splits a byte stream into lines ending in LF or CRLF, cutting lines
/// longer than `max` bytes (reported once as [`Frame::TooLong`], the rest of
/// such a line up to its LF is dropped).
#[derive(Debug)]
pub struct LineFramer {
    buf: Vec<u8>,
    max: usize,
    discarding: bool,
}

impl LineFramer {
    /// A framer for lines of at most `max` bytes.
    pub fn new(max: usize) -> Self {
        LineFramer {
            buf: Vec::new(),
            max: max.max(1),
            discarding: false,
        }
    }

    /// The maximum line length.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Feeds bytes; complete frames are appended to `out`.
    pub fn push(&mut self, mut data: &[u8], out: &mut Vec<Frame>) {
        while !data.is_empty() {
            let nl = data.iter().position(|&b| b == b'\n');
            let (seg, rest, complete) = match nl {
                Some(i) => (&data[..i], &data[i + 1..], true),
                None => (data, &data[data.len()..], false),
            };
            data = rest;
            if self.discarding {
                if complete {
                    self.discarding = false;
                }
                continue;
            }
            self.buf.extend_from_slice(seg);
            // One byte of slack for the CR of a CRLF ending.
            if self.buf.len() > self.max + 1
                || (complete && self.buf.len() > self.max && self.buf.last() != Some(&b'\r'))
            {
                self.buf.clear();
                out.push(Frame::TooLong);
                self.discarding = !complete;
                continue;
            }
            if complete {
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                if self.buf.len() > self.max {
                    self.buf.clear();
                    out.push(Frame::TooLong);
                    continue;
                }
                out.push(Frame::Line(std::mem::take(&mut self.buf)));
            }
        }
    }

    /// At the end of input: a last line without a line ending, if any
    /// (held to the same maximum as every other line).
    pub fn finish(&mut self) -> Option<Frame> {
        if self.discarding {
            self.discarding = false;
            return None;
        }
        if self.buf.is_empty() {
            return None;
        }
        let mut line = std::mem::take(&mut self.buf);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.max {
            return Some(Frame::TooLong);
        }
        Some(Frame::Line(line))
    }

    /// Whether bytes of an unfinished line have been received (or an
    /// overlong line is being skipped).
    pub fn has_partial(&self) -> bool {
        self.discarding || !self.buf.is_empty()
    }
}

/// The reading side of a TCP connection, framed into lines.
pub struct Connection {
    reader: OwnedReadHalf,
    framer: LineFramer,
    ready: std::collections::VecDeque<Frame>,
    chunk: Vec<u8>,
    eof: bool,
    partial_since: Option<std::time::Instant>,
    line_timeout: Option<std::time::Duration>,
}

impl Connection {
    /// Frames `reader` with lines of at most `max_line` bytes.
    pub fn new(reader: OwnedReadHalf, max_line: usize) -> Self {
        Connection {
            reader,
            framer: LineFramer::new(max_line),
            ready: Default::default(),
            chunk: vec![0; 8192],
            eof: false,
            partial_since: None,
            line_timeout: None,
        }
    }

    /// A line, once begun, must be finished within `limit`; else
    /// [`Connection::read_frame`] fails with [`std::io::ErrorKind::TimedOut`]
    /// (bytes trickling in do not extend it).
    pub fn with_line_timeout(mut self, limit: Option<std::time::Duration>) -> Self {
        self.line_timeout = limit;
        self
    }

    /// The next frame; `None` at the end of input. Cancel-safe: a frame is
    /// never lost when the future is dropped before it completes.
    pub async fn read_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            if let Some(f) = self.ready.pop_front() {
                return Ok(Some(f));
            }
            if self.eof {
                return Ok(None);
            }
            let deadline = self
                .line_timeout
                .and_then(|d| self.partial_since.map(|t| t + d));
            let n = match deadline {
                None => self.reader.read(&mut self.chunk).await?,
                // Reading a socket is cancel-safe: no byte is lost on timeout.
                Some(at) => tokio::time::timeout_at(at.into(), self.reader.read(&mut self.chunk))
                    .await
                    .map_err(|_| {
                        std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            "line not finished in time",
                        )
                    })??,
            };
            if n == 0 {
                self.eof = true;
                if let Some(f) = self.framer.finish() {
                    self.ready.push_back(f);
                }
                continue;
            }
            let mut frames = Vec::new();
            self.framer.push(&self.chunk[..n], &mut frames);
            self.ready.extend(frames);
            if !self.framer.has_partial() {
                self.partial_since = None;
            } else if self.partial_since.is_none() || !self.ready.is_empty() {
                // A new unfinished line started in this chunk.
                self.partial_since = Some(std::time::Instant::now());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Frame> {
        let mut f = LineFramer::new(max);
        let mut out = Vec::new();
        for c in chunks {
            f.push(c, &mut out);
        }
        out.extend(f.finish());
        out
    }

    fn line(s: &str) -> Frame {
        Frame::Line(s.as_bytes().to_vec())
    }

    #[test]
    fn lf_crlf_and_split_chunks() {
        assert_eq!(
            frames(100, &[b"ab\r\ncd", b"\nef"]),
            vec![line("ab"), line("cd"), line("ef")]
        );
        assert_eq!(frames(100, &[b"\n\r\n"]), vec![line(""), line("")]);
    }

    #[test]
    fn the_last_unterminated_line_obeys_the_maximum() {
        assert_eq!(frames(4, &[b"abcd"]), vec![line("abcd")]);
        assert_eq!(frames(4, &[b"abcde"]), vec![Frame::TooLong]);
        assert_eq!(frames(4, &[b"ok\nabcd\r"]), vec![line("ok"), line("abcd")]);
        assert_eq!(
            frames(4, &[b"ok\nabcde\r"]),
            vec![line("ok"), Frame::TooLong]
        );
    }

    #[test]
    fn overlong_lines_are_cut_once() {
        let long = vec![b'x'; 50];
        assert_eq!(
            frames(10, &[&long, &long, b"\nok\n"]),
            vec![Frame::TooLong, line("ok")]
        );
        assert_eq!(
            frames(3, &[b"abc\r\nabcd\nabc\n"]),
            vec![line("abc"), Frame::TooLong, line("abc")]
        );
    }
}
