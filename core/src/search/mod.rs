//! The searches, behind one seam ([`Search`]) that the UCI engine drives
//! through a `Box<dyn Search>` from the [`factory`]:
//!
//! - [`comparison`]: DeepChess's comparison alpha-beta (paper §4)
//!   ([`ComparisonSearch`]), whose bounds are positions;
//! - [`scalar`]: a principal-variation search over a scalar evaluation
//!   ([`ScalarSearch`]): the utility head or a learner's network, with Lazy
//!   SMP helpers;
//! - [`mcts`]: Monte Carlo tree search ([`MctsSearch`]) over the AlphaZero
//!   network or the utility head.
//!
//! What only some of them can do (Lazy SMP helpers, a cache filled from a
//! GPU's batch, leaves evaluated in batches) is in [`abilities`], asked for
//! apart. What they share is in [`vocabulary`] (limits, events, reports, node
//! polling, keys) and [`slices`]' loop; move ordering ([`MoveOrdering`],
//! [`History`]), SEE and the tables use only search heuristics: every
//! judgement of a position comes from a network. [`frontier`]: the first
//! positions a search meets, for batched inference.

pub mod abilities;
pub mod cache;
pub mod comparison;
pub mod factory;
mod frontier;
mod history;
pub mod mcts;
mod ordering;
mod path;
mod prefetch;
mod progress;
pub mod scalar;
mod score;
pub mod seam;
mod see;
mod slices;
pub mod vocabulary;

pub use abilities::{BatchedSearch, HelperContext, HelperTask, Prefill, TakesHelpers};
pub use cache::{EmbeddingCache, EvalCache, HashCache};
pub use comparison::{
    Comparator, ComparisonSearch, Line, NetComparator, NetLeaf, QUIESCENCE_PLIES, TranspositionTable, Value, compare,
};
pub use factory::{Refusal, SearchChoice, SearchOption, build, playable, plays, split_hash, supports};
pub use frontier::frontier;
pub use history::{History, has_non_pawn_material};
pub use mcts::{
    AzEvaluator, MAX_TREE_NODES, Mcts, MctsSearch, PLAYOUTS_PER_DEPTH, PolicyValue, Puct, RootMove, UtilityEvaluator,
    UtilitySearch,
};
pub use ordering::{MoveOrdering, is_tactical};
pub use path::AccumulatorPath;
pub use scalar::{
    Bound, Evaluator, HELPER_SLICE_NODES, Hit, LearnedEvaluator, MATE, MATE_BOUND, NetEvaluator, ScalarLine,
    ScalarSearch, ScoreTable, move_code, score_for_uci, score_from_table, score_to_table,
};
pub use score::{MAX_CP, Score};
pub use seam::{Search, SearchKind, UnknownSearch, slice_nodes, step_for};
pub use see::{SEE_VALUES, see_ge, see_value};
pub use vocabulary::{Event, Limits, MAX_DEPTH, MAX_PLY, POLL_NODES, Report, zobrist};
