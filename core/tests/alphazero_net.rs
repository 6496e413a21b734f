//! The AlphaZero network in core: its convolutions against a direct
//! computation, every kernel against the scalar oracle, its file format,
//! and MCTS playing with it.

mod common;

use deepchess_core::alphazero::conv::{SQUARES, reference_forward};
use deepchess_core::alphazero::{AZ_MAGIC, AzNet, AzScratch, Conv, POLICY_SIZE, Planes, move_index};
use deepchess_core::search::{AzEvaluator, Mcts, PolicyValue, Puct};
use deepchess_core::seeded::{az_net, playout};
use deepchess_core::{Kernel, WeightsError};
use rand::{Rng, SeedableRng, rngs::SmallRng};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, Square};

fn random_conv(rng: &mut SmallRng, inputs: usize, outputs: usize, size: usize) -> Conv {
    let mut conv = Conv::zeros(inputs, outputs, size);
    conv.weights.iter_mut().chain(&mut conv.bias).for_each(|v| *v = rng.random_range(-1.0..1.0));
    conv
}

fn positions() -> Vec<Chess> {
    let mut positions = vec![Chess::default()];
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let setup: Fen = fen.parse().expect("a FEN");
        positions.push(setup.into_position(CastlingMode::Standard).expect("a legal position"));
    }
    positions.extend((0..4).map(|seed| playout(30, seed).pop().expect("a position").0));
    positions
}

#[test]
fn convolutions_equal_a_direct_computation() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (inputs, outputs, size) in [(22, 16, 3), (5, 3, 3), (16, 73, 1), (16, 1, 1), (1, 8, 3)] {
        let conv = random_conv(&mut rng, inputs, outputs, size);
        let input: Vec<f32> = (0..inputs * SQUARES).map(|_| rng.random_range(-1.0..1.0)).collect();
        let expected = reference_forward(&conv, &input);
        for kernel in Kernel::ALL.into_iter().filter(|k| k.is_supported()) {
            let (mut cols, mut out) = (Vec::new(), vec![0.0; outputs * SQUARES]);
            conv.forward(kernel, &input, &mut cols, &mut out);
            for (square, (&got, &want)) in out.iter().zip(&expected).enumerate() {
                // f32 sums of up to 198 products of magnitude ≤ 1.
                assert!(
                    (f64::from(got) - want).abs() < 1e-4,
                    "{kernel:?} {inputs}→{outputs} {size}×{size}: {got} vs {want} at {square}"
                );
            }
        }
    }
}

#[test]
fn a_plane_shifts_by_the_tap_it_meets() {
    // One input plane with a single one on d4 (square 27), and a 3 × 3 kernel
    // with a single one at tap (ky, kx): the output has its one at the square
    // whose tap reads d4, (rank − (ky − 1), file − (kx − 1)).
    for tap in 0..9 {
        let mut conv = Conv::zeros(1, 1, 3);
        conv.weights[tap] = 1.0;
        let mut input = vec![0.0; SQUARES];
        input[27] = 1.0;
        let (mut cols, mut out) = (Vec::new(), vec![0.0; SQUARES]);
        conv.forward(Kernel::Scalar, &input, &mut cols, &mut out);
        let (dy, dx) = (tap as i32 / 3 - 1, tap as i32 % 3 - 1);
        let square = ((3 - dy) * 8 + (3 - dx)) as usize;
        let ones: Vec<usize> = out.iter().enumerate().filter(|(_, v)| **v != 0.0).map(|(i, _)| i).collect();
        assert_eq!(ones, vec![square], "tap {tap}");
    }
}

#[test]
fn every_kernel_gives_the_oracles_bits() {
    let net = az_net(2, 16, 3);
    let scalar = net.clone().with_kernel(Kernel::Scalar);
    for kernel in Kernel::ALL.into_iter().filter(|k| *k != Kernel::Scalar && k.is_supported()) {
        let vector = net.clone().with_kernel(kernel);
        for pos in positions() {
            let planes = Planes::new(&pos, 0);
            let (a, b) = (
                scalar.evaluate(&planes, &mut AzScratch::default()),
                vector.evaluate(&planes, &mut AzScratch::default()),
            );
            assert_eq!(a.value.to_bits(), b.value.to_bits(), "{kernel:?}");
            assert!(a.logits.iter().zip(&b.logits).all(|(x, y)| x.to_bits() == y.to_bits()), "{kernel:?}");
        }
    }
}

