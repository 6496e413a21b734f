//! Utility heads with output buckets (`Shape::with_buckets`): each position
//! reads the output its material picks; every kernel against the scalar
//! oracle, the float reference, the scalar search's incremental evaluation
//! against one from scratch, and the engine playing with one.

mod common;

use deepchess_core::arch::{self, SUM_SCALE};
use deepchess_core::search::scalar::{Evaluator, NetEvaluator};
use deepchess_core::{Features, FloatNetwork, Network, Shape, seeded};
use shakmaty::{Chess, Position};

const TOWER: [usize; 3] = [773, 64, 32];

fn shapes() -> [Shape; 2] {
    [
        Shape::with_heads(&TOWER, &[], true).unwrap().with_buckets(8).unwrap(),
        Shape::perspective(&TOWER).unwrap().with_buckets(8).unwrap(),
    ]
}

fn float(shape: &Shape, seed: u64) -> FloatNetwork {
    seeded::network(shape, 1.5, seed)
}

/// Positions from the opening to bare endings, so that every bucket is read.
fn positions() -> impl Iterator<Item = Chess> {
    (0..30).flat_map(|s| seeded::playout(300, s)).map(|(p, _)| p)
}

#[test]
fn a_position_reads_the_bucket_of_its_material() {
    let net = Network::from_bytes(&float(&shapes()[0], 1).to_bytes()).unwrap();
    let mut seen = [0usize; 8];
    for pos in positions() {
        let features = Features::from_position(&pos);
        let bucket = net.output_bucket(&pos);
        assert_eq!(bucket, arch::output_bucket(features.men(), 8));
        assert_eq!(features.men(), features.mirrored().men());
        assert_eq!(bucket, (pos.board().occupied().count() - 2) / 4);
        seen[bucket] += 1;
    }
    assert!(seen.iter().filter(|&&n| n > 0).count() >= 5, "buckets read: {seen:?}");
}

/// The buckets are separate outputs: the integer value of each position is
/// the float reference's at its own bucket (to the quantization's error),
/// and reading another bucket gives another value.
#[test]
fn the_integer_value_follows_the_float_one_bucket_by_bucket() {
    for shape in shapes() {
        let float = float(&shape, 3);
        let net = Network::from_bytes(&float.to_bytes()).unwrap();
        let (mut worst, mut differs) = (0f64, 0usize);
        for pos in positions().step_by(7) {
            let features = Features::from_position(&pos);
            let float_value = f64::from(float.value(&features).unwrap());
            let integer = f64::from(net.value_difference(&pos).unwrap()) / (2.0 * f64::from(SUM_SCALE));
            worst = worst.max((integer - float_value).abs());
            let (own, mirror) = (net.accumulator_of(&features), net.accumulator_of(&features.mirrored()));
            let white = pos.turn().is_white();
            let mut scratch = deepchess_core::deepchess::scratch::Scratch::new();
            let bucket = net.output_bucket(&pos);
            let other = (bucket + 4) % 8;
            differs += usize::from(
                net.value_difference_of(&own, &mirror, white, bucket, &mut scratch)
                    != net.value_difference_of(&own, &mirror, white, other, &mut scratch),
            );
        }
        // In centipawns, the bound of the networks without buckets (tests/perspective.rs).
        let worst_cp = worst * f64::from(float.cp_scale());
        println!("{shape}: worst error {worst_cp:.2} cp, another bucket differs at {differs} positions");
        assert!(worst_cp <= 8.0, "{shape}: worst {worst_cp} cp");
        assert!(differs > 100, "{shape}: the buckets are not read apart ({differs})");
    }
}

/// Every kernel this machine runs gives the scalar oracle's evaluation.
#[test]
fn every_kernel_evaluates_as_the_scalar_oracle() {
    let positions: Vec<Chess> = positions().collect();
    common::value_net::assert_wide_kernels_match_oracle(&positions, |shape| shape.with_buckets(8).unwrap());
}

/// The scalar search's evaluator follows the path move by move with both
/// accumulators (and null moves); each position's evaluation equals the
/// network's from scratch, at the bucket of the position reached. An
/// embedding alone does not tell the bucket: nothing is prefilled.
#[test]
fn the_search_evaluates_incrementally_as_from_scratch() {
    for shape in shapes() {
        let net = Network::from_bytes(&float(&shape, 9).to_bytes()).unwrap();
        common::value_net::assert_incremental_matches_scratch(&net, 10, 200, true);
        let mut evaluator = NetEvaluator::new(net.clone(), 0);
        let e = net.embed_position(&Chess::default());
        assert_eq!(evaluator.prefill(&[(1, true), (2, false)], &[e, e]), 0);
    }
}

/// The engine plays with one: the scalar search and MCTS.
#[test]
fn the_engine_plays_with_output_buckets() {
    common::value_net::assert_engine_plays(&Network::from_bytes(&float(&shapes()[0], 11).to_bytes()).unwrap());
}
