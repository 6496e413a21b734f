//! `deepchess train siamese`: the comparison network trained on (W, L) pairs
//! (paper §3.2), end to end.
//!
//! Every epoch draws fresh random pairs, one position from a game White won
//! and one from a game Black won, in random order; the network learns which
//! one is the White win (cross-entropy over a softmax of two logits). The
//! epoch runner writes the metrics, the plot and a checkpoint after each
//! epoch; this learner adds the float network (`model.dcnf`, and
//! `best.dcnf` for the best validation epoch) that `deepchess export` reads.

use std::path::Path;

use anyhow::Context;
use burn::config::Config;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Int, Tensor};

use crate::data::Pair;
use crate::eval::accuracy;
use crate::train::deepchess::model::Siamese;
use crate::train::deepchess::pos2vec::{self, Pos2VecConfig};
use crate::train::runner::batch::{PairBatch, pair_batch};
use crate::train::runner::config::{DataConfig, ModelConfig};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::device_batches::{DeviceBatches, StagedPairs, gather_split_on_device};
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::seeded;

/// A Siamese run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct SiameseConfig {
    /// The network's shape.
    pub model: ModelConfig,
    /// Epochs, batch and optimizer.
    pub optim: OptimConfig,
    /// Pairs per epoch, mirroring, labels, validation pairs, seed.
    pub data: DataConfig,
    /// A `train pos2vec` run whose pretrained tower the network starts
    /// from; the paper's way. None: random initial weights.
    #[config(default = "None")]
    pub init: Option<String>,
    /// The ablation of the paper's two softmax outputs: one logistic output
    /// ([`Siamese::with_one_output`]).
    #[config(default = false)]
    pub one_output: bool,
}

/// The Siamese learner: its configuration and its data.
pub struct SiameseLearner {
    config: SiameseConfig,
    inputs: Inputs,
    val_pairs: Vec<Pair>,
    /// Where its batches are built: on the device or the host
    /// ([`gather_split_on_device`]).
    batches: DeviceBatches<StagedPairs>,
}

impl SiameseLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: SiameseConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let seed = config.data.seed;
        let inputs = Inputs::open(data, device, config.data.labels, seed, quiet)?;
        let val_pairs = accuracy::pairs(inputs.val.records(), config.data.val, seed ^ 1);
        let on_device = gather_split_on_device(&inputs.device, inputs.encoded.len(), quiet);
        let learner = SiameseLearner { config, inputs, val_pairs, batches: DeviceBatches::host() };
        Ok(learner.with_device_batches(on_device))
    }

    /// Gathers the training batches on the device (every position uploaded
    /// once, an epoch's pairs once an epoch), or builds them on the host.
    /// [`SiameseLearner::new`] chooses by the device and the split's size
    /// ([`gather_split_on_device`]);
    /// either way trains the same network, within float rounding.
    pub fn with_device_batches(mut self, on: bool) -> Self {
        self.batches = DeviceBatches::new(on, &self.inputs.encoded, &self.inputs.device);
        self
    }
}

/// The cross-entropy of the two logits (`[batch, 2]`) against the (possibly
/// soft) target.
fn pair_loss(logits: Tensor<2>, batch: &PairBatch) -> Tensor<1> {
    log_softmax(logits, 1).mul(batch.target.clone()).sum_dim(1).mean().neg()
}

impl Learner for SiameseLearner {
    type Model = Siamese;
    type Item = Pair;

    fn phases(&self) -> Vec<Phase> {
        vec![Phase { name: "siamese".into(), unit: "pairs", optim: self.config.optim.clone() }]
    }

