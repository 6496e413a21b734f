//! What MCTS asks of a network ([`PolicyValue`]): a value and move priors.

use alloc::vec::Vec;

use shakmaty::{Chess, Move};

/// What MCTS asks of a network: a value and move priors for a position.
pub trait PolicyValue: Send {
    /// The value of `pos` for the side to move, in `−1..=1`, and a prior for
    /// each of `moves` (the legal moves, in that order) written to `priors`
    /// (cleared by the caller). Priors need not sum to one; MCTS normalises
    /// them. `repetitions` is how often `pos` occurred before (input planes
    /// 12 and 13).
    fn evaluate(&mut self, pos: &Chess, repetitions: usize, moves: &[Move], priors: &mut Vec<f32>) -> f32;

    /// How many alpha-beta nodes' work one evaluation is (at least one),
    /// counted, not timed, so that a host's slices take a few milliseconds
    /// whatever judges.
    fn playout_cost(&self) -> u64 {
        1
    }

    /// Whether a host may evaluate this network's leaves in batches on its
    /// own device (the AlphaZero network's input planes and outputs, laid
    /// out as [`leaf_batch`](crate::alphazero::leaf_batch) says).
    fn batches_on_device(&self) -> bool {
        false
    }
}
