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

pub use super::simd128::{add_i16, crelu_i16, crelu_i32, sub_i16};
use super::simd128::{load, reduce4, store};

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`, inputs at most 127.
///
/// Four rows at a time share each input chunk, as in SIMD128's version, but
/// each 16 products take one instruction instead of six.
pub fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    let n = input.len();
    let blocks = out.len() / 4;
    for (k, (o, b)) in out.chunks_exact_mut(4).zip(bias.chunks_exact(4)).enumerate() {
        let rows = &weights[4 * k * n..4 * (k + 1) * n];
        let (r0, rest) = rows.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        let mut acc = [i32x4_splat(0); 4];
        for (i, x) in input.chunks_exact(16).enumerate() {
            let x = load(x);
            for (a, row) in acc.iter_mut().zip([r0, r1, r2, r3]) {
                *a = i32x4_relaxed_dot_i8x16_i7x16_add(load(&row[16 * i..]), x, *a);
            }
        }
        store(o, i32x4_add(load(b), reduce4(acc)));
    }
    let rows = weights[4 * blocks * n..].chunks_exact(n);
    for ((o, row), &b) in out[4 * blocks..].iter_mut().zip(rows).zip(&bias[4 * blocks..]) {
        let mut acc = i32x4_splat(0);
        for (x, w) in input.chunks_exact(16).zip(row.chunks_exact(16)) {
            acc = i32x4_relaxed_dot_i8x16_i7x16_add(load(w), load(x), acc);
        }
        *o = b.wrapping_add(i32x4_extract_lane::<0>(reduce4([acc, acc, acc, acc])));
    }
}
