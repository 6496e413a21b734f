//! Turning records into tensors.

use burn::tensor::{Device, Int, Tensor, TensorData};
use deepchess_core::Features;

use crate::data::{Pair, Record};
use crate::train::runner::tensors::{PAD_INDEX, Positions};

/// Every record's active bits, encoded once.
pub struct Encoded {
    features: Vec<Features>,
}

impl Encoded {
    /// Encodes `records` (a damaged record becomes an empty position).
    pub fn new(records: &[Record]) -> Encoded {
        Encoded { features: records.iter().map(Record::features).collect() }
    }

    /// Positions `indices` as a batch; `true` takes a position's mirror
    /// image (colours swapped, board flipped).
    pub fn batch(&self, indices: impl Iterator<Item = (u32, bool)>, device: &Device) -> Positions {
        let features: Vec<Features> = indices
            .map(|(i, mirror)| {
                let features = &self.features[i as usize];
                if mirror { features.mirrored() } else { *features }
            })
            .collect();
        Positions::from_lists(features.iter().map(Features::as_slice), PAD_INDEX, device)
    }

    /// Positions encoded.
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// Whether no position is encoded.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// The paper's bits of record `i`.
    pub fn features(&self, i: u32) -> &Features {
        &self.features[i as usize]
    }
}

/// A batch of ordered pairs and their labels.
pub struct PairBatch {
    /// First positions.
    pub first: Positions,
    /// Second positions.
    pub second: Positions,
    /// Labels `[batch, 2]`: the probability of class 0 (the first is the
    /// better for White) and of class 1; one-hot for hard labels.
    pub target: Tensor<2>,
    /// The class of each pair, `[batch, 1]`.
    pub classes: Tensor<2, Int>,
}

/// A pair's class: 0 when the better side comes first.
pub fn pair_class(pair: &Pair) -> u8 {
    u8::from(pair.swap)
}

/// A pair's target: the probabilities of class 0 and class 1 (a soft label
/// splits them).
pub fn pair_target(pair: &Pair) -> [f32; 2] {
    if pair_class(pair) == 0 { [pair.label, 1.0 - pair.label] } else { [1.0 - pair.label, pair.label] }
}

/// The pairs' targets `[pairs, 2]` and classes `[pairs, 1]` on `device`.
pub fn pair_labels(pairs: &[Pair], device: &Device) -> (Tensor<2>, Tensor<2, Int>) {
    let soft: Vec<f32> = pairs.iter().flat_map(pair_target).collect();
    let classes: Vec<i64> = pairs.iter().map(|p| i64::from(pair_class(p))).collect();
    (
        Tensor::<2>::from_data(TensorData::new(soft, [pairs.len(), 2]), device),
        Tensor::<2, Int>::from_data(TensorData::new(classes, [pairs.len(), 1]), device),
    )
}

/// Orders each pair and builds the tensors.
pub fn pair_batch(encoded: &Encoded, pairs: &[Pair], device: &Device) -> PairBatch {
    let first = encoded.batch(pairs.iter().map(|p| p.ordered()[0]), device);
    let second = encoded.batch(pairs.iter().map(|p| p.ordered()[1]), device);
    let (target, classes) = pair_labels(pairs, device);
    PairBatch { first, second, target, classes }
}

#[cfg(all(test, feature = "flex"))]
mod tests {
    use super::*;
    use crate::data::{GameResult, Record};
    use deepchess_core::shakmaty::{Chess, Position};

    #[test]
    fn soft_labels_reach_the_target_in_either_order() {
        let pos = Chess::default();
        let played = pos.legal_moves()[0];
        let records: Vec<Record> =
            (0..2).map(|g| Record::new(&pos, played, 10, GameResult::WhiteWins, None, g)).collect();
        let encoded = Encoded::new(&records);
        let pair = |swap, label| Pair { label, swap, ..Pair::new(0, 1) };
        let batch = pair_batch(&encoded, &[pair(false, 0.75), pair(true, 0.75), pair(false, 1.0)], &Device::flex());
        let target = batch.target.into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(target, [0.75, 0.25, 0.25, 0.75, 1.0, 0.0]);
        let classes = batch.classes.into_data().convert::<i64>().try_to_vec::<i64>().unwrap();
        assert_eq!(classes, [0, 1, 0]);
    }
}
