//! The scalar search behind the search seam ([`Search`]), whatever its
//! evaluator (DeepChess's utility head or a learner's network), and behind
//! the slice loop ([`Sliced`]).

use alloc::sync::Arc;

use shakmaty::{Chess, Move};

use crate::deepchess::embedding::Embedding;
use crate::search::abilities::{Prefill, TakesHelpers};
use crate::search::factory::split_hash;
use crate::search::interface::{Search, SearchKind};
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::score_table::INFINITE;
use crate::search::scalar::search::{ASPIRATION, ScalarSearch};
use crate::search::step_loop;
use crate::search::types::{Event, Limits, Report};

impl<E: Evaluator> Search for ScalarSearch<E> {
    fn kind(&self) -> SearchKind {
        SearchKind::Scalar
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        self.clear_stack();
        self.window = (-INFINITE, INFINITE);
        self.delta = ASPIRATION;
        self.table.new_search();
        self.progress.start(root, game, limits);
    }

    fn is_running(&self) -> bool {
        self.progress.running
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        step_loop::step(self, budget, should_stop)
    }

    fn stop(&mut self) {
        self.clear_stack();
        self.progress.stop();
    }

    fn best_move(&self) -> Option<Move> {
        self.progress.best_move()
    }

    fn nodes(&self) -> u64 {
        self.progress.nodes
    }

    fn depth(&self) -> u32 {
        self.iteration()
    }

    fn report(&mut self, _root: &Chess) -> Option<Report> {
        let line = self.last_line()?;
        let pv = line.pv.clone();
        Some(Report { depth: line.depth, seldepth: line.seldepth, multipv: line.multipv, score: line.score, pv })
    }

    fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    fn clear(&mut self) {
        // Between searches the helpers have let go of the table, so it is
        // usually this search's alone.
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.clear_exclusive(),
            None => self.table.clear(),
        }
        self.history.clear();
        self.evaluator.clear();
    }
    fn resize(&mut self, hash_mb: usize) {
        let (cache, tt) = split_hash(SearchKind::Scalar, hash_mb);
        self.evaluator_mut().resize_cache(cache);
        self.resize_tt(tt);
    }

    fn helpers(&self) -> Option<&dyn TakesHelpers> {
        Some(self)
    }

    fn prefiller(&mut self) -> Option<&mut dyn Prefill> {
        Some(self)
    }
}

impl<E: Evaluator> Prefill for ScalarSearch<E> {
    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        self.evaluator_mut().prefill(keys, embeddings)
    }
}
