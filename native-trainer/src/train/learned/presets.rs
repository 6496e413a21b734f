//! The other learners' presets (`--preset smoke|quick|paper`): Deep Pink,
//! Herud and Mueller's deep belief network and NeuroChess.

use super::dbn::{Approach, DbnConfig, PretrainConfig, Units};
use super::deep_pink::DeepPinkConfig;
use super::neurochess::{EbnnConfig, NeuroChessConfig, SelfPlayConfig};
use crate::train::runner::config::{DataConfig, MlpConfig};
use crate::train::runner::optim::{OptimConfig, OptimizerKind};
use crate::train::runner::paper::{PaperRow, PaperTable, count, optimizer, rate, widths};
use crate::train::runner::preset::Preset;

impl DeepPinkConfig {
    /// `train deep-pink`: three ReLU layers; smoke 32 wide, quick 256 wide
    /// (what trains here), paper 2,048 wide with Deep Pink's optimizer and
    /// schedule: SGD with Nesterov momentum 0.9 at `0.03 · e^(−days)`, days of
    /// training (wall time, so a faster machine takes more steps at each rate).
    /// Smoke and quick use Adam at 0.001: on the decisive
    /// TCEC games (10 positions each), 4 epochs of 32,768 triplets of the
    /// 32-wide network reach 61.65% held-out triplet accuracy with it and
    /// 52.66% with SGD-Nesterov at 0.03 (README, *The other learners*).
    pub fn preset(preset: Preset) -> Self {
        let adam = OptimConfig::new().with_learning_rate(0.001);
        match preset {
            Preset::Smoke => DeepPinkConfig::new(
                MlpConfig::new(vec![32; 3]),
                adam.with_epochs(3),
                DataConfig::new().with_per_epoch(32_768).with_val(2_000),
            ),
            Preset::Quick => DeepPinkConfig::new(
                MlpConfig::new(vec![256; 3]),
                adam.with_epochs(20).with_batch_size(512),
                DataConfig::new().with_per_epoch(500_000),
            ),
            Preset::Paper => DeepPinkConfig::new(
                MlpConfig::new(vec![2048; 3]),
                OptimConfig::new()
                    .with_optimizer(OptimizerKind::Sgd)
                    .with_momentum(0.9)
                    .with_nesterov(true)
                    .with_learning_rate(0.03)
                    .with_lr_decay(1.0)
                    .with_lr_decay_per_day(1.0)
                    .with_epochs(100),
                DataConfig::new().with_per_epoch(1_000_000),
            ),
        }
    }

    /// The `paper` preset beside Bernhardsson's post.
    pub fn paper_table() -> PaperTable {
        let c = DeepPinkConfig::preset(Preset::Paper);
        PaperTable {
            command: "train deep-pink",
            work: "Bernhardsson's Deep Pink blog post (2015)",
            rows: vec![
                PaperRow::new(
                    "hidden layers",
                    "3 × 2048, ReLU",
                    format!("{} × {}, ReLU", c.model.hidden.len(), c.model.hidden[0]),
                    "",
                ),
                PaperRow::new("optimizer", "SGD, momentum 0.9 (Nesterov)", optimizer(&c.optim), ""),
                PaperRow::new("learning rate", "0.03 · e^(−days)", rate(&c.optim), ""),
            ],
        }
    }
}

impl DbnConfig {
    /// `train dbn` with `approach`: the paper's pick 772-100-100-100 (quick and
    /// paper; its other two sizes are `--hidden 400,200,100` and `--hidden
    /// 600,400,200,100`), each hidden layer pre-trained as an RBM by CD-1 (SGD at
    /// 0.05), then fine-tuned with dropout 0.5. Paper: ReLU units, 50 RBM epochs
    /// per layer, then SGD at 0.005 × 0.98ᵉ, batch 32, 200 epochs of 100,000
    /// positions ([`DbnConfig::paper_table`]). Quick (under
    /// an hour here): sigmoid units (a deviation, kept because the shipped
    /// networks were trained so), 2 RBM epochs per layer, then 20 epochs with
    /// Adam at 0.001, batch 256.
    pub fn preset(preset: Preset, approach: Approach) -> Self {
        let cd = OptimConfig::new().with_optimizer(OptimizerKind::Sgd).with_learning_rate(0.05).with_lr_decay(1.0);
        let adam = OptimConfig::new().with_learning_rate(0.001);
        match preset {
            Preset::Smoke => DbnConfig::new(
                MlpConfig::new(vec![32, 32]),
                PretrainConfig::new(cd.with_epochs(1).with_batch_size(64)).with_positions_per_epoch(8_192),
                adam.with_epochs(3).with_batch_size(64).with_learning_rate(0.003),
                DataConfig::new().with_per_epoch(16_384).with_val(2_000),
                approach,
            ),
            Preset::Quick => DbnConfig::new(
                MlpConfig::new(vec![100; 3]),
                PretrainConfig::new(cd.with_epochs(2)),
                adam.with_epochs(20),
                DataConfig::new().with_per_epoch(500_000),
                approach,
            ),
            Preset::Paper => DbnConfig::new(
                MlpConfig::new(vec![100; 3]),
                PretrainConfig::new(cd.with_epochs(50)).with_positions_per_epoch(500_000),
                OptimConfig::new()
                    .with_optimizer(OptimizerKind::Sgd)
                    .with_learning_rate(0.005)
                    .with_lr_decay(0.98)
                    .with_batch_size(32)
                    .with_epochs(200),
                DataConfig::new().with_per_epoch(100_000),
                approach,
            )
            .with_units(Units::Relu),
        }
    }

