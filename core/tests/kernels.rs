//! Every SIMD kernel this machine supports equals the scalar oracle bit for
//! bit, on random data and on the extremes (wrapping, saturation).

use deepchess_core::kernels::{self, Kernel, scalar};
use deepchess_core::seeded;

fn simd_kernels() -> Vec<Kernel> {
    let found: Vec<Kernel> = Kernel::ALL.into_iter().filter(|k| *k != Kernel::Scalar && k.is_supported()).collect();
    if cfg!(target_arch = "x86_64") && std::is_x86_feature_detected!("avx2") {
        assert!(found.contains(&Kernel::Avx2), "AVX2 present but not used");
    }
    #[cfg(target_arch = "x86_64")]
    if ["avx512f", "avx512bw", "avx512vl", "avx512vnni"].iter().all(|f| match *f {
        "avx512f" => std::is_x86_feature_detected!("avx512f"),
        "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
        "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
        _ => std::is_x86_feature_detected!("avx512vnni"),
    }) {
        assert!(found.contains(&Kernel::Avx512), "AVX-512 with VNNI present but not used");
    }
    found
}

#[test]
fn every_operation_matches_the_oracle_on_random_data() {
    for kernel in simd_kernels() {
        let failed = seeded::kernel_mismatches(kernel, 2_000, 1);
        assert!(failed.is_empty(), "{kernel:?} differs from the scalar oracle in {failed:?}");
    }
}

#[test]
fn dense_worst_case_does_not_saturate() {
    // All inputs 127 and all weights -128: every maddubs pair is -32512.
    for kernel in simd_kernels() {
        let input = vec![127u8; 64];
        for w in [i8::MIN, i8::MAX] {
            let weights = vec![w; 64 * 5];
            let bias = vec![0; 5];
            let (mut expected, mut actual) = (vec![0; 5], vec![0; 5]);
            scalar::dense(&input, &weights, &bias, &mut expected);
            kernels::dense(kernel, &input, &weights, &bias, &mut actual);
            assert_eq!(expected, vec![64 * 127 * i32::from(w); 5]);
            assert_eq!(expected, actual, "{kernel:?}");
        }
    }
}

#[test]
fn crelu_i32_rounds_and_clips() {
    let sums = [-1000, -33, -32, 31, 32, 95, 96, 8128, 1 << 20, 0, 0, 0, 0, 0, 0, 0];
    let sums: Vec<i32> = sums.iter().copied().cycle().take(32).collect();
    let mut out = vec![0; 32];
    scalar::crelu_i32(&sums, &mut out);
    assert_eq!(&out[..9], &[0, 0, 0, 0, 1, 1, 2, 127, 127]);
}

#[test]
#[should_panic(expected = "padded")]
fn unpadded_vectors_are_refused() {
    let mut acc = vec![0i16; 20];
    kernels::add_i16(Kernel::Scalar, &mut acc, &[0; 20]);
}
