//! Long calls: the work runs on a thread of its own while the caller's
//! thread, without the GIL, waits for it and for its progress reports;
//! between them it takes the GIL back to check for signals (Ctrl-C raises
//! the stop flag the work watches, and the call then raises
//! `KeyboardInterrupt`) and to hand the reports to a Python callback.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

/// How often the waiting thread looks at signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work(stop, report)` on a scoped thread and waits for it without
/// the GIL. Each value `work` sends through `report` is handed to
/// `on_report` with the GIL held; an error from `on_report` (an exception
/// in a callback) or a signal (Ctrl-C) raises the stop flag, waits for
/// the work to end, and is returned.
pub(crate) fn run<T, R, W>(
    py: Python<'_>,
    work: W,
    mut on_report: impl FnMut(Python<'_>, R) -> PyResult<()>,
) -> PyResult<T>
where
    T: Send,
    R: Send,
    W: FnOnce(&AtomicBool, &mpsc::Sender<R>) -> T + Send,
{
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<R>();
    // Shared with the GIL-free wait (a receiver alone is not `Sync`).
    let rx = std::sync::Mutex::new(rx);
    std::thread::scope(|scope| {
        let stop_ref = &stop;
        let handle = scope.spawn(move || {
            let tx = tx;
            work(stop_ref, &tx)
        });
        let mut failure: Option<PyErr> = None;
        loop {
            let got = py.detach(|| match rx.lock() {
                Ok(rx) => rx.recv_timeout(POLL),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            });
            match got {
                Ok(r) => {
                    if failure.is_none()
                        && let Err(e) = on_report(py, r)
                    {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(e);
                    }
                }
                // The work has ended (its sender is gone).
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if failure.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::Relaxed);
                failure = Some(e);
            }
        }
        let out = py.detach(|| handle.join());
        if let Some(e) = failure {
            return Err(e);
        }
        match out {
            Ok(v) => Ok(v),
            Err(_) => Err(crate::err("the engine's worker thread failed")),
        }
    })
}