#[test]
fn outputs_are_in_range_and_depend_on_the_position() {
    let net = az_net(2, 16, 4);
    let mut scratch = AzScratch::default();
    let outputs: Vec<_> = positions().iter().map(|pos| net.evaluate(&Planes::new(pos, 0), &mut scratch)).collect();
    for out in &outputs {
        assert!(out.value.abs() <= 1.0 && out.value.is_finite());
        assert_eq!(out.logits.len(), POLICY_SIZE);
        assert!(out.logits.iter().all(|l| l.is_finite()));
    }
    // A reused scratch gives what a fresh one gives.
    let again = net.evaluate(&Planes::new(&positions()[2], 0), &mut AzScratch::default());
    assert_eq!(again, outputs[2]);
    assert!(outputs.windows(2).any(|w| w[0].value != w[1].value));
}

#[test]
fn policy_logits_reach_the_moves_by_their_index() {
    // A network whose policy is its output bias alone: kind 1 (north, two
    // squares) gets logit 5 everywhere, every other kind 0. From the start,
    // the eight double pawn pushes share the largest prior.
    let mut layers = az_net(1, 8, 5).layers().clone();
    layers.policy_out.weights.fill(0.0);
    layers.policy_out.bias.fill(0.0);
    layers.policy_out.bias[1] = 5.0;
    let mut evaluator = AzEvaluator::new(AzNet::new(layers, String::new()).expect("valid"));
    let pos = Chess::default();
    let moves = pos.legal_moves();
    let mut priors = Vec::new();
    evaluator.evaluate(&pos, 0, &moves, &mut priors);
    assert_eq!(priors.len(), moves.len());
    for (m, p) in moves.iter().zip(&priors) {
        let double = move_index(&pos, m) % 73 == 1;
        let want = if double { 1.0 } else { (-5.0f32).exp() };
        assert!((p - want).abs() < 1e-7, "{m}: {p}");
    }
    // Black's double pushes are north in Black's view too.
    let mut black = pos.clone();
    black.play_unchecked(*moves.iter().find(|m| m.to() == Square::A3).expect("a2a3"));
    let moves = black.legal_moves();
    priors.clear();
    evaluator.evaluate(&black, 0, &moves, &mut priors);
    let mut top: Vec<Square> = moves.iter().zip(&priors).filter(|(_, p)| **p == 1.0).map(|(m, _)| m.to()).collect();
    top.sort();
    assert_eq!(top, [Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5]);
}

#[test]
fn the_file_keeps_every_bit_and_damage_is_a_typed_error() {
    let net = az_net(1, 8, 6);
    let bytes = net.to_bytes();
    assert_eq!(&bytes[..4], &AZ_MAGIC);
    let back = AzNet::from_bytes(&bytes).expect("reads back");
    assert_eq!(back.layers(), net.layers());
    assert_eq!(back.to_bytes(), bytes);
    let planes = Planes::new(&Chess::default(), 0);
    assert_eq!(back.evaluate(&planes, &mut AzScratch::default()), net.evaluate(&planes, &mut AzScratch::default()));

    common::header_defects_are_typed_errors(&bytes, 97, b"DCSN", AzNet::from_bytes);
    // Filters changed without the hash.
    let mut filters = bytes.clone();
    filters[16] = 64;
    assert!(matches!(AzNet::from_bytes(&filters), Err(WeightsError::ArchHashMismatch { .. })));
    // A huge network claimed with a matching hash: an error, not an allocation.
    let mut huge = bytes[..24].to_vec();
    huge[8..12].copy_from_slice(&deepchess_core::arch::az_arch_hash(40, 512).to_le_bytes());
    huge[12..16].copy_from_slice(&40u32.to_le_bytes());
    huge[16..20].copy_from_slice(&512u32.to_le_bytes());
    huge.extend_from_slice(&0u32.to_le_bytes());
    assert!(matches!(AzNet::from_bytes(&huge), Err(WeightsError::Truncated { .. })));
    let nan = common::last_weight_nan(&bytes);
    assert!(matches!(AzNet::from_bytes(&nan), Err(WeightsError::BadAlphaZero { .. })));
}

