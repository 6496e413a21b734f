//! `deepchess train utility`: a Bradley–Terry utility head on a trained
//! network's Pos2Vec tower, for the scalar search.
//!
//! The head is `u(x) = v · emb(x) + c`. The engine evaluates a position by
//! its symmetrized utility `s(x) = (u(x) − u(x̄)) / 2`, where `x̄` is the
//! colour mirror image (colours swapped, board flipped, the other side to
//! move), which is exactly as good for Black as `x` is for White. So
//! `s(x̄) = −s(x)`, a draw is exactly 0 and `c` cancels. The fit makes
//! `P(a better for White than b) = σ(s(a) − s(b))`.
//!
//! The tower is shared with the comparison head and frozen: the result is
//! one file with both heads, so the two searches play with the same network.
//! `v` is fitted on the integer embeddings the engine computes, by one of two
//! targets:
//!
//! - `results`: the paper's (W, L) pairs, labelled by the game results;
//! - `teacher`: the comparison head's soft outputs on the same pairs
//!   (distillation, with the tower shared);
//! - `evals`: not pairs but single positions, each labelled by the engine
//!   evaluation recorded in the game (as NNUE trainers label positions).
//!
//! With the tower frozen this is logistic regression over 100 features, a
//! convex problem that Newton's method solves exactly in a dozen steps; a
//! 100 × 100 Cholesky solve is a few lines, so no training framework is
//! involved.
//!
//! Last, the centipawn scale `k` (`cp = k · s`) is the least-squares fit
//! through the origin of the engine evaluations recorded in the games
//! (TCEC's `{ +0.80/39 }`, White's view) on `s`, over positions evaluated
//! within ±10 pawns.

use deepchess_core::arch::MAX_HIDDEN_WEIGHT;
use deepchess_core::{Embedding, FloatLayer, Network};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{Eval, PairSampler, Record, mix};

/// What the utility learns from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Game results: the position from the game White won is better.
    Results,
    /// The comparison head's probability that one position is better.
    Teacher,
    /// The engine evaluations recorded in the games, one position at a time:
    /// the target is `1 / (1 + 10^(−cp/400))` (mates 0 or 1), the expected
    /// score that the evaluation implies on the Elo scale.
    Evals,
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct UtilityOptions {
    /// The labels.
    pub target: Target,
    /// Training pairs.
    pub pairs: usize,
    /// Validation pairs scored at the end.
    pub val_pairs: usize,
    /// Newton steps.
    pub iterations: usize,
    /// L2 penalty per pair on `v`.
    pub l2: f64,
    /// Seed of the pairs.
    pub seed: u64,
}

impl Default for UtilityOptions {
    fn default() -> UtilityOptions {
        UtilityOptions {
            target: Target::Results,
            pairs: 400_000,
            val_pairs: 100_000,
            iterations: 12,
            l2: 1e-4,
            seed: 2016,
        }
    }
}

/// What the fit measured.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The objective on the training pairs after each Newton step: mean
    /// cross-entropy plus the L2 penalty.
    pub losses: Vec<f64>,
    /// Validation pairs ordered correctly by the float symmetrized utility.
    pub float_accuracy: f64,
    /// The same through the quantized head (the code that plays).
    pub quantized_accuracy: f64,
    /// The same by the plain utility `u(x)`, without its mirror image.
    pub one_sided_accuracy: f64,
    /// The same pairs through the comparison head, for reference (`None`
    /// for a network without one).
    pub comparison_accuracy: Option<f64>,
    /// Centipawns per unit of utility.
    pub cp_scale: f32,
    /// Evaluated positions the scale was fitted on.
    pub calibration_positions: usize,
    /// Correlation of the utility with the recorded evaluations.
    pub correlation: f64,
}

