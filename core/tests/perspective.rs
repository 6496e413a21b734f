//! Value networks read from both perspectives (`Shape::perspective`): the
//! file, the integer evaluation against the float reference, its exact
//! antisymmetry, every kernel against the scalar oracle, and the scalar
//! search's incremental evaluation against one from scratch.

mod common;

use deepchess_core::arch::ACT_SCALE;
use deepchess_core::deepchess::scratch::Scratch;
use deepchess_core::{Features, FloatNetwork, Network, Shape, ShapeError, UtilityDefect, WeightsError, seeded};
use shakmaty::{Chess, Position};

const TOWER: [usize; 3] = [773, 64, 32];

fn float(seed: u64) -> FloatNetwork {
    seeded::network(&Shape::perspective(&TOWER).unwrap(), 1.5, seed)
}

fn positions() -> impl Iterator<Item = Chess> {
    (0..30).flat_map(|s| seeded::playout(80, s)).map(|(p, _)| p)
}

#[test]
fn a_perspective_file_reads_back_and_says_what_it_is() {
    let float = float(1);
    let bytes = float.to_bytes();
    let net = Network::from_bytes(&bytes).unwrap();
    assert!(net.shape().is_perspective() && net.has_utility() && !net.has_comparison());
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(net.tower()[0].inputs(), 2 * TOWER[1]);
    assert_eq!(net.shape().to_string(), "(773-64)x2-32 + utility 32-1");
    assert_eq!(FloatNetwork::from_float_bytes(&float.to_float_bytes()).unwrap(), float);
    // The same widths read through the mirror are another architecture.
    let mirror_read = Shape::with_heads(&TOWER, &[], true).unwrap();
    assert_ne!(mirror_read.hash(), net.shape().hash());
    common::header_defects_are_typed_errors(&bytes, 97, b"DCAZ", Network::from_bytes);

    // The utility field (after the two width lists) says 2; with a
    // comparison head listed, 2 is a defect, not a guess.
    let flag_at = 4 + 4 + 4 + 4 * (1 + TOWER.len()) + 4;
    assert_eq!(bytes[flag_at..flag_at + 4], 2u32.to_le_bytes());
    let mut other_hash = bytes.clone();
    other_hash[flag_at] = 1;
    assert!(matches!(Network::from_bytes(&other_hash), Err(WeightsError::ArchHashMismatch { .. })));
    let comparison = Shape::with_heads(&[773, 64, 32], &[64, 2], true).unwrap();
    let mut with_head = seeded::network(&comparison, 1.0, 2).to_bytes();
    let flag_at = flag_at + 4 * 2;
    with_head[flag_at] = 2;
    assert_eq!(
        Network::from_bytes(&with_head).unwrap_err(),
        WeightsError::BadUtility { reason: UtilityDefect::Flag(2) }
    );
    assert_eq!(Shape::perspective(&[773, 48, 32]), Err(ShapeError::PerspectiveWidth { width: 48 }));
    assert_eq!(Shape::perspective(&[773, 1024, 32]), Err(ShapeError::PerspectiveWidth { width: 1024 }));
    assert_eq!(Shape::perspective(&[773, 64]), Err(ShapeError::TooFewLayers));
    assert_eq!(Shape::perspective(&TOWER).unwrap().with_utility(false), Err(ShapeError::NoHead));
}

/// A position and its colour mirror image evaluate to opposite numbers,
/// exactly, in float and in integers: both read the same pair of views.
#[test]
fn the_mirror_image_evaluates_to_the_negation() {
    let float = float(3);
    let net = Network::from_bytes(&float.to_bytes()).unwrap();
    let mut scratch = Scratch::new();
    let mut nonzero = 0;
    for pos in positions() {
        let features = Features::from_position(&pos);
        assert_eq!(float.value(&features.mirrored()), float.value(&features).map(|v| -v));
        let (own, mirror) = (net.accumulator_of(&features), net.accumulator_of(&features.mirrored()));
        let white = pos.turn().is_white();
        let bucket = net.output_bucket(&pos);
        let value = net.value_difference_of(&own, &mirror, white, bucket, &mut scratch).unwrap();
        assert_eq!(net.value_difference_of(&mirror, &own, !white, bucket, &mut scratch), Some(-value));
        assert_eq!(net.value_difference(&pos), Some(value));
        nonzero += usize::from(value != 0);
    }
    assert!(nonzero > 1000, "only {nonzero} positions evaluate to other than 0");
}

