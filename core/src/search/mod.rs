//! The comparison alpha-beta search (paper §4).
//!
//! - [`Search`]: iterative deepening, quiescence, MultiPV, resumable slices.
//! - [`Value`]: what a node is worth, positions or rule-decided outcomes.
//! - [`Comparator`]: the evaluator seam; [`NetComparator`] is the network's.
//! - Move ordering ([`MoveOrdering`]) and the transposition table use only
//!   search heuristics; every judgement of a position comes from the network.
//! - [`frontier`]: the first positions a search meets, for batched inference.

mod cache;
mod comparator;
mod frontier;
mod net_comparator;
mod ordering;
mod score;
mod searcher;
mod tt;
mod value;

pub use cache::EmbeddingCache;
pub use comparator::Comparator;
pub use frontier::frontier;
pub use net_comparator::{NetComparator, NetLeaf};
pub use ordering::{MoveOrdering, is_tactical};
pub use score::{MAX_CP, Score};
pub use searcher::{Event, Limits, Line, POLL_NODES, QUIESCENCE_PLIES, Search, zobrist};
pub use tt::TranspositionTable;
pub use value::{Value, compare};

/// Longest search path, quiescence included.
pub const MAX_PLY: usize = 128;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;
