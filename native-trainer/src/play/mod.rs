//! Playing UCI engines against each other: the engine process and one
//! adjudicated game. `match` and `datagen` build on these.

pub mod engine;
pub mod game;
pub mod match_log;
pub mod openings;
pub mod sprt;
pub mod stats;
pub mod uci;
pub mod xboard;
