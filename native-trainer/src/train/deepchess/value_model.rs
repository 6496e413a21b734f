//! The value network in burn: a Pos2Vec tower (typically one wide layer and
//! a narrow one) and a utility head, read through the colour mirror as the
//! engine reads it.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Tensor};
use deepchess_core::{FloatLayer, FloatNetwork, Shape};

use crate::train::deepchess::model::{Siamese, clip, copy_layer};
use crate::train::runner::tensors::Positions;

/// A tower and a utility head `u`; the network's value of a position `x` is
/// the symmetrized utility `s(x) = (u(x) − u(x̄)) / 2`, where `x̄` is the
/// colour mirror image: exactly what the scalar search evaluates
/// ([`deepchess_core::Network::evaluate`]), so `s(x̄) = −s(x)` by
/// construction.
#[derive(Module, Debug)]
pub struct ValueNet {
    /// The tower (a Siamese network without a comparison head).
    tower: Siamese,
    /// `embedding → 1`.
    utility: Linear,
}

impl ValueNet {
    /// A freshly initialized network of `shape` (its tower; any comparison
    /// head is ignored).
    pub fn new(shape: &Shape, device: &Device) -> ValueNet {
        let tower_only = Shape::with_heads(shape.tower(), &[], true).expect("a valid tower");
        ValueNet {
            tower: Siamese::new(&tower_only, device),
            utility: LinearConfig::new(shape.embedding(), 1).init(device),
        }
    }

    /// `s(x)` for `positions` given with their mirror images: `[batch, 1]`,
    /// in logits (the predicted score is `σ(s)`).
    pub fn forward(&self, positions: &Positions, mirrored: &Positions) -> Tensor<2> {
        let utilities = self.utility.forward(self.tower.embed(&positions.concat(mirrored))); // [2 * batch, 1]
        let [own, mirror] = <[Tensor<2>; 2]>::try_from(utilities.chunk(2, 0)).expect("two equal halves");
        own.sub(mirror).mul_scalar(0.5)
    }

    /// Clips every hidden weight (the utility head's included) to what an
    /// `i8` holds after quantization.
    pub fn clip(self) -> ValueNet {
        ValueNet { tower: self.tower.clip(), utility: clip(self.utility) }
    }

    /// The layer sizes: the tower and a utility head.
    pub fn shape(&self) -> Shape {
        Shape::with_heads(&self.tower.tower_widths(), &[], true).expect("built from a valid shape")
    }

    /// Core's float reference of this network, with `cp_scale` centipawns
    /// per unit of `s`.
    pub fn to_float(&self, cp_scale: f32) -> FloatNetwork {
        let shape = self.shape();
        let mut layer = FloatLayer::zeros(shape.embedding(), 1);
        copy_layer(&self.utility, &mut layer);
        let mut net = FloatNetwork::zeros(&shape);
        self.tower.copy_into(&mut net);
        net.with_utility(layer, cp_scale).expect("the head fits the embedding and the scale is valid")
    }
}
