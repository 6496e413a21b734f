//! Every float → integer step stays within its stated error bound, and the
//! whole quantized network stays close to the float reference.

use deepchess_core::arch::{ACT_SCALE, FT_SCALE, MAX_FT_WEIGHT, MAX_HIDDEN_WEIGHT, SUM_SCALE, WEIGHT_SCALE};
use deepchess_core::deepchess::float::crelu;
use deepchess_core::deepchess::quantize;
use deepchess_core::kernels::scalar;
use deepchess_core::{Features, Network, Shape, seeded};
use rand::{Rng, SeedableRng, rngs::SmallRng};

/// Slack for f32 arithmetic in the float reference itself.
const EPS: f32 = 1e-4;

#[test]
fn tensor_steps() {
    let mut rng = SmallRng::seed_from_u64(1);
    for _ in 0..100_000 {
        let w = rng.random_range(-MAX_FT_WEIGHT..MAX_FT_WEIGHT);
        let error = (f32::from(quantize::ft_weight(w)) / FT_SCALE as f32 - w).abs();
        assert!(error <= 0.5 / FT_SCALE as f32 + EPS * w.abs().max(1.0) * 1e-2, "ft {w}: {error}");

        let w = rng.random_range(-MAX_HIDDEN_WEIGHT..MAX_HIDDEN_WEIGHT);
        let error = (f32::from(quantize::hidden_weight(w)) / WEIGHT_SCALE as f32 - w).abs();
        assert!(error <= 0.5 / WEIGHT_SCALE as f32 + 1e-6, "hidden {w}: {error}");

        let b = rng.random_range(-50.0..50.0f32);
        let error = (quantize::hidden_bias(b) as f32 / SUM_SCALE as f32 - b).abs();
        assert!(error <= 0.5 / SUM_SCALE as f32 + 1e-5, "bias {b}: {error}");
    }
    // Out of range saturates; NaN is zero.
    assert_eq!(quantize::hidden_weight(5.0), 127);
    assert_eq!(quantize::hidden_weight(-5.0), -127);
    assert_eq!(quantize::ft_weight(1e9), i16::MAX);
    assert_eq!(quantize::ft_weight(f32::NAN), 0);
    assert_eq!(quantize::hidden_bias(f32::INFINITY), 1 << 30);
}

/// The first layer: each sum is off by at most half a step per active bit
/// plus half a step for the bias.
#[test]
fn first_layer_step() {
    for shape in [Shape::distilled(), Shape::full()] {
        let float = seeded::network(&shape, 1.0, 21);
        let net = Network::from_bytes(&float.to_bytes()).unwrap();
        for seed in 0..30 {
            for (pos, _) in seeded::playout(120, seed) {
                let features = Features::from_position(&pos);
                let bound = (features.len() as f32 + 1.0) * 0.5 / FT_SCALE as f32 + EPS;
                let exact = float.first_layer(&features);
                let acc = net.accumulator(&pos);
                for (q, f) in acc.values().iter().zip(&exact) {
                    let error = (f32::from(*q) / FT_SCALE as f32 - f).abs();
                    assert!(error <= bound, "{error} > {bound}");
                }
            }
        }
    }
}

/// A hidden layer, given the same quantized input: the sum is off by at most
/// `Σ x_i · 0.5/64 + 0.5/8128`; the activation then adds at most `0.5/127`.
#[test]
fn hidden_layer_step() {
    let mut rng = SmallRng::seed_from_u64(2);
    for _ in 0..2_000 {
        let (inputs, outputs) = (32 * rng.random_range(1..8), rng.random_range(1..64));
        let weights: Vec<f32> =
            (0..inputs * outputs).map(|_| rng.random_range(-MAX_HIDDEN_WEIGHT..MAX_HIDDEN_WEIGHT)).collect();
        let bias: Vec<f32> = (0..outputs).map(|_| rng.random_range(-2.0..2.0)).collect();
        let input: Vec<u8> = (0..inputs).map(|_| rng.random_range(0..=127)).collect();

        let qw: Vec<i8> = weights.iter().map(|&w| quantize::hidden_weight(w)).collect();
        let qb: Vec<i32> = bias.iter().map(|&b| quantize::hidden_bias(b)).collect();
        let mut sums = vec![0; outputs];
        scalar::dense(&input, &qw, &qb, &mut sums);

        let x: Vec<f32> = input.iter().map(|&v| f32::from(v) / ACT_SCALE as f32).collect();
        let bound = x.iter().sum::<f32>() * 0.5 / WEIGHT_SCALE as f32 + 0.5 / SUM_SCALE as f32 + EPS;
        let mut padded_sums = sums.clone();
        padded_sums.resize(outputs.div_ceil(32) * 32, 0);
        let mut act = vec![0; padded_sums.len()];
        scalar::crelu_i32(&padded_sums, &mut act);
        for o in 0..outputs {
            let exact = bias[o] + weights[o * inputs..(o + 1) * inputs].iter().zip(&x).map(|(w, x)| w * x).sum::<f32>();
            let error = (sums[o] as f32 / SUM_SCALE as f32 - exact).abs();
            assert!(error <= bound, "sum {error} > {bound}");
            let error = (f32::from(act[o]) / ACT_SCALE as f32 - crelu(exact)).abs();
            assert!(error <= bound + 0.5 / ACT_SCALE as f32, "activation {error}");
        }
    }
}

