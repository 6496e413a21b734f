//! `deepchess train pos2vec`: the stacked autoencoder of paper §3.1.
//!
//! The tower is pretrained one layer at a time, as an autoencoder: first
//! 773-h₁-773 on the positions' bits, then, with that layer frozen,
//! h₁-h₂-h₁ on its codes, and so on up to the embedding. Positions come in
//! equal numbers from games White won and games Black won, drawn afresh
//! each epoch. The loss is the mean squared reconstruction error. The result
//! (`model.bpk`, a Siamese network whose tower is pretrained and whose head
//! is freshly initialised, `pretrained.bpk`) is what `train siamese --init`
//! starts from. Each layer is a phase of the epoch runner; `model.bpk`
//! holds the tower and the autoencoder in training.

use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Tensor};
use deepchess_core::arch::INPUTS;

use crate::data::mix;
use crate::eval::accuracy;
use crate::train::deepchess::model::Siamese;
use crate::train::runner::batch::Encoded;
use crate::train::runner::config::{DataConfig, ModelConfig};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::device_batches::{DeviceBatches, StagedRows, gather_split_on_device};
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, bag_sums, crelu, one_hot, seeded};

/// A Pos2Vec run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct Pos2VecConfig {
    /// The shape of the Siamese network the run's output starts; its tower
    /// is what is pretrained.
    pub model: ModelConfig,
    /// Epochs per layer, batch, optimizer (the paper: SGD, 0.005 × 0.98ᵉ).
    pub optim: OptimConfig,
    /// Positions per epoch (half from White wins, half from Black wins),
    /// validation positions, seed.
    pub data: DataConfig,
}

/// One layer's autoencoder: the encoder becomes a tower layer.
#[derive(Module, Debug)]
pub struct AutoEncoder {
    encoder: Linear,
    decoder: Linear,
}

/// What a Pos2Vec run trains: the network whose tower grows a layer at a
/// time, and the autoencoder of the layer in training.
#[derive(Module, Debug)]
pub struct Pos2VecModel {
    network: Siamese,
    autoencoder: AutoEncoder,
}

/// The file of a Pos2Vec run that `train siamese --init` loads: the network
/// with the layers pretrained so far.
pub const PRETRAINED: &str = "pretrained";

/// The reconstruction loss of layer `k` on `positions`, with the layers
/// below it taken (frozen) from `frozen`.
fn loss(frozen: &Siamese, ae: &AutoEncoder, k: usize, positions: &Positions) -> Tensor<1> {
    let (target, code) = if k == 0 {
        // The 773 bits themselves, built on the device (the padding column dropped).
        (one_hot(positions, INPUTS + 1).narrow(1, 0, INPUTS), crelu(bag_sums(&ae.encoder, positions)))
    } else {
        // The frozen layers' codes, cut off from any autodiff graph.
        let input = frozen.codes(positions, k).detach();
        (input.clone(), crelu(ae.encoder.forward(input)))
    };
    let error = ae.decoder.forward(code) - target;
    error.clone().mul(error).mean()
}

/// [`loss`] of the positions `indices` of `encoded`, batched on the host.
fn host_loss(
    frozen: &Siamese,
    ae: &AutoEncoder,
    k: usize,
    encoded: &Encoded,
    indices: &[u32],
    device: &Device,
) -> Tensor<1> {
    loss(frozen, ae, k, &encoded.batch(indices.iter().map(|&i| (i, false)), device))
}

/// Layer `k`'s freshly initialised autoencoder (the first layer's encoder
/// has the padding row of the embedding bag).
fn autoencoder(widths: &[usize], k: usize, seed: u64, device: &Device) -> AutoEncoder {
    let inputs = if k == 0 { INPUTS + 1 } else { widths[k] };
    let decoded = if k == 0 { INPUTS } else { widths[k] };
    seeded(Some(mix(seed, 0x5_0000 + k as u64)), device, |device| AutoEncoder {
        encoder: LinearConfig::new(inputs, widths[k + 1]).init(device),
        decoder: LinearConfig::new(widths[k + 1], decoded).init(device),
    })
}

/// The Pos2Vec learner.
pub struct Pos2VecLearner {
    config: Pos2VecConfig,
    inputs: Inputs,
    val_encoded: Encoded,
    val: Vec<u32>,
    /// Where its batches are built: on the device or the host
    /// ([`gather_split_on_device`]).
    batches: DeviceBatches<StagedRows>,
}

