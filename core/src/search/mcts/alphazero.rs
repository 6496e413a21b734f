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

/// The AlphaZero network's multiply-adds in one alpha-beta node's time.
pub const AZ_MULTIPLY_ADDS_PER_NODE: u64 = 51_200;

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
    /// The network's convolutions' multiply-adds over
    /// [`AZ_MULTIPLY_ADDS_PER_NODE`]: measured natively (the eleventh
    /// session's AMD EPYC, one thread), a playout at 6 × 64 takes
    /// 0.75–0.9 ms, an alpha-beta node about 1.4 µs.
    fn playout_cost(&self) -> u64 {
        // The input, 2 per block and the policy head's 3 × 3 convolutions.
        let convolutions = (2 * self.net.blocks() + 2) as u64;
        let filters = self.net.filters() as u64;
        (convolutions * filters * filters * 9 * 64 / AZ_MULTIPLY_ADDS_PER_NODE).max(1)
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
