//! What some searches offer beyond the [`Search`](super::Search) seam, each
//! a small trait that a search hands out when asked
//! ([`Search::helpers`](super::Search::helpers),
//! [`Search::prefiller`](super::Search::prefiller),
//! [`Search::batched`](super::Search::batched)):
//!
//! - [`TakesHelpers`]: Lazy SMP helper threads that search the same position
//!   over the shared tables (the scalar search over DeepChess's utility
//!   head);
//! - [`Prefill`]: a cache filled with embeddings computed elsewhere, a GPU
//!   (the two alpha-beta searches over a DeepChess network);
//! - [`BatchedSearch`]: leaves evaluated by a host in batches (MCTS with the
//!   AlphaZero network).

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicU64};

use shakmaty::Chess;

use crate::deepchess::embedding::Embedding;
use crate::search::types::Event;

/// What the engine tells a search that takes Lazy SMP helpers.
pub struct HelperContext<'a> {
    /// Helper threads to start (`Threads` − 1).
    pub helpers: usize,
    /// `Hash` in MiB: each helper's cache takes what this search's does.
    pub hash_mb: usize,
    /// The position searched.
    pub root: &'a Chess,
    /// Zobrist hashes of the game before `root`.
    pub game: &'a [u64],
    /// The counter of the helpers' nodes, added to the main search's in
    /// `info`.
    pub nodes: &'a Arc<AtomicU64>,
    /// Set when the helpers must stop (the main search has ended).
    pub stop: &'a Arc<AtomicBool>,
}

/// One helper's share of a Lazy SMP search, which a host runs on a native
/// thread or a web worker.
pub trait HelperTask: Send {
    /// Searches until the stop flag is set (or the search ends by itself),
    /// counting its nodes in the shared counter; returns the nodes searched.
    fn run(self: Box<Self>) -> u64;
}

/// A search that helper threads can join.
pub trait TakesHelpers {
    /// One task per helper for the search under way (none if this search's
    /// evaluation cannot be copied for a helper).
    fn helper_tasks(&self, context: HelperContext<'_>) -> Vec<Box<dyn HelperTask>>;
}

/// A search with a cache that a host can fill from a batch computed
/// elsewhere (see [`first_positions`](super::first_positions)).
pub trait Prefill {
    /// Fills the cache: `keys[i]` is the Zobrist hash of the position whose
    /// embedding is `embeddings[i]` and whether it is the colour mirror
    /// image; the positions come in pairs, each followed by its mirror
    /// image. Returns how many entries it wrote.
    fn prefill(&mut self, keys: &[(u64, bool)], embeddings: &[Embedding]) -> usize;
}

/// A search whose leaves a host evaluates in batches (MCTS with the
/// AlphaZero network): see [`crate::uci`]'s batched engine.
pub trait BatchedSearch {
    /// The input planes of up to `max` new leaves (`None` while a batch is
    /// in flight or none can be gathered).
    fn gather_planes(&mut self, max: usize) -> Option<Vec<f32>>;

    /// Leaves in flight (`None` if no batch is).
    fn in_flight(&self) -> Option<usize>;

    /// Expands the batch in flight with the network's `outputs` (laid out
    /// as [`leaf_batch`](crate::alphazero::leaf_batch) says); `false` if
    /// there is none or the outputs do not fit it (the batch stays).
    fn apply(&mut self, outputs: &[f32]) -> bool;

    /// Takes the batch in flight back unevaluated.
    fn cancel(&mut self);

    /// Between batches: the event a `step` would give before its next
    /// playout.
    fn poll(&mut self, should_stop: &mut dyn FnMut(u64) -> bool) -> Event;
}
