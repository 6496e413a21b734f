//! The first layer's sums along the search path.

use alloc::vec::Vec;

use shakmaty::Chess;

use crate::deepchess::accumulator::Accumulator;
use crate::deepchess::delta::FeatureDelta;
use crate::deepchess::features::Features;
use crate::deepchess::network::Network;

/// One [`Accumulator`] per ply of the search path: a move writes the
/// parent's sums with the move's [`FeatureDelta`] applied (one pass), taking
/// a move back is a pop. Both searches' network adapters keep one.
pub struct AccumulatorPath {
    path: Vec<Accumulator>,
    depth: usize,
}

impl AccumulatorPath {
    /// A path at the start position.
    pub fn new(net: &Network) -> AccumulatorPath {
        AccumulatorPath { path: alloc::vec![Accumulator::new(net, &Chess::default())], depth: 0 }
    }

    /// Starts a new path at the position whose active bits are `root`.
    pub fn set_root(&mut self, net: &Network, root: &Features) {
        self.depth = 0;
        self.path[0].refresh(net, root);
    }

    /// Follows a move (or a null move) from the current end of the path.
    pub fn push(&mut self, net: &Network, delta: &FeatureDelta) {
        self.depth += 1;
        if self.path.len() <= self.depth {
            self.path.push(self.path[self.depth - 1].clone());
        }
        let (done, rest) = self.path.split_at_mut(self.depth);
        rest[0].apply_from(net, delta, &done[self.depth - 1]);
    }

    /// Takes back the last move pushed.
    pub fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The sums of the position at the end of the path.
    pub fn top(&self) -> &Accumulator {
        &self.path[self.depth]
    }
}
