//! `deepchess train pos2vec`: the stacked autoencoder of paper §3.1.
//!
//! The tower is pretrained one layer at a time, as an autoencoder: first
//! 773-h₁-773 on the positions' bits, then, with that layer frozen,
//! h₁-h₂-h₁ on its codes, and so on up to the embedding. Positions come in
//! equal numbers from games White won and games Black won, drawn afresh
//! each epoch. The loss is the mean squared reconstruction error. The result
//! (`model.bpk`, a Siamese network whose tower is pretrained and whose head
//! is freshly initialised) is what `train siamese --init` starts from.

use std::path::Path;
use std::time::Instant;

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor};
use deepchess_core::Shape;
use deepchess_core::arch::INPUTS;
use indicatif::{ProgressBar, ProgressStyle};

use crate::data::{LabelOptions, mix};
use crate::eval;
use crate::train::batch::Encoded;
use crate::train::device::DeviceChoice;
use crate::train::inputs::Inputs;
use crate::train::model::{Siamese, bag_sums, crelu, fresh};
use crate::train::run::{RunDir, state_field};
use crate::train::siamese::{OptimizerKind, optimizer};
use crate::train::table::Table;

/// Hyperparameters of a Pos2Vec run, saved as `config.json`.
#[derive(Config, Debug)]
pub struct Pos2VecConfig {
    /// Tower widths, from 773 (the layers pretrained).
    pub tower: Vec<usize>,
    /// Head widths of the Siamese network that the run's output starts.
    pub head: Vec<usize>,
    /// Epochs for each layer.
    #[config(default = 5)]
    pub epochs_per_layer: usize,
    /// Positions per epoch, half from White wins and half from Black wins.
    #[config(default = 200_000)]
    pub positions_per_epoch: usize,
    /// Positions per step.
    #[config(default = 256)]
    pub batch_size: usize,
    /// Learning rate of each layer's first epoch (the paper: 0.005).
    #[config(default = 0.005)]
    pub learning_rate: f64,
    /// Factor applied to the learning rate after each epoch (the paper: 0.98).
    #[config(default = 0.98)]
    pub lr_decay: f64,
    /// Optimizer.
    #[config(default = "OptimizerKind::Adam")]
    pub optimizer: OptimizerKind,
    /// Fixed validation positions scored after each epoch.
    #[config(default = 10_000)]
    pub val_positions: usize,
    /// Seed of the positions and the initial weights.
    #[config(default = 2016)]
    pub seed: u64,
}

/// One layer's autoencoder: the encoder becomes a tower layer.
#[derive(Module, Debug)]
pub struct AutoEncoder {
    encoder: Linear,
    decoder: Linear,
}

/// The metrics table's columns.
pub const COLUMNS: [&str; 6] = ["epoch", "layer", "lr", "train_loss", "val_loss", "positions_per_second"];

/// The reconstruction loss of layer `k` on positions `indices`, with the
/// layers below it taken (frozen) from `model`.
fn loss(model: &Siamese, ae: &AutoEncoder, k: usize, encoded: &Encoded, indices: &[u32], device: &Device) -> Tensor<1> {
    let positions = encoded.batch(indices.iter().map(|&i| (i, false)), device);
    let (target, code) = if k == 0 {
        (encoded.dense(indices, device), crelu(bag_sums(&ae.encoder, &positions)))
    } else {
        // A copy of the frozen layers' codes, cut off from any autodiff graph.
        let input = Tensor::from_data(model.codes(&positions, k).into_data(), device);
        (input.clone(), crelu(ae.encoder.forward(input)))
    };
    let error = ae.decoder.forward(code) - target;
    error.clone().mul(error).mean()
}

/// Layer `k`'s freshly initialised autoencoder (the first layer's encoder
/// has the padding row of the embedding bag).
fn autoencoder(widths: &[usize], k: usize, seed: u64, device: &Device) -> AutoEncoder {
    device.seed(mix(seed, 0x5_0000 + k as u64));
    let inputs = if k == 0 { INPUTS + 1 } else { widths[k] };
    let decoded = if k == 0 { INPUTS } else { widths[k] };
    AutoEncoder {
        encoder: LinearConfig::new(inputs, widths[k + 1]).init(device),
        decoder: LinearConfig::new(widths[k + 1], decoded).init(device),
    }
}

