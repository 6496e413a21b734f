//! Networks whose first layer's clipped ReLU is squared
//! (`Shape::with_activation(Activation::SquaredClippedRelu)`): the quantized
//! activation step and its bound, the file (format version 4), the integer
//! evaluation against the float reference, every kernel against the scalar
//! oracle, the scalar search's incremental evaluation, and the engine
//! playing with one.

mod common;

use deepchess_core::arch::{ACT_SCALE, Activation, FT_SCALE};
use deepchess_core::deepchess::format::VERSION;
use deepchess_core::kernels::scalar;
use deepchess_core::{Features, FloatNetwork, Network, Shape, WeightsError, seeded};
use shakmaty::Chess;

const TOWER: [usize; 3] = [773, 64, 32];
const SQUARED: Activation = Activation::SquaredClippedRelu;

/// Through the mirror, from both perspectives, and with output buckets.
fn shapes() -> [Shape; 3] {
    let mirror = Shape::with_heads(&TOWER, &[], true).unwrap();
    let perspective = Shape::perspective(&TOWER).unwrap();
    [mirror, perspective.clone(), perspective.with_buckets(8).unwrap()].map(|s| s.with_activation(SQUARED))
}

fn float(shape: &Shape, seed: u64) -> FloatNetwork {
    seeded::network(shape, 1.5, seed)
}

fn positions() -> impl Iterator<Item = Chess> {
    (0..30).flat_map(|s| seeded::playout(120, s)).map(|(p, _)| p)
}

/// One step: every accumulator value `q` gives `round(c² / 127)` of the
/// clipped `c`, within half a step (`0.5 / 127`) of `screlu(q / 127)`, plus
/// the factor's own error (`c² · |1/127 − 258/2¹⁵|`, under `10⁻⁴`).
#[test]
fn the_activation_step_is_within_half_a_step() {
    let values: Vec<i16> = (-300..=300).chain([i16::MIN, -1000, 1000, i16::MAX]).collect();
    let padded = values.len().div_ceil(32) * 32;
    let mut acc = values.clone();
    acc.resize(padded, 0);
    let mut out = vec![0u8; padded];
    scalar::screlu_i16(&acc, &mut out);
    for (&q, &a) in values.iter().zip(&out) {
        let exact = SQUARED.of(f32::from(q) / FT_SCALE as f32);
        let error = (f32::from(a) / ACT_SCALE as f32 - exact).abs();
        assert!(error <= 0.5 / ACT_SCALE as f32 + 1e-4, "{q}: {a} against {exact}");
    }
    let at = |q: i16| out[values.iter().position(|&v| v == q).unwrap()];
    assert_eq!((at(i16::MIN), at(-1), at(0), at(5), at(6)), (0, 0, 0, 0, 0));
    assert_eq!((at(8), at(64), at(127), at(300), at(i16::MAX)), (1, 32, 127, 127, 127));
    assert!(out[..601].windows(2).all(|w| w[0] <= w[1]), "monotone");
}

/// The first layer's activations of a whole network: the square at most
/// doubles the first layer's error (its slope is at most 2), then adds the
/// step's half.
#[test]
fn first_layer_activations_stay_within_their_bound() {
    let float = float(&shapes()[0], 21);
    let net = Network::from_bytes(&float.to_bytes()).unwrap();
    let mut worst = 0f32;
    for pos in positions().step_by(3) {
        let features = Features::from_position(&pos);
        let sum_bound = (features.len() as f32 + 1.0) * 0.5 / FT_SCALE as f32;
        let bound = 2.0 * sum_bound + 0.5 / ACT_SCALE as f32 + 1e-4;
        let acc = net.accumulator(&pos);
        let mut act = vec![0u8; acc.values().len()];
        scalar::screlu_i16(acc.values(), &mut act);
        for (q, f) in act.iter().zip(float.first_activations(&features)) {
            let error = (f32::from(*q) / ACT_SCALE as f32 - f).abs();
            assert!(error <= bound, "{error} > {bound}");
            worst = worst.max(error);
        }
    }
    println!("first layer, squared: worst activation error {worst}");
}

