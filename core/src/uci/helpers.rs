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

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Chess;

use crate::network::Network;
use crate::search::{Event, Limits, NetEvaluator, ScalarSearch, ScoreTable};
use crate::uci::UciEngine;

/// Nodes a helper searches between two looks at its stop flag.
pub const HELPER_SLICE_NODES: u64 = 2048;

/// What a host's helper threads need to join a scalar search (Lazy SMP):
/// each runs its own [`ScalarSearch`] of `root` over a copy of `network`,
/// sharing `table` with the main search, until the main search sends
/// `bestmove`.
pub struct HelperJob {
    /// Helper threads to start (`Threads` − 1).
    pub helpers: usize,
    /// The network, for each helper's evaluator.
    pub network: Network,
    /// The main search's transposition table.
    pub table: Arc<ScoreTable>,
    /// The position searched.
    pub root: Chess,
    /// Zobrist hashes of the game before `root`.
    pub game: Vec<u64>,
    /// Bytes of each helper's evaluation cache.
    pub cache_bytes: usize,
    /// Nodes the helpers have searched, added to the main search's in `info`.
    pub nodes: Arc<AtomicU64>,
}

impl HelperJob {
    /// One task per helper, all stopped by `stop`.
    pub fn tasks(self, stop: &Arc<AtomicBool>) -> Vec<HelperTask> {
        (0..self.helpers)
            .map(|_| HelperTask {
                network: self.network.clone(),
                table: self.table.clone(),
                root: self.root.clone(),
                game: self.game.clone(),
                cache_bytes: self.cache_bytes,
                nodes: self.nodes.clone(),
                stop: stop.clone(),
            })
            .collect()
    }
}

/// One helper's share of a Lazy SMP search, to run on its own thread.
pub struct HelperTask {
    network: Network,
    table: Arc<ScoreTable>,
    root: Chess,
    game: Vec<u64>,
    cache_bytes: usize,
    nodes: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl HelperTask {
    /// Searches until the pool stops this task's search (or the search ends
    /// by itself), writing to the shared table and counting its nodes in the
    /// job's counter; returns the nodes searched.
    pub fn run(self) -> u64 {
        let HelperTask { network, table, root, game, cache_bytes, nodes, stop } = self;
        let mut search = ScalarSearch::with_table(NetEvaluator::new(network, cache_bytes), table);
        search.start(root, &game, Limits::default());
        let mut should_stop = |_| stop.load(Ordering::Relaxed);
        let mut counted = 0;
        while !stop.load(Ordering::Relaxed) {
            let event = search.step(HELPER_SLICE_NODES, &mut should_stop);
            nodes.fetch_add(search.nodes() - counted, Ordering::Relaxed);
            counted = search.nodes();
            if event == Event::Finished {
                break;
            }
        }
        counted
    }
}

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
    pub start: Vec<HelperTask>,
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
            if let Some(job) = engine.helper_job() {
                let stop = Arc::new(AtomicBool::new(false));
                sync.start = job.tasks(&stop);
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
