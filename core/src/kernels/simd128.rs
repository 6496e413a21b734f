//! WebAssembly SIMD128 kernels. Each equals its [`scalar`](super::scalar) twin
//! bit for bit; the callers in [`super`] check lengths.
//!
//! SIMD128 has no `u8 × i8` multiply-add, so [`dense`] widens both sides to
//! `i16` and uses `i32x4.dot_i16x8_s`, which is exact.

use core::arch::wasm32::*;

use crate::arch::{ACT_MAX, SCRELU_MUL, WEIGHT_SCALE_BITS};

/// `acc += row`, wrapping.
pub fn add_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(8).zip(row.chunks_exact(8)) {
        let sum = i16x8_add(load(a), load(r));
        store(a, sum);
    }
}

/// `acc -= row`, wrapping.
pub fn sub_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(8).zip(row.chunks_exact(8)) {
        let diff = i16x8_sub(load(a), load(r));
        store(a, diff);
    }
}

/// `out = src − Σ removed + Σ added`, wrapping, 32 lanes (four vectors) at
/// a time held in registers while every row is added, so that each row's
/// slice is read once per tile and checked once per call.
///
/// The lengths are checked once a call instead of at every load. Against
/// one checked vector at a time, the whole search ran about 4% faster in
/// node's V8 (the medians of eight alternating runs over the 46 bench
/// positions at depth 10, 2026-11-29); the update is the browser build's
/// second-largest cost after the dense layer.
pub fn update_i16(src: &[i16], removed: &[&[i16]], added: &[&[i16]], out: &mut [i16]) {
    let n = out.len();
    assert!(n.is_multiple_of(TILE) && src.len() == n);
    assert!(removed.iter().chain(added).all(|row| row.len() == n));
    for c in (0..n).step_by(TILE) {
        // SAFETY: `c + TILE <= n == src.len()`.
        let mut v = unsafe { load_tile(src.as_ptr().add(c)) };
        for row in removed {
            // SAFETY: `c + TILE <= n == row.len()`.
            let r = unsafe { load_tile(row.as_ptr().add(c)) };
            v = [0, 1, 2, 3].map(|k| i16x8_sub(v[k], r[k]));
        }
        for row in added {
            // SAFETY: `c + TILE <= n == row.len()`.
            let r = unsafe { load_tile(row.as_ptr().add(c)) };
            v = [0, 1, 2, 3].map(|k| i16x8_add(v[k], r[k]));
        }
        // SAFETY: `c + TILE <= n == out.len()`.
        unsafe { store_tile(out.as_mut_ptr().add(c), v) };
    }
}

/// Lanes in a tile of [`update_i16`]: four vectors.
const TILE: usize = 32;

/// The four vectors at `p`.
///
/// # Safety
/// `p` points to at least [`TILE`] readable `i16`s (no alignment needed).
#[inline(always)]
unsafe fn load_tile(p: *const i16) -> [v128; 4] {
    // SAFETY: lanes `8k..8k + 8` are inside the tile for k < 4.
    [0, 8, 16, 24].map(|k| unsafe { v128_load(p.add(k).cast()) })
}

/// Stores four vectors at `p`.
///
/// # Safety
/// `p` points to at least [`TILE`] writable `i16`s (no alignment needed).
#[inline(always)]
unsafe fn store_tile(p: *mut i16, v: [v128; 4]) {
    for (k, v) in v.into_iter().enumerate() {
        // SAFETY: lanes `8k..8k + 8` are inside the tile for k < 4.
        unsafe { v128_store(p.add(8 * k).cast(), v) };
    }
}

/// `out = clamp(acc, 0, 127)`.
pub fn crelu_i16(acc: &[i16], out: &mut [u8]) {
    let max = i16x8_splat(i16::from(ACT_MAX));
    for (a, o) in acc.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
        let lo = i16x8_min(load(a), max);
        let hi = i16x8_min(load(&a[8..]), max);
        // The narrowing saturates negatives to 0.
        store(o, u8x16_narrow_i16x8(lo, hi));
    }
}

