//! The search worker: one thread that runs a search job and can be stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::eval::Evaluator;
use crate::rules::RuleOptions;
use crate::search::Search;

/// What the worker thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A search for the best play (`go`).
    Go,
    /// An evaluation (`eval`).
    Eval,
    /// A ranking of the best plays (`hint`).
    Hint,
    /// A rollout (`rollout`).
    Rollout,
}

impl JobKind {
    /// The protocol command that starts this kind of job.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Go => "go",
            JobKind::Eval => "eval",
            JobKind::Hint => "hint",
            JobKind::Rollout => "rollout",
        }
    }
}

/// A search's stop request: a flag the search polls, and a condition
/// variable for a finished `go infinite` that waits for it without polling.
#[derive(Default)]
pub struct StopSignal {
    flag: AtomicBool,
    lock: Mutex<()>,
    raised: Condvar,
}

impl StopSignal {
    /// Asks the job to stop.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Release);
        // Taken so a waiter between its check and its wait cannot miss this.
        let _guard = self.lock.lock();
        self.raised.notify_all();
    }

    /// The flag the search and the rollouts poll.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Waits until raised, or until `deadline` passes.
    pub fn wait(&self, deadline: Option<Instant>) {
        let Ok(mut guard) = self.lock.lock() else {
            return;
        };
        while !self.flag.load(Ordering::Acquire) {
            guard = match deadline {
                None => match self.raised.wait(guard) {
                    Ok(g) => g,
                    Err(_) => return,
                },
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return;
                    }
                    match self.raised.wait_timeout(guard, left) {
                        Ok((g, _)) => g,
                        Err(_) => return,
                    }
                }
            };
        }
    }
}

/// What a job running on the worker has to work with.
pub struct Job<'a> {
    /// The search, judged by the engine's evaluator and stopped by `stop`.
    pub search: Search<'a>,
    /// The evaluator (the rollouts judge with it).
    pub eval: &'a dyn Evaluator,
    /// The game's rules.
    pub rules: RuleOptions,
    /// The job's stop request.
    pub stop: &'a StopSignal,
}

/// A job on its thread.
pub(super) struct Worker {
    pub(super) kind: JobKind,
    /// A `go infinite`: it waits for `stop` once its search is done.
    pub(super) infinite: bool,
    pub(super) stop: std::sync::Arc<StopSignal>,
    /// Set just before the job's results are handed on: from then on the
    /// engine is idle again (a client may answer those results at once).
    pub(super) done: std::sync::Arc<AtomicBool>,
    pub(super) handle: JoinHandle<()>,
}

impl Worker {
    /// Whether the job is over (its results handed on or being handed on).
    pub(super) fn finished(&self) -> bool {
        self.done.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Raises the stop and waits for the thread.
    pub(super) fn stop_and_join(self) {
        self.stop.raise();
        if self.handle.join().is_err() {
            tracing::error!("search thread panicked");
        }
    }
}
