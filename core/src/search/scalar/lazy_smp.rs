//! Lazy SMP: helper searches of the same position over the main search's
//! transposition table, each on its own thread. The scalar search hands
//! out one [`ScalarHelper`] per helper ([`TakesHelpers`]), over a copy of
//! its evaluator ([`Evaluator::helper`]); a host runs each on a native
//! thread or a web worker.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Chess;

use crate::search::abilities::{HelperContext, HelperTask, TakesHelpers};
use crate::search::factory::split_hash;
use crate::search::interface::{Search, SearchKind};
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::score_table::ScoreTable;
use crate::search::scalar::search::ScalarSearch;
use crate::search::types::{Event, Limits};

/// Nodes a helper searches between two looks at its stop flag.
pub const HELPER_SLICE_NODES: u64 = 2048;

impl<E: Evaluator> ScalarSearch<E> {
    /// One helper per helper thread of `context`, each over a copy of the
    /// evaluator (none if the evaluator makes no copies).
    pub fn scalar_helpers(&self, context: &HelperContext<'_>) -> Vec<ScalarHelper<E>> {
        let cache_bytes = split_hash(SearchKind::Scalar, context.hash_mb).0;
        (0..context.helpers)
            .map_while(|_| self.evaluator().helper(cache_bytes))
            .map(|evaluator| ScalarHelper {
                evaluator,
                table: self.table().clone(),
                root: context.root.clone(),
                game: context.game.to_vec(),
                nodes: context.nodes.clone(),
                stop: context.stop.clone(),
                fifty_scale: self.fifty_scale(),
            })
            .collect()
    }
}

impl<E: Evaluator> TakesHelpers for ScalarSearch<E> {
    fn helper_tasks(&self, context: HelperContext<'_>) -> Vec<Box<dyn HelperTask>> {
        let helpers = self.scalar_helpers(&context).into_iter();
        helpers.map(|helper| Box::new(helper) as Box<dyn HelperTask>).collect()
    }
}

/// One helper's share of a Lazy SMP search of the scalar search.
pub struct ScalarHelper<E> {
    evaluator: E,
    table: Arc<ScoreTable>,
    root: Chess,
    game: Vec<u64>,
    nodes: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    fifty_scale: bool,
}

impl<E> ScalarHelper<E> {
    /// Whether the helper scales its evaluations by the fifty-move count,
    /// as the main search does ([`ScalarSearch::with_fifty_scale`]).
    pub fn fifty_scale(&self) -> bool {
        self.fifty_scale
    }
}

impl<E: Evaluator> HelperTask for ScalarHelper<E> {
    fn run(self: Box<Self>) -> u64 {
        let ScalarHelper { evaluator, table, root, game, nodes, stop, fifty_scale } = *self;
        let mut search = ScalarSearch::with_table(evaluator, table).with_fifty_scale(fifty_scale);
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
