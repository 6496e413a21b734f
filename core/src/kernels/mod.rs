//! SIMD kernels behind one small vocabulary.
//!
//! Every operation exists as a scalar oracle ([`scalar`]), and as AVX2 and
//! AVX-512 (x86_64), SIMD128 and relaxed-SIMD (wasm32) versions that must equal it bit for bit; the
//! tests check that on random data. All slices are padded to
//! [`crate::arch::PADDING`] lanes; the dispatch functions check the
//! lengths so that a wrong call is a panic in tests, never undefined behaviour.
//!
//! | operation | meaning |
//! |---|---|
//! | [`add_i16`] | `acc += row` (wrapping), a first-layer column coming in |
//! | [`sub_i16`] | `acc -= row` (wrapping), a first-layer column going out |
//! | [`update_i16`] | `out = src − Σ removed + Σ added` (wrapping), a move's change from the parent's sums in one pass |
//! | [`crelu_i16`] | `out = clamp(acc, 0, 127)` |
//! | [`screlu_i16`] | `out = (c² · 258 + 2¹⁴) >> 15`, `c = clamp(acc, 0, 127)`: the squared clipped ReLU |
//! | [`dense`] | `out[o] = bias[o] + Σ input[i] * weights[o][i]` (`u8 × i8 → i32`) |
//! | [`dense_packed`] | the same, the weights in [`pack_dense`]'s order (AVX-512's fast way) |
//! | [`crelu_i32`] | `out = clamp((sum + 32) >> 6, 0, 127)` |
//! | [`add_f32`] | `acc += row` in `f32`, the learners' networks' first layer ([`crate::learned`]) |
//! | [`dense_f32`] | `out[o] = bias[o] + Σ input[i] * weights[o][i]` in `f32`, summed in the oracle's fixed order |
//! | [`gemm_f32`] | `out[o][j] = bias[o] + Σ_k weights[o][k] * cols[k][j]` in `f32`, the AlphaZero network's convolutions ([`crate::alphazero`]) |

use alloc::vec::Vec;

use crate::arch::{Activation, PADDING};

pub mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;

#[cfg(target_arch = "x86_64")]
mod avx512;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
mod relaxed;

/// An instruction set the kernels can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Portable Rust, the oracle every other kernel is tested against.
    Scalar,
    /// x86_64 AVX2, picked at run time with the `std` feature, or at compile
    /// time with `-C target-feature=+avx2`.
    Avx2,
    /// x86_64 AVX-512 with VNNI (F, BW, VL, VNNI), picked like AVX2.
    Avx512,
    /// WebAssembly SIMD128, compiled in with `-C target-feature=+simd128`.
    Simd128,
    /// WebAssembly relaxed SIMD (SIMD128 and its `u8 × i8` dot product),
    /// compiled in with `-C target-feature=+simd128,+relaxed-simd`.
    Relaxed,
}

impl Kernel {
    /// Every kernel, in order of preference (fastest last).
    pub const ALL: [Kernel; 5] = [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512, Kernel::Simd128, Kernel::Relaxed];

