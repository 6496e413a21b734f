//! The argument groups every learner's arguments flatten ([`LearnerArgs`]):
//! where and how a run goes ([`RunArgs`]) and the overrides of the shared
//! configuration sections ([`OverrideArgs`]); and a network shape
//! ([`ShapeArgs`]). Each applies
//! itself to a configuration, so that a common flag is written once.

use std::path::{Path, PathBuf};

use burn::config::Config;
use deepchess_core::Shape;

use crate::train::runner::config::{DataConfig, MlpConfig};
use crate::train::runner::device::{self, DeviceChoice};
use crate::train::runner::epochs::{self, RunOptions};
use crate::train::runner::learner::Learner;
use crate::train::runner::metrics::EpochRow;
use crate::train::runner::optim::{OptimConfig, OptimizerKind};

/// A network shape other than the preset's: `train siamese` and `train bench`.
#[derive(clap::Args)]
pub struct ShapeArgs {
    /// The full shape, 773-600-400-200-100 + 200-400-200-100-2 (for a teacher).
    #[arg(long, conflicts_with_all = ["tower", "head"])]
    full: bool,
    /// Tower widths, from 773 (for example 773,256,100,100 for a wider first layer).
    #[arg(long, value_delimiter = ',', requires = "head")]
    tower: Option<Vec<usize>>,
    /// Head widths, from twice the tower's last, to 2 (for example 200,100,100,2).
    #[arg(long, value_delimiter = ',', requires = "tower")]
    head: Option<Vec<usize>>,
}

impl ShapeArgs {
    /// The shape asked for, or None for the preset's.
    pub(super) fn shape(&self) -> anyhow::Result<Option<Shape>> {
        Ok(match (&self.tower, &self.head) {
            (Some(tower), Some(head)) => Some(Shape::new(tower, head)?),
            _ if self.full => Some(Shape::full()),
            _ => None,
        })
    }
}

/// Where a run reads and writes, and how: every learner takes these.
#[derive(clap::Args)]
pub struct RunArgs {
    /// Dataset directory (`train.bin`, `val.bin`) from `deepchess data build`.
    #[arg(long)]
    pub(super) data: PathBuf,
    /// Run directory: config.json, metrics (CSV and SVG), checkpoints.
    #[arg(long)]
    pub(super) out: PathBuf,
    #[arg(long, default_value = "auto", help = device::HELP)]
    pub(super) device: DeviceChoice,
    /// Continue the run in --out from its last completed epoch.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Stop after this many epochs (continue later with --resume).
    #[arg(long)]
    max_epochs: Option<usize>,
    /// Stop before an epoch that would end more than this many minutes after
    /// the start, judged by the epoch before (the first always runs); the run
    /// keeps its last checkpoint (continue later with --resume).
    #[arg(long, value_name = "MINUTES")]
    stop_after: Option<f64>,
}

impl RunArgs {
    /// Trains (or resumes) the run of the learner that `new` makes (each
    /// learner's constructor) from `config`.
    pub(super) fn train<C: Config, L: Learner>(
        &self,
        config: C,
        new: impl FnOnce(C, &Path, DeviceChoice, bool) -> anyhow::Result<L>,
    ) -> anyhow::Result<Vec<EpochRow>> {
        let stop_after = self.stop_after.map(|minutes| std::time::Duration::from_secs_f64(minutes.max(0.0) * 60.0));
        let options = RunOptions { resume: self.resume, quiet: self.quiet, max_epochs: self.max_epochs, stop_after };
        epochs::run_learner(config, &self.data, &self.out, self.device, &options, new)
    }
}

/// Overrides of the preset's optimizer and data sections, which every
/// learner has.
#[derive(clap::Args)]
pub struct OverrideArgs {
    /// Override the preset's epochs (of Pos2Vec: per layer; of a
    /// distillation: of the outputs phase).
    #[arg(long, visible_alias = "epochs-per-layer")]
    epochs: Option<usize>,
    /// Override the preset's batch size (items per step).
    #[arg(long)]
    batch_size: Option<usize>,
    /// Override the preset's learning rate.
    #[arg(long)]
    learning_rate: Option<f64>,
    /// Override the preset's optimizer (Adam: plain Adam; sgd: with the
    /// preset's momentum).
    #[arg(long, value_enum)]
    optimizer: Option<OptimizerKind>,
    /// Override the preset's L2 weight decay.
    #[arg(long)]
    weight_decay: Option<f64>,
    /// Override the preset's items per epoch: pairs, positions, triplets or
    /// TD steps, as the learner takes them.
    #[arg(
        long,
        visible_aliases = ["pairs-per-epoch", "positions-per-epoch", "triplets-per-epoch", "steps-per-epoch"]
    )]
    per_epoch: Option<usize>,
    /// Override the preset's seed (items, their order, initial weights).
    #[arg(long)]
    seed: Option<u64>,
    /// Override the preset's hidden widths of a learner's perceptron (Deep
    /// Pink's paper: three of 2,048; the DBN's: 100,100,100; NeuroChess:
    /// Thrun's 165); the DeepChess learners' shapes are their own flags.
    #[arg(long, value_delimiter = ',')]
    hidden: Option<Vec<usize>>,
}

/// What every learner's arguments flatten: where and how the run goes,
/// and the overrides of its configuration's shared sections.
#[derive(clap::Args)]
pub struct LearnerArgs {
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    overrides: OverrideArgs,
}

impl LearnerArgs {
    /// Writes the overrides given into the configuration's sections.
    pub(super) fn apply(&self, optim: &mut OptimConfig, data: &mut DataConfig) {
        let o = &self.overrides;
        set(&mut optim.epochs, o.epochs);
        set(&mut optim.batch_size, o.batch_size);
        set(&mut optim.learning_rate, o.learning_rate);
        set(&mut optim.optimizer, o.optimizer);
        set(&mut optim.weight_decay, o.weight_decay);
        set(&mut data.per_epoch, o.per_epoch);
        set(&mut data.seed, o.seed);
    }

    /// Writes the hidden widths given into a perceptron's section.
    pub(super) fn apply_hidden(&self, model: &mut MlpConfig) {
        set(&mut model.hidden, self.overrides.hidden.clone());
    }
}

/// `*field = value` where an override was given.
pub(super) fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *field = value;
    }
}
