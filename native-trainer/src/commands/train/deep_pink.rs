//! `deepchess train deep-pink`: Deep Pink's triplet-trained evaluation.

use super::args::set;
use super::{LearnerArgs, finished};

use crate::train::learned::deep_pink::{DeepPinkConfig, DeepPinkLearner};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_LEARNED_NETWORK;

/// Arguments of `train deep-pink`.
#[derive(clap::Args)]
pub struct DeepPinkArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests, `quick` (256 wide) for this machine, `paper` (alias `seed`: 2,048 wide,
    /// SGD-Nesterov at 0.03 · e^(−days)).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override κ, the weight of f(p) = −f(q).
    #[arg(long)]
    kappa: Option<f64>,
}

pub(super) fn run(args: &DeepPinkArgs) -> anyhow::Result<()> {
    let mut config = DeepPinkConfig::preset(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.kappa, args.kappa);
    let rows = args.common.run.train(config, DeepPinkLearner::new)?;
    let figure =
        |last: &EpochRow| format!("held-out triplet accuracy {:.2}%", 100.0 * last.val_accuracy.unwrap_or(0.0));
    finished("deep-pink", &rows, figure, &args.common.run.out.join(BEST_LEARNED_NETWORK));
    Ok(())
}
