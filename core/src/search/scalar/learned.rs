//! A learner's network as the scalar search's evaluator.

use shakmaty::{Chess, Move};

use crate::learned::LearnedNet;
use crate::search::cache::EvalCache;
use crate::search::scalar::evaluator::Evaluator;

/// [`LearnedNet::evaluate`] for every position the scalar search asks
/// about, cached by Zobrist hash. Positions are evaluated whole (the
/// search's move-by-move path is not used): the learners' networks are
/// small, and the cache answers most repeats.
pub struct LearnedEvaluator {
    net: LearnedNet,
    cache: EvalCache,
}

impl LearnedEvaluator {
    /// Wraps `net`, with an evaluation cache of at most `cache_bytes`.
    pub fn new(net: LearnedNet, cache_bytes: usize) -> LearnedEvaluator {
        LearnedEvaluator { net, cache: EvalCache::with_bytes(cache_bytes) }
    }

    /// The network.
    pub fn network(&self) -> &LearnedNet {
        &self.net
    }
}

impl Evaluator for LearnedEvaluator {
    fn set_root(&mut self, _root: &Chess) {}

    fn push(&mut self, _before: &Chess, _m: Move, _after: &Chess) {}

    fn push_null(&mut self, _before: &Chess) {}

    fn pop(&mut self) {}

    fn evaluate(&mut self, pos: &Chess, hash: u64) -> i32 {
        if let Some(cp) = self.cache.get(hash) {
            return cp;
        }
        let cp = self.net.evaluate(pos);
        self.cache.insert(hash, cp);
        cp
    }

    fn prefetch(&self, hash: u64) {
        self.cache.prefetch(hash);
    }

    fn clear(&mut self) {
        self.cache.clear();
    }

    fn resize_cache(&mut self, cache_bytes: usize) {
        self.cache = EvalCache::with_bytes(cache_bytes);
    }
}