/// Fits a utility head on `net`'s tower and returns `net` with it attached.
pub fn fit(
    net: &Network,
    train: &[Record],
    val: &[Record],
    options: &UtilityOptions,
) -> anyhow::Result<(Network, FitReport)> {
    anyhow::ensure!(
        options.target == Target::Results || net.has_comparison(),
        "--target teacher needs a network with a comparison head"
    );
    anyhow::ensure!(
        !net.shape().is_perspective(),
        "a perspective network's utility head reads both views at once and is trained with it (`train value --perspective`)"
    );
    let width = net.shape().embedding();
    // Each position's embedding and its mirror image's.
    let embed = |records: &[Record]| -> (Vec<Embedding>, Vec<Embedding>) {
        records
            .iter()
            .map(|r| r.position().map_or((Embedding::ZERO, Embedding::ZERO), |pos| net.embed_with_mirror(&pos)))
            .unzip()
    };
    let (plain, mirrored) = embed(train);
    // (emb(x) − emb(x̄)) / 2, what v multiplies.
    let half_difference = |i: u32| difference(&plain[i as usize], &mirrored[i as usize], width, 2.0 * 127.0);

    let mut xs = Vec::with_capacity(options.pairs);
    let mut targets = Vec::with_capacity(options.pairs);
    if options.target == Target::Evals {
        // Single positions: x = d(x), target = the evaluation's expected score.
        let evaluated: Vec<u32> = (0..train.len() as u32).filter(|&i| train[i as usize].eval().is_some()).collect();
        let mut rng = SmallRng::seed_from_u64(mix(options.seed, 0xe7a1));
        for _ in 0..options.pairs.min(evaluated.len() * 4) {
            let i = evaluated[rng.random_range(0..evaluated.len())];
            xs.push(half_difference(i));
            targets.push(match train[i as usize].eval() {
                Some(Eval::Cp(cp)) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
                Some(Eval::Mate(moves)) => f64::from(u8::from(moves > 0)),
                None => 0.5,
            });
        }
    } else {
        // Pairs: x = d(W) − d(L), target = P(W is better).
        let sampler = PairSampler::new(train, options.seed);
        for (w, l) in sampler.epoch(0, options.pairs) {
            let (dw, dl) = (half_difference(w), half_difference(l));
            xs.push(dw.iter().zip(&dl).map(|(a, b)| a - b).collect::<Vec<f64>>());
            targets.push(match options.target {
                Target::Teacher => f64::from(net.compare(&plain[w as usize], &plain[l as usize])),
                _ => 1.0,
            });
        }
    }
    anyhow::ensure!(!xs.is_empty(), "no training examples: no decisive games on one side, or no evaluations");
    let (v, losses) = newton(&xs, &targets, width, options.l2, options.iterations);
    drop(xs);
    let dot = |e: &Embedding| -> f64 { v.iter().zip(e.values()).map(|(w, &x)| w * f64::from(x) / 127.0).sum() };
    let symmetric = |e: &Embedding, m: &Embedding| (dot(e) - dot(m)) / 2.0;

    // The centipawn scale, from the recorded evaluations.
    let (mut ss, mut sc, mut cc, mut n) = (0f64, 0f64, 0f64, 0usize);
    for ((record, e), m) in train.iter().zip(&plain).zip(&mirrored) {
        if let Some(Eval::Cp(cp)) = record.eval()
            && cp.abs() <= 1000
        {
            let (s, cp) = (symmetric(e, m), f64::from(cp));
            ss += s * s;
            sc += s * cp;
            cc += cp * cp;
            n += 1;
        }
    }
    anyhow::ensure!(n >= 100 && ss > 0.0, "too few positions with engine evaluations ({n}) to fit a centipawn scale");
    let cp_per_unit = sc / ss;
    anyhow::ensure!(cp_per_unit > 0.0, "the utility does not grow with the recorded evaluations (scale {cp_per_unit})");
    let correlation = sc / (ss.sqrt() * cc.sqrt());

    // Shrink the head into what i8 weights hold; the scale absorbs the factor.
    let largest = v.iter().fold(0f64, |m, w| m.max(w.abs()));
    let shrink = (largest / (0.95 * f64::from(MAX_HIDDEN_WEIGHT))).max(1.0);
    let mut layer = FloatLayer::zeros(width, 1);
    for (dst, w) in layer.weights_mut().iter_mut().zip(&v) {
        *dst = (w / shrink) as f32;
    }
    let cp_scale = (cp_per_unit * shrink) as f32;
    let fitted = net
        .clone()
        .with_utility(&layer, cp_scale)
        .ok_or_else(|| anyhow::anyhow!("centipawn scale {cp_scale} out of range"))?;

    // Validation: the paper's (W, L) pairs from held-out games.
    let (val_plain, val_mirrored) = embed(val);
    let val_sampler = PairSampler::new(val, options.seed ^ 1);
    let (mut float_ok, mut quantized_ok, mut comparison_ok, mut one_sided_ok, mut total) = (0, 0, 0, 0, 0usize);
    for (w, l) in val_sampler.epoch(0, options.val_pairs) {
        let (w, l) = (w as usize, l as usize);
        let (a, b) = (&val_plain[w], &val_plain[l]);
        let (am, bm) = (&val_mirrored[w], &val_mirrored[l]);
        float_ok += usize::from(symmetric(a, am) > symmetric(b, bm));
        one_sided_ok += usize::from(dot(a) > dot(b));
        quantized_ok += usize::from(fitted.utility_difference(a, am, 0) > fitted.utility_difference(b, bm, 0));
        comparison_ok += usize::from(net.compare_logit(a, b) > 0);
        total += 1;
    }
    let rate = |ok: usize| ok as f64 / total.max(1) as f64;
    let report = FitReport {
        losses,
        float_accuracy: rate(float_ok),
        quantized_accuracy: rate(quantized_ok),
        one_sided_accuracy: rate(one_sided_ok),
        comparison_accuracy: net.has_comparison().then(|| rate(comparison_ok)),
        cp_scale,
        calibration_positions: n,
        correlation,
    };
    Ok((fitted, report))
}

