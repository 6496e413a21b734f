//! Tensor helpers every learner shares: batches of positions as active-bit
//! lists ([`Positions`]), the sparse first layer's sum ([`bag_sums`]), the
//! clipped ReLU, fresh parameters and reading a tensor back.

use burn::module::{Module, ModuleMapper, Param};
use burn::nn::Linear;
use burn::tensor::{Device, Distribution, IndexingUpdateOp, Int, Tensor, TensorData};
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
/// the padding row is the last): `[batch, 37]` bits to `[batch, h]` sums,
/// what a dense product with the 773-bit vector computes.
///
/// The padding row is read as a constant zero row, so padding adds nothing
/// and needs no mask; the parameter's own last row is never read and gets
/// no gradient.
///
/// Two ways to the same sums, chosen by where the layer lives
/// ([`dense_first_layer`]):
/// - on the CPU (flex), an embedding bag: the weight rows of the active bits
///   are gathered and added, 37 rows a position instead of 774;
/// - on a GPU (cuda, wgpu), a product of the one-hot `[batch, 774]` inputs,
///   built on the device, with the weight. The gather's gradient is
///   `select`'s backward, which burn-cubecl 0.22 runs as one thread per
///   weight column, each walking every gathered row in turn: measured on an
///   H200, a distilled Siamese step of 16,384 pairs took 315 ms, the same at
///   any width. The product's gradient is a matrix product.
pub fn bag_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    let weight = layer.weight.val();
    if dense_first_layer(&weight.device()) { product_sums(layer, positions) } else { gathered_sums(layer, positions) }
}

/// Whether [`bag_sums`] multiplies one-hot rows (a GPU backend: every
/// cubecl device, which reports an identity) or gathers weight rows (flex).
pub fn dense_first_layer(device: &Device) -> bool {
    on_cubecl(device)
}

/// Whether `device` is a cubecl device (cuda, wgpu), which reports an
/// identity; flex does not.
fn on_cubecl(device: &Device) -> bool {
    #[cfg(any(feature = "wgpu", feature = "cuda"))]
    {
        device.identity().is_some()
    }
    #[cfg(not(any(feature = "wgpu", feature = "cuda")))]
    {
        let _ = device;
        false
    }
}

/// The weight with its padding row replaced by zeros, and the bias as a row.
fn zero_padded(layer: &Linear) -> (Tensor<2>, Tensor<2>) {
    let weight = layer.weight.val(); // [774, h]
    let width = weight.dims()[1];
    let zero = Tensor::<2>::zeros([1, width], &weight.device());
    let inputs = weight.dims()[0] - 1; // the padding row is the last
    let table = Tensor::cat(vec![weight.narrow(0, 0, inputs), zero], 0); // [774, h], last row 0
    let bias = layer.bias.as_ref().expect("layers have biases").val().reshape([1, width]);
    (table, bias)
}

/// [`bag_sums`] by gathering and adding one weight row per active bit (an
/// embedding bag).
pub fn gathered_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    let [batch, slots] = positions.indices.dims();
    let (table, bias) = zero_padded(layer);
    let width = table.dims()[1];
    let rows = table.select(0, positions.indices.clone().reshape([batch * slots])); // [batch * 37, h]
    let sums = rows.reshape([batch, slots, width]).sum_dim(1); // [batch, 1, h]
    sums.reshape([batch, width]).add(bias)
}

/// [`bag_sums`] as the product of one-hot inputs and the weight. The inputs
/// are scattered on the device from the bit lists (padding lands in the
/// last column, which meets the zero row) and carry no gradient.
pub fn product_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    let (table, bias) = zero_padded(layer);
    one_hot(positions, table.dims()[0]).matmul(table).add(bias)
}

