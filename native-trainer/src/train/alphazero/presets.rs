//! The AlphaZero reimplementation's presets (`--preset smoke|quick|paper`).

use super::games::AzPlayConfig;
use super::supervised::{AzConfig, AzModelConfig};
use crate::train::runner::config::DataConfig;
use crate::train::runner::optim::{OptimConfig, OptimizerKind};
use crate::train::runner::paper::{PaperRow, PaperTable, count, optimizer, rate};
use crate::train::runner::preset::Preset;

impl AzConfig {
    /// `train az` (`self_play`: `--self-play`, else `--supervised`). Quick:
    /// AlphaZero's optimizer (DeepMind's, not the reimplementation's), SGD with momentum 0.9
    /// and L2 weight decay 10⁻⁴ at 0.2 × 256 / 4,096 = 0.0125 × 0.95ᵉ (the rate
    /// scaled with the batch), 6 blocks × 64 filters, 10 epochs of 50,000
    /// positions; self-play generations of 16 games at 100 playouts a move,
    /// gates of 10 games. Paper: the reimplementation's report
    /// ([`AzConfig::paper_tables`]): supervised, 11 blocks, SGD at 0.2 with
    /// momentum 0.9 and a batch of 2,048 (L2 10⁻⁴, AlphaZero's `c`, which the
    /// report's loss has but does not set), 110 epochs of 3 M positions;
    /// self-play, 19 × 256, 25 steps of 15 games at 400 playouts with no
    /// gate, Adam at 0.1 with weight decay 10⁻⁶ and a batch of 128. Smoke:
    /// 1 × 8, Adam at 0.003, tiny games, seconds.
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
            // The report: self-play steps of 15 games at 400 playouts, 25
            // steps, no gate; supervised, 11 blocks on 3 M positions for
            // 110 epochs.
            Preset::Paper if self_play => AzConfig::new(
                AzModelConfig::new(19, 256),
                OptimConfig::new()
                    .with_learning_rate(0.1)
                    .with_weight_decay(1e-6)
                    .with_batch_size(128)
                    .with_lr_decay(1.0)
                    .with_epochs(25),
                DataConfig::new().with_per_epoch(1_000_000),
            )
            .with_play(AzPlayConfig::new().with_games(15).with_playouts(400).with_gate_games(0)),
            Preset::Paper => AzConfig::new(
                AzModelConfig::new(11, 256),
                alphazero_sgd.with_batch_size(2_048).with_lr_decay(1.0).with_epochs(110),
                DataConfig::new().with_per_epoch(3_000_000),
            ),
        }
    }

    /// The `paper` presets beside the AlphaZero reimplementation's report:
    /// supervised, then self-play.
    pub fn paper_tables() -> [PaperTable; 2] {
        let work = "the AlphaZero reimplementation's report";
        let supervised = AzConfig::preset(Preset::Paper, false);
        let self_play = AzConfig::preset(Preset::Paper, true);
        let p = &self_play.play;
        [
            PaperTable {
                command: "train az --supervised",
                work,
                rows: vec![
                    PaperRow::new("residual blocks", "11", supervised.model.blocks.to_string(), ""),
                    PaperRow::new(
                        "filters",
                        "not given",
                        supervised.model.filters.to_string(),
                        "AlphaZero's width, as the self-play network's",
                    ),
                    PaperRow::new("positions an epoch", "3,000,000", count(supervised.data.per_epoch), ""),
                    PaperRow::new("epochs", "110", supervised.optim.epochs.to_string(), ""),
                    PaperRow::new("optimizer", "SGD, momentum 0.9", optimizer(&supervised.optim), L2),
                    PaperRow::new("learning rate", "0.2", rate(&supervised.optim), ""),
                    PaperRow::new("batch", "2048", supervised.optim.batch_size.to_string(), ""),
                ],
            },
            PaperTable {
                command: "train az --self-play",
                work,
                rows: vec![
                    PaperRow::new("games a step", "15", p.games.to_string(), ""),
                    PaperRow::new("playouts a move", "400", p.playouts.to_string(), ""),
                    PaperRow::new("steps", "25", self_play.optim.epochs.to_string(), ""),
                    PaperRow::new(
                        "gate",
                        "none",
                        if p.gate_games == 0 { "none".into() } else { format!("{} games", p.gate_games) },
                        "",
                    ),
                    PaperRow::new("optimizer", "Adam, weight decay 1e-6", optimizer(&self_play.optim), ""),
                    PaperRow::new("learning rate", "0.1", rate(&self_play.optim), ""),
                    PaperRow::new("batch", "128", self_play.optim.batch_size.to_string(), ""),
                    PaperRow::new(
                        "training a step",
                        "20 epochs over the step's data",
                        format!("{} positions drawn from the replay buffer", count(self_play.data.per_epoch)),
                        "the runner trains one draw from the buffer a generation, sized in positions",
                    ),
                ],
            },
        ]
    }
}

/// Why the supervised preset adds weight decay.
const L2: &str = "AlphaZero's L2 term `c` = 1e-4, which the report's loss has but does not set";
