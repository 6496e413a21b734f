//! The two searches: DeepChess's comparison alpha-beta (paper §4) and a
//! scalar principal-variation search over the network's utility head.
//!
//! - [`Search`]: the comparison search: iterative deepening, quiescence,
//!   MultiPV, resumable slices. [`Value`]: what a node is worth, positions or
//!   rule-decided outcomes. [`Comparator`]: its seam; [`NetComparator`] is
//!   the network's.
//! - [`ScalarSearch`]: negamax PVS with a bounded transposition table
//!   ([`ScoreTable`]), pruning and reductions, in the same resumable slices.
//!   [`Evaluator`]: its seam; [`NetEvaluator`] is the utility head's.
//! - Move ordering ([`MoveOrdering`], [`History`]), SEE and the tables use
//!   only search heuristics; every judgement of a position comes from the
//!   network.
//! - [`frontier`]: the first positions a search meets, for batched inference.

pub(crate) mod cache;
mod comparator;
mod evaluator;
mod frontier;
mod history;
mod net_comparator;
mod net_evaluator;
mod ordering;
mod path;
mod scalar;
mod score;
mod score_table;
mod searcher;
mod see;
mod slices;
mod tt;
mod value;

pub use cache::{EmbeddingCache, EvalCache, HashCache};
pub use comparator::Comparator;
pub use evaluator::Evaluator;
pub use frontier::frontier;
pub use history::{History, has_non_pawn_material};
pub use net_comparator::{NetComparator, NetLeaf};
pub use net_evaluator::NetEvaluator;
pub use ordering::{MoveOrdering, is_tactical};
pub use path::AccumulatorPath;
pub use scalar::{ScalarLine, ScalarSearch, score_for_uci};
pub use score::{MAX_CP, Score};
pub use score_table::{Bound, Hit, MATE, MATE_BOUND, ScoreTable, move_code, score_from_table, score_to_table};
pub use searcher::{Event, Limits, Line, POLL_NODES, QUIESCENCE_PLIES, Search, zobrist};
pub use see::{SEE_VALUES, see_ge, see_value};
pub use tt::TranspositionTable;
pub use value::{Value, compare};

/// Longest search path, quiescence included.
pub const MAX_PLY: usize = 128;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;
