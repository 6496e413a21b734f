//! DeepChess's network as the search's comparator.

use core::cmp::Ordering;

use shakmaty::{Chess, Move};

use crate::arch::SUM_SCALE;
use crate::deepchess::accumulator::Accumulator;
use crate::deepchess::delta::FeatureDelta;
use crate::deepchess::embedding::Embedding;
use crate::deepchess::features::Features;
use crate::deepchess::network::Network;
use crate::search::cache::EmbeddingCache;
use crate::search::comparison::comparator::Comparator;
use crate::search::path::AccumulatorPath;

/// Key salt for mirrored positions in the embedding cache.
const MIRROR_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// A position the network has embedded.
#[derive(Clone, Debug)]
pub struct NetLeaf {
    hash: u64,
    embedding: Embedding,
    features: Features,
}

impl NetLeaf {
    /// The Pos2Vec embedding.
    pub fn embedding(&self) -> &Embedding {
        &self.embedding
    }

    /// The position's active input bits.
    pub fn features(&self) -> &Features {
        &self.features
    }
}

/// The network, with incrementally updated first-layer sums along the search
/// path and a cache of embeddings keyed by Zobrist hash.
///
/// Draws: a position is better for White than a draw when the network
/// prefers it to its own mirror image (colours swapped, board flipped, the
/// other side to move), which is exactly as good for Black as the position
/// is for White. A position the network cannot tell from its mirror is a
/// draw. This needs no reference position and no hand-set threshold.
pub struct NetComparator {
    net: Network,
    cache: EmbeddingCache,
    path: AccumulatorPath,
    scratch: Accumulator,
}

impl NetComparator {
    /// Wraps `net`, with an embedding cache of at most `cache_bytes`.
    pub fn new(net: Network, cache_bytes: usize) -> NetComparator {
        let scratch = Accumulator::new(&net, &Chess::default());
        NetComparator { path: AccumulatorPath::new(&net), net, cache: EmbeddingCache::with_bytes(cache_bytes), scratch }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Fraction of embedding lookups served by the cache.
    pub fn cache_hit_rate(&self) -> f32 {
        self.cache.hit_rate()
    }

    /// Caches an embedding computed elsewhere, for example by a batch on a
    /// GPU: `hash` is the position's Zobrist hash ([`zobrist`](crate::search::zobrist)),
    /// and `mirror` says whether `embedding` is that of the position's mirror
    /// image (which decides draws). It must equal what this network computes.
    pub fn insert_embedding(&mut self, hash: u64, mirror: bool, embedding: Embedding) {
        self.cache.insert(if mirror { hash ^ MIRROR_SALT } else { hash }, embedding);
    }

    fn mirror_embedding(&mut self, leaf: &NetLeaf) -> Embedding {
        let key = leaf.hash ^ MIRROR_SALT;
        if let Some(embedding) = self.cache.get(key) {
            return embedding;
        }
        self.scratch.refresh(&self.net, &leaf.features.mirrored());
        let embedding = self.net.embed(&self.scratch);
        self.cache.insert(key, embedding);
        embedding
    }
}

impl Comparator for NetComparator {
    type Leaf = NetLeaf;

    fn set_root(&mut self, root: &Chess, _hash: u64) {
        self.path.set_root(&self.net, &Features::from_position(root));
    }

    fn push(&mut self, before: &Chess, m: Move, after: &Chess, _hash: u64) {
        self.path.push(&FeatureDelta::new(before, m, after));
    }

    fn pop(&mut self) {
        self.path.pop();
    }

    fn leaf(&mut self, pos: &Chess, hash: u64) -> NetLeaf {
        let embedding = match self.cache.get(hash) {
            Some(embedding) => embedding,
            None => {
                let embedding = self.net.embed(self.path.top(&self.net));
                self.cache.insert(hash, embedding);
                embedding
            }
        };
        NetLeaf { hash, embedding, features: Features::from_position(pos) }
    }

    fn compare(&mut self, a: &NetLeaf, b: &NetLeaf) -> Ordering {
        if a.hash == b.hash {
            return Ordering::Equal;
        }
        self.net.compare_logit(&a.embedding, &b.embedding).cmp(&0)
    }

    fn versus_draw(&mut self, a: &NetLeaf) -> Ordering {
        let mirror = self.mirror_embedding(a);
        self.net.compare_logit(&a.embedding, &mirror).cmp(&0)
    }

    fn draw_logit(&mut self, a: &NetLeaf) -> f32 {
        let mirror = self.mirror_embedding(a);
        self.net.compare_logit(&a.embedding, &mirror) as f32 / SUM_SCALE as f32
    }

    fn clear(&mut self) {
        self.cache.clear();
    }

    /// The utility head's centipawns, from the leaf's embedding and that of
    /// its mirror image (computed afresh from `root`'s accumulator).
    fn utility_cp(&mut self, root: &Chess, leaf: &NetLeaf) -> Option<i32> {
        if !self.net.has_utility() {
            return None;
        }
        let mut acc = self.net.accumulator(root);
        acc.refresh(&self.net, &leaf.features.mirrored());
        let bucket = crate::arch::output_bucket(leaf.features.men(), self.net.shape().buckets());
        self.net.evaluate(&leaf.embedding, &self.net.embed(&acc), bucket)
    }

    fn resize_cache(&mut self, cache_bytes: usize) {
        self.cache = EmbeddingCache::with_bytes(cache_bytes);
    }

    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize {
        for (&(hash, mirror), embedding) in keys.iter().zip(embeddings) {
            self.insert_embedding(hash, mirror, *embedding);
        }
        keys.len().min(embeddings.len())
    }
}
