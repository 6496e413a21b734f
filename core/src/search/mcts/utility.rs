//! MCTS judged by DeepChess's utility head (`setoption name Engine value
//! mcts` with a DeepChess network): the value of a position is
//! `tanh(cp / 400)` for the side to move, and the priors are a softmax of
//! its children's centipawns for the side choosing them (temperature
//! 100 cp). With the reimplementation's own network, [`AzEvaluator`](super::AzEvaluator)
//! judges instead; both play through [`MctsSearch`].

use alloc::vec::Vec;

use shakmaty::{Chess, Color, Move, Position};

use crate::deepchess::network::Network;
use crate::search::mcts::policy_value::PolicyValue;
use crate::search::mcts::search::MctsSearch;

/// Centipawns per unit of `atanh(value)`.
const VALUE_SCALE_CP: f32 = crate::arch::AZ_VALUE_SCALE_CP;

/// Network evaluations a playout is taken to make before any has been
/// counted: the position and its children, about 35 legal moves in a
/// middlegame (de Groot's count).
const FIRST_PLAYOUT_EVALUATIONS: u64 = 36;

/// Temperature of the priors' softmax, in centipawns.
const PRIOR_TEMPERATURE_CP: f32 = 100.0;

/// The utility head as MCTS's [`PolicyValue`].
pub struct UtilityEvaluator {
    net: Network,
    /// Positions evaluated and playouts made so far: a playout's cost.
    evaluations: u64,
    playouts: u64,
}

impl UtilityEvaluator {
    /// Judges with `net`'s utility head (a network without one gives 0 and
    /// uniform priors).
    pub fn new(net: Network) -> UtilityEvaluator {
        UtilityEvaluator { net, evaluations: 0, playouts: 0 }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Centipawns of `pos` for the side to move, from scratch
    /// ([`Network::evaluate_position`]).
    fn cp(&self, pos: &Chess) -> f32 {
        let white = self.net.evaluate_position(pos).unwrap_or(0) as f32;
        if pos.turn() == Color::White { white } else { -white }
    }
}

impl PolicyValue for UtilityEvaluator {
    /// The network evaluations a playout makes, counted (the position and
    /// each of its children: an alpha-beta node makes one): their mean so
    /// far.
    fn playout_cost(&self) -> u64 {
        self.evaluations.checked_div(self.playouts).map_or(FIRST_PLAYOUT_EVALUATIONS, |cost| cost.max(1))
    }

    fn evaluate(&mut self, pos: &Chess, _: usize, moves: &[Move], priors: &mut Vec<f32>) -> f32 {
        self.playouts += 1;
        self.evaluations += moves.len() as u64 + 1;
        // Each child's centipawns for the side choosing it, as logits.
        let logits: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                -self.cp(&child) / PRIOR_TEMPERATURE_CP
            })
            .collect();
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        priors.extend(logits.iter().map(|&l| libm::expf(l - top)));
        libm::tanhf(self.cp(pos) / VALUE_SCALE_CP)
    }
}

/// MCTS over the utility head, as a UCI search.
pub type UtilitySearch = MctsSearch<UtilityEvaluator>;

impl UtilitySearch {
    /// A search with `net`'s utility head.
    pub fn with_network(net: Network) -> UtilitySearch {
        MctsSearch::new(UtilityEvaluator::new(net))
    }

    /// The network.
    pub fn network(&self) -> &Network {
        self.evaluator().network()
    }
}
