//! Checks every kind of value network passes (through the mirror, from
//! both perspectives, with output buckets): the SIMD kernels against the
//! scalar oracle, the search's incremental evaluation against one from
//! scratch, and the engine playing with it.

use deepchess_core::search::scalar::{Evaluator, NetEvaluator};
use deepchess_core::uci::UciEngine;
use deepchess_core::{Kernel, Network, Shape, seeded};
use shakmaty::{Chess, Position};

/// Every kernel this machine runs gives the scalar oracle's value of each
/// of `positions`.
pub fn assert_kernels_match_oracle(net: &Network, positions: &[Chess]) {
    let mut oracle = net.clone();
    assert!(oracle.set_kernel(Kernel::Scalar));
    let expected: Vec<_> = positions.iter().map(|p| oracle.value_difference(p)).collect();
    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
        let mut net = oracle.clone();
        assert!(net.set_kernel(kernel));
        let got: Vec<_> = positions.iter().map(|p| net.value_difference(p)).collect();
        assert!(got == expected, "{}: {} differs from the scalar oracle", net.shape(), kernel.name());
    }
}

/// [`assert_kernels_match_oracle`] on seeded 773-256-32 networks (the
/// default's width, so that every SIMD loop runs whole), through the mirror
/// and from both perspectives, each shape made the kind under test by
/// `kind` (output buckets, a squared first layer).
pub fn assert_wide_kernels_match_oracle(positions: &[Chess], kind: impl Fn(Shape) -> Shape) {
    for shape in [Shape::with_heads(&[773, 256, 32], &[], true), Shape::perspective(&[773, 256, 32])] {
        let shape = kind(shape.unwrap());
        assert_kernels_match_oracle(
            &Network::from_bytes(&seeded::network(&shape, 1.5, 7).to_bytes()).unwrap(),
            positions,
        );
    }
}

/// The scalar search's evaluator follows seeded games (`games` playouts of
/// `plies`) move by move with both accumulators, and, where `nulls`, a null
/// move at every seventh ply from the fourth; each position's evaluation
/// equals the network's from scratch.
pub fn assert_incremental_matches_scratch(net: &Network, games: u64, plies: usize, nulls: bool) {
    let mut evaluator = NetEvaluator::new(net.clone(), 0);
    let mut key = 0u64;
    for seed in 0..games {
        let game = seeded::playout(plies, seed);
        evaluator.set_root(&game[0].0);
        for (depth, (pos, m)) in game.iter().enumerate() {
            key += 1;
            let expected = net.evaluate_position(pos).unwrap();
            assert_eq!(evaluator.evaluate(pos, key), expected, "{}: seed {seed}, ply {depth}", net.shape());
            let Some(m) = m else { break };
            if nulls && !pos.is_check() && depth % 7 == 3 {
                let passed = pos.clone().swap_turn().unwrap();
                evaluator.push_null(pos);
                key += 1;
                assert_eq!(evaluator.evaluate(&passed, key), net.evaluate_position(&passed).unwrap());
                evaluator.pop();
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            evaluator.push(pos, *m, &after);
        }
    }
}

/// The engine plays a move with `net` in the scalar search and in MCTS.
pub fn assert_engine_plays(net: &Network) {
    for search in ["scalar", "mcts"] {
        let mut engine = UciEngine::new(Some(net.clone()));
        let out = super::uci::session(
            &mut engine,
            &[&format!("setoption name Search value {search}"), "position startpos moves e2e4", "go depth 4 nodes 400"],
        );
        let best = super::uci::bestmove(&out);
        assert!(best.len() >= 4 && best != "0000", "{search}: {out:?}");
    }
}
