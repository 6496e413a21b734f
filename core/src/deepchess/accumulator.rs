//! The first layer's running sums for one position. The network fills
//! and updates them ([`Network`](crate::Network) defines `Accumulator::new`,
//! `refresh` and `apply`), so that this file needs nothing of it.

use alloc::vec::Vec;

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
    /// An accumulator of `width` zeros (the network fills it: see
    /// [`new`](Self::new), which lives beside the network).
    pub(crate) fn zeros(width: usize) -> Accumulator {
        Accumulator { values: alloc::vec![0; width] }
    }

    /// The sums, padded to the SIMD width.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// The sums, for the network to update.
    pub(crate) fn values_mut(&mut self) -> &mut [i16] {
        &mut self.values
    }
}
