//! The positions a search meets first, as one batch.
//!
//! Iterative deepening embeds the root's children, then their children, one
//! at a time as it reaches them. A device that is fast on large batches and
//! slow on single positions (a GPU behind WebGPU) can embed them all at once
//! before the search starts, and fill the embedding cache with the results.

use alloc::vec::Vec;

use shakmaty::{Chess, Position};

use crate::search::types::zobrist;

/// Every position reached from `root` in 1 to `plies` legal moves, with its
/// Zobrist hash, breadth first and without repeats, at most `limit` of them.
pub fn first_positions(root: &Chess, plies: u32, limit: usize) -> Vec<(u64, Chess)> {
    let mut seen = alloc::collections::BTreeSet::new();
    let mut found = Vec::new();
    let mut layer = alloc::vec![root.clone()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &layer {
            for m in pos.legal_moves() {
                if found.len() >= limit {
                    return found;
                }
                let mut child = pos.clone();
                child.play_unchecked(m);
                let hash = zobrist(&child);
                if seen.insert(hash) {
                    found.push((hash, child.clone()));
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_two_plies() {
        let positions = first_positions(&Chess::default(), 2, usize::MAX);
        // 20 replies, then 400 positions after two moves, all distinct.
        assert_eq!(positions.len(), 420);
        assert!(positions.iter().all(|(hash, pos)| *hash == zobrist(pos)));
        assert_eq!(first_positions(&Chess::default(), 2, 100).len(), 100);
        assert!(first_positions(&Chess::default(), 0, 100).is_empty());
    }
}
