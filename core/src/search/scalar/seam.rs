//! The scalar search behind the search seam ([`Search`]), whatever its
//! evaluator (DeepChess's utility head or a learner's network), and behind
//! the slice loop ([`Sliced`]).

use shakmaty::{Chess, Move};

use crate::deepchess::embedding::Embedding;
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::lazy_smp::HelperJob;
use crate::search::scalar::search::ScalarSearch;
use crate::search::seam::{HelperContext, Search, SearchKind, split_hash};
use crate::search::slices::Sliced;
use crate::search::vocabulary::{Event, Limits, Report};

impl<E: Evaluator + Send> Search for ScalarSearch<E> {
    fn kind(&self) -> SearchKind {
        SearchKind::Scalar
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        ScalarSearch::start(self, root, game, limits);
    }

    fn is_running(&self) -> bool {
        ScalarSearch::is_running(self)
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        ScalarSearch::step(self, budget, should_stop)
    }

    fn stop(&mut self) {
        ScalarSearch::stop(self);
    }

    fn best_move(&self) -> Option<Move> {
        ScalarSearch::best_move(self)
    }

    fn nodes(&self) -> u64 {
        ScalarSearch::nodes(self)
    }

    fn depth(&self) -> u32 {
        self.iteration()
    }

    fn report(&mut self, _root: &Chess) -> Option<Report> {
        let line = self.last_line()?;
        Some(Report {
            depth: line.depth,
            seldepth: line.seldepth,
            multipv: line.multipv,
            score: line.score,
            pv: line.pv.clone(),
        })
    }

    fn hashfull(&self) -> u32 {
        ScalarSearch::hashfull(self)
    }

    fn clear(&mut self) {
        ScalarSearch::clear(self);
    }

    fn resize(&mut self, hash_mb: usize) {
        let (cache, tt) = split_hash(SearchKind::Scalar, hash_mb);
        self.evaluator_mut().resize_cache(cache);
        self.resize_tt(tt);
    }

    fn helper_job(&self, context: HelperContext<'_>) -> Option<HelperJob> {
        let network = self.evaluator().helper_network()?;
        Some(HelperJob {
            helpers: context.helpers,
            network: network.clone(),
            table: self.table().clone(),
            root: context.root.clone(),
            game: context.game.to_vec(),
            cache_bytes: split_hash(SearchKind::Scalar, context.hash_mb).0,
            nodes: context.nodes.clone(),
        })
    }

    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        self.evaluator_mut().prefill(keys, embeddings)
    }
}

impl<E: Evaluator> Sliced for ScalarSearch<E> {
    fn is_running(&self) -> bool {
        self.running
    }

    fn at_root(&self) -> bool {
        self.stack.is_empty()
    }

    fn begin_root(&mut self) -> bool {
        ScalarSearch::begin_root(self)
    }

    fn advance(&mut self) -> bool {
        ScalarSearch::advance(self)
    }

    fn stop(&mut self) {
        ScalarSearch::stop(self)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn node_limit(&self) -> Option<u64> {
        self.limits.nodes
    }

    fn next_poll(&mut self) -> &mut u64 {
        &mut self.next_poll
    }
}
