//! `deepchess train siamese`: the comparison network trained on (W, L) pairs
//! (paper §3.2), end to end.
//!
//! Every epoch draws fresh random pairs, one position from a game White won
//! and one from a game Black won, in random order; the network learns which
//! one is the White win (cross-entropy over a softmax of two logits). After
//! each epoch it writes the metrics, the plot and a checkpoint, so a run
//! killed at any moment loses at most the epoch in progress (`--resume`).

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use burn::config::Config;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::Tensor;
use burn::tensor::activation::log_softmax;
use deepchess_core::{Network, Shape};
use indicatif::{ProgressBar, ProgressStyle};

use crate::data::LabelOptions;
use crate::eval;
use crate::train::batch::{PairBatch, pair_batch};
use crate::train::device::DeviceChoice;
use crate::train::inputs::Inputs;
use crate::train::metrics::{self, EpochMetrics};
use crate::train::model::{Siamese, tensor_values};
use crate::train::pos2vec::Pos2VecConfig;
use crate::train::run::{RunDir, state_field};

/// The optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum OptimizerKind {
    /// Adam.
    Adam,
    /// Plain stochastic gradient descent (the paper's).
    Sgd,
}

/// Hyperparameters of a Siamese run, saved as `config.json`.
#[derive(Config, Debug)]
pub struct SiameseConfig {
    /// Tower widths, from 773.
    pub tower: Vec<usize>,
    /// Head widths, to 2.
    pub head: Vec<usize>,
    /// Epochs.
    #[config(default = 10)]
    pub epochs: usize,
    /// Random (W, L) pairs per epoch.
    #[config(default = 1_000_000)]
    pub pairs_per_epoch: usize,
    /// Pairs per step.
    #[config(default = 256)]
    pub batch_size: usize,
    /// Learning rate of the first epoch.
    #[config(default = 0.001)]
    pub learning_rate: f64,
    /// Factor applied to the learning rate after each epoch.
    #[config(default = 0.98)]
    pub lr_decay: f64,
    /// Optimizer.
    #[config(default = "OptimizerKind::Adam")]
    pub optimizer: OptimizerKind,
    /// L2 weight decay.
    #[config(default = 0.0)]
    pub weight_decay: f64,
    /// Fraction of training pairs replaced by their colour mirror images.
    #[config(default = 0.5)]
    pub mirror: f64,
    /// Fixed validation pairs scored after each epoch.
    #[config(default = 20_000)]
    pub val_pairs: usize,
    /// Seed of the pairs, their order and the initial weights.
    #[config(default = 2016)]
    pub seed: u64,
    /// How training pairs are drawn and labelled: game results (the
    /// paper's), engine evaluations, or a blend. Validation pairs are always
    /// the paper's (W, L) pairs, so accuracies compare across labels. None
    /// (and a `config.json` from before labels existed): the paper's.
    #[config(default = "None")]
    pub labels: Option<LabelOptions>,
    /// A `train pos2vec` run whose pretrained tower (`model.bpk`) the
    /// network starts from; the paper's way. None: random initial weights.
    #[config(default = "None")]
    pub init: Option<String>,
}

/// `--preset`: a configuration to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// For tests: the distilled shape, 3 small epochs (well under two minutes).
    Smoke,
    /// Under an hour on this project's 2-core machine: the distilled shape trained directly.
    Quick,
    /// The paper's sizes and schedule: the full network, 1000 epochs of 10⁶ pairs, SGD at 0.01 × 0.99ᵉ.
    Paper,
}

impl Preset {
    /// The configuration.
    pub fn config(self) -> SiameseConfig {
        let distilled = Shape::distilled();
        match self {
            Preset::Smoke => SiameseConfig::new(distilled.tower().to_vec(), distilled.head().to_vec())
                .with_epochs(3)
                .with_pairs_per_epoch(16_384)
                .with_learning_rate(0.003)
                .with_val_pairs(2_000),
            Preset::Quick => SiameseConfig::new(distilled.tower().to_vec(), distilled.head().to_vec())
                .with_epochs(25)
                .with_pairs_per_epoch(1_000_000)
                .with_batch_size(1024)
                .with_learning_rate(0.002),
            Preset::Paper => {
                let full = Shape::full();
                SiameseConfig::new(full.tower().to_vec(), full.head().to_vec())
                    .with_epochs(1000)
                    .with_optimizer(OptimizerKind::Sgd)
                    .with_learning_rate(0.01)
                    .with_lr_decay(0.99)
            }
        }
    }
}

