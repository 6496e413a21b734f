//! The value network in burn: a Pos2Vec tower (typically one wide layer and
//! a narrow one) and a utility head (one output, or one per output bucket),
//! read through the colour mirror or from both perspectives at once, as the
//! engine reads it.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Int, Tensor};
use deepchess_core::arch::{Activation, SIDE_TO_MOVE_INDEX};
use deepchess_core::{FloatLayer, FloatNetwork, Shape};

use crate::train::deepchess::model::{Siamese, clip, copy_layer};
use crate::train::runner::tensors::{Positions, activate};

/// A tower and a utility head `u`; the network's value of a position `x` is
/// the symmetrized utility `s(x) = (u(x) − u(x̄)) / 2`, where `x̄` is the
/// colour mirror image: exactly what the scalar search evaluates
/// ([`deepchess_core::Network::evaluate`]), so `s(x̄) = −s(x)` by
/// construction.
///
/// A perspective network ([`Shape::perspective`]) applies the first layer to
/// both readings and its first dense layer to the two side by side, the side
/// to move's first; the utility is the side to move's, so White's value is
/// it or its negation: `s(x̄) = −s(x)` again by construction
/// ([`deepchess_core::Network::value_difference_of`]).
///
/// With output buckets ([`Shape::with_buckets`]) the utility head has one
/// output per bucket and each position reads the one its men pick
/// ([`deepchess_core::arch::output_bucket`]), its mirror image the same.
///
/// The first layer's activation is the clipped ReLU, or its square
/// ([`Shape::with_activation`]); every later layer's is the clipped ReLU.
#[derive(Module, Debug)]
pub struct ValueNet {
    /// The tower (a Siamese network without a comparison head).
    tower: Siamese,
    /// `embedding → buckets`.
    utility: Linear,
    /// Whether the first dense layer reads both perspectives.
    perspective: bool,
    /// Outputs of the utility head (1: no buckets).
    buckets: usize,
    /// Whether the first layer's activation is squared
    /// ([`Activation::SquaredClippedRelu`]).
    squared: bool,
}

impl ValueNet {
    /// A freshly initialized network of `shape` (its tower; any comparison
    /// head is ignored).
    pub fn new(shape: &Shape, device: &Device) -> ValueNet {
        let tower_only = if shape.is_perspective() {
            shape.clone()
        } else {
            Shape::with_heads(shape.tower(), &[], true).expect("a valid tower")
        };
        ValueNet {
            tower: Siamese::new(&tower_only, device),
            utility: LinearConfig::new(shape.embedding(), shape.buckets()).init(device),
            perspective: shape.is_perspective(),
            buckets: shape.buckets(),
            squared: shape.activation() == Activation::SquaredClippedRelu,
        }
    }

    /// The first layer's activation.
    fn activation(&self) -> Activation {
        if self.squared { Activation::SquaredClippedRelu } else { Activation::ClippedRelu }
    }

    /// The first layer's activations of `positions`, `[batch, h]`.
    fn first(&self, positions: &Positions) -> Tensor<2> {
        activate(self.activation(), self.tower.first_sums(positions))
    }

    /// Each position's output bucket, `[batch, 1]`: its men (the active
    /// piece bits, below the side-to-move bit) split as
    /// [`deepchess_core::arch::output_bucket`] splits them.
    fn bucket_indices(&self, positions: &Positions) -> Tensor<2, Int> {
        let men = positions.indices.clone().lower_elem(i64::from(SIDE_TO_MOVE_INDEX)).int().sum_dim(1);
        let buckets = self.buckets as i64;
        men.sub_scalar(2).clamp(0, 30).mul_scalar(buckets).div_scalar(31).clamp(0, buckets - 1)
    }

    /// The utility head over `embeddings` (`[copies · batch, embedding]`:
    /// `copies` readings of `positions`, one batch after the other), each row
    /// read at its position's bucket: `[copies · batch, 1]`. Without buckets
    /// the head's one output, and no bucket is computed.
    fn utility_at(&self, embeddings: Tensor<2>, positions: &Positions, copies: usize) -> Tensor<2> {
        let outputs = self.utility.forward(embeddings);
        if self.buckets == 1 {
            return outputs;
        }
        outputs.gather(1, Tensor::cat(vec![self.bucket_indices(positions); copies], 0))
    }

    /// `s(x)` for `positions` given with their mirror images: `[batch, 1]`,
    /// in logits (the predicted score is `σ(s)`), each at its output bucket.
    pub fn forward(&self, positions: &Positions, mirrored: &Positions) -> Tensor<2> {
        if self.perspective {
            return self.forward_perspectives(positions, mirrored);
        }
        let embeddings = self.tower.rest(self.first(&positions.concat(mirrored)));
        let utilities = self.utility_at(embeddings, positions, 2); // [2 * batch, 1]
        let [own, mirror] = <[Tensor<2>; 2]>::try_from(utilities.chunk(2, 0)).expect("two equal halves");
        own.sub(mirror).mul_scalar(0.5)
    }

    /// A perspective network's `s(x)`: the first layer's activations of both
    /// readings, the side to move's first, through the rest of the tower
    /// and the utility head, negated where Black is to move. The side to
    /// move is told by the position's own reading: its side-to-move bit is
    /// set when White is to move.
    fn forward_perspectives(&self, positions: &Positions, mirrored: &Positions) -> Tensor<2> {
        let first = self.first(&positions.concat(mirrored)); // [2 * batch, h]
        let [own, mirror] = <[Tensor<2>; 2]>::try_from(first.chunk(2, 0)).expect("two equal halves");
        let white = positions.indices.clone().equal_elem(i64::from(SIDE_TO_MOVE_INDEX)).int().sum_dim(1).float(); // [batch, 1]
        let black = white.clone().neg().add_scalar(1.0);
        let mover = own.clone().mul(white.clone()).add(mirror.clone().mul(black.clone()));
        let other = own.mul(black).add(mirror.mul(white.clone()));
        let utility = self.utility_at(self.tower.rest(Tensor::cat(vec![mover, other], 1)), positions, 1); // [batch, 1]
        utility.mul(white.mul_scalar(2.0).sub_scalar(1.0))
    }

    /// Clips every hidden weight (the utility head's included) to what an
    /// `i8` holds after quantization.
    pub fn clip(self) -> ValueNet {
        ValueNet {
            tower: self.tower.clip(),
            utility: clip(self.utility),
            perspective: self.perspective,
            buckets: self.buckets,
            squared: self.squared,
        }
    }

    /// The layer sizes: the tower and a utility head.
    pub fn shape(&self) -> Shape {
        let tower = self.tower.tower_widths();
        if self.perspective { Shape::perspective(&tower) } else { Shape::with_heads(&tower, &[], true) }
            .and_then(|shape| shape.with_buckets(self.buckets))
            .expect("built from a valid shape")
            .with_activation(self.activation())
    }

    /// Core's float reference of this network, with `cp_scale` centipawns
    /// per unit of `s`.
    pub fn to_float(&self, cp_scale: f32) -> FloatNetwork {
        let shape = self.shape();
        let mut layer = FloatLayer::zeros(shape.embedding(), shape.buckets());
        copy_layer(&self.utility, &mut layer);
        let mut net = FloatNetwork::zeros(&shape);
        self.tower.copy_into(&mut net);
        net.with_utility(layer, cp_scale).expect("the head fits the embedding and the scale is valid")
    }
}
