//! `deepchess train dbn`: Herud and Mueller's deep belief network.
//!
//! 772 inputs (the 768 piece bits and the 4 castling rights, no side to
//! move), hidden layers of [`Units`]: sigmoid (`quick`), or ReLU as the
//! paper has them (`paper`). Each hidden layer is first pre-trained as a
//! restricted Boltzmann machine by contrastive divergence (CD-1): the
//! visible units are the positions' bits for the first layer and the layer
//! below's activations for the others. With sigmoid units the CD-1 update
//! is the gradient of `F(v₀) − F(v₁)`, the free energy of the data minus
//! that of its one-step Gibbs reconstruction (held fixed), `F(v) = −v·b −
//! Σⱼ softplus(cⱼ + (vW)ⱼ)`; so each layer is one phase of the epoch runner
//! with that loss. ReLU units are Nair and Hinton's noisy rectified units
//! (*Rectified Linear Units Improve Restricted Boltzmann Machines*, 2010):
//! a hidden sample is `max(0, x + N(0, σ(x)))`, a reconstruction of real
//! visible units (the layers above the first) `max(0, ·)`, and the loss is
//! the one whose gradient is CD-1's update `v₀ᵀh₀ − v₁ᵀh₁` with the units'
//! means `h = max(0, x)` held fixed: `−(v₀·b + h₀·x₀) + (v₁·b + h₁·x₁)`.
//! Then the whole network is fine-tuned with dropout 0.5 on its hidden
//! layers, in one of three approaches:
//!
//! - (a) [`Approach::Wdl`]: win/draw/loss of the game, softmax and
//!   cross-entropy; the value is `P(win) − P(loss)`;
//! - (b) [`Approach::Regression`]: the engine evaluation recorded in the
//!   game, clipped to ±10 pawns and divided by 10, through `tanh`, Huber
//!   loss (δ = 1);
//! - (c) [`Approach::Classes7`]: the evaluation quantized into seven classes
//!   at −10, −2, −0.5, 0.5, 2 and 10 pawns, softmax and cross-entropy; the
//!   value is the expected class value (the classes' middles in tens of pawns).
//!
//! Values are for White, and 1 is 10 pawns (1,000 centipawns) for (b) and
//! (c); for (a), `P(win) − P(loss)` is scaled to the same centipawns as the
//! others' by its least-squares fit to the recorded evaluations.

use std::path::Path;

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::activation::{log_softmax, relu, sigmoid, softplus};
use burn::tensor::{Device, Distribution, Int, Tensor, TensorData};
use deepchess_core::learned::{Activation, InputKind, LearnedNet, OutputKind};
use deepchess_core::shakmaty::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{GameResult, Record, eval_cp, mix};
use crate::train::learned::mlp::{Mlp, fit_cp_scale};
use crate::train::runner::batch::Encoded;
use crate::train::runner::config::{DataConfig, MlpConfig};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, bag_sums, random, seeded};

/// The input encoding.
pub const INPUT: InputKind = InputKind::Castling772;

/// What the fine-tuned network predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum Approach {
    /// (a) The game's result: win, draw or loss, for White.
    Wdl,
    /// (b) The engine evaluation, regressed through `tanh`.
    Regression,
    /// (c) The engine evaluation in seven classes.
    Classes7,
}

/// The hidden units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum Units {
    /// Logistic units, binary in the RBMs.
    Sigmoid,
    /// Rectified linear units, noisy in the RBMs (the paper's).
    Relu,
}

impl Units {
    /// The activation core runs.
    pub fn activation(self) -> Activation {
        match self {
            Units::Sigmoid => Activation::Sigmoid,
            Units::Relu => Activation::Relu,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Units::Sigmoid => "sigmoid",
            Units::Relu => "ReLU",
        }
    }
}

/// The seven classes' boundaries, in pawns.
pub const CLASS_BOUNDS: [f64; 6] = [-10.0, -2.0, -0.5, 0.5, 2.0, 10.0];
/// The seven classes' values (their middles in tens of pawns; the outer ones ±1).
pub const CLASS_VALUES: [f32; 7] = [-1.0, -0.6, -0.125, 0.0, 0.125, 0.6, 1.0];

