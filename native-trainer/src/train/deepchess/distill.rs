//! `deepchess train distill`: a small student learns from a large teacher
//! (paper §3.3).
//!
//! 1. *features*: the student's tower learns to reproduce the teacher's
//!    Pos2Vec embedding of each position (mean squared error);
//! 2. *outputs*: the whole student learns the teacher's soft outputs on
//!    (W, L) pairs (cross-entropy against the teacher's probabilities),
//!    with the same fresh pairs, order and mirroring as `train siamese`.
//!
//! The run directory looks like a Siamese run's: `model.dcnf` and
//! `best.dcnf` (best validation accuracy) for `deepchess export`.

use std::path::Path;

use anyhow::Context;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::{log_softmax, softmax};
use deepchess_core::Shape;

use crate::data::{Pair, mix};
use crate::eval::accuracy;
use crate::train::deepchess::model::Siamese;
use crate::train::deepchess::siamese::SiameseConfig;
use crate::train::runner::batch::{Encoded, PairBatch, pair_batch};
use crate::train::runner::config::{DataConfig, ModelConfig};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::device_batches::{DeviceBatches, StagedPairs, StagedRows, gather_split_on_device};
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, seeded};

/// The features phase: the student's tower learns the teacher's embedding.
#[derive(Config, Debug)]
pub struct FeaturesConfig {
    /// Epochs.
    #[config(default = 3)]
    pub epochs: usize,
    /// Positions per epoch.
    #[config(default = 500_000)]
    pub positions_per_epoch: usize,
}

/// A distillation run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct DistillConfig {
    /// The teacher: a `train siamese` run directory (its `model.bpk`).
    pub teacher: String,
    /// The student's shape; its embedding must be as wide as the teacher's.
    pub model: ModelConfig,
    /// The outputs phase's epochs, and both phases' batch and optimizer.
    pub optim: OptimConfig,
    /// Pairs per outputs epoch, mirroring, validation pairs, seed.
    pub data: DataConfig,
    /// The features phase.
    pub features: FeaturesConfig,
}

/// One item of a distillation epoch.
#[derive(Clone, Copy, Debug)]
pub enum Item {
    /// A position (features phase).
    Position(u32),
    /// A pair (outputs phase).
    Pair(Pair),
}

/// Phase indices.
const FEATURES: usize = 0;

/// The distillation learner: the student is the trained model, the teacher
/// is fixed.
pub struct DistillLearner {
    config: DistillConfig,
    inputs: Inputs,
    teacher: Siamese,
    val_encoded: Encoded,
    val_pairs: Vec<Pair>,
    val_positions: Vec<u32>,
    /// Where its batches are built: on the device or the host
    /// ([`gather_split_on_device`]).
    batches: DeviceBatches<Staged>,
}

/// An epoch's items on the device, by phase (boxed: tensors are large
/// handles).
enum Staged {
    Positions(Box<StagedRows>),
    Pairs(Box<StagedPairs>),
}

impl DistillLearner {
    /// Opens the dataset directory `data` and the teacher for `config`.
    pub fn new(config: DistillConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let seed = config.data.seed;
        let inputs = Inputs::open(data, device, Default::default(), seed, quiet)?;
        let teacher_run = RunDir::create(Path::new(&config.teacher))?;
        let teacher_config = SiameseConfig::load(teacher_run.path("config.json"))
            .context("the teacher must be a `train siamese` run")?;
        let teacher_shape = teacher_config.model.shape()?;
        let teacher = teacher_run.load_module("model", Siamese::new(&teacher_shape, &inputs.device))?.no_grad();
        let student_shape = config.model.shape()?;
        anyhow::ensure!(
            student_shape.embedding() == teacher_shape.embedding(),
            "the student's embedding ({}) must be as wide as the teacher's ({})",
            student_shape.embedding(),
            teacher_shape.embedding()
        );
        let val_encoded = Encoded::new(inputs.val.records());
        let val_pairs = accuracy::pairs(inputs.val.records(), config.data.val, seed ^ 1);
        let val_positions: Vec<u32> = val_pairs.iter().flat_map(|p| [p.better, p.worse]).take(20_000).collect();
        let on_device = gather_split_on_device(&inputs.device, inputs.encoded.len(), quiet);
        let learner = DistillLearner {
            config,
            inputs,
            teacher,
            val_encoded,
            val_pairs,
            val_positions,
            batches: DeviceBatches::host(),
        };
        Ok(learner.with_device_batches(on_device))
    }

    /// Gathers the training batches on the device (every position uploaded
    /// once, an epoch's positions or pairs once an epoch), or builds them on
    /// the host. [`DistillLearner::new`] chooses by the device and the
    /// split's size ([`gather_split_on_device`]); either way trains the same
    /// network, within float rounding.
    pub fn with_device_batches(mut self, on: bool) -> Self {
        self.batches = DeviceBatches::new(on, &self.inputs.encoded, &self.inputs.device);
        self
    }

    fn shape(&self) -> anyhow::Result<Shape> {
        self.config.model.shape()
    }
}

