//! The paper's position hashing: Pos2Vec embeddings cached by Zobrist hash.

use alloc::vec::Vec;

use crate::embedding::Embedding;

#[derive(Clone)]
struct Entry {
    key: u64,
    embedding: Embedding,
}

/// A direct-mapped cache of embeddings, so that each position is embedded
/// once however often the search compares it. Replaces on collision.
pub struct EmbeddingCache {
    entries: Vec<Entry>,
    hits: u64,
    lookups: u64,
}

impl EmbeddingCache {
    /// Bytes one entry takes.
    pub const ENTRY_BYTES: usize = core::mem::size_of::<Entry>();

    /// A cache of at most `bytes` (at least one entry).
    pub fn with_bytes(bytes: usize) -> EmbeddingCache {
        let len = (bytes / Self::ENTRY_BYTES).max(1);
        // Key 0 with a zero embedding could be mistaken for a hit; a key of
        // u64::MAX is as unlikely as any other collision and never a zobrist
        // hash the search has seen yet.
        let empty = Entry { key: u64::MAX, embedding: Embedding::ZERO };
        EmbeddingCache { entries: alloc::vec![empty; len], hits: 0, lookups: 0 }
    }

    fn slot(&self, key: u64) -> usize {
        // The high bits of a Zobrist hash are as random as the low ones.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The embedding cached for `key`, if any.
    pub fn get(&mut self, key: u64) -> Option<Embedding> {
        self.lookups += 1;
        let entry = &self.entries[self.slot(key)];
        (entry.key == key).then(|| {
            self.hits += 1;
            entry.embedding
        })
    }

    /// Caches `embedding` for `key`.
    pub fn insert(&mut self, key: u64, embedding: Embedding) {
        let slot = self.slot(key);
        self.entries[slot] = Entry { key, embedding };
    }

    /// Empties the cache.
    pub fn clear(&mut self) {
        self.entries.fill(Entry { key: u64::MAX, embedding: Embedding::ZERO });
        self.hits = 0;
        self.lookups = 0;
    }

    /// Fraction of lookups that hit, since the last clear.
    pub fn hit_rate(&self) -> f32 {
        if self.lookups == 0 { 0.0 } else { self.hits as f32 / self.lookups as f32 }
    }
}