impl Approach {
    /// The output layer's width.
    pub fn outputs(self) -> usize {
        match self {
            Approach::Wdl => 3,
            Approach::Regression => 1,
            Approach::Classes7 => 7,
        }
    }

    fn output(self) -> OutputKind {
        match self {
            Approach::Wdl => OutputKind::Classes(vec![1.0, 0.0, -1.0]),
            Approach::Regression => OutputKind::Tanh,
            Approach::Classes7 => OutputKind::Classes(CLASS_VALUES.to_vec()),
        }
    }

    /// Whether it learns from evaluations (else from results).
    pub fn needs_evals(self) -> bool {
        self != Approach::Wdl
    }

    /// The target of `record`: a class index, or the regression target in
    /// ±1; `None` if the record lacks what the approach needs.
    fn target(self, record: &Record) -> Option<f32> {
        match self {
            Approach::Wdl => match record.result()? {
                GameResult::WhiteWins => Some(0.0),
                GameResult::Draw => Some(1.0),
                GameResult::BlackWins => Some(2.0),
            },
            Approach::Regression => Some((eval_cp(record)? / 1000.0).clamp(-1.0, 1.0) as f32),
            Approach::Classes7 => {
                let pawns = eval_cp(record)? / 100.0;
                Some(CLASS_BOUNDS.iter().filter(|&&b| pawns > b).count() as f32)
            }
        }
    }
}

/// The RBM pre-training of each hidden layer.
#[derive(Config, Debug)]
pub struct PretrainConfig {
    /// Epochs, batch and optimizer of each layer (SGD: CD-1's update).
    pub optim: OptimConfig,
    /// Positions per epoch.
    #[config(default = 200_000)]
    pub positions_per_epoch: usize,
}

/// A DBN run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct DbnConfig {
    /// Hidden widths (the paper's pick: 100, 100, 100).
    pub model: MlpConfig,
    /// The RBM pre-training.
    pub pretrain: PretrainConfig,
    /// The fine-tuning's epochs, batch and optimizer.
    pub optim: OptimConfig,
    /// Positions per fine-tuning epoch, validation positions, seed.
    pub data: DataConfig,
    /// What the network predicts.
    pub approach: Approach,
    /// Dropout on the hidden layers while fine-tuning.
    #[config(default = 0.5)]
    pub dropout: f64,
    /// The hidden units, in the RBMs and the fine-tuned network.
    #[config(default = "Units::Sigmoid")]
    pub units: Units,
}

/// What a DBN run trains: the network, and each RBM's visible biases.
#[derive(Module, Debug)]
pub struct Dbn {
    net: Mlp,
    visible: Vec<Param<Tensor<1>>>,
}

/// The DBN learner.
pub struct DbnLearner {
    config: DbnConfig,
    inputs: Inputs,
    /// Training records the approach can use.
    usable: Vec<u32>,
    /// Validation records (and their targets).
    val: Vec<(u32, f32)>,
    /// The validation split's positions, encoded once (the training
    /// split's are in `inputs`).
    val_encoded: Encoded,
}

/// The free energy of visible vectors `v` (`[n, width]`) whose hidden
/// pre-activations are `pre`: `−v·b − Σⱼ softplus(preⱼ)`, `[n]`.
fn free_energy(v: Tensor<2>, pre: Tensor<2>, visible: Tensor<1>) -> Tensor<1> {
    let [n, width] = v.dims();
    let linear = v.mul(visible.reshape([1, width])).sum_dim(1).reshape([n]);
    let hidden = softplus(pre, 1.0).sum_dim(1).reshape([n]);
    (linear + hidden).neg()
}

