//! The sections that learners' configurations share: `model { … }` (the
//! network's shape) and `data { … }` (what an epoch draws and what
//! validation scores). `optim { … }` is in [`crate::train::runner::optim`]; each
//! learner's own configuration nests these (burn's style), and
//! [`crate::train::runner::preset`] holds every preset.

use burn::config::Config;
use deepchess_core::Shape;

use crate::data::LabelOptions;

/// The network: tower and head widths.
#[derive(Config, Debug, PartialEq)]
pub struct ModelConfig {
    /// Tower widths, from 773.
    pub tower: Vec<usize>,
    /// Head widths, from twice the tower's last, to 2.
    pub head: Vec<usize>,
}

impl ModelConfig {
    /// The section of `shape`.
    pub fn of(shape: &Shape) -> ModelConfig {
        ModelConfig::new(shape.tower().to_vec(), shape.head().to_vec())
    }

    /// The shape (an error for widths the core cannot run).
    pub fn shape(&self) -> anyhow::Result<Shape> {
        Ok(Shape::new(&self.tower, &self.head)?)
    }
}

/// A learned network (`.dcsn`): the hidden layers' widths (the input width
/// and the outputs are the learner's).
#[derive(Config, Debug, PartialEq)]
pub struct MlpConfig {
    /// Hidden widths, first to last.
    pub hidden: Vec<usize>,
}

/// What an epoch draws, and what validation scores.
#[derive(Config, Debug, PartialEq)]
pub struct DataConfig {
    /// Fresh items (pairs or positions, as the learner takes them) per epoch.
    #[config(default = 1_000_000)]
    pub per_epoch: usize,
    /// Fixed validation items scored after each epoch.
    #[config(default = 20_000)]
    pub val: usize,
    /// Fraction of training pairs replaced by their colour mirror images.
    #[config(default = 0.5)]
    pub mirror: f64,
    /// How training pairs are drawn and labelled: game results (the
    /// paper's), engine evaluations, or a blend. Validation pairs are always
    /// the paper's (W, L) pairs, so accuracies compare across labels.
    #[config(default = "LabelOptions::default()")]
    pub labels: LabelOptions,
    /// Seed of the items, their order and the initial weights.
    #[config(default = 2016)]
    pub seed: u64,
}
