//! Seeded random networks and positions, for tests, benchmarks and fuzzing
//! (feature `random`).

use alloc::vec::Vec;

use rand::{Rng, SeedableRng, rngs::SmallRng};
use shakmaty::{Chess, Move, Position};

use crate::arch::{MAX_FT_WEIGHT, MAX_HIDDEN_WEIGHT, PADDING, padded};
use crate::deepchess::float::{FloatLayer, FloatNetwork};
use crate::deepchess::shape::Shape;
use crate::kernels::{self, Kernel, scalar};

/// A float network of `shape` (with its utility head, if it has one) with
/// weights drawn uniformly from `±scale / sqrt(fan-in)`
/// (first layer: `±scale / sqrt(37)`, as at most 37 inputs are active) and
/// biases from `±0.1`, clipped to what quantization represents. With
/// `scale` near 1 the activations spread over the clipped ReLU's range, as
/// in a trained network.
pub fn network(shape: &Shape, scale: f32, seed: u64) -> FloatNetwork {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros(shape);
    let first_limit = scale / libm::sqrtf(crate::arch::MAX_ACTIVE as f32);
    for (i, layer) in net.tower_mut().iter_mut().enumerate() {
        let (limit, clip) = if i == 0 {
            (first_limit, MAX_FT_WEIGHT)
        } else {
            (scale / libm::sqrtf(layer.inputs() as f32), MAX_HIDDEN_WEIGHT)
        };
        fill(&mut rng, layer.weights_mut(), limit.min(clip));
        fill(&mut rng, layer.bias_mut(), 0.1);
    }
    // The utility head, if any, is drawn last, so the tower and the
    // comparison head are the same with or without it.
    let mut hidden = |layer: &mut FloatLayer| {
        let limit = (scale / libm::sqrtf(layer.inputs() as f32)).min(MAX_HIDDEN_WEIGHT);
        fill(&mut rng, layer.weights_mut(), limit);
        fill(&mut rng, layer.bias_mut(), 0.1);
    };
    net.head_mut().iter_mut().for_each(&mut hidden);
    if let Some(layer) = net.utility_layer_mut() {
        hidden(layer);
    }
    net
}

fn fill(rng: &mut SmallRng, values: &mut [f32], limit: f32) {
    for v in values {
        *v = rng.random_range(-limit..=limit);
    }
}

