//! What a training pair says: which of two positions is better for White,
//! and how surely. Three kinds of labels:
//!
//! - **results**, the paper's: a position from a game White won against one
//!   from a game Black won, label 1;
//! - **evals**: two positions whose engine evaluations differ by more than a
//!   margin, within one game or across games, labelled by that order;
//! - **blend**, as NNUE trainers mix game results with scores: a (W, L) pair
//!   labelled `λ · 1 + (1 − λ) · P(eval)`, where `P(eval) = 1 / (1 + 10^(−Δ/s))`
//!   for the evaluations' difference Δ in centipawns (the result alone where
//!   a side has no evaluation).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::pairs::{Pair, PairSampler};
use crate::data::record::{Eval, Record};
use crate::data::sampling::mix;

/// The kind of label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum Labels {
    /// (W, L) pairs from game results (the paper's).
    #[default]
    Results,
    /// Pairs ordered by engine evaluation.
    Evals,
    /// (W, L) pairs with a label blended from result and evaluations.
    Blend,
}

/// How pairs are drawn and labelled.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LabelOptions {
    /// The kind of label.
    pub labels: Labels,
    /// Evals: the least difference, in centipawns, for a pair.
    pub eval_margin_cp: f64,
    /// Evals: the share of pairs drawn within one game (the rest across games).
    pub within_game: f64,
    /// Blend: the weight λ of the game result.
    pub blend_lambda: f64,
    /// Blend: the scale `s`, centipawns, of `P(eval)` (400: a 400 cp lead is 10 to 1).
    pub eval_scale_cp: f64,
}

impl Default for LabelOptions {
    fn default() -> LabelOptions {
        LabelOptions {
            labels: Labels::Results,
            eval_margin_cp: 50.0,
            within_game: 0.5,
            blend_lambda: 0.5,
            eval_scale_cp: 400.0,
        }
    }
}

/// Evaluations beyond this are mates or lost causes: clamped, so that a mate
/// counts as a large lead, not an infinite one.
const MAX_CP: f64 = 2_000.0;

/// A record's evaluation in centipawns, White's view, clamped to ±`MAX_CP`.
pub fn eval_cp(record: &Record) -> Option<f64> {
    match record.eval()? {
        Eval::Cp(cp) => Some(f64::from(cp).clamp(-MAX_CP, MAX_CP)),
        Eval::Mate(moves) => Some(if moves > 0 { MAX_CP } else { -MAX_CP }),
    }
}

/// `P(a better than b)` from an evaluation difference, base-10 logistic with scale `scale`.
pub fn eval_probability(difference_cp: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-difference_cp / scale))
}

/// Draws labelled pairs from a split's records, afresh every epoch.
pub struct LabelSampler {
    options: LabelOptions,
    results: PairSampler,
    /// Records with an evaluation (evals and blend labels only).
    evaluated: Vec<u32>,
    /// For each entry of `evaluated`, the range of `evaluated` holding its game.
    game_of: Vec<(u32, u32)>,
    /// Every record's evaluation in centipawns, NaN for none (evals and blend labels only).
    all_cp: Vec<f32>,
    seed: u64,
}

impl LabelSampler {
    /// Indexes `records` (in a dataset's order: one game's records together).
    /// Results labels need no evaluations, so none are indexed for them.
    pub fn new(records: &[Record], options: LabelOptions, seed: u64) -> LabelSampler {
        let results = PairSampler::new(records, seed);
        let all_cp: Vec<f32> = match options.labels {
            Labels::Results => Vec::new(),
            Labels::Evals | Labels::Blend => {
                records.iter().map(|r| eval_cp(r).map_or(f32::NAN, |cp| cp as f32)).collect()
            }
        };
        let evaluated: Vec<u32> = (0..all_cp.len() as u32).filter(|&i| !all_cp[i as usize].is_nan()).collect();
        let mut game_of = vec![(0, 0); evaluated.len()];
        let mut start = 0;
        for end in 1..=evaluated.len() {
            let game = |k: usize| records[evaluated[k] as usize].game();
            if end == evaluated.len() || game(end) != game(start) {
                game_of[start..end].fill((start as u32, end as u32));
                start = end;
            }
        }
        LabelSampler { options, results, evaluated, game_of, all_cp, seed }
    }

    /// The (W, L) sampler underneath (for position sampling).
    pub fn results(&self) -> &PairSampler {
        &self.results
    }

    /// Records with an evaluation.
    pub fn evaluated(&self) -> usize {
        self.evaluated.len()
    }

    /// Whether an epoch can have any pair.
    pub fn can_draw(&self) -> bool {
        match self.options.labels {
            Labels::Results | Labels::Blend => {
                !self.results.white_wins().is_empty() && !self.results.black_wins().is_empty()
            }
            Labels::Evals => self.evaluated.len() >= 2,
        }
    }

    /// `count` pairs for `epoch`: the same for the same seed and epoch. With
    /// results and blend labels, the same pairs as the results' sampler.
    pub fn epoch(&self, epoch: u64, count: usize) -> Vec<Pair> {
        match self.options.labels {
            Labels::Results => {
                self.results.epoch(epoch, count).map(|(better, worse)| Pair::new(better, worse)).collect()
            }
            Labels::Blend => {
                let LabelOptions { blend_lambda: lambda, eval_scale_cp: scale, .. } = self.options;
                self.results
                    .epoch(epoch, count)
                    .map(|(better, worse)| {
                        let (a, b) = (self.all_cp[better as usize], self.all_cp[worse as usize]);
                        let label = if a.is_nan() || b.is_nan() {
                            1.0
                        } else {
                            lambda + (1.0 - lambda) * eval_probability(f64::from(a - b), scale)
                        };
                        Pair { label: label as f32, ..Pair::new(better, worse) }
                    })
                    .collect()
            }
            Labels::Evals => self.eval_pairs(epoch, count),
        }
    }

