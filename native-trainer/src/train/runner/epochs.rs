//! The epoch runner: one training loop for every learner.
//!
//! It owns what learners share: starting or resuming a run, a fresh
//! optimizer at each phase, the step loop (loss, backward pass, optimizer
//! step), the progress bar, validation, the metrics table and plot, and the
//! checkpoint. A checkpoint is `model.bpk`, `optimizer.bpk`, the learner's
//! own files, `metrics.csv`/`.svg` and, last, `state.json` (`epochs_done` of
//! `epochs_total`),
//! each replaced atomically: a run killed at any moment keeps its last
//! completed epoch, and `--resume` continues from it with the same figures.
//!
//! Under `mpirun` every rank runs this loop on its share of each batch and
//! the ranks all-reduce their gradients before each step
//! ([`crate::train::runner::data_parallel`]); `--batch-size` stays the
//! whole batch, so N ranks train as one process would. Rank 0 alone reads
//! and writes the run directory, validates and prints; it hands the others
//! the configuration, the epoch to start from, the weights and the
//! optimizer's state, so a run resumes with any number of ranks.

use std::time::Instant;

use burn::optim::{GradientsParams, ModuleOptimizer};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cluster;
use crate::train::runner::crash;
use crate::train::runner::data_parallel;
use crate::train::runner::device::DeviceChoice;
use crate::train::runner::learner::{Learner, Loss, Phase};
use crate::train::runner::metrics::{self, EpochRow};
use crate::train::runner::run_dir::{RunDir, state_field};
use crate::train::runner::tally::{Step, Tally};
use crate::train::runner::tensors::fresh;

/// How to run.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Continue the run from its last completed epoch.
    pub resume: bool,
    /// No progress bar, no per-epoch lines.
    pub quiet: bool,
    /// End this call after that many epochs, however far the run is
    /// (`--resume` continues it later).
    pub max_epochs: Option<usize>,
    /// End this call before an epoch that would end past this much time
    /// since it began, judged by the epoch before (the first epoch always
    /// runs): a run inside a time limit stops at a checkpoint of its own.
    pub stop_after: Option<std::time::Duration>,
}

/// The phase and the epoch within it of the run's `index`-th epoch (0-based).
fn locate(phases: &[Phase], mut index: usize) -> (usize, usize) {
    for (p, phase) in phases.iter().enumerate() {
        if index < phase.optim.epochs {
            return (p, index);
        }
        index -= phase.optim.epochs;
    }
    (phases.len(), index)
}

/// Trains (or resumes) the run in `out`: `new` makes the learner from the
/// run's configuration (`config`, or with `--resume` the one saved in the
/// run, see [`RunDir::config`]), its data in `data` and its `device`. Every
/// learner's constructor has that signature (`SiameseLearner::new`, …), so
/// this is the one entry for all of them.
pub fn run_learner<C: burn::config::Config, L: Learner>(
    config: C,
    data: &std::path::Path,
    out: &std::path::Path,
    device: DeviceChoice,
    options: &RunOptions,
    new: impl FnOnce(C, &std::path::Path, DeviceChoice, bool) -> anyhow::Result<L>,
) -> anyhow::Result<Vec<EpochRow>> {
    let root = cluster::is_root();
    let run = if root { RunDir::create(out)? } else { RunDir::elsewhere(out) };
    // Rank 0's configuration (a resumed run's saved one) on every rank.
    let config = if root { run.config(config, options.resume)? } else { config };
    let json = cluster::broadcast(burn::config::config_to_json(&config).into_bytes());
    let config = C::load_binary(&json).map_err(|e| anyhow::anyhow!("the configuration from rank 0: {e}"))?;
    // Only rank 0 prints.
    let options = RunOptions { quiet: options.quiet || !root, ..*options };
    run_epochs(&new(config, data, device, options.quiet)?, &run, &options)
}

