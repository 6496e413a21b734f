//! The quantized DeepChess network: load, embed, compare.

use alloc::vec::Vec;

use shakmaty::Chess;

use crate::accumulator::Accumulator;
use crate::arch::{MAX_WIDTH, SUM_SCALE, padded};
use crate::embedding::Embedding;
use crate::error::WeightsError;
use crate::format::{Header, Reader};
use crate::kernels::{self, Kernel};
use crate::layers::{Dense, FeatureTransformer};
use crate::shape::Shape;

/// A quantized DeepChess network, ready for integer inference.
///
/// `compare(a, b)` is the probability that position `a` is better for White
/// than position `b`: the first output of the softmax over the head's two
/// logits.
///
/// ```
/// use deepchess_core::{FloatNetwork, Network, Shape};
/// use shakmaty::Chess;
///
/// let bytes = FloatNetwork::zeros(&Shape::distilled()).to_bytes();
/// let net = Network::from_bytes(&bytes)?;
/// let start = net.embed_position(&Chess::default());
/// assert_eq!(net.compare(&start, &start), 0.5); // all-zero weights cannot tell
/// # Ok::<_, deepchess_core::WeightsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Network {
    header: Header,
    ft: FeatureTransformer,
    tower: Vec<Dense>,
    head: Vec<Dense>,
    kernel: Kernel,
}

impl Network {
    /// Loads a `.dcnn` file (see [`format`](crate::format)). Never panics:
    /// every defect is a [`WeightsError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let mut reader = Reader::new(bytes);
        let header = Header::read(&mut reader)?;
        let tower_widths = header.shape.tower();
        let ft = FeatureTransformer::read(&mut reader, tower_widths[1])?;
        let tower = dense_layers(&mut reader, &tower_widths[1..])?;
        let head = dense_layers(&mut reader, header.shape.head())?;
        reader.finish()?;
        Ok(Network { header, ft, tower, head, kernel: Kernel::detect() })
    }

    /// Serializes the network; `from_bytes(to_bytes())` gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.header.write(&mut out);
        self.ft.write(&mut out);
        for layer in self.tower.iter().chain(&self.head) {
            layer.write(&mut out);
        }
        out
    }

    /// Layer sizes.
    pub fn shape(&self) -> &Shape {
        &self.header.shape
    }

    /// The description stored in the file.
    pub fn description(&self) -> &str {
        &self.header.description
    }

    /// The kernel inference runs on ([`Kernel::detect`] after loading).
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs inference on `kernel` from now on. Returns `false`, and keeps the
    /// current kernel, if this machine does not support it.
    pub fn set_kernel(&mut self, kernel: Kernel) -> bool {
        let supported = kernel.is_supported();
        if supported {
            self.kernel = kernel;
        }
        supported
    }

    /// The sparse first layer.
    pub fn feature_transformer(&self) -> &FeatureTransformer {
        &self.ft
    }

    /// The tower's dense layers, after the feature transformer.
    pub fn tower(&self) -> &[Dense] {
        &self.tower
    }

    /// The head's dense layers; the last one gives the two logits.
    pub fn head(&self) -> &[Dense] {
        &self.head
    }

    /// The accumulator of `pos`, computed from scratch.
    pub fn accumulator(&self, pos: &Chess) -> Accumulator {
        Accumulator::new(self, pos)
    }

    /// Pos2Vec: the rest of the tower, from the first layer's sums to the
    /// embedding.
    pub fn embed(&self, acc: &Accumulator) -> Embedding {
        let (mut act, mut next) = ([0u8; MAX_WIDTH], [0u8; MAX_WIDTH]);
        let mut sums = [0i32; MAX_WIDTH];
        let width = self.ft.width();
        kernels::crelu_i16(self.kernel, acc.values(), &mut act[..width]);
        let (mut act, mut next) = (&mut act, &mut next);
        for layer in &self.tower {
            layer.propagate(self.kernel, &act[..], &mut sums);
            layer.crelu(self.kernel, &sums, &mut next[..]);
            core::mem::swap(&mut act, &mut next);
        }
        Embedding::from_activations(&act[..padded(self.shape().embedding())])
    }

    /// The embedding of `pos`, computed from scratch.
    pub fn embed_position(&self, pos: &Chess) -> Embedding {
        self.embed(&self.accumulator(pos))
    }

    /// The head's two logits for the pair (`a`, `b`), in units of
    /// `1 / SUM_SCALE`.
    pub fn logits(&self, a: &Embedding, b: &Embedding) -> [i32; 2] {
        let width = self.shape().embedding();
        let (mut act, mut next) = ([0u8; MAX_WIDTH], [0u8; MAX_WIDTH]);
        let mut sums = [0i32; MAX_WIDTH];
        act[..width].copy_from_slice(&a.values()[..width]);
        act[width..2 * width].copy_from_slice(&b.values()[..width]);
        let (mut act, mut next) = (&mut act, &mut next);
        let (last, hidden) = self.head.split_last().expect("a validated head has a layer");
        for layer in hidden {
            layer.propagate(self.kernel, &act[..], &mut sums);
            layer.crelu(self.kernel, &sums, &mut next[..]);
            core::mem::swap(&mut act, &mut next);
        }
        last.propagate(self.kernel, &act[..], &mut sums);
        [sums[0], sums[1]]
    }

    /// `logit[0] - logit[1]`: positive when `a` is better for White than `b`.
    /// Exact, so the search compares with it.
    pub fn compare_logit(&self, a: &Embedding, b: &Embedding) -> i32 {
        let [x, y] = self.logits(a, b);
        x.wrapping_sub(y)
    }

    /// The probability that `a` is better for White than `b`.
    pub fn compare(&self, a: &Embedding, b: &Embedding) -> f32 {
        logit_to_probability(self.compare_logit(a, b))
    }
}

/// The softmax's first output from the logit difference `l0 - l1`:
/// `1 / (1 + exp(-(l0 - l1) / SUM_SCALE))`.
pub fn logit_to_probability(logit: i32) -> f32 {
    1.0 / (1.0 + libm::expf(-(logit as f32) / SUM_SCALE as f32))
}

fn dense_layers(reader: &mut Reader<'_>, widths: &[usize]) -> Result<Vec<Dense>, WeightsError> {
    widths.windows(2).map(|pair| Dense::read(reader, pair[0], pair[1])).collect()
}
