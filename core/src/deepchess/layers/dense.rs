//! A fully connected layer: `u8` activations times `i8` weights into `i32` sums.

use alloc::vec::Vec;

use crate::arch::padded;
use crate::deepchess::float::FloatLayer;
use crate::deepchess::quantize;
use crate::file::Reader;
use crate::file::error::WeightsError;
use crate::kernels::{self, Kernel};

/// A dense layer of the tower or the head.
#[derive(Clone, Debug)]
pub struct Dense {
    inputs: usize,
    outputs: usize,
    /// The biases, with zeros to `padded(outputs)` (the packed rows' own).
    bias: Vec<i32>,
    /// One row of `padded(inputs)` weights per output; the padding is zero.
    weights: Vec<i8>,
    /// The weights with `padded(outputs)` rows, in [`kernels::pack_dense`]'s
    /// order, for the kernels that read them so.
    packed: Vec<i8>,
}

impl Dense {
    /// Reads bias `i32[outputs]`, then weights `i8[outputs][inputs]`.
    pub fn read(reader: &mut Reader<'_>, inputs: usize, outputs: usize) -> Result<Dense, WeightsError> {
        let bias = reader.i32s(outputs)?.collect();
        let width = padded(inputs);
        let mut weights = alloc::vec![0; outputs * width];
        let mut values = reader.i8s(outputs * inputs)?;
        for row in weights.chunks_exact_mut(width) {
            for (w, v) in row[..inputs].iter_mut().zip(&mut values) {
                *w = v;
            }
        }
        Ok(Dense::new(inputs, outputs, bias, weights))
    }

    /// Quantizes a float layer ([`quantize::hidden_weight`] and
    /// [`quantize::hidden_bias`]), as the exported file would.
    pub fn from_float(layer: &FloatLayer) -> Dense {
        let (inputs, outputs) = (layer.inputs(), layer.outputs());
        let width = padded(inputs);
        let mut weights = alloc::vec![0; outputs * width];
        for (row, float) in weights.chunks_exact_mut(width).zip(layer.weights().chunks_exact(inputs)) {
            for (w, &f) in row.iter_mut().zip(float) {
                *w = quantize::hidden_weight(f);
            }
        }
        let bias = layer.bias().iter().map(|&b| quantize::hidden_bias(b)).collect();
        Dense::new(inputs, outputs, bias, weights)
    }

    /// The layer, with its biases padded and its packed copy of the weights.
    fn new(inputs: usize, outputs: usize, mut bias: Vec<i32>, weights: Vec<i8>) -> Dense {
        let (width, rows) = (padded(inputs), padded(outputs));
        bias.resize(rows, 0);
        let mut all_rows = weights.clone();
        all_rows.resize(rows * width, 0);
        let packed = kernels::pack_dense(&all_rows, width, rows);
        Dense { inputs, outputs, bias, weights, packed }
    }

    /// Writes the parameters as [`read`](Self::read) expects them.
    pub fn write(&self, out: &mut Vec<u8>) {
        for &b in self.bias() {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for row in self.weights.chunks_exact(padded(self.inputs)) {
            out.extend(row[..self.inputs].iter().map(|&w| w as u8));
        }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The biases, `outputs` of them, in units of `1 / SUM_SCALE`.
    pub fn bias(&self) -> &[i32] {
        &self.bias[..self.outputs]
    }

    /// The weights: one row of `padded(inputs)` values per output, zero
    /// beyond `inputs`.
    pub fn weights(&self) -> &[i8] {
        &self.weights
    }

    /// `sums[..outputs] = bias + weights · input`, and zero up to the padded
    /// width, so that [`crelu`](Self::crelu) yields zero padding.
    ///
    /// `input` has `padded(inputs)` values; `sums` at least `padded(outputs)`.
    pub fn propagate(&self, kernel: Kernel, input: &[u8], sums: &mut [i32]) {
        let input = &input[..padded(self.inputs)];
        if kernel.packs_dense() {
            // The padded rows' weights and biases are zero, so are their sums.
            kernels::dense_packed(kernel, input, &self.packed, &self.bias, &mut sums[..padded(self.outputs)]);
            return;
        }
        let (live, pad) = sums[..padded(self.outputs)].split_at_mut(self.outputs);
        kernels::dense(kernel, input, &self.weights, self.bias(), live);
        pad.fill(0);
    }

    /// The clipped ReLU of `sums`, over the padded width.
    pub fn crelu(&self, kernel: Kernel, sums: &[i32], out: &mut [u8]) {
        let width = padded(self.outputs);
        kernels::crelu_i32(kernel, &sums[..width], &mut out[..width]);
    }
}
