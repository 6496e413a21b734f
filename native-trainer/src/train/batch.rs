//! Turning records into tensors.

use burn::tensor::{Device, Int, Tensor, TensorData};
use deepchess_core::Features;
use deepchess_core::arch::{INPUTS, MAX_ACTIVE};

use crate::data::Record;
use crate::train::model::{PAD_INDEX, Positions};

/// Every record's active bits, encoded once.
pub struct Encoded {
    features: Vec<Features>,
}

impl Encoded {
    /// Encodes `records` (a damaged record becomes an empty position).
    pub fn new(records: &[Record]) -> Encoded {
        let features = records
            .iter()
            .map(|r| {
                r.position()
                    .map_or_else(|| Features::from_position(&Default::default()), |p| Features::from_position(&p))
            })
            .collect();
        Encoded { features }
    }

    /// Positions `indices` as a batch; `true` takes a position's mirror
    /// image (colours swapped, board flipped).
    pub fn batch(&self, indices: impl Iterator<Item = (u32, bool)>, device: &Device) -> Positions {
        let mut bits = Vec::new();
        let mut mask = Vec::new();
        let mut batch = 0;
        for (i, mirror) in indices {
            let features = &self.features[i as usize];
            let mirrored;
            let features = if mirror {
                mirrored = features.mirrored();
                mirrored.as_slice()
            } else {
                features.as_slice()
            };
            bits.extend(features.iter().map(|&b| i64::from(b)));
            bits.extend(std::iter::repeat_n(PAD_INDEX, MAX_ACTIVE - features.len()));
            mask.extend(std::iter::repeat_n(1.0f32, features.len()));
            mask.extend(std::iter::repeat_n(0.0f32, MAX_ACTIVE - features.len()));
            batch += 1;
        }
        Positions {
            indices: Tensor::<2, Int>::from_data(TensorData::new(bits, [batch, MAX_ACTIVE]), device),
            mask: Tensor::<3>::from_data(TensorData::new(mask, [batch, MAX_ACTIVE, 1]), device),
        }
    }
}

impl Encoded {
    /// Positions `indices` as dense 773-wide 0/1 rows: what the first
    /// autoencoder reconstructs.
    pub fn dense(&self, indices: &[u32], device: &Device) -> Tensor<2> {
        let mut bits = vec![0f32; indices.len() * INPUTS];
        for (row, &i) in bits.chunks_exact_mut(INPUTS).zip(indices) {
            for &bit in self.features[i as usize].as_slice() {
                row[usize::from(bit)] = 1.0;
            }
        }
        Tensor::<2>::from_data(TensorData::new(bits, [indices.len(), INPUTS]), device)
    }
}

/// A batch of ordered pairs and their labels.
pub struct PairBatch {
    /// First positions.
    pub first: Positions,
    /// Second positions.
    pub second: Positions,
    /// One-hot labels `[batch, 2]`: class 0 when the first is the White win.
    pub target: Tensor<2>,
    /// The class of each pair.
    pub classes: Vec<u8>,
}

/// A training pair: a White-win and a Black-win record, whether the
/// Black-win side comes first, and whether the pair is mirrored.
///
/// Mirroring swaps the colours: the mirror of a Black-win position is a
/// White-win position and the other way round, so a mirrored pair is
/// (mirror(L), mirror(W)). It doubles the data and teaches the symmetry of
/// chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainPair {
    /// Record from a game White won.
    pub white_win: u32,
    /// Record from a game Black won.
    pub black_win: u32,
    /// The (possibly mirrored) Black-win side comes first.
    pub swap: bool,
    /// Use the mirror images.
    pub mirror: bool,
}

/// Orders each pair and builds the tensors.
pub fn pair_batch(encoded: &Encoded, pairs: &[TrainPair], device: &Device) -> PairBatch {
    // The White-win side of the pair as given to the network, then the Black-win side.
    let sides = |p: &TrainPair| {
        if p.mirror { ((p.black_win, true), (p.white_win, true)) } else { ((p.white_win, false), (p.black_win, false)) }
    };
    let first = encoded.batch(pairs.iter().map(|p| if p.swap { sides(p).1 } else { sides(p).0 }), device);
    let second = encoded.batch(pairs.iter().map(|p| if p.swap { sides(p).0 } else { sides(p).1 }), device);
    let classes: Vec<u8> = pairs.iter().map(|p| u8::from(p.swap)).collect();
    let onehot: Vec<f32> = classes.iter().flat_map(|&c| if c == 0 { [1.0, 0.0] } else { [0.0, 1.0] }).collect();
    let target = Tensor::<2>::from_data(TensorData::new(onehot, [pairs.len(), 2]), device);
    PairBatch { first, second, target, classes }
}
