//! `deepchess train value`: a DeepChess-family network trained position by
//! position for the scalar search, as NNUE trainers train: a wide first
//! layer (its sums updated incrementally by the engine), a narrow layer and
//! a utility head, read through the colour mirror
//! ([`ValueNet`](crate::train::deepchess::value_model::ValueNet)).
//!
//! The target of a position is the score expected from it, White's view:
//! `t = λ · result + (1 − λ) · P(eval)`, with `P(eval) = 1 / (1 + 10^(−cp/s))`
//! where the game recorded an engine evaluation (clamped to ±2,000 cp), and
//! the game's result (1, ½, 0) alone where not. The network predicts
//! `σ(s(x))`; the loss is the squared error. Every position of the training
//! split is a candidate (draws included); each epoch draws a fresh sample.
//!
//! Because the prediction is `σ(s)` and `P(eval) = σ(cp · ln 10 / s)`, the
//! centipawn scale of the exported network is `s / ln 10` centipawns per
//! unit of `s`: an engine evaluation and the network's read on one scale.
//!
//! Validation: the squared error on held-out positions, and the paper's
//! held-out pair accuracy (a position from a game White won against one
//! from a game Black won) by `s`, so the figure compares with the Siamese
//! networks'.

use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::sigmoid;
use burn::tensor::{Int, Tensor, TensorData};
use deepchess_core::arch::Activation;
use deepchess_core::{FloatNetwork, Network, Shape};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{
    Pair, Record, SourceMix, SourceSummary, SourceWeight, eval_cp, eval_probability, mix, per_input, read_sources,
};
use crate::eval::accuracy;
use crate::train::deepchess::value_model::ValueNet;
use crate::train::runner::batch::Encoded;
use crate::train::runner::config::DataConfig;
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::device_batches::{DeviceBatches, DeviceEncoded, StagedEpoch, gather_split_on_device};
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, seeded, tensor_values};

/// What a position's target blends.
#[derive(Config, Debug, PartialEq)]
pub struct TargetConfig {
    /// λ, the weight of the game's result where an evaluation exists.
    #[config(default = 0.5)]
    pub lambda: f64,
    /// `s`, centipawns: `P(eval) = 1 / (1 + 10^(−cp/s))` (400: a 400 cp
    /// lead is 10 to 1, the Elo scale).
    #[config(default = 400.0)]
    pub eval_scale_cp: f64,
    /// Inputs whose evaluations are read at a scale of their own
    /// (`--source-eval-scale NAME=S`, the inputs whose file name contains
    /// NAME; `data fit-scale` fits one per input). The network's own scale
    /// stays `eval_scale_cp`. An `Option`, so that a `config.json` written
    /// before the setting existed still resumes (as `None`).
    pub source_eval_scales: Option<Vec<SourceWeight>>,
}

/// A value run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct ValueConfig {
    /// Tower widths, from 773 to the embedding (a utility head follows).
    pub tower: Vec<usize>,
    /// Epochs, batch and optimizer.
    pub optim: OptimConfig,
    /// Positions per epoch, validation items, seed (its pair settings are
    /// unused).
    pub data: DataConfig,
    /// The target.
    pub target: TargetConfig,
    /// The inputs' weights against each other (`--source-weight`); empty:
    /// every training position is equally likely.
    #[config(default = "Vec::new()")]
    pub source_weights: Vec<SourceWeight>,
    /// Whether the first dense layer reads both perspectives
    /// ([`Shape::perspective`]; `--perspective`) instead of the tower
    /// reading the position and its mirror image apart. An `Option`, so that
    /// a `config.json` written before the setting existed still resumes (as
    /// `None`: through the mirror).
    pub perspective: Option<bool>,
    /// Outputs of the utility head, one read per position by its material
    /// ([`Shape::with_buckets`]; `--output-buckets`). An `Option`, so that a
    /// `config.json` written before the setting existed still resumes (as
    /// `None`: one output).
    pub output_buckets: Option<usize>,
    /// Whether the first layer's activation is the squared clipped ReLU
    /// ([`Activation::SquaredClippedRelu`]; `--screlu`). An `Option`, so
    /// that a `config.json` written before the setting existed still resumes
    /// (as `None`: the clipped ReLU).
    pub screlu: Option<bool>,
}

