//! The float reference network: the trainer's model, in plain Rust.
//!
//! It computes exactly what the trainer's model computes (clipped ReLU after
//! every layer but the head's last), in `f32`. Tests measure the integer
//! network against it, and the trainer exports through
//! [`to_bytes`](FloatNetwork::to_bytes), which quantizes with
//! [`crate::deepchess::quantize`].

use alloc::string::String;
use alloc::vec::Vec;

use crate::arch::{DEFAULT_CP_SCALE, INPUTS, MAX_BUCKETS, SIDE_TO_MOVE_INDEX, output_bucket};
use crate::deepchess::features::Features;
use crate::deepchess::format::{FLOAT_FORMAT, Header};
use crate::deepchess::quantize;
use crate::deepchess::shape::Shape;
use crate::file::error::WeightsError;
use crate::file::{FloatParams, Params, Reader, is_valid_cp_scale, read_cp_scale};

/// A fully connected float layer, weights stored one row per output.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLayer {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl FloatParams for FloatLayer {
    fn params(&self) -> Params<'_> {
        Params { fan_in: self.inputs, outputs: self.outputs, bias: &self.bias, weights: &self.weights }
    }
}

impl FloatLayer {
    /// A layer of zeros.
    pub fn zeros(inputs: usize, outputs: usize) -> FloatLayer {
        FloatLayer { inputs, outputs, weights: alloc::vec![0.0; inputs * outputs], bias: alloc::vec![0.0; outputs] }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Weights, `outputs` rows of `inputs`.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Weights, mutable; the length is fixed.
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// Biases, one per output.
    pub fn bias(&self) -> &[f32] {
        &self.bias
    }

    /// Biases, mutable; the length is fixed.
    pub fn bias_mut(&mut self) -> &mut [f32] {
        &mut self.bias
    }

    /// `bias + weights · input`, before any activation.
    pub fn forward(&self, input: &[f32]) -> Vec<f32> {
        self.weights
            .chunks_exact(self.inputs)
            .zip(&self.bias)
            .map(|(row, &b)| b + row.iter().zip(input).map(|(w, x)| w * x).sum::<f32>())
            .collect()
    }
}

/// The clipped ReLU, `min(max(x, 0), 1)`.
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// A DeepChess network in `f32`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    shape: Shape,
    tower: Vec<FloatLayer>,
    head: Vec<FloatLayer>,
    /// The utility head, `embedding → buckets` (one output but with output
    /// buckets), if the shape has one.
    utility: Option<FloatLayer>,
    /// Centipawns per unit of utility (see [`utility_cp`](Self::utility_cp)).
    cp_scale: f32,
    /// Stored in the exported file: what the network was trained on, and how.
    pub description: String,
}

impl FloatNetwork {
    /// A network of the given shape with every weight and bias zero.
    pub fn zeros(shape: &Shape) -> FloatNetwork {
        let layers = |widths: &[usize]| widths.windows(2).map(|w| FloatLayer::zeros(w[0], w[1])).collect();
        let first = FloatLayer::zeros(INPUTS, shape.tower()[1]);
        let dense = shape.dense_layers().into_iter().map(|(inputs, outputs)| FloatLayer::zeros(inputs, outputs));
        FloatNetwork {
            shape: shape.clone(),
            tower: core::iter::once(first).chain(dense).collect(),
            head: layers(shape.head()),
            utility: shape.has_utility().then(|| FloatLayer::zeros(shape.embedding(), shape.buckets())),
            cp_scale: DEFAULT_CP_SCALE,
            description: String::new(),
        }
    }

    /// Adds (or replaces) the utility head: `layer` maps the embedding to
    /// one value `u` (or one per output bucket: the shape takes as many
    /// buckets as `layer` has outputs), and `cp_scale` turns it into
    /// centipawns.
    ///
    /// Returns `None` when `layer` is not `embedding → 1` to
    /// `embedding →` [`MAX_BUCKETS`] or the scale is not
    /// a positive, finite number (up to
    /// [`MAX_CP_SCALE`](crate::file::MAX_CP_SCALE)).
    pub fn with_utility(mut self, layer: FloatLayer, cp_scale: f32) -> Option<FloatNetwork> {
        let fits = layer.inputs == self.shape.embedding() && (1..=MAX_BUCKETS).contains(&layer.outputs);
        if !(fits && is_valid_cp_scale(cp_scale)) {
            return None;
        }
        self.shape = self.shape.with_utility(true).ok()?.with_buckets(layer.outputs).ok()?;
        self.utility = Some(layer);
        self.cp_scale = cp_scale;
        Some(self)
    }

