//! The `deepchess` command's library: data pipeline, native UCI engine,
//! benchmarks. The binary (`main.rs`) only parses arguments and dispatches.

pub mod bench;
pub mod data;
pub mod data_cli;
pub mod encode;
pub mod network;
pub mod uci;
