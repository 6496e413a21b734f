//! A convolution over 8 × 8 boards as one matrix product: the padded input's
//! k × k shifted copies side by side (an unfold, from slices of the padded
//! input), times the kernel as a `[inputs · k², outputs]` matrix.
//!
//! Why: burn-cubecl's direct convolution kernels take most of an AlphaZero
//! step on a GPU backend (on lavapipe, with CubeCL's profiler, 44% of the
//! time in `DirectConv2dKernel` and 42% in its input gradient's
//! `ConvTranspose2dDirectNhwcKernel`; on an NVIDIA H200 a 6 × 64 step of
//! 1,024 positions spends 94 ms in the forward pass and 265 ms in the
//! backward), while the same work as a product runs in the backend's matrix
//! kernels, and its gradient is products and slices too. On a board the
//! unfolded input is small: 64 rows a position of `inputs · k²` values.
//!
//! The layer stays burn's [`Conv2d`] (its weight `[outputs, inputs, k, k]`
//! and bias), so checkpoints and the export do not change with the way.

use std::sync::atomic::{AtomicU8, Ordering};

use burn::nn::conv::Conv2d;
use burn::tensor::ops::PadMode;
use burn::tensor::{Device, Tensor};

use crate::train::runner::tensors::gpu_backend;

/// How [`board_conv`] convolves in this process (`train bench --conv`). The
/// variants' comments are the command's help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
#[repr(u8)]
pub enum ConvWay {
    /// As training does: the unfolded product on a GPU backend, burn's
    /// convolution on flex.
    Auto,
    /// burn's `Conv2d::forward`.
    Burn,
    /// The shifted copies times the kernel as one matrix product.
    Unfold,
}

static CONV_WAY: AtomicU8 = AtomicU8::new(ConvWay::Auto as u8);

impl ConvWay {
    /// The way itself on `device`: `Auto` resolved.
    pub fn on(self, device: &Device) -> ConvWay {
        match self {
            ConvWay::Auto if gpu_backend(device) => ConvWay::Unfold,
            ConvWay::Auto => ConvWay::Burn,
            way => way,
        }
    }

    fn chosen() -> ConvWay {
        match CONV_WAY.load(Ordering::Relaxed) {
            1 => ConvWay::Burn,
            2 => ConvWay::Unfold,
            _ => ConvWay::Auto,
        }
    }
}

/// Sets the way [`board_conv`] convolves for the rest of the process: `train
/// bench --conv`, which compares them on one device. Training never calls it.
pub fn choose_conv(way: ConvWay) {
    CONV_WAY.store(way as u8, Ordering::Relaxed);
}

/// `conv` (k × k, stride 1, padded by k / 2 on every side) over `x`,
/// `[batch, inputs, 8, 8]`, the way chosen for this process.
pub fn board_conv(conv: &Conv2d, x: Tensor<4>) -> Tensor<4> {
    match ConvWay::chosen().on(&x.device()) {
        ConvWay::Burn | ConvWay::Auto => conv.forward(x),
        ConvWay::Unfold => unfolded_conv(conv, x),
    }
}

/// [`board_conv`] as one matrix product.
pub fn unfolded_conv(conv: &Conv2d, x: Tensor<4>) -> Tensor<4> {
    let [batch, inputs, rows, files] = x.dims();
    let weight = conv.weight.val();
    let [outputs, _, k, _] = weight.dims();
    let pad = k / 2;
    let padded = if pad > 0 { x.pad((pad, pad, pad, pad), PadMode::Constant(0.0)) } else { x };
    // [batch, inputs, k², rows, files]: the input under each of the kernel's
    // k² offsets, in the kernel's order (input, then row, then file).
    let mut shifted = Vec::with_capacity(k * k);
    for dy in 0..k {
        for dx in 0..k {
            shifted.push(padded.clone().slice([0..batch, 0..inputs, dy..dy + rows, dx..dx + files]));
        }
    }
    let columns = Tensor::<4>::stack::<5>(shifted, 2)
        .reshape([batch, inputs * k * k, rows * files])
        .swap_dims(1, 2)
        .reshape([batch * rows * files, inputs * k * k]);
    let kernel = weight.reshape([outputs, inputs * k * k]).transpose();
    let mut y = columns.matmul(kernel); // [batch · squares, outputs]
    if let Some(bias) = &conv.bias {
        y = y + bias.val().reshape([1, outputs]);
    }
    y.reshape([batch, rows * files, outputs]).swap_dims(1, 2).reshape([batch, outputs, rows, files])
}

