//! DeepChess's comparison search behind the search seam ([`Search`]).

use shakmaty::{Chess, Color, Move, Position};

use crate::deepchess::embedding::Embedding;
use crate::deepchess::network::Network;
use crate::search::comparison::net_comparator::{NetComparator, NetLeaf};
use crate::search::comparison::search::{ComparisonSearch, Line};
use crate::search::comparison::value::Value;
use crate::search::score::{MAX_CP, Score};
use crate::search::seam::{Search, SearchKind, split_hash};
use crate::search::vocabulary::{Event, Limits, Report};

impl Search for ComparisonSearch<NetComparator> {
    fn kind(&self) -> SearchKind {
        SearchKind::Comparison
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        ComparisonSearch::start(self, root, game, limits);
    }

    fn is_running(&self) -> bool {
        ComparisonSearch::is_running(self)
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        ComparisonSearch::step(self, budget, should_stop)
    }

    fn stop(&mut self) {
        ComparisonSearch::stop(self);
    }

    fn best_move(&self) -> Option<Move> {
        ComparisonSearch::best_move(self)
    }

    fn nodes(&self) -> u64 {
        ComparisonSearch::nodes(self)
    }

    fn depth(&self) -> u32 {
        self.iteration()
    }

    fn report(&mut self, root: &Chess) -> Option<Report> {
        let line = self.last_line()?.clone();
        let score = comparison_score(self, root, &line);
        Some(Report { depth: line.depth, seldepth: line.seldepth, multipv: line.multipv, score, pv: line.pv })
    }

    fn hashfull(&self) -> u32 {
        ComparisonSearch::hashfull(self)
    }

    fn clear(&mut self) {
        ComparisonSearch::clear(self);
    }

    fn resize(&mut self, hash_mb: usize) {
        let (cache, tt) = split_hash(SearchKind::Comparison, hash_mb);
        self.comparator_mut().resize_cache(cache);
        self.resize_tt(tt);
    }

    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        for (&(hash, mirror), embedding) in keys.iter().zip(embeddings) {
            self.comparator_mut().insert_embedding(hash, mirror, *embedding);
        }
        keys.len().min(embeddings.len())
    }
}

/// The comparison search's score for `line`: where the network has a
/// utility head, its centipawns for the line's last position, as the scalar
/// search reports; otherwise the comparison network's confidence against a
/// draw ([`Score::cp_from_logit`]). Mates are exact either way.
fn comparison_score(search: &mut ComparisonSearch<NetComparator>, root: &Chess, line: &Line<NetLeaf>) -> Score {
    let net = search.comparator().network();
    if let Value::Position(leaf) = &line.value
        && net.has_utility()
        && let Some(cp) = net.evaluate(leaf.embedding(), &mirror_embedding(net, root, leaf))
    {
        let cp = cp.clamp(-MAX_CP, MAX_CP);
        return Score::Cp(if root.turn() == Color::White { cp } else { -cp });
    }
    search.score(&line.value)
}

/// The embedding of the colour mirror image of `leaf`'s position.
fn mirror_embedding(net: &Network, root: &Chess, leaf: &NetLeaf) -> Embedding {
    let mut acc = net.accumulator(root);
    acc.refresh(net, &leaf.features().mirrored());
    net.embed(&acc)
}
