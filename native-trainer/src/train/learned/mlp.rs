//! The learned networks in burn: a sparse first layer (an
//! embedding bag over the active inputs, as DeepChess's tower has) and
//! dense layers, exported to core's [`LearnedNet`] (`.dcsn`).

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::activation::{relu, sigmoid, tanh};
use burn::tensor::{Device, Tensor};
use deepchess_core::learned::{Activation, InputKind, LearnedLayer, LearnedNet, OutputKind};

use crate::data::{Record, eval_cp};
use crate::train::runner::tensors::{Positions, bag_sums, tensor_values};

/// A multilayer perceptron: `inputs → widths[0] → … → widths[last]`.
#[derive(Module, Debug)]
pub struct Mlp {
    /// `[inputs + 1, widths[0]]`: one row per input, then the padding row.
    first: Linear,
    /// The other layers; the last gives the outputs.
    layers: Vec<Linear>,
}

/// `activation` applied to `x`.
pub fn activate(x: Tensor<2>, activation: Activation) -> Tensor<2> {
    match activation {
        Activation::Identity => x,
        Activation::Relu => relu(x),
        Activation::Sigmoid => sigmoid(x),
        Activation::Tanh => tanh(x),
    }
}

impl Mlp {
    /// Fresh weights (burn's default initialisation).
    pub fn new(inputs: usize, widths: &[usize], device: &Device) -> Mlp {
        let first = LinearConfig::new(inputs + 1, widths[0]).init(device);
        let layers = widths.windows(2).map(|w| LinearConfig::new(w[0], w[1]).init(device)).collect();
        Mlp { first, layers }
    }

    /// The outputs `[batch, widths[last]]`, with `hidden` after every layer but the last.
    pub fn forward(&self, positions: &Positions, hidden: Activation) -> Tensor<2> {
        self.forward_with(positions, hidden, |x| x)
    }

    /// [`forward`](Self::forward) with `dropout` applied to every hidden
    /// layer's output (a function of the activations: dropout in training,
    /// the identity otherwise).
    pub fn forward_with(
        &self,
        positions: &Positions,
        hidden: Activation,
        dropout: impl Fn(Tensor<2>) -> Tensor<2>,
    ) -> Tensor<2> {
        let mut x = bag_sums(&self.first, positions);
        for layer in &self.layers {
            x = layer.forward(dropout(activate(x, hidden)));
        }
        x
    }

    /// Layer `k` (0: the sparse first layer, whose last weight row is the
    /// padding row).
    pub fn layer(&self, k: usize) -> &Linear {
        if k == 0 { &self.first } else { &self.layers[k - 1] }
    }

    /// How many layers (the sparse first one included).
    pub fn layer_count(&self) -> usize {
        1 + self.layers.len()
    }

    /// The activations after the first `k` layers (each followed by
    /// `hidden`); `k = 0` is not allowed (the inputs are sparse).
    pub fn codes(&self, positions: &Positions, k: usize, hidden: Activation) -> Tensor<2> {
        let mut x = activate(bag_sums(&self.first, positions), hidden);
        for layer in &self.layers[..k - 1] {
            x = activate(layer.forward(x), hidden);
        }
        x
    }

    /// The network as core runs it: `input` encoding, `hidden` activations,
    /// `output`; `negate` flips the sign of the value (a learner whose value
    /// is for the side that just moved exports it for the side to move).
    pub fn to_learned(
        &self,
        input: InputKind,
        hidden: Activation,
        output: OutputKind,
        negate: bool,
        cp_scale: f32,
        description: String,
    ) -> anyhow::Result<LearnedNet> {
        let count = 1 + self.layers.len();
        let mut layers = Vec::with_capacity(count);
        for (k, linear) in std::iter::once(&self.first).chain(&self.layers).enumerate() {
            let [rows, outputs] = linear.weight.val().dims();
            let inputs = if k == 0 { rows - 1 } else { rows };
            let weight = tensor_values(linear.weight.val()); // [rows, outputs]
            let bias = tensor_values(linear.bias.as_ref().expect("layers have biases").val());
            let last = k + 1 == count;
            let sign = if last && negate { -1.0 } else { 1.0 };
            let activation = if last { Activation::Identity } else { hidden };
            let mut layer = LearnedLayer::zeros(inputs, outputs, activation);
            for o in 0..outputs {
                layer.bias[o] = sign * bias[o];
                for i in 0..inputs {
                    layer.weights[o * inputs + i] = sign * weight[i * outputs + o];
                }
            }
            layers.push(layer);
        }
        Ok(LearnedNet::new(input, layers, output, cp_scale, description)?)
    }
}

/// Centipawns per unit of `net`'s value: the least-squares fit through the
/// origin of the evaluations recorded in the first 20,000 evaluated
/// positions of `records`, each as `target` maps it (`None` leaves it out),
/// on the network's value for White; `None` if fewer than 100 remain or if
/// the fit is not a valid scale.
pub fn fit_cp_scale(net: &LearnedNet, records: &[Record], target: impl Fn(f64) -> Option<f64>) -> Option<f32> {
    let (mut vc, mut vv, mut n) = (0f64, 0f64, 0usize);
    for record in records.iter().filter(|r| r.eval().is_some()).take(20_000) {
        let (Some(pos), Some(cp)) = (record.position(), eval_cp(record).and_then(&target)) else { continue };
        let v = f64::from(net.white_value(&pos));
        vc += v * cp;
        vv += v * v;
        n += 1;
    }
    let k = vc / vv;
    (n >= 100 && vv > 0.0 && k.is_finite() && k > 0.0 && k <= 100_000.0).then_some(k as f32)
}