#[cfg(test)]
mod tests {
    use super::*;

    use burn::nn::PaddingConfig2d;
    use burn::nn::conv::Conv2dConfig;
    use burn::tensor::{Distribution, TensorData};

    use crate::train::runner::tensors::tensor_values;

    fn max_difference<const D: usize>(a: Tensor<D>, b: Tensor<D>) -> f32 {
        tensor_values(a).iter().zip(tensor_values(b)).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
    }

    /// The unfolded product equals burn's convolution on `device` (an
    /// autodiff one), values and the gradients of the input, the kernel and
    /// the bias, for 3 × 3 and 1 × 1 kernels, with and without a bias.
    fn the_unfolded_product_is_burns_convolution_on(device: &Device) {
        for (k, bias) in [(3, false), (3, true), (1, true), (1, false)] {
            let conv = Conv2dConfig::new([5, 7], [k, k])
                .with_padding(PaddingConfig2d::Explicit(k / 2, k / 2, k / 2, k / 2))
                .with_bias(bias)
                .init(device);
            let x = Tensor::<4>::random([3, 5, 8, 8], Distribution::Normal(0.0, 1.0), device).require_grad();
            // Any fixed upstream gradient: the weights of a random sum.
            let upstream = Tensor::<4>::random([3, 7, 8, 8], Distribution::Normal(0.0, 1.0), device);

            let burn = conv.forward(x.clone());
            let ours = unfolded_conv(&conv, x.clone());
            let difference = max_difference(burn.clone(), ours.clone());
            assert!(difference < 1e-4, "k {k}, bias {bias}: values differ by {difference}");

            let grads_burn = (burn * upstream.clone()).sum().backward();
            let grads_ours = (ours * upstream).sum().backward();
            let gx = |g| x.grad(g).unwrap();
            let difference = max_difference(gx(&grads_burn), gx(&grads_ours));
            assert!(difference < 1e-4, "k {k}: input gradients differ by {difference}");
            let gw = |g| conv.weight.grad(g).unwrap();
            let difference = max_difference(gw(&grads_burn), gw(&grads_ours));
            assert!(difference < 1e-3, "k {k}: kernel gradients differ by {difference}");
            if let Some(b) = &conv.bias {
                let difference = max_difference(b.grad(&grads_burn).unwrap(), b.grad(&grads_ours).unwrap());
                assert!(difference < 1e-3, "k {k}: bias gradients differ by {difference}");
            }
        }
    }

    #[test]
    fn the_unfolded_product_is_burns_convolution_on_flex() {
        the_unfolded_product_is_burns_convolution_on(&Device::flex().autodiff());
    }

    /// On the best wgpu adapter (lavapipe where there is no GPU), where
    /// training takes the unfolded product.
    #[cfg(feature = "wgpu")]
    #[test]
    fn the_unfolded_product_is_burns_convolution_on_wgpu() {
        use crate::train::runner::device::{AdapterChoice, DeviceChoice, select};
        let (device, line) = select(DeviceChoice::Wgpu(AdapterChoice::Best))
            .expect("a wgpu adapter (with no GPU: apt install mesa-vulkan-drivers libvulkan1)");
        println!("{line}");
        assert_eq!(ConvWay::Auto.on(&device), ConvWay::Unfold);
        the_unfolded_product_is_burns_convolution_on(&device);
    }

    /// A position's output depends only on that position: the rows of the
    /// unfolded input never mix positions of a batch.
    #[test]
    fn positions_of_a_batch_stay_apart() {
        let device = Device::flex();
        let conv = Conv2dConfig::new([2, 3], [3, 3]).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)).init(&device);
        let one = Tensor::<4>::random([1, 2, 8, 8], Distribution::Normal(0.0, 1.0), &device);
        let zeros = Tensor::<4>::from_data(TensorData::zeros::<f32, _>([1, 2, 8, 8]), &device);
        let batch = unfolded_conv(&conv, Tensor::cat(vec![zeros.clone(), one.clone(), zeros], 0));
        let alone = unfolded_conv(&conv, one);
        let middle = batch.slice([1..2, 0..3, 0..8, 0..8]);
        assert!(max_difference(middle, alone) < 1e-6);
    }
}
