//! A batch of positions to embed at once, and its results.
//!
//! Each position enters twice, as itself and as its mirror image, because
//! the search asks for both (the mirror decides draws). Results are laid
//! out as `MAX_EMBEDDING` bytes per entry, in the batch's order, whichever
//! device computed them.

use deepchess_core::arch::{MAX_ACTIVE, MAX_EMBEDDING};
use deepchess_core::{Embedding, Features, Network};
use wasm_bindgen::prelude::*;

/// Positions, by Zobrist hash, with their input features.
#[wasm_bindgen]
pub struct Batch {
    /// Zobrist hash and whether the entry is the mirror image.
    keys: Vec<(u64, bool)>,
    features: Vec<Features>,
}

impl Batch {
    /// A batch of `positions` and their mirror images.
    pub fn new(positions: impl IntoIterator<Item = (u64, Features)>) -> Batch {
        let (mut keys, mut features) = (Vec::new(), Vec::new());
        for (hash, f) in positions {
            keys.push((hash, false));
            keys.push((hash, true));
            let mirror = f.mirrored();
            features.push(f);
            features.push(mirror);
        }
        Batch { keys, features }
    }

    /// The `i`-th entry's Zobrist hash and whether it is a mirror image.
    pub fn key(&self, i: usize) -> (u64, bool) {
        self.keys[i]
    }

    /// Every key, in the batch's order.
    pub fn keys(&self) -> &[(u64, bool)] {
        &self.keys
    }

    /// The active input indices, `MAX_ACTIVE` per entry, padded with -1.
    pub fn active(&self) -> Vec<i32> {
        let mut active = vec![-1; self.features.len() * MAX_ACTIVE];
        for (row, f) in active.chunks_exact_mut(MAX_ACTIVE).zip(&self.features) {
            for (slot, &index) in row.iter_mut().zip(f.as_slice()) {
                *slot = i32::from(index);
            }
        }
        active
    }

    /// Splits results (`MAX_EMBEDDING` bytes per entry) into embeddings.
    pub fn embeddings(&self, bytes: &[u8]) -> Result<Vec<Embedding>, JsError> {
        if bytes.len() != self.len() * MAX_EMBEDDING {
            return Err(JsError::new(&format!(
                "{} bytes of embeddings for a batch of {} (expected {})",
                bytes.len(),
                self.len(),
                self.len() * MAX_EMBEDDING
            )));
        }
        Ok(bytes.chunks_exact(MAX_EMBEDDING).map(Embedding::from_activations).collect())
    }

    /// The entries' embeddings by `net` on the CPU, in the results' layout.
    pub fn embed_on_cpu(&self, net: &Network) -> Vec<u8> {
        let mut acc = net.accumulator(&Default::default());
        let mut out = Vec::with_capacity(self.len() * MAX_EMBEDDING);
        for f in &self.features {
            acc.refresh(net, f);
            out.extend_from_slice(net.embed(&acc).values());
        }
        out
    }
}

#[wasm_bindgen]
impl Batch {
    /// Entries: twice the number of positions.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Positions (each entered with its mirror image).
    pub fn positions(&self) -> usize {
        self.keys.len() / 2
    }
}
