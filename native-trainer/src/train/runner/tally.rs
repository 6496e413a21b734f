//! An epoch's running loss and accuracy, read back from the device a few
//! steps at a time.
//!
//! A step's loss is a one-element tensor on the device. Reading it back
//! (`into_scalar`) waits for the step to finish, so a loop that reads every
//! step never has the next step queued while the device works: on a GPU
//! the host's time per step and the device's add up instead of overlapping.
//! The tally keeps each step's loss (and correct count) on the device and
//! reads them back together every [`READ_EVERY`] steps and at the end of the
//! epoch, as the field's trainers do. The sums are the same numbers the
//! per-step reads gave, added in the same order.
//!
//! Under MPI the ranks sum a step's figures with its gradients
//! ([`crate::train::runner::data_parallel::all_reduce`]), which needs them
//! on the host at once: there each step is read as it ends ([`Tally::add`]).

use burn::tensor::Tensor;

use crate::train::runner::tensors::tensor_values;

/// Steps whose figures wait on the device before they are read back: the
/// progress bar's loss is at most that many steps old.
pub const READ_EVERY: usize = 32;

/// One step's figures, still on the device.
pub struct Step {
    /// The batch's mean loss, detached from its graph.
    pub loss: Tensor<1>,
    /// Items classified correctly (a one-element float count), for learners
    /// that classify.
    pub correct: Option<Tensor<1>>,
    /// Items in the batch (this rank's share).
    pub items: usize,
}

impl Step {
    /// The step's figures on the host, as the all-reduce sums them: the
    /// loss times the items, the correct count, and 1 if the learner
    /// classifies (else 0).
    pub fn read(self) -> [f32; 3] {
        let loss = self.loss.into_scalar::<f32>() * self.items as f32;
        match self.correct {
            Some(correct) => [loss, correct.into_scalar::<f32>(), 1.0],
            None => [loss, 0.0, 0.0],
        }
    }
}

/// The figures of an epoch's steps so far.
#[derive(Default)]
pub struct Tally {
    pending: Vec<Step>,
    loss_sum: f64,
    correct: Option<usize>,
    seen: usize,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Adds a step whose figures are still on the device, and reads every
    /// pending step back once [`READ_EVERY`] have gathered. Returns whether
    /// it read (the figures below are then current).
    pub fn push(&mut self, step: Step) -> bool {
        self.pending.push(step);
        if self.pending.len() < READ_EVERY {
            return false;
        }
        self.read();
        true
    }

    /// Adds a step's figures already on the host (summed over the ranks):
    /// `stats` as [`Step::read`] gives them, for a batch of `items`.
    pub fn add(&mut self, stats: [f32; 3], items: usize) {
        self.loss_sum += f64::from(stats[0]);
        if stats[2] > 0.0 {
            *self.correct.get_or_insert(0) += stats[1] as usize;
        }
        self.seen += items;
    }

    /// Reads every pending step back, in one transfer for the losses and
    /// one for the counts.
    pub fn read(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let steps = std::mem::take(&mut self.pending);
        let items: Vec<usize> = steps.iter().map(|s| s.items).collect();
        let (losses, counts): (Vec<_>, Vec<_>) = steps.into_iter().map(|s| (s.loss, s.correct)).unzip();
        let losses = tensor_values(Tensor::cat(losses, 0));
        let counts: Vec<Tensor<1>> = counts.into_iter().flatten().collect();
        let counts = if counts.is_empty() { Vec::new() } else { tensor_values(Tensor::cat(counts, 0)) };
        let mut counts = counts.into_iter();
        for (loss, items) in losses.into_iter().zip(items) {
            let correct = counts.next();
            let stats = [loss * items as f32, correct.unwrap_or(0.0), f32::from(u8::from(correct.is_some()))];
            self.add(stats, items);
        }
    }

    /// Items added so far.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// The mean loss of the items added so far.
    pub fn loss(&self) -> f64 {
        self.loss_sum / self.seen.max(1) as f64
    }

    /// The share of the items added so far classified correctly, for
    /// learners that classify.
    pub fn accuracy(&self) -> Option<f64> {
        self.correct.map(|c| c as f64 / self.seen.max(1) as f64)
    }
}

#[cfg(all(test, feature = "flex"))]
mod tests {
    use burn::tensor::{Device, TensorData};

    use super::*;

    fn step(loss: f32, correct: Option<f32>, items: usize) -> Step {
        let device = Device::flex();
        let one = |x: f32| Tensor::<1>::from_data(TensorData::new(vec![x], [1]), &device);
        Step { loss: one(loss), correct: correct.map(one), items }
    }

    #[test]
    fn read_in_groups_the_sums_are_those_of_reading_each_step() {
        let figures: Vec<(f32, f32, usize)> =
            (0..READ_EVERY * 2 + 5).map(|i| (0.1 + i as f32 * 0.37, (i % 7) as f32, 10 + i % 3)).collect();
        let (mut grouped, mut each) = (Tally::new(), Tally::new());
        let mut reads = 0;
        for &(loss, correct, items) in &figures {
            reads += usize::from(grouped.push(step(loss, Some(correct), items)));
            each.add(step(loss, Some(correct), items).read(), items);
        }
        assert_eq!(reads, 2, "a read every {READ_EVERY} steps");
        assert_ne!(grouped.seen(), each.seen(), "the last steps wait until the end of the epoch");
        grouped.read();
        assert_eq!((grouped.loss(), grouped.accuracy(), grouped.seen()), (each.loss(), each.accuracy(), each.seen()));
        assert_eq!(
            grouped.accuracy(),
            Some(figures.iter().map(|f| f.1 as usize).sum::<usize>() as f64 / each.seen() as f64)
        );
    }

    #[test]
    fn a_learner_that_does_not_classify_has_no_accuracy() {
        let mut tally = Tally::new();
        tally.push(step(0.5, None, 4));
        tally.read();
        assert_eq!((tally.loss(), tally.accuracy()), (0.5, None));
    }
}