#[test]
fn mcts_plays_a_legal_move_with_the_network() {
    let mut evaluator = AzEvaluator::new(az_net(1, 8, 8));
    for pos in positions() {
        let mut tree = Mcts::new(pos.clone(), Vec::new(), Puct::default());
        tree.run(&mut evaluator, 200);
        let best = tree.best_move().expect("a move");
        assert!(pos.is_legal(best));
        let visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
        assert!(visits >= 199, "{visits}");
    }
    assert!(evaluator.evaluations() > 0);
}

#[test]
fn the_uci_engine_loads_and_plays_an_alphazero_network_by_mcts() {
    use deepchess_core::uci::{UciEngine, parse_game, uci_move};
    let bytes = az_net(1, 8, 9).to_bytes();
    let mut engine = UciEngine::new(None);
    let mut out = Vec::new();
    engine.load_network(Ok(&bytes), "test.dcaz", &mut |l| out.push(l.to_string()));
    assert_eq!(out, ["info string loaded network test.dcaz: AlphaZero 1 blocks × 8 filters (plays mcts)"]);
    assert!(engine.az_network().is_some() && engine.network().is_none() && engine.learned_network().is_none());
    for line in ["position startpos moves e2e4", "go nodes 300"] {
        engine.handle(line, 0, &mut |l| out.push(l.to_string()));
        while engine.is_thinking() {
            engine.think(1000, &|| 0, &mut |l| out.push(l.to_string()));
        }
    }
    let best = out.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    let pos = parse_game(None, &["e2e4".to_string()]).unwrap().0;
    assert!(pos.legal_moves().iter().any(|m| uci_move(*m).to_string() == best), "{best}");
    let last = out.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(last.contains(" nodes 300 ") && last.contains(" score cp "), "{last}");
    // It has no alpha-beta evaluation: asking for one says so, and it plays on.
    engine.handle("setoption name Engine value alphabeta", 0, &mut |l| out.push(l.to_string()));
    assert_eq!(out.last().unwrap(), "info string error: the AlphaZero network plays only with MCTS");
    assert!(engine.az_network().is_some());
    // A damaged file is refused with a message, and the network stays.
    engine.load_network(Ok(&bytes[..bytes.len() - 1]), "cut.dcaz", &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("info string error: cannot load network cut.dcaz"));
    assert!(engine.az_network().is_some());
}

