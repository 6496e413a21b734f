//! The AlphaZero network as MCTS's [`PolicyValue`]: its value, and its policy
//! logits of the legal moves as priors.

use alloc::vec;
use alloc::vec::Vec;

use shakmaty::{Chess, Move};

use crate::alphazero::leaf_batch::softmax_priors;
use crate::alphazero::net::{AzNet, AzScratch};
use crate::alphazero::planes::Planes;
use crate::alphazero::policy::POLICY_SIZE;
use crate::search::mcts::policy_value::PolicyValue;

/// One alpha-beta node's network arithmetic in multiply-adds, the unit of
/// a playout's cost: the default network's (773 → 256 → 32 → 1, both
/// colours) hidden layer, 2 × 256 × 32 + 32, and its accumulators' update,
/// about three changed inputs × 256 × 2.
pub const NODE_MULTIPLY_ADDS: u64 = 2 * 256 * 32 + 32 + 3 * 256 * 2;

/// MCTS judged by an [`AzNet`].
pub struct AzEvaluator {
    net: AzNet,
    scratch: AzScratch,
    logits: Vec<f32>,
    evaluations: u64,
}

impl AzEvaluator {
    /// Judges with `net`.
    pub fn new(net: AzNet) -> AzEvaluator {
        AzEvaluator { net, scratch: AzScratch::default(), logits: vec![0.0; POLICY_SIZE], evaluations: 0 }
    }

    /// The network.
    pub fn network(&self) -> &AzNet {
        &self.net
    }

    /// Network evaluations so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }
}

impl PolicyValue for AzEvaluator {
    /// The network's convolutions' multiply-adds in alpha-beta nodes'
    /// arithmetic ([`NODE_MULTIPLY_ADDS`]): counted, not timed.
    fn playout_cost(&self) -> u64 {
        // The input, 2 per block and the policy head's 3 × 3 convolutions.
        let convolutions = (2 * self.net.blocks() + 2) as u64;
        let filters = self.net.filters() as u64;
        (convolutions * filters * filters * 9 * 64 / NODE_MULTIPLY_ADDS).max(1)
    }

    fn batches_on_device(&self) -> bool {
        true
    }

    /// The value for the side to move; the priors are the softmax of the
    /// legal moves' logits (the policy over illegal moves is ignored).
    fn evaluate(&mut self, pos: &Chess, repetitions: usize, moves: &[Move], priors: &mut Vec<f32>) -> f32 {
        let planes = Planes::new(pos, repetitions);
        let value = self.net.evaluate_into(&planes, &mut self.scratch, &mut self.logits);
        self.evaluations += 1;
        softmax_priors(pos, moves, |index| self.logits[index], priors);
        value
    }
}
