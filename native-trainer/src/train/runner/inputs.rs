//! What every training command opens first: the device, the dataset's two
//! splits, the labelled pair sampler, and the encoded training positions.

use std::path::Path;

use burn::tensor::Device;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{Dataset, LabelOptions, LabelSampler, Labels, Pair, mix};
use crate::train::runner::batch::Encoded;
use crate::train::runner::device::{self, DeviceChoice};

/// A training command's inputs.
pub struct Inputs {
    /// The autodiff device.
    pub device: Device,
    /// The training split.
    pub train: Dataset,
    /// The validation split.
    pub val: Dataset,
    /// Labelled pairs from the training split.
    pub sampler: LabelSampler,
    /// The training split's positions, encoded.
    pub encoded: Encoded,
}

impl Inputs {
    /// Selects the device (saying which unless `quiet`) and opens the
    /// dataset directory `data` (`train.bin`, `val.bin`); training pairs are
    /// drawn and labelled as `labels` says.
    pub fn open(
        data: &Path,
        device_choice: DeviceChoice,
        labels: LabelOptions,
        seed: u64,
        quiet: bool,
    ) -> anyhow::Result<Inputs> {
        let (device, message) = device::select(device_choice)?;
        if !quiet {
            eprintln!("{message}");
        }
        let train = Dataset::open(&data.join("train.bin"))?;
        let val = Dataset::open(&data.join("val.bin"))?;
        let sampler = LabelSampler::new(train.records(), labels, seed);
        let results = sampler.results();
        anyhow::ensure!(
            !results.white_wins().is_empty() && !results.black_wins().is_empty(),
            "the training split needs positions from games won by each side"
        );
        anyhow::ensure!(
            labels.labels != Labels::Evals || sampler.can_draw(),
            "evaluation labels need positions with engine evaluations ({} in the training split)",
            sampler.evaluated()
        );
        let encoded = Encoded::new(train.records());
        Ok(Inputs { device, train, val, sampler, encoded })
    }

    /// An epoch's training pairs: fresh labelled pairs, each in random
    /// order, a `mirror` share of them mirrored, all decided by `seed` and `epoch`.
    pub fn epoch_pairs(&self, epoch: usize, count: usize, mirror: f64, seed: u64) -> Vec<Pair> {
        let mut rng = SmallRng::seed_from_u64(mix(seed, epoch as u64 + 0x5a5a));
        self.sampler
            .epoch(epoch as u64, count)
            .into_iter()
            .map(|pair| Pair { swap: rng.random_bool(0.5), mirror: rng.random_bool(mirror.clamp(0.0, 1.0)), ..pair })
            .collect()
    }

    /// An epoch's positions, half from White wins and half from Black wins.
    pub fn epoch_positions(&self, epoch: u64, count: usize) -> Vec<u32> {
        self.sampler.results().epoch(epoch, count / 2).flat_map(|(w, l)| [w, l]).collect()
    }
}
