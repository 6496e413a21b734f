//! Tensor helpers every learner shares: batches of positions as active-bit
//! lists ([`Positions`]), the sparse first layer's sum ([`bag_sums`]), the
//! clipped ReLU, fresh parameters and reading a tensor back.

use burn::module::{Module, ModuleMapper, Param};
use burn::nn::Linear;
use burn::tensor::{Device, Int, Tensor, TensorData};
use deepchess_core::arch::{INPUTS, MAX_ACTIVE};

/// Index of the padding row of the first layer: feature lists are padded to
/// 37 entries with it, and it reads as zeros (see [`bag_sums`]).
pub const PAD_INDEX: usize = INPUTS;

/// A batch of positions, as tensors.
#[derive(Clone, Debug)]
pub struct Positions {
    /// Active input bits, padded with [`PAD_INDEX`]: `[batch, 37]`.
    pub indices: Tensor<2, Int>,
}

impl Positions {
    /// Active-input lists as a batch, each padded to [`MAX_ACTIVE`] entries
    /// with `pad`, the first layer's padding row (its last row: [`PAD_INDEX`]
    /// for the 773-bit encoding).
    pub fn from_lists<'a>(lists: impl Iterator<Item = &'a [u16]>, pad: usize, device: &Device) -> Positions {
        let mut bits = Vec::new();
        let mut batch = 0;
        for list in lists {
            debug_assert!(list.len() <= MAX_ACTIVE);
            bits.extend(list.iter().map(|&b| i64::from(b)));
            bits.extend(std::iter::repeat_n(pad as i64, MAX_ACTIVE - list.len()));
            batch += 1;
        }
        Positions { indices: Tensor::<2, Int>::from_data(TensorData::new(bits, [batch, MAX_ACTIVE]), device) }
    }

    /// The positions of `self`, then those of `other`, as one batch.
    pub fn concat(&self, other: &Positions) -> Positions {
        Positions { indices: Tensor::cat(vec![self.indices.clone(), other.indices.clone()], 0) }
    }
}

/// A sparse first layer (`[774, h]` weight, or `[n + 1, h]` for `n` inputs:
/// the padding row is the last): `[batch, 37]` bits to `[batch, h]`
/// sums, gathering and adding one weight row per active bit (an embedding
/// bag), which is what a dense product with the 773-bit vector computes.
///
/// The padding row is read as a constant zero row, so padding adds nothing
/// and needs no mask; the parameter's own last row is never read and gets
/// no gradient. (A mask multiplied into the gathered `[batch, 37, h]` rows
/// cost a pass over them forward and another backward: a tenth of a step of
/// the full network on the CPU.)
pub fn bag_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    let [batch, slots] = positions.indices.dims();
    let weight = layer.weight.val(); // [774, h]
    let width = weight.dims()[1];
    let zero = Tensor::<2>::zeros([1, width], &weight.device());
    let inputs = weight.dims()[0] - 1; // the padding row is the last
    let table = Tensor::cat(vec![weight.narrow(0, 0, inputs), zero], 0); // [774, h], last row 0
    let rows = table.select(0, positions.indices.clone().reshape([batch * slots])); // [batch * 37, h]
    let sums = rows.reshape([batch, slots, width]).sum_dim(1); // [batch, 1, h]
    let bias = layer.bias.as_ref().expect("layers have biases").val().reshape([1, width]);
    sums.reshape([batch, width]).add(bias)
}

/// The clipped ReLU of the architecture, `min(max(x, 0), 1)`.
///
/// Written as `x · [0 < x < 1] + [x ≥ 1]`, with both indicators computed
/// on `x` detached: the same values and the same gradient (1 inside the
/// clip, 0 outside) as `clamp`, but without `clamp`'s four masked fills
/// (two forward, two backward), which burn's CPU backend runs element by
/// element (a fifth of a distilled-network step in `perf`).
pub fn crelu<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    let value = x.clone().detach();
    let above = value.clone().greater_equal_elem(1.0).float();
    let inside = value.greater_elem(0.0).float().sub(above.clone());
    x.mul(inside).add(above)
}

/// Makes every parameter of `module` a fresh leaf of the autodiff graph.
///
/// Observed with burn 0.22.1: saving a clone of an autoencoder right after
/// an optimizer step made the next backward pass fail ("graph tape has
/// already been consumed"). Mapping every parameter to a fresh leaf after
/// each step avoids it.
pub fn fresh<M: Module>(module: M) -> M {
    struct Fresh;
    impl ModuleMapper for Fresh {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            param.map(|t| t.detach().require_grad())
        }
    }
    module.map(&mut Fresh)
}

/// A tensor's values, row-major.
pub fn tensor_values<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().try_to_vec::<f32>().expect("f32 data")
}
