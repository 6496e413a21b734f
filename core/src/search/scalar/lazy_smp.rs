//! Lazy SMP: helper searches of the same position over the main search's
//! transposition table, each on its own thread. [`HelperJob`] is what the
//! scalar search hands out; [`HelperTask`] is one helper's share, which a
//! host runs on a native thread or a web worker.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Chess;

use crate::deepchess::network::Network;
use crate::search::scalar::net_evaluator::NetEvaluator;
use crate::search::scalar::score_table::ScoreTable;
use crate::search::scalar::search::ScalarSearch;
use crate::search::seam::{HelperJob, Search};
use crate::search::vocabulary::{Event, Limits};

/// Nodes a helper searches between two looks at its stop flag.
pub const HELPER_SLICE_NODES: u64 = 2048;

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
                fifty_scale: self.fifty_scale,
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
    fifty_scale: bool,
}

impl HelperTask {
    /// Searches until the pool stops this task's search (or the search ends
    /// by itself), writing to the shared table and counting its nodes in the
    /// job's counter; returns the nodes searched.
    pub fn run(self) -> u64 {
        let HelperTask { network, table, root, game, cache_bytes, nodes, stop, fifty_scale } = self;
        let mut search =
            ScalarSearch::with_table(NetEvaluator::new(network, cache_bytes), table).with_fifty_scale(fifty_scale);
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
