//! The AlphaZero reimplementation's policy-and-value network in `f32`, and its file
//! format (`.dcaz`).
//!
//! # Architecture
//!
//! With `F` filters and `N` residual blocks ([`AzNet::filters`],
//! [`AzNet::blocks`]); every convolution's batch norm is folded into it
//! ([`Conv`]), so inference is convolutions, ReLUs and additions:
//!
//! | part | layers |
//! |---|---|
//! | input block | 3 × 3 conv 22 → F, ReLU |
//! | each residual block | 3 × 3 conv F → F, ReLU, 3 × 3 conv F → F, add the block's input, ReLU |
//! | policy head | 3 × 3 conv F → F, ReLU, 1 × 1 conv F → 73: logit of move kind `k` from square `s` at `[k][s]` |
//! | value head | 1 × 1 conv F → 1, ReLU, dense 64 → 256, ReLU, dense 256 → 1, `tanh` |
//!
//! The value head is AlphaGo Zero's, with the rectifier after the value
//! convolution's batch norm that the reimplementation's summary leaves out.
//!
//! # File format
//!
//! All integers and floats are little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic | `b"DCAZ"` ([`AZ_MAGIC`]) |
//! | format version | `u32` ([`AZ_VERSION`]) |
//! | architecture hash | `u32`, [`az_arch_hash`] of the two sizes |
//! | residual blocks, filters | `u32`, `u32` |
//! | description | `u32` length, then UTF-8 (at most 4,096 bytes) |
//! | each convolution, in the order of the table | bias `f32[out]`, then weights `f32[out][in][size][size]` |
//! | the two dense layers | bias `f32[out]`, then weights `f32[out][in]` |
//!
//! Nothing follows the last tensor. Files are named by their content, as the
//! other networks are ([`crate::deepchess::format::file_name`]), with `.dcaz`.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::alphazero::conv::{Conv, SQUARES};
use crate::alphazero::planes::Planes;
use crate::alphazero::policy::POLICY_SIZE;
use crate::arch::{AZ_MAX_BLOCKS, AZ_MAX_FILTERS, AZ_PLANES, AZ_POLICY_KINDS, AZ_VALUE_HIDDEN, az_arch_hash};
use crate::file::{
    FileHeader, FloatParams, Format, Params, Reader, WeightsError, read_params, write_description, write_params,
    write_u32,
};
use crate::kernels::{self, Kernel};

/// The first four bytes of an AlphaZero network file.
pub const AZ_MAGIC: [u8; 4] = *b"DCAZ";

/// The `.dcaz` format version this build reads and writes.
pub const AZ_VERSION: u32 = 1;

/// The `.dcaz` format.
pub const AZ_FORMAT: Format = Format { magic: AZ_MAGIC, oldest: AZ_VERSION, newest: AZ_VERSION };

/// A dense layer of the value head: `weights[o * inputs + i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AzDense {
    /// `outputs` biases.
    pub bias: Vec<f32>,
    /// `outputs × inputs` weights.
    pub weights: Vec<f32>,
}

impl FloatParams for AzDense {
    fn params(&self) -> Params<'_> {
        Params {
            fan_in: self.weights.len() / self.bias.len().max(1),
            outputs: self.bias.len(),
            bias: &self.bias,
            weights: &self.weights,
        }
    }
}

/// The network's layers, as the trainer exports them (batch norm folded).
#[derive(Clone, Debug, PartialEq)]
pub struct AzLayers {
    /// 3 × 3, 22 → F.
    pub input: Conv,
    /// Each residual block's two 3 × 3 convolutions, F → F.
    pub tower: Vec<[Conv; 2]>,
    /// 3 × 3, F → F.
    pub policy_conv: Conv,
    /// 1 × 1, F → 73.
    pub policy_out: Conv,
    /// 1 × 1, F → 1.
    pub value_conv: Conv,
    /// 64 → 256.
    pub value_hidden: AzDense,
    /// 256 → 1.
    pub value_out: AzDense,
}

impl AzLayers {
    /// Layers of zeros for `blocks` residual blocks of `filters` filters.
    pub fn zeros(blocks: usize, filters: usize) -> AzLayers {
        let dense =
            |inputs: usize, outputs: usize| AzDense { bias: vec![0.0; outputs], weights: vec![0.0; inputs * outputs] };
        let mut convs = conv_shapes(blocks, filters).into_iter().map(|(i, o, size)| Conv::zeros(i, o, size));
        let mut next = || convs.next().expect("conv_shapes lists every convolution");
        AzLayers {
            input: next(),
            tower: (0..blocks).map(|_| [next(), next()]).collect(),
            policy_conv: next(),
            policy_out: next(),
            value_conv: next(),
            value_hidden: dense(SQUARES, AZ_VALUE_HIDDEN),
            value_out: dense(AZ_VALUE_HIDDEN, 1),
        }
    }

