//! Training on burn (features `flex` and `wgpu`): Pos2Vec pretraining, the
//! Siamese comparison network on (W, L) pairs, and distillation.

pub mod batch;
pub mod device;
pub mod distill;
pub mod inputs;
pub mod metrics;
pub mod model;
pub mod pos2vec;
pub mod run;
pub mod siamese;
pub mod speed;
pub mod table;
