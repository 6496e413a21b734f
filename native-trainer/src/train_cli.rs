//! `deepchess train …` (features `flex` or `wgpu`).

use std::path::PathBuf;

use crate::train::device::DeviceChoice;
use crate::train::siamese::{self, OptimizerKind, Preset};

/// `deepchess train …`
#[derive(clap::Subcommand)]
pub enum Command {
    /// The Siamese comparison network on (W, L) pairs, end to end.
    Siamese(SiameseArgs),
}

/// Arguments of `train siamese`.
#[derive(clap::Args)]
pub struct SiameseArgs {
    /// Dataset directory (`train.bin`, `val.bin`) from `deepchess data build`.
    #[arg(long)]
    data: PathBuf,
    /// Run directory: config.json, metrics.csv, metrics.svg, checkpoints.
    #[arg(long)]
    out: PathBuf,
    /// Starting configuration.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Where to train; `auto` takes a GPU through wgpu when there is one.
    #[arg(long, value_enum, default_value = "auto")]
    device: DeviceChoice,
    /// Continue the run in --out from its last completed epoch.
    #[arg(long)]
    resume: bool,
    /// Override the preset's epochs.
    #[arg(long)]
    epochs: Option<usize>,
    /// Override the preset's pairs per epoch.
    #[arg(long)]
    pairs_per_epoch: Option<usize>,
    /// Override the preset's batch size (pairs per step).
    #[arg(long)]
    batch_size: Option<usize>,
    /// Override the preset's learning rate.
    #[arg(long)]
    learning_rate: Option<f64>,
    /// Override the preset's optimizer.
    #[arg(long, value_enum)]
    optimizer: Option<OptimizerKind>,
    /// Override the preset's L2 weight decay.
    #[arg(long)]
    weight_decay: Option<f64>,
    /// Override the preset's share of mirrored pairs (0 to 1).
    #[arg(long)]
    mirror: Option<f64>,
    /// Override the preset's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs a `train` subcommand.
pub fn run(command: &Command) -> anyhow::Result<()> {
    let Command::Siamese(args) = command;
    let mut config = args.preset.config();
    if let Some(epochs) = args.epochs {
        config.epochs = epochs;
    }
    if let Some(pairs) = args.pairs_per_epoch {
        config.pairs_per_epoch = pairs;
    }
    if let Some(batch) = args.batch_size {
        config.batch_size = batch;
    }
    if let Some(lr) = args.learning_rate {
        config.learning_rate = lr;
    }
    if let Some(optimizer) = args.optimizer {
        config.optimizer = optimizer;
    }
    if let Some(decay) = args.weight_decay {
        config.weight_decay = decay;
    }
    if let Some(mirror) = args.mirror {
        config.mirror = mirror;
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    let rows = siamese::train(config, &args.data, &args.out, args.device, args.resume, args.quiet)?;
    if let Some(last) = rows.last() {
        println!(
            "epochs {}: train accuracy {:.2}%, validation accuracy {:.2}% (float); checkpoint {}",
            last.epoch,
            100.0 * last.train_accuracy,
            100.0 * last.val_accuracy,
            args.out.join("model.dcnf").display()
        );
    }
    Ok(())
}
