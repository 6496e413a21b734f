//! MCTS behind the search seam ([`Search`]), and by batches of leaves
//! ([`BatchedSearch`]) where its network evaluates on a host's device.

use alloc::vec::Vec;

use shakmaty::{Chess, Move};

use crate::alphazero::leaf_batch::{LeafBatch, outputs_len};
use crate::search::mcts::policy_value::PolicyValue;
use crate::search::mcts::search::MctsSearch;
use crate::search::seam::{BatchedSearch, Search, SearchKind};
use crate::search::vocabulary::{Event, Limits, Report};

impl<E: PolicyValue + Send> Search for MctsSearch<E> {
    fn kind(&self) -> SearchKind {
        SearchKind::Mcts
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        MctsSearch::start(self, root, game, limits);
    }

    fn is_running(&self) -> bool {
        MctsSearch::is_running(self)
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        MctsSearch::step(self, budget, should_stop)
    }

    fn stop(&mut self) {
        MctsSearch::stop(self);
    }

    fn best_move(&self) -> Option<Move> {
        MctsSearch::best_move(self)
    }

    fn nodes(&self) -> u64 {
        MctsSearch::nodes(self)
    }

    fn depth(&self) -> u32 {
        MctsSearch::depth(self)
    }

    /// Depth: the most visited path's length.
    fn report(&mut self, _root: &Chess) -> Option<Report> {
        let (multipv, pv, score) = self.line()?;
        let depth = pv.len() as u32;
        Some(Report { depth, seldepth: depth, multipv, score, pv })
    }

    fn node_cost(&self) -> u64 {
        self.evaluator().playout_cost()
    }

    fn batched(&mut self) -> Option<&mut dyn BatchedSearch> {
        if self.evaluator().batches_on_device() { Some(self) } else { None }
    }

    fn batched_ref(&self) -> Option<&dyn BatchedSearch> {
        if self.evaluator().batches_on_device() { Some(self) } else { None }
    }
}

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
