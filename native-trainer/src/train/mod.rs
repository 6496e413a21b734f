//! Training on burn (features `flex` and `wgpu`).
//!
//! One epoch runner ([`runner`]) trains every learner ([`learner::Learner`]):
//! Pos2Vec pretraining, the Siamese comparison network on (W, L) pairs,
//! distillation, and the other seeds' learners of a scalar evaluation
//! ([`dbn`], [`deep_pink`], [`neurochess`]) on a small perceptron ([`mlp`]) that core runs as a
//! `.dcsn` network, and the AlphaZero seed's policy-and-value network ([`az`], [`az_model`]),
//! by supervision or by self-play ([`az_self_play`], [`az_games`]), exported as a `.dcaz`
//! network that core plays through MCTS. A learner supplies its model, its items and its loss; its
//! configuration nests the shared sections ([`config`], [`optim`]), and
//! [`preset`] holds every preset.

pub mod az;
pub mod az_games;
pub mod az_model;
pub mod az_self_play;
pub mod batch;
pub mod config;
pub mod dbn;
pub mod deep_pink;
pub mod device;
pub mod distill;
pub mod inputs;
pub mod learner;
pub mod metrics;
pub mod mlp;
pub mod model;
pub mod neurochess;
pub mod optim;
pub mod pos2vec;
pub mod preset;
pub mod run;
pub mod runner;
pub mod self_play;
pub mod siamese;
pub mod speed;
pub mod tangent;
pub mod td;
pub mod utility;
