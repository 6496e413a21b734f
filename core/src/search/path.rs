//! The first layer's sums along the search path, brought up to date only
//! where a position is evaluated.

use alloc::vec::Vec;

use shakmaty::Chess;

use crate::deepchess::accumulator::Accumulator;
use crate::deepchess::delta::FeatureDelta;
use crate::deepchess::features::Features;
use crate::deepchess::network::Network;

/// One [`Accumulator`] per ply of the search path. A move only records its
/// [`FeatureDelta`]; [`top`](Self::top) applies the deltas not yet applied,
/// each writing a ply's sums from its parent's in one pass, so a node whose
/// position is never evaluated (a table cutoff, a cached evaluation, a
/// repetition) costs no update, and one that is gets its sums from its
/// nearest evaluated ancestor. Additions wrap, so the sums equal eager
/// updates' bit for bit. Taking a move back is a pop. Both searches' network
/// adapters keep one.
///
/// A path made by [`mirrored`](Self::mirrored) follows the colour mirror
/// images of the positions and moves it is given
/// ([`Features::mirrored`], [`FeatureDelta::mirrored`]).
pub struct AccumulatorPath {
    path: Vec<Accumulator>,
    /// `deltas[i]` leads from `path[i]` to `path[i + 1]`.
    deltas: Vec<FeatureDelta>,
    depth: usize,
    /// `path[..=fresh]` hold their positions' sums (`fresh <= depth`).
    fresh: usize,
    mirror: bool,
}

impl AccumulatorPath {
    /// A path at the start position.
    pub fn new(net: &Network) -> AccumulatorPath {
        AccumulatorPath {
            path: alloc::vec![Accumulator::new(net, &Chess::default())],
            deltas: Vec::new(),
            depth: 0,
            fresh: 0,
            mirror: false,
        }
    }

    /// A path that follows the colour mirror images, at the start position's.
    pub fn mirrored(net: &Network) -> AccumulatorPath {
        let start = net.accumulator_of(&Features::from_position(&Chess::default()).mirrored());
        AccumulatorPath { path: alloc::vec![start], deltas: Vec::new(), depth: 0, fresh: 0, mirror: true }
    }

    /// Starts a new path at the position whose active bits are `root`.
    pub fn set_root(&mut self, net: &Network, root: &Features) {
        self.depth = 0;
        self.fresh = 0;
        if self.mirror {
            self.path[0].refresh(net, &root.mirrored());
        } else {
            self.path[0].refresh(net, root);
        }
    }

    /// Follows a move (or a null move) from the current end of the path;
    /// the sums are brought up to date by the next [`top`](Self::top).
    pub fn push(&mut self, delta: &FeatureDelta) {
        self.depth += 1;
        if self.path.len() <= self.depth {
            self.path.push(self.path[self.depth - 1].clone());
            self.deltas.push(*delta);
        } else {
            self.deltas[self.depth - 1] = *delta;
        }
        self.fresh = self.fresh.min(self.depth - 1);
    }

    /// Takes back the last move pushed.
    pub fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.fresh = self.fresh.min(self.depth);
    }

    /// The sums of the position at the end of the path, after applying the
    /// moves pushed since the last position brought up to date.
    pub fn top(&mut self, net: &Network) -> &Accumulator {
        while self.fresh < self.depth {
            let ply = self.fresh + 1;
            let delta = if self.mirror { self.deltas[ply - 1].mirrored() } else { self.deltas[ply - 1] };
            let (done, rest) = self.path.split_at_mut(ply);
            rest[0].apply_from(net, &delta, &done[ply - 1]);
            self.fresh = ply;
        }
        &self.path[self.depth]
    }
}
