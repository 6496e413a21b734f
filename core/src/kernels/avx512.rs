//! AVX-512 kernels for x86_64 (F, BW, VL and VNNI: Intel since Ice Lake,
//! AMD since Zen 4). Each equals its [`scalar`](super::scalar) twin bit for
//! bit; the callers in [`super`] check lengths and CPU support.
//!
//! Only the operations that show in a search's profile are written here:
//! the first layer's update (`update_i16`, 64-byte registers: half the
//! instructions of AVX2) and the hidden layers' dot products (`dense` and
//! `dense_packed`, one `vpdpbusd` where AVX2 needs `maddubs`, `madd` and an
//! add, over 64 bytes at a time). The rest are the [`avx2`](super::avx2)
//! kernels, which a CPU with AVX-512 also runs.

use core::arch::x86_64::*;

pub use super::avx2::{add_f32, crelu_i16, crelu_i32, dense_f32, gemm_f32, screlu_i16};

/// `acc += row`, wrapping.
///
/// # Safety
/// The CPU must support AVX-512 F and BW; `acc` and `row` have the same
/// length, a multiple of 32.
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn add_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(32).zip(row.chunks_exact(32)) {
        // SAFETY: each chunk holds exactly 32 i16 (64 bytes); unaligned loads.
        unsafe {
            let sum = _mm512_add_epi16(load(a.as_ptr()), load(r.as_ptr()));
            _mm512_storeu_si512(a.as_mut_ptr().cast(), sum);
        }
    }
}

/// `acc -= row`, wrapping.
///
/// # Safety
/// As [`add_i16`].
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn sub_i16(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(32).zip(row.chunks_exact(32)) {
        // SAFETY: each chunk holds exactly 32 i16 (64 bytes); unaligned loads.
        unsafe {
            let diff = _mm512_sub_epi16(load(a.as_ptr()), load(r.as_ptr()));
            _mm512_storeu_si512(a.as_mut_ptr().cast(), diff);
        }
    }
}

/// `out = src − Σ removed + Σ added`, wrapping, 32 lanes at a time in
/// registers.
///
/// # Safety
/// The CPU must support AVX-512 F and BW; `src`, `out` and every row have
/// the same length, a multiple of 32.
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn update_i16(src: &[i16], removed: &[&[i16]], added: &[&[i16]], out: &mut [i16]) {
    for c in (0..out.len()).step_by(32) {
        // SAFETY: `c + 32 <= len` for `src`, `out` and every row; unaligned loads.
        unsafe {
            let mut v = load(src.as_ptr().add(c));
            for row in removed {
                v = _mm512_sub_epi16(v, load(row.as_ptr().add(c)));
            }
            for row in added {
                v = _mm512_add_epi16(v, load(row.as_ptr().add(c)));
            }
            _mm512_storeu_si512(out.as_mut_ptr().add(c).cast(), v);
        }
    }
}

/// `out[o] = bias[o] + Σ_i input[i] * weights[o][i]`, eight outputs at a
/// time (eight independent chains of `vpdpbusd`, each input vector loaded
/// once for the eight rows), 64 inputs a step and a last step of 32 where
/// the length is an odd multiple of 32; the outputs past the last eight one
/// at a time.
///
/// `vpdpbusd` adds four `u8 × i8` products to each `i32` lane without
/// saturation, exactly the oracle's sum (wrapping like its final add).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and VNNI (and AVX2); `input.len()`
/// is a multiple of 32, `weights.len() == input.len() * out.len()` and
/// `bias.len() == out.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni,avx2")]
pub unsafe fn dense(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    let n = input.len();
    let mut o = 0;
    while o + 8 <= out.len() {
        // SAFETY: rows `o..o + 8` are in `weights`; `o + 8 <= out.len() == bias.len()`.
        unsafe {
            let h = dots::<8>(input, weights[o * n..(o + 8) * n].as_ptr());
            let s01 = _mm256_hadd_epi32(h[0], h[1]);
            let s23 = _mm256_hadd_epi32(h[2], h[3]);
            let s45 = _mm256_hadd_epi32(h[4], h[5]);
            let s67 = _mm256_hadd_epi32(h[6], h[7]);
            // Each 128-bit lane holds rows 0..4 (4..8) summed over its half of the lanes.
            let s0123 = _mm256_hadd_epi32(s01, s23);
            let s4567 = _mm256_hadd_epi32(s45, s67);
            let sums = _mm256_add_epi32(
                _mm256_permute2x128_si256::<0x20>(s0123, s4567),
                _mm256_permute2x128_si256::<0x31>(s0123, s4567),
            );
            let b = _mm256_loadu_si256(bias.as_ptr().add(o).cast());
            _mm256_storeu_si256(out.as_mut_ptr().add(o).cast(), _mm256_add_epi32(sums, b));
        }
        o += 8;
    }
    for (o, out) in out.iter_mut().enumerate().skip(o) {
        // SAFETY: row `o` is in `weights`.
        let [acc] = unsafe { dots::<1>(input, weights[o * n..(o + 1) * n].as_ptr()) };
        let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        *out = bias[o].wrapping_add(_mm_cvtsi128_si32(s));
    }
}

