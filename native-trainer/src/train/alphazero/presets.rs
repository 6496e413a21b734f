//! The AlphaZero reimplementation's presets (`--preset smoke|quick|paper`).

use super::games::AzPlayConfig;
use super::supervised::{AzConfig, AzModelConfig};
use crate::train::runner::config::DataConfig;
use crate::train::runner::optim::{OptimConfig, OptimizerKind};
use crate::train::runner::preset::Preset;

impl AzConfig {
    /// `train az` (`self_play`: `--self-play`, else `--supervised`). Quick:
    /// AlphaZero's optimizer (DeepMind's, not the reimplementation's), SGD with momentum 0.9
    /// and L2 weight decay 10⁻⁴ at 0.2 × 256 / 4,096 = 0.0125 × 0.95ᵉ (the rate
    /// scaled with the batch), 6 blocks × 64 filters, 10 epochs of 50,000
    /// positions; self-play generations of 16 games at 100 playouts a move,
    /// gates of 10 games. Paper: the reimplementation's 19 × 256 and its own optimizers:
    /// supervised SGD at 0.2 with momentum 0.9 and a batch of 2,048 (L2 10⁻⁴,
    /// AlphaZero's `c`, which the reimplementation's loss has but does not set); self-play
    /// Adam at 0.1 with weight decay 10⁻⁶ and a batch of 128. Smoke: 1 × 8, Adam
    /// at 0.003, tiny games, seconds.
    pub fn preset(preset: Preset, self_play: bool) -> Self {
        let alphazero_sgd = OptimConfig::new()
            .with_optimizer(OptimizerKind::Sgd)
            .with_momentum(0.9)
            .with_weight_decay(1e-4)
            .with_learning_rate(0.2)
            .with_lr_decay(0.95);
        match preset {
            Preset::Smoke => AzConfig::new(
                AzModelConfig::new(1, 8),
                OptimConfig::new().with_learning_rate(0.003).with_epochs(3).with_batch_size(64),
                DataConfig::new().with_per_epoch(4_096).with_val(1_000),
            )
            .with_play(
                AzPlayConfig::new()
                    .with_games(4)
                    .with_playouts(16)
                    .with_max_plies(40)
                    .with_temperature_plies(10)
                    .with_buffer(10_000)
                    .with_gate_games(2),
            ),
            Preset::Quick => AzConfig::new(
                AzModelConfig::new(6, 64),
                alphazero_sgd.with_learning_rate(0.0125).with_batch_size(256).with_epochs(10),
                DataConfig::new().with_per_epoch(50_000).with_val(5_000),
            )
            .with_play(AzPlayConfig::new().with_games(16).with_playouts(100).with_max_plies(200).with_gate_games(10)),
            Preset::Paper => {
                let optim = if self_play {
                    OptimConfig::new().with_learning_rate(0.1).with_weight_decay(1e-6).with_batch_size(128)
                } else {
                    alphazero_sgd.with_batch_size(2_048)
                };
                AzConfig::new(
                    AzModelConfig::new(19, 256),
                    optim.with_lr_decay(1.0).with_epochs(100),
                    DataConfig::new().with_per_epoch(1_000_000),
                )
                .with_play(AzPlayConfig::new().with_games(100))
            }
        }
    }
}