impl ValueConfig {
    /// The network's shape: the tower and a utility head.
    pub fn shape(&self) -> anyhow::Result<Shape> {
        let shape = if self.perspective == Some(true) {
            Shape::perspective(&self.tower)?
        } else {
            Shape::with_heads(&self.tower, &[], true)?
        };
        let activation =
            if self.screlu == Some(true) { Activation::SquaredClippedRelu } else { Activation::ClippedRelu };
        Ok(shape.with_buckets(self.output_buckets.unwrap_or(1))?.with_activation(activation))
    }

    /// Centipawns per unit of `s` in the exported network.
    pub fn cp_scale(&self) -> f32 {
        (self.target.eval_scale_cp / std::f64::consts::LN_10) as f32
    }
}

/// The target of `record` (White's expected score), or `None` for a damaged
/// record, its evaluation read at the run's scale.
pub fn target(record: &Record, target: &TargetConfig) -> Option<f64> {
    target_at(record, target.lambda, target.eval_scale_cp)
}

/// The target of `record` with its evaluation read at `scale_cp`.
pub fn target_at(record: &Record, lambda: f64, scale_cp: f64) -> Option<f64> {
    let result = record.result()?.white_score();
    Some(match eval_cp(record) {
        Some(cp) => lambda * result + (1.0 - lambda) * eval_probability(cp, scale_cp),
        None => result,
    })
}

/// The scale at which each input's evaluations are read: the run's, or the
/// one `--source-eval-scale` gives the input (the last flag that names it,
/// as with `--source-weight`).
struct InputScales<'a> {
    /// The inputs with a scale of their own.
    own: Vec<(&'a SourceSummary, f64)>,
    default: f64,
}

