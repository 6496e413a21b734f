//! `deepchess train distill`: a Siamese run distilled into the small shape.

use std::path::PathBuf;

use super::LearnerArgs;
use super::args::set;

use crate::train::deepchess::distill::{DistillConfig, DistillLearner};
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_FLOAT_NETWORK;

/// Arguments of `train distill`.
#[derive(clap::Args)]
pub struct DistillArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// The teacher: a `train siamese` run directory.
    #[arg(long)]
    teacher: PathBuf,
    /// `smoke` for tests; otherwise the paper's schedule scaled to this machine.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the features phase's epochs.
    #[arg(long)]
    feature_epochs: Option<usize>,
    /// Override the positions per features epoch.
    #[arg(long)]
    feature_positions_per_epoch: Option<usize>,
}

pub(super) fn run(args: &DistillArgs) -> anyhow::Result<()> {
    let mut config = DistillConfig::preset(args.preset, &args.teacher);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.features.epochs, args.feature_epochs);
    set(&mut config.features.positions_per_epoch, args.feature_positions_per_epoch);
    let rows = args.common.run.train(config, DistillLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "distill: {} epochs, validation accuracy {:.2}% (float); checkpoint {}",
            rows.len(),
            100.0 * last.val_accuracy.unwrap_or(0.0),
            args.common.run.out.join(BEST_FLOAT_NETWORK).display()
        );
    }
    Ok(())
}
