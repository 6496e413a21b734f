//! The `deepchess` command's library: data pipeline, training (on burn, with
//! the `flex` or `wgpu` feature), export, evaluation, the native UCI engine,
//! benchmarks. The binary (`main.rs`) only parses arguments and dispatches.

pub mod allocator;
pub mod bench;
pub mod data;
pub mod data_cli;
pub mod datagen;
pub mod encode;
pub mod epd;
pub mod eval;
pub mod eval_cli;
pub mod export;
pub mod match_cli;
pub mod network;
pub mod play;
#[cfg(feature = "train")]
pub mod train;
#[cfg(feature = "train")]
pub mod train_cli;
pub mod uci;
pub mod understanding;
pub mod utility;