    fn eval_pairs(&self, epoch: u64, count: usize) -> Vec<Pair> {
        let n = self.evaluated.len();
        if n < 2 {
            return Vec::new();
        }
        let mut rng = SmallRng::seed_from_u64(mix(self.seed ^ 0xe7a1, epoch));
        let mut pairs = Vec::with_capacity(count);
        // A pair whose evaluations are too close is drawn again; a game
        // where every evaluation is close gives up after a few tries.
        let mut tries = 0usize;
        while pairs.len() < count && tries < 16 * count.max(1) {
            tries += 1;
            let i = rng.random_range(0..n);
            let j = if rng.random_bool(self.options.within_game.clamp(0.0, 1.0)) {
                let (start, end) = self.game_of[i];
                rng.random_range(start as usize..end as usize)
            } else {
                rng.random_range(0..n)
            };
            let cp = |k: usize| self.all_cp[self.evaluated[k] as usize];
            let difference = f64::from(cp(i) - cp(j));
            if difference.abs() <= self.options.eval_margin_cp {
                continue;
            }
            let (better, worse) = if difference > 0.0 { (i, j) } else { (j, i) };
            pairs.push(Pair::new(self.evaluated[better], self.evaluated[worse]));
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::record::GameResult;
    use deepchess_core::shakmaty::{Chess, Position};

    /// Records of `games` games, `per_game` each, evaluations `cp(game, i)` (None: no eval).
    fn records(games: u32, per_game: u32, cp: impl Fn(u32, u32) -> Option<i16>) -> Vec<Record> {
        let pos = Chess::default();
        let played = pos.legal_moves()[0];
        let mut out = Vec::new();
        for g in 0..games {
            let result = if g % 2 == 0 { GameResult::WhiteWins } else { GameResult::BlackWins };
            for i in 0..per_game {
                out.push(Record::new(&pos, played, 10 + i, result, cp(g, i).map(Eval::Cp), g));
            }
        }
        out
    }

    #[test]
    fn results_labels_are_the_paper_pairs() {
        let records = records(6, 5, |_, _| None);
        let sampler = LabelSampler::new(&records, LabelOptions::default(), 7);
        let pairs = sampler.epoch(3, 100);
        let plain: Vec<_> = PairSampler::new(&records, 7).epoch(3, 100).collect();
        assert_eq!(pairs.iter().map(|p| (p.better, p.worse)).collect::<Vec<_>>(), plain);
        assert!(pairs.iter().all(|p| p.label == 1.0));
        assert_ne!(sampler.epoch(4, 100), pairs, "fresh pairs every epoch");
    }

    #[test]
    fn eval_pairs_are_ordered_by_evaluation_beyond_the_margin() {
        // Game g, position i: (g * 7 + i * 13) % 90 * 10 − 400 cp; some without.
        let cp = |g: u32, i: u32| (i % 4 != 3).then(|| (((g * 7 + i * 13) % 90) * 10) as i16 - 400);
        let records = records(20, 12, cp);
        let options = LabelOptions { labels: Labels::Evals, eval_margin_cp: 100.0, ..LabelOptions::default() };
        let sampler = LabelSampler::new(&records, options, 1);
        assert_eq!(sampler.evaluated(), 20 * 9);
        let pairs = sampler.epoch(0, 2000);
        assert_eq!(pairs.len(), 2000);
        let value = |r: u32| eval_cp(&records[r as usize]).unwrap();
        assert!(pairs.iter().all(|p| value(p.better) - value(p.worse) > 100.0));
        let within = pairs.iter().filter(|p| records[p.better as usize].game() == records[p.worse as usize].game());
        let share = within.count() as f64 / pairs.len() as f64;
        assert!((0.4..0.65).contains(&share), "about half within a game: {share}");
        assert_eq!(sampler.epoch(0, 2000), pairs, "the same epoch, the same pairs");
    }

    #[test]
    fn blend_labels_mix_result_and_evaluation() {
        // White-won games evaluated +100, Black-won −100: a (W, L) pair differs by 200 cp.
        let records = records(4, 3, |g, _| Some(if g % 2 == 0 { 100 } else { -100 }));
        let options = LabelOptions { labels: Labels::Blend, blend_lambda: 0.25, ..LabelOptions::default() };
        let pairs = LabelSampler::new(&records, options, 3).epoch(0, 50);
        let expected = 0.25 + 0.75 * eval_probability(200.0, 400.0);
        assert!(pairs.iter().all(|p| (f64::from(p.label) - expected).abs() < 1e-6), "{expected}");
        assert!((eval_probability(400.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(eval_probability(0.0, 400.0), 0.5);

        // Without evaluations, the result alone.
        let plain = records_without_evals();
        let pairs = LabelSampler::new(&plain, options, 3).epoch(0, 10);
        assert!(pairs.iter().all(|p| p.label == 1.0));
    }

    fn records_without_evals() -> Vec<Record> {
        records(4, 3, |_, _| None)
    }

    #[test]
    fn mates_count_as_large_leads() {
        let pos = Chess::default();
        let played = pos.legal_moves()[0];
        let mate = Record::new(&pos, played, 10, GameResult::WhiteWins, Some(Eval::Mate(3)), 0);
        let mated = Record::new(&pos, played, 10, GameResult::BlackWins, Some(Eval::Mate(-2)), 1);
        assert_eq!(eval_cp(&mate), Some(MAX_CP));
        assert_eq!(eval_cp(&mated), Some(-MAX_CP));
    }
}