/// Weight scale of the random networks: large enough that activations do not
/// fade layer after layer, so the head's outputs spread. Larger weights
/// amplify the rounding of 8-bit activations (at 4.0 a distilled embedding
/// value can be off by 0.22); trained networks have smaller weights than this.
const SCALE: f32 = 2.0;

/// The stated bounds of the integer path against the float reference
/// (README, "Quantization"), per shape.
struct Bounds {
    /// Largest error of one embedding value (1.0 = the clip).
    worst_embedding: f32,
    /// Mean error of an embedding value.
    mean_embedding: f32,
    /// Largest error of `compare`; beyond 0.5 ± this, the order is exact.
    probability: f32,
}

/// Measured on random networks whose activations spread over the clipped
/// ReLU's range, and on positions from random games.
#[test]
fn whole_network_stays_close_to_float() {
    let cases = [
        (Shape::distilled(), 31, Bounds { worst_embedding: 0.15, mean_embedding: 0.012, probability: 0.03 }),
        (Shape::full(), 32, Bounds { worst_embedding: 0.22, mean_embedding: 0.025, probability: 0.045 }),
    ];
    for (shape, seed, bounds) in cases {
        let float = seeded::network(&shape, SCALE, seed);
        let net = Network::from_bytes(&float.to_bytes()).unwrap();
        let positions: Vec<_> = (0..40).flat_map(|s| seeded::playout(100, s)).map(|(p, _)| p).collect();
        let (mut worst_embedding, mut total_error, mut values, mut active) = (0f32, 0f32, 0usize, 0usize);
        let embeddings: Vec<_> = positions
            .iter()
            .map(|pos| {
                let f = float.embed(&Features::from_position(pos));
                let q = net.embed_position(pos);
                for (q, f) in q.values().iter().zip(&f) {
                    let error = (f32::from(*q) / ACT_SCALE as f32 - f).abs();
                    worst_embedding = worst_embedding.max(error);
                    total_error += error;
                    values += 1;
                    active += usize::from(*f > 0.0 && *f < 1.0);
                }
                (f, q)
            })
            .collect();
        let (mut worst_probability, mut spread) = (0f32, (1f32, 0f32));
        for pair in embeddings.windows(2) {
            let ((fa, qa), (fb, qb)) = (&pair[0], &pair[1]);
            let pf = float.compare(fa, fb);
            let pq = net.compare(qa, qb);
            spread = (spread.0.min(pf), spread.1.max(pf));
            worst_probability = worst_probability.max((pf - pq).abs());
            if (pf - 0.5).abs() > bounds.probability {
                assert_eq!(pf > 0.5, net.compare_logit(qa, qb) > 0, "{shape}: float {pf}, quantized {pq}");
            }
        }
        let mean_embedding = total_error / values as f32;
        println!(
            "{shape}: embedding error worst {worst_embedding}, mean {mean_embedding}; \
             probability error worst {worst_probability}; float probabilities {spread:?}"
        );
        // The random networks are not degenerate: many activations are inside
        // the clip, and probabilities spread.
        assert!(active > values / 3, "{active} of {values} activations inside the clip");
        assert!(spread.0 < 0.47 && spread.1 > 0.6, "probabilities only span {spread:?}");
        assert!(worst_embedding <= bounds.worst_embedding, "{shape}: embedding error {worst_embedding}");
        assert!(mean_embedding <= bounds.mean_embedding, "{shape}: mean embedding error {mean_embedding}");
        assert!(worst_probability <= bounds.probability, "{shape}: probability error {worst_probability}");
    }
}