    /// The utility head, if any.
    pub fn utility_layer(&self) -> Option<&FloatLayer> {
        self.utility.as_ref()
    }

    /// The utility head, mutable (its size is fixed).
    pub fn utility_layer_mut(&mut self) -> Option<&mut FloatLayer> {
        self.utility.as_mut()
    }

    /// Centipawns per unit of utility.
    pub fn cp_scale(&self) -> f32 {
        self.cp_scale
    }

    /// The utility `u` of an embedding, read at output `bucket` (the
    /// position's [`output_bucket`]; 0 for a head without buckets, and a
    /// bucket past the last reads the last): `P(a better for White than b)
    /// = σ(u(a) − u(b))`. `None` without a utility head.
    pub fn utility(&self, embedding: &[f32], bucket: usize) -> Option<f32> {
        let outputs = self.utility.as_ref()?.forward(embedding);
        outputs.get(bucket.min(outputs.len() - 1)).copied()
    }

    /// The utility in centipawns from White's point of view, `u · cp_scale`
    /// at output `bucket` (not rounded or clamped). `None` without a
    /// utility head.
    pub fn utility_cp(&self, embedding: &[f32], bucket: usize) -> Option<f32> {
        self.utility(embedding, bucket).map(|u| u * self.cp_scale)
    }

    /// The layer sizes.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Tower layers, the first one taking the 773 input bits.
    pub fn tower(&self) -> &[FloatLayer] {
        &self.tower
    }

    /// Tower layers, mutable (their sizes are fixed).
    pub fn tower_mut(&mut self) -> &mut [FloatLayer] {
        &mut self.tower
    }

    /// Head layers, the last one giving the two logits.
    pub fn head(&self) -> &[FloatLayer] {
        &self.head
    }

    /// Head layers, mutable (their sizes are fixed).
    pub fn head_mut(&mut self) -> &mut [FloatLayer] {
        &mut self.head
    }

    /// The first layer's sums for a position: bias plus the weight column of
    /// each active bit.
    pub fn first_layer(&self, features: &Features) -> Vec<f32> {
        let first = &self.tower[0];
        let mut sums = first.bias.clone();
        for &index in features.as_slice() {
            for (s, row) in sums.iter_mut().zip(first.weights.chunks_exact(INPUTS)) {
                *s += row[usize::from(index)];
            }
        }
        sums
    }

    /// The first layer's activations of the position whose bits are
    /// `features`: [`first_layer`](Self::first_layer) through the shape's
    /// first activation ([`Shape::activation`]).
    pub fn first_activations(&self, features: &Features) -> Vec<f32> {
        let activation = self.shape.activation();
        self.first_layer(features).into_iter().map(|x| activation.of(x)).collect()
    }

    /// Pos2Vec: the embedding of a position, with clipped ReLUs (the first
    /// layer's activation as its shape says). A
    /// perspective network's embedding needs both views:
    /// [`embed_perspectives`](Self::embed_perspectives).
    pub fn embed(&self, features: &Features) -> Vec<f32> {
        self.rest_of_tower(self.first_activations(features))
    }

    /// A perspective network's embedding: the first layer of the side to
    /// move's view (`own`) and of the other side's (`other`), side by side,
    /// through the rest of the tower.
    pub fn embed_perspectives(&self, own: &Features, other: &Features) -> Vec<f32> {
        let act = self.first_activations(own).into_iter().chain(self.first_activations(other)).collect();
        self.rest_of_tower(act)
    }

    fn rest_of_tower(&self, mut act: Vec<f32>) -> Vec<f32> {
        for layer in &self.tower[1..] {
            act = layer.forward(&act).into_iter().map(crelu).collect();
        }
        act
    }

