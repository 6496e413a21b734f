//! `deepchess train value`: the value network, trained position by position.

use super::args::set;
use super::{LearnerArgs, finished};

use crate::data::SourceWeight;
use crate::train::deepchess::value::{ValueConfig, ValueLearner};
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::preset::Preset;
use crate::train::runner::run_dir::BEST_FLOAT_NETWORK;

/// Arguments of `train value`.
#[derive(clap::Args)]
pub struct ValueArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `smoke` for tests; `quick`: 773-256-32 + utility, 20 epochs of 4 × 10⁶ positions.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Tower widths, from 773 (for example 773,512,16); a utility head follows.
    #[arg(long, value_delimiter = ',')]
    tower: Option<Vec<usize>>,
    /// Read the position from both perspectives, as NNUE engines do: the
    /// first layer of the side to move's view and of the other side's, side
    /// by side, into the next layer (which takes twice the first layer's
    /// width; that width a multiple of 32). Without it the tower reads the
    /// position and its colour mirror image apart.
    #[arg(long)]
    perspective: bool,
    /// Output buckets: the utility head gets this many outputs and each
    /// position reads the one its material picks (men on the board, kings
    /// included, in equal ranges: `(men − 2) / 4` for 8), as engines that
    /// learn from their own games bucket their last layer; 1 (the default)
    /// is one output.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=deepchess_core::arch::MAX_BUCKETS as i64))]
    output_buckets: Option<u32>,
    /// Square the first layer's clipped ReLU (SCReLU, `min(max(x, 0), 1)²`),
    /// as engines that learn from their own games do; the later layers keep
    /// the clipped ReLU.
    #[arg(long)]
    screlu: bool,
    /// λ, the weight of the game result where the position has an engine evaluation.
    #[arg(long)]
    lambda: Option<f64>,
    /// Centipawn scale s of P(eval) = 1 / (1 + 10^(−cp/s)).
    #[arg(long)]
    eval_scale: Option<f64>,
    /// Weight an input of the dataset against the others, NAME=WEIGHT per
    /// position (the inputs whose file name contains NAME; 1 leaves it as
    /// built, 0 leaves it out; repeat for more), for example
    /// `--source-weight selfplay=8` for the engine's own games.
    #[arg(long = "source-weight", value_name = "NAME=WEIGHT")]
    source_weights: Vec<SourceWeight>,
    /// Read an input's evaluations at a scale of its own, NAME=S in
    /// centipawns (the inputs whose file name contains NAME; repeat for
    /// more), for example the one `deepchess data fit-scale` fits for it;
    /// the network keeps --eval-scale as its own.
    #[arg(long = "source-eval-scale", value_name = "NAME=S")]
    source_eval_scales: Vec<SourceWeight>,
}

pub(super) fn run(args: &ValueArgs) -> anyhow::Result<()> {
    let mut config = ValueConfig::preset(args.preset);
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.tower, args.tower.clone());
    if args.perspective {
        config.perspective = Some(true);
    }
    if let Some(buckets) = args.output_buckets {
        config.output_buckets = Some(buckets as usize);
    }
    if args.screlu {
        config.screlu = Some(true);
    }
    set(&mut config.target.lambda, args.lambda.map(|l| l.clamp(0.0, 1.0)));
    set(&mut config.target.eval_scale_cp, args.eval_scale);
    if !args.source_weights.is_empty() {
        config.source_weights = args.source_weights.clone();
    }
    if !args.source_eval_scales.is_empty() {
        config.target.source_eval_scales = Some(args.source_eval_scales.clone());
    }
    let rows = args.common.run.train(config, ValueLearner::new)?;
    let figure = |last: &EpochRow| match last.val_accuracy {
        Some(accuracy) => {
            format!("held-out pair accuracy {:.2}%, squared error {:.5}", 100.0 * accuracy, last.val_loss)
        }
        None => format!(
            "squared error {:.5}; no held-out pair accuracy: the held-out games need a win for each side",
            last.val_loss
        ),
    };
    finished("value", &rows, figure, &args.common.run.out.join(BEST_FLOAT_NETWORK));
    Ok(())
}