    /// Whether this kernel can run here.
    pub fn is_supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Avx2 => avx2_supported(),
            Kernel::Avx512 => avx512_supported(),
            Kernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            Kernel::Relaxed => cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")),
        }
    }

    /// The fastest kernel this machine supports.
    pub fn detect() -> Kernel {
        Kernel::ALL.into_iter().rev().find(|k| k.is_supported()).unwrap_or(Kernel::Scalar)
    }

    /// Whether [`dense_packed`] is this kernel's fast way to a dense layer
    /// rather than [`dense`]: AVX-512, whose `vpdpbusd` makes the horizontal
    /// sums that [`dense`] needs the larger cost. AVX2 needs as many
    /// multiplies either way, and measured no faster packed.
    pub const fn packs_dense(self) -> bool {
        matches!(self, Kernel::Avx512)
    }

    /// Short lower-case name (`scalar`, `avx2`, `avx512`, `simd128`, `relaxed`).
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Simd128 => "simd128",
            Kernel::Relaxed => "relaxed",
        }
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn avx2_supported() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn avx2_supported() -> bool {
    cfg!(target_feature = "avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_supported() -> bool {
    false
}

/// AVX-512 F, BW, VL and VNNI, with AVX2 (every such CPU has it; the
/// AVX-512 module runs some AVX2 kernels). Asked once, then one relaxed load
/// a call: the dispatch asks at every kernel call, and five feature tests
/// there showed in the search's profile (1.7%).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn avx512_supported() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    const UNKNOWN: u8 = 0;
    const ABSENT: u8 = 1;
    const PRESENT: u8 = 2;
    static FOUND: AtomicU8 = AtomicU8::new(UNKNOWN);
    match FOUND.load(Ordering::Relaxed) {
        UNKNOWN => {
            let found = avx2_supported()
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512vnni");
            FOUND.store(if found { PRESENT } else { ABSENT }, Ordering::Relaxed);
            found
        }
        known => known == PRESENT,
    }
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn avx512_supported() -> bool {
    cfg!(all(
        target_feature = "avx2",
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vl",
        target_feature = "avx512vnni"
    ))
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512_supported() -> bool {
    false
}

/// Runs the kernel's version of an operation. An unsupported kernel falls
/// back to the scalar oracle, so no caller can reach an instruction the CPU
/// lacks.
macro_rules! dispatch {
    ($kernel:expr, $name:ident($($arg:expr),*)) => {
        match $kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `is_supported` checked that the CPU has AVX2.
            Kernel::Avx2 if avx2_supported() => unsafe { avx2::$name($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `is_supported` checked that the CPU has AVX-512 (F, BW, VL, VNNI) and AVX2.
            Kernel::Avx512 if avx512_supported() => unsafe { avx512::$name($($arg),*) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => simd128::$name($($arg),*),
            #[cfg(all(target_arch = "wasm32", target_feature = "relaxed-simd"))]
            Kernel::Relaxed => relaxed::$name($($arg),*),
            _ => scalar::$name($($arg),*),
        }
    };
}

fn check_padded(len: usize) {
    assert!(len.is_multiple_of(PADDING), "kernel vectors are padded to {PADDING} lanes, got {len}");
}

/// `acc += row`, wrapping.
pub fn add_i16(kernel: Kernel, acc: &mut [i16], row: &[i16]) {
    check_padded(acc.len());
    assert_eq!(acc.len(), row.len());
    dispatch!(kernel, add_i16(acc, row))
}

/// `acc -= row`, wrapping.
pub fn sub_i16(kernel: Kernel, acc: &mut [i16], row: &[i16]) {
    check_padded(acc.len());
    assert_eq!(acc.len(), row.len());
    dispatch!(kernel, sub_i16(acc, row))
}

/// `out = src − Σ removed + Σ added`, wrapping.
pub fn update_i16(kernel: Kernel, src: &[i16], removed: &[&[i16]], added: &[&[i16]], out: &mut [i16]) {
    check_padded(out.len());
    assert_eq!(src.len(), out.len());
    assert!(removed.iter().chain(added).all(|row| row.len() == out.len()));
    dispatch!(kernel, update_i16(src, removed, added, out))
}

/// `out = clamp(acc, 0, 127)`.
pub fn crelu_i16(kernel: Kernel, acc: &[i16], out: &mut [u8]) {
    check_padded(acc.len());
    assert_eq!(acc.len(), out.len());
    dispatch!(kernel, crelu_i16(acc, out))
}

/// `out = (c² · 258 + 2¹⁴) >> 15` of `c = clamp(acc, 0, 127)`
/// ([`SCRELU_MUL`](crate::arch::SCRELU_MUL)).
pub fn screlu_i16(kernel: Kernel, acc: &[i16], out: &mut [u8]) {
    check_padded(acc.len());
    assert_eq!(acc.len(), out.len());
    dispatch!(kernel, screlu_i16(acc, out))
}

/// The first layer's activation `activation` of `acc` into `out`.
pub fn first_activation(kernel: Kernel, activation: Activation, acc: &[i16], out: &mut [u8]) {
    match activation {
        Activation::ClippedRelu => crelu_i16(kernel, acc, out),
        Activation::SquaredClippedRelu => screlu_i16(kernel, acc, out),
    }
}

/// `acc += row` (`f32`).
pub fn add_f32(kernel: Kernel, acc: &mut [f32], row: &[f32]) {
    check_padded(acc.len());
    assert_eq!(acc.len(), row.len());
    dispatch!(kernel, add_f32(acc, row))
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o * input.len() + i]` in
/// `f32`, in the fixed summation order of [`scalar::dense_f32`], so that
/// every kernel gives the same bits.
pub fn dense_f32(kernel: Kernel, input: &[f32], weights: &[f32], bias: &[f32], out: &mut [f32]) {
    check_padded(input.len());
    assert_eq!(weights.len(), input.len() * out.len());
    assert_eq!(bias.len(), out.len());
    dispatch!(kernel, dense_f32(input, weights, bias, out))
}

/// `out[o * n + j] = bias[o] + Σ_k weights[o * K + k] * cols[k * n + j]` in
/// `f32`, each sum in order of `k` (see [`scalar::gemm_f32`]), so that every
/// kernel gives the same bits. `n = out.len() / bias.len()` columns, a
/// multiple of 8; `K = weights.len() / bias.len()`.
pub fn gemm_f32(kernel: Kernel, weights: &[f32], cols: &[f32], bias: &[f32], out: &mut [f32]) {
    assert!(!bias.is_empty() && out.len().is_multiple_of(bias.len()) && weights.len().is_multiple_of(bias.len()));
    let (n, k) = (out.len() / bias.len(), weights.len() / bias.len());
    assert!(n.is_multiple_of(8) && n > 0, "gemm_f32 takes a multiple of 8 columns, got {n}");
    assert_eq!(cols.len(), k * n);
    dispatch!(kernel, gemm_f32(weights, cols, bias, out))
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o * input.len() + i]` for every
/// `o < out.len()`. Inputs must be at most 127 (they come from a clipped ReLU).
pub fn dense(kernel: Kernel, input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    check_padded(input.len());
    assert_eq!(weights.len(), input.len() * out.len());
    assert_eq!(bias.len(), out.len());
    dispatch!(kernel, dense(input, weights, bias, out))
}

/// [`dense`]'s weights (`outputs` rows of `inputs`) in the order
/// [`dense_packed`] reads them: for each group of four inputs, each output's
/// four weights, `packed[(g * outputs + o) * 4 + k] = weights[o][4g + k]`.
/// A kernel then broadcasts four inputs to every lane and takes a whole
/// register of outputs' weights at once, one output a lane.
pub fn pack_dense(weights: &[i8], inputs: usize, outputs: usize) -> Vec<i8> {
    assert!(inputs.is_multiple_of(4));
    assert_eq!(weights.len(), inputs * outputs);
    let mut packed = alloc::vec![0; weights.len()];
    for (o, row) in weights.chunks_exact(inputs).enumerate() {
        for (g, w) in row.chunks_exact(4).enumerate() {
            packed[(g * outputs + o) * 4..][..4].copy_from_slice(w);
        }
    }
    packed
}

/// [`dense`] with weights from [`pack_dense`], `out` padded: the same sums.
/// The AVX-512 kernel needs no horizontal sums this way. With `deepchess
/// bench`'s seeded network (the distilled shape, layers of 100) the whole
/// search ran 12% faster (medians of five alternating `deepchess bench
/// --search scalar --depth 10` runs on one core, 2026-11-29); with the
/// default network (one layer of 256 → 32) no faster and no slower. The
/// other kernels compute it as the oracle does, so callers use it where
/// [`Kernel::packs_dense`] says so.
pub fn dense_packed(kernel: Kernel, input: &[u8], packed: &[i8], bias: &[i32], out: &mut [i32]) {
    check_padded(input.len());
    check_padded(out.len());
    assert_eq!(packed.len(), input.len() * out.len());
    assert_eq!(bias.len(), out.len());
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `avx512_supported` checked that the CPU has AVX-512 (F, BW, VL, VNNI); the lengths are checked above.
        Kernel::Avx512 if avx512_supported() => unsafe { avx512::dense_packed(input, packed, bias, out) },
        _ => scalar::dense_packed(input, packed, bias, out),
    }
}

/// `out = clamp((sum + 32) >> 6, 0, 127)`: divide by the weight scale,
/// rounding, then the clipped ReLU.
pub fn crelu_i32(kernel: Kernel, sums: &[i32], out: &mut [u8]) {
    check_padded(sums.len());
    assert_eq!(sums.len(), out.len());
    dispatch!(kernel, crelu_i32(sums, out))
}
