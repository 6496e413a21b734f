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
    /// Deep Pink's wall-clock schedule: the learning rate is also
    /// multiplied by `e^(−rate · days)`, `days` the run's training time so
    /// far (the epochs before this one, without validation); 0: none. Deep
    /// Pink's `0.03 · e^(−days)` is a rate of 1 with `lr_decay` 1.
    #[config(default = 0.0)]
    pub lr_decay_per_day: f64,
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

    /// The learning rate of epoch `epoch` (0-based within its phase), after
    /// `trained` seconds of training in the run.
    ///
    /// ```
    /// use deepchess_trainer::train::runner::optim::OptimConfig;
    ///
    /// // Deep Pink's 0.03 · e^(−days): half a day in, 0.03 · e^(−0.5).
    /// let pink = OptimConfig::new().with_learning_rate(0.03).with_lr_decay(1.0).with_lr_decay_per_day(1.0);
    /// assert!((pink.lr(7, 43_200.0) - 0.03 * (-0.5f64).exp()).abs() < 1e-12);
    /// // Per epoch: 0.001 × 0.98², whatever the time.
    /// let adam = OptimConfig::new();
    /// assert!((adam.lr(2, 86_400.0) - 0.001 * 0.98 * 0.98).abs() < 1e-12);
    /// ```
    pub fn lr(&self, epoch: usize, trained: f64) -> f64 {
        let days = trained / 86_400.0;
        self.learning_rate * self.lr_decay.powi(epoch as i32) * (-self.lr_decay_per_day * days).exp()
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
