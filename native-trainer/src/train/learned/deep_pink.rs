//! `deepchess train deep-pink`: Deep Pink's evaluation (Bernhardsson 2015).
//!
//! Triplets from games: a position `p`, the position `q` after the move
//! actually played, and `r` after a random other legal move. Each position
//! is seen from its side to move (768 piece inputs, the colour mirror image
//! when Black is to move), and `f` is the value for the player who has just
//! moved. The objective, maximised:
//!
//! `log σ(f(q) − f(r)) + κ log σ(f(p) + f(q)) + κ log σ(−f(q) − f(p))`:
//! the move played is better than a random one, and `f(p) = −f(q)`
//! (softly, with κ = 10): one side's gain is the other's loss.
//!
//! Three ReLU layers, SGD with Nesterov momentum. The export negates the
//! last layer, so that the `.dcsn` value is for the side to move, and fits
//! the centipawn scale to the engine evaluations recorded in the games.
//! Deep Pink played it with negamax; here the scalar search (negamax with
//! alpha-beta and PVS) does.

use std::path::Path;

use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::log_sigmoid;
use deepchess_core::learned::{Activation, InputKind, LearnedNet, OutputKind};
use deepchess_core::shakmaty::{Chess, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::data::{Record, mix};
use crate::train::learned::mlp::{Mlp, fit_cp_scale};
use crate::train::runner::config::{DataConfig, MlpConfig};
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::inputs::Inputs;
use crate::train::runner::learner::{Learner, Loss, Phase, Validation};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::{Positions, seeded};

/// The input encoding.
pub const INPUT: InputKind = InputKind::SideToMove768;

/// A Deep Pink run's configuration, saved as `config.json`.
#[derive(Config, Debug)]
pub struct DeepPinkConfig {
    /// The hidden widths (the paper: three of 2,048).
    pub model: MlpConfig,
    /// Epochs, batch, optimizer (SGD with Nesterov momentum).
    pub optim: OptimConfig,
    /// Triplets per epoch, validation triplets, seed.
    pub data: DataConfig,
    /// κ, the weight of `f(p) = −f(q)`.
    #[config(default = 10.0)]
    pub kappa: f64,
}

/// A triplet's three positions as active inputs.
#[derive(Clone, Debug)]
pub struct Triplet {
    p: Vec<u16>,
    q: Vec<u16>,
    r: Vec<u16>,
}

/// The triplet of `record`, its random move drawn by `rng`; `None` for a
/// damaged record or a position with a single legal move.
pub fn triplet(record: &Record, rng: &mut SmallRng) -> Option<Triplet> {
    let pos = record.position()?;
    let played = record.played().to_move(&pos).ok()?;
    let others: Vec<_> = pos.legal_moves().into_iter().filter(|&m| m != played).collect();
    if others.is_empty() {
        return None;
    }
    let random = others[rng.random_range(0..others.len())];
    let after = |m| -> Chess {
        let mut next = pos.clone();
        next.play_unchecked(m);
        next
    };
    Some(Triplet { p: INPUT.active(&pos), q: INPUT.active(&after(played)), r: INPUT.active(&after(random)) })
}

/// `count` triplets from random records of `records`, drawn by `seed`.
fn triplets(records: &[Record], count: usize, seed: u64) -> Vec<Triplet> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count.saturating_mul(4) && !records.is_empty() {
        attempts += 1;
        if let Some(t) = triplet(&records[rng.random_range(0..records.len())], &mut rng) {
            out.push(t);
        }
    }
    out
}

/// The Deep Pink learner.
pub struct DeepPinkLearner {
    config: DeepPinkConfig,
    inputs: Inputs,
    val: Vec<Triplet>,
}

impl DeepPinkLearner {
    /// Opens the dataset directory `data` for `config`.
    pub fn new(config: DeepPinkConfig, data: &Path, device: DeviceChoice, quiet: bool) -> anyhow::Result<Self> {
        let inputs = Inputs::open(data, device, Default::default(), config.data.seed, quiet)?;
        let val = triplets(inputs.val.records(), config.data.val, config.data.seed ^ 1);
        anyhow::ensure!(!val.is_empty(), "the validation split has no position with two legal moves");
        Ok(DeepPinkLearner { config, inputs, val })
    }

    fn widths(&self) -> Vec<usize> {
        self.config.model.hidden.iter().copied().chain([1]).collect()
    }

