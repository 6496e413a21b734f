//! The sequential probability ratio test over paired games, as engine
//! testers run it: the generalized SPRT on the pentanomial model in Michel
//! Van den Bergh's approximation, as fishtest computes it (`LLR_logistic`
//! and `LLR_alt2` in its `stat_util.py`). Each opening is played twice with
//! colours swapped, and the pair's points (0, ½, 1, 1½ or 2) are one
//! observation, which cancels most of the opening's bias.
//!
//! With `N` pairs, `pᵢ` the share of pairs with score `xᵢ = i / 4`
//! (points / 2), and `s₀`, `s₁` the expected scores under the two
//! hypotheses (logistic Elo: `s = 1 / (1 + 10^(−elo/400))`),
//!
//! `LLR = N / 2 · ln(r₀ / r₁)`, where `r = Σ pᵢ (xᵢ − s)²`,
//!
//! the second moment of the pair scores about each hypothesis's mean. As
//! fishtest does, a count of 0 is read as 0.001 (and `N` is the sum of the
//! counts so read), so that no moment is 0.
//!
//! (An earlier version used the older normal approximation, `N · (s₁ − s₀)
//! · (2m − s₀ − s₁) / (2σ²)` with the sample variance `σ²`: on a handful of
//! identical pairs `σ²` is the regularization alone, and one won pair
//! "decided" a match. The moments about `s₀` and `s₁` never vanish, so this
//! one needs the evidence a test should.)
//!
//! The test accepts H₁ (`elo ≥ elo1`) when the LLR reaches
//! `ln((1 − β) / α)` and H₀ (`elo ≤ elo0`) when it falls to `ln(β / (1 − α))`.

/// Pair outcomes, by the pair's points: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair of games by our points in them (each 0, ½ or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let index = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Each pair score (points / 2) with its share of the pairs, a count of
    /// 0 read as [`REGULARIZATION`]; and the total of the counts so read.
    fn distribution(&self) -> ([(f64, f64); 5], f64) {
        let counts = self.0.map(|c| f64::from(c).max(REGULARIZATION));
        let n: f64 = counts.iter().sum();
        let mut pdf = [(0.0, 0.0); 5];
        for (i, (slot, count)) in pdf.iter_mut().zip(counts).enumerate() {
            *slot = (i as f64 / 4.0, count / n);
        }
        (pdf, n)
    }
}

/// What a pair count of 0 is read as.
pub const REGULARIZATION: f64 = 0.001;

/// The expected score of a player `elo` logistic Elo stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A test of H₀: `elo ≤ elo0` against H₁: `elo ≥ elo1` (logistic Elo),
/// with error rates `alpha` (accepting H₁ wrongly) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H₀.
    pub elo0: f64,
    /// Elo under H₁.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H₁ accepted: at least `elo1`.
    H1,
    /// H₀ accepted: at most `elo0`.
    H0,
}

impl Sprt {
    /// `elo0,elo1` (for example `0,5`), with α = β = 0.05.
    pub fn parse(text: &str) -> anyhow::Result<Sprt> {
        let (a, b) = text.split_once(',').ok_or_else(|| anyhow::anyhow!("--sprt takes elo0,elo1, not {text:?}"))?;
        let (elo0, elo1): (f64, f64) = (a.trim().parse()?, b.trim().parse()?);
        anyhow::ensure!(elo0 < elo1 && elo0.is_finite() && elo1.is_finite(), "--sprt needs elo0 < elo1");
        Ok(Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 })
    }

    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H₁ against H₀ after `pairs` (0 before
    /// the first pair).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (pdf, n) = pairs.distribution();
        let moment = |s: f64| pdf.iter().map(|&(x, p)| p * (x - s).powi(2)).sum::<f64>();
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n / 2.0 * (moment(s0) / moment(s1)).ln()
    }

    /// What the test says after `pairs`.
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        let (lower, upper) = self.bounds();
        let llr = self.llr(pairs);
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The games of a paired match as they finish: game `2k` and `2k + 1`
/// share an opening. A pair counts once both are in, unless one of them was
/// the opponent's forfeit.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    /// Per game: `None` until it finishes, then our points, or `None`
    /// inside for an opponent's forfeit.
    games: Vec<Option<Option<f64>>>,
}

impl Pairs {
    /// A match of `games` games.
    pub fn new(games: usize) -> Pairs {
        Pairs { games: vec![None; games] }
    }

