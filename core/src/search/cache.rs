//! The paper's position hashing: values computed for a position (Pos2Vec
//! embeddings, static evaluations) cached by Zobrist hash.

use alloc::vec::Vec;

use crate::deepchess::embedding::Embedding;
use crate::search::prefetch::prefetch;
use crate::search::slot::slot_index;

#[derive(Clone, Copy)]
struct Entry<V> {
    key: u64,
    value: V,
}

/// A direct-mapped cache keyed by Zobrist hash, so that each position is
/// embedded (or evaluated) once however often the search meets it. Replaces
/// on collision.
pub struct HashCache<V> {
    entries: Vec<Entry<V>>,
    hits: u64,
    lookups: u64,
}

/// Pos2Vec embeddings by Zobrist hash (the comparison search's cache).
pub type EmbeddingCache = HashCache<Embedding>;

/// Static evaluations in centipawns by Zobrist hash (the scalar search's).
pub type EvalCache = HashCache<i32>;

/// Key of an empty slot. Key 0 with a zero value could be mistaken for a hit;
/// `u64::MAX` is as unlikely as any other collision.
const EMPTY: u64 = u64::MAX;

impl<V: Copy + Default> HashCache<V> {
    /// Bytes one entry takes.
    pub const ENTRY_BYTES: usize = size_of::<Entry<V>>();

    /// A cache of at most `bytes` (at least one entry).
    pub fn with_bytes(bytes: usize) -> HashCache<V> {
        let len = (bytes / Self::ENTRY_BYTES).max(1);
        HashCache { entries: alloc::vec![Entry { key: EMPTY, value: V::default() }; len], hits: 0, lookups: 0 }
    }

    fn slot(&self, key: u64) -> usize {
        slot_index(key, self.entries.len())
    }

    /// The value cached for `key`, if any.
    pub fn get(&mut self, key: u64) -> Option<V> {
        self.lookups += 1;
        let entry = &self.entries[self.slot(key)];
        (entry.key == key).then(|| {
            self.hits += 1;
            entry.value
        })
    }

    /// Asks the CPU to bring `key`'s slot into its cache ahead of
    /// [`get`](Self::get) (a hint that changes no result).
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.entries[self.slot(key)]);
    }

    /// Caches `value` for `key`.
    pub fn insert(&mut self, key: u64, value: V) {
        let slot = self.slot(key);
        self.entries[slot] = Entry { key, value };
    }

    /// Empties the cache.
    pub fn clear(&mut self) {
        self.entries.fill(Entry { key: EMPTY, value: V::default() });
        self.hits = 0;
        self.lookups = 0;
    }

    /// Fraction of lookups that hit, since the last clear.
    pub fn hit_rate(&self) -> f32 {
        if self.lookups == 0 { 0.0 } else { self.hits as f32 / self.lookups as f32 }
    }
}
