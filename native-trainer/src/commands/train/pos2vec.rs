//! `deepchess train pos2vec`: the tower pretrained as a stacked autoencoder.

use super::LearnerArgs;

use crate::train::deepchess::pos2vec::{Pos2VecConfig, Pos2VecLearner};
use crate::train::runner::preset::Preset;

/// Arguments of `train pos2vec`.
#[derive(clap::Args)]
pub struct Pos2VecArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// `paper` and `quick`: the full tower 773-600-400-200-100; `smoke`: the distilled one, tiny epochs.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
}

pub(super) fn run(args: &Pos2VecArgs) -> anyhow::Result<()> {
    let mut config = Pos2VecConfig::preset(args.preset);
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
