//! `deepchess train dbn`: Herud–Mueller's deep belief network.

use super::args::set;
use super::{LearnerArgs, finished};

use crate::train::learned::dbn::{Approach, DbnConfig, DbnLearner, Units};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_LEARNED_NETWORK;

/// Arguments of `train dbn`.
#[derive(clap::Args)]
pub struct DbnArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// What the network predicts: (a) wdl, the game's result; (b) regression, the engine evaluation
    /// through tanh; (c) classes7, the evaluation in seven classes.
    #[arg(long, value_enum)]
    approach: Approach,
    /// `smoke` for tests, `quick` (sigmoid units) for this machine, `paper` (alias `seed`: the
    /// paper's ReLU units and schedule).
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Override the RBM epochs per layer.
    #[arg(long)]
    pretrain_epochs: Option<usize>,
    /// Override the dropout.
    #[arg(long)]
    dropout: Option<f64>,
    /// Override the preset's hidden units (the paper's: relu).
    #[arg(long, value_enum)]
    units: Option<Units>,
}

pub(super) fn run(args: &DbnArgs) -> anyhow::Result<()> {
    let mut config = DbnConfig::preset(args.preset, args.approach);
    args.common.apply(&mut config.optim, &mut config.data);
    args.common.apply_hidden(&mut config.model);
    set(&mut config.pretrain.optim.epochs, args.pretrain_epochs);
    set(&mut config.dropout, args.dropout.map(|d| d.clamp(0.0, 0.9)));
    set(&mut config.units, args.units);
    let rows = args.common.run.train(config, DbnLearner::new)?;
    let figure = |last: &EpochRow| {
        last.val_accuracy
            .map_or_else(|| format!("Huber loss {:.4}", last.val_loss), |a| format!("class accuracy {:.2}%", 100.0 * a))
    };
    finished(
        "dbn",
        &rows,
        |last| format!("held-out {}", figure(last)),
        &args.common.run.out.join(BEST_LEARNED_NETWORK),
    );
    Ok(())
}
