//! The scalar oracle: plain Rust that every SIMD kernel must equal bit for bit.

use crate::arch::{ACT_MAX, SCRELU_MUL, WEIGHT_SCALE_BITS};

/// `acc += row`, wrapping.
pub fn add_i16(acc: &mut [i16], row: &[i16]) {
    for (a, &r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(r);
    }
}

/// `acc -= row`, wrapping.
pub fn sub_i16(acc: &mut [i16], row: &[i16]) {
    for (a, &r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(r);
    }
}

/// `out = src − Σ removed + Σ added`, wrapping: a move's change to the
/// first layer's sums, from the parent's, in one pass.
pub fn update_i16(src: &[i16], removed: &[&[i16]], added: &[&[i16]], out: &mut [i16]) {
    for (i, (o, &s)) in out.iter_mut().zip(src).enumerate() {
        let mut v = s;
        for row in removed {
            v = v.wrapping_sub(row[i]);
        }
        for row in added {
            v = v.wrapping_add(row[i]);
        }
        *o = v;
    }
}

/// `out = clamp(acc, 0, 127)`.
pub fn crelu_i16(acc: &[i16], out: &mut [u8]) {
    for (o, &a) in out.iter_mut().zip(acc) {
        *o = a.clamp(0, i16::from(ACT_MAX)) as u8;
    }
}

/// `out = (c² · 258 + 2¹⁴) >> 15` of `c = clamp(acc, 0, 127)`: the squared
/// clipped ReLU, `round(c² / 127)` in `0..=127` ([`SCRELU_MUL`]).
pub fn screlu_i16(acc: &[i16], out: &mut [u8]) {
    for (o, &a) in out.iter_mut().zip(acc) {
        let c = i32::from(a.clamp(0, i16::from(ACT_MAX)));
        *o = ((c * c * i32::from(SCRELU_MUL) + (1 << 14)) >> 15) as u8;
    }
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`.
pub fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    for ((o, row), &b) in out.iter_mut().zip(weights.chunks_exact(input.len())).zip(bias) {
        // At most 1024 × 127 × 128 in magnitude: the sum itself cannot overflow.
        let sum: i32 = input.iter().zip(row).map(|(&x, &w)| i32::from(x) * i32::from(w)).sum();
        *o = b.wrapping_add(sum);
    }
}

/// [`dense`] over weights in [`pack_dense`](super::pack_dense)'s order:
/// the same sums, a group of four inputs at a time.
pub fn dense_packed(input: &[u8], packed: &[i8], bias: &[i32], out: &mut [i32]) {
    let outputs = out.len();
    // Wrapping adds are associative, so group by group gives `dense`'s sums.
    out.copy_from_slice(bias);
    for (g, x) in input.chunks_exact(4).enumerate() {
        for (o, sum) in out.iter_mut().enumerate() {
            let w = &packed[(g * outputs + o) * 4..][..4];
            *sum = sum.wrapping_add(x.iter().zip(w).map(|(&x, &w)| i32::from(x) * i32::from(w)).sum());
        }
    }
}

/// `out = clamp((sum + 32) >> 6, 0, 127)`, wrapping like the SIMD adds.
pub fn crelu_i32(sums: &[i32], out: &mut [u8]) {
    const HALF: i32 = 1 << (WEIGHT_SCALE_BITS - 1);
    for (o, &s) in out.iter_mut().zip(sums) {
        *o = (s.wrapping_add(HALF) >> WEIGHT_SCALE_BITS).clamp(0, i32::from(ACT_MAX)) as u8;
    }
}

/// `acc += row`, element by element (`f32`).
pub fn add_f32(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += r;
    }
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o * input.len() + i]` in
/// `f32`, summed in one fixed order that every kernel keeps: eight partial
/// sums, lane `j` taking every `i ≡ j (mod 8)` in order, then
/// `((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))`, then the bias.
/// Products and sums are separate roundings (no fused multiply-add).
pub fn dense_f32(input: &[f32], weights: &[f32], bias: &[f32], out: &mut [f32]) {
    for (o, (b, row)) in out.iter_mut().zip(bias.iter().zip(weights.chunks_exact(input.len()))) {
        let mut lanes = [0f32; 8];
        for (x, w) in input.chunks_exact(8).zip(row.chunks_exact(8)) {
            for (lane, (x, w)) in lanes.iter_mut().zip(x.iter().zip(w)) {
                *lane += x * w;
            }
        }
        *o = reduce8(lanes) + b;
    }
}

/// `out[o * n + j] = bias[o] + Σ_k weights[o * K + k] * cols[k * n + j]` in
/// `f32`, with `n = out.len() / bias.len()` columns and
/// `K = weights.len() / bias.len()`: a matrix product, the convolutions of
/// [`crate::alphazero`] after `im2col`. Each output sums its `K` products
/// in order of `k` from zero, then adds the bias; products and sums are
/// separate roundings. Vector kernels take several `j` at once, so every
/// lane keeps this order.
pub fn gemm_f32(weights: &[f32], cols: &[f32], bias: &[f32], out: &mut [f32]) {
    let n = out.len() / bias.len();
    let k = weights.len() / bias.len();
    for ((row, b), out) in weights.chunks_exact(k).zip(bias).zip(out.chunks_exact_mut(n)) {
        out.fill(0.0);
        for (w, col) in row.iter().zip(cols.chunks_exact(n)) {
            for (o, x) in out.iter_mut().zip(col) {
                *o += w * x;
            }
        }
        for o in out.iter_mut() {
            *o += b;
        }
    }
}

/// The fixed reduction of eight partial sums (see [`dense_f32`]).
pub fn reduce8(s: [f32; 8]) -> f32 {
    ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
}
