//! DeepChess's utility head as the scalar search's evaluator.

use alloc::boxed::Box;

use shakmaty::{Chess, Move, Position};

use crate::deepchess::delta::FeatureDelta;
use crate::deepchess::embedding::Embedding;
use crate::deepchess::features::Features;
use crate::deepchess::network::Network;
use crate::deepchess::scratch::Scratch;
use crate::search::cache::EvalCache;
use crate::search::path::AccumulatorPath;
use crate::search::scalar::evaluator::Evaluator;

/// The network's utility head in centipawns
/// ([`Network::value_difference_of`], then [`Network::cp_of_difference`]):
/// each position is read with its colour mirror image (through the mirror or
/// from both perspectives), and the first layer's sums of both follow the
/// search path, updated from the moves' deltas where
/// a position is evaluated ([`AccumulatorPath`]; the mirror's through
/// [`FeatureDelta::mirrored`]). Evaluations are cached by Zobrist hash.
///
/// The network must have a utility head; one without evaluates every
/// position as 0 (the UCI engine refuses the scalar search for it).
pub struct NetEvaluator {
    net: Network,
    path: AccumulatorPath,
    mirror: AccumulatorPath,
    cache: EvalCache,
    scratch: Box<Scratch>,
}

impl NetEvaluator {
    /// Wraps `net`, with an evaluation cache of at most `cache_bytes`.
    pub fn new(net: Network, cache_bytes: usize) -> NetEvaluator {
        NetEvaluator {
            path: AccumulatorPath::new(&net),
            mirror: AccumulatorPath::mirrored(&net),
            net,
            cache: EvalCache::with_bytes(cache_bytes),
            scratch: Box::default(),
        }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Caches an evaluation computed elsewhere (for example from a batch of
    /// embeddings on a GPU; see [`Network::evaluate`]): `hash` is the
    /// position's Zobrist hash, `cp` what this evaluator would compute.
    pub fn insert_evaluation(&mut self, hash: u64, cp: i32) {
        self.cache.insert(hash, cp);
    }

    /// Fraction of evaluations served by the cache.
    pub fn cache_hit_rate(&self) -> f32 {
        self.cache.hit_rate()
    }
}

impl Evaluator for NetEvaluator {
    fn set_root(&mut self, root: &Chess) {
        let features = Features::from_position(root);
        self.path.set_root(&self.net, &features);
        self.mirror.set_root(&self.net, &features);
    }

    fn push(&mut self, before: &Chess, m: Move, after: &Chess) {
        let delta = FeatureDelta::new(before, m, after);
        self.path.push(&delta);
        self.mirror.push(&delta);
    }

    fn push_null(&mut self, before: &Chess) {
        let delta = FeatureDelta::null(before.turn());
        self.path.push(&delta);
        self.mirror.push(&delta);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.mirror.pop();
    }

    fn evaluate(&mut self, pos: &Chess, hash: u64) -> i32 {
        if let Some(cp) = self.cache.get(hash) {
            return cp;
        }
        let (own, mirror) = (self.path.top(&self.net), self.mirror.top(&self.net));
        let white = pos.turn().is_white();
        let bucket = self.net.output_bucket(pos);
        let difference = self.net.value_difference_of(own, mirror, white, bucket, &mut self.scratch);
        let cp = difference.and_then(|d| self.net.cp_of_difference(d)).unwrap_or(0);
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

    fn helper(&self, cache_bytes: usize) -> Option<NetEvaluator> {
        Some(NetEvaluator::new(self.net.clone(), cache_bytes))
    }

    /// Each position's embedding and its mirror image's give its
    /// evaluation. A perspective network's value is not a function of the
    /// two embeddings, nor one with output buckets (the bucket is the
    /// position's), so they take none.
    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        if self.net.shape().is_perspective() || self.net.shape().buckets() > 1 {
            return 0;
        }
        let mut written = 0;
        for (pair, key) in embeddings.chunks_exact(2).zip(keys.iter().step_by(2)) {
            if let Some(cp) = self.net.evaluate(&pair[0], &pair[1], 0) {
                self.insert_evaluation(key.0, cp);
                written += 1;
            }
        }
        written
    }
}
