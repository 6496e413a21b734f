//! DeepChess's comparison alpha-beta (paper §4): α and β are positions,
//! and every judgement is the network's comparison of two of them.
//!
//! - [`ComparisonSearch`]: iterative deepening, quiescence, MultiPV,
//!   resumable slices; [`Line`]: a completed principal variation.
//! - [`Value`]: what a node is worth, positions or rule-decided outcomes.
//! - [`Comparator`]: the search's seam; [`NetComparator`] is the
//!   network's, with its embedding cache.
//! - [`TranspositionTable`]: the best move of each position searched.

pub mod comparator;
pub mod net_comparator;
pub mod search;
mod search_impl;
pub mod tt;
pub mod value;

pub use comparator::Comparator;
pub use net_comparator::{NetComparator, NetLeaf};
pub use search::{ComparisonSearch, Line, QUIESCENCE_PLIES};
pub use tt::TranspositionTable;
pub use value::{Value, compare};
