//! The first layer: 773 sparse input bits to `h` accumulated `i16` values.

use alloc::vec::Vec;

use crate::arch::{INPUTS, padded};
use crate::deepchess::delta::{FeatureDelta, MAX_ADDED, MAX_REMOVED};
use crate::deepchess::features::Features;
use crate::file::Reader;
use crate::file::error::WeightsError;
use crate::kernels::{self, Kernel};

/// The sparse first layer. Its output for a position is the bias plus one
/// weight row per active input bit, which is why a move (a handful of bits
/// changed) updates it with a few row additions and subtractions.
#[derive(Clone, Debug)]
pub struct FeatureTransformer {
    outputs: usize,
    /// `padded(outputs)` values; the padding is zero.
    bias: Vec<i16>,
    /// One row of `padded(outputs)` values per input bit; the padding is zero.
    weights: Vec<i16>,
}

impl FeatureTransformer {
    /// The biases, `padded(outputs)` of them; the padding is zero.
    pub fn bias(&self) -> &[i16] {
        &self.bias
    }

    /// The weights: one row of `padded(outputs)` values per input bit, zero
    /// beyond `outputs`.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// Reads bias `i16[outputs]`, then weights `i16[773][outputs]`.
    pub fn read(reader: &mut Reader<'_>, outputs: usize) -> Result<FeatureTransformer, WeightsError> {
        let width = padded(outputs);
        let mut bias = alloc::vec![0; width];
        for (b, v) in bias.iter_mut().zip(reader.i16s(outputs)?) {
            *b = v;
        }
        let mut weights = alloc::vec![0; INPUTS * width];
        let mut values = reader.i16s(INPUTS * outputs)?;
        for row in weights.chunks_exact_mut(width) {
            for (w, v) in row[..outputs].iter_mut().zip(&mut values) {
                *w = v;
            }
        }
        Ok(FeatureTransformer { outputs, bias, weights })
    }

    /// Writes the parameters as [`read`](Self::read) expects them.
    pub fn write(&self, out: &mut Vec<u8>) {
        for &b in &self.bias[..self.outputs] {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for row in self.weights.chunks_exact(self.width()) {
            for &w in &row[..self.outputs] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Length of an accumulator: the outputs padded to the SIMD width.
    pub fn width(&self) -> usize {
        padded(self.outputs)
    }

    fn row(&self, index: u16) -> &[i16] {
        let width = self.width();
        let start = usize::from(index) * width;
        &self.weights[start..start + width]
    }

    /// `acc = bias + Σ rows of the active bits`.
    pub fn refresh(&self, kernel: Kernel, features: &Features, acc: &mut [i16]) {
        acc.copy_from_slice(&self.bias);
        for &index in features.as_slice() {
            kernels::add_i16(kernel, acc, self.row(index));
        }
    }

    /// `child = parent` updated for a move, in one pass over the sums
    /// (what [`apply`](Self::apply) computes on a copy).
    pub fn apply_from(&self, kernel: Kernel, delta: &FeatureDelta, parent: &[i16], child: &mut [i16]) {
        let mut removed: [&[i16]; MAX_REMOVED] = [&[]; MAX_REMOVED];
        let mut added: [&[i16]; MAX_ADDED] = [&[]; MAX_ADDED];
        for (slot, &index) in removed.iter_mut().zip(delta.removed()) {
            *slot = self.row(index);
        }
        for (slot, &index) in added.iter_mut().zip(delta.added()) {
            *slot = self.row(index);
        }
        let (removed, added) = (&removed[..delta.removed().len()], &added[..delta.added().len()]);
        kernels::update_i16(kernel, parent, removed, added, child);
    }

    /// Updates `acc` for a move: subtract the rows of cleared bits, add the
    /// rows of set bits.
    pub fn apply(&self, kernel: Kernel, delta: &FeatureDelta, acc: &mut [i16]) {
        for &index in delta.removed() {
            kernels::sub_i16(kernel, acc, self.row(index));
        }
        for &index in delta.added() {
            kernels::add_i16(kernel, acc, self.row(index));
        }
    }
}
