//! The AlphaZero network as MCTS's [`Evaluator`]: its value, and its policy
//! logits of the legal moves as priors.

use alloc::vec;
use alloc::vec::Vec;

use shakmaty::{Chess, Move};

use crate::alphazero::leaf_batch::softmax_priors;
use crate::alphazero::mcts::Evaluator;
use crate::alphazero::net::{AzNet, AzScratch};
use crate::alphazero::{POLICY_SIZE, Planes};

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

impl Evaluator for AzEvaluator {
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
