//! The scalar oracle: plain Rust that every SIMD kernel must equal bit for bit.

use crate::arch::{ACT_MAX, WEIGHT_SCALE_BITS};

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

/// `out = clamp(acc, 0, 127)`.
pub fn crelu_i16(acc: &[i16], out: &mut [u8]) {
    for (o, &a) in out.iter_mut().zip(acc) {
        *o = a.clamp(0, i16::from(ACT_MAX)) as u8;
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

/// `out = clamp((sum + 32) >> 6, 0, 127)`, wrapping like the SIMD adds.
pub fn crelu_i32(sums: &[i32], out: &mut [u8]) {
    const HALF: i32 = 1 << (WEIGHT_SCALE_BITS - 1);
    for (o, &s) in out.iter_mut().zip(sums) {
        *o = (s.wrapping_add(HALF) >> WEIGHT_SCALE_BITS).clamp(0, i32::from(ACT_MAX)) as u8;
    }
}