/// A host's slice of 2,048 alpha-beta nodes is a few MCTS playouts, each
/// counted in alpha-beta nodes' network arithmetic, so that `stop` waits
/// milliseconds, not seconds: over the utility head a playout costs the
/// positions it evaluates (36 before any is counted), with the AlphaZero
/// network its convolutions' multiply-adds over an alpha-beta node's
/// (one playout a slice at the shipped 6 × 64 and the reimplementation's 19 × 256, 256
/// at the tests' 1 × 8); and a `go infinite` slice searches no more.
#[test]
fn a_slice_is_a_few_playouts_with_the_alphazero_network() {
    use deepchess_core::search::mcts::{NODE_MULTIPLY_ADDS, PolicyValue, UtilityEvaluator};
    use deepchess_core::search::{SearchChoice, SearchKind, build, slice_nodes};
    use deepchess_core::shakmaty::{Chess, Position};
    use deepchess_core::uci::UciEngine;
    use deepchess_core::{Search, Weights};
    let shape = deepchess_core::Shape::distilled().with_utility(true).unwrap();
    let net = deepchess_core::Network::from_bytes(&deepchess_core::seeded::network(&shape, 2.0, 5).to_bytes()).unwrap();
    let slice = |search: Box<dyn Search>| slice_nodes(search.as_ref(), 2048);
    let choice = |mcts| SearchChoice::of(if mcts { SearchKind::Mcts } else { SearchKind::Scalar });
    assert_eq!(slice(build(&Weights::DeepChess(net.clone()), choice(false), 1)), 2048);
    assert_eq!(slice(build(&Weights::DeepChess(net.clone()), choice(true), 1)), 2048 / 36);
    let convolutions = |blocks: u64, filters: u64| (2 * blocks + 2) * filters * filters * 9 * 64 / NODE_MULTIPLY_ADDS;
    assert_eq!(convolutions(6, 64), 1_839);
    assert_eq!(slice(build(&Weights::AlphaZero(az_net(6, 64, 1)), choice(true), 1)), 1);
    assert_eq!(slice(build(&Weights::AlphaZero(az_net(19, 256, 1)), choice(true), 1)), 1);
    assert_eq!(slice(build(&Weights::AlphaZero(az_net(1, 8, 1)), choice(true), 1)), 2048 / convolutions(1, 8));
    assert_eq!(convolutions(1, 8), 8);

    // The utility head's playouts cost what they evaluate: the start
    // position and its 20 children, then a king with 3 moves and its
    // children (the mean of 21 and 4).
    let mut utility = UtilityEvaluator::new(net);
    let mut priors = Vec::new();
    let start = Chess::default();
    utility.evaluate(&start, 0, &start.legal_moves(), &mut priors);
    assert_eq!(utility.playout_cost(), 21);
    let cornered: Chess =
        "7k/8/8/8/8/8/8/K7 w - - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    let moves = cornered.legal_moves();
    assert_eq!(moves.len(), 3);
    utility.evaluate(&cornered, 0, &moves, &mut priors);
    assert_eq!(utility.playout_cost(), (21 + 4) / 2);

    let mut engine = UciEngine::new(None);
    let mut out = Vec::new();
    engine.load_network(Ok(&az_net(6, 64, 2).to_bytes()), "shipped-size.dcaz", &mut |l| out.push(l.to_string()));
    engine.handle("position startpos", 0, &mut |l| out.push(l.to_string()));
    engine.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    for _ in 0..100 {
        engine.think(2048, &|| 0, &mut |l| out.push(l.to_string()));
    }
    engine.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    // 100 slices of one playout: the line at 64 playouts came, the one at
    // 128 did not.
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 1, "{out:?}");
    assert!(infos[0].contains(" nodes 64 "), "{out:?}");
}

/// The CPU reference of the batch layout: each leaf's value, then each
/// leaf's logits as `[kind][square]`, equal to a one-at-a-time evaluation.
#[test]
fn leaf_outputs_are_the_networks_laid_out_by_the_batch() {
    use deepchess_core::alphazero::{PLANES, evaluate_leaves, outputs_len};
    let net = az_net(1, 8, 11);
    let planes: Vec<Planes> = positions().iter().enumerate().map(|(i, p)| Planes::new(p, i % 3)).collect();
    let flat: Vec<f32> = planes.iter().flat_map(|p| p.values().to_vec()).collect();
    let outputs = evaluate_leaves(&net, &flat).expect("whole positions");
    assert_eq!(outputs.len(), outputs_len(planes.len()));
    for (i, p) in planes.iter().enumerate() {
        let one = net.evaluate(p, &mut AzScratch::default());
        assert_eq!(outputs[i], one.value);
        let policy = &outputs[planes.len() + i * POLICY_SIZE..][..POLICY_SIZE];
        for (index, &logit) in one.logits.iter().enumerate() {
            assert_eq!(policy[(index % 73) * SQUARES + index / 73], logit, "leaf {i}, index {index}");
        }
    }
    assert!(evaluate_leaves(&net, &flat[..PLANES * SQUARES + 1]).is_none());
    assert_eq!(evaluate_leaves(&net, &[]), Some(vec![]));
}

