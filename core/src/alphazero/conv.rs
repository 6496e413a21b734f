//! A convolution over the 8 × 8 board, stride 1, zero padding, with batch
//! normalisation folded into its weights and bias: what each convolution of
//! the AlphaZero network ([`AzNet`](super::AzNet)) computes at inference.
//!
//! Channels are stored plane by plane, each plane square by square
//! (`a1, b1, …, h8` in the side to move's view), as [`Planes`](super::Planes)
//! are: `values[channel * 64 + square]`, the layout of a `[channels, 8, 8]`
//! tensor with rows as ranks. Weights are `[outputs][inputs][size][size]`,
//! as burn's and PyTorch's `Conv2d` store them, and the kernel reads input
//! `(rank + ky − size / 2, file + kx − size / 2)` for tap `(ky, kx)`.
//!
//! A 3 × 3 convolution becomes one matrix product ([`kernels::gemm_f32`]):
//! `im2col` copies each input plane nine times, shifted by each tap, into a
//! `(inputs · 9) × 64` matrix, and the weights, `outputs × (inputs · 9)`,
//! multiply it. A 1 × 1 convolution multiplies the input itself.

use alloc::vec;
use alloc::vec::Vec;

use crate::file::{FloatParams, Params};
use crate::kernels::{self, Kernel};

/// Squares on the board: the columns of every matrix product here.
pub const SQUARES: usize = 64;

/// One convolution with its batch norm folded in.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// Input channels.
    pub inputs: usize,
    /// Output channels.
    pub outputs: usize,
    /// Kernel width and height: 1 or 3.
    pub size: usize,
    /// `outputs` biases.
    pub bias: Vec<f32>,
    /// `outputs × inputs × size × size` weights.
    pub weights: Vec<f32>,
}

impl FloatParams for Conv {
    fn params(&self) -> Params<'_> {
        Params {
            fan_in: self.inputs * self.size * self.size,
            outputs: self.outputs,
            bias: &self.bias,
            weights: &self.weights,
        }
    }
}

impl Conv {
    /// A convolution of zeros.
    pub fn zeros(inputs: usize, outputs: usize, size: usize) -> Conv {
        Conv { inputs, outputs, size, bias: vec![0.0; outputs], weights: vec![0.0; outputs * inputs * size * size] }
    }

    /// Whether its kernel is 1 × 1 or 3 × 3 and its tensors have its sizes
    /// and hold finite numbers.
    pub fn is_valid(&self) -> bool {
        matches!(self.size, 1 | 3) && self.is_well_formed()
    }

    /// `out = conv(input)` (`inputs × 64` in, `outputs × 64` out), with
    /// `cols` as scratch for `im2col`.
    pub fn forward(&self, kernel: Kernel, input: &[f32], cols: &mut Vec<f32>, out: &mut [f32]) {
        assert_eq!(input.len(), self.inputs * SQUARES);
        assert_eq!(out.len(), self.outputs * SQUARES);
        if self.size == 1 {
            kernels::gemm_f32(kernel, &self.weights, input, &self.bias, out);
        } else {
            im2col3(input, cols);
            kernels::gemm_f32(kernel, &self.weights, cols, &self.bias, out);
        }
    }
}

/// `cols[(channel · 9 + ky · 3 + kx) · 64 + square]` = the input at `square`
/// moved by `(ky − 1, kx − 1)` ranks and files, zero off the board.
fn im2col3(input: &[f32], cols: &mut Vec<f32>) {
    let channels = input.len() / SQUARES;
    cols.clear();
    cols.resize(channels * 9 * SQUARES, 0.0);
    for (plane, taps) in input.chunks_exact(SQUARES).zip(cols.chunks_exact_mut(9 * SQUARES)) {
        for (tap, col) in taps.chunks_exact_mut(SQUARES).enumerate() {
            let (dy, dx) = (tap as isize / 3 - 1, tap as isize % 3 - 1);
            for rank in 0..8isize {
                let source = rank + dy;
                if !(0..8).contains(&source) {
                    continue;
                }
                // Files 0..8 read files dx..8 + dx; those off the board stay zero.
                let (from, to) = (dx.max(0), 8 + dx.min(0));
                let (src, dst) = ((source * 8) as usize, (rank * 8) as usize);
                col[dst + (from - dx) as usize..dst + (to - dx) as usize]
                    .copy_from_slice(&plane[src + from as usize..src + to as usize]);
            }
        }
    }
}

/// The same convolution computed directly, in `f64`, one output at a time:
/// the reference the `im2col` path is tested against.
pub fn reference_forward(conv: &Conv, input: &[f32]) -> Vec<f64> {
    let half = (conv.size / 2) as isize;
    let mut out = vec![0.0; conv.outputs * SQUARES];
    for o in 0..conv.outputs {
        for square in 0..SQUARES {
            let (rank, file) = ((square / 8) as isize, (square % 8) as isize);
            let mut sum = f64::from(conv.bias[o]);
            for i in 0..conv.inputs {
                for ky in 0..conv.size {
                    for kx in 0..conv.size {
                        let (r, f) = (rank + ky as isize - half, file + kx as isize - half);
                        if (0..8).contains(&r) && (0..8).contains(&f) {
                            let w = conv.weights[((o * conv.inputs + i) * conv.size + ky) * conv.size + kx];
                            sum += f64::from(w) * f64::from(input[i * SQUARES + (r * 8 + f) as usize]);
                        }
                    }
                }
            }
            out[o * SQUARES + square] = sum;
        }
    }
    out
}
