//! MCTS by batches of leaves ([`BatchedSearch`]), where its network
//! evaluates on a host's device.

use alloc::vec::Vec;

use crate::alphazero::leaf_batch::{LeafBatch, outputs_len};
use crate::search::abilities::BatchedSearch;
use crate::search::mcts::policy_value::PolicyValue;
use crate::search::mcts::search::MctsSearch;
use crate::search::types::Event;

impl<E: PolicyValue> BatchedSearch for MctsSearch<E> {
    fn gather_planes(&mut self, max: usize) -> Option<Vec<f32>> {
        self.gather(max).map(LeafBatch::planes)
    }

    fn in_flight(&self) -> Option<usize> {
        MctsSearch::in_flight(self).map(LeafBatch::len)
    }

    fn apply(&mut self, outputs: &[f32]) -> bool {
        let Some(leaves) = BatchedSearch::in_flight(self) else { return false };
        if outputs.len() != outputs_len(leaves) {
            return false;
        }
        MctsSearch::apply(self, |i, leaf, priors| leaf.evaluation(outputs, leaves, i, priors))
    }

    fn cancel(&mut self) {
        MctsSearch::cancel(self);
    }

    fn poll(&mut self, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        MctsSearch::poll(self, should_stop)
    }
}
