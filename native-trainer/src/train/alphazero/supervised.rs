//! `deepchess train az --supervised`: the AlphaZero reimplementation's network trained
//! on the games of a dataset.
//!
//! Each training item is one position of a game: its 22 input planes, the
//! move played as the policy target, and the game's result for the side to
//! move as the value target (1, 0, −1). The loss is the reimplementation's,
//! `(z − v)² − πᵀ log p`, with `π` the played move's one-hot (its weight
//! decay is the optimizer's); self-play ([`crate::train::alphazero::self_play`])
//! uses the same samples with `π` the root's visit distribution. The dataset keeps no game history, so the
//! repetition planes (12, 13) are zero in training; MCTS fills them in play.
//!
//! Validation, on positions of the held-out games: the policy's top-1
//! accuracy among the legal moves (the accuracy column), the value's mean
//! squared error and the loss. Each epoch exports the network, batch norms
//! folded, as `model.dcaz` (and `best.dcaz` at the best top-1), which
//! `deepchess uci --weights` plays through MCTS.

use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, IndexingUpdateOp, Int, Tensor, TensorData};
use deepchess_core::alphazero::POLICY_SIZE;

pub use crate::data::az::{Sample, sample, samples};
use crate::data::mix;
use crate::train::alphazero::games::AzPlayConfig;
use crate::train::alphazero::model::AzModel;
use crate::train::runner::config::DataConfig;
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::seeded;

/// The network's size: residual blocks and filters.
#[derive(Config, Debug, PartialEq)]
pub struct AzModelConfig {
    /// Residual blocks (the reimplementation's: 19).
    pub blocks: usize,
    /// Filters of every convolution (the reimplementation's: 256).
    pub filters: usize,
}

/// A supervised AlphaZero run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct AzConfig {
    /// Blocks and filters.
    pub model: AzModelConfig,
    /// Epochs, batch, optimizer (the reimplementation's: SGD, momentum 0.9, 0.2).
    pub optim: OptimConfig,
    /// Positions per epoch, validation positions, seed.
    pub data: DataConfig,
    /// Self-play and gate games (`--self-play` only).
    #[config(default = "AzPlayConfig::new()")]
    pub play: AzPlayConfig,
}

/// A batch's losses, summed pieces kept apart for validation. Every figure
/// stays on the device until a caller reads it.
pub struct Parts {
    /// The batch's mean loss, with its graph.
    pub loss: Tensor<1>,
    /// `(z − v)²` summed over the batch.
    pub value_error: Tensor<1>,
    /// How many positions have their best legal logit at the played move
    /// (a one-element float count).
    pub top1: Tensor<1>,
}

/// Rows of `lists` (entries `(index, value)`, at most `width` a row) as a
/// `[rows, POLICY_SIZE]` tensor built on the device: the lists travel, not
/// the dense rows (4,672 floats a position). Short lists are padded with
/// `(0, 0.0)`, which adds nothing.
fn scattered<'a>(lists: impl Iterator<Item = &'a [(u16, f32)]>, device: &Device) -> Tensor<2> {
    let lists: Vec<&[(u16, f32)]> = lists.collect();
    let (rows, width) = (lists.len(), lists.iter().map(|l| l.len()).max().unwrap_or(0).max(1));
    let (mut indices, mut values) = (vec![0i64; rows * width], vec![0f32; rows * width]);
    for (row, list) in lists.iter().enumerate() {
        for (slot, &(index, value)) in list.iter().enumerate() {
            indices[row * width + slot] = i64::from(index);
            values[row * width + slot] = value;
        }
    }
    let indices = Tensor::<2, Int>::from_data(TensorData::new(indices, [rows, width]), device);
    let values = Tensor::<2>::from_data(TensorData::new(values, [rows, width]), device);
    Tensor::<2>::zeros([rows, POLICY_SIZE], device).scatter(1, indices, values, IndexingUpdateOp::Add)
}

/// A batch's tensors on the device: the inputs, the policy targets, the
/// results, the legal moves and the played ones.
pub struct AzBatch {
    planes: Tensor<4>,
    pi: Tensor<2>,
    zs: Tensor<1>,
    legal: Tensor<2>,
    played: Tensor<2, Int>,
}

impl AzBatch {
    /// Builds `batch`'s tensors on the host and uploads them to `device`.
    pub fn new(batch: &[Sample], device: &Device) -> AzBatch {
        let n = batch.len();
        let planes = AzModel::input(batch.iter().map(Sample::planes), device);
        let pi = scattered(batch.iter().map(Sample::policy), device);
        let zs = Tensor::<1>::from_data(TensorData::new(batch.iter().map(Sample::z).collect::<Vec<_>>(), [n]), device);
        let legal: Vec<Vec<(u16, f32)>> = batch.iter().map(|s| s.legal().iter().map(|&m| (m, 1.0)).collect()).collect();
        let legal = scattered(legal.iter().map(Vec::as_slice), device);
        let played: Vec<i64> = batch.iter().map(|s| s.target() as i64).collect();
        let played = Tensor::<2, Int>::from_data(TensorData::new(played, [n, 1]), device);
        AzBatch { planes, pi, zs, legal, played }
    }