impl DbnLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: DbnConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let inputs = Inputs::open(data, device, Default::default(), config.data.seed, quiet)?;
        let approach = config.approach;
        let usable: Vec<u32> = inputs
            .train
            .records()
            .iter()
            .enumerate()
            .filter(|(_, r)| approach.target(r).is_some())
            .map(|(i, _)| i as u32)
            .collect();
        anyhow::ensure!(!usable.is_empty(), "the training split has no position for the {approach:?} approach");
        let mut rng = SmallRng::seed_from_u64(config.data.seed ^ 1);
        let records = inputs.val.records();
        let candidates: Vec<u32> =
            (0..records.len() as u32).filter(|&i| approach.target(&records[i as usize]).is_some()).collect();
        anyhow::ensure!(!candidates.is_empty(), "the validation split has no position for the {approach:?} approach");
        let val = (0..config.data.val.min(candidates.len()))
            .map(|_| {
                let i = candidates[rng.random_range(0..candidates.len())];
                (i, approach.target(&records[i as usize]).expect("filtered"))
            })
            .collect();
        let val_encoded = Encoded::new(records);
        Ok(DbnLearner { config, inputs, usable, val, val_encoded })
    }

    fn layers(&self) -> usize {
        self.config.model.hidden.len()
    }

    /// The active inputs of positions `indices` of `encoded` (the encoding
    /// is White's view, whoever is to move).
    fn lists(encoded: &Encoded, indices: &[u32]) -> Vec<Vec<u16>> {
        indices.iter().map(|&i| INPUT.active_of(encoded.features(i), Color::White)).collect()
    }

    fn positions(&self, lists: &[Vec<u16>]) -> Positions {
        Positions::from_lists(lists.iter().map(Vec::as_slice), INPUT.inputs(), &self.inputs.device)
    }

    /// Layer `k`'s RBM on positions `indices` of `encoded`: the CD-1 loss
    /// and the reconstruction error (read back only by validation). Its
    /// visible units are the bits (layer 0) or the frozen lower layers'
    /// probabilities.
    fn rbm(&self, model: &Dbn, k: usize, encoded: &Encoded, indices: &[u32]) -> (Tensor<1>, Tensor<1>) {
        let device = &self.inputs.device;
        let lists = DbnLearner::lists(encoded, indices);
        let positions = self.positions(&lists);
        let layer = model.net.layer(k);
        let visible = model.visible[k].val();
        let bias = layer.bias.as_ref().expect("layers have biases").val();
        let units = self.config.units;
        let (v0, pre0) = if k == 0 {
            let width = INPUT.inputs();
            let mut dense = vec![0f32; lists.len() * width];
            for (row, list) in dense.chunks_exact_mut(width).zip(&lists) {
                for &b in list {
                    row[usize::from(b)] = 1.0;
                }
            }
            let v0 = Tensor::<2>::from_data(TensorData::new(dense, [lists.len(), width]), device);
            (v0, bag_sums(layer, &positions))
        } else {
            let frozen = model.net.clone().no_grad();
            let v0 = Tensor::<2>::from_data(frozen.codes(&positions, k, units.activation()).into_data(), device);
            (v0.clone(), layer.forward(v0))
        };
        let [_, width] = v0.dims();
        let [_, hidden] = pre0.dims();
        // The weights of the dense products: without the first layer's padding row.
        let weight = layer.weight.val();
        let weight = if k == 0 { weight.narrow(0, 0, width) } else { weight };
        let visible_bias = visible.clone().reshape([1, width]);
        if units == Units::Relu {
            // Noisy rectified hidden units; the bits below stay binary
            // (logistic), real visible units above the first are rectified.
            let x0 = pre0.clone().detach();
            let noise = random(x0.dims(), Distribution::Normal(0.0, 1.0), device);
            let sample = relu(x0.clone() + noise.mul(sigmoid(x0.clone()).sqrt()));
            let down = sample.matmul(weight.clone().transpose()) + visible_bias;
            let v1 = if k == 0 { sigmoid(down) } else { relu(down) }.detach();
            let pre1 = v1.clone().matmul(weight) + bias.reshape([1, hidden]);
            let (h0, h1) = (relu(x0), relu(pre1.clone().detach()));
            // `v·b + h·x`, the negative energy with the means held fixed: its
            // gradient is the statistic CD-1 compares (the data's minus the
            // reconstruction's).
            let statistic = |v: Tensor<2>, h: Tensor<2>, pre: Tensor<2>| {
                let [n, _] = v.dims();
                (v.mul(visible.clone().reshape([1, width])).sum_dim(1) + h.mul(pre).sum_dim(1)).reshape([n])
            };
            let loss = (statistic(v1.clone(), h1, pre1) - statistic(v0.clone(), h0, pre0)).mean();
            return (loss, (v0 - v1).powf_scalar(2.0).mean());
        }
        let h0 = sigmoid(pre0.clone().detach());
        let sample = random(h0.dims(), Distribution::Uniform(0.0, 1.0), device).lower(h0).float();
        let v1 = sigmoid(sample.matmul(weight.clone().transpose()) + visible_bias).detach();
        let pre1 = v1.clone().matmul(weight) + bias.reshape([1, hidden]);
        let loss = (free_energy(v0.clone(), pre0, visible.clone()) - free_energy(v1.clone(), pre1, visible)).mean();
        (loss, (v0 - v1).powf_scalar(2.0).mean())
    }

    /// The fine-tuning loss on `indices` (with `dropout`) and the items right.
    fn supervised(&self, model: &Dbn, encoded: &Encoded, batch: &[(u32, f32)], dropout: f64) -> Loss {
        let device = &self.inputs.device;
        let indices: Vec<u32> = batch.iter().map(|b| b.0).collect();
        let positions = self.positions(&DbnLearner::lists(encoded, &indices));
        let drop = |x: Tensor<2>| -> Tensor<2> {
            if dropout <= 0.0 {
                return x;
            }
            let keep = random(x.dims(), Distribution::Uniform(0.0, 1.0), device).greater_elem(dropout);
            x.mul(keep.float()).div_scalar(1.0 - dropout)
        };
        let out = model.net.forward_with(&positions, self.config.units.activation(), drop);
        let n = batch.len();
        match self.config.approach {
            Approach::Regression => {
                let target: Vec<f32> = batch.iter().map(|b| b.1).collect();
                let target = Tensor::<1>::from_data(TensorData::new(target, [n]), device);
                let error = burn::tensor::activation::tanh(out.reshape([n])) - target;
                let a = error.abs();
                let q = a.clone().clamp_max(1.0);
                let loss = (q.clone().mul(q.clone()).mul_scalar(0.5) + (a - q)).mean();
                Loss { loss, correct: None }
            }
            approach => {
                let classes = approach.outputs();
                let mut onehot = vec![0f32; n * classes];
                for (row, b) in batch.iter().enumerate() {
                    onehot[row * classes + b.1 as usize] = 1.0;
                }
                let target = Tensor::<2>::from_data(TensorData::new(onehot, [n, classes]), device);
                let labels: Vec<i64> = batch.iter().map(|b| b.1 as i64).collect();
                let labels = Tensor::<2, Int>::from_data(TensorData::new(labels, [n, 1]), device);
                let correct = out.clone().detach().argmax(1).equal(labels).int().sum().float();
                let loss = log_softmax(out, 1).mul(target).sum_dim(1).mean().neg();
                Loss { loss: loss.reshape([1]), correct: Some(correct) }
            }
        }
    }

    /// The exported network; for (a), its centipawn scale fitted to the
    /// recorded evaluations of the validation games (1,000 if too few).
    pub fn export(&self, model: &Dbn, description: String) -> anyhow::Result<LearnedNet> {
        let output = self.config.approach.output();
        let unit = model.net.to_learned(INPUT, self.config.units.activation(), output, false, 1.0, description)?;
        let scale = match self.config.approach {
            Approach::Wdl => {
                let clipped = |cp: f64| Some(cp.clamp(-1000.0, 1000.0));
                fit_cp_scale(&unit, self.inputs.val.records(), clipped).unwrap_or(1000.0)
            }
            _ => 1000.0,
        };
        Ok(unit.with_cp_scale(scale)?)
    }
}

