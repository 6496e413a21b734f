//! One module per `deepchess` subcommand: its arguments (clap) and what it
//! runs, calling the domain code in `data`, `train`, `play` and `eval`.

pub mod bench;
pub mod data;
pub mod datagen;
pub mod encode;
pub mod eval;
pub mod export;
pub mod r#match;
pub mod perft;
#[cfg(feature = "train")]
pub mod train;
pub mod uci;
