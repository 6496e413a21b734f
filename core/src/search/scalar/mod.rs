//! A principal-variation search over a scalar evaluation: DeepChess's
//! utility head ([`NetEvaluator`]) or a learner's network
//! ([`LearnedEvaluator`]), behind one seam ([`Evaluator`]).
//!
//! - [`ScalarSearch`]: negamax PVS with a bounded, shareable transposition
//!   table ([`ScoreTable`]), pruning and reductions, in resumable slices.
//! - [`lazy_smp`]: helper searches over the same table on other threads.

pub mod evaluator;
pub mod lazy_smp;
pub mod learned;
pub mod net_evaluator;
mod node;
mod pruning;
mod quiescence;
pub mod score_table;
pub mod search;
mod search_impl;

pub use evaluator::Evaluator;
pub use lazy_smp::{HELPER_SLICE_NODES, ScalarHelper};
pub use learned::LearnedEvaluator;
pub use net_evaluator::NetEvaluator;
pub use score_table::{
    Bound, Hit, MATE, MATE_BOUND, ScoreTable, move_code, score_for_uci, score_from_table, score_to_table,
};
pub use search::{ScalarLine, ScalarSearch};