/// The positions as `[batch, width]` rows of 0 and 1, scattered on their
/// device from the bit lists (an index occurs once in a list; padding sets
/// its own column, the last for [`PAD_INDEX`] and `width` = 774).
pub fn one_hot(positions: &Positions, width: usize) -> Tensor<2> {
    let [batch, slots] = positions.indices.dims();
    let device = positions.indices.device();
    let ones = Tensor::<2>::ones([batch, slots], &device);
    Tensor::<2>::zeros([batch, width], &device).scatter(1, positions.indices.clone(), ones, IndexingUpdateOp::Add)
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

/// Random numbers for a step (noise, dropout, sampling), the same on every
/// device: on a GPU backend drawn on the CPU (flex) and moved, from the
/// generator [`seeded`] seeded, so that a GPU run draws what a CPU run
/// draws; on flex, drawn there.
pub fn random<const D: usize>(shape: [usize; D], distribution: Distribution, device: &Device) -> Tensor<D> {
    #[cfg(feature = "flex")]
    if on_cubecl(device) {
        return Tensor::random(shape, distribution, &Device::flex().autodiff()).to_device(device);
    }
    Tensor::random(shape, distribution, device)
}

/// A learner's module at the start of a run: drawn from `seed`, the same on
/// every device; with `None` (a resumed run, whose checkpoint replaces every
/// value) built where it is, drawing nothing. Each backend has its own
/// generator, so the same seed would start a GPU run elsewhere than a CPU
/// run and the two could not be compared: on a GPU backend the parameters
/// are drawn on the CPU (flex) from `seed` and moved (and the device's own
/// generator is seeded too). burn draws a parameter lazily, where it is
/// first read, so every parameter is read at once, in the module's order
/// (`fresh` maps them all), on flex too: otherwise a learner that reads a
/// layer only after drawing from the generator in its steps (the DBN's upper
/// layers, read after the first layer's pre-training) would start from other
/// draws on a GPU than on the CPU.
pub fn seeded<M: Module>(seed: Option<u64>, device: &Device, build: impl FnOnce(&Device) -> M) -> M {
    let Some(seed) = seed else { return build(device) };
    device.seed(seed);
    #[cfg(feature = "flex")]
    if on_cubecl(device) {
        let host = Device::flex().autodiff();
        host.seed(seed);
        return fresh(build(&host)).fork(device);
    }
    fresh(build(device))
}

/// A tensor's values, row-major.
pub fn tensor_values<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().try_to_vec::<f32>().expect("f32 data")
}

#[cfg(all(test, feature = "flex"))]
mod tests {
    use burn::module::Param;
    use burn::nn::LinearConfig;
    use burn::tensor::Distribution;

    use super::*;

    /// The product and the gather compute the same sums and the same
    /// gradient of the weight, padding row untouched, on random positions.
    #[test]
    fn the_product_and_the_gather_agree() {
        let device = Device::flex().autodiff();
        device.seed(7);
        let mut layer = LinearConfig::new(INPUTS + 1, 24).init(&device);
        layer.weight = Param::from_tensor(Tensor::random([INPUTS + 1, 24], Distribution::Normal(0.0, 0.3), &device));
        let lists: Vec<Vec<u16>> = (0..40u16)
            .map(|p| (0..(5 + p % 30)).map(|k| (p * 31 + k * 97) % INPUTS as u16).collect())
            .map(|mut l: Vec<u16>| {
                l.sort_unstable();
                l.dedup();
                l
            })
            .collect();
        let positions = Positions::from_lists(lists.iter().map(Vec::as_slice), PAD_INDEX, &device);
        let weights = Tensor::<2>::random([40, 24], Distribution::Normal(0.0, 1.0), &device);
        let run = |sums: Tensor<2>| {
            let loss = (sums.clone() * weights.clone()).sum();
            let grads = loss.backward();
            let grad = layer.weight.grad(&grads).expect("a gradient");
            (tensor_values(sums.detach()), tensor_values(grad))
        };
        let (gathered, gathered_grad) = run(gathered_sums(&layer, &positions));
        let (product, product_grad) = run(product_sums(&layer, &positions));
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-4 * (1.0 + x.abs()));
        assert_eq!(gathered.len(), 40 * 24);
        assert!(close(&gathered, &product), "sums differ");
        assert!(close(&gathered_grad, &product_grad), "gradients differ");
        // The padding row gets no gradient either way.
        assert!(gathered_grad[INPUTS * 24..].iter().chain(&product_grad[INPUTS * 24..]).all(|&g| g == 0.0));
        // And a sum is the weight rows of its bits plus the bias.
        let bias = tensor_values(layer.bias.as_ref().unwrap().val());
        let rows = tensor_values(layer.weight.val());
        for (p, list) in lists.iter().enumerate() {
            for c in 0..24 {
                let expected: f32 = bias[c] + list.iter().map(|&b| rows[usize::from(b) * 24 + c]).sum::<f32>();
                assert!((gathered[p * 24 + c] - expected).abs() < 1e-4, "position {p} column {c}");
            }
        }
        assert!(!dense_first_layer(&device), "flex gathers");
    }
}
