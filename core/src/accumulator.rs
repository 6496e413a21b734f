//! The first layer's running sums for one position.

use alloc::vec::Vec;

use shakmaty::Chess;

use crate::delta::FeatureDelta;
use crate::features::Features;
use crate::network::Network;

/// The first layer's `i16` sums for one position, kept up to date move by
/// move with [`apply`](Self::apply).
///
/// Additions wrap, so the incremental result equals a full
/// [`refresh`](Self::refresh) bit for bit, whatever the order of updates.
///
/// ```
/// use deepchess_core::{Accumulator, FeatureDelta, Network};
/// use shakmaty::{Chess, Position, uci::UciMove};
/// # let net = Network::from_bytes(&deepchess_core::FloatNetwork::zeros(&deepchess_core::Shape::distilled()).to_bytes())?;
///
/// let before = Chess::default();
/// let m = "g1f3".parse::<UciMove>()?.to_move(&before)?;
/// let mut after = before.clone();
/// after.play_unchecked(m);
///
/// let mut acc = Accumulator::new(&net, &before);
/// acc.apply(&net, &FeatureDelta::new(&before, m, &after));
/// assert_eq!(acc, Accumulator::new(&net, &after));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Chess) -> Accumulator {
        let mut acc = Accumulator { values: alloc::vec![0; net.feature_transformer().width()] };
        acc.refresh(net, &Features::from_position(pos));
        acc
    }

    /// Recomputes the sums from the active bits.
    pub fn refresh(&mut self, net: &Network, features: &Features) {
        net.feature_transformer().refresh(net.kernel(), features, &mut self.values);
    }

    /// Follows a move: subtracts the rows of cleared bits and adds those of
    /// set bits.
    pub fn apply(&mut self, net: &Network, delta: &FeatureDelta) {
        net.feature_transformer().apply(net.kernel(), delta, &mut self.values);
    }

    /// The sums, padded to the SIMD width.
    pub fn values(&self) -> &[i16] {
        &self.values
    }
}
