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
//! apart. What they share is in [`types`] (limits, events, reports, node
//! polling, keys) and `step_loop.rs`' loop; move ordering (`ordering.rs`,
//! `history.rs`), SEE and the tables use only search heuristics: every
//! judgement of a position comes from a network. [`first_positions`]: the first
//! positions a search meets, for batched inference.

pub mod abilities;
pub mod cache;
pub mod comparison;
pub mod factory;
mod first_positions;
mod gives_check;
mod history;
pub mod interface;
pub mod mcts;
pub mod movegen;
mod ordering;
mod path;
pub mod perft;
mod prefetch;
mod progress;
pub mod scalar;
mod score;
mod see;
mod slot;
mod step_loop;
pub mod types;

// The seam, its abilities, the searches and what hosts use; the rest
// under each module.
pub use abilities::{BatchedSearch, HelperContext, HelperTask, Prefill, TakesHelpers};
pub use comparison::{Comparator, ComparisonSearch, NetComparator};
pub use factory::{Refusal, SearchChoice, build, playable, plays, supports};
pub use first_positions::first_positions;
pub use interface::{Search, SearchKind, UnknownSearch, slice_nodes, step_for};
pub use mcts::{AzEvaluator, Mcts, MctsSearch, PolicyValue, Puct, UtilityEvaluator};
pub use path::AccumulatorPath;
pub use scalar::{Evaluator, LearnedEvaluator, NetEvaluator, ScalarSearch};
pub use score::{MAX_CP, Score};
pub use see::see_ge;
pub use types::{Event, Limits, POLL_NODES, Report, zobrist};