/// A game of random legal moves from the start, at most `plies` long;
/// returns every position with the move played from it (the last position
/// has none).
///
/// Where a castle, an en passant capture or a promotion is legal, one of them
/// is played half of the time, so that a few hundred games exercise every
/// kind of move many times; otherwise moves are uniform.
pub fn playout(plies: usize, seed: u64) -> Vec<(Chess, Option<Move>)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Chess::default();
    let mut game = Vec::with_capacity(plies + 1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_insufficient_material() {
            break;
        }
        let special: Vec<Move> =
            moves.iter().copied().filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion()).collect();
        let m = if !special.is_empty() && rng.random_bool(0.5) {
            special[rng.random_range(0..special.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        game.push((pos.clone(), Some(m)));
        pos.play_unchecked(m);
    }
    game.push((pos, None));
    game
}

/// Runs every operation of `kernel` against the scalar oracle on `rounds`
/// random inputs of random padded lengths, half of them extreme values
/// (wrapping `i16`, any `i32`, inputs of 0 and 127, weights of ±128).
/// Returns the names of the operations whose output differed; empty means
/// bit-exact. The wasm self-test runs this same check under node.
pub fn kernel_mismatches(kernel: Kernel, rounds: usize, seed: u64) -> Vec<&'static str> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut failed = Vec::new();
    let mut check = |name, same: bool| {
        if !same && !failed.contains(&name) {
            failed.push(name);
        }
    };
    for round in 0..rounds {
        let extreme = round % 2 == 0;
        let n = PADDING * rng.random_range(1..=20);
        let i16s = |rng: &mut SmallRng| -> Vec<i16> {
            (0..n).map(|_| if extreme { rng.random() } else { rng.random_range(-400..400) }).collect()
        };
        let (acc, row) = (i16s(&mut rng), i16s(&mut rng));
        let (mut expected, mut actual) = (acc.clone(), acc.clone());
        scalar::add_i16(&mut expected, &row);
        kernels::add_i16(kernel, &mut actual, &row);
        check("add_i16", expected == actual);
        scalar::sub_i16(&mut expected, &row);
        kernels::sub_i16(kernel, &mut actual, &row);
        check("sub_i16", expected == actual);
        let rows: Vec<Vec<i16>> = (0..rng.random_range(0..=6)).map(|_| i16s(&mut rng)).collect();
        let split = rng.random_range(0..=rows.len());
        let rows: Vec<&[i16]> = rows.iter().map(Vec::as_slice).collect();
        let (removed, added) = rows.split_at(split);
        scalar::update_i16(&acc, removed, added, &mut expected);
        kernels::update_i16(kernel, &acc, removed, added, &mut actual);
        check("update_i16", expected == actual);

        let (mut expected, mut actual) = (alloc::vec![0; n], alloc::vec![0; n]);
        scalar::crelu_i16(&acc, &mut expected);
        kernels::crelu_i16(kernel, &acc, &mut actual);
        check("crelu_i16", expected == actual);
        scalar::screlu_i16(&acc, &mut expected);
        kernels::screlu_i16(kernel, &acc, &mut actual);
        check("screlu_i16", expected == actual);

        let sums: Vec<i32> =
            (0..n).map(|_| if extreme { rng.random() } else { rng.random_range(-20_000..20_000) }).collect();
        scalar::crelu_i32(&sums, &mut expected);
        kernels::crelu_i32(kernel, &sums, &mut actual);
        check("crelu_i32", expected == actual);

        let outputs = rng.random_range(1..=70);
        // Every eighth round is the dot products' edge: inputs all at the
        // clipped ReLU's 127 and weights at i8's ends, so that a pair of
        // products reaches ±32,512, next to i16's limits.
        let edge = round % 8 == 0;
        let input: Vec<u8> = (0..n)
            .map(|_| match rng.random_range(0..4) {
                _ if edge => 127,
                0 => 0,
                1 => 127,
                _ => rng.random_range(0..=127),
            })
            .collect();
        // Rows to the padded width: the first `outputs` for `dense`, all of
        // them for the packed order (every kernel, AVX-512 with its own loop),
        // both against the oracle on the rows as they are.
        let rows = padded(outputs);
        let weights: Vec<i8> = (0..n * rows)
            .map(|_| if edge { [i8::MIN, i8::MAX][rng.random_range(0..2)] } else { rng.random() })
            .collect();
        let bias: Vec<i32> =
            (0..rows).map(|_| if extreme { rng.random() } else { rng.random_range(-100_000..100_000) }).collect();
        let (live, live_bias) = (&weights[..n * outputs], &bias[..outputs]);
        let (mut expected, mut actual) = (alloc::vec![0; outputs], alloc::vec![0; outputs]);
        scalar::dense(&input, live, live_bias, &mut expected);
        kernels::dense(kernel, &input, live, live_bias, &mut actual);
        check("dense", expected == actual);
        let (mut expected, mut actual) = (alloc::vec![0; rows], alloc::vec![0; rows]);
        scalar::dense(&input, &weights, &bias, &mut expected);
        kernels::dense_packed(kernel, &input, &kernels::pack_dense(&weights, n, rows), &bias, &mut actual);
        check("dense_packed", expected == actual);

        // f32: the learners' networks. Values of both signs and several
        // magnitudes, so that the summation order shows in the last bits.
        let f32s = |rng: &mut SmallRng, len: usize| -> Vec<f32> {
            (0..len).map(|_| rng.random_range(-1.0f32..1.0) * [1e-3, 1.0, 1e3][rng.random_range(0..3)]).collect()
        };
        let (acc, row) = (f32s(&mut rng, n), f32s(&mut rng, n));
        let (mut expected, mut actual) = (acc.clone(), acc.clone());
        scalar::add_f32(&mut expected, &row);
        kernels::add_f32(kernel, &mut actual, &row);
        check("add_f32", expected.iter().map(|v| v.to_bits()).eq(actual.iter().map(|v| v.to_bits())));
        let (input, weights, bias) = (f32s(&mut rng, n), f32s(&mut rng, n * outputs), f32s(&mut rng, outputs));
        let (mut expected, mut actual) = (alloc::vec![0f32; outputs], alloc::vec![0f32; outputs]);
        scalar::dense_f32(&input, &weights, &bias, &mut expected);
        kernels::dense_f32(kernel, &input, &weights, &bias, &mut actual);
        check("dense_f32", expected.iter().map(|v| v.to_bits()).eq(actual.iter().map(|v| v.to_bits())));

        // The convolutions' matrix product: 8 to 136 columns, so that both
        // the 64-column blocks and the 8-column rest run.
        let (columns, depth) = (8 * rng.random_range(1..=17), rng.random_range(1..=40));
        let (weights, cols, bias) =
            (f32s(&mut rng, outputs * depth), f32s(&mut rng, depth * columns), f32s(&mut rng, outputs));
        let (mut expected, mut actual) = (alloc::vec![0f32; outputs * columns], alloc::vec![0f32; outputs * columns]);
        scalar::gemm_f32(&weights, &cols, &bias, &mut expected);
        kernels::gemm_f32(kernel, &weights, &cols, &bias, &mut actual);
        check("gemm_f32", expected.iter().map(|v| v.to_bits()).eq(actual.iter().map(|v| v.to_bits())));
    }
    failed
}

