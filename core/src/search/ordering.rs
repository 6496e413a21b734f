//! Move ordering from search-only heuristics: the hash move, MVV-LVA for
//! captures, killer moves and history. None of it judges a position; it only
//! decides which move to try first.

use shakmaty::{Color, Move, MoveList, Role};

use crate::search::types::MAX_PLY;

/// Killer moves and history counters, kept across iterations of one search.
pub struct MoveOrdering {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: [[[u32; 64]; 64]; 2],
}

const HASH_MOVE: u32 = u32::MAX;
const CAPTURE: u32 = 1 << 30;
const KILLER: u32 = 1 << 29;

impl MoveOrdering {
    /// Empty tables.
    pub fn new() -> MoveOrdering {
        MoveOrdering { killers: [[None; 2]; MAX_PLY], history: [[[0; 64]; 64]; 2] }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = MoveOrdering::new();
    }

    /// Sorts `moves`, best first: the hash move, captures and promotions by
    /// most valuable victim then least valuable attacker, the two killers of
    /// this ply, then quiet moves by history.
    pub fn sort(&self, moves: &mut MoveList, hash_move: Option<Move>, turn: Color, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        moves.sort_by_cached_key(|&m| {
            let score = if Some(m) == hash_move {
                HASH_MOVE
            } else if is_tactical(m) {
                CAPTURE + mvv_lva(m)
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else {
                self.history_score(turn, m)
            };
            core::cmp::Reverse(score)
        });
    }

    fn history_score(&self, turn: Color, m: Move) -> u32 {
        let from = m.from().map_or(0, |s| s as usize);
        self.history[turn as usize][from][m.to() as usize].min(KILLER - 1)
    }

    /// A quiet move caused a cutoff at `ply` with `depth` plies left.
    pub fn record_cutoff(&mut self, turn: Color, m: Move, ply: usize, depth: i32) {
        if is_tactical(m) {
            return;
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(m)
        {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let from = m.from().map_or(0, |s| s as usize);
        let depth = depth.clamp(0, 64) as u32;
        let entry = &mut self.history[turn as usize][from][m.to() as usize];
        *entry = entry.saturating_add(depth * depth);
    }
}

impl Default for MoveOrdering {
    fn default() -> MoveOrdering {
        MoveOrdering::new()
    }
}

/// Captures and promotions: what quiescence searches.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Most valuable victim, least valuable attacker; promotions count as
/// capturing the piece they become.
fn mvv_lva(m: Move) -> u32 {
    let rank = |role: Role| role as u32; // pawn 1 … king 6
    let victim = m.capture().map_or(0, rank) + m.promotion().map_or(0, rank);
    victim * 8 + (7 - rank(m.role()))
}
