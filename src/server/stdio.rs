//! The protocol on stdin/stdout (the GUI mode). Responses go to stdout,
//! flushed line by line; logs go to stderr.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

use super::connection::{Frame, LineFramer};
use crate::protocol::{Dialect, Flow, Output, Session, SessionConfig};

/// Runs one session on stdin/stdout until `quit` or the end of input, in
/// `variant` when given (as `set game.variant` would; a UBGI draft session,
/// whose boards are backgammon's, starts in backgammon), speaking
/// `dialect`. At the end of input a running search finishes and prints its
/// result first (a `go infinite` is stopped).
pub fn run(
    max_line: usize,
    variant: Option<crate::rules::Variant>,
    dialect: Dialect,
) -> std::io::Result<()> {
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    // The first write error to stdout (the GUI has gone): logged once, and
    // the session ends with it at the next line it reads.
    let failed: Arc<Mutex<Option<std::io::Error>>> = Arc::default();
    let out: Output = {
        let failed = Arc::clone(&failed);
        Arc::new(move |line: &str| {
            if let Ok(mut o) = stdout.lock()
                && let Err(e) = writeln!(o, "{line}").and_then(|()| o.flush())
                && let Ok(mut f) = failed.lock()
                && f.is_none()
            {
                tracing::error!(error = %e, "cannot write to stdout; the session ends");
                *f = Some(e);
            }
        })
    };
    let write_error = || failed.lock().ok().and_then(|mut f| f.take());
    let mut session = Session::with_config(
        out,
        SessionConfig {
            dialect,
            ..SessionConfig::default()
        },
    );
    let variant = match (variant, dialect) {
        (None, Dialect::UbgiDraft) => Some(crate::rules::Variant::Backgammon),
        (v, _) => v,
    };
    if let Some(v) = variant
        && let Err(e) = session.set_option("game.variant", &v.to_string())
    {
        // Every variant's name is a value of game.variant.
        tracing::error!(error = %e, "cannot start in {v}");
    }
    let mut framer = LineFramer::new(max_line);
    let mut stdin = std::io::stdin().lock();
    let mut chunk = vec![0u8; 8192];
    let mut frames = Vec::new();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            frames.extend(framer.finish());
        } else {
            framer.push(&chunk[..n], &mut frames);
        }
        for f in frames.drain(..) {
            let flow = match f {
                Frame::Line(bytes) => session.handle_bytes(&bytes),
                Frame::TooLong => {
                    session.line_too_long(framer.max());
                    Flow::Continue
                }
            };
            if let Some(e) = write_error() {
                return Err(e);
            }
            if flow == Flow::Quit {
                return Ok(());
            }
        }
        if n == 0 {
            session.finish_at_eof();
            return write_error().map_or(Ok(()), Err);
        }
    }
}
