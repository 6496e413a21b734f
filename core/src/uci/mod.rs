//! The UCI protocol: a line parser ([`Command`]), time management
//! ([`TimeBudget`]) and the engine state machine ([`UciEngine`]) that the
//! native binary and the browser worker both drive, and the Lazy SMP
//! helpers ([`HelperPool`]) that both run on their threads.

mod batched;
mod command;
mod engine;
mod helpers;
mod searcher;
mod time;

pub use command::{Command, Go, ParseCommandError};
pub use engine::{
    DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD, DEFAULT_SEARCH, MAX_HASH_MB, MAX_MULTIPV, Request, STATS_INTERVAL_MS,
    UciEngine, net_search, parse_game, uci_move,
};
pub use helpers::{HELPER_SLICE_NODES, HelperJob, HelperPool, HelperSync, HelperTask};
pub use searcher::{SearchKind, Searcher, split_hash};
pub use time::{DEFAULT_MOVES_TO_GO, TimeBudget};