impl<'a> InputScales<'a> {
    fn new(target: &TargetConfig, sources: &'a [SourceSummary]) -> anyhow::Result<InputScales<'a>> {
        let flags = target.source_eval_scales.as_deref().unwrap_or_default();
        for s in flags {
            anyhow::ensure!(s.weight > 0.0, "the evaluation scale of {:?} must be above 0, not {}", s.source, s.weight);
        }
        let own = sources.iter().zip(per_input(flags, sources)?).filter_map(|(input, s)| Some((input, s?))).collect();
        Ok(InputScales { own, default: target.eval_scale_cp })
    }

    fn of(&self, game: u64) -> f64 {
        self.own.iter().find(|(input, _)| input.contains(game)).map_or(self.default, |&(_, s)| s)
    }
}

/// The value learner.
pub struct ValueLearner {
    config: ValueConfig,
    inputs: Inputs,
    /// Every usable training record and its target.
    candidates: Vec<(u32, f32)>,
    /// How candidates are drawn when the inputs are weighted.
    mix: Option<SourceMix>,
    /// Held-out positions, their targets.
    val_positions: Vec<(u32, f32)>,
    val_encoded: Encoded,
    val_pairs: Vec<Pair>,
    /// Where its batches are built: on the device or the host
    /// ([`gather_split_on_device`]).
    batches: DeviceBatches<StagedEpoch>,
}

impl ValueLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: ValueConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        config.shape()?;
        let seed = config.data.seed;
        let inputs = Inputs::open(data, device, Default::default(), seed, quiet)?;
        let sources = if config.source_weights.is_empty() && config.target.source_eval_scales.is_none() {
            Vec::new()
        } else {
            read_sources(data)?
        };
        let scales = InputScales::new(&config.target, &sources)?;
        let lambda = config.target.lambda;
        let targets = |records: &[Record]| -> Vec<(u32, f32)> {
            records
                .iter()
                .enumerate()
                .filter_map(|(i, r)| target_at(r, lambda, scales.of(u64::from(r.game()))).map(|t| (i as u32, t as f32)))
                .collect()
        };
        let candidates = targets(inputs.train.records());
        anyhow::ensure!(!candidates.is_empty(), "no usable positions in the training split");
        let source_mix = if config.source_weights.is_empty() {
            None
        } else {
            let records = inputs.train.records();
            let games = candidates.iter().map(|&(i, _)| u64::from(records[i as usize].game()));
            let mix = SourceMix::new(games, &sources, &config.source_weights)?;
            // Printed even when quiet: it says what the run trains on.
            print!("training positions drawn by input (--source-weight):\n{mix}");
            Some(mix)
        };
        let mut val_positions = targets(inputs.val.records());
        let mut rng = SmallRng::seed_from_u64(mix(seed, 0x7a1));
        for i in 0..val_positions.len().min(config.data.val) {
            let j = rng.random_range(i..val_positions.len());
            val_positions.swap(i, j);
        }
        val_positions.truncate(config.data.val);
        let val_encoded = Encoded::new(inputs.val.records());
        let val_pairs = accuracy::pairs(inputs.val.records(), config.data.val, seed ^ 1);
        let learner = ValueLearner {
            config,
            inputs,
            candidates,
            mix: source_mix,
            val_positions,
            val_encoded,
            val_pairs,
            batches: DeviceBatches::host(),
        };
        let on_device = gather_split_on_device(&learner.inputs.device, learner.inputs.encoded.len(), quiet);
        Ok(learner.with_device_batches(on_device))
    }

    /// Gathers the training batches on the device (every position uploaded
    /// once, an epoch's items once an epoch), or builds them on the host.
    /// [`ValueLearner::new`] chooses by the device and the split's size
    /// ([`gather_split_on_device`]);
    /// either way trains the same network, within float rounding.
    pub fn with_device_batches(mut self, on: bool) -> Self {
        self.batches = DeviceBatches::new(on, &self.inputs.encoded, &self.inputs.device);
        self
    }

    /// The float network with this run's centipawn scale.
    fn float(&self, model: &ValueNet) -> FloatNetwork {
        model.to_float(self.config.cp_scale())
    }
}

/// `s(x)` of a batch of `(record, target)` items, and the squared error of
/// `σ(s)` against the targets.
pub(crate) fn batch_loss(
    model: &ValueNet,
    encoded: &Encoded,
    items: &[(u32, f32)],
    device: &burn::tensor::Device,
) -> Tensor<1> {
    let positions = encoded.batch(items.iter().map(|&(i, _)| (i, false)), device);
    let mirrored = encoded.batch(items.iter().map(|&(i, _)| (i, true)), device);
    let targets: Vec<f32> = items.iter().map(|&(_, t)| t).collect();
    let targets = Tensor::<2>::from_data(TensorData::new(targets, [items.len(), 1]), device);
    squared_error(model, &positions, &mirrored, targets)
}

/// [`batch_loss`] of the positions at `rows` of `encoded`, on the device,
/// against `targets` (`[batch, 1]`).
pub(crate) fn device_batch_loss(
    model: &ValueNet,
    encoded: &DeviceEncoded,
    rows: Tensor<1, Int>,
    targets: Tensor<2>,
) -> Tensor<1> {
    squared_error(model, &encoded.batch(rows.clone(), false), &encoded.batch(rows, true), targets)
}

/// The mean squared error of `σ(s)` of `positions` (read with their
/// `mirrored` images) against `targets` (`[batch, 1]`).
fn squared_error(model: &ValueNet, positions: &Positions, mirrored: &Positions, targets: Tensor<2>) -> Tensor<1> {
    let error = sigmoid(model.forward(positions, mirrored)) - targets;
    error.clone().mul(error).mean()
}