impl Pos2VecLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: Pos2VecConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let seed = config.data.seed;
        let inputs = Inputs::open(data, device, Default::default(), seed, quiet)?;
        let val_encoded = Encoded::new(inputs.val.records());
        let val: Vec<u32> = accuracy::pairs(inputs.val.records(), config.data.val / 2, seed ^ 1)
            .iter()
            .flat_map(|p| [p.better, p.worse])
            .collect();
        let on_device = gather_split_on_device(&inputs.device, inputs.encoded.len(), quiet);
        let learner = Pos2VecLearner { config, inputs, val_encoded, val, batches: DeviceBatches::host() };
        Ok(learner.with_device_batches(on_device))
    }

    /// Gathers the training batches on the device (every position uploaded
    /// once, an epoch's rows once an epoch), or builds them on the host.
    /// [`Pos2VecLearner::new`] chooses by the device and the split's size
    /// ([`gather_split_on_device`]); either way trains the same network,
    /// within float rounding.
    pub fn with_device_batches(mut self, on: bool) -> Self {
        self.batches = DeviceBatches::new(on, &self.inputs.encoded, &self.inputs.device);
        self
    }
}

impl Learner for Pos2VecLearner {
    type Model = Pos2VecModel;
    type Item = u32;

    fn phases(&self) -> Vec<Phase> {
        let layers = self.config.model.tower.len() - 1;
        (0..layers)
            .map(|k| Phase {
                name: format!("layer {}/{layers}", k + 1),
                unit: "positions",
                optim: self.config.optim.clone(),
            })
            .collect()
    }

    fn loss_name(&self) -> &'static str {
        "reconstruction MSE"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<Pos2VecModel> {
        let shape = self.config.model.shape()?;
        let device = &self.inputs.device;
        // Drawn at once by `seeded`, before the first autoencoder's draws:
        // the head that `train siamese --init` starts from.
        let seed = (!resumed).then_some(self.config.data.seed);
        let network = seeded(seed, device, |device| Siamese::new(&shape, device));
        Ok(Pos2VecModel {
            network,
            autoencoder: autoencoder(&self.config.model.tower, 0, self.config.data.seed, device),
        })
    }

    fn begin_phase(&self, model: Pos2VecModel, layer: usize) -> Pos2VecModel {
        let autoencoder = autoencoder(&self.config.model.tower, layer, self.config.data.seed, &self.inputs.device);
        Pos2VecModel { network: model.network, autoencoder }
    }

    fn end_phase(&self, model: Pos2VecModel, layer: usize) -> Pos2VecModel {
        // The encoder joins the tower when its layer is done: a copy made
        // from its values, so that the tower shares nothing with the
        // autoencoder's autodiff state.
        let network = model.network.with_tower_layer(layer, model.autoencoder.encoder.clone());
        Pos2VecModel { network, autoencoder: model.autoencoder }
    }

    fn epoch(&self, _model: &Pos2VecModel, layer: usize, epoch: usize) -> anyhow::Result<Vec<u32>> {
        let rows = self.inputs.epoch_positions(mix(layer as u64, epoch as u64), self.config.data.per_epoch);
        self.batches.stage(|| StagedRows::new(&rows, &self.inputs.device));
        Ok(rows)
    }

    fn loss(&self, model: &Pos2VecModel, layer: usize, batch: &[u32], at: usize) -> Loss {
        // The layers below are frozen: without gradients, their codes leave
        // no autodiff graph behind.
        let frozen = model.network.clone().no_grad();
        let ae = &model.autoencoder;
        let on_device = self
            .batches
            .with(|encoded, rows| loss(&frozen, ae, layer, &encoded.batch(rows.slice(at, batch.len()), false)));
        let loss = on_device
            .unwrap_or_else(|| host_loss(&frozen, ae, layer, &self.inputs.encoded, batch, &self.inputs.device));
        Loss { loss, correct: None }
    }

    fn validate(&self, model: &Pos2VecModel, layer: usize, _detail: bool) -> anyhow::Result<Validation> {
        let frozen = model.network.clone().no_grad();
        let mut sum = 0f64;
        for chunk in self.val.chunks(1024) {
            let loss = host_loss(&frozen, &model.autoencoder, layer, &self.val_encoded, chunk, &self.inputs.device);
            sum += f64::from(loss.into_scalar::<f32>()) * chunk.len() as f64;
        }
        Ok(Validation { loss: sum / self.val.len().max(1) as f64, ..Validation::default() })
    }

    fn save(&self, run: &RunDir, model: &Pos2VecModel, _rows: &[EpochRow]) -> anyhow::Result<()> {
        run.save_module(PRETRAINED, &model.network)
    }
}

/// Loads a Pos2Vec run's pretrained network into `model` (which gives the
/// shapes and the device).
pub fn load_pretrained(run: &RunDir, model: Siamese) -> anyhow::Result<Siamese> {
    run.load_module(PRETRAINED, model)
}
