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
use std::time::Instant;

use anyhow::Context;
use burn::config::Config;
use burn::module::Module;
use burn::optim::GradientsParams;
use burn::tensor::activation::{log_softmax, softmax};
use deepchess_core::{Network, Shape};
use indicatif::{ProgressBar, ProgressStyle};

use crate::data::{LabelOptions, mix};
use crate::eval;
use crate::train::batch::{Encoded, pair_batch};
use crate::train::device::DeviceChoice;
use crate::train::inputs::Inputs;
use crate::train::model::{Siamese, fresh};
use crate::train::run::{RunDir, state_field};
use crate::train::siamese::{OptimizerKind, SiameseConfig, optimizer};
use crate::train::table::Table;

/// Hyperparameters of a distillation run, saved as `config.json`.
#[derive(Config, Debug)]
pub struct DistillConfig {
    /// The teacher: a `train siamese` run directory (its `model.bpk`).
    pub teacher: String,
    /// The student's tower widths, from 773; its embedding must be as wide
    /// as the teacher's.
    pub tower: Vec<usize>,
    /// The student's head widths, to 2.
    pub head: Vec<usize>,
    /// Epochs of the features phase.
    #[config(default = 3)]
    pub feature_epochs: usize,
    /// Positions per features epoch.
    #[config(default = 500_000)]
    pub positions_per_epoch: usize,
    /// Epochs of the outputs phase.
    #[config(default = 10)]
    pub epochs: usize,
    /// Pairs per outputs epoch.
    #[config(default = 1_000_000)]
    pub pairs_per_epoch: usize,
    /// Positions or pairs per step.
    #[config(default = 1024)]
    pub batch_size: usize,
    /// Learning rate of each phase's first epoch.
    #[config(default = 0.002)]
    pub learning_rate: f64,
    /// Factor applied to the learning rate after each epoch.
    #[config(default = 0.95)]
    pub lr_decay: f64,
    /// Optimizer.
    #[config(default = "OptimizerKind::Adam")]
    pub optimizer: OptimizerKind,
    /// Fraction of training pairs replaced by their colour mirror images.
    #[config(default = 0.5)]
    pub mirror: f64,
    /// Fixed validation pairs scored after each epoch.
    #[config(default = 20_000)]
    pub val_pairs: usize,
    /// Seed of the samples and the student's initial weights.
    #[config(default = 2016)]
    pub seed: u64,
}

/// The metrics table's columns; phase 1 is features, 2 is outputs.
pub const COLUMNS: [&str; 7] = ["epoch", "phase", "lr", "train_loss", "val_loss", "val_accuracy", "items_per_second"];

