//! Tensor helpers every learner shares: batches of positions as active-bit
//! lists ([`Positions`]), the sparse first layer's sum ([`bag_sums`]), the
//! clipped ReLU, fresh parameters and reading a tensor back.

use std::sync::atomic::{AtomicU8, Ordering};

use burn::module::{Module, ModuleMapper, Param};
use burn::nn::Linear;
use burn::tensor::{Device, Distribution, IndexingUpdateOp, Int, Tensor, TensorData};
use deepchess_core::arch::{Activation, INPUTS, MAX_ACTIVE};

use crate::train::runner::bag;

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
/// ([`gpu_backend`]):
/// - on the CPU (flex), burn's `select` of the weight rows of the active
///   bits and a sum, 37 rows a position instead of 774 ([`gathered_sums`]);
/// - on a GPU (cuda, wgpu), the embedding bag's CubeCL kernels
///   ([`bag::bag_sum`]): burn's `select` has the same forward there, but its
///   gradient runs one unit per weight column, each walking every gathered
///   row in turn (measured on an H200: a distilled Siamese step of 16,384
///   pairs took 315 ms, the same at any width), and the one-hot product
///   that replaced it ([`product_sums`]) moves 774 floats a position.
///
/// `train bench --first-layer` times another of the three ways
/// ([`choose_first_layer`]).
pub fn bag_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    match FirstLayer::chosen().on(&layer.weight.device()) {
        FirstLayer::Gather => gathered_sums(layer, positions),
        FirstLayer::Product => product_sums(layer, positions),
        FirstLayer::Auto | FirstLayer::Bag => kernel_sums(layer, positions),
    }
}

/// Which way [`bag_sums`] computes the first layer in this process
/// (`train bench --first-layer`): [`gathered_sums`], [`product_sums`] or
/// [`kernel_sums`]. The variants' comments are the command's help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
#[repr(u8)]
pub enum FirstLayer {
    /// As training does: the embedding bag's kernels on a GPU backend,
    /// burn's gather on flex.
    Auto,
    /// burn's `select` and a sum, on any device.
    Gather,
    /// One-hot inputs times the weight.
    Product,
    /// The embedding bag operation.
    Bag,
}

static FIRST_LAYER: AtomicU8 = AtomicU8::new(FirstLayer::Auto as u8);

impl FirstLayer {
    /// The way itself on `device`: `Auto` resolved to the embedding bag
    /// ([`gpu_backend`]) or to the gather (flex).
    pub fn on(self, device: &Device) -> FirstLayer {
        match self {
            FirstLayer::Auto if gpu_backend(device) => FirstLayer::Bag,
            FirstLayer::Auto => FirstLayer::Gather,
            way => way,
        }
    }

    fn chosen() -> FirstLayer {
        match FIRST_LAYER.load(Ordering::Relaxed) {
            1 => FirstLayer::Gather,
            2 => FirstLayer::Product,
            3 => FirstLayer::Bag,
            _ => FirstLayer::Auto,
        }
    }
}

/// Sets the way [`bag_sums`] computes the first layer for the rest of the
/// process: `train bench --first-layer`, which compares them on one device.
/// Training never calls it (every way gives the same sums within rounding,
/// but each device has its fastest).
pub fn choose_first_layer(way: FirstLayer) {
    FIRST_LAYER.store(way as u8, Ordering::Relaxed);
}

