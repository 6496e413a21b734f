//! The evaluator seam of the scalar search.

use shakmaty::{Chess, Move};

use crate::deepchess::embedding::Embedding;

/// What the scalar search asks of a learned evaluation: follow the search
/// path (moves and null moves) and give the position at its end a number.
///
/// DeepChess's utility head implements it
/// ([`NetEvaluator`](super::NetEvaluator)); the other learners'
/// evaluations plug in here too. The comparison search has its own seam,
/// [`Comparator`](crate::search::Comparator).
pub trait Evaluator: Send + 'static {
    /// Starts a new path at `root`.
    fn set_root(&mut self, root: &Chess);

    /// The search played `m` in `before`, reaching `after`.
    fn push(&mut self, before: &Chess, m: Move, after: &Chess);

    /// The side to move in `before` passed (a null move).
    fn push_null(&mut self, before: &Chess);

    /// The search took back the last move or null move it pushed.
    fn pop(&mut self);

    /// The position at the end of the path (`pos`, Zobrist `hash`), in
    /// centipawns from White's point of view, within
    /// ±[`MAX_EVAL_CP`](crate::arch::MAX_EVAL_CP).
    fn evaluate(&mut self, pos: &Chess, hash: u64) -> i32;

    /// The search will soon ask for the position with Zobrist `hash`: an
    /// evaluator with a cache may start loading its slot now (the search
    /// calls this as soon as it has played a move). Changes no result.
    fn prefetch(&self, _hash: u64) {}

    /// Forgets cached evaluations (a new game).
    fn clear(&mut self);

    /// Resizes the evaluation cache to at most `bytes` (emptying it); an
    /// evaluator without a cache has nothing to do.
    fn resize_cache(&mut self, _bytes: usize) {}

    /// A fresh evaluator over the same network, with a cache of
    /// `cache_bytes`, for a Lazy SMP helper thread; `None` for an evaluator
    /// that takes no helpers (only the utility head's does).
    fn helper(&self, _cache_bytes: usize) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// Caches evaluations from embeddings computed elsewhere (see
    /// [`Prefill`](crate::search::Prefill)); returns how many it wrote.
    fn prefill(&mut self, _keys: &[(u64, bool)], _embeddings: &[Embedding]) -> usize {
        0
    }
}