/// The utility head, one step and whole. Per position, the integer head on
/// the integer embeddings differs from the float head on the same
/// (dequantized) embeddings by at most `Σ x · 0.5/64 + 0.5/8128`, as a hidden
/// sum does. The whole evaluation (both embeddings, the symmetrized utility,
/// the centipawn scale and its rounding) stays within what those bounds and
/// the measured embedding errors allow, and within the stated number of
/// centipawns: worst ≤ 10 cp at 100 cp per unit, mean ≤ 2 cp (measured:
/// 5.4 and 1.2).
#[test]
fn utility_head_stays_close_to_float() {
    let (worst, mean) = utility_errors(&Shape::distilled().with_utility(true).unwrap(), "utility");
    assert!(worst <= 10.0 && mean <= 2.0, "worst {worst}, mean {mean}");
}

/// The same bounds for a utility head with eight output buckets, each
/// position read at its own (measured: 4.1 and 1.0).
#[test]
fn bucketed_utility_head_stays_close_to_float() {
    let shape = Shape::distilled().with_utility(true).unwrap().with_buckets(8).unwrap();
    let (worst, mean) = utility_errors(&shape, "utility, 8 output buckets");
    assert!(worst <= 10.0 && mean <= 2.0, "worst {worst}, mean {mean}");
}

/// The worst and mean evaluation error, in centipawns, of a seeded network
/// of `shape` against its float reference over playout positions; each
/// position's error within the bound its quantization steps allow.
fn utility_errors(shape: &Shape, name: &str) -> (f64, f64) {
    let float = seeded::network(shape, SCALE, 33);
    let net = Network::from_bytes(&float.to_bytes()).unwrap();
    let layer = float.utility_layer().unwrap();
    let cp_scale = f64::from(float.cp_scale());
    let (mut worst, mut total, mut count) = (0f64, 0f64, 0usize);
    let mut buckets_seen = std::collections::BTreeSet::new();
    for pos in (0..40).flat_map(|s| seeded::playout(100, s)).map(|(p, _)| p) {
        let features = Features::from_position(&pos);
        let bucket = net.output_bucket(&pos);
        buckets_seen.insert(bucket);
        let row = &layer.weights()[bucket * layer.inputs()..(bucket + 1) * layer.inputs()];
        let sides = [features, features.mirrored()].map(|f| {
            let mut acc = net.accumulator(&pos);
            acc.refresh(&net, &f);
            (float.embed(&f), net.embed(&acc))
        });
        let mut allowed = 0.5; // the final rounding to whole centipawns
        let mut utilities = [(0f64, 0f64); 2];
        for (k, (f, q)) in sides.iter().enumerate() {
            let x: Vec<f32> = q.values()[..f.len()].iter().map(|&v| f32::from(v) / ACT_SCALE as f32).collect();
            let step = f64::from(layer.forward(&x)[bucket]);
            let integer = f64::from(net.utility_sum(q, bucket).unwrap()) / SUM_SCALE as f64;
            let step_bound = x.iter().map(|&v| f64::from(v) * 0.5 / 64.0).sum::<f64>() + 0.5 / 8128.0;
            assert!((integer - step).abs() <= step_bound + 1e-9, "utility step {integer} vs {step}");
            let propagated: f64 = row.iter().zip(f).zip(&x).map(|((w, f), x)| f64::from(w.abs() * (f - x).abs())).sum();
            allowed += cp_scale * (step_bound + propagated) / 2.0;
            utilities[k] = (f64::from(float.utility(f, bucket).unwrap()), integer);
        }
        let float_cp = cp_scale * (utilities[0].0 - utilities[1].0) / 2.0;
        let (q, m) = (&sides[0].1, &sides[1].1);
        let integer_cp = f64::from(net.evaluate(q, m, bucket).unwrap());
        assert_eq!(Some(integer_cp as i32), net.evaluate_position(&pos), "the whole evaluation from scratch");
        let error = (integer_cp - float_cp).abs();
        assert!(error <= allowed + 1e-6, "evaluation {integer_cp} vs float {float_cp}, allowed {allowed}");
        worst = worst.max(error);
        total += error;
        count += 1;
    }
    assert!(shape.buckets() == 1 || buckets_seen.len() >= 4, "{name}: buckets read {buckets_seen:?}");
    let mean = total / count as f64;
    println!("{name}: evaluation error worst {worst:.2} cp, mean {mean:.3} cp over {count} positions");
    (worst, mean)
}
