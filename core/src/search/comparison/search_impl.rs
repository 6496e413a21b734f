//! DeepChess's comparison search behind the search seam ([`Search`]).

use shakmaty::{Chess, Color, Move, Position};

use crate::deepchess::embedding::Embedding;
use crate::search::abilities::Prefill;
use crate::search::comparison::comparator::Comparator;
use crate::search::comparison::search::ComparisonSearch;
use crate::search::comparison::value::Value;
use crate::search::factory::split_hash;
use crate::search::interface::{Search, SearchKind};
use crate::search::score::{MAX_CP, Score};
use crate::search::step_loop;
use crate::search::types::{Event, Limits, Report};

impl<C: Comparator> Search for ComparisonSearch<C> {
    fn kind(&self) -> SearchKind {
        SearchKind::Comparison
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        self.frames.clear();
        self.progress.start(root, game, limits);
    }

    fn is_running(&self) -> bool {
        self.progress.running
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        step_loop::step(self, budget, should_stop)
    }

    fn stop(&mut self) {
        self.frames.clear();
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

    /// The score: where the comparator has a scalar judgement (the
    /// network's utility head), its centipawns for the line's last position,
    /// as the scalar search reports; otherwise the comparator's confidence
    /// against a draw ([`ComparisonSearch::score`]). Mates are exact either way.
    fn report(&mut self, root: &Chess) -> Option<Report> {
        let line = self.last_line()?.clone();
        let cp = match &line.value {
            Value::Position(leaf) => self.comparator.utility_cp(root, leaf),
            _ => None,
        };
        let score = match cp {
            Some(cp) => {
                let cp = cp.clamp(-MAX_CP, MAX_CP);
                Score::Cp(if root.turn() == Color::White { cp } else { -cp })
            }
            None => self.score(&line.value),
        };
        Some(Report { depth: line.depth, seldepth: line.seldepth, multipv: line.multipv, score, pv: line.pv })
    }

    fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
        self.comparator.clear();
    }

    fn resize(&mut self, hash_mb: usize) {
        let (cache, tt) = split_hash(SearchKind::Comparison, hash_mb);
        self.comparator.resize_cache(cache);
        self.resize_tt(tt);
    }

    fn prefiller(&mut self) -> Option<&mut dyn Prefill> {
        Some(self)
    }
}

impl<C: Comparator> Prefill for ComparisonSearch<C> {
    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        self.comparator.prefill(keys, embeddings)
    }
}
