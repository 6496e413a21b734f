//! Lazy SMP helpers: what a host needs to run helper threads beside the
//! main search, on native threads (`deepchess uci`) or on web workers that
//! share the module's memory (the browser's threaded builds).
//!
//! The host keeps a [`HelperPool`] and calls [`HelperPool::sync`] after every
//! call into the [`UciEngine`]. `sync` stops the helpers of a search that has
//! ended or been replaced, and hands out one [`HelperTask`] per helper for a
//! search that has just started with `Threads` above 1. Each task searches the
//! same position over the main search's transposition table until its stop
//! flag is set; [`HelperTask::run`] blocks its thread until then.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, Ordering};

use crate::search::abilities::HelperTask;
use crate::uci::engine::UciEngine;

/// The helpers of one search.
struct Running {
    /// The engine's [`search_id`](UciEngine::search_id) they help.
    search: u64,
    stop: Arc<AtomicBool>,
}

/// What [`HelperPool::sync`] asks of the host.
#[derive(Default)]
pub struct HelperSync {
    /// The running helpers were told to stop (a native host joins them now).
    pub stopped: bool,
    /// Tasks to start, one per new helper thread.
    pub start: Vec<Box<dyn HelperTask>>,
}

/// Keeps a host's helper threads in step with its engine's searches.
#[derive(Default)]
pub struct HelperPool {
    running: Option<Running>,
    /// The last search that was offered helpers, so that a search without
    /// them (`Threads` 1, the comparison search) is asked once, not on
    /// every slice.
    considered: Option<u64>,
}

impl HelperPool {
    /// A pool with no helpers running.
    pub fn new() -> HelperPool {
        HelperPool::default()
    }

    /// Call after every call into `engine`: stops the helpers of a search
    /// that has ended or been replaced by a new `go`, and returns the tasks
    /// of a search that has just started and wants helpers.
    pub fn sync(&mut self, engine: &UciEngine) -> HelperSync {
        let mut sync = HelperSync::default();
        let id = engine.search_id();
        if self.running.as_ref().is_some_and(|r| r.search != id || !engine.is_searching()) {
            sync.stopped = self.stop();
        }
        if engine.is_searching() && self.considered != Some(id) {
            self.considered = Some(id);
            let stop = Arc::new(AtomicBool::new(false));
            sync.start = engine.helper_tasks(&stop);
            if !sync.start.is_empty() {
                self.running = Some(Running { search: id, stop });
            }
        }
        sync
    }

    /// Tells the running helpers to stop; returns whether any were running.
    pub fn stop(&mut self) -> bool {
        match self.running.take() {
            Some(running) => {
                running.stop.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Whether helpers are running.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }
}
