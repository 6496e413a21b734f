//! Every learner's presets in one place (`--preset smoke|quick|paper`).

use std::path::Path;

use deepchess_core::Shape;

use crate::train::alphazero::games::AzPlayConfig;
use crate::train::alphazero::supervised::{AzConfig, AzModelConfig};
use crate::train::deepchess::distill::{DistillConfig, FeaturesConfig};
use crate::train::deepchess::pos2vec::Pos2VecConfig;
use crate::train::deepchess::siamese::SiameseConfig;
use crate::train::deepchess::value::{TargetConfig, ValueConfig};
use crate::train::runner::config::{DataConfig, MlpConfig, ModelConfig};
use crate::train::runner::optim::{OptimConfig, OptimizerKind};
use crate::train::scalar::dbn::{Approach, DbnConfig, PretrainConfig, Units};
use crate::train::scalar::deep_pink::DeepPinkConfig;
use crate::train::scalar::neurochess::{EbnnConfig, NeuroChessConfig, SelfPlayConfig};

/// `--preset`: a configuration to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// For tests: the distilled shape, tiny epochs (seconds).
    Smoke,
    /// Under an hour on this project's 2-core machine.
    Quick,
    /// Each work's own sizes, schedules and settings, as its paper gives
    /// them (`seed` is the same preset).
    #[value(alias = "seed")]
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

/// The value network's default tower: a wide first layer, updated
/// incrementally by the engine, and a narrow layer before the utility head.
pub const VALUE_TOWER: [usize; 3] = [deepchess_core::arch::INPUTS, 256, 32];

/// `train value`: smoke trains a small tower for 3 small epochs; quick
/// trains [`VALUE_TOWER`] on 4 × 10⁶ positions an epoch, batch 4,096, Adam
/// at 0.002 × 0.9ᵉ; paper (this learner has no paper) is quick with 100 epochs.
pub fn value(preset: Preset) -> ValueConfig {
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

/// `train deep-pink`: three ReLU layers; smoke 32 wide, quick 256 wide
/// (what trains here), paper 2,048 wide with Deep Pink's optimizer and
/// schedule: SGD with Nesterov momentum 0.9 at `0.03 · e^(−days)`, days of
/// training (wall time, so a faster machine takes more steps at each rate).
/// Smoke and quick use Adam at 0.001: on the decisive
/// TCEC games (10 positions each), 4 epochs of 32,768 triplets of the
/// 32-wide network reach 61.65% held-out triplet accuracy with it and
/// 52.66% with SGD-Nesterov at 0.03 (README, *The other learners*).
pub fn deep_pink(preset: Preset) -> DeepPinkConfig {
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

/// `train dbn` with `approach`: the paper's pick 772-100-100-100 (quick and
/// paper; its other two sizes are `--hidden 400,200,100` and `--hidden
/// 600,400,200,100`), each hidden layer pre-trained as an RBM by CD-1 (SGD at
/// 0.05), then fine-tuned with dropout 0.5. Paper: ReLU units, 50 RBM epochs
/// per layer, then SGD at 0.005 × 0.98ᵉ, batch 32, 200 epochs. Quick (under
/// an hour here): sigmoid units (a deviation, kept because the shipped
/// networks were trained so), 2 RBM epochs per layer, then 20 epochs with
/// Adam at 0.001, batch 256.
pub fn dbn(preset: Preset, approach: Approach) -> DbnConfig {
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
            DataConfig::new(),
            approach,
        )
        .with_units(Units::Relu),
    }
}

/// `train neurochess`: TD(0) with γ = 0.98, Adam at 0.001 (smoke and quick).
/// Smoke: 32 wide, seconds. Quick (2 min 17 s here; 9 min 41 s with EBNN):
/// 256-32, 20 epochs each of 32 self-play games at 800 nodes a move and
/// 200,000 steps of expert games. Paper: Thrun's `V`, one hidden layer of
/// 80 (the most he used: 0 to 80), fitted on quiescent positions only, with
/// final values weighing 20 times the others; 100 epochs of 100 self-play
/// games. EBNN is off unless asked for; its chess model `M` has one hidden
/// layer (Thrun's 165; smoke 32) and trains first.
pub fn neurochess(preset: Preset) -> NeuroChessConfig {
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
pub fn az(preset: Preset, self_play: bool) -> AzConfig {
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
