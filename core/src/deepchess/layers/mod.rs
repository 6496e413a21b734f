//! The two layer types. Each reads its parameters from a weights file,
//! writes them back, and propagates through the [`kernels`](crate::kernels).

pub mod dense;
pub mod feature_transformer;

pub use dense::Dense;
pub use feature_transformer::FeatureTransformer;
