//! The scalar search's transposition table: score bounds, depth, static
//! evaluation and best move per position, shared by every thread of a Lazy
//! SMP search.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use shakmaty::{Move, MoveList, Role};

use crate::search::prefetch::prefetch;
use crate::search::score::{MAX_CP, Score};
use crate::search::slot::slot_index;
use crate::search::types::MAX_PLY;

/// Scores at or beyond this (in absolute value) are mates: `MATE - ply`.
pub const MATE: i32 = 32_000;

/// Scores beyond this are mate scores (a mate within [`MAX_PLY`] plies).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Above every score: the initial window.
pub(crate) const INFINITE: i32 = MATE + 1;

/// What a stored score says about the position's true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (every move failed low).
    Upper = 1,
    /// The true score is at least the stored one (a move failed high).
    Lower = 2,
    /// The stored score is exact (a principal-variation node).
    Exact = 3,
}

/// A stored entry, as [`ScoreTable::probe`] returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best move's code ([`move_code`]); 0 if none was stored.
    pub move_code: u16,
    /// The score, adjusted to the probing ply (see [`score_from_table`]).
    pub score: i32,
    /// The static evaluation, side to move's view.
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

impl Hit {
    /// The stored best move, if it is among `moves`.
    pub fn best_move(&self, moves: &MoveList) -> Option<Move> {
        (self.move_code != 0).then(|| moves.iter().copied().find(|&m| move_code(m) == self.move_code)).flatten()
    }
}

/// A lock-free table of two 64-bit words per slot: the key XORed with the
/// data, and the data, so that a slot torn by two threads writing at once
/// reads as a miss instead of another position's entry (the classic
/// lockless hashing of Hyatt and Mann). Every access is `Relaxed`.
pub struct ScoreTable {
    slots: Vec<[AtomicU64; 2]>,
    generation: AtomicU8,
}

impl ScoreTable {
    /// Bytes one entry takes.
    pub const ENTRY_BYTES: usize = 16;

    /// A table of at most `bytes` (at least one entry).
    pub fn with_bytes(bytes: usize) -> ScoreTable {
        let len = (bytes / Self::ENTRY_BYTES).max(1);
        ScoreTable {
            slots: (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
            generation: AtomicU8::new(0),
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[slot_index(key, self.slots.len())]
    }

    /// Asks the CPU to bring `key`'s slot into its cache ahead of the
    /// probe (a hint that changes no result): the search calls it as soon
    /// as it knows a child's hash, and the slot arrives while the child's
    /// move list and evaluation are computed.
    pub fn prefetch(&self, key: u64) {
        prefetch(self.slot(key));
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) & GENERATION_MASK;
        self.generation.store(next, Relaxed);
    }

    /// Empties the table while other threads may be using it: an atomic
    /// store a word. In WebAssembly's threaded build every atomic store is
    /// sequentially consistent (a locked exchange on x86), so this takes
    /// several times as long as [`clear_exclusive`](Self::clear_exclusive).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Relaxed);
            slot[1].store(0, Relaxed);
        }
    }

    /// Empties a table no other thread holds: plain stores, which the
    /// compiler turns into a memory fill.
    pub fn clear_exclusive(&mut self) {
        for word in self.slots.iter_mut().flatten() {
            *word.get_mut() = 0;
        }
    }

    /// The entry stored for `key`, with its score adjusted to `ply`.
    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let slot = self.slot(key);
        let data = slot[1].load(Relaxed);
        if data == 0 || slot[0].load(Relaxed) ^ data != key {
            return None;
        }
        let entry = Entry::unpack(data)?;
        Some(Hit {
            move_code: entry.move_code,
            score: score_from_table(i32::from(entry.score), ply),
            eval: i32::from(entry.eval),
            depth: i32::from(entry.depth),
            bound: entry.bound,
        })
    }

    /// Stores what a search of `key` at `ply` found. An entry of another
    /// position is replaced unless it is from this search and deeper; an
    /// entry of the same position keeps its move when `best` is `None`.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, ply: u32, depth: i32, score: i32, eval: i32, bound: Bound, best: Option<Move>) {
        let slot = self.slot(key);
        let generation = self.generation.load(Relaxed);
        let old_data = slot[1].load(Relaxed);
        let same = old_data != 0 && slot[0].load(Relaxed) ^ old_data == key;
        let old = Entry::unpack(old_data);
        if let Some(old) = old
            && !same
            && old.generation == generation
            && i32::from(old.depth) > depth + 2
            && bound != Bound::Exact
        {
            return;
        }
        let move_code = match (best, old) {
            (Some(m), _) => move_code(m),
            (None, Some(old)) if same => old.move_code,
            (None, _) => 0,
        };
        let entry = Entry {
            move_code,
            score: score_to_table(score, ply).clamp(-MATE, MATE) as i16,
            eval: eval.clamp(-MATE, MATE) as i16,
            depth: depth.clamp(0, 255) as u8,
            bound,
            generation,
        };
        let data = entry.pack();
        slot[0].store(key ^ data, Relaxed);
        slot[1].store(data, Relaxed);
    }

    /// Permille of the first thousand slots holding an entry of this search,
    /// as UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| Entry::unpack(slot[1].load(Relaxed)).is_some_and(|e| e.generation == generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

const GENERATION_MASK: u8 = 0x3f;

#[derive(Clone, Copy)]
struct Entry {
    move_code: u16,
    score: i16,
    eval: i16,
    depth: u8,
    bound: Bound,
    generation: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        u64::from(self.move_code)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.bound as u8 | (self.generation & GENERATION_MASK) << 2) << 56
    }

    fn unpack(data: u64) -> Option<Entry> {
        let flags = (data >> 56) as u8;
        let bound = match flags & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            move_code: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
            generation: flags >> 2,
        })
    }
}

/// A move as 16 bits, never 0: from-square, to-square (the rook's square
/// for a castle, as shakmaty has it, which no other move of the king shares)
/// and promotion role.
pub fn move_code(m: Move) -> u16 {
    let from = m.from().map_or(0, |sq| sq as u16);
    let promotion = m.promotion().map_or(0, |role: Role| role as u16);
    1 << 15 | promotion << 12 | from << 6 | m.to() as u16
}

/// A mate score relative to the root made relative to the node at `ply`
/// (mate distances are stored from the node, so that an entry is right at
/// any ply it is probed from).
pub fn score_to_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`score_to_table`] at the probing `ply`.
pub fn score_from_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// The UCI score of a search score: a mate distance in moves, or
/// centipawns clamped to ±[`crate::search::MAX_CP`].
///
/// ```
/// use deepchess_core::search::Score;
/// use deepchess_core::search::scalar::{MATE, score_for_uci};
///
/// assert_eq!(score_for_uci(35), Score::Cp(35));
/// assert_eq!(score_for_uci(MATE - 1), Score::Mate(1)); // mate with the next move
/// assert_eq!(score_for_uci(MATE - 3), Score::Mate(2));
/// assert_eq!(score_for_uci(-MATE + 2), Score::Mate(-1)); // mated after one move each
/// ```
pub fn score_for_uci(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score.clamp(-MAX_CP, MAX_CP))
    }
}
