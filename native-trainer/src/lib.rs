//! The `deepchess` command's library.
//!
//! - [`commands`]: one file per subcommand (its arguments and what it runs);
//!   the binary (`main.rs`) only parses arguments and dispatches.
//! - Domain code: [`data`] (PGN to training records, pairs and labels),
//!   [`train`] (learners on burn, with the `flex` or `wgpu` feature, and the
//!   utility head), [`play`] (engines, games, matches), [`eval`] (pair
//!   accuracy, test suites, static understanding), [`network`] (which
//!   network a command plays with), [`helper_threads`] (Lazy SMP's native
//!   threads), [`cluster`] (the ranks of a run under `mpirun`),
//!   [`broken_pipe`] (report commands end quietly when their reader goes).

pub mod allocator;
pub mod broken_pipe;
pub mod cluster;
pub mod commands;
pub mod data;
pub mod eval;
pub mod helper_threads;
pub mod network;
pub mod play;
#[cfg(feature = "train")]
pub mod train;