impl Learner for ValueLearner {
    type Model = ValueNet;
    type Item = (u32, f32);

    fn phases(&self) -> Vec<Phase> {
        vec![Phase { name: "value".into(), unit: "positions", optim: self.config.optim.clone() }]
    }

    fn loss_name(&self) -> &'static str {
        "squared error of the expected score"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<ValueNet> {
        let shape = self.config.shape()?;
        let seed = (!resumed).then_some(self.config.data.seed);
        Ok(seeded(seed, &self.inputs.device, |device| ValueNet::new(&shape, device)))
    }

    fn epoch(&self, _model: &ValueNet, _phase: usize, epoch: usize) -> anyhow::Result<Vec<(u32, f32)>> {
        let mut rng = SmallRng::seed_from_u64(mix(self.config.data.seed, 0x7a1_0000 + epoch as u64));
        let n = self.candidates.len();
        let draw = |rng: &mut SmallRng| match &self.mix {
            Some(mix) => mix.draw(rng) as usize,
            None => rng.random_range(0..n),
        };
        let items: Vec<(u32, f32)> = (0..self.config.data.per_epoch).map(|_| self.candidates[draw(&mut rng)]).collect();
        self.batches.stage(|| StagedEpoch::new(&items, &self.inputs.device));
        Ok(items)
    }

    fn loss(&self, model: &ValueNet, _phase: usize, batch: &[(u32, f32)], at: usize) -> Loss {
        let on_device = self.batches.with(|encoded, staged| {
            let (rows, targets) = staged.slice(at, batch.len());
            device_batch_loss(model, encoded, rows, targets)
        });
        let loss = on_device.unwrap_or_else(|| batch_loss(model, &self.inputs.encoded, batch, &self.inputs.device));
        Loss { loss, correct: None }
    }

    fn constrain(&self, model: ValueNet) -> ValueNet {
        model.clip()
    }

    fn validate(&self, model: &ValueNet, _phase: usize, detail: bool) -> anyhow::Result<Validation> {
        let scoring = model.clone().no_grad();
        let mut sum = 0f64;
        for chunk in self.val_positions.chunks(1024) {
            let loss = batch_loss(&scoring, &self.val_encoded, chunk, &self.inputs.device);
            sum += f64::from(tensor_values(loss)[0]) * chunk.len() as f64;
        }
        let loss = sum / self.val_positions.len().max(1) as f64;
        // Pairs need a won and a lost game among the held-out ones; without
        // them there is no accuracy to report, not an accuracy of 0.
        if self.val_pairs.is_empty() {
            return Ok(Validation { loss, accuracy: None, detail: None });
        }
        let float = self.float(model);
        let accuracy =
            accuracy::value_accuracy(&self.val_pairs, |i| accuracy::float_value(&float, self.val_encoded.features(i)));
        let detail = if detail {
            let quantized = Network::from_bytes(&float.to_bytes())?;
            let quantized_accuracy =
                accuracy::quantized_value_accuracy(&quantized, self.inputs.val.records(), &self.val_pairs);
            Some(format!("validation accuracy, quantized: {quantized_accuracy:.4}"))
        } else {
            None
        };
        Ok(Validation { loss, accuracy: Some(accuracy), detail })
    }

