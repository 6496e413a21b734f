//! The optimizer section of every learner's configuration, `optim { … }`:
//! which optimizer, its learning-rate schedule, the epochs and the batch.

use burn::config::Config;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, ModuleOptimizer, SgdConfig};

/// The optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum OptimizerKind {
    /// Adam.
    Adam,
    /// Plain stochastic gradient descent (the paper's).
    Sgd,
}

/// How a phase of training steps: the optimizer, the schedule, the batch.
#[derive(Config, Debug, PartialEq)]
pub struct OptimConfig {
    /// Epochs (of a pretraining run: per layer; of a distillation: of the
    /// outputs phase).
    #[config(default = 10)]
    pub epochs: usize,
    /// Items (pairs or positions) per step.
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
    /// L2 weight decay (none at 0).
    #[config(default = 0.0)]
    pub weight_decay: f64,
    /// SGD's momentum (none at 0; Adam ignores it).
    #[config(default = 0.0)]
    pub momentum: f64,
    /// SGD's momentum is Nesterov's (Deep Pink's).
    #[config(default = false)]
    pub nesterov: bool,
}

impl OptimConfig {
    /// A fresh optimizer.
    pub fn init(&self) -> ModuleOptimizer {
        if self.optimizer == OptimizerKind::Sgd && self.momentum > 0.0 {
            let decay = (self.weight_decay > 0.0).then(|| WeightDecayConfig::new(self.weight_decay as f32));
            let momentum =
                MomentumConfig::new().with_momentum(self.momentum).with_dampening(0.0).with_nesterov(self.nesterov);
            return SgdConfig::new().with_weight_decay(decay).with_momentum(Some(momentum)).init();
        }
        optimizer(self.optimizer, self.weight_decay)
    }

    /// The learning rate of epoch `epoch` (0-based within its phase).
    pub fn lr(&self, epoch: usize) -> f64 {
        self.learning_rate * self.lr_decay.powi(epoch as i32)
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