    /// The `paper` preset beside Herud and Mueller's paper.
    pub fn paper_table() -> PaperTable {
        let c = DbnConfig::preset(Preset::Paper, Approach::Wdl);
        let units = match c.units {
            Units::Relu => "ReLU",
            Units::Sigmoid => "sigmoid",
        };
        PaperTable {
            command: "train dbn",
            work: "Herud and Mueller's deep belief network for chess",
            rows: vec![
                PaperRow::new(
                    "hidden layers (the pick of its three sizes)",
                    "100-100-100",
                    widths(&c.model.hidden),
                    "",
                ),
                PaperRow::new("units", "ReLU", units, ""),
                PaperRow::new("RBM epochs a layer", "50", c.pretrain.optim.epochs.to_string(), ""),
                PaperRow::new("positions an epoch", "100,000", count(c.data.per_epoch), ""),
                PaperRow::new("fine-tuning epochs", "200", c.optim.epochs.to_string(), ""),
                PaperRow::new("batch", "32", c.optim.batch_size.to_string(), ""),
                PaperRow::new("optimizer", "SGD", optimizer(&c.optim), ""),
                PaperRow::new("learning rate", "0.005 × 0.98ᵉ", rate(&c.optim), ""),
                PaperRow::new("dropout", "0.5", c.dropout.to_string(), ""),
            ],
        }
    }
}

impl NeuroChessConfig {
    /// `train neurochess`: TD(0) with γ = 0.98, Adam at 0.001 (smoke and quick).
    /// Smoke: 32 wide, seconds. Quick (2 min 17 s here; 9 min 41 s with EBNN):
    /// 256-32, 20 epochs each of 32 self-play games at 800 nodes a move and
    /// 200,000 steps of expert games. Paper: Thrun's `V`, one hidden layer of
    /// 80 (the most he used: 0 to 80), fitted on quiescent positions only, with
    /// final values weighing 20 times the others; 100 epochs of 100 self-play
    /// games. EBNN is off unless asked for; its chess model `M` has one hidden
    /// layer (Thrun's 165; smoke 32) and trains first.
    pub fn preset(preset: Preset) -> Self {
        let adam = OptimConfig::new().with_learning_rate(0.001);
        let ebnn = |hidden: usize, epochs: usize, per_epoch: usize| {
            EbnnConfig::new(MlpConfig::new(vec![hidden]), adam.clone().with_epochs(epochs).with_batch_size(256))
                .with_per_epoch(per_epoch)
        };
        match preset {
            Preset::Smoke => NeuroChessConfig::new(
                MlpConfig::new(vec![32]),
                adam.clone().with_epochs(3).with_batch_size(128).with_learning_rate(0.003),
                DataConfig::new().with_per_epoch(8_192).with_val(2_000),
                SelfPlayConfig::new().with_games(4).with_nodes(64).with_max_plies(80),
                ebnn(32, 2, 8_192),
            ),
            Preset::Quick => NeuroChessConfig::new(
                MlpConfig::new(vec![256, 32]),
                adam.clone().with_epochs(20).with_batch_size(256),
                DataConfig::new().with_per_epoch(200_000),
                SelfPlayConfig::new(),
                ebnn(165, 3, 200_000),
            ),
            Preset::Paper => NeuroChessConfig::new(
                MlpConfig::new(vec![80]),
                adam.clone().with_epochs(100).with_batch_size(256),
                DataConfig::new().with_per_epoch(500_000),
                SelfPlayConfig::new().with_games(100),
                ebnn(165, 10, 500_000),
            )
            .with_final_rate(20.0)
            .with_quiescent_only(true),
        }
    }

    /// The `paper` preset beside Thrun's NeuroChess.
    pub fn paper_table() -> PaperTable {
        let c = NeuroChessConfig::preset(Preset::Paper);
        let yes = |on: bool| if on { "yes" } else { "no" };
        PaperTable {
            command: "train neurochess",
            work: "Thrun, *Learning to Play the Game of Chess* (NIPS 1995)",
            rows: vec![
                PaperRow::new("TD discount γ", "0.98", c.gamma.to_string(), ""),
                PaperRow::new(
                    "final values' weight",
                    "20 times the others'",
                    format!("{} times the others'", c.final_rate),
                    "",
                ),
                PaperRow::new("quiescent positions only", "yes", yes(c.quiescent_only), ""),
                PaperRow::new("chess model M's hidden units (EBNN)", "165", c.ebnn.model.hidden[0].to_string(), ""),
                PaperRow::new(
                    "optimizer",
                    "plain gradient steps",
                    optimizer(&c.optim),
                    "the step size is not given; Adam needs none tuned (`--optimizer sgd --learning-rate R` takes plain steps)",
                ),
            ],
        }
    }
}
