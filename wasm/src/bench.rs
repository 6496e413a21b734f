//! Raw exports for node: the kernel self-test, the inference benchmark and
//! the move path's perft check.
//!
//! Node loads the module with `WebAssembly.instantiate` and times each
//! export with `performance.now()`; the wasm side only does the work.

use std::sync::Mutex;

use deepchess_core::search::perft::{PERFT_POSITIONS, PERFT_SUITE, check_suite, perft_checked};
use deepchess_core::shakmaty::fen::Fen;
use deepchess_core::shakmaty::{CastlingMode, Chess, Position};
use deepchess_core::{Accumulator, Embedding, FeatureDelta, Kernel, Network, Shape, seeded};

/// What the benchmark works on, built once by [`dc_bench_setup`].
struct Workload {
    net: Network,
    deltas: Vec<FeatureDelta>,
    positions: Vec<Chess>,
    embeddings: Vec<Embedding>,
    acc: Accumulator,
}

static WORKLOAD: Mutex<Option<Workload>> = Mutex::new(None);

/// The kernel this build runs: 0 scalar, 2 SIMD128, 3 relaxed SIMD (1 and 4,
/// AVX2 and AVX-512, are native only).
#[unsafe(no_mangle)]
pub extern "C" fn dc_kernel() -> u32 {
    match Kernel::detect() {
        Kernel::Scalar => 0,
        Kernel::Avx2 => 1,
        Kernel::Simd128 => 2,
        Kernel::Relaxed => 3,
        Kernel::Avx512 => 4,
    }
}

/// Runs every kernel this build has against the scalar oracle on `rounds`
/// random inputs, then checks that whole-network inference agrees between
/// kernels: the distilled network's embeddings and comparisons, and a value
/// network's evaluation through the mirror (the default network's kind).
/// Returns the number of failed checks: 0 means bit-exact.
#[unsafe(no_mangle)]
pub extern "C" fn dc_selftest(rounds: u32, seed: u32) -> u32 {
    let mut failures = 0;
    let bytes = seeded::network(&Shape::distilled(), 2.0, u64::from(seed)).to_bytes();
    let Ok(mut scalar) = Network::from_bytes(&bytes) else { return u32::MAX };
    scalar.set_kernel(Kernel::Scalar);
    let Ok(value_shape) = Shape::with_heads(&[773, 256, 32], &[], true) else { return u32::MAX };
    let Ok(mut scalar_value) = Network::from_bytes(&seeded::network(&value_shape, 1.5, u64::from(seed)).to_bytes())
    else {
        return u32::MAX;
    };
    scalar_value.set_kernel(Kernel::Scalar);
    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
        failures += seeded::kernel_mismatches(kernel, rounds as usize, u64::from(seed)).len() as u32;
        let mut net = scalar.clone();
        net.set_kernel(kernel);
        let mut value = scalar_value.clone();
        value.set_kernel(kernel);
        for (pos, _) in seeded::playout(200, u64::from(seed)) {
            let (a, b) = (net.embed_position(&pos), scalar.embed_position(&pos));
            failures += u32::from(a != b);
            failures += u32::from(net.logits(&a, &Embedding::ZERO) != scalar.logits(&b, &Embedding::ZERO));
            failures += u32::from(value.value_difference(&pos) != scalar_value.value_difference(&pos));
        }
    }
    failures
}

/// Builds the benchmark's network (`full` = 1 for the paper's full shape) and
/// positions from `games` random games. Returns the number of positions.
#[unsafe(no_mangle)]
pub extern "C" fn dc_bench_setup(full: u32, games: u32) -> u32 {
    let shape = if full == 1 { Shape::full() } else { Shape::distilled() };
    let Ok(net) = Network::from_bytes(&seeded::network(&shape, 2.0, 1).to_bytes()) else { return 0 };
    let mut deltas = Vec::new();
    let mut positions = Vec::new();
    for seed in 0..u64::from(games) {
        for (pos, m) in seeded::playout(120, seed) {
            if let Some(m) = m {
                let mut after = pos.clone();
                after.play_unchecked(m);
                deltas.push(FeatureDelta::new(&pos, m, &after));
                positions.push(pos);
            }
        }
    }
    let embeddings = positions.iter().map(|p| net.embed_position(p)).collect();
    let acc = Accumulator::new(&net, &Chess::default());
    let count = positions.len() as u32;
    *lock() = Some(Workload { net, deltas, positions, embeddings, acc });
    count
}

/// Applies `n` move deltas to one accumulator. Returns a checksum.
#[unsafe(no_mangle)]
pub extern "C" fn dc_bench_update(n: u32) -> u32 {
    with_workload(|w| {
        for delta in w.deltas.iter().cycle().take(n as usize) {
            w.acc.apply(&w.net, delta);
        }
        w.acc.values()[0] as u32
    })
}

/// Embeds `n` positions from scratch. Returns a checksum.
#[unsafe(no_mangle)]
pub extern "C" fn dc_bench_embed(n: u32) -> u32 {
    with_workload(|w| {
        let mut sum = 0u32;
        for pos in w.positions.iter().cycle().take(n as usize) {
            sum = sum.wrapping_add(u32::from(w.net.embed_position(pos).values()[0]));
        }
        sum
    })
}

/// Compares `n` pairs of cached embeddings. Returns a checksum.
#[unsafe(no_mangle)]
pub extern "C" fn dc_bench_compare(n: u32) -> u32 {
    with_workload(|w| {
        let mut sum = 0u32;
        for pair in w.embeddings.windows(2).cycle().take(n as usize) {
            sum = sum.wrapping_add(w.net.compare_logit(&pair[0], &pair[1]) as u32);
        }
        sum
    })
}

fn lock() -> std::sync::MutexGuard<'static, Option<Workload>> {
    WORKLOAD.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn with_workload(f: impl FnOnce(&mut Workload) -> u32) -> u32 {
    lock().as_mut().map_or(0, f)
}

/// The search's move path held to shakmaty over the perft tree of the
/// `index`-th of the chess programming wiki's positions
/// ([`PERFT_POSITIONS`], each at its depth): the leaf count, or 0 where the
/// index is past the list or the move path differs from shakmaty's at some
/// position of the tree.
#[unsafe(no_mangle)]
pub extern "C" fn dc_movepath_check(index: u32) -> u64 {
    let Some(&(fen, depth, _)) = PERFT_POSITIONS.get(index as usize) else { return 0 };
    let Ok(fen) = fen.parse::<Fen>() else { return 0 };
    let Ok(pos) = fen.into_position::<Chess>(CastlingMode::Standard) else { return 0 };
    perft_checked(&pos, depth).map_or(0, |(leaves, _)| leaves)
}

/// The perft suite ([`PERFT_SUITE`]) by [`check_suite`] to `depth`: the
/// positions whose move path and leaf counts hold, or 0 where one does not.
#[unsafe(no_mangle)]
pub extern "C" fn dc_perft_suite_check(depth: u32) -> u32 {
    check_suite(PERFT_SUITE, depth, true).map_or(0, |counts| counts.positions as u32)
}
