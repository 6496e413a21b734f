//! `deepchess train siamese`: the Siamese comparison network on (W, L) pairs.

use std::path::PathBuf;

use super::args::set;
use super::{LearnerArgs, ShapeArgs};

use crate::data::{LabelOptions, Labels};
use crate::train::deepchess::siamese::{SiameseConfig, SiameseLearner};
use crate::train::runner::config::ModelConfig;
use crate::train::runner::preset::Preset;

/// Arguments of `train siamese`.
#[derive(clap::Args)]
pub struct SiameseArgs {
    #[command(flatten)]
    common: LearnerArgs,
    /// Starting configuration.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Start from this `train pos2vec` run's pretrained tower (the shapes must match).
    #[arg(long)]
    init: Option<PathBuf>,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Override the preset's share of mirrored pairs (0 to 1).
    #[arg(long)]
    mirror: Option<f64>,
    /// One logistic output instead of the paper's two softmax outputs (the
    /// ablation): the head's second logit is held at zero.
    #[arg(long)]
    one_output: bool,
    /// Training labels: results (the paper's W/L pairs), evals (pairs
    /// ordered by engine evaluation) or blend (W/L pairs, label
    /// λ + (1 − λ)·P(eval)).
    #[arg(long, value_enum, default_value = "results")]
    labels: Labels,
    /// Evals: least evaluation difference of a pair, centipawns.
    #[arg(long, default_value_t = 50.0)]
    eval_margin: f64,
    /// Evals: share of pairs drawn within one game.
    #[arg(long, default_value_t = 0.5)]
    within_game: f64,
    /// Blend: weight λ of the game result.
    #[arg(long, default_value_t = 0.5)]
    blend_lambda: f64,
    /// Blend: centipawn scale of P(eval) = 1 / (1 + 10^(−Δ/scale)).
    #[arg(long, default_value_t = 400.0)]
    eval_scale: f64,
}

pub(super) fn run(args: &SiameseArgs) -> anyhow::Result<()> {
    let mut config = SiameseConfig::preset(args.preset);
    if let Some(shape) = args.shape.shape()? {
        config.model = ModelConfig::of(&shape);
    }
    config.init = args.init.as_ref().map(|p| p.display().to_string());
    config.one_output = args.one_output;
    args.common.apply(&mut config.optim, &mut config.data);
    set(&mut config.data.mirror, args.mirror);
    config.data.labels = LabelOptions {
        labels: args.labels,
        eval_margin_cp: args.eval_margin,
        within_game: args.within_game.clamp(0.0, 1.0),
        blend_lambda: args.blend_lambda.clamp(0.0, 1.0),
        eval_scale_cp: args.eval_scale,
    };
    let rows = args.common.run.train(config, SiameseLearner::new)?;
    if let Some(last) = rows.last() {
        println!(
            "epochs {}: train accuracy {:.2}%, validation accuracy {:.2}% (float); checkpoint {}",
            last.epoch,
            100.0 * last.train_accuracy.unwrap_or(0.0),
            100.0 * last.val_accuracy.unwrap_or(0.0),
            args.common.run.out.join("model.dcnf").display()
        );
    }
    Ok(())
}