    /// Game `index` finished with our `points` (`None`: the opponent forfeited it).
    pub fn record(&mut self, index: usize, points: Option<f64>) {
        if let Some(slot) = self.games.get_mut(index) {
            *slot = Some(points);
        }
    }

    /// The pentanomial count of the finished, counted pairs.
    pub fn pentanomial(&self) -> Pentanomial {
        let mut counts = Pentanomial::default();
        for pair in self.games.chunks_exact(2) {
            if let [Some(Some(a)), Some(Some(b))] = pair {
                counts.add(*a, *b);
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 110 pairs: 10 lost both, 20 lost one and drew one, 40 even, 25 won
    /// one and drew one, 15 won both. By hand: m = (20·¼ + 40·½ + 25·¾ +
    /// 15) / 110 = 0.534091, σ² = Σ pᵢxᵢ² − m² = 0.366477 − 0.285253 =
    /// 0.081224; s₀ = 0.5, s₁ = 1 / (1 + 10^(−10/400)) = 0.514387;
    /// r₀ = σ² + (m − s₀)² = 0.0823862, r₁ = σ² + (m − s₁)² = 0.0816123;
    /// LLR = 110 / 2 · ln(r₀ / r₁) = 0.519123 (fishtest's `LLR_logistic`
    /// gives 0.5191227575 for the same counts).
    #[test]
    fn llr_matches_the_formula_by_hand() {
        let pairs = Pentanomial([10, 20, 40, 25, 15]);
        let sprt = Sprt::parse("0,10").unwrap();
        assert!((sprt.llr(&pairs) - 0.519_122_757_5).abs() < 1e-9, "{}", sprt.llr(&pairs));
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-9 && (upper - 2.944_438_979).abs() < 1e-9);
        assert_eq!(sprt.verdict(&pairs), Verdict::Continue);
        // Ten times the evidence crosses the upper bound (5.19); the mirror image the lower (−7.87).
        let more = Pentanomial(pairs.0.map(|c| c * 10));
        assert!((sprt.llr(&more) - 5.191_227_575_4).abs() < 1e-8);
        assert_eq!(sprt.verdict(&more), Verdict::H1);
        let mut mirror = more.0;
        mirror.reverse();
        assert!((sprt.llr(&Pentanomial(mirror)) + 7.873_861_697_1).abs() < 1e-8);
        assert_eq!(sprt.verdict(&Pentanomial(mirror)), Verdict::H0);
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut pairs = Pentanomial::default();
        for (a, b) in [(1.0, 1.0), (1.0, 0.5), (0.5, 0.5), (1.0, 0.0), (0.0, 0.5), (0.0, 0.0)] {
            pairs.add(a, b);
        }
        assert_eq!(pairs, Pentanomial([1, 1, 2, 1, 1]));
        assert_eq!(Sprt::parse("0,10").unwrap().llr(&Pentanomial::default()), 0.0);
        // A handful of pairs decides nothing: one pair won 1½–½ at 0,10 is
        // LLR 0.0589, two won outright at 0,5 are 0.0290 and two lost −0.0286
        // (fishtest's values), far inside ±2.94.
        assert!((Sprt::parse("0,10").unwrap().llr(&Pentanomial([0, 0, 0, 1, 0])) - 0.058_873_128_3).abs() < 1e-9);
        let sprt = Sprt::parse("0,5").unwrap();
        assert!((sprt.llr(&Pentanomial([0, 0, 0, 0, 2])) - 0.029_010_044_8).abs() < 1e-9);
        assert!((sprt.llr(&Pentanomial([2, 0, 0, 0, 0])) + 0.028_597_611_5).abs() < 1e-9);
        assert_eq!(sprt.verdict(&Pentanomial([0, 0, 0, 0, 2])), Verdict::Continue);
        assert_eq!(sprt.verdict(&Pentanomial([2, 0, 0, 0, 0])), Verdict::Continue);
        assert!(Sprt::parse("5").is_err() && Sprt::parse("5,0").is_err());

        let mut games = Pairs::new(6);
        games.record(0, Some(1.0));
        games.record(1, Some(0.5));
        games.record(2, Some(0.0));
        games.record(4, Some(1.0));
        games.record(5, None);
        assert_eq!(games.pentanomial(), Pentanomial([0, 0, 0, 1, 0]), "unfinished and forfeited pairs wait");
    }
}
