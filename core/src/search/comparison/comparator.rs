//! The evaluator seam of the comparison search.

use core::cmp::Ordering;

use shakmaty::{Chess, Move};

use crate::deepchess::embedding::Embedding;

/// What the comparison search asks of a learned judge: follow the search
/// path, turn the current position into a leaf, and order two leaves.
///
/// DeepChess's network implements it ([`NetComparator`](super::NetComparator)).
/// Other learners plug in beside the comparison search, each with its own
/// trait and search (a scalar evaluation for negamax, later MCTS); this trait
/// is only what a *comparison* needs.
pub trait Comparator: Send {
    /// An evaluated position, cheap to compare.
    type Leaf: Clone + Send;

    /// Starts a new path at `root`.
    fn set_root(&mut self, root: &Chess, hash: u64);

    /// The search played `m` in `before`, reaching `after` (Zobrist `hash`).
    fn push(&mut self, before: &Chess, m: Move, after: &Chess, hash: u64);

    /// The search took back the last move it pushed.
    fn pop(&mut self);

    /// The position at the end of the path, evaluated.
    fn leaf(&mut self, pos: &Chess, hash: u64) -> Self::Leaf;

    /// `Greater` when `a` is better for White than `b`.
    fn compare(&mut self, a: &Self::Leaf, b: &Self::Leaf) -> Ordering;

    /// `Greater` when `a` is better for White than a draw.
    fn versus_draw(&mut self, a: &Self::Leaf) -> Ordering;

    /// How sure the judge is that `a` is better for White than a draw, as a
    /// logit (natural log of the odds): 0 is a draw, positive favours White.
    /// Only the reported score uses it.
    fn draw_logit(&mut self, a: &Self::Leaf) -> f32;

    /// Forgets cached evaluations (a new game).
    fn clear(&mut self);

    /// White's centipawns for `leaf`'s position, where the judge also has
    /// a scalar judgement (the network's utility head), seen from `root`'s
    /// path; only the reported score uses it.
    fn utility_cp(&mut self, _root: &Chess, _leaf: &Self::Leaf) -> Option<i32> {
        None
    }

    /// Resizes the judge's cache to at most `bytes` (emptying it).
    fn resize_cache(&mut self, _bytes: usize) {}

    /// Caches embeddings computed elsewhere (see
    /// [`Prefill`](crate::search::Prefill)); returns how
    /// many it wrote.
    fn prefill(&mut self, _keys: &[(u64, bool)], _embeddings: &[Embedding]) -> usize {
        0
    }
}