    /// `f` of a batch's p, q and r (`[batch]` each), in one pass.
    fn values(&self, model: &Mlp, batch: &[Triplet]) -> [burn::tensor::Tensor<1>; 3] {
        let n = batch.len();
        let lists = batch.iter().map(|t| t.p.as_slice()).chain(batch.iter().map(|t| t.q.as_slice()));
        let lists = lists.chain(batch.iter().map(|t| t.r.as_slice()));
        let positions = Positions::from_lists(lists, INPUT.inputs(), &self.inputs.device);
        let f = model.forward(&positions, Activation::Relu).reshape([3 * n]);
        [f.clone().narrow(0, 0, n), f.clone().narrow(0, n, n), f.narrow(0, 2 * n, n)]
    }

    /// The objective's negation (the loss) and the triplets whose played
    /// move beats the random one.
    fn objective(&self, model: &Mlp, batch: &[Triplet]) -> Loss {
        let [fp, fq, fr] = self.values(model, batch);
        let kappa = self.config.kappa;
        let sum = fp.clone() + fq.clone();
        let objective = log_sigmoid(fq.clone() - fr.clone())
            + log_sigmoid(sum.clone()).mul_scalar(kappa)
            + log_sigmoid(sum.neg()).mul_scalar(kappa);
        let correct = fq.detach().greater(fr.detach()).int().sum().float();
        Loss { loss: objective.mean().neg(), correct: Some(correct) }
    }

    /// The exported network, its centipawn scale fitted (least squares
    /// through the origin) to the evaluations recorded in the validation
    /// games; 100 if they are too few or the fit is not positive.
    pub fn export(&self, model: &Mlp, description: String) -> anyhow::Result<LearnedNet> {
        let unit = model.to_learned(INPUT, Activation::Relu, OutputKind::Linear, true, 1.0, description)?;
        // Positions evaluated beyond ±10 pawns are left out of the fit.
        let within = |cp: f64| (cp.abs() <= 1000.0).then_some(cp);
        let scale = fit_cp_scale(&unit, self.inputs.val.records(), within).unwrap_or(100.0);
        Ok(unit.with_cp_scale(scale)?)
    }
}

impl Learner for DeepPinkLearner {
    type Model = Mlp;
    type Item = Triplet;

    fn phases(&self) -> Vec<Phase> {
        vec![Phase { name: "deep-pink".into(), unit: "triplets", optim: self.config.optim.clone() }]
    }

    fn loss_name(&self) -> &'static str {
        "−objective"
    }

    fn init(&self, resumed: bool) -> anyhow::Result<Mlp> {
        let widths = self.widths();
        let seed = (!resumed).then_some(self.config.data.seed);
        Ok(seeded(seed, &self.inputs.device, |device| Mlp::new(INPUT.inputs(), &widths, device)))
    }

    fn epoch(&self, _model: &Mlp, _phase: usize, epoch: usize) -> anyhow::Result<Vec<Triplet>> {
        Ok(triplets(self.inputs.train.records(), self.config.data.per_epoch, mix(self.config.data.seed, epoch as u64)))
    }

    fn loss(&self, model: &Mlp, _phase: usize, batch: &[Triplet], _at: usize) -> Loss {
        self.objective(model, batch)
    }

    fn validate(&self, model: &Mlp, _phase: usize, _detail: bool) -> anyhow::Result<Validation> {
        let scoring = model.clone().no_grad();
        let (mut loss, mut correct) = (0f64, 0usize);
        for chunk in self.val.chunks(1024) {
            let Loss { loss: l, correct: c } = self.objective(&scoring, chunk);
            loss += f64::from(l.into_scalar::<f32>()) * chunk.len() as f64;
            correct += c.map_or(0, |c| c.into_scalar::<f32>() as usize);
        }
        let n = self.val.len() as f64;
        Ok(Validation { loss: loss / n, accuracy: Some(correct as f64 / n), detail: None })
    }

    fn save(&self, run: &RunDir, model: &Mlp, rows: &[EpochRow]) -> anyhow::Result<()> {
        let accuracy = |r: &EpochRow| r.val_accuracy.unwrap_or(0.0);
        let last = rows.last().map_or(0.0, accuracy);
        let description = format!(
            "Deep Pink (768 inputs from the side to move, ReLU {:?}, κ = {}); {} epochs of {} triplets; held-out triplet accuracy {last:.4}",
            self.config.model.hidden,
            self.config.kappa,
            rows.len(),
            self.config.data.per_epoch
        );
        let bytes = self.export(model, description)?.to_bytes();
        run.save_learned(&bytes, metrics::last_is_best(rows, |r| Some(accuracy(r))))
    }
}
