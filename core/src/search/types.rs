//! What every search shares: its limits ([`Limits`]), what a slice of it
//! ended with ([`Event`]), a completed line ([`Report`]), how often it polls
//! its caller ([`POLL_NODES`]), its depth bounds and the positions' keys
//! ([`zobrist`]).

use alloc::vec::Vec;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::search::score::Score;

/// Longest search path, quiescence included.
pub const MAX_PLY: usize = 128;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;

/// The caller's `should_stop` is polled this often (in nodes).
pub const POLL_NODES: u64 = 1024;

/// What one search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (default: [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Number of principal variations (MultiPV), at least 1.
    pub multipv: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { depth: None, nodes: None, multipv: 1 }
    }
}

/// What a search reports of a completed line: the `info` line's fields,
/// with the score from the side to move's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Iteration depth (MCTS: the most visited path's length).
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second best, …
    pub multipv: usize,
    /// What the line is worth for the side to move at the root.
    pub score: Score,
    /// The moves, from the root.
    pub pv: Vec<Move>,
}

/// What a call to a search's `step` ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The node budget ran out; call `step` again to continue.
    Paused,
    /// A principal variation completed: the search's `last_line` has it.
    Line,
    /// The search is over (limits, stop, or no legal move): see
    /// its `best_move`.
    Finished,
}

/// The Zobrist hash of `child`, reached by `m` from `pos` (hash `hash`):
/// updated incrementally where shakmaty can, else computed afresh.
pub(crate) fn child_hash(pos: &Chess, hash: u64, m: Move, child: &Chess) -> u64 {
    pos.update_zobrist_hash(Zobrist64(hash), m, EnPassantMode::Legal).map_or_else(|| zobrist(child), |z| z.0)
}

/// The key of `pos` after a null move (`swap_turn`, which also clears the
/// en passant square) from `hash`, the key of `pos`: the side to move's key
/// and, where `pos` had a legal en passant capture, its file's key toggled.
pub(crate) fn null_move_hash(pos: &Chess, hash: u64) -> u64 {
    let ep = pos.legal_ep_square().map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0);
    hash ^ Zobrist64::zobrist_for_white_turn().0 ^ ep
}

/// The Zobrist hash shakmaty computes, with the en passant square counted
/// only when a capture is legal.
pub fn zobrist(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}