    /// The loss of the batch on `model`, and its figures.
    pub fn loss(&self, model: &AzModel) -> Parts {
        let n = self.zs.dims()[0];
        let out = model.forward(self.planes.clone());
        let cross_entropy = (log_softmax(out.logits.clone(), 1) * self.pi.clone()).sum_dim(1).reshape([n]).neg();
        let error = (out.value.clone() - self.zs.clone()).powi_scalar(2);
        let loss = (error.clone() + cross_entropy).mean();
        // Top-1 among the legal moves: the other moves' logits masked out.
        let best = out.logits.detach().mask_fill(self.legal.clone().lower_elem(0.5), f32::NEG_INFINITY).argmax(1);
        let top1 = best.equal(self.played.clone()).int().sum().float();
        Parts { loss, value_error: error.detach().sum(), top1 }
    }
}

/// The loss of `batch` on `model` (on `device`), and its figures.
pub fn batch_loss(model: &AzModel, batch: &[Sample], device: &Device) -> Parts {
    AzBatch::new(batch, device).loss(model)
}

/// The supervised AlphaZero learner.
pub struct AzLearner {
    config: AzConfig,
    inputs: Inputs,
    val: Vec<Sample>,
}

impl AzLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: AzConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let inputs = Inputs::open(data, device, Default::default(), config.data.seed, quiet)?;
        let val = samples(inputs.val.records(), config.data.val, config.data.seed ^ 1);
        anyhow::ensure!(!val.is_empty(), "the validation split has no usable position");
        Ok(AzLearner { config, inputs, val })
    }
}

/// Scores `model` on `val`: the mean loss, the policy's top-1 among the
/// legal moves, and (as the detail, when asked) the value's mean squared
/// error. Batch norms use their running statistics: the model is moved off
/// the autodiff device ([`Module::valid`]).
pub fn validate_on(model: &AzModel, val: &[Sample], device: &Device, detail: bool) -> Validation {
    let scoring = model.valid();
    let device = device.clone().inner();
    let (mut loss, mut top1, mut squared) = (0f64, 0usize, 0f64);
    for chunk in val.chunks(256) {
        let parts = batch_loss(&scoring, chunk, &device);
        loss += f64::from(parts.loss.into_scalar::<f32>()) * chunk.len() as f64;
        top1 += parts.top1.into_scalar::<f32>() as usize;
        squared += f64::from(parts.value_error.into_scalar::<f32>());
    }
    let n = val.len().max(1) as f64;
    let detail = detail.then(|| format!("value MSE {:.4} on {} held-out positions", squared / n, val.len()));
    Validation { loss: loss / n, accuracy: Some(top1 as f64 / n), detail }
}

impl Learner for AzLearner {
    type Model = AzModel;
    type Item = Sample;

    fn phases(&self) -> Vec<Phase> {
        vec![Phase { name: "az".into(), unit: "positions", optim: self.config.optim.clone() }]
    }

    fn loss_name(&self) -> &'static str {
        "(z − v)² − log p(move)"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<AzModel> {
        let (blocks, filters) = (self.config.model.blocks, self.config.model.filters);
        let seed = (!resumed).then_some(self.config.data.seed);
        Ok(seeded(seed, &self.inputs.device, |device| AzModel::new(blocks, filters, device)))
    }

    fn epoch(&self, _model: &AzModel, _phase: usize, epoch: usize) -> anyhow::Result<Vec<Sample>> {
        Ok(samples(self.inputs.train.records(), self.config.data.per_epoch, mix(self.config.data.seed, epoch as u64)))
    }

    fn loss(&self, model: &AzModel, _phase: usize, batch: &[Sample], _at: usize) -> Loss {
        let parts = batch_loss(model, batch, &self.inputs.device);
        Loss { loss: parts.loss, correct: Some(parts.top1) }
    }

    fn validate(&self, model: &AzModel, _phase: usize, detail: bool) -> anyhow::Result<Validation> {
        Ok(validate_on(model, &self.val, &self.inputs.device, detail))
    }

    fn save(&self, run: &RunDir, model: &AzModel, rows: &[EpochRow]) -> anyhow::Result<()> {
        let accuracy = |r: &EpochRow| r.val_accuracy.unwrap_or(0.0);
        let description = description(&self.config, "supervised", rows);
        let bytes = model.valid().to_az(description)?.to_bytes();
        run.save_az(&bytes, metrics::last_is_best(rows, |r| Some(accuracy(r))))
    }
}

/// A network's description: its size, how it trained, its last held-out top-1.
pub fn description(config: &AzConfig, how: &str, rows: &[EpochRow]) -> String {
    let last = rows.last().and_then(|r| r.val_accuracy).unwrap_or(0.0);
    format!(
        "AlphaZero ({} residual blocks × {} filters), {how}: {} epochs of {} positions; held-out policy top-1 {last:.4}",
        config.model.blocks,
        config.model.filters,
        rows.len(),
        config.data.per_epoch
    )
}
