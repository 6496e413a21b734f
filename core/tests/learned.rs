//! The learners' networks (`deepchess_core::learned`): the `.dcsn` format
//! round trip and its defects, the value against a plain reimplementation,
//! every kernel against the scalar oracle, the side-to-move encoding's
//! symmetry, and the scalar search playing with one.

mod common;

use deepchess_core::Kernel;
use deepchess_core::Search;
use deepchess_core::WeightsError;
use deepchess_core::learned::{Activation, InputKind, LEARNED_MAGIC, LearnedNet, OutputKind};
use deepchess_core::search::LearnedEvaluator;
use deepchess_core::search::{Event, Limits, ScalarSearch};
use deepchess_core::seeded::{learned_net, playout};
use shakmaty::{Chess, FromSetup, Position};

fn outputs() -> Vec<OutputKind> {
    vec![OutputKind::Linear, OutputKind::Tanh, OutputKind::Classes(vec![1.0, 0.0, -1.0])]
}

fn positions() -> Vec<Chess> {
    (0..6).flat_map(|seed| playout(60, seed).into_iter().map(|(pos, _)| pos).step_by(7)).collect()
}

/// The value computed the plainest way: dense products in `f64` over a
/// 0/1 input vector.
fn reference(net: &LearnedNet, pos: &Chess) -> f64 {
    let mut values = vec![0f64; net.input().inputs()];
    for i in net.input().active(pos) {
        values[usize::from(i)] = 1.0;
    }
    for layer in net.layers() {
        let mut out: Vec<f64> = layer
            .weights
            .chunks_exact(layer.inputs)
            .zip(&layer.bias)
            .map(|(row, b)| f64::from(*b) + row.iter().zip(&values).map(|(w, x)| f64::from(*w) * x).sum::<f64>())
            .collect();
        for v in &mut out {
            *v = match layer.activation {
                Activation::Identity => *v,
                Activation::Relu => v.max(0.0),
                Activation::Sigmoid => 1.0 / (1.0 + (-*v).exp()),
                Activation::Tanh => v.tanh(),
            };
        }
        values = out;
    }
    let value = match net.output() {
        OutputKind::Linear => values[0],
        OutputKind::Tanh => values[0].tanh(),
        OutputKind::Classes(classes) => {
            let total: f64 = values.iter().map(|v| v.exp()).sum();
            values.iter().zip(classes).map(|(v, c)| v.exp() / total * f64::from(*c)).sum()
        }
    };
    if net.input().is_relative() && pos.turn() == shakmaty::Color::Black { -value } else { value }
}

#[test]
fn values_match_a_plain_reimplementation_and_survive_the_file() {
    for (k, input) in InputKind::ALL.into_iter().enumerate() {
        for (j, output) in outputs().into_iter().enumerate() {
            let net = learned_net(input, output, (k * 3 + j) as u64);
            let bytes = net.to_bytes();
            assert_eq!(bytes[..4], LEARNED_MAGIC);
            let reread = LearnedNet::from_bytes(&bytes).unwrap();
            assert_eq!(reread.to_bytes(), bytes);
            for pos in positions() {
                let (a, b) = (net.white_value(&pos), reread.white_value(&pos));
                assert_eq!(a.to_bits(), b.to_bits());
                let expected = reference(&net, &pos);
                assert!((f64::from(a) - expected).abs() < 1e-4, "{input:?} {:?}: {a} against {expected}", net.output());
                let cp = net.evaluate(&pos);
                assert!((f64::from(cp) - expected * 250.0).abs() <= 1.0, "{cp} against {}", expected * 250.0);
            }
        }
    }
}

#[test]
fn every_kernel_gives_the_oracles_bits() {
    let net = learned_net(InputKind::SideToMove768, OutputKind::Classes(vec![1.0, 0.5, 0.0, -0.5, -1.0]), 9);
    let scalar = net.clone().with_kernel(Kernel::Scalar);
    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
        let other = net.clone().with_kernel(kernel);
        for pos in positions() {
            assert_eq!(other.white_value(&pos).to_bits(), scalar.white_value(&pos).to_bits(), "{kernel:?}");
        }
    }
}