/// The file says what it is: version 4, the activation word after the
/// utility fields, its own hash; it reads back byte for byte, and a damaged
/// word is a typed error.
#[test]
fn a_squared_file_is_version_4_and_reads_back() {
    let flag = 12 + (4 + 3 * 4) + 4;
    for shape in shapes() {
        let float = float(&shape, 9);
        let bytes = float.to_bytes();
        assert_eq!(bytes[4..8], VERSION.to_le_bytes());
        assert_eq!(VERSION, 4);
        let word = flag + 8;
        assert_eq!(bytes[word..word + 4], SQUARED.code().to_le_bytes());
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.shape(), &shape);
        assert!(net.shape().to_string().ends_with(", first layer screlu"), "{}", net.shape());
        assert_eq!(net.to_bytes(), bytes);
        assert_eq!(FloatNetwork::from_float_bytes(&float.to_float_bytes()).unwrap(), float);

        let mut bad = bytes.clone();
        bad[word..word + 4].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), WeightsError::BadActivation { found: 7 });
        assert!(Network::from_bytes(&bad).unwrap_err().to_string().contains("activation is 7"));
        // The clipped ReLU's word on a squared network's weights: another hash, refused.
        bad[word..word + 4].copy_from_slice(&Activation::ClippedRelu.code().to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(WeightsError::ArchHashMismatch { .. })));
        assert!(Network::from_bytes(&bytes[..word + 2]).is_err());
    }
    // Every activation's word names it, and no other word names one.
    for activation in Activation::ALL {
        assert_eq!(Activation::from_code(activation.code()), Some(activation));
    }
    assert_eq!(Activation::from_code(2), None);
}

/// The integer evaluation against the float reference: over the positions,
/// worst ≤ 12 cp and mean ≤ 3 cp at 100 cp per unit for every shape
/// (measured: worst 5.5, mean 1.4), the float evaluations spread, and the
/// squared network's evaluation differs from the clipped one's.
#[test]
fn the_integer_evaluation_stays_close_to_float() {
    for shape in shapes() {
        let float = float(&shape, 5);
        let net = Network::from_bytes(&float.to_bytes()).unwrap();
        // The same weights (a seeded network draws them by layer sizes alone) under the clipped ReLU.
        let clipped = seeded::network(&shape.with_activation(Activation::ClippedRelu), 1.5, 5);
        let cp_scale = f64::from(float.cp_scale());
        let (mut worst, mut total, mut count, mut spread, mut differs) = (0f64, 0f64, 0usize, (f64::MAX, f64::MIN), 0);
        for pos in positions().step_by(2) {
            let features = Features::from_position(&pos);
            let float_cp = cp_scale * f64::from(float.value(&features).unwrap());
            let error = (f64::from(net.evaluate_position(&pos).unwrap()) - float_cp).abs();
            worst = worst.max(error);
            total += error;
            count += 1;
            spread = (spread.0.min(float_cp), spread.1.max(float_cp));
            differs += usize::from((cp_scale * f64::from(clipped.value(&features).unwrap()) - float_cp).abs() > 1.0);
        }
        let mean = total / count as f64;
        println!("{shape}: evaluation error worst {worst:.2} cp, mean {mean:.3} cp over {count}; float {spread:?}");
        assert!(spread.0 < -20.0 && spread.1 > 20.0, "{shape}: evaluations only span {spread:?}");
        assert!(worst <= 12.0 && mean <= 3.0, "{shape}: worst {worst}, mean {mean}");
        assert!(differs > count / 2, "{shape}: the square changes few evaluations ({differs} of {count})");
    }
}

/// Every kernel this machine runs gives the scalar oracle's evaluation.
#[test]
fn every_kernel_evaluates_as_the_scalar_oracle() {
    let positions: Vec<Chess> = positions().collect();
    common::value_net::assert_wide_kernels_match_oracle(&positions, |shape| shape.with_activation(SQUARED));
}

/// The scalar search's evaluator, move by move with both accumulators and
/// null moves, gives each position's evaluation from scratch.
#[test]
fn the_search_evaluates_incrementally_as_from_scratch() {
    for shape in shapes() {
        let net = Network::from_bytes(&float(&shape, 9).to_bytes()).unwrap();
        common::value_net::assert_incremental_matches_scratch(&net, 8, 160, true);
    }
}

/// The engine plays with one: the scalar search and MCTS.
#[test]
fn the_engine_plays_with_a_squared_first_layer() {
    common::value_net::assert_engine_plays(&Network::from_bytes(&float(&shapes()[1], 11).to_bytes()).unwrap());
}
