//! (W, L) pairs for the Siamese training: one position from a game White
//! won, one from a game Black won, drawn afresh every epoch.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::record::{GameResult, Record};
use crate::data::sampling::mix;

/// Draws random (W, L) pairs of record indices. With 10⁶ positions on each
/// side there are 10¹² possible pairs, so every epoch sees new ones (the
/// paper's protocol).
pub struct PairSampler {
    white_wins: Vec<u32>,
    black_wins: Vec<u32>,
    seed: u64,
}

impl PairSampler {
    /// Indexes the records by result.
    pub fn new(records: &[Record], seed: u64) -> PairSampler {
        let (mut white_wins, mut black_wins) = (Vec::new(), Vec::new());
        for (i, record) in records.iter().enumerate() {
            match record.result() {
                Some(GameResult::WhiteWins) => white_wins.push(i as u32),
                Some(GameResult::BlackWins) => black_wins.push(i as u32),
                _ => {}
            }
        }
        PairSampler { white_wins, black_wins, seed }
    }

    /// Positions from games White won.
    pub fn white_wins(&self) -> &[u32] {
        &self.white_wins
    }

    /// Positions from games Black won.
    pub fn black_wins(&self) -> &[u32] {
        &self.black_wins
    }

    /// `count` pairs `(w, l)` for `epoch`, the same for the same seed and
    /// epoch, different across epochs. Empty if either side has no position.
    pub fn epoch(&self, epoch: u64, count: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let mut rng = SmallRng::seed_from_u64(mix(self.seed, epoch));
        let count = if self.white_wins.is_empty() || self.black_wins.is_empty() { 0 } else { count };
        (0..count).map(move |_| {
            let w = self.white_wins[rng.random_range(0..self.white_wins.len())];
            let l = self.black_wins[rng.random_range(0..self.black_wins.len())];
            (w, l)
        })
    }
}