#[test]
fn the_side_to_move_view_is_colour_symmetric() {
    // A position and its colour mirror image look the same to the side to
    // move, so their values for White are opposite.
    let net = learned_net(InputKind::SideToMove768, OutputKind::Linear, 4);
    for pos in positions() {
        let mut mirrored = pos.to_setup(shakmaty::EnPassantMode::Legal);
        mirrored.mirror();
        let Ok(mirror) = Chess::from_setup(mirrored, shakmaty::CastlingMode::Standard) else { continue };
        assert_eq!(net.white_value(&pos).to_bits(), (-net.white_value(&mirror)).to_bits());
    }
}

#[test]
fn damaged_files_are_typed_errors() {
    let bytes = learned_net(InputKind::Castling772, OutputKind::Tanh, 1).to_bytes();
    common::header_defects_are_typed_errors(&bytes, 1, b"DCNN", LearnedNet::from_bytes);
    // A width changed without the hash: the hash no longer matches.
    let mut width = bytes.clone();
    width[20] ^= 1;
    assert!(matches!(LearnedNet::from_bytes(&width), Err(WeightsError::ArchHashMismatch { .. })));
    // A weight that is not a number.
    let nan = common::last_weight_nan(&bytes);
    assert!(matches!(LearnedNet::from_bytes(&nan), Err(WeightsError::BadLearned { .. })));
}

#[test]
fn the_scalar_search_plays_with_a_learned_network() {
    let net = learned_net(InputKind::Pieces768, OutputKind::Linear, 2);
    let mut search = ScalarSearch::new(LearnedEvaluator::new(net, 1 << 20), 1 << 20);
    let pos = Chess::default();
    search.start(pos.clone(), &[], Limits { depth: Some(3), ..Limits::default() });
    while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
    let best = search.best_move().expect("a move");
    assert!(pos.is_legal(best));
    assert!(search.nodes() > 20);
}

#[test]
fn the_uci_engine_loads_and_plays_a_learned_network() {
    use deepchess_core::uci::UciEngine;
    let bytes = learned_net(InputKind::SideToMove768, OutputKind::Linear, 5).to_bytes();
    let mut engine = UciEngine::new(None);
    let mut out = Vec::new();
    engine.load_network(Ok(&bytes), "test.dcsn", &mut |l| out.push(l.to_string()));
    assert!(out[0].starts_with("info string loaded network test.dcsn: 768-stm-40-33-1"), "{out:?}");
    assert!(out[0].ends_with(" (plays scalar)"), "{out:?}");
    assert!(engine.learned_network().is_some() && engine.network().is_none());
    for line in ["position startpos moves e2e4", "go depth 3"] {
        engine.handle(line, 0, &mut |l| out.push(l.to_string()));
        while engine.is_thinking() {
            engine.think(1000, &|| 0, &mut |l| out.push(l.to_string()));
        }
    }
    let best = out.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    let pos = deepchess_core::uci::parse_game(None, &["e2e4".to_string()]).unwrap().0;
    assert!(pos.legal_moves().iter().any(|m| deepchess_core::uci::uci_move(*m).to_string() == best), "{best}");
    assert!(out.iter().any(|l| l.starts_with("info depth 3") && l.contains(" score cp ")), "{out:?}");
    // It has only the scalar search: asking for the comparison search says so, and it plays on.
    engine.handle("setoption name Search value comparison", 0, &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("info string error: a learner's network has no comparison head"));
    assert!(engine.learned_network().is_some());
    // A damaged file is refused with a message, and the network stays.
    engine.load_network(Ok(&bytes[..bytes.len() - 1]), "cut.dcsn", &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("info string error: cannot load network cut.dcsn"));
    assert!(engine.learned_network().is_some());
}