/// One item of a DBN epoch: a training record and its target.
pub type Item = (u32, f32);

impl Learner for DbnLearner {
    type Model = Dbn;
    type Item = Item;

    fn phases(&self) -> Vec<Phase> {
        let layers = self.layers();
        let mut phases: Vec<Phase> = (0..layers)
            .map(|k| Phase {
                name: format!("rbm {}/{layers}", k + 1),
                unit: "positions",
                optim: self.config.pretrain.optim.clone(),
            })
            .collect();
        phases.push(Phase {
            name: format!("{:?}", self.config.approach),
            unit: "positions",
            optim: self.config.optim.clone(),
        });
        phases
    }

    fn loss_name(&self) -> &'static str {
        "free energy (RBM), then the approach's loss"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<Dbn> {
        let widths: Vec<usize> =
            self.config.model.hidden.iter().copied().chain([self.config.approach.outputs()]).collect();
        let mut visible_widths = vec![INPUT.inputs()];
        visible_widths.extend(&self.config.model.hidden[..self.layers() - 1]);
        let build = |device: &Device| {
            let net = Mlp::new(INPUT.inputs(), &widths, device);
            let visible = visible_widths.iter().map(|&w| Param::from_tensor(Tensor::<1>::zeros([w], device))).collect();
            Dbn { net, visible }
        };
        Ok(seeded((!resumed).then_some(self.config.data.seed), &self.inputs.device, build))
    }