    fn loss_name(&self) -> &'static str {
        "cross-entropy"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<Siamese> {
        let shape = self.config.model.shape()?;
        if resumed {
            return Ok(Siamese::new(&shape, &self.inputs.device));
        }
        let model = seeded(Some(self.config.data.seed), &self.inputs.device, |device| Siamese::new(&shape, device));
        let model = if self.config.one_output { model.with_one_output() } else { model };
        let Some(init) = &self.config.init else { return Ok(model) };
        let pretrained = RunDir::create(Path::new(init))?;
        let pos2vec = Pos2VecConfig::load(pretrained.path("config.json")).context("--init needs a pos2vec run")?;
        anyhow::ensure!(
            pos2vec.model == self.config.model,
            "the pos2vec run in {init} has the shape {:?} + {:?}, this run {:?} + {:?}",
            pos2vec.model.tower,
            pos2vec.model.head,
            self.config.model.tower,
            self.config.model.head
        );
        pos2vec::load_pretrained(&pretrained, model)
    }

    fn epoch(&self, _model: &Siamese, _phase: usize, epoch: usize) -> anyhow::Result<Vec<Pair>> {
        let data = &self.config.data;
        let pairs = self.inputs.epoch_pairs(epoch, data.per_epoch, data.mirror, data.seed);
        self.batches.stage(|| StagedPairs::new(&pairs, &self.inputs.device));
        Ok(pairs)
    }

    fn loss(&self, model: &Siamese, _phase: usize, batch: &[Pair], at: usize) -> Loss {
        let on_device = self.batches.with(|encoded, staged| staged.batch(encoded, at, batch.len()));
        let batch = on_device.unwrap_or_else(|| pair_batch(&self.inputs.encoded, batch, &self.inputs.device));
        let logits = model.forward(&batch.first, &batch.second); // [batch, 2]
        let loss = pair_loss(logits.clone(), &batch);
        Loss { loss, correct: Some(correct_pairs(logits.detach(), batch.classes)) }
    }

    fn constrain(&self, model: Siamese) -> Siamese {
        let model = model.clip();
        if self.config.one_output { model.with_one_output() } else { model }
    }

    fn validate(&self, model: &Siamese, _phase: usize, detail: bool) -> anyhow::Result<Validation> {
        let float = model.to_float();
        let (accuracy, loss) = accuracy::float_accuracy(&float, self.inputs.val.records(), &self.val_pairs);
        let detail = if detail {
            Some(accuracy::quantized_line(&float, self.inputs.val.records(), &self.val_pairs)?)
        } else {
            None
        };
        Ok(Validation { loss, accuracy: Some(accuracy), detail })
    }

    fn save(&self, run: &RunDir, model: &Siamese, rows: &[EpochRow]) -> anyhow::Result<()> {
        let mut float = model.to_float();
        let val_accuracy = |r: &EpochRow| r.val_accuracy.unwrap_or(0.0);
        float.description = format!(
            "DeepChess Siamese network, {}{}; {} epochs of {} pairs; validation accuracy {:.4}",
            if self.config.init.is_some() { "tower pretrained by Pos2Vec" } else { "trained directly" },
            if self.config.one_output { ", one logistic output" } else { "" },
            rows.len(),
            self.config.data.per_epoch,
            rows.last().map_or(0.0, val_accuracy)
        );
        // The epoch with the best validation accuracy is kept as best.dcnf.
        run.save_float(&float.to_float_bytes(), metrics::last_is_best(rows, |r| Some(val_accuracy(r))))
    }
}

/// How many pairs the logits (`[batch, 2]`) put in their class (`[batch,
/// 1]`), counted on the device: class 0 where the first logit is the
/// higher (a one-element float count).
pub fn correct_pairs(logits: Tensor<2>, classes: Tensor<2, Int>) -> Tensor<1> {
    let second = logits.clone().narrow(1, 0, 1).greater(logits.narrow(1, 1, 1)).bool_not();
    second.int().equal(classes).int().sum().float()
}

/// One optimizer step on `batch`, as the runner takes it with this learner:
/// what `train bench` times. Returns the updated network, the logits
/// (`[batch, 2]`, detached) and the loss.
pub fn step(
    model: Siamese,
    optim: &mut ModuleOptimizer,
    batch: &PairBatch,
    lr: f64,
) -> (Siamese, Tensor<2>, Tensor<1>) {
    let logits = model.forward(&batch.first, &batch.second);
    let loss = pair_loss(logits.clone(), batch);
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    (optim.step(lr, model, grads).clip(), logits.detach(), loss)
}
