//! Monte Carlo tree search with PUCT, as AlphaZero plays it, judged by any
//! [`PolicyValue`]: the AlphaZero reimplementation's network ([`AzEvaluator`]) or
//! DeepChess's utility head ([`UtilityEvaluator`]).
//!
//! - [`Mcts`]: the tree, its playouts, virtual loss and batches of leaves;
//! - [`MctsSearch`]: the tree as a UCI search, in resumable slices, or by
//!   batches of leaves for a host with a batch device.

pub mod alphazero;
mod batched;
pub mod policy_value;
pub mod search;
pub mod tree;
pub mod utility;

pub use alphazero::{AzEvaluator, NODE_MULTIPLY_ADDS};
pub use policy_value::PolicyValue;
pub use search::{MAX_TREE_NODES, MctsSearch, PLAYOUTS_PER_DEPTH};
pub use tree::{Mcts, Puct, RootMove};
pub use utility::{UtilityEvaluator, UtilitySearch};