/// `out = (c² · 258 + 2¹⁴) >> 15` of `c = clamp(acc, 0, 127)`: `c²` in
/// `i16x8.mul` (at most 16,129), then `i16x8.q15mulr_sat`, which is that
/// rounded shift (it saturates only at `−32,768²`).
pub fn screlu_i16(acc: &[i16], out: &mut [u8]) {
    let (zero, max, mul) = (i16x8_splat(0), i16x8_splat(i16::from(ACT_MAX)), i16x8_splat(SCRELU_MUL));
    let square = |v: v128| {
        let c = i16x8_max(i16x8_min(v, max), zero);
        i16x8_q15mulr_sat(i16x8_mul(c, c), mul)
    };
    for (a, o) in acc.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
        store(o, u8x16_narrow_i16x8(square(load(a)), square(load(&a[8..]))));
    }
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`: each input chunk is
/// widened to `i16` once, and each weight chunk with it, for
/// `i32x4.dot_i16x8_s` (see [`dense_by`]).
pub fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    dense_by(
        input,
        weights,
        bias,
        out,
        |x| (u16x8_extend_low_u8x16(x), u16x8_extend_high_u8x16(x)),
        |acc, (lo, hi), w| {
            let acc = i32x4_add(acc, i32x4_dot_i16x8(lo, i16x8_extend_low_i8x16(w)));
            i32x4_add(acc, i32x4_dot_i16x8(hi, i16x8_extend_high_i8x16(w)))
        },
    );
}

/// The dense layer's loop, shared by the SIMD128 and relaxed-SIMD kernels,
/// which differ only in how 16 products are added up: `prepare` turns an
/// input chunk into what `dot` reads (once per chunk), and `dot(acc, x, w)`
/// adds the 16 products of `x` and the weight chunk `w` to `acc`'s lanes.
///
/// Four rows at a time share each prepared input chunk; their four sums are
/// reduced together with two rounds of shuffles and added to four biases in
/// one vector add. Rows left over are done one by one.
#[inline(always)]
pub(super) fn dense_by<X: Copy>(
    input: &[u8],
    weights: &[i8],
    bias: &[i32],
    out: &mut [i32],
    prepare: impl Fn(v128) -> X,
    dot: impl Fn(v128, X, v128) -> v128,
) {
    let n = input.len();
    let blocks = out.len() / 4;
    for (k, (o, b)) in out.chunks_exact_mut(4).zip(bias.chunks_exact(4)).enumerate() {
        let rows = &weights[4 * k * n..4 * (k + 1) * n];
        let (r0, rest) = rows.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        let mut acc = [i32x4_splat(0); 4];
        for (i, x) in input.chunks_exact(16).enumerate() {
            let x = prepare(load(x));
            for (a, row) in acc.iter_mut().zip([r0, r1, r2, r3]) {
                *a = dot(*a, x, load(&row[16 * i..]));
            }
        }
        store(o, i32x4_add(load(b), reduce4(acc)));
    }
    let rows = weights[4 * blocks * n..].chunks_exact(n);
    for ((o, row), &b) in out[4 * blocks..].iter_mut().zip(rows).zip(&bias[4 * blocks..]) {
        let mut acc = i32x4_splat(0);
        for (x, w) in input.chunks_exact(16).zip(row.chunks_exact(16)) {
            acc = dot(acc, prepare(load(x)), load(w));
        }
        *o = b.wrapping_add(i32x4_extract_lane::<0>(reduce4([acc, acc, acc, acc])));
    }
}

/// The lane sums of four vectors, as one vector: `[Σa, Σb, Σc, Σd]` (wrapping).
#[inline(always)]
pub(super) fn reduce4([a, b, c, d]: [v128; 4]) -> v128 {
    // [a0+a1, b0+b1, a2+a3, b2+b3] and the same for c and d.
    let ab = i32x4_add(i32x4_shuffle::<0, 4, 2, 6>(a, b), i32x4_shuffle::<1, 5, 3, 7>(a, b));
    let cd = i32x4_add(i32x4_shuffle::<0, 4, 2, 6>(c, d), i32x4_shuffle::<1, 5, 3, 7>(c, d));
    i32x4_add(i32x4_shuffle::<0, 1, 4, 5>(ab, cd), i32x4_shuffle::<2, 3, 6, 7>(ab, cd))
}

/// `out = clamp((sum + 32) >> 6, 0, 127)`.
pub fn crelu_i32(sums: &[i32], out: &mut [u8]) {
    let half = i32x4_splat(1 << (WEIGHT_SCALE_BITS - 1));
    let max = u8x16_splat(ACT_MAX);
    for (s, o) in sums.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
        let v = |k: usize| i32x4_shr(i32x4_add(load(&s[4 * k..]), half), WEIGHT_SCALE_BITS);
        let lo = i16x8_narrow_i32x4(v(0), v(1));
        let hi = i16x8_narrow_i32x4(v(2), v(3));
        store(o, u8x16_min(u8x16_narrow_i16x8(lo, hi), max));
    }
}

/// Loads the first 16 bytes of `s`.
#[inline(always)]
pub(super) fn load<T>(s: &[T]) -> v128 {
    assert!(size_of_val(s) >= 16);
    // SAFETY: `s` holds at least 16 bytes; v128_load needs no alignment.
    unsafe { v128_load(s.as_ptr().cast()) }
}

/// Stores `v` into the first 16 bytes of `s`.
#[inline(always)]
pub(super) fn store<T>(s: &mut [T], v: v128) {
    assert!(size_of_val(s) >= 16);
    // SAFETY: `s` holds at least 16 bytes; v128_store needs no alignment.
    unsafe { v128_store(s.as_mut_ptr().cast(), v) }
}

/// `acc += row` (`f32`).
pub fn add_f32(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.chunks_exact_mut(4).zip(row.chunks_exact(4)) {
        // SAFETY: each chunk holds exactly 4 f32 (16 bytes); unaligned loads and stores.
        unsafe {
            let sum = f32x4_add(v128_load(a.as_ptr().cast()), v128_load(r.as_ptr().cast()));
            v128_store(a.as_mut_ptr().cast(), sum);
        }
    }
}

/// [`scalar::dense_f32`](super::scalar::dense_f32): two 4-lane sums are the
/// oracle's eight partial sums; multiply and add stay separate.
pub fn dense_f32(input: &[f32], weights: &[f32], bias: &[f32], out: &mut [f32]) {
    for (o, (b, row)) in out.iter_mut().zip(bias.iter().zip(weights.chunks_exact(input.len()))) {
        let (mut low, mut high) = (f32x4_splat(0.0), f32x4_splat(0.0));
        for (x, w) in input.chunks_exact(8).zip(row.chunks_exact(8)) {
            // SAFETY: each chunk holds exactly 8 f32; unaligned loads.
            unsafe {
                let (x, w) = (x.as_ptr(), w.as_ptr());
                low = f32x4_add(low, f32x4_mul(v128_load(x.cast()), v128_load(w.cast())));
                high = f32x4_add(high, f32x4_mul(v128_load(x.add(4).cast()), v128_load(w.add(4).cast())));
            }
        }
        let lanes = [
            f32x4_extract_lane::<0>(low),
            f32x4_extract_lane::<1>(low),
            f32x4_extract_lane::<2>(low),
            f32x4_extract_lane::<3>(low),
            f32x4_extract_lane::<0>(high),
            f32x4_extract_lane::<1>(high),
            f32x4_extract_lane::<2>(high),
            f32x4_extract_lane::<3>(high),
        ];
        *o = super::scalar::reduce8(lanes) + b;
    }
}

/// [`scalar::gemm_f32`](super::scalar::gemm_f32): 64 columns at a time in
/// sixteen 4-lane sums (then 8 at a time), each lane one column summed in
/// the oracle's order; multiply and add stay separate.
pub fn gemm_f32(weights: &[f32], cols: &[f32], bias: &[f32], out: &mut [f32]) {
    let n = out.len() / bias.len();
    let k = weights.len() / bias.len();
    for ((row, &b), out) in weights.chunks_exact(k).zip(bias).zip(out.chunks_exact_mut(n)) {
        let mut j = 0;
        while j + 64 <= n {
            gemm_block::<16>(row, cols, n, j, b, out);
            j += 64;
        }
        while j < n {
            gemm_block::<2>(row, cols, n, j, b, out);
            j += 8;
        }
    }
}

/// Columns `j..j + 4R` of one output row of [`gemm_f32`]; the slices are
/// bounds-checked, the loads and stores unaligned.
#[inline]
fn gemm_block<const R: usize>(row: &[f32], cols: &[f32], n: usize, j: usize, b: f32, out: &mut [f32]) {
    let mut acc = [f32x4_splat(0.0); R];
    for (kk, &w) in row.iter().enumerate() {
        let w = f32x4_splat(w);
        let base = &cols[kk * n + j..kk * n + j + 4 * R];
        for (a, x) in acc.iter_mut().zip(base.chunks_exact(4)) {
            // SAFETY: each chunk holds exactly 4 f32 (16 bytes).
            *a = f32x4_add(*a, f32x4_mul(w, unsafe { v128_load(x.as_ptr().cast()) }));
        }
    }
    let b = f32x4_splat(b);
    for (a, dst) in acc.iter().zip(out[j..j + 4 * R].chunks_exact_mut(4)) {
        // SAFETY: each chunk holds exactly 4 f32 (16 bytes).
        unsafe { v128_store(dst.as_mut_ptr().cast(), f32x4_add(*a, b)) };
    }
}