/// The dot products of `R` consecutive weight rows (each `input.len()`
/// bytes, starting at `rows`) with the input, each as eight `i32` lanes
/// still to be summed.
///
/// # Safety
/// AVX-512 F, BW, VL and VNNI; `input.len()` a multiple of 32 and `R` rows of
/// it readable from `rows`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni,avx2")]
#[inline]
unsafe fn dots<const R: usize>(input: &[u8], rows: *const i8) -> [__m256i; R] {
    let n = input.len();
    let wide = n - n % 64;
    let mut acc = [_mm512_setzero_si512(); R];
    for c in (0..wide).step_by(64) {
        // SAFETY: `c + 64 <= n` within the input and every row.
        unsafe {
            let x = load(input.as_ptr().add(c));
            for (k, a) in acc.iter_mut().enumerate() {
                *a = _mm512_dpbusd_epi32(*a, x, load(rows.add(k * n + c)));
            }
        }
    }
    let mut half: [__m256i; R] = core::array::from_fn(|k| {
        _mm256_add_epi32(_mm512_castsi512_si256(acc[k]), _mm512_extracti64x4_epi64::<1>(acc[k]))
    });
    if wide < n {
        // SAFETY: `wide + 32 == n`: the last 32 bytes of the input and of every row.
        unsafe {
            let x = _mm256_loadu_si256(input.as_ptr().add(wide).cast());
            for (k, h) in half.iter_mut().enumerate() {
                *h = _mm256_dpbusd_epi32(*h, x, _mm256_loadu_si256(rows.add(k * n + wide).cast()));
            }
        }
    }
    half
}

/// Loads 64 bytes from `p`, unaligned.
///
/// # Safety
/// `p` must point at 64 readable bytes.
#[inline(always)]
unsafe fn load<T>(p: *const T) -> __m512i {
    // SAFETY: the caller guarantees 64 readable bytes; loadu needs no alignment.
    unsafe { _mm512_loadu_si512(p.cast()) }
}

/// [`dense`] over weights in [`pack_dense`](super::pack_dense)'s order: 32
/// outputs at a time in two registers, each group of four inputs broadcast
/// to every lane and multiplied by the 32 outputs' four weights with one
/// `vpdpbusd` a register. Four sets of sums take the groups in turn, so four
/// chains of `vpdpbusd` run at once, and no horizontal sums are needed: a
/// lane is an output.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and VNNI; `input.len()` is a
/// multiple of 16, `out.len()` a multiple of 32, `bias.len() == out.len()`
/// and `packed.len() == input.len() * out.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
pub unsafe fn dense_packed(input: &[u8], packed: &[i8], bias: &[i32], out: &mut [i32]) {
    let outputs = out.len();
    let groups = input.len() / 4;
    for o in (0..outputs).step_by(32) {
        let mut acc = [[_mm512_setzero_si512(); 2]; 4];
        for g in (0..groups).step_by(4) {
            for (k, acc) in acc.iter_mut().enumerate() {
                // SAFETY: group `g + k < groups` (groups is a multiple of 4); its
                // four inputs are in `input`, and outputs `o..o + 32` of its weights in `packed`.
                unsafe {
                    let x = _mm512_set1_epi32(input.as_ptr().add(4 * (g + k)).cast::<i32>().read_unaligned());
                    let w = packed.as_ptr().add(((g + k) * outputs + o) * 4);
                    acc[0] = _mm512_dpbusd_epi32(acc[0], x, load(w));
                    acc[1] = _mm512_dpbusd_epi32(acc[1], x, load(w.add(64)));
                }
            }
        }
        let [a, b, c, d] = acc;
        for half in 0..2 {
            let sum = _mm512_add_epi32(_mm512_add_epi32(a[half], b[half]), _mm512_add_epi32(c[half], d[half]));
            // SAFETY: outputs `o + 16 * half..+ 16` are in `bias` and `out`.
            unsafe {
                let b = _mm512_loadu_si512(bias.as_ptr().add(o + 16 * half).cast());
                _mm512_storeu_si512(out.as_mut_ptr().add(o + 16 * half).cast(), _mm512_add_epi32(sum, b));
            }
        }
    }
}