    /// The value `s(x)` of the position whose bits are `features`, in units
    /// of utility from White's point of view (`σ(s)` is White's expected
    /// score; times [`cp_scale`](Self::cp_scale) it is what the engine
    /// evaluates). A network read through the mirror gives
    /// `(u(x) − u(x̄)) / 2`; a perspective network the utility of its
    /// side to move's reading, negated when Black is to move. Both read the
    /// output bucket of the position's material and give `s(x̄) = −s(x)`.
    /// `None` without a utility head.
    pub fn value(&self, features: &Features) -> Option<f32> {
        let mirrored = features.mirrored();
        let bucket = output_bucket(features.men(), self.shape.buckets());
        if self.shape.is_perspective() {
            let white_to_move = features.contains(SIDE_TO_MOVE_INDEX);
            let (own, other) = if white_to_move { (features, &mirrored) } else { (&mirrored, features) };
            let u = self.utility(&self.embed_perspectives(own, other), bucket)?;
            Some(if white_to_move { u } else { -u })
        } else {
            Some((self.utility(&self.embed(features), bucket)? - self.utility(&self.embed(&mirrored), bucket)?) / 2.0)
        }
    }

    /// The head's two logits for the embeddings `a` and `b`; `[0, 0]` (no
    /// preference) for a network without a comparison head.
    pub fn logits(&self, a: &[f32], b: &[f32]) -> [f32; 2] {
        let mut act: Vec<f32> = a.iter().chain(b).copied().collect();
        let Some((last, hidden)) = self.head.split_last() else { return [0.0, 0.0] };
        for layer in hidden {
            act = layer.forward(&act).into_iter().map(crelu).collect();
        }
        let out = last.forward(&act);
        [out[0], out[1]]
    }

    /// The probability that `a` is better for White than `b`.
    pub fn compare(&self, a: &[f32], b: &[f32]) -> f32 {
        let [x, y] = self.logits(a, b);
        1.0 / (1.0 + libm::expf(y - x))
    }

    /// The float network file (`.dcnf`): the `.dcnn` header with
    /// [`FLOAT_MAGIC`](crate::deepchess::format::FLOAT_MAGIC), then each layer's weights (`outputs` rows of
    /// `inputs`) and biases as little-endian `f32`, tower first, then the
    /// comparison head, then the utility head and its centipawn scale.
    pub fn to_float_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        Header { shape: self.shape.clone(), description: self.description.clone() }.write_as(&mut out, FLOAT_FORMAT);
        for layer in self.tower.iter().chain(&self.head).chain(&self.utility) {
            for &v in layer.weights.iter().chain(&layer.bias) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        if self.utility.is_some() {
            out.extend_from_slice(&self.cp_scale.to_le_bytes());
        }
        out
    }

    /// Reads a float network file written by [`to_float_bytes`](Self::to_float_bytes).
    pub fn from_float_bytes(bytes: &[u8]) -> Result<FloatNetwork, WeightsError> {
        let mut reader = Reader::new(bytes);
        let header = Header::read_as(&mut reader, &FLOAT_FORMAT)?;
        let mut net = FloatNetwork::zeros(&header.shape);
        net.description = header.description;
        for layer in net.tower.iter_mut().chain(&mut net.head).chain(&mut net.utility) {
            let (w, b) = (layer.weights.len(), layer.bias.len());
            for (dst, v) in layer.weights.iter_mut().zip(reader.f32s(w)?) {
                *dst = v;
            }
            for (dst, v) in layer.bias.iter_mut().zip(reader.f32s(b)?) {
                *dst = v;
            }
        }
        if net.utility.is_some() {
            net.cp_scale = read_cp_scale(&mut reader)?;
        }
        reader.finish()?;
        Ok(net)
    }

    /// Quantizes the network into a `.dcnn` file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        Header { shape: self.shape.clone(), description: self.description.clone() }.write(&mut out);
        let first = &self.tower[0];
        for &b in &first.bias {
            out.extend_from_slice(&quantize::ft_weight(b).to_le_bytes());
        }
        for input in 0..INPUTS {
            for row in first.weights.chunks_exact(INPUTS) {
                out.extend_from_slice(&quantize::ft_weight(row[input]).to_le_bytes());
            }
        }
        for layer in self.tower[1..].iter().chain(&self.head).chain(&self.utility) {
            for &b in &layer.bias {
                out.extend_from_slice(&quantize::hidden_bias(b).to_le_bytes());
            }
            out.extend(layer.weights.iter().map(|&w| quantize::hidden_weight(w) as u8));
        }
        if self.utility.is_some() {
            out.extend_from_slice(&self.cp_scale.to_le_bytes());
        }
        out
    }
}