/// The integer evaluation against the float reference. Each step is one of
/// the steps the mirror-read network takes (first layer, clipped ReLU, dense
/// layers, utility head), bounded in `quantization.rs`; here the whole: per
/// position within the bound a hidden sum allows for the head on the
/// integer embedding (`Σ x · 0.5/64 + 0.5/8128` units), plus what the
/// embedding's own error carries through the head's weights, plus the
/// rounding to whole centipawns; and over all positions worst ≤ 8 cp, mean
/// ≤ 2 cp at 100 cp per unit (measured: 4.1 and 1.1, the float evaluations
/// spanning ±41 cp).
#[test]
fn the_integer_evaluation_stays_close_to_float() {
    let float = float(5);
    let net = Network::from_bytes(&float.to_bytes()).unwrap();
    let layer = float.utility_layer().unwrap();
    let cp_scale = f64::from(float.cp_scale());
    let (mut worst, mut total, mut count, mut spread) = (0f64, 0f64, 0usize, (f64::MAX, f64::MIN));
    for pos in positions() {
        let features = Features::from_position(&pos);
        let mirrored = features.mirrored();
        let (mover, other) = if pos.turn().is_white() { (&features, &mirrored) } else { (&mirrored, &features) };
        let float_embedding = float.embed_perspectives(mover, other);
        let float_cp = cp_scale * f64::from(float.value(&features).unwrap());
        let integer_cp = f64::from(net.evaluate_position(&pos).unwrap());
        // The integer embedding the evaluation read.
        let accs = [net.accumulator_of(mover), net.accumulator_of(other)];
        let embedding = net.embed_perspectives(&accs[0], &accs[1], &mut Scratch::new());
        let x: Vec<f32> = embedding.values()[..TOWER[2]].iter().map(|&v| f32::from(v) / ACT_SCALE as f32).collect();
        let step = x.iter().map(|&v| f64::from(v) * 0.5 / 64.0).sum::<f64>() + 0.5 / 8128.0;
        let carried: f64 = layer
            .weights()
            .iter()
            .zip(&float_embedding)
            .zip(&x)
            .map(|((w, f), x)| f64::from(w.abs() * (f - x).abs()))
            .sum();
        let allowed = 0.5 + cp_scale * (step + carried);
        let error = (integer_cp - float_cp).abs();
        assert!(error <= allowed + 1e-6, "evaluation {integer_cp} vs float {float_cp}, allowed {allowed}");
        worst = worst.max(error);
        total += error;
        count += 1;
        spread = (spread.0.min(float_cp), spread.1.max(float_cp));
    }
    let mean = total / count as f64;
    println!(
        "perspective: evaluation error worst {worst:.2} cp, mean {mean:.3} cp over {count} positions; float {spread:?}"
    );
    assert!(spread.0 < -25.0 && spread.1 > 25.0, "evaluations only span {spread:?}");
    assert!(worst <= 8.0 && mean <= 2.0, "worst {worst}, mean {mean}");
}

/// Every kernel this machine runs gives the scalar oracle's evaluation.
#[test]
fn every_kernel_evaluates_as_the_scalar_oracle() {
    let float = seeded::network(&Shape::perspective(&[773, 256, 32]).unwrap(), 1.5, 7);
    let positions: Vec<Chess> = positions().collect();
    common::value_net::assert_kernels_match_oracle(&Network::from_bytes(&float.to_bytes()).unwrap(), &positions);
}

/// The scalar search's evaluator follows the path move by move (and null
/// moves) with both accumulators; each position's evaluation equals the
/// network's from scratch.
#[test]
fn the_search_evaluates_incrementally_as_from_scratch() {
    let net = Network::from_bytes(&float(9).to_bytes()).unwrap();
    common::value_net::assert_incremental_matches_scratch(&net, 20, 60, true);
}

/// The engine plays with one: the scalar search and MCTS.
#[test]
fn the_engine_plays_with_a_perspective_network() {
    common::value_net::assert_engine_plays(&Network::from_bytes(&float(11).to_bytes()).unwrap());
}
