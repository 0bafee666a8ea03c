//! A connection's output: a queue bounded in bytes between the session
//! (which writes lines from the reading task and from its search thread,
//! and must never block) and the task that writes them to the socket.
//!
//! The reading side stops taking commands while the queue is backlogged
//! (backpressure); a line that would take the queue past its bound, or a
//! write that does not complete in time, loses the connection. The same
//! queue serves TCP and WebSocket connections ([`LineSink`]).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::Notify;

/// Most bytes handed to the socket in one write.
const BATCH: usize = 64 * 1024;

#[derive(Default)]
struct State {
    lines: VecDeque<String>,
    /// Bytes queued, line endings included.
    bytes: usize,
    /// The reader waits for the queue to drain.
    reader_paused: bool,
    /// No more lines will come: the writer exits once the queue is empty.
    finishing: bool,
    /// Output was lost (overflow or a failed write): the connection ends.
    lost: bool,
}

/// The bounded output queue of one connection.
pub struct OutputQueue {
    state: Mutex<State>,
    limit: usize,
    wake_writer: Notify,
    wake_reader: Notify,
}

impl OutputQueue {
    /// A queue of at most `limit` bytes.
    pub fn new(limit: usize) -> OutputQueue {
        OutputQueue {
            state: Mutex::default(),
            limit: limit.max(BATCH),
            wake_writer: Notify::new(),
            wake_reader: Notify::new(),
        }
    }

    /// The reader pauses above this many queued bytes...
    fn pause_at(&self) -> usize {
        self.limit / 4
    }

    /// ...and resumes at or below this many.
    fn resume_at(&self) -> usize {
        self.limit / 16
    }

    /// Queues one line (without its line ending). Never blocks: a line that
    /// does not fit marks the output lost instead.
    pub fn push(&self, line: &str) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        if s.lost || s.finishing {
            return;
        }
        let size = line.len() + 1;
        if s.bytes + size > self.limit {
            s.lost = true;
            s.lines.clear();
            s.bytes = 0;
            drop(s);
            self.wake_reader.notify_one();
            self.wake_writer.notify_one();
            return;
        }
        s.lines.push_back(line.to_string());
        s.bytes += size;
        drop(s);
        self.wake_writer.notify_one();
    }

    /// Whether output was lost (the connection must end).
    pub fn is_lost(&self) -> bool {
        self.state.lock().map(|s| s.lost).unwrap_or(true)
    }

    /// Whether the reader should pause; if so, it is woken through
    /// [`OutputQueue::reader_wakeup`] once the queue has drained.
    pub fn is_backlogged(&self) -> bool {
        let Ok(mut s) = self.state.lock() else {
            return false;
        };
        let backlogged = s.bytes > self.pause_at();
        if backlogged {
            s.reader_paused = true;
        }
        backlogged
    }

    /// Completes when the queue has drained after a pause, or output was lost.
    pub async fn reader_wakeup(&self) {
        self.wake_reader.notified().await;
    }

    /// No more lines: the writer sends what is queued, then stops.
    pub fn finish(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.finishing = true;
        }
        self.wake_writer.notify_one();
    }

    fn mark_lost(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.lost = true;
            s.lines.clear();
            s.bytes = 0;
        }
        self.wake_reader.notify_one();
    }

    /// The next batch of lines to write (at most [`BATCH`] bytes, or one
    /// longer line); `None` when the writer should stop (`Some(empty)`
    /// never: it waits instead).
    async fn next_batch(&self) -> Option<Vec<String>> {
        loop {
            {
                let Ok(mut s) = self.state.lock() else {
                    return None;
                };
                if s.lost {
                    return None;
                }
                if !s.lines.is_empty() {
                    let mut batch = Vec::new();
                    let mut size = 0;
                    while let Some(line) = s.lines.front() {
                        let n = line.len() + 1;
                        if !batch.is_empty() && size + n > BATCH {
                            break;
                        }
                        size += n;
                        s.bytes -= n;
                        if let Some(line) = s.lines.pop_front() {
                            batch.push(line);
                        }
                    }
                    if s.reader_paused && s.bytes <= self.resume_at() {
                        s.reader_paused = false;
                        drop(s);
                        self.wake_reader.notify_one();
                    }
                    return Some(batch);
                }
                if s.finishing {
                    return None;
                }
            }
            // notify_one keeps a permit, so a line pushed since the check wakes us.
            self.wake_writer.notified().await;
        }
    }
}

/// Where a connection's output lines go: a byte stream (TCP, lines ending
/// in LF) or a message stream (WebSocket, one text message a line).
pub trait LineSink: Send + 'static {
    /// Writes `lines` in order, whole.
    fn write_lines(
        &mut self,
        lines: Vec<String>,
    ) -> impl Future<Output = std::io::Result<()>> + Send;
    /// Ends the stream politely (TCP: shutdown; WebSocket: a close frame).
    fn close(self) -> impl Future<Output = ()> + Send;
}

impl LineSink for OwnedWriteHalf {
    async fn write_lines(&mut self, lines: Vec<String>) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in &lines {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
        self.write_all(&buf).await
    }

    async fn close(mut self) {
        let _ = self.shutdown().await;
    }
}

/// Writes the queue's lines to `wr` until the queue finishes (then hands
/// the sink back, for the caller to close after giving back its slot) or a
/// write fails or takes longer than `timeout`.
pub async fn write_loop<W: LineSink>(
    mut wr: W,
    queue: std::sync::Arc<OutputQueue>,
    timeout: Duration,
) -> Option<W> {
    while let Some(batch) = queue.next_batch().await {
        match tokio::time::timeout(timeout, wr.write_lines(batch)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "write failed");
                queue.mark_lost();
                return None;
            }
            Err(_) => {
                tracing::warn!(
                    timeout_s = timeout.as_secs_f64(),
                    "client has not read its output in time"
                );
                queue.mark_lost();
                return None;
            }
        }
    }
    if queue.is_lost() { None } else { Some(wr) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_bound_loses_the_output() {
        let q = OutputQueue::new(BATCH);
        let line = "x".repeat(1000);
        for _ in 0..65 {
            q.push(&line);
        }
        assert!(!q.is_lost());
        assert!(q.is_backlogged());
        q.push(&line);
        assert!(q.is_lost());
        // Nothing is kept once lost.
        assert_eq!(q.state.lock().unwrap().bytes, 0);
    }

    #[test]
    fn batches_keep_line_order_and_release_the_reader() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let q = OutputQueue::new(4 * BATCH);
            for i in 0..20_000 {
                q.push(&format!("line {i}"));
            }
            assert!(q.is_backlogged());
            q.finish();
            let mut lines = Vec::new();
            while let Some(b) = q.next_batch().await {
                assert!(b.iter().map(|l| l.len() + 1).sum::<usize>() <= BATCH);
                lines.extend(b);
            }
            assert_eq!(lines.len(), 20_000);
            assert_eq!(lines[19_999], "line 19999");
            // The reader was paused and has been woken.
            tokio::time::timeout(Duration::from_secs(5), q.reader_wakeup())
                .await
                .unwrap();
        });
    }
}
