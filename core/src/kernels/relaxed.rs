//! WebAssembly relaxed SIMD: SIMD128 plus one instruction, the `u8 × i8` dot
//! product that SIMD128 lacks. Each kernel equals its
//! [`scalar`](super::scalar) twin bit for bit.
//!
//! Only [`dense`] differs from [`simd128`](super::simd128). It uses
//! `i32x4.relaxed_dot_i8x16_i7x16_add_s(a, b, c)`: pairs of `i8 × i7`
//! products summed to `i16`, pairs of those summed to `i32`, plus `c`. The
//! instruction is *relaxed* in two ways, and neither can show here:
//!
//! - a lane of `b` with its top bit set may be read as signed or unsigned.
//!   `b` is the input, which comes from a clipped ReLU and is at most
//!   [`ACT_MAX`] = 127, so its top bit is never set (the caller in
//!   [`super::dense`] documents the bound, and the tests use it at its edge);
//! - the `i16` pair sum may saturate or wrap. With `|a| ≤ 128` and
//!   `0 ≤ b ≤ 127`, a pair sum lies in `−32,512..=32,258`, inside `i16`, so
//!   it does neither.
//!
//! So the result is the exact integer sum on every engine, as on x86's
//! `pmaddubsw` + `pmaddwd` and on Arm's `sdot`.

use core::arch::wasm32::*;

#[cfg(doc)]
use crate::arch::ACT_MAX;

use super::simd128::dense_by;
pub use super::simd128::{
    add_f32, add_i16, crelu_i16, crelu_i32, dense_f32, gemm_f32, screlu_i16, sub_i16, update_i16,
};

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`, inputs at most 127:
/// SIMD128's loop ([`dense_by`]), with each 16 products one instruction
/// instead of six.
pub fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    dense_by(input, weights, bias, out, |x| x, |acc, x, w| i32x4_relaxed_dot_i8x16_i7x16_add(w, x, acc));
}
