//! AVX2 kernels for x86_64. Each equals its [`scalar`](super::scalar) twin bit
//! for bit; the callers in [`super`] check lengths and CPU support.

use core::arch::x86_64::*;

use crate::arch::{ACT_MAX, SCRELU_MUL, WEIGHT_SCALE_BITS};

/// `acc += row`, wrapping.
///
/// # Safety
/// The CPU must support AVX2; `acc` and `row` have the same length, a multiple of 16.
#[target_feature(enable = "avx2")]
pub unsafe fn add_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(16).zip(row.chunks_exact(16)) {
        // SAFETY: each chunk holds exactly 16 i16 (32 bytes); unaligned loads.
        unsafe {
            let sum = _mm256_add_epi16(load(a.as_ptr()), load(r.as_ptr()));
            _mm256_storeu_si256(a.as_mut_ptr().cast(), sum);
        }
    }
}

/// `acc -= row`, wrapping.
///
/// # Safety
/// As [`add_i16`].
#[target_feature(enable = "avx2")]
pub unsafe fn sub_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(16).zip(row.chunks_exact(16)) {
        // SAFETY: each chunk holds exactly 16 i16 (32 bytes); unaligned loads.
        unsafe {
            let diff = _mm256_sub_epi16(load(a.as_ptr()), load(r.as_ptr()));
            _mm256_storeu_si256(a.as_mut_ptr().cast(), diff);
        }
    }
}

/// `out = src − Σ removed + Σ added`, wrapping, 16 lanes at a time in
/// registers.
///
/// # Safety
/// The CPU must support AVX2; `src`, `out` and every row have the same
/// length, a multiple of 16.
#[target_feature(enable = "avx2")]
pub unsafe fn update_i16(src: &[i16], removed: &[&[i16]], added: &[&[i16]], out: &mut [i16]) {
    for c in (0..out.len()).step_by(16) {
        // SAFETY: `c + 16 <= len` for `src`, `out` and every row; unaligned loads.
        unsafe {
            let mut v = load(src.as_ptr().add(c));
            for row in removed {
                v = _mm256_sub_epi16(v, load(row.as_ptr().add(c)));
            }
            for row in added {
                v = _mm256_add_epi16(v, load(row.as_ptr().add(c)));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(c).cast(), v);
        }
    }
}

/// `out = clamp(acc, 0, 127)`.
///
/// # Safety
/// The CPU must support AVX2; `acc.len() == out.len()`, a multiple of 32.
#[target_feature(enable = "avx2")]
pub unsafe fn crelu_i16(acc: &[i16], out: &mut [u8]) {
    let max = _mm256_set1_epi16(i16::from(ACT_MAX));
    for (a, o) in acc.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
        // SAFETY: 32 i16 in, 32 u8 out; unaligned loads and stores.
        unsafe {
            let lo = _mm256_min_epi16(load(a.as_ptr()), max);
            let hi = _mm256_min_epi16(load(a.as_ptr().add(16)), max);
            // packus saturates negatives to 0 but interleaves the 128-bit lanes.
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(lo, hi));
            _mm256_storeu_si256(o.as_mut_ptr().cast(), packed);
        }
    }
}

