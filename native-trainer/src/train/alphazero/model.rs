//! The AlphaZero reimplementation's network in burn, and its export to core's
//! [`AzNet`] (`.dcaz`) with every batch norm folded into its convolution.
//!
//! The layers are core's ([`deepchess_core::alphazero::net`]), with batch
//! norm after every convolution but the policy's last:
//!
//! - input block: 3 × 3 conv 22 → F, BN, ReLU;
//! - N residual blocks: 3 × 3 conv, BN, ReLU, 3 × 3 conv, BN, add the
//!   block's input, ReLU;
//! - policy head: 3 × 3 conv F → F, BN, ReLU, 1 × 1 conv F → 73 (with bias);
//! - value head: 1 × 1 conv F → 1, BN, ReLU, dense 64 → 256, ReLU,
//!   dense 256 → 1, `tanh`.
//!
//! Folding: in inference a batch norm is `γ (x − μ) / √(σ² + ε) + β` with
//! its running `μ`, `σ²`, so `BN(W ∗ x)` is `(s W) ∗ x + (β − s μ)` with
//! `s = γ / √(σ² + ε)` per output channel.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Tensor, TensorData};
use deepchess_core::alphazero::{AzDense, AzLayers, AzNet, Conv, PLANES, POLICY_SIZE, Planes};
use deepchess_core::arch::{AZ_POLICY_KINDS, AZ_VALUE_HIDDEN};

use super::board_conv::board_conv;
use crate::train::runner::tensors::tensor_values;

/// A convolution followed by batch norm (the convolution without a bias,
/// which the norm's `β` makes redundant).
#[derive(Module, Debug)]
pub struct ConvBn {
    conv: Conv2d,
    norm: BatchNorm,
}

impl ConvBn {
    fn new(inputs: usize, outputs: usize, size: usize, device: &Device) -> ConvBn {
        let pad = size / 2;
        let conv = Conv2dConfig::new([inputs, outputs], [size, size])
            .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
            .with_bias(false)
            .init(device);
        ConvBn { conv, norm: BatchNormConfig::new(outputs).init(device) }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.norm.forward(board_conv(&self.conv, x))
    }

    /// The convolution with the norm folded in.
    fn fold(&self) -> Conv {
        let [outputs, inputs, size, _] = self.conv.weight.val().dims();
        let weights = tensor_values(self.conv.weight.val());
        let gamma = tensor_values(self.norm.gamma.val());
        let beta = tensor_values(self.norm.beta.val());
        let mean = tensor_values(self.norm.running_mean.value());
        let var = tensor_values(self.norm.running_var.value());
        let per_output = inputs * size * size;
        let mut conv = Conv::zeros(inputs, outputs, size);
        for o in 0..outputs {
            let s = gamma[o] / (var[o] + self.norm.epsilon as f32).sqrt();
            conv.bias[o] = beta[o] - s * mean[o];
            for k in 0..per_output {
                conv.weights[o * per_output + k] = s * weights[o * per_output + k];
            }
        }
        conv
    }
}

/// One residual block.
#[derive(Module, Debug)]
pub struct ResBlock {
    first: ConvBn,
    second: ConvBn,
}

/// The policy-and-value network.
#[derive(Module, Debug)]
pub struct AzModel {
    input: ConvBn,
    tower: Vec<ResBlock>,
    policy: ConvBn,
    policy_out: Conv2d,
    value: ConvBn,
    value_hidden: Linear,
    value_out: Linear,
}

/// A batch's outputs.
pub struct AzForward {
    /// `[batch, 4672]` policy logits, by policy index.
    pub logits: Tensor<2>,
    /// `[batch]` values in `−1..=1`, for the side to move.
    pub value: Tensor<1>,
}