/// `max_epochs` ends the call after that many epochs, however far the run
/// is: `--resume` continues it later.
///
/// Trains (or resumes) a Pos2Vec run in `out`. Returns the metrics table.
pub fn train(
    config: Pos2VecConfig,
    data: &Path,
    out: &Path,
    device_choice: DeviceChoice,
    resume: bool,
    quiet: bool,
    max_epochs: Option<usize>,
) -> anyhow::Result<Table> {
    let run = RunDir::create(out)?;
    let inputs = Inputs::open(data, device_choice, LabelOptions::default(), config.seed, quiet)?;
    let (device, val_set, encoded) = (&inputs.device, &inputs.val, &inputs.encoded);
    let val_encoded = Encoded::new(val_set.records());
    let val: Vec<u32> = eval::pairs(val_set.records(), config.val_positions / 2, config.seed ^ 1)
        .iter()
        .flat_map(|&(w, l, _)| [w, l])
        .collect();

    let state = if resume { run.state()? } else { None };
    let (config, mut model, mut layer, mut done, mut table) = match state {
        Some(state) => {
            let config = Pos2VecConfig::load(run.path("config.json"))?;
            let shape = Shape::new(&config.tower, &config.head)?;
            let (layer, done) = (state_field(&state, "layer")?, state_field(&state, "epochs_done")?);
            let model = run.load_module("model", Siamese::new(&shape, device))?;
            let rows = layer * config.epochs_per_layer + done;
            let table = Table::read(&run.path("metrics.csv"), &COLUMNS, rows)?;
            anyhow::ensure!(table.rows.len() == rows, "metrics.csv has {} epochs, state.json {rows}", table.rows.len());
            (config, model, layer, done, table)
        }
        None => {
            let shape = Shape::new(&config.tower, &config.head)?;
            device.seed(config.seed);
            config.save(run.path("config.json"))?;
            (config, Siamese::new(&shape, device), 0, 0, Table::new(&COLUMNS))
        }
    };
    let layers = config.tower.len() - 1;
    let mut budget = max_epochs.unwrap_or(usize::MAX);
    while layer < layers && budget > 0 {
        // The layers below are frozen: without gradients, their codes leave
        // no autodiff graph behind.
        let frozen = model.clone().no_grad();
        let mut ae = autoencoder(&config.tower, layer, config.seed, device);
        let mut optim = optimizer(config.optimizer, 0.0);
        if done > 0 {
            ae = run.load_module("autoencoder", ae)?;
            optim = run.load_optimizer("optimizer", optim)?;
        }
        for epoch in done..config.epochs_per_layer {
            if budget == 0 {
                return Ok(table);
            }
            budget -= 1;
            let lr = config.learning_rate * config.lr_decay.powi(epoch as i32);
            let positions = inputs.epoch_positions(mix(layer as u64, epoch as u64), config.positions_per_epoch);
            let progress = if quiet { ProgressBar::hidden() } else { ProgressBar::new(positions.len() as u64) };
            progress.set_style(
                ProgressStyle::with_template("layer {prefix} {bar:30} {pos}/{len} positions {per_sec} {msg}")
                    .expect("a valid template"),
            );
            progress.set_prefix(format!("{}/{layers} epoch {}/{}", layer + 1, epoch + 1, config.epochs_per_layer));
            let start = Instant::now();
            let (mut loss_sum, mut seen) = (0f64, 0usize);
            for chunk in positions.chunks(config.batch_size.max(1)) {
                let loss = loss(&frozen, &ae, layer, encoded, chunk, device);
                let grads = GradientsParams::from_grads(loss.backward(), &ae);
                loss_sum += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
                ae = fresh(optim.step(lr, ae, grads));
                seen += chunk.len();
                progress.inc(chunk.len() as u64);
                progress.set_message(format!("loss {:.5}", loss_sum / seen as f64));
            }
            let seconds = start.elapsed().as_secs_f64();
            progress.finish_and_clear();
            let mut val_loss = 0f64;
            for chunk in val.chunks(1024) {
                let loss = loss(&frozen, &ae, layer, &val_encoded, chunk, device);
                val_loss += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
            }
            let row = vec![
                (table.rows.len() + 1) as f64,
                (layer + 1) as f64,
                lr,
                loss_sum / seen.max(1) as f64,
                val_loss / val.len().max(1) as f64,
                seen as f64 / seconds.max(1e-9),
            ];
            if !quiet {
                eprintln!(
                    "layer {} epoch {}: train loss {:.5}, validation loss {:.5}",
                    layer + 1,
                    epoch + 1,
                    row[3],
                    row[4]
                );
            }
            table.rows.push(row);
            // The encoder joins the tower when its layer is done; a copy made
            // from its values, so that the tower shares nothing with the
            // autoencoder's autodiff state.
            let finished = epoch + 1 == config.epochs_per_layer;
            if finished {
                model = model.with_tower_layer(layer, ae.encoder.clone());
            }
            run.save_module("model", &model)?;
            run.save_module("autoencoder", &ae)?;
            run.save_optimizer("optimizer", &optim)?;
            table.write(run.dir(), "metrics", &["train_loss", "val_loss"], "reconstruction MSE")?;
            let (next_layer, next_done) = if finished { (layer + 1, 0) } else { (layer, epoch + 1) };
            run.set_state(serde_json::json!({ "layer": next_layer, "epochs_done": next_done }))?;
        }
        layer += 1;
        done = 0;
    }
    Ok(table)
}