/// `out = (c² · 258 + 2¹⁴) >> 15` of `c = clamp(acc, 0, 127)`: `c²` in
/// `mullo` (at most 16,129), then `mulhrs`, which is that rounded shift.
///
/// # Safety
/// The CPU must support AVX2; `acc.len() == out.len()`, a multiple of 32.
#[target_feature(enable = "avx2")]
pub unsafe fn screlu_i16(acc: &[i16], out: &mut [u8]) {
    #[target_feature(enable = "avx2")]
    fn square(v: __m256i) -> __m256i {
        let c = _mm256_max_epi16(_mm256_min_epi16(v, _mm256_set1_epi16(i16::from(ACT_MAX))), _mm256_setzero_si256());
        _mm256_mulhrs_epi16(_mm256_mullo_epi16(c, c), _mm256_set1_epi16(SCRELU_MUL))
    }
    for (a, o) in acc.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
        // SAFETY: 32 i16 in, 32 u8 out; unaligned loads and stores.
        unsafe {
            let (lo, hi) = (square(load(a.as_ptr())), square(load(a.as_ptr().add(16))));
            // packus interleaves the 128-bit lanes; every value is in 0..=127.
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(lo, hi));
            _mm256_storeu_si256(o.as_mut_ptr().cast(), packed);
        }
    }
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`, four outputs at a time.
///
/// `maddubs` adds two `u8 × i8` products into an `i16`, which cannot
/// saturate because inputs are at most 127: `2 × 127 × 128 < 32768`.
///
/// # Safety
/// The CPU must support AVX2; `input.len()` is a multiple of 32,
/// `weights.len() == input.len() * out.len()` and `bias.len() == out.len()`.
#[target_feature(enable = "avx2")]
pub unsafe fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    let n = input.len();
    let ones = _mm256_set1_epi16(1);
    let dot = |x: __m256i, w: *const i8, acc: __m256i| {
        // SAFETY: `w` points at 32 readable bytes of a weight row.
        let w = unsafe { load(w) };
        _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones))
    };
    let mut o = 0;
    while o + 4 <= out.len() {
        let rows = weights[o * n..(o + 4) * n].as_ptr();
        let mut acc = [_mm256_setzero_si256(); 4];
        for c in (0..n).step_by(32) {
            // SAFETY: `c + 32 <= n`, and row `k < 4` of the block starts at `k * n`.
            unsafe {
                let x = load(input.as_ptr().add(c));
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = dot(x, rows.add(k * n + c), *a);
                }
            }
        }
        let s01 = _mm256_hadd_epi32(acc[0], acc[1]);
        let s23 = _mm256_hadd_epi32(acc[2], acc[3]);
        let s = _mm256_hadd_epi32(s01, s23);
        let sums = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        // SAFETY: `o + 4 <= out.len() == bias.len()`.
        unsafe {
            let b = _mm_loadu_si128(bias.as_ptr().add(o).cast());
            _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), _mm_add_epi32(sums, b));
        }
        o += 4;
    }
    for (o, out) in out.iter_mut().enumerate().skip(o) {
        let row = weights[o * n..(o + 1) * n].as_ptr();
        let mut acc = _mm256_setzero_si256();
        for c in (0..n).step_by(32) {
            // SAFETY: `c + 32 <= n` within one row and the input.
            unsafe { acc = dot(load(input.as_ptr().add(c)), row.add(c), acc) };
        }
        let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        *out = bias[o].wrapping_add(_mm_cvtsi128_si32(s));
    }
}

/// `out = clamp((sum + 32) >> 6, 0, 127)`.
///
/// # Safety
/// The CPU must support AVX2; `sums.len() == out.len()`, a multiple of 32.
#[target_feature(enable = "avx2")]
pub unsafe fn crelu_i32(sums: &[i32], out: &mut [u8]) {
    let half = _mm256_set1_epi32(1 << (WEIGHT_SCALE_BITS - 1));
    let max = _mm256_set1_epi8(ACT_MAX as i8);
    // packs/packus work within 128-bit lanes; this puts the dwords back in order.
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (s, o) in sums.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
        // SAFETY: 32 i32 in, 32 u8 out; unaligned loads and stores.
        unsafe {
            let v = |k: usize| {
                _mm256_srai_epi32::<{ WEIGHT_SCALE_BITS as i32 }>(_mm256_add_epi32(load(s.as_ptr().add(8 * k)), half))
            };
            let p01 = _mm256_packs_epi32(v(0), v(1));
            let p23 = _mm256_packs_epi32(v(2), v(3));
            let bytes = _mm256_min_epu8(_mm256_packus_epi16(p01, p23), max);
            _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_permutevar8x32_epi32(bytes, order));
        }
    }
}

/// Loads 32 bytes from `p`, unaligned.
///
/// # Safety
/// `p` must point at 32 readable bytes.
#[inline(always)]
unsafe fn load<T>(p: *const T) -> __m256i {
    // SAFETY: the caller guarantees 32 readable bytes; loadu needs no alignment.
    unsafe { _mm256_loadu_si256(p.cast()) }
}

/// `acc += row` (`f32`).
///
/// # Safety
/// The CPU must support AVX2; `acc` and `row` have the same length, a multiple of 8.
#[target_feature(enable = "avx2")]
pub unsafe fn add_f32(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.chunks_exact_mut(8).zip(row.chunks_exact(8)) {
        // SAFETY: each chunk holds exactly 8 f32 (32 bytes); unaligned loads.
        unsafe {
            let sum = _mm256_add_ps(_mm256_loadu_ps(a.as_ptr()), _mm256_loadu_ps(r.as_ptr()));
            _mm256_storeu_ps(a.as_mut_ptr(), sum);
        }
    }
}

/// [`scalar::dense_f32`](super::scalar::dense_f32): the eight partial sums
/// are the eight lanes; multiply and add stay separate, as in the oracle.
///
/// # Safety
/// The CPU must support AVX2; `input.len()` is a multiple of 8 and
/// `weights` holds `out.len()` rows of it.
#[target_feature(enable = "avx2")]
pub unsafe fn dense_f32(input: &[f32], weights: &[f32], bias: &[f32], out: &mut [f32]) {
    for (o, (b, row)) in out.iter_mut().zip(bias.iter().zip(weights.chunks_exact(input.len()))) {
        let mut sum = _mm256_setzero_ps();
        for (x, w) in input.chunks_exact(8).zip(row.chunks_exact(8)) {
            // SAFETY: each chunk holds exactly 8 f32; unaligned loads.
            unsafe {
                sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_loadu_ps(x.as_ptr()), _mm256_loadu_ps(w.as_ptr())));
            }
        }
        let mut lanes = [0f32; 8];
        // SAFETY: `lanes` holds 8 f32.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sum) };
        *o = super::scalar::reduce8(lanes) + b;
    }
}

/// [`scalar::gemm_f32`](super::scalar::gemm_f32): 64 columns at a time in
/// eight registers (then 8 at a time), each lane one column summed in the
/// oracle's order; multiply and add stay separate.
///
/// # Safety
/// The CPU must support AVX2; the lengths are as the dispatcher checks:
/// `out.len() = bias.len() × n` with `n` a multiple of 8,
/// `weights.len() = bias.len() × K`, `cols.len() = K × n`.
#[target_feature(enable = "avx2")]
pub unsafe fn gemm_f32(weights: &[f32], cols: &[f32], bias: &[f32], out: &mut [f32]) {
    let n = out.len() / bias.len();
    let k = weights.len() / bias.len();
    for ((row, &b), out) in weights.chunks_exact(k).zip(bias).zip(out.chunks_exact_mut(n)) {
        let mut j = 0;
        while j + 64 <= n {
            // SAFETY: columns j..j + 64 exist in `out` and in every row of `cols`.
            unsafe { gemm_block::<8>(row, cols, n, j, b, out) };
            j += 64;
        }
        while j < n {
            // SAFETY: n is a multiple of 8, so columns j..j + 8 exist.
            unsafe { gemm_block::<1>(row, cols, n, j, b, out) };
            j += 8;
        }
    }
}

/// Columns `j..j + 8R` of one output row of [`gemm_f32`].
///
/// # Safety
/// AVX2; `cols` holds `row.len()` rows of `n`, and `j + 8R ≤ n = out.len()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn gemm_block<const R: usize>(row: &[f32], cols: &[f32], n: usize, j: usize, b: f32, out: &mut [f32]) {
    let mut acc = [_mm256_setzero_ps(); R];
    for (kk, &w) in row.iter().enumerate() {
        let w = _mm256_set1_ps(w);
        let base = &cols[kk * n + j..kk * n + j + 8 * R];
        for (r, a) in acc.iter_mut().enumerate() {
            // SAFETY: `base` holds 8R f32; unaligned loads.
            *a = _mm256_add_ps(*a, _mm256_mul_ps(w, unsafe { _mm256_loadu_ps(base.as_ptr().add(8 * r)) }));
        }
    }
    let b = _mm256_set1_ps(b);
    let dst = &mut out[j..j + 8 * R];
    for (r, a) in acc.iter().enumerate() {
        // SAFETY: `dst` holds 8R f32; unaligned stores.
        unsafe { _mm256_storeu_ps(dst.as_mut_ptr().add(8 * r), _mm256_add_ps(*a, b)) };
    }
}