    /// Every convolution, in file order.
    pub fn convs(&self) -> impl Iterator<Item = &Conv> {
        core::iter::once(&self.input).chain(self.tower.iter().flatten()).chain([
            &self.policy_conv,
            &self.policy_out,
            &self.value_conv,
        ])
    }

    /// Residual blocks.
    pub fn blocks(&self) -> usize {
        self.tower.len()
    }

    /// Filters.
    pub fn filters(&self) -> usize {
        self.input.outputs
    }

    /// Whether these are the layers of `blocks × filters`, with finite values.
    fn check(&self) -> Result<(), WeightsError> {
        let bad = |reason| Err(WeightsError::BadAlphaZero { reason });
        let (blocks, filters) = (self.blocks(), self.filters());
        if blocks > AZ_MAX_BLOCKS || filters == 0 || filters > AZ_MAX_FILTERS {
            return bad("residual blocks up to 40 and filters from 1 to 512");
        }
        let shapes = conv_shapes(blocks, filters);
        let same = |a: &Conv, &(inputs, outputs, size): &(usize, usize, usize)| {
            (a.inputs, a.outputs, a.size) == (inputs, outputs, size) && a.is_valid()
        };
        let dense = |a: &AzDense, inputs: usize, outputs: usize| {
            a.bias.len() == outputs && a.weights.len() == inputs * outputs && a.is_well_formed()
        };
        if self.convs().count() != shapes.len()
            || !self.convs().zip(&shapes).all(|(a, b)| same(a, b))
            || !dense(&self.value_hidden, SQUARES, AZ_VALUE_HIDDEN)
            || !dense(&self.value_out, AZ_VALUE_HIDDEN, 1)
        {
            return bad("a layer's tensors do not have the architecture's sizes, or a weight is not a finite number");
        }
        Ok(())
    }
}

/// `(inputs, outputs, size)` of every convolution of `blocks × filters`, in
/// file order.
fn conv_shapes(blocks: usize, filters: usize) -> Vec<(usize, usize, usize)> {
    let mut shapes = vec![(AZ_PLANES, filters, 3)];
    shapes.extend(core::iter::repeat_n((filters, filters, 3), 2 * blocks));
    shapes.extend([(filters, filters, 3), (filters, AZ_POLICY_KINDS, 1), (filters, 1, 1)]);
    shapes
}

/// Scratch space for one evaluation, reused between evaluations.
#[derive(Clone, Debug, Default)]
pub struct AzScratch {
    cols: Vec<f32>,
    x: Vec<f32>,
    t: Vec<f32>,
    u: Vec<f32>,
    policy: Vec<f32>,
}

/// A network's verdict on one position.
#[derive(Clone, Debug, PartialEq)]
pub struct AzOutput {
    /// The value for the side to move, in `−1..=1`.
    pub value: f32,
    /// One logit per policy index ([`move_index`](super::move_index)).
    pub logits: Vec<f32>,
}

/// The AlphaZero network.
#[derive(Clone, Debug)]
pub struct AzNet {
    layers: AzLayers,
    /// What it was trained on, and how.
    pub description: String,
    kernel: Kernel,
}

impl AzNet {
    /// A network from its layers; an error if they do not fit the architecture.
    pub fn new(layers: AzLayers, description: String) -> Result<AzNet, WeightsError> {
        layers.check()?;
        Ok(AzNet { layers, description, kernel: Kernel::detect() })
    }

    /// The layers.
    pub fn layers(&self) -> &AzLayers {
        &self.layers
    }

    /// Residual blocks.
    pub fn blocks(&self) -> usize {
        self.layers.blocks()
    }

    /// Filters.
    pub fn filters(&self) -> usize {
        self.layers.filters()
    }

    /// The kernels it runs on.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs on `kernel` instead (an unsupported one falls back to scalar).
    pub fn with_kernel(mut self, kernel: Kernel) -> AzNet {
        self.kernel = kernel;
        self
    }

    /// The value and policy logits of the position `planes` encode.
    pub fn evaluate(&self, planes: &Planes, scratch: &mut AzScratch) -> AzOutput {
        let mut logits = vec![0.0; POLICY_SIZE];
        let value = self.evaluate_into(planes, scratch, &mut logits);
        AzOutput { value, logits }
    }