/// Whether `device` is a GPU backend's, a cubecl device (cuda, wgpu: it
/// reports an identity; flex does not): where [`bag_sums`] runs the
/// embedding bag's kernels and batches are gathered on the device.
pub fn gpu_backend(device: &Device) -> bool {
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

/// [`bag_sums`] by the embedding bag operation ([`bag::bag_sum`]): its
/// kernels on a GPU, burn's gather and scatter-add on flex.
pub fn kernel_sums(layer: &Linear, positions: &Positions) -> Tensor<2> {
    let (table, bias) = zero_padded(layer);
    bag::bag_sum(table, positions.indices.clone()).add(bias)
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

/// The squared clipped ReLU, `crelu(x)²` ([`Activation::SquaredClippedRelu`]):
/// [`crelu`] times itself, so its gradient is `2 · crelu(x)` inside the clip.
pub fn screlu<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    let c = crelu(x);
    c.clone().mul(c)
}

/// `activation` of `x`: [`crelu`] or [`screlu`].
pub fn activate<const D: usize>(activation: Activation, x: Tensor<D>) -> Tensor<D> {
    match activation {
        Activation::ClippedRelu => crelu(x),
        Activation::SquaredClippedRelu => screlu(x),
    }
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
    if gpu_backend(device) {
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
    if gpu_backend(device) {
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

    /// Sums and weight gradients of the three ways to the first layer on
    /// `device` (an autodiff device), on random positions: the gather, the
    /// one-hot product and the embedding bag operation, each held to the
    /// product within 1e-4 (relative to `1 + |x|`), the padding row without
    /// gradient, and every sum the bias plus its bits' weight rows.
    fn the_three_agree_on(device: &Device) {
        device.seed(7);
        let mut layer = LinearConfig::new(INPUTS + 1, 24).init(device);
        layer.weight = Param::from_tensor(Tensor::random([INPUTS + 1, 24], Distribution::Normal(0.0, 0.3), device));
        let lists: Vec<Vec<u16>> = (0..40u16)
            .map(|p| (0..(5 + p % 30)).map(|k| (p * 31 + k * 97) % INPUTS as u16).collect())
            .map(|mut l: Vec<u16>| {
                l.sort_unstable();
                l.dedup();
                l
            })
            .collect();
        let positions = Positions::from_lists(lists.iter().map(Vec::as_slice), PAD_INDEX, device);
        let weights = Tensor::<2>::random([40, 24], Distribution::Normal(0.0, 1.0), device);
        let run = |sums: Tensor<2>| {
            let loss = (sums.clone() * weights.clone()).sum();
            let grads = loss.backward();
            let grad = layer.weight.grad(&grads).expect("a gradient");
            (tensor_values(sums.detach()), tensor_values(grad))
        };
        let (product, product_grad) = run(product_sums(&layer, &positions));
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-4 * (1.0 + x.abs()));
        for (name, sums) in [("gather", gathered_sums(&layer, &positions)), ("bag", kernel_sums(&layer, &positions))] {
            let (sums, grad) = run(sums);
            assert_eq!(sums.len(), 40 * 24, "{name}");
            assert!(close(&sums, &product), "{name}: sums differ from the product's");
            assert!(close(&grad, &product_grad), "{name}: gradients differ from the product's");
            // The padding row gets no gradient.
            assert!(grad[INPUTS * 24..].iter().all(|&g| g == 0.0), "{name}");
            // And a sum is the weight rows of its bits plus the bias.
            let bias = tensor_values(layer.bias.as_ref().unwrap().val());
            let rows = tensor_values(layer.weight.val());
            for (p, list) in lists.iter().enumerate() {
                for c in 0..24 {
                    let expected: f32 = bias[c] + list.iter().map(|&b| rows[usize::from(b) * 24 + c]).sum::<f32>();
                    assert!((sums[p * 24 + c] - expected).abs() < 1e-4, "{name}: position {p} column {c}");
                }
            }
        }
        assert!(product_grad[INPUTS * 24..].iter().all(|&g| g == 0.0));
    }

    #[test]
    fn the_product_the_gather_and_the_bag_agree_on_flex() {
        let device = Device::flex().autodiff();
        the_three_agree_on(&device);
        assert!(!gpu_backend(&device), "flex gathers");
    }

    /// The embedding bag's CubeCL kernels on the best wgpu adapter (lavapipe
    /// where there is no GPU), held to the product as on flex.
    #[cfg(feature = "wgpu")]
    #[test]
    fn the_product_the_gather_and_the_bag_agree_on_wgpu() {
        use crate::train::runner::device::{AdapterChoice, DeviceChoice, select};
        let (device, line) = select(DeviceChoice::Wgpu(AdapterChoice::Best))
            .expect("a wgpu adapter (with no GPU: apt install mesa-vulkan-drivers libvulkan1)");
        let atomic = bag::cube::atomic_backward(&Tensor::<2>::zeros([1, 1], &device));
        println!("{line}; the gradient by atomic adds: {atomic:?}");
        assert!(atomic.is_some(), "a wgpu tensor is a cube tensor");
        the_three_agree_on(&device);
        assert!(gpu_backend(&device), "a GPU backend runs the kernels");
    }
}