/// `max_epochs` ends the call after that many epochs, however far the run
/// is: `--resume` continues it later.
///
/// Trains (or resumes) a distillation run in `out`. Returns the metrics.
pub fn train(
    config: DistillConfig,
    data: &Path,
    out: &Path,
    device_choice: DeviceChoice,
    resume: bool,
    quiet: bool,
    max_epochs: Option<usize>,
) -> anyhow::Result<Table> {
    let run = RunDir::create(out)?;
    let state = if resume { run.state()? } else { None };
    let config = if state.is_some() { DistillConfig::load(run.path("config.json"))? } else { config };
    let inputs = Inputs::open(data, device_choice, LabelOptions::default(), config.seed, quiet)?;
    let (device, val_set, encoded) = (&inputs.device, &inputs.val, &inputs.encoded);
    let teacher_run = RunDir::create(Path::new(&config.teacher))?;
    let teacher_config =
        SiameseConfig::load(teacher_run.path("config.json")).context("the teacher must be a `train siamese` run")?;
    let teacher_shape = Shape::new(&teacher_config.tower, &teacher_config.head)?;
    let teacher = teacher_run.load_module("model", Siamese::new(&teacher_shape, device))?.no_grad();
    let student_shape = Shape::new(&config.tower, &config.head)?;
    anyhow::ensure!(
        student_shape.embedding() == teacher_shape.embedding(),
        "the student's embedding ({}) must be as wide as the teacher's ({})",
        student_shape.embedding(),
        teacher_shape.embedding()
    );

    let val_encoded = Encoded::new(val_set.records());
    let val_pairs = eval::pairs(val_set.records(), config.val_pairs, config.seed ^ 1);
    let val_positions: Vec<u32> = val_pairs.iter().flat_map(|&(w, l, _)| [w, l]).take(20_000).collect();
    let val_features = eval::features(val_set.records());

    let (mut student, mut table, mut done) = match &state {
        Some(state) => {
            let done = state_field(state, "epochs_done")?;
            let student = run.load_module("model", Siamese::new(&student_shape, device))?;
            let table = Table::read(&run.path("metrics.csv"), &COLUMNS, done)?;
            anyhow::ensure!(table.rows.len() == done, "metrics.csv has {} epochs, state.json {done}", table.rows.len());
            (student, table, done)
        }
        None => {
            device.seed(config.seed);
            config.save(run.path("config.json"))?;
            (Siamese::new(&student_shape, device), Table::new(&COLUMNS), 0)
        }
    };

    let total = config.feature_epochs + config.epochs;
    let mut optim = optimizer(config.optimizer, 0.0);
    if done > 0 && done != config.feature_epochs {
        optim = run.load_optimizer("optimizer", optim)?;
    }
    let stop = done.saturating_add(max_epochs.unwrap_or(usize::MAX)).min(total);
    while done < stop {
        let features_phase = done < config.feature_epochs;
        if done == config.feature_epochs {
            optim = optimizer(config.optimizer, 0.0); // a fresh optimizer for the new objective
        }
        let epoch = if features_phase { done } else { done - config.feature_epochs };
        let lr = config.learning_rate * config.lr_decay.powi(epoch as i32);
        let progress = ProgressBar::hidden();
        if !quiet {
            progress.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        progress.set_style(
            ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} {per_sec} {msg}").expect("a valid template"),
        );
        let start = Instant::now();
        let (mut loss_sum, mut seen) = (0f64, 0usize);
        if features_phase {
            progress.set_prefix(format!("features {}/{}", epoch + 1, config.feature_epochs));
            let positions = inputs.epoch_positions(mix(0xd157, epoch as u64), config.positions_per_epoch);
            progress.set_length(positions.len() as u64);
            for chunk in positions.chunks(config.batch_size.max(1)) {
                let batch = encoded.batch(chunk.iter().map(|&i| (i, false)), device);
                let target = teacher.embed(&batch).detach();
                let error = student.embed(&batch) - target;
                let loss = error.clone().mul(error).mean();
                let grads = GradientsParams::from_grads(loss.backward(), &student);
                loss_sum += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
                student = fresh(optim.step(lr, student, grads).clip());
                seen += chunk.len();
                progress.inc(chunk.len() as u64);
                progress.set_message(format!("mse {:.5}", loss_sum / seen as f64));
            }
        } else {
            progress.set_prefix(format!("outputs {}/{}", epoch + 1, config.epochs));
            let pairs = inputs.epoch_pairs(epoch, config.pairs_per_epoch, config.mirror, config.seed);
            progress.set_length(pairs.len() as u64);
            for chunk in pairs.chunks(config.batch_size.max(1)) {
                let batch = pair_batch(encoded, chunk, device);
                let soft = softmax(teacher.forward(&batch.first, &batch.second).detach(), 1);
                let logits = student.forward(&batch.first, &batch.second);
                let loss = log_softmax(logits, 1).mul(soft).sum_dim(1).mean().neg();
                let grads = GradientsParams::from_grads(loss.backward(), &student);
                loss_sum += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
                student = fresh(optim.step(lr, student, grads).clip());
                seen += chunk.len();
                progress.inc(chunk.len() as u64);
                progress.set_message(format!("loss {:.4}", loss_sum / seen as f64));
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        progress.finish_and_clear();

        let float = student.to_float();
        let scoring = student.clone().no_grad();
        let (val_accuracy, pair_loss) = eval::float_accuracy(&float, &val_features, &val_pairs);
        let val_loss = if features_phase {
            let mut sum = 0f64;
            for chunk in val_positions.chunks(1024) {
                let batch = val_encoded.batch(chunk.iter().map(|&i| (i, false)), device);
                let error = scoring.embed(&batch) - teacher.embed(&batch);
                sum += f64::from(error.clone().mul(error).mean().into_scalar::<f32>()) * chunk.len() as f64;
            }
            sum / val_positions.len().max(1) as f64
        } else {
            pair_loss
        };
        let row = vec![
            (done + 1) as f64,
            if features_phase { 1.0 } else { 2.0 },
            lr,
            loss_sum / seen.max(1) as f64,
            val_loss,
            val_accuracy,
            seen as f64 / seconds.max(1e-9),
        ];
        if !quiet {
            let quantized = Network::from_bytes(&float.to_bytes())?;
            let q = eval::quantized_accuracy(&quantized, val_set.records(), &val_pairs);
            eprintln!(
                "{} epoch {}: train loss {:.5}, validation loss {:.5}, accuracy {:.4} (quantized {q:.4})",
                if features_phase { "features" } else { "outputs" },
                epoch + 1,
                row[3],
                row[4],
                row[5]
            );
        }
        table.rows.push(row);
        done += 1;

        let mut float = float;
        float.description = format!(
            "DeepChess distilled from {}; {} feature and {} output epochs; validation accuracy {:.4}",
            config.teacher,
            done.min(config.feature_epochs),
            done.saturating_sub(config.feature_epochs),
            val_accuracy
        );
        run.save_module("model", &student)?;
        run.save_optimizer("optimizer", &optim)?;
        // The best output-phase epoch by validation accuracy is kept as best.dcnf.
        let best = table.rows.iter().filter(|r| r[1] == 2.0).map(|r| r[5]).fold(f64::MIN, f64::max);
        run.save_float(&float.to_float_bytes(), !features_phase && val_accuracy >= best)?;
        table.write(run.dir(), "metrics", &["train_loss", "val_loss", "val_accuracy"], "loss, accuracy")?;
        run.set_state(serde_json::json!({ "epochs_done": done }))?;
    }
    Ok(table)
}