/// The optimizer of `kind`, with L2 `weight_decay` (none at 0).
pub fn optimizer(kind: OptimizerKind, weight_decay: f64) -> ModuleOptimizer {
    let decay = (weight_decay > 0.0).then(|| WeightDecayConfig::new(weight_decay as f32));
    match kind {
        OptimizerKind::Adam => AdamConfig::new().with_weight_decay(decay).init(),
        OptimizerKind::Sgd => SgdConfig::new().with_weight_decay(decay).init(),
    }
}

/// Trains (or resumes) a run in `out` on the dataset directory `data`.
/// Returns the metrics of every epoch.
pub fn train(
    config: SiameseConfig,
    data: &Path,
    out: &Path,
    device_choice: DeviceChoice,
    resume: bool,
    quiet: bool,
) -> anyhow::Result<Vec<EpochMetrics>> {
    let run = RunDir::create(out)?;
    // A resumed run keeps its own labels and seed (its config.json), whatever the command line says.
    let saved = if resume && run.path("config.json").exists() {
        Some(SiameseConfig::load(run.path("config.json")).context("cannot read config.json")?)
    } else {
        None
    };
    let (labels, seed, val_count) =
        saved.as_ref().map_or((config.labels, config.seed, config.val_pairs), |c| (c.labels, c.seed, c.val_pairs));
    let inputs = Inputs::open(data, device_choice, labels.unwrap_or_default(), seed, quiet)?;
    let (device, val_set, encoded) = (&inputs.device, &inputs.val, &inputs.encoded);
    let val_pairs = eval::pairs(val_set.records(), val_count, seed ^ 1);
    let val_features = eval::features(val_set.records());

    let state = if resume { run.state()? } else { None };
    let (mut model, mut optim, mut rows, config) = if let Some(state) = state {
        let config = SiameseConfig::load(run.path("config.json")).context("cannot read config.json")?;
        let done = state_field(&state, "epochs_done")?;
        let shape = Shape::new(&config.tower, &config.head)?;
        let model = run.load_module("model", Siamese::new(&shape, device))?;
        let optim = run.load_optimizer("optimizer", optimizer(config.optimizer, config.weight_decay))?;
        let rows = metrics::read(&run.path("metrics.csv"), done)?;
        anyhow::ensure!(rows.len() == done, "metrics.csv has {} epochs, state.json {done}", rows.len());
        (model, optim, rows, config)
    } else {
        let shape = Shape::new(&config.tower, &config.head)?;
        device.seed(config.seed);
        config.save(run.path("config.json"))?;
        let mut model = Siamese::new(&shape, device);
        if let Some(init) = &config.init {
            let pretrained = RunDir::create(Path::new(init))?;
            let pos2vec = Pos2VecConfig::load(pretrained.path("config.json")).context("--init needs a pos2vec run")?;
            anyhow::ensure!(
                pos2vec.tower == config.tower && pos2vec.head == config.head,
                "the pos2vec run in {init} has the shape {:?} + {:?}, this run {:?} + {:?}",
                pos2vec.tower,
                pos2vec.head,
                config.tower,
                config.head
            );
            model = pretrained.load_module("model", model)?;
        }
        (model, optimizer(config.optimizer, config.weight_decay), Vec::new(), config)
    };

    for epoch in rows.len()..config.epochs {
        let lr = config.learning_rate * config.lr_decay.powi(epoch as i32);
        let pairs = inputs.epoch_pairs(epoch, config.pairs_per_epoch, config.mirror, config.seed);
        let progress = if quiet { ProgressBar::hidden() } else { ProgressBar::new(pairs.len() as u64) };
        progress.set_style(
            ProgressStyle::with_template("epoch {prefix} {bar:30} {pos}/{len} pairs {per_sec} {msg}")
                .expect("a valid template"),
        );
        progress.set_prefix(format!("{}/{}", epoch + 1, config.epochs));
        let start = Instant::now();
        let (mut loss_sum, mut correct, mut seen) = (0f64, 0usize, 0usize);
        for chunk in pairs.chunks(config.batch_size.max(1)) {
            let batch = pair_batch(encoded, chunk, device);
            let (next, logits, loss) = step(model, &mut optim, &batch, lr);
            model = next;

            let values = tensor_values(logits);
            correct += values.chunks_exact(2).zip(&batch.classes).filter(|(l, c)| (l[0] > l[1]) == (**c == 0)).count();
            loss_sum += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
            seen += chunk.len();
            progress.inc(chunk.len() as u64);
            progress.set_message(format!("loss {:.4} acc {:.3}", loss_sum / seen as f64, correct as f64 / seen as f64));
        }
        let seconds = start.elapsed().as_secs_f64();
        progress.finish_and_clear();

        let float = model.to_float();
        let (val_accuracy, val_loss) = eval::float_accuracy(&float, &val_features, &val_pairs);
        let row = EpochMetrics {
            epoch: epoch + 1,
            lr,
            train_loss: loss_sum / seen.max(1) as f64,
            train_accuracy: correct as f64 / seen.max(1) as f64,
            val_loss,
            val_accuracy,
            pairs_per_second: seen as f64 / seconds.max(1e-9),
        };
        if !quiet {
            let quantized = Network::from_bytes(&float.to_bytes())?;
            let q = eval::quantized_accuracy(&quantized, val_set.records(), &val_pairs);
            eprintln!("{}  (validation, quantized: {q:.4})", row.csv_row());
        }
        rows.push(row);
        checkpoint(&run, &model, &optim, float, &rows, &config)?;
    }
    Ok(rows)
}

