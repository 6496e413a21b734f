//! Training on burn (features `flex` and `wgpu`).
//!
//! - [`runner`]: what every learner shares: the epoch runner
//!   ([`runner::epochs`]) that trains any [`runner::learner::Learner`], the
//!   run directory, metrics, optimizer, configuration sections, device,
//!   batches, inputs, presets and tensor helpers;
//! - [`deepchess`]: DeepChess's learners: Pos2Vec pretraining, the Siamese
//!   comparison network on (W, L) pairs, distillation, the utility head, and
//!   the training-speed benchmark;
//! - [`learned`]: the other learners, on a small perceptron that core runs
//!   as a learned network (`.dcsn`, `deepchess_core::learned`): Herud–Mueller's
//!   deep belief network, Deep Pink, NeuroChess (TD over self-play);
//! - [`alphazero`]: the AlphaZero reimplementation's policy-and-value network, by
//!   supervision or by self-play with gates, exported as a `.dcaz` network
//!   that core plays through MCTS.
//!
//! A learner supplies its model, its items and its loss; its configuration
//! nests the shared sections, and [`runner::preset`] holds every preset.

pub mod alphazero;
pub mod deepchess;
pub mod learned;
pub mod runner;