    fn epoch(&self, _model: &Dbn, phase: usize, epoch: usize) -> anyhow::Result<Vec<Item>> {
        let mut rng = SmallRng::seed_from_u64(mix(self.config.data.seed, (phase as u64) << 32 | epoch as u64));
        let records = self.inputs.train.records();
        let count =
            if phase < self.layers() { self.config.pretrain.positions_per_epoch } else { self.config.data.per_epoch };
        Ok((0..count)
            .map(|_| {
                let i = self.usable[rng.random_range(0..self.usable.len())];
                (i, self.config.approach.target(&records[i as usize]).expect("usable"))
            })
            .collect())
    }

    fn loss(&self, model: &Dbn, phase: usize, batch: &[Item], _at: usize) -> Loss {
        let encoded = &self.inputs.encoded;
        if phase < self.layers() {
            let indices: Vec<u32> = batch.iter().map(|b| b.0).collect();
            let (loss, _) = self.rbm(model, phase, encoded, &indices);
            return Loss { loss, correct: None };
        }
        self.supervised(model, encoded, batch, self.config.dropout)
    }

    fn validate(&self, model: &Dbn, phase: usize, _detail: bool) -> anyhow::Result<Validation> {
        let scoring = model.clone().no_grad();
        let encoded = &self.val_encoded;
        let (mut loss, mut correct, mut any) = (0f64, 0usize, false);
        for chunk in self.val.chunks(1024) {
            if phase < self.layers() {
                // The reconstruction error, the RBM's usual figure.
                let indices: Vec<u32> = chunk.iter().map(|b| b.0).collect();
                let (_, error) = self.rbm(&scoring, phase, encoded, &indices);
                loss += f64::from(error.into_scalar::<f32>()) * chunk.len() as f64;
            } else {
                let Loss { loss: l, correct: c } = self.supervised(&scoring, encoded, chunk, 0.0);
                loss += f64::from(l.into_scalar::<f32>()) * chunk.len() as f64;
                if let Some(c) = c {
                    correct += c.into_scalar::<f32>() as usize;
                    any = true;
                }
            }
        }
        let n = self.val.len().max(1) as f64;
        Ok(Validation { loss: loss / n, accuracy: any.then(|| correct as f64 / n), detail: None })
    }

    fn save(&self, run: &RunDir, model: &Dbn, rows: &[EpochRow]) -> anyhow::Result<()> {
        let fine = |r: &&EpochRow| r.phase == self.layers() + 1;
        let Some(last) = rows.last().filter(fine) else { return Ok(()) };
        let figure = |r: &EpochRow| r.val_accuracy.unwrap_or(-r.val_loss);
        let description = format!(
            "Herud–Mueller deep belief network, approach {:?} (772 inputs, {} {:?}, RBM pre-trained by CD-1, dropout {}); {} fine-tuning epochs of {} positions; held-out {}",
            self.config.approach,
            self.config.units.name(),
            self.config.model.hidden,
            self.config.dropout,
            rows.iter().filter(fine).count(),
            self.config.data.per_epoch,
            last.val_accuracy
                .map_or_else(|| format!("Huber loss {:.4}", last.val_loss), |a| format!("class accuracy {a:.4}"))
        );
        let bytes = self.export(model, description)?.to_bytes();
        run.save_learned(&bytes, metrics::last_is_best(rows, |r| fine(&r).then(|| figure(r))))
    }
}