/// One optimizer step on `batch`: the cross-entropy of the two logits
/// against the (possibly soft) target, then the hidden weights clipped to
/// what quantization keeps. Returns the updated network, the logits
/// (`[batch, 2]`, detached) and the loss.
pub fn step(
    model: Siamese,
    optim: &mut ModuleOptimizer,
    batch: &PairBatch,
    lr: f64,
) -> (Siamese, Tensor<2>, Tensor<1>) {
    let logits = model.forward(&batch.first, &batch.second); // [batch, 2]
    let loss = log_softmax(logits.clone(), 1).mul(batch.target.clone()).sum_dim(1).mean().neg();
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    (optim.step(lr, model, grads).clip(), logits.detach(), loss)
}

/// Writes the epoch's files through [`RunDir`], each replaced atomically;
/// `state.json` is written last, so a kill at any moment leaves the
/// previous epoch whole.
fn checkpoint(
    run: &RunDir,
    model: &Siamese,
    optim: &ModuleOptimizer,
    mut float: deepchess_core::FloatNetwork,
    rows: &[EpochMetrics],
    config: &SiameseConfig,
) -> anyhow::Result<()> {
    run.save_module("model", model)?;
    run.save_optimizer("optimizer", optim)?;
    float.description = format!(
        "DeepChess Siamese network, {}; {} epochs of {} pairs; validation accuracy {:.4}",
        if config.init.is_some() { "tower pretrained by Pos2Vec" } else { "trained directly" },
        rows.len(),
        config.pairs_per_epoch,
        rows.last().map_or(0.0, |r| r.val_accuracy)
    );
    // The epoch with the best validation accuracy is kept as best.dcnf.
    let best = rows.iter().map(|r| r.val_accuracy).fold(f64::MIN, f64::max);
    run.save_float(&float.to_float_bytes(), rows.last().is_some_and(|r| r.val_accuracy >= best))?;
    metrics::write(run.dir(), rows)?;
    run.set_state(serde_json::json!({ "epochs_done": rows.len() }))
}
