//! A transposition table for move ordering: the best move found in a
//! position, keyed by Zobrist hash.

use alloc::vec::Vec;

use shakmaty::Move;

use crate::search::slot::slot_index;

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    best: Option<Move>,
}

/// Remembers the best move of each searched position, so that the next
/// iteration (or a transposition) tries it first. It stores no scores: the
/// comparison search has none.
pub struct TranspositionTable {
    entries: Vec<Entry>,
}

impl TranspositionTable {
    /// Bytes one entry takes.
    pub const ENTRY_BYTES: usize = size_of::<Entry>();

    /// A table of at most `bytes` (at least one entry).
    pub fn with_bytes(bytes: usize) -> TranspositionTable {
        let len = (bytes / Self::ENTRY_BYTES).max(1);
        TranspositionTable { entries: alloc::vec![Entry { key: 0, best: None }; len] }
    }

    fn slot(&self, key: u64) -> usize {
        slot_index(key, self.entries.len())
    }

    /// The best move stored for `key`.
    pub fn probe(&self, key: u64) -> Option<Move> {
        let entry = self.entries[self.slot(key)];
        if entry.key == key { entry.best } else { None }
    }

    /// Stores the best move of `key`.
    pub fn store(&mut self, key: u64, best: Move) {
        let slot = self.slot(key);
        self.entries[slot] = Entry { key, best: Some(best) };
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(Entry { key: 0, best: None });
    }

    /// Permille of the first thousand slots in use, as UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample].iter().filter(|e| e.best.is_some()).count();
        (used * 1000 / sample.max(1)) as u32
    }
}
