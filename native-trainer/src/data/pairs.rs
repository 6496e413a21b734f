//! (W, L) pairs for the Siamese training: one position from a game White
//! won, one from a game Black won, drawn afresh every epoch.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::record::{GameResult, Record};
use crate::data::sampling::mix;

/// A pair of records, the one type for training, validation and
/// evaluation: record `better` is better for White than record `worse`
/// with probability `label` (1 for a hard label; with the paper's labels
/// `better` is from a game White won and `worse` from a game Black won).
///
/// `swap` shows the pair to a network worse side first; `mirror` takes both
/// positions' colour mirror images. The mirror image of a position good for
/// White is good for Black, so a mirrored pair is (mirror(worse),
/// mirror(better)): it doubles the data and teaches the symmetry of chess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// The record labelled better for White.
    pub better: u32,
    /// The other record.
    pub worse: u32,
    /// The probability that `better` is the better one.
    pub label: f32,
    /// The (possibly mirrored) worse side comes first.
    pub swap: bool,
    /// Use the mirror images.
    pub mirror: bool,
}

impl Pair {
    /// A hard-labelled pair, better side first, not mirrored.
    pub fn new(better: u32, worse: u32) -> Pair {
        Pair { better, worse, label: 1.0, swap: false, mirror: false }
    }

    /// The records in the order a network sees them, each with whether it is
    /// mirrored: the side better for White (after mirroring) first, unless `swap`.
    pub fn ordered(&self) -> [(u32, bool); 2] {
        let sides = if self.mirror {
            [(self.worse, true), (self.better, true)]
        } else {
            [(self.better, false), (self.worse, false)]
        };
        if self.swap { [sides[1], sides[0]] } else { sides }
    }
}

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
