//! Training on burn (features `flex` and `wgpu`).
//!
//! One epoch runner ([`runner`]) trains every learner ([`learner::Learner`]):
//! Pos2Vec pretraining, the Siamese comparison network on (W, L) pairs, and
//! distillation. A learner supplies its model, its items and its loss; its
//! configuration nests the shared sections ([`config`], [`optim`]), and
//! [`preset`] holds every preset.

pub mod batch;
pub mod config;
pub mod device;
pub mod distill;
pub mod inputs;
pub mod learner;
pub mod metrics;
pub mod model;
pub mod optim;
pub mod pos2vec;
pub mod preset;
pub mod run;
pub mod runner;
pub mod siamese;
pub mod speed;
pub mod utility;