/// Trains (or resumes) `learner` in `run`. Returns every epoch's metrics.
pub fn run_epochs<L: Learner>(learner: &L, run: &RunDir, options: &RunOptions) -> anyhow::Result<Vec<EpochRow>> {
    let phases = learner.phases();
    let total: usize = phases.iter().map(|p| p.optim.epochs).sum();
    let root = cluster::is_root();
    let state = if options.resume && root { run.state()? } else { None };
    let done = state.as_ref().map(|s| state_field(s, "epochs_done")).transpose()?.unwrap_or(0);
    let done = cluster::broadcast_u64(done as u64) as usize;
    // Seconds of training so far (a wall-clock schedule reads them); runs
    // saved before they were recorded count from 0.
    let mut trained = state.as_ref().and_then(|s| s.get("train_seconds")?.as_f64()).unwrap_or(0.0);
    anyhow::ensure!(done <= total, "state.json has {done} epochs done, the configuration {total}");

    let mut rows = if done > 0 && root { metrics::read(&run.path("metrics.csv"), done)? } else { Vec::new() };
    let mut model = learner.init(done > 0)?;
    let mut optim: Option<ModuleOptimizer> = None;
    if done > 0 {
        // The saved module has the shapes of the last completed epoch's phase.
        let (last, _) = locate(&phases, done - 1);
        model = learner.begin_phase(model, last);
        if root {
            model = run.load_module("model", model)?;
        }
        let (next, epoch) = locate(&phases, done);
        if next < phases.len() && epoch > 0 {
            optim = Some(data_parallel::sync_optimizer(run, "optimizer", phases[next].optim.init())?);
        }
    }
    // Every rank starts from rank 0's weights (fresh or resumed).
    model = data_parallel::sync_module(model);
    let (rank, ranks) = (cluster::rank(), cluster::size());

    let stop = done.saturating_add(options.max_epochs.unwrap_or(usize::MAX)).min(total);
    let began = Instant::now();
    let mut last_epoch = std::time::Duration::ZERO;
    // A panic (a backend's, after the device was chosen) ends the run with an
    // error that names the intact checkpoint: see `crash`.
    crash::install_hook();
    crash::checkpointed(run.dir(), done);
    let result = crash::guard(|| {
        let (mut model, mut optim) = (model, optim);
        for index in done..stop {
            // Rank 0's clock decides, for every rank.
            let out_of_time =
                options.stop_after.is_some_and(|limit| index > done && began.elapsed() + last_epoch > limit);
            if cluster::broadcast_u64(u64::from(out_of_time)) == 1 {
                if !options.quiet {
                    eprintln!("stopping before epoch {} (--stop-after); --resume continues", index + 1);
                }
                break;
            }
            let epoch_began = Instant::now();
            let (p, epoch) = locate(&phases, index);
            let phase = &phases[p];
            if epoch == 0 {
                model = learner.begin_phase(model, p);
                optim = None;
            }
            let optim = optim.get_or_insert_with(|| phase.optim.init());
            // Rank 0's clock, so that every rank steps at the same rate.
            trained = cluster::broadcast_u64((trained * 1000.0) as u64) as f64 / 1000.0;
            let lr = phase.optim.lr(epoch, trained);

            let items = learner.epoch(&model, p, epoch)?;
            if ranks > 1 {
                // Every rank must draw the same items: the learners' epochs are seeded.
                let mut counts = [items.len() as f32, 1.0];
                cluster::all_reduce_sum(&mut counts);
                anyhow::ensure!(
                    counts[0] == items.len() as f32 * counts[1],
                    "rank {rank} drew {} items for epoch {}, other ranks a different number",
                    items.len(),
                    index + 1
                );
            }
            let progress = ProgressBar::hidden();
            if !options.quiet {
                progress.set_draw_target(ProgressDrawTarget::stderr());
            }
            progress.set_length(items.len() as u64);
            progress.set_style(
                ProgressStyle::with_template(&format!(
                    "{{prefix}} {{bar:30}} {{pos}}/{{len}} {} {{per_sec}} {{msg}}",
                    phase.unit
                ))
                .expect("a valid template"),
            );
            progress.set_prefix(format!("{} epoch {}/{}", phase.name, epoch + 1, phase.optim.epochs));
            let start = Instant::now();
            let mut tally = Tally::new();
            let mut reducing = std::time::Duration::ZERO;
            let message = |tally: &Tally| {
                let accuracy = tally.accuracy().map_or_else(String::new, |a| format!(" acc {a:.3}"));
                format!("loss {:.5}{accuracy}", tally.loss())
            };
            let size = phase.optim.batch_size.max(1);
            for (b, batch) in items.chunks(size).enumerate() {
                // `FAILPOINTS=train-step=…` makes a step panic where a backend's
                // would (the test of `crash`; a no-op without the feature).
                #[cfg(feature = "failpoints")]
                fail::fail_point!("train-step");
                // This rank's share of the batch (all of it alone), and where it
                // starts among the epoch's items.
                let range = cluster::share(batch.len(), rank, ranks);
                let at = b * size + range.start;
                let share = &batch[range];
                let (grads, step) = if share.is_empty() {
                    (None, None)
                } else {
                    let Loss { loss, correct } = learner.loss(&model, p, share, at);
                    let grads = GradientsParams::from_grads(loss.backward(), &model);
                    (Some(grads), Some(Step { loss: loss.detach(), correct, items: share.len() }))
                };
                let reduce = Instant::now();
                let weight = share.len() as f32 / batch.len() as f32;
                let grads = if ranks > 1 {
                    // The ranks sum the step's figures with its gradients.
                    let mut stats = step.map_or([0.0; 3], Step::read);
                    let grads = data_parallel::all_reduce(&model, grads, weight, &mut stats);
                    tally.add(stats, batch.len());
                    progress.set_message(message(&tally));
                    grads
                } else {
                    if let Some(step) = step
                        && tally.push(step)
                    {
                        progress.set_message(message(&tally));
                    }
                    grads.unwrap_or_default()
                };
                reducing += reduce.elapsed();
                // Fresh leaves after each step: see `fresh`.
                model = fresh(learner.constrain(optim.step(lr, model, grads)));
                progress.inc(batch.len() as u64);
            }
            tally.read();
            let seconds = start.elapsed().as_secs_f64();
            trained += seconds;
            progress.finish_and_clear();

            // Rank 0 validates the phase's model before the phase ends.
            let validation = if root { Some(learner.validate(&model, p, !options.quiet)?) } else { None };
            if epoch + 1 == phase.optim.epochs {
                model = learner.end_phase(model, p);
            }
            // Rank 0's weights again, in case the ranks' float sums ever differ.
            model = data_parallel::sync_module(model);
            let Some(validation) = validation else {
                continue;
            };
            let row = EpochRow {
                epoch: index + 1,
                phase: p + 1,
                lr,
                train_loss: tally.loss(),
                train_accuracy: tally.accuracy(),
                val_loss: validation.loss,
                val_accuracy: validation.accuracy,
                items_per_second: tally.seen() as f64 / seconds.max(1e-9),
            };
            if !options.quiet {
                let detail = validation.detail.map_or_else(String::new, |d| format!("  ({d})"));
                let ranks = if ranks > 1 {
                    format!(
                        "  ({ranks} ranks; all-reduce {:.0}% of the epoch)",
                        100.0 * reducing.as_secs_f64() / seconds
                    )
                } else {
                    String::new()
                };
                eprintln!("{} epoch {}: {}{detail}{ranks}", phase.name, epoch + 1, row.csv_row());
            }
            rows.push(row);
            run.save_module("model", &model)?;
            run.save_optimizer("optimizer", optim)?;
            learner.save(run, &model, &rows)?;
            metrics::write(run.dir(), &rows, learner.loss_name())?;
            run.set_state(
                serde_json::json!({ "epochs_done": rows.len(), "epochs_total": total, "train_seconds": trained }),
            )?;
            crash::checkpointed(run.dir(), index + 1);
            last_epoch = epoch_began.elapsed();
        }
        Ok(())
    });
    crash::finished();
    result?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::runner::optim::OptimConfig;

    #[test]
    fn epochs_are_located_in_their_phases() {
        let phase = |epochs| Phase { name: String::new(), unit: "", optim: OptimConfig::new().with_epochs(epochs) };
        let phases = [phase(2), phase(0), phase(3)];
        let located: Vec<_> = (0..6).map(|i| locate(&phases, i)).collect();
        assert_eq!(located, [(0, 0), (0, 1), (2, 0), (2, 1), (2, 2), (3, 0)]);
    }
}