    /// [`AzNet::evaluate`] into `logits` (`POLICY_SIZE` long), returning the value.
    pub fn evaluate_into(&self, planes: &Planes, scratch: &mut AzScratch, logits: &mut [f32]) -> f32 {
        assert_eq!(logits.len(), POLICY_SIZE);
        let (kernel, layers) = (self.kernel, &self.layers);
        let width = layers.filters() * SQUARES;
        let AzScratch { cols, x, t, u, policy } = scratch;
        for buffer in [&mut *x, &mut *t, &mut *u] {
            buffer.resize(width, 0.0);
        }
        layers.input.forward(kernel, planes.values(), cols, x);
        relu(x);
        for [first, second] in &layers.tower {
            first.forward(kernel, x, cols, t);
            relu(t);
            second.forward(kernel, t, cols, u);
            for (out, skip) in x.iter_mut().zip(u.iter()) {
                *out = (*out + skip).max(0.0);
            }
        }
        layers.policy_conv.forward(kernel, x, cols, t);
        relu(t);
        policy.resize(AZ_POLICY_KINDS * SQUARES, 0.0);
        layers.policy_out.forward(kernel, t, cols, policy);
        for (kind, plane) in policy.chunks_exact(SQUARES).enumerate() {
            for (square, &logit) in plane.iter().enumerate() {
                logits[square * AZ_POLICY_KINDS + kind] = logit;
            }
        }
        let mut value = [0.0; SQUARES];
        layers.value_conv.forward(kernel, x, cols, &mut value);
        relu(&mut value);
        let mut hidden = [0.0; AZ_VALUE_HIDDEN];
        let dense = &layers.value_hidden;
        kernels::dense_f32(kernel, &value, &dense.weights, &dense.bias, &mut hidden);
        relu(&mut hidden);
        let mut out = [0.0];
        let dense = &layers.value_out;
        kernels::dense_f32(kernel, &hidden, &dense.weights, &dense.bias, &mut out);
        libm::tanhf(out[0])
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        FileHeader::write(&mut out, AZ_FORMAT, az_arch_hash(self.blocks(), self.filters()));
        write_u32(&mut out, self.blocks() as u32);
        write_u32(&mut out, self.filters() as u32);
        write_description(&mut out, &self.description);
        for conv in self.layers.convs() {
            write_params(&mut out, conv);
        }
        write_params(&mut out, &self.layers.value_hidden);
        write_params(&mut out, &self.layers.value_out);
        out
    }

    /// Reads a `.dcaz` file; every defect is a typed error.
    pub fn from_bytes(bytes: &[u8]) -> Result<AzNet, WeightsError> {
        let mut reader = Reader::new(bytes);
        let hash = FileHeader::read(&mut reader, &[AZ_FORMAT])?.hash;
        let (blocks, filters) = (reader.u32()? as usize, reader.u32()? as usize);
        if hash != az_arch_hash(blocks, filters) {
            return Err(WeightsError::ArchHashMismatch { found: hash, expected: az_arch_hash(blocks, filters) });
        }
        if blocks > AZ_MAX_BLOCKS || filters == 0 || filters > AZ_MAX_FILTERS {
            return Err(WeightsError::BadAlphaZero { reason: "residual blocks up to 40 and filters from 1 to 512" });
        }
        let description = reader.description()?.into();
        // Each tensor is read (and allocated) only once its bytes are there,
        // so a short file that claims a large network costs nothing.
        let mut convs = Vec::new();
        for (inputs, outputs, size) in conv_shapes(blocks, filters) {
            let (bias, weights) = read_params(&mut reader, outputs, inputs * size * size)?;
            convs.push(Conv { inputs, outputs, size, bias, weights });
        }
        let mut dense = |inputs: usize, outputs: usize| -> Result<AzDense, WeightsError> {
            let (bias, weights) = read_params(&mut reader, outputs, inputs)?;
            Ok(AzDense { bias, weights })
        };
        let (value_hidden, value_out) = (dense(SQUARES, AZ_VALUE_HIDDEN)?, dense(AZ_VALUE_HIDDEN, 1)?);
        reader.finish()?;
        let mut convs = convs.into_iter();
        let mut next = || convs.next().expect("conv_shapes lists every convolution");
        let input = next();
        let tower = (0..blocks).map(|_| [next(), next()]).collect();
        let layers = AzLayers {
            input,
            tower,
            policy_conv: next(),
            policy_out: next(),
            value_conv: next(),
            value_hidden,
            value_out,
        };
        AzNet::new(layers, description)
    }
}

fn relu(values: &mut [f32]) {
    values.iter_mut().for_each(|v| *v = v.max(0.0));
}
