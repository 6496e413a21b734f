//! Move generation of shakmaty (the engine's rules library) against
//! cozy-chess (a move generator made for engines), natively and in
//! WebAssembly, on the same positions and the same work, so that the two
//! targets' ratio can be read per library.
//!
//! Two workloads over the perft suite of the chess programming wiki
//! (`tests/fixtures/perft-wiki.epd`):
//!
//! - **perft**: the legal move tree counted, the last ply by the length of
//!   the move list (bulk counting): generation alone.
//! - **walk**: the search's pattern: at every node the legal moves
//!   generated into a list, each played on a copy of the position and the
//!   child asked whether it is in check; it returns the nodes plus the
//!   checks, the same for both libraries.
//!
//! `src/main.rs` times them natively; `run.mjs` times the WebAssembly build
//! of this crate (the [`run`] export) under node. `make bench-movegen` runs
//! both.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

mod count;
mod exports;
mod suite;
#[cfg(target_arch = "wasm32")]
mod wasm_runtime;

pub use count::{Library, Work, count};
pub use exports::{expected_count, positions, run, search_depth};
pub use suite::{DEPTHS, depth, expected};
