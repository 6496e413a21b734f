//! What a learner supplies to the epoch runner ([`crate::train::runner::epochs`]):
//! its model, its phases, each epoch's items, the loss of a batch, and how
//! it validates and what it writes beside the checkpoint. Everything else
//! (resume, the optimizer, the step loop, progress, metrics, checkpoints)
//! is the runner's.

use burn::module::Module;
use burn::tensor::Tensor;

use crate::train::runner::metrics::EpochRow;
use crate::train::runner::optim::OptimConfig;
use crate::train::runner::run_dir::RunDir;

/// A stretch of training with one objective and one optimizer: a fresh
/// optimizer starts each phase, and the learning rate restarts.
#[derive(Clone, Debug)]
pub struct Phase {
    /// Shown on the progress bar ("layer 2", "features").
    pub name: String,
    /// What the progress bar counts ("pairs", "positions").
    pub unit: &'static str,
    /// Epochs, batch size and optimizer of the phase.
    pub optim: OptimConfig,
}

/// A batch's loss, and how many of its items the model got right, for
/// learners that classify. Both stay on the device: the runner reads them
/// back a few steps at a time ([`crate::train::runner::tally`]), so a step
/// never waits for the device to finish the one before.
pub struct Loss {
    /// The mean loss over the batch (a one-element tensor with its graph).
    pub loss: Tensor<1>,
    /// Items classified correctly, if the learner classifies: a one-element
    /// float tensor (a count, exact in `f32` up to 2²⁴ items a batch).
    pub correct: Option<Tensor<1>>,
}

/// An epoch's validation.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// Mean validation loss.
    pub loss: f64,
    /// Validation accuracy, if the learner has one.
    pub accuracy: Option<f64>,
    /// A figure worth printing that the metrics table does not keep (the
    /// quantized network's accuracy), when asked for.
    pub detail: Option<String>,
}

/// A learner.
pub trait Learner {
    /// The trained burn module (what `model.bpk` holds).
    type Model: Module;
    /// One training item: a pair, a position.
    type Item;

    /// The phases, in order; a run's epochs are theirs, one after another.
    fn phases(&self) -> Vec<Phase>;

    /// The loss's name on the plot.
    fn loss_name(&self) -> &'static str;

    /// A fresh model (seeding the device as the learner's seed says). When
    /// `resumed`, saved weights will replace these: skip what only a fresh
    /// start needs (seeding, loading a pretrained tower).
    fn init(&self, resumed: bool) -> anyhow::Result<Self::Model>;

    /// The model at the start of `phase` (0-based), before its first epoch;
    /// also how the runner gets a resumed phase's module shapes before it
    /// loads the saved weights into them.
    fn begin_phase(&self, model: Self::Model, _phase: usize) -> Self::Model {
        model
    }

    /// The model after the last epoch of `phase`.
    fn end_phase(&self, model: Self::Model, _phase: usize) -> Self::Model {
        model
    }

    /// The training items of `epoch` (0-based within `phase`), fresh each
    /// epoch; `model` is the model at the epoch's start (a learner that
    /// plays itself draws its games with it).
    fn epoch(&self, model: &Self::Model, phase: usize, epoch: usize) -> anyhow::Result<Vec<Self::Item>>;

    /// The loss of one batch: `batch` is the epoch's items from `at` on (a
    /// learner that put the epoch's items on the device in
    /// [`Learner::epoch`] reads the batch there).
    fn loss(&self, model: &Self::Model, phase: usize, batch: &[Self::Item], at: usize) -> Loss;

    /// The model after an optimizer step (clipping to what quantization keeps).
    fn constrain(&self, model: Self::Model) -> Self::Model {
        model
    }

    /// Scores the model on the validation split after an epoch of `phase`;
    /// `detail` asks for [`Validation::detail`].
    fn validate(&self, model: &Self::Model, phase: usize, detail: bool) -> anyhow::Result<Validation>;

    /// Writes the learner's own files of a checkpoint (float networks,
    /// pretrained towers), before the runner's `state.json`.
    fn save(&self, _run: &RunDir, _model: &Self::Model, _rows: &[EpochRow]) -> anyhow::Result<()> {
        Ok(())
    }
}