/// A learner's network ([`crate::learned`]) of `input`, two hidden layers
/// (ReLU 40, sigmoid 33) and `output`, with weights uniform in ±0.5 from
/// `seed`: for tests of the `.dcsn` format, the kernels and the search.
pub fn learned_net(
    input: crate::learned::InputKind,
    output: crate::learned::OutputKind,
    seed: u64,
) -> crate::learned::LearnedNet {
    use crate::learned::{Activation, LearnedLayer, LearnedNet};
    let mut rng = SmallRng::seed_from_u64(seed);
    let widths = [input.inputs(), 40, 33, output.outputs()];
    let activations = [Activation::Relu, Activation::Sigmoid, Activation::Identity];
    let layers = widths
        .windows(2)
        .zip(activations)
        .map(|(w, activation)| {
            let mut layer = LearnedLayer::zeros(w[0], w[1], activation);
            layer.weights.iter_mut().chain(&mut layer.bias).for_each(|v| *v = rng.random_range(-0.5..0.5));
            layer
        })
        .collect();
    LearnedNet::new(input, layers, output, 250.0, alloc::string::String::from("random")).expect("a valid network")
}

/// An AlphaZero network ([`crate::alphazero::AzNet`]) of `blocks` residual
/// blocks of `filters` filters, with weights uniform in `±√(6 / fan-in)`
/// (He's bound, so that activations neither vanish nor explode through the
/// tower) and biases in `±0.1`, from `seed`: for tests of the `.dcaz`
/// format, the kernels, MCTS and the benchmarks.
pub fn az_net(blocks: usize, filters: usize, seed: u64) -> crate::alphazero::AzNet {
    use crate::alphazero::{AzLayers, AzNet, Conv};
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut layers = AzLayers::zeros(blocks, filters);
    let mut conv = |conv: &mut Conv| {
        let limit = libm::sqrtf(6.0 / (conv.inputs * conv.size * conv.size) as f32);
        conv.weights.iter_mut().for_each(|w| *w = rng.random_range(-limit..limit));
        conv.bias.iter_mut().for_each(|b| *b = rng.random_range(-0.1..0.1));
    };
    conv(&mut layers.input);
    layers.tower.iter_mut().flatten().for_each(&mut conv);
    for c in [&mut layers.policy_conv, &mut layers.policy_out, &mut layers.value_conv] {
        conv(c);
    }
    for dense in [&mut layers.value_hidden, &mut layers.value_out] {
        let limit = libm::sqrtf(6.0 / (dense.weights.len() / dense.bias.len()) as f32);
        dense.weights.iter_mut().for_each(|w| *w = rng.random_range(-limit..limit));
        dense.bias.iter_mut().for_each(|b| *b = rng.random_range(-0.1..0.1));
    }
    AzNet::new(layers, alloc::string::String::from("random")).expect("a valid network")
}
