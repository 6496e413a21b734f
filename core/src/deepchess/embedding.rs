//! A position's Pos2Vec features, as the integer network computes them.

use core::fmt;

use crate::arch::MAX_EMBEDDING;

/// The tower's output for one position: `u8` activations (127 = 1.0), zero
/// past the network's embedding width.
///
/// It is a plain value of fixed size, so the search can cache it by Zobrist
/// hash, as the paper does: each position is embedded once and then compared
/// many times.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Embedding {
    values: [u8; MAX_EMBEDDING],
}

impl Embedding {
    /// The all-zero embedding.
    pub const ZERO: Embedding = Embedding { values: [0; MAX_EMBEDDING] };

    /// Builds an embedding from the first values of `activations`; the rest
    /// is zero. Values past [`MAX_EMBEDDING`] are ignored.
    pub fn from_activations(activations: &[u8]) -> Embedding {
        let mut values = [0; MAX_EMBEDDING];
        let n = activations.len().min(MAX_EMBEDDING);
        values[..n].copy_from_slice(&activations[..n]);
        Embedding { values }
    }

    /// All [`MAX_EMBEDDING`] values, zero past the network's width.
    pub fn values(&self) -> &[u8; MAX_EMBEDDING] {
        &self.values
    }
}

impl Default for Embedding {
    fn default() -> Embedding {
        Embedding::ZERO
    }
}

impl fmt::Debug for Embedding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.values.iter().rposition(|&v| v != 0).map_or(0, |i| i + 1);
        f.debug_tuple("Embedding").field(&&self.values[..width]).finish()
    }
}