    fn save(&self, run: &RunDir, model: &ValueNet, rows: &[EpochRow]) -> anyhow::Result<()> {
        let mut float = self.float(model);
        let val_accuracy = rows
            .last()
            .and_then(|r| r.val_accuracy)
            .map_or_else(|| "none (no held-out pairs)".to_owned(), |a| format!("{a:.4}"));
        float.description = format!(
            "DeepChess value network {}{:?}{} + utility{}, trained position by position on λ·result + (1 − λ)·P(eval) \
             (λ = {}, s = {} cp){}{}; {} epochs of {} positions; validation pair accuracy {}",
            if self.config.perspective == Some(true) { "from both perspectives, " } else { "" },
            self.config.tower,
            if self.config.screlu == Some(true) { ", first layer squared clipped ReLU" } else { "" },
            match self.config.output_buckets {
                Some(buckets) if buckets > 1 => format!(" of {buckets} output buckets by material"),
                _ => String::new(),
            },
            self.config.target.lambda,
            self.config.target.eval_scale_cp,
            if self.config.source_weights.is_empty() {
                String::new()
            } else {
                let weights: Vec<String> = self.config.source_weights.iter().map(ToString::to_string).collect();
                format!(", inputs weighted {}", weights.join(" "))
            },
            match self.config.target.source_eval_scales.as_deref() {
                None | Some([]) => String::new(),
                Some(own) => {
                    let scales: Vec<String> = own.iter().map(ToString::to_string).collect();
                    format!(", evaluations of {} read at their own s", scales.join(" "))
                }
            },
            rows.len(),
            self.config.data.per_epoch,
            val_accuracy
        );
        // The epoch with the lowest validation loss is kept as best.dcnf.
        run.save_float(&float.to_float_bytes(), metrics::last_is_best(rows, |r| Some(-r.val_loss)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Eval, GameResult};
    use deepchess_core::shakmaty::Position;

    fn input(name: &str, first_game: u64, games_read: u64) -> SourceSummary {
        SourceSummary { path: name.into(), first_game, games_read, ..SourceSummary::default() }
    }

    #[test]
    fn each_input_reads_its_evaluations_at_its_own_scale() {
        let sources =
            [input("tcec.pgn.zst", 0, 10), input("selfplay-a.pgn.zst", 10, 5), input("selfplay-b.pgn", 15, 5)];
        let scale = |name: &str, s: f64| SourceWeight { source: name.into(), weight: s };
        let mut target = TargetConfig::new();
        target.source_eval_scales = Some(vec![scale("selfplay", 500.0), scale("selfplay-b", 600.0)]);
        let scales = InputScales::new(&target, &sources).unwrap();
        // The run's own scale where no flag names the input; the last flag that names one wins.
        assert_eq!([0, 9, 10, 14, 15, 19, 20].map(|g| scales.of(g)), [400.0, 400.0, 500.0, 500.0, 600.0, 600.0, 400.0]);
        // Its targets: the same evaluation, a different expected score.
        let pos = shakmaty::Chess::default();
        let record = |game| Record::new(&pos, pos.legal_moves()[0], 10, GameResult::Draw, Some(Eval::Cp(300)), game);
        let at = |game| target_at(&record(game), 0.0, scales.of(u64::from(game))).unwrap();
        assert_eq!(at(0), eval_probability(300.0, 400.0));
        assert_eq!(at(16), eval_probability(300.0, 600.0));
        assert!(at(0) > at(12) && at(12) > at(16));

        target.source_eval_scales = Some(vec![scale("ccc", 300.0)]);
        let unknown = InputScales::new(&target, &sources).err().unwrap().to_string();
        assert!(unknown.contains("\"ccc\"") && unknown.contains("tcec.pgn.zst"), "{unknown}");
        target.source_eval_scales = Some(vec![scale("tcec", 0.0)]);
        assert!(InputScales::new(&target, &sources).is_err());
    }

    #[test]
    fn a_target_saved_before_own_scales_existed_still_loads() {
        let old: TargetConfig = serde_json::from_str(r#"{"lambda": 0.5, "eval_scale_cp": 400.0}"#).unwrap();
        assert_eq!(old, TargetConfig::new());
        let mut target = TargetConfig::new();
        target.source_eval_scales = Some(vec![SourceWeight { source: "selfplay".into(), weight: 568.0 }]);
        let text = serde_json::to_string(&target).unwrap();
        assert_eq!(serde_json::from_str::<TargetConfig>(&text).unwrap(), target);
    }
}