/// MCTS by batches through the UCI engine, as the browser worker runs it
/// with WebGPU: `go nodes` gives exactly its playouts, the reports and a
/// legal move; `stop` with a batch in flight answers at once and the late
/// outputs are ignored; bad outputs are an error line, not a panic.
#[test]
fn the_uci_engine_searches_by_batches_of_leaves() {
    use deepchess_core::alphazero::evaluate_leaves;
    use deepchess_core::uci::{UciEngine, parse_game, uci_move};
    let net = az_net(1, 8, 12);
    let mut engine = UciEngine::new(None);
    let mut out = Vec::new();
    engine.load_network(Ok(&net.to_bytes()), "test.dcaz", &mut |l| out.push(l.to_string()));
    assert_eq!(engine.gather_leaves(32), None, "no search runs");
    engine.handle("position startpos moves e2e4", 0, &mut |l| out.push(l.to_string()));
    engine.handle("go nodes 300", 0, &mut |l| out.push(l.to_string()));
    let mut batches = Vec::new();
    while engine.is_thinking() {
        let planes = engine.gather_leaves(32).expect("a batch");
        assert_eq!(engine.gather_leaves(32), None, "one batch at a time");
        batches.push(engine.leaves_in_flight());
        let outputs = evaluate_leaves(&net, &planes).unwrap();
        engine.apply_leaves(&outputs, &|| 0, &mut |l| out.push(l.to_string()));
    }
    assert_eq!(batches[0], 1, "{batches:?}");
    assert!(batches.len() < 40, "{batches:?}");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4, "reports at 64, 128, 256 and 300 playouts: {out:?}");
    assert!(infos[3].contains(" nodes 300 ") && infos[3].contains(" score cp "), "{out:?}");
    let best = out.last().unwrap().strip_prefix("bestmove ").expect("bestmove last");
    let pos = parse_game(None, &["e2e4".to_string()]).unwrap().0;
    assert!(pos.legal_moves().iter().any(|m| uci_move(*m).to_string() == best), "{best}");

    // `stop` with a batch in flight.
    out.clear();
    engine.handle("go infinite", 0, &mut |l| out.push(l.to_string()));
    for _ in 0..5 {
        let planes = engine.gather_leaves(32).unwrap();
        engine.apply_leaves(&evaluate_leaves(&net, &planes).unwrap(), &|| 0, &mut |l| out.push(l.to_string()));
    }
    let late = evaluate_leaves(&net, &engine.gather_leaves(32).unwrap()).unwrap();
    assert!(engine.leaves_in_flight() > 1);
    engine.handle("stop", 0, &mut |l| out.push(l.to_string()));
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    assert_eq!(engine.leaves_in_flight(), 0);
    let seen = out.len();
    engine.apply_leaves(&late, &|| 0, &mut |l| out.push(l.to_string()));
    assert_eq!(out.len(), seen, "late outputs are ignored: {out:?}");
    assert!(!engine.is_thinking());

    // Outputs of the wrong length: an error, the batch back, the search on.
    out.clear();
    engine.handle("go nodes 100", 0, &mut |l| out.push(l.to_string()));
    engine.gather_leaves(8).unwrap();
    engine.apply_leaves(&[0.5; 3], &|| 0, &mut |l| out.push(l.to_string()));
    assert_eq!(out.last().unwrap(), "info string error: 3 outputs for a batch of 1 leaves (expected 4673)");
    assert_eq!(engine.leaves_in_flight(), 0);
    while engine.is_thinking() {
        engine.think(2048, &|| 0, &mut |l| out.push(l.to_string()));
    }
    assert!(out.iter().any(|l| l.contains(" nodes 100 ")) && out.last().unwrap().starts_with("bestmove "), "{out:?}");

    // A time limit ends a batched search too.
    out.clear();
    let clock = std::cell::Cell::new(0);
    engine.handle("go movetime 50", 0, &mut |l| out.push(l.to_string()));
    while engine.is_thinking() {
        let planes = engine.gather_leaves(16).unwrap();
        clock.set(clock.get() + 10);
        engine
            .apply_leaves(&evaluate_leaves(&net, &planes).unwrap(), &|| clock.get(), &mut |l| out.push(l.to_string()));
        assert!(clock.get() < 1000, "{out:?}");
    }
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}
