//! Directional derivatives of an [`Mlp`]'s outputs with respect to its
//! inputs, in forward mode, as ordinary tensor expressions of the weights:
//! autodiff differentiates them again, which is what tangent propagation
//! needs (NeuroChess's EBNN fits a network's slopes, not only its values).
//!
//! burn has no higher-order autodiff on every backend; forward mode through a
//! perceptron is a few lines. Each layer maps a value `z` and its derivative
//! `ż` along a direction `d`: `a = σ(z)`, `ȧ = σ'(z) ⊙ ż`, then
//! `z' = W a + b`, `ż' = W ȧ`.

use burn::tensor::Tensor;
use burn::tensor::activation::sigmoid;
use deepchess_core::learned::Activation;

use crate::train::learned::mlp::{Mlp, activate};
use crate::train::runner::tensors::{Positions, bag_sums};

/// `activation`'s derivative at `z`, from `z` and `a = activation(z)`.
fn derivative(z: Tensor<2>, a: Tensor<2>, activation: Activation) -> Tensor<2> {
    match activation {
        Activation::Identity => z.ones_like(),
        Activation::Relu => z.greater_elem(0.0).float(),
        Activation::Sigmoid => a.clone().mul(a.neg().add_scalar(1.0)),
        Activation::Tanh => a.clone().mul(a).neg().add_scalar(1.0),
    }
}

/// The first layer's weights as a dense `[inputs, width]` matrix (without
/// its padding row).
pub fn first_weight(mlp: &Mlp) -> Tensor<2> {
    let weight = mlp.layer(0).weight.val();
    let inputs = weight.dims()[0] - 1;
    weight.narrow(0, 0, inputs)
}

/// The first layer's pre-activations for sparse `positions` and their
/// derivatives along `directions` (`[batch · k, inputs]`: `k` directions per
/// position, the positions repeated `k` times, first all of them along the
/// first block of directions, then the second block, …).
pub fn first_sparse(mlp: &Mlp, positions: &Positions, directions: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let batch = positions.indices.dims()[0];
    let k = directions.dims()[0] / batch.max(1);
    let z = bag_sums(mlp.layer(0), positions).repeat_dim(0, k);
    (z, directions.matmul(first_weight(mlp)))
}

/// The first layer's pre-activations for dense inputs `x` (`[n, inputs]`,
/// values in [0, 1]) and their derivatives along `dx`.
pub fn first_dense(mlp: &Mlp, x: Tensor<2>, dx: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let weight = first_weight(mlp);
    let width = weight.dims()[1];
    let bias = mlp.layer(0).bias.as_ref().expect("layers have biases").val().reshape([1, width]);
    (x.matmul(weight.clone()).add(bias), dx.matmul(weight))
}

/// From the first layer's pre-activations and their derivatives, the
/// outputs (`[n, outputs]`, before any output function) and theirs, with
/// `hidden` after every layer but the last.
pub fn forward(mlp: &Mlp, z: Tensor<2>, dz: Tensor<2>, hidden: Activation) -> (Tensor<2>, Tensor<2>) {
    let (mut z, mut dz) = (z, dz);
    for k in 1..mlp.layer_count() {
        let layer = mlp.layer(k);
        let a = activate(z.clone(), hidden);
        let da = derivative(z, a.clone(), hidden).mul(dz);
        z = layer.forward(a);
        dz = da.matmul(layer.weight.val());
    }
    (z, dz)
}

/// `tanh` of an output and its derivative.
pub fn tanh(z: Tensor<2>, dz: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let v = burn::tensor::activation::tanh(z.clone());
    let dv = derivative(z, v.clone(), Activation::Tanh).mul(dz);
    (v, dv)
}

/// The logistic of an output and its derivative.
pub fn logistic(z: Tensor<2>, dz: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let p = sigmoid(z.clone());
    let dp = derivative(z, p.clone(), Activation::Sigmoid).mul(dz);
    (p, dp)
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, TensorData};

    use super::*;
    use crate::train::runner::tensors::tensor_values;

    /// The forward-mode derivative equals a central finite difference of
    /// the network itself, for dense inputs, through every activation.
    #[test]
    fn derivatives_match_finite_differences() {
        let device = Device::flex();
        device.seed(7);
        let mlp = Mlp::new(12, &[9, 5, 1], &device);
        let x: Vec<f32> = (0..12).map(|i| ((i * 7) % 5) as f32 / 5.0).collect();
        let d: Vec<f32> = (0..12).map(|i| ((i * 3) % 7) as f32 / 7.0 - 0.4).collect();
        let tensor = |v: &[f32]| Tensor::<2>::from_data(TensorData::new(v.to_vec(), [1, 12]), &device);
        for hidden in [Activation::Sigmoid, Activation::Tanh, Activation::Relu] {
            let (z, dz) = first_dense(&mlp, tensor(&x), tensor(&d));
            let (out, dout) = forward(&mlp, z, dz, hidden);
            let (v, dv) = tanh(out, dout);
            let value = |eps: f32| {
                let shifted: Vec<f32> = x.iter().zip(&d).map(|(x, d)| x + eps * d).collect();
                let (z, dz) = first_dense(&mlp, tensor(&shifted), tensor(&d));
                tensor_values(tanh(forward(&mlp, z, dz, hidden).0, Tensor::zeros([1, 1], &device)).0)[0]
            };
            let eps = 1e-2;
            let numeric = (value(eps) - value(-eps)) / (2.0 * eps);
            let analytic = tensor_values(dv)[0];
            assert!((numeric - analytic).abs() < 2e-3, "{hidden:?}: {analytic} against {numeric}");
            assert!((tensor_values(v)[0] - value(0.0)).abs() < 1e-6);
        }
    }
}
