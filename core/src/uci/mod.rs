//! The UCI protocol: a line parser ([`Command`]), time management
//! ([`TimeBudget`]), games as UCI gives them ([`parse_game`]), and the
//! engine state machine ([`UciEngine`]), which words the searches' reports
//! as `info` lines (`info`), with MultiPV lines sorted before they are
//! printed (`multipv`), its options each declared once (`options`) and
//! `go perft` (`perft`), that the native binary and the browser worker both
//! drive, with the Lazy SMP helpers' pool ([`HelperPool`]) that both run on
//! their threads.

mod batched;
mod command;
mod engine;
mod game;
mod helpers;
mod info;
mod multipv;
mod options;
mod perft;
mod time;

pub use command::{Command, Go, ParseCommandError};
pub use engine::{Request, STATS_INTERVAL_MS, UciEngine};
pub use game::{GameError, parse_game, uci_move};
pub use helpers::{HelperPool, HelperSync};
pub use options::{BUILT_IN_NETWORK, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD, DEFAULT_SEARCH, MAX_HASH_MB, MAX_MULTIPV};
pub use perft::perft_divide;
pub use time::{DEFAULT_MOVES_TO_GO, TimeBudget};
