//! Every learner's presets in one place (`--preset smoke|quick|paper`).

use std::path::Path;

use deepchess_core::Shape;

use crate::train::config::{DataConfig, ModelConfig};
use crate::train::distill::{DistillConfig, FeaturesConfig};
use crate::train::optim::{OptimConfig, OptimizerKind};
use crate::train::pos2vec::Pos2VecConfig;
use crate::train::siamese::SiameseConfig;

/// `--preset`: a configuration to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// For tests: the distilled shape, tiny epochs (seconds).
    Smoke,
    /// Under an hour on this project's 2-core machine.
    Quick,
    /// The paper's sizes and schedules.
    Paper,
}

/// `train siamese`: smoke trains the distilled shape for 3 small epochs;
/// quick trains it directly for 25 epochs of 10⁶ pairs; paper is the full
/// network, 1000 epochs of 10⁶ pairs, SGD at 0.01 × 0.99ᵉ.
pub fn siamese(preset: Preset) -> SiameseConfig {
    let distilled = ModelConfig::of(&Shape::distilled());
    match preset {
        Preset::Smoke => SiameseConfig::new(
            distilled,
            OptimConfig::new().with_epochs(3).with_learning_rate(0.003),
            DataConfig::new().with_per_epoch(16_384).with_val(2_000),
        ),
        Preset::Quick => SiameseConfig::new(
            distilled,
            OptimConfig::new().with_epochs(25).with_batch_size(1024).with_learning_rate(0.002),
            DataConfig::new(),
        ),
        Preset::Paper => SiameseConfig::new(
            ModelConfig::of(&Shape::full()),
            OptimConfig::new()
                .with_epochs(1000)
                .with_optimizer(OptimizerKind::Sgd)
                .with_learning_rate(0.01)
                .with_lr_decay(0.99),
            DataConfig::new(),
        ),
    }
}

/// `train pos2vec`: epochs are per layer; positions per epoch are half from
/// White wins, half from Black wins.
pub fn pos2vec(preset: Preset) -> Pos2VecConfig {
    let optim = OptimConfig::new().with_learning_rate(0.005);
    let data = DataConfig::new().with_val(10_000);
    match preset {
        Preset::Smoke => Pos2VecConfig::new(
            ModelConfig::of(&Shape::distilled()),
            optim.with_epochs(1),
            data.with_per_epoch(8_192).with_val(1_000),
        ),
        Preset::Quick => Pos2VecConfig::new(
            ModelConfig::of(&Shape::full()),
            // Adam at the paper's SGD rate (0.005) left the third layer's codes dead here.
            optim.with_epochs(3).with_learning_rate(0.001),
            data.with_per_epoch(200_000),
        ),
        Preset::Paper => Pos2VecConfig::new(
            ModelConfig::of(&Shape::full()),
            optim.with_epochs(200).with_optimizer(OptimizerKind::Sgd),
            data.with_per_epoch(2_000_000),
        ),
    }
}

/// `train distill` from the `train siamese` run `teacher` into the distilled shape.
pub fn distill(preset: Preset, teacher: &Path) -> DistillConfig {
    let optim = OptimConfig::new().with_batch_size(1024).with_learning_rate(0.002).with_lr_decay(0.95);
    let config = |optim, data, features| {
        DistillConfig::new(teacher.display().to_string(), ModelConfig::of(&Shape::distilled()), optim, data, features)
    };
    match preset {
        Preset::Smoke => config(
            optim.with_epochs(2).with_batch_size(256).with_learning_rate(0.003),
            DataConfig::new().with_per_epoch(16_384).with_val(2_000),
            FeaturesConfig::new().with_epochs(1).with_positions_per_epoch(8_192),
        ),
        Preset::Quick => config(optim, DataConfig::new(), FeaturesConfig::new()),
        Preset::Paper => config(optim.with_epochs(200), DataConfig::new(), FeaturesConfig::new().with_epochs(20)),
    }
}
