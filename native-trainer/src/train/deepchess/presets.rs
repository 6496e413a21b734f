//! The DeepChess learners' presets (`--preset smoke|quick|paper`): the
//! Siamese network, the value network, Pos2Vec and distillation.

use std::path::Path;

use deepchess_core::Shape;

use super::distill::{DistillConfig, FeaturesConfig};
use super::pos2vec::Pos2VecConfig;
use super::siamese::SiameseConfig;
use super::value::{TargetConfig, ValueConfig};
use crate::train::runner::config::{DataConfig, ModelConfig};
use crate::train::runner::optim::{OptimConfig, OptimizerKind};
use crate::train::runner::paper::{PaperRow, PaperTable, count, optimizer, rate, widths};
use crate::train::runner::preset::Preset;

/// The value network's default tower: a wide first layer, updated
/// incrementally by the engine, and a narrow layer before the utility head.
pub const VALUE_TOWER: [usize; 3] = [deepchess_core::arch::INPUTS, 256, 32];

impl SiameseConfig {
    /// `train siamese`: smoke trains the distilled shape for 3 small epochs;
    /// quick trains it directly for 25 epochs of 10⁶ pairs; paper is the full
    /// network, 1000 epochs of 10⁶ pairs, SGD at 0.01 × 0.99ᵉ, no colour
    /// mirroring ([`SiameseConfig::paper_table`]).
    pub fn preset(preset: Preset) -> Self {
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
                DataConfig::new().with_mirror(0.0),
            ),
        }
    }

    /// The `paper` preset beside DeepChess's §3 (the Siamese network).
    pub fn paper_table() -> PaperTable {
        let c = SiameseConfig::preset(Preset::Paper);
        let mirror =
            if c.data.mirror > 0.0 { format!("{:.0}% of pairs", c.data.mirror * 100.0) } else { "none".into() };
        PaperTable {
            command: "train siamese",
            work: "David, Netanyahu and Wolf, *DeepChess* (ICANN 2016), §3",
            rows: vec![
                PaperRow::new("towers (from Pos2Vec)", "773-600-400-200-100", widths(&c.model.tower), ""),
                PaperRow::new("head", "400-200-100-2", widths(&c.model.head[1..]), ""),
                PaperRow::new("units", "ReLU", "ReLU clipped to [0, 1]", CLIPPED),
                PaperRow::new("epochs", "1000", c.optim.epochs.to_string(), ""),
                PaperRow::new("pairs an epoch (drawn at random)", "1,000,000", count(c.data.per_epoch), ""),
                PaperRow::new("optimizer", "SGD", optimizer(&c.optim), ""),
                PaperRow::new("learning rate", "0.01 × 0.99ᵉ", rate(&c.optim), ""),
                PaperRow::new("colour mirroring", "none", mirror, ""),
                PaperRow::new(
                    "weight regularisation",
                    "none",
                    format!(
                        "hidden weights clipped to ±{:.2} after each step",
                        deepchess_core::arch::MAX_HIDDEN_WEIGHT
                    ),
                    CLIP_WEIGHTS,
                ),
            ],
        }
    }
}

/// Why DeepChess's presets train clipped ReLU units.
const CLIPPED: &str =
    "the engine's integer layers take activations in [0, 1]: the trainer trains the function the engine runs";

/// Why DeepChess's Siamese presets clip weights.
const CLIP_WEIGHTS: &str =
    "the engine's hidden weights are int8 at 64 a unit; clipping keeps each weight one it can hold";

impl ValueConfig {
    /// `train value`: smoke trains a small tower for 3 small epochs; quick
    /// trains [`VALUE_TOWER`] on 4 × 10⁶ positions an epoch, batch 4,096, Adam
    /// at 0.002 × 0.9ᵉ; paper (this learner has no paper) is quick with 100 epochs.
    pub fn preset(preset: Preset) -> Self {
        let optim = OptimConfig::new().with_batch_size(4096).with_learning_rate(0.002).with_lr_decay(0.9);
        match preset {
            Preset::Smoke => ValueConfig::new(
                vec![deepchess_core::arch::INPUTS, 64, 16],
                OptimConfig::new().with_epochs(3).with_batch_size(256).with_learning_rate(0.005),
                DataConfig::new().with_per_epoch(16_384).with_val(2_000),
                TargetConfig::new(),
            ),
            Preset::Quick => ValueConfig::new(
                VALUE_TOWER.to_vec(),
                optim.with_epochs(20),
                DataConfig::new().with_per_epoch(4_000_000),
                TargetConfig::new(),
            ),
            Preset::Paper => ValueConfig::new(
                VALUE_TOWER.to_vec(),
                optim.with_epochs(100),
                DataConfig::new().with_per_epoch(4_000_000),
                TargetConfig::new(),
            ),
        }
    }
}

impl Pos2VecConfig {
    /// `train pos2vec`: epochs are per layer; positions per epoch are half from
    /// White wins, half from Black wins.
    pub fn preset(preset: Preset) -> Self {
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

    /// The `paper` preset beside DeepChess's §3 (Pos2Vec).
    pub fn paper_table() -> PaperTable {
        let c = Pos2VecConfig::preset(Preset::Paper);
        PaperTable {
            command: "train pos2vec",
            work: "David, Netanyahu and Wolf, *DeepChess* (ICANN 2016), §3",
            rows: vec![
                PaperRow::new("layers (a stacked autoencoder)", "773-600-400-200-100", widths(&c.model.tower), ""),
                PaperRow::new("units", "ReLU", "ReLU clipped to [0, 1]", CLIPPED),
                PaperRow::new("epochs", "200", c.optim.epochs.to_string(), ""),
                PaperRow::new("positions (half from each side's wins)", "2,000,000", count(c.data.per_epoch), ""),
                PaperRow::new("optimizer", "SGD", optimizer(&c.optim), ""),
                PaperRow::new("learning rate", "0.005 × 0.98ᵉ", rate(&c.optim), ""),
            ],
        }
    }
}

impl DistillConfig {
    /// `train distill` from the `train siamese` run `teacher` into the distilled shape.
    pub fn preset(preset: Preset, teacher: &Path) -> Self {
        let optim = OptimConfig::new().with_batch_size(1024).with_learning_rate(0.002).with_lr_decay(0.95);
        let config = |optim, data, features| {
            DistillConfig::new(
                teacher.display().to_string(),
                ModelConfig::of(&Shape::distilled()),
                optim,
                data,
                features,
            )
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
}
