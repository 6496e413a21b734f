//! Training on burn (features `flex` and `wgpu`): the Siamese comparison
//! network, trained on (W, L) pairs.

pub mod batch;
pub mod device;
pub mod metrics;
pub mod model;
pub mod siamese;