impl Learner for DistillLearner {
    type Model = Siamese;
    type Item = Item;

    fn phases(&self) -> Vec<Phase> {
        let features = self.config.optim.clone().with_epochs(self.config.features.epochs);
        vec![
            Phase { name: "features".into(), unit: "positions", optim: features },
            Phase { name: "outputs".into(), unit: "pairs", optim: self.config.optim.clone() },
        ]
    }

    fn loss_name(&self) -> &'static str {
        "MSE (features), cross-entropy (outputs)"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<Siamese> {
        let shape = self.shape()?;
        let seed = (!resumed).then_some(self.config.data.seed);
        Ok(seeded(seed, &self.inputs.device, |device| Siamese::new(&shape, device)))
    }

    fn epoch(&self, _student: &Siamese, phase: usize, epoch: usize) -> anyhow::Result<Vec<Item>> {
        let data = &self.config.data;
        let device = &self.inputs.device;
        Ok(if phase == FEATURES {
            let positions =
                self.inputs.epoch_positions(mix(0xd157, epoch as u64), self.config.features.positions_per_epoch);
            self.batches.stage(|| Staged::Positions(Box::new(StagedRows::new(&positions, device))));
            positions.into_iter().map(Item::Position).collect()
        } else {
            let pairs = self.inputs.epoch_pairs(epoch, data.per_epoch, data.mirror, data.seed);
            self.batches.stage(|| Staged::Pairs(Box::new(StagedPairs::new(&pairs, device))));
            pairs.into_iter().map(Item::Pair).collect()
        })
    }

    fn loss(&self, student: &Siamese, _phase: usize, batch: &[Item], at: usize) -> Loss {
        let (encoded, device) = (&self.inputs.encoded, &self.inputs.device);
        let features = |positions: &Positions| {
            let target = self.teacher.embed(positions).detach();
            let error = student.embed(positions) - target;
            error.clone().mul(error).mean()
        };
        let outputs = |batch: &PairBatch| {
            let soft = softmax(self.teacher.forward(&batch.first, &batch.second).detach(), 1);
            let logits = student.forward(&batch.first, &batch.second);
            log_softmax(logits, 1).mul(soft).sum_dim(1).mean().neg()
        };
        let on_device = self.batches.with(|on_device, staged| match staged {
            Staged::Positions(rows) => features(&on_device.batch(rows.slice(at, batch.len()), false)),
            Staged::Pairs(pairs) => outputs(&pairs.batch(on_device, at, batch.len())),
        });
        let loss = on_device.unwrap_or_else(|| {
            let positions: Vec<u32> =
                batch.iter().filter_map(|i| if let Item::Position(p) = i { Some(*p) } else { None }).collect();
            let pairs: Vec<Pair> =
                batch.iter().filter_map(|i| if let Item::Pair(p) = i { Some(*p) } else { None }).collect();
            if pairs.is_empty() {
                features(&encoded.batch(positions.iter().map(|&i| (i, false)), device))
            } else {
                outputs(&pair_batch(encoded, &pairs, device))
            }
        });
        Loss { loss, correct: None }
    }

    fn constrain(&self, model: Siamese) -> Siamese {
        model.clip()
    }

    fn validate(&self, student: &Siamese, phase: usize, detail: bool) -> anyhow::Result<Validation> {
        let float = student.to_float();
        let (accuracy, pair_loss) = accuracy::float_accuracy(&float, self.inputs.val.records(), &self.val_pairs);
        let loss = if phase == FEATURES {
            let scoring = student.clone().no_grad();
            let mut sum = 0f64;
            for chunk in self.val_positions.chunks(1024) {
                let batch = self.val_encoded.batch(chunk.iter().map(|&i| (i, false)), &self.inputs.device);
                let error = scoring.embed(&batch) - self.teacher.embed(&batch);
                sum += f64::from(error.clone().mul(error).mean().into_scalar::<f32>()) * chunk.len() as f64;
            }
            sum / self.val_positions.len().max(1) as f64
        } else {
            pair_loss
        };
        let detail = if detail {
            Some(accuracy::quantized_line(&float, self.inputs.val.records(), &self.val_pairs)?)
        } else {
            None
        };
        Ok(Validation { loss, accuracy: Some(accuracy), detail })
    }

    fn save(&self, run: &RunDir, student: &Siamese, rows: &[EpochRow]) -> anyhow::Result<()> {
        let done = rows.len();
        let last = rows.last().and_then(|r| r.val_accuracy).unwrap_or(0.0);
        let mut float = student.to_float();
        float.description = format!(
            "DeepChess distilled from {}; {} feature and {} output epochs; validation accuracy {:.4}",
            self.config.teacher,
            done.min(self.config.features.epochs),
            done.saturating_sub(self.config.features.epochs),
            last
        );
        // The best output-phase epoch by validation accuracy is kept as best.dcnf.
        let outputs = |r: &EpochRow| if r.phase == FEATURES + 2 { r.val_accuracy } else { None };
        run.save_float(&float.to_float_bytes(), metrics::last_is_best(rows, outputs))
    }
}
