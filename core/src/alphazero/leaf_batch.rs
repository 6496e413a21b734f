//! MCTS leaves gathered for a batched evaluation ([`Mcts::gather`](crate::search::Mcts::gather)),
//! and the layout a batch's inputs and outputs have on the way to a device
//! that evaluates the AlphaZero network many positions at a time (the
//! browser's WebGPU) and back.
//!
//! # Layout
//!
//! - Inputs ([`LeafBatch::planes`]): each leaf's [`Planes`], one after the
//!   other, `PLANES × 64` values each.
//! - Outputs ([`outputs_len`]): every leaf's value (after `tanh`), then
//!   every leaf's policy logits as the policy convolution writes them,
//!   `[kind][square]` (73 × 64) per leaf. [`evaluate_leaves`] computes the
//!   same on the CPU, the reference a device is tested against, and
//!   [`Leaf::evaluation`] reads a leaf's value and priors from either.

use alloc::vec::Vec;

use shakmaty::{Chess, Move, MoveList};

use crate::alphazero::conv::SQUARES;
use crate::alphazero::net::{AzNet, AzScratch};
use crate::alphazero::planes::{PLANES, Planes};
use crate::alphazero::policy::{POLICY_SIZE, move_index};
use crate::arch::AZ_POLICY_KINDS;

/// A leaf waiting for its evaluation: an unexpanded node and the path to it.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub(crate) node: usize,
    pub(crate) path: Vec<usize>,
    pub(crate) pos: Chess,
    pub(crate) repetitions: usize,
    pub(crate) moves: MoveList,
}

impl Leaf {
    /// The leaf's position.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// How often the position occurred before, in the game and on the path.
    pub fn repetitions(&self) -> usize {
        self.repetitions
    }

    /// Its legal moves, in the order the priors follow.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The network's input planes for it.
    pub fn planes(&self) -> Planes {
        Planes::new(&self.pos, self.repetitions)
    }

    /// Its value in `outputs`, where it is the `index`-th of `leaves`
    /// (laid out as the module says), and its priors, appended to
    /// `priors`: the softmax of its legal moves' logits, as
    /// [`AzEvaluator`](crate::search::mcts::AzEvaluator) computes them.
    pub fn evaluation(&self, outputs: &[f32], leaves: usize, index: usize, priors: &mut Vec<f32>) -> f32 {
        let policy = &outputs[leaves + index * POLICY_SIZE..][..POLICY_SIZE];
        softmax_priors(&self.pos, &self.moves, |i| policy_at(policy, i), priors);
        outputs[index]
    }
}

/// Leaves selected together, with the paths of the selections that
/// collided with one of them (they hold virtual losses until the batch is
/// applied or cancelled).
#[derive(Clone, Debug, Default)]
pub struct LeafBatch {
    pub(crate) leaves: Vec<Leaf>,
    pub(crate) collisions: Vec<Vec<usize>>,
}

impl LeafBatch {
    /// The leaves, in the order of the inputs and outputs.
    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// Leaves to evaluate.
    pub fn len(&self) -> usize {
        self.leaves.len()
    }

    /// Whether there is nothing to evaluate.
    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }

    /// Selections that came back to a waiting leaf.
    pub fn collisions(&self) -> usize {
        self.collisions.len()
    }

    /// Every leaf's planes, one after the other.
    pub fn planes(&self) -> Vec<f32> {
        let mut values = Vec::with_capacity(self.len() * PLANES * SQUARES);
        for leaf in &self.leaves {
            values.extend_from_slice(leaf.planes().values());
        }
        values
    }
}

/// Length of the outputs of `leaves` leaves: a value and 4,672 logits each.
pub fn outputs_len(leaves: usize) -> usize {
    leaves * (1 + POLICY_SIZE)
}

/// The logit of policy index `index` (`square × 73 + kind`) in one leaf's
/// `[kind][square]` logits.
fn policy_at(policy: &[f32], index: usize) -> f32 {
    let (square, kind) = (index / AZ_POLICY_KINDS, index % AZ_POLICY_KINDS);
    policy[kind * SQUARES + square]
}

/// The priors of `moves` in `pos`: `exp(logit − max)` of each move's logit
/// (MCTS normalises them), appended to `priors`.
pub(crate) fn softmax_priors(pos: &Chess, moves: &[Move], logit: impl Fn(usize) -> f32, priors: &mut Vec<f32>) {
    let start = priors.len();
    priors.extend(moves.iter().map(|m| logit(move_index(pos, m))));
    let top = priors[start..].iter().copied().fold(f32::NEG_INFINITY, f32::max);
    for p in &mut priors[start..] {
        *p = libm::expf(*p - top);
    }
}

/// `net`'s outputs for `planes` (`PLANES × 64` values per position), in the
/// layout of the module, on the CPU; `None` if `planes` is not a whole
/// number of positions.
pub fn evaluate_leaves(net: &AzNet, planes: &[f32]) -> Option<Vec<f32>> {
    let size = PLANES * SQUARES;
    if !planes.len().is_multiple_of(size) {
        return None;
    }
    let n = planes.len() / size;
    let mut outputs = alloc::vec![0.0; outputs_len(n)];
    let (values, policies) = outputs.split_at_mut(n);
    let mut scratch = AzScratch::default();
    let mut logits = alloc::vec![0.0; POLICY_SIZE];
    for ((value, policy), input) in
        values.iter_mut().zip(policies.chunks_exact_mut(POLICY_SIZE)).zip(planes.chunks_exact(size))
    {
        *value = net.evaluate_into(&Planes::from_values(input)?, &mut scratch, &mut logits);
        for (index, &logit) in logits.iter().enumerate() {
            let (square, kind) = (index / AZ_POLICY_KINDS, index % AZ_POLICY_KINDS);
            policy[kind * SQUARES + square] = logit;
        }
    }
    Some(outputs)
}