impl AzModel {
    /// Fresh weights (burn's default initialisation) for `blocks` residual
    /// blocks of `filters` filters.
    pub fn new(blocks: usize, filters: usize, device: &Device) -> AzModel {
        let block = || ResBlock {
            first: ConvBn::new(filters, filters, 3, device),
            second: ConvBn::new(filters, filters, 3, device),
        };
        AzModel {
            input: ConvBn::new(PLANES, filters, 3, device),
            tower: (0..blocks).map(|_| block()).collect(),
            policy: ConvBn::new(filters, filters, 3, device),
            policy_out: Conv2dConfig::new([filters, AZ_POLICY_KINDS], [1, 1]).init(device),
            value: ConvBn::new(filters, 1, 1, device),
            value_hidden: LinearConfig::new(64, AZ_VALUE_HIDDEN).init(device),
            value_out: LinearConfig::new(AZ_VALUE_HIDDEN, 1).init(device),
        }
    }

    /// `planes` (each position's [`Planes::values`]) as a `[batch, 22, 8, 8]` tensor.
    pub fn input<'a>(planes: impl Iterator<Item = &'a Planes>, device: &Device) -> Tensor<4> {
        let mut values = Vec::new();
        let mut batch = 0;
        for p in planes {
            values.extend_from_slice(p.values());
            batch += 1;
        }
        Tensor::<4>::from_data(TensorData::new(values, [batch, PLANES, 8, 8]), device)
    }

    /// Reads one weight back (the value head's bias): it waits for every
    /// update queued before it, so a benchmark's clock can stop there.
    pub fn settled(&self) -> f32 {
        tensor_values(self.value_out.bias.as_ref().expect("layers have biases").val())[0]
    }

    /// Policy logits and values of a batch of planes.
    pub fn forward(&self, planes: Tensor<4>) -> AzForward {
        let batch = planes.dims()[0];
        let mut x = relu(self.input.forward(planes));
        for block in &self.tower {
            let inner = relu(block.first.forward(x.clone()));
            x = relu(block.second.forward(inner) + x);
        }
        // [batch, 73, 8, 8] → [batch, 64, 73]: index square × 73 + kind.
        let policy = board_conv(&self.policy_out, relu(self.policy.forward(x.clone())));
        let logits = policy.reshape([batch, AZ_POLICY_KINDS, 64]).swap_dims(1, 2).reshape([batch, POLICY_SIZE]);
        let value = relu(self.value.forward(x)).reshape([batch, 64]);
        let value = tanh(self.value_out.forward(relu(self.value_hidden.forward(value))));
        AzForward { logits, value: value.reshape([batch]) }
    }

    /// Residual blocks.
    pub fn blocks(&self) -> usize {
        self.tower.len()
    }

    /// The network as core runs it, batch norms folded.
    pub fn to_az(&self, description: String) -> anyhow::Result<AzNet> {
        let dense = |linear: &Linear| {
            let [inputs, outputs] = linear.weight.val().dims();
            let weight = tensor_values(linear.weight.val()); // [inputs, outputs]
            let bias = tensor_values(linear.bias.as_ref().expect("layers have biases").val());
            let mut weights = vec![0.0; inputs * outputs];
            for o in 0..outputs {
                for i in 0..inputs {
                    weights[o * inputs + i] = weight[i * outputs + o];
                }
            }
            AzDense { bias, weights }
        };
        let [outputs, inputs, ..] = self.policy_out.weight.val().dims();
        let mut policy_out = Conv::zeros(inputs, outputs, 1);
        policy_out.weights = tensor_values(self.policy_out.weight.val());
        policy_out.bias =
            tensor_values(self.policy_out.bias.as_ref().expect("the policy's last conv has a bias").val());
        let layers = AzLayers {
            input: self.input.fold(),
            tower: self.tower.iter().map(|b| [b.first.fold(), b.second.fold()]).collect(),
            policy_conv: self.policy.fold(),
            policy_out,
            value_conv: self.value.fold(),
            value_hidden: dense(&self.value_hidden),
            value_out: dense(&self.value_out),
        };
        Ok(AzNet::new(layers, description)?)
    }
}