/// `(a − b) / divisor` over the embedding's width.
fn difference(a: &Embedding, b: &Embedding, width: usize, divisor: f64) -> Vec<f64> {
    a.values()[..width]
        .iter()
        .zip(&b.values()[..width])
        .map(|(&x, &y)| (f64::from(x) - f64::from(y)) / divisor)
        .collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Logistic regression without intercept by Newton's method: minimizes the
/// mean cross-entropy of `σ(v · x)` against `targets` plus `l2 · |v|²`.
/// Returns `v` and the objective (cross-entropy plus penalty) after each
/// step. (The cross-entropy alone can rise by a hair near the optimum, where
/// the penalty trades against it.)
fn newton(xs: &[Vec<f64>], targets: &[f64], width: usize, l2: f64, iterations: usize) -> (Vec<f64>, Vec<f64>) {
    let n = xs.len() as f64;
    let mut v = vec![0f64; width];
    let mut losses = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let mut gradient: Vec<f64> = v.iter().map(|w| 2.0 * l2 * w).collect();
        let mut hessian = vec![0f64; width * width];
        for i in 0..width {
            hessian[i * width + i] = 2.0 * l2;
        }
        for (x, &t) in xs.iter().zip(targets) {
            let s = sigmoid(dot(&v, x));
            let (g, h) = ((s - t) / n, (s * (1.0 - s)).max(1e-9) / n);
            for i in 0..width {
                gradient[i] += g * x[i];
                let hx = h * x[i];
                if hx != 0.0 {
                    for j in 0..=i {
                        hessian[i * width + j] += hx * x[j];
                    }
                }
            }
        }
        for i in 0..width {
            for j in 0..i {
                hessian[j * width + i] = hessian[i * width + j];
            }
        }
        let step = cholesky_solve(&hessian, &gradient, width);
        for (w, d) in v.iter_mut().zip(&step) {
            *w -= d;
        }
        let loss = xs
            .iter()
            .zip(targets)
            .map(|(x, &t)| {
                let z = dot(&v, x);
                // t·softplus(−z) + (1 − t)·softplus(z), computed stably.
                let softplus = |y: f64| if y > 0.0 { y + (-y).exp().ln_1p() } else { y.exp().ln_1p() };
                t * softplus(-z) + (1.0 - t) * softplus(z)
            })
            .sum::<f64>()
            / n;
        losses.push(loss + l2 * dot(&v, &v));
    }
    (v, losses)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `a · x = b` for a symmetric positive-definite `a` (`n × n`,
/// row-major) by Cholesky decomposition.
fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut l = vec![0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                l[i * n + i] = (a[i * n + i] - sum).max(1e-12).sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    let mut y = vec![0f64; n];
    for i in 0..n {
        let sum: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - sum) / l[i * n + i];
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - sum) / l[i * n + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_known_system() {
        // [[4, 2], [2, 3]] x = [2, 5] → x = [-0.5, 2].
        let x = cholesky_solve(&[4.0, 2.0, 2.0, 3.0], &[2.0, 5.0], 2);
        assert!((x[0] + 0.5).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn newton_recovers_a_logistic_model() {
        // Targets drawn from σ(2·x0 − x1): the fit finds the weights.
        let mut rng = SmallRng::seed_from_u64(7);
        let xs: Vec<Vec<f64>> =
            (0..20_000).map(|_| vec![rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)]).collect();
        let targets: Vec<f64> = xs.iter().map(|x| sigmoid(2.0 * x[0] - x[1])).collect();
        let (v, losses) = newton(&xs, &targets, 2, 0.0, 8);
        assert!((v[0] - 2.0).abs() < 1e-3 && (v[1] + 1.0).abs() < 1e-3, "{v:?}");
        assert!(losses.windows(2).all(|w| w[1] <= w[0] + 1e-12), "{losses:?}");
    }
}
