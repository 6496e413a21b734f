//! What every learner shares: the epoch runner ([`epochs`]) over the one
//! [`learner::Learner`] trait, the run directory ([`run_dir`]), the metrics
//! table and plot ([`metrics`]), the optimizer ([`optim`]), the shared
//! configuration sections ([`config`]), what a panic during training leaves
//! ([`crash`]), the device ([`device`], with the wgpu adapters it is chosen
//! from), batches and
//! inputs ([`batch`], [`inputs`]; kept and gathered on a GPU:
//! [`device_batches`]), training on several MPI ranks
//! ([`data_parallel`]), the presets ([`preset`]), the `paper` presets' tables
//! beside their works ([`paper`]), an epoch's running loss read back a few
//! steps at a time ([`tally`]) and the tensor helpers ([`tensors`]).

pub mod bag;
pub mod batch;
pub mod config;
pub mod crash;
pub mod data_parallel;
pub mod device;
pub mod device_batches;
pub mod epochs;
pub mod inputs;
pub mod learner;
pub mod metrics;
pub mod optim;
pub mod paper;
pub mod preset;
pub mod run_dir;
pub mod tally;
pub mod tensors;
