//! The evaluation scale that best predicts results (`data fit-scale`).
//!
//! The value learner's target blends a game's result with its recorded
//! evaluation read as an expected score, `1 / (1 + 10^(−cp/s))`
//! (`train value --eval-scale`). Which `s` is right depends on the engine
//! that wrote the evaluations: a scale too small makes a small edge look
//! won, one too large washes it out. The fit here is the classic one (the
//! "Texel" tuning of hand-written evaluations): the `s` whose expected scores
//! best explain the results of held-out positions, by mean cross-entropy,
//! a draw counting half a win.
//!
//! With `β = ln 10 / s` the model is logistic regression through the origin,
//! `P = σ(β · cp)`, whose loss is convex in `β`, so Newton's method from any
//! positive start finds the one minimum in a few steps.

use std::fmt;

use anyhow::ensure;

use crate::data::{Record, eval_cp};

/// The data a fit reads: each evaluated position's evaluation (centipawns,
/// White's view, as [`eval_cp`] clamps it) and its game's result for White
/// (1, ½ or 0).
#[derive(Clone, Debug, Default)]
pub struct ScaleSamples {
    samples: Vec<(f64, f64)>,
}

impl ScaleSamples {
    /// No samples yet.
    pub fn new() -> ScaleSamples {
        ScaleSamples::default()
    }

    /// The sample of `record`, its evaluation and its result, if it has both.
    pub fn sample_of(record: &Record) -> Option<(f64, f64)> {
        Some((eval_cp(record)?, record.result()?.white_score()))
    }

    /// Adds one evaluation (centipawns) and its result (0 to 1).
    pub fn push(&mut self, cp: f64, result: f64) {
        self.samples.push((cp, result));
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Mean cross-entropy of the results under scale `s` (centipawns).
    pub fn loss(&self, scale: f64) -> f64 {
        let beta = std::f64::consts::LN_10 / scale;
        let total: f64 = self
            .samples
            .iter()
            .map(|&(cp, y)| {
                // −[y ln σ(z) + (1 − y) ln σ(−z)] = softplus(z) − y·z, computed stably.
                let z = beta * cp;
                softplus(z) - y * z
            })
            .sum();
        total / self.samples.len() as f64
    }

    /// The scale that minimizes [`loss`](Self::loss).
    ///
    /// Fails when no fit exists: no samples, every evaluation 0, or results
    /// that the evaluations predict perfectly or backwards (the best scale is
    /// then 0 or negative, no expected score at all).
    pub fn fit(&self) -> anyhow::Result<ScaleFit> {
        ensure!(!self.is_empty(), "no position has both an evaluation and a result");
        ensure!(self.samples.iter().any(|&(cp, _)| cp != 0.0), "every evaluation is 0: no scale to fit");
        // Newton on β from the default 400 cp, each step halved until the
        // loss falls (the loss is convex, so a full step is rarely refused).
        let mut beta = std::f64::consts::LN_10 / 400.0;
        let loss_at = |beta: f64| self.loss(std::f64::consts::LN_10 / beta);
        let mut loss = loss_at(beta);
        let mut converged = false;
        for _ in 0..100 {
            let (mut gradient, mut curvature) = (0.0, 0.0);
            for &(cp, y) in &self.samples {
                let p = sigmoid(beta * cp);
                gradient += (p - y) * cp;
                curvature += p * (1.0 - p) * cp * cp;
            }
            let n = self.samples.len() as f64;
            let (gradient, curvature) = (gradient / n, curvature / n);
            ensure!(curvature > 0.0 && curvature.is_finite(), "the results fix no scale (the loss has no curvature)");
            let mut step = gradient / curvature;
            let mut next = beta - step;
            while !(next > 0.0 && loss_at(next) <= loss) && step.abs() > beta * 1e-12 {
                step /= 2.0;
                next = beta - step;
            }
            ensure!(next > 0.0, "the evaluations predict the results backwards: no positive scale fits");
            converged = (next - beta).abs() <= beta * 1e-9;
            beta = next;
            loss = loss_at(beta);
            if converged {
                break;
            }
        }
        // Results that the evaluations' signs predict perfectly push β to
        // infinity (the scale to 0) without converging.
        ensure!(converged && beta.is_finite(), "the results fix no scale: the evaluations' signs predict them all");
        let scale = std::f64::consts::LN_10 / beta;
        Ok(ScaleFit { scale, loss, positions: self.len() })
    }
}

/// A fitted scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleFit {
    /// `s`, centipawns: the expected score of an evaluation `cp` is
    /// `1 / (1 + 10^(−cp/s))`.
    pub scale: f64,
    /// Mean cross-entropy at `s` (nats).
    pub loss: f64,
    /// Positions fitted.
    pub positions: usize,
}

impl fmt::Display for ScaleFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s = {:.1} cp (mean cross-entropy {:.5}, {} positions)", self.scale, self.loss, self.positions)
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    if z > 0.0 { z + (-z).exp().ln_1p() } else { z.exp().ln_1p() }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Results drawn from a known scale, draws included.
    fn drawn(scale: f64, n: usize, seed: u64) -> ScaleSamples {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut samples = ScaleSamples::new();
        for _ in 0..n {
            let cp = rng.random_range(-800.0..800.0f64).round();
            let p = 1.0 / (1.0 + 10f64.powf(-cp / scale));
            // A draw a third of the time at an even score, fewer as it tilts:
            // the expected score stays p.
            let draw = (1.0 - (2.0 * p - 1.0).abs()) / 3.0;
            let u: f64 = rng.random();
            let y = if u < draw {
                0.5
            } else if u < draw + (p - draw / 2.0) {
                1.0
            } else {
                0.0
            };
            samples.push(cp, y);
        }
        samples
    }

    #[test]
    fn the_fit_finds_the_scale_that_drew_the_results() {
        for (scale, seed) in [(150.0, 1), (400.0, 2), (900.0, 3)] {
            let fit = drawn(scale, 200_000, seed).fit().unwrap();
            assert!((fit.scale / scale - 1.0).abs() < 0.05, "drawn at {scale}, fitted {fit}");
        }
    }

    #[test]
    fn the_fit_is_the_loss_minimum() {
        let samples = drawn(250.0, 20_000, 4);
        let fit = samples.fit().unwrap();
        assert!((samples.loss(fit.scale) - fit.loss).abs() < 1e-12);
        for factor in [0.9, 0.99, 1.01, 1.1] {
            assert!(samples.loss(fit.scale * factor) > fit.loss, "loss at {factor} × s is not above the fit's");
        }
    }

    #[test]
    fn impossible_fits_are_errors_not_panics() {
        assert!(ScaleSamples::new().fit().is_err());
        let mut zeros = ScaleSamples::new();
        zeros.push(0.0, 1.0);
        zeros.push(0.0, 0.0);
        assert!(zeros.fit().is_err());
        let mut backwards = ScaleSamples::new();
        for _ in 0..10 {
            backwards.push(300.0, 0.0);
            backwards.push(-300.0, 1.0);
        }
        assert!(backwards.fit().is_err());
        // Perfect prediction: the best scale is 0; the fit must say so, not loop or return nonsense.
        let mut perfect = ScaleSamples::new();
        for _ in 0..10 {
            perfect.push(300.0, 1.0);
            perfect.push(-300.0, 0.0);
        }
        assert!(perfect.fit().is_err());
    }
}
