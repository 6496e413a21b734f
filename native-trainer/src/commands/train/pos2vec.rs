//! `deepchess train pos2vec`: the tower pretrained as a stacked autoencoder.

use super::{LearnerArgs, ShapeArgs};

use crate::train::deepchess::pos2vec::{Pos2VecConfig, Pos2VecLearner};
use crate::train::runner::config::ModelConfig;
use crate::train::runner::preset::Preset;

/// Arguments of `train pos2vec`.
#[derive(clap::Args)]
pub struct Pos2VecArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `paper` and `quick`: the full tower 773-600-400-200-100; `smoke`: the distilled one, tiny epochs.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// The Siamese network the pretrained tower starts (`train siamese
    /// --init` with the same shape), in place of the preset's: the paper
    /// pretrains its small network too.
    #[command(flatten)]
    shape: ShapeArgs,
}

pub(super) fn run(args: &Pos2VecArgs) -> anyhow::Result<()> {
    let mut config = Pos2VecConfig::preset(args.preset);
    if let Some(shape) = args.shape.shape()? {
        config.model = ModelConfig::of(&shape);
    }
    args.common.apply(&mut config.optim, &mut config.data);
    let rows = args.common.run.train(config, Pos2VecLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "pos2vec: {} epochs, last layer's validation loss {:.5}; start a Siamese run from it with --init {}",
            rows.len(),
            last.val_loss,
            args.common.run.out.display()
        );
    }
    Ok(())
}
