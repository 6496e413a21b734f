//! The one interface every search implements ([`Search`]), so that the UCI
//! engine, the benchmarks and the tools drive any of them through a
//! `Box<dyn Search>` that [`factory::build`](super::factory::build) makes.
//!
//! A search runs in resumable slices: [`Search::start`], then
//! [`Search::step`] until it returns [`Event::Finished`], reading the
//! completed lines ([`Search::report`]) as [`Event::Line`]s come. What only
//! some searches can do is asked for apart, as the small traits of
//! [`abilities`](super::abilities).

use alloc::string::String;
use core::str::FromStr;

use shakmaty::{Chess, Move};

use crate::search::abilities::{BatchedSearch, Prefill, TakesHelpers};
use crate::search::types::{Event, Limits, Report};

/// Which search plays (`setoption name Search value scalar|comparison`,
/// `setoption name Engine value mcts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchKind {
    /// Negamax PVS over a scalar evaluation: DeepChess's utility head or a
    /// learner's network ([`ScalarSearch`](super::ScalarSearch)).
    Scalar,
    /// DeepChess's comparison alpha-beta ([`ComparisonSearch`](super::ComparisonSearch)).
    Comparison,
    /// MCTS over the utility head or the AlphaZero network
    /// ([`MctsSearch`](super::MctsSearch)): `setoption name Engine value
    /// mcts`, not one of [`SearchKind::ALL`].
    Mcts,
}

impl SearchKind {
    /// The two alpha-beta kinds (`Search`), the default first.
    pub const ALL: [SearchKind; 2] = [SearchKind::Scalar, SearchKind::Comparison];

    /// The option value: `scalar` or `comparison` (`mcts` for MCTS).
    pub fn name(self) -> &'static str {
        ["scalar", "comparison", "mcts"][self as usize]
    }
}

/// A search name that is not `scalar` or `comparison`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSearch(pub String);

impl core::fmt::Display for UnknownSearch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unknown search {:?} (expected scalar or comparison)", self.0)
    }
}

impl core::error::Error for UnknownSearch {}

impl FromStr for SearchKind {
    type Err = UnknownSearch;

    fn from_str(s: &str) -> Result<SearchKind, UnknownSearch> {
        SearchKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSearch(s.into()))
    }
}

/// A search, as the UCI engine drives it (`Send`, so that a host may keep
/// its engine on any thread).
///
/// Budgets are in the search's own nodes; [`node_cost`](Self::node_cost)
/// says how many alpha-beta nodes' work one of them is, so that a host's
/// slices ([`step_for`]) take a few milliseconds whatever plays.
pub trait Search: Send {
    /// Which search this is.
    fn kind(&self) -> SearchKind;

    /// Starts a search of `root` after the game `game` (Zobrist hashes).
    fn start(&mut self, root: Chess, game: &[u64], limits: Limits);

    /// Whether a search is under way.
    fn is_running(&self) -> bool;

    /// Runs for about `budget` of its own nodes; `should_stop` gets the node
    /// count now and then, and the search stops when it answers `true`.
    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event;

    /// Ends the search now.
    fn stop(&mut self);

    /// The move to play.
    fn best_move(&self) -> Option<Move>;

    /// Nodes (MCTS: playouts) searched since the start.
    fn nodes(&self) -> u64;

    /// The depth of the iteration under way, for progress lines.
    fn depth(&self) -> u32;

    /// The line that completed last (after [`Event::Line`]), as the `info`
    /// line gives it.
    fn report(&mut self, root: &Chess) -> Option<Report>;

    /// Permille of the transposition table in use.
    fn hashfull(&self) -> u32 {
        0
    }

    /// Forgets what earlier searches learnt (a new game).
    fn clear(&mut self) {}

    /// Resizes the caches and tables to `hash_mb` MiB (emptying them).
    fn resize(&mut self, _hash_mb: usize) {}

    /// How many alpha-beta nodes' work one of this search's nodes is (at
    /// least one), counted in network evaluations or multiply-adds, never
    /// timed on one machine.
    fn node_cost(&self) -> u64 {
        1
    }

    /// Lazy SMP helpers, for a search that takes them.
    fn helpers(&self) -> Option<&dyn TakesHelpers> {
        None
    }

    /// The cache to fill from a batch computed elsewhere, for a search
    /// that keeps one.
    fn prefiller(&mut self) -> Option<&mut dyn Prefill> {
        None
    }

    /// The search by batches of leaves, for a host with a batch device.
    fn batched(&mut self) -> Option<&mut dyn BatchedSearch> {
        None
    }

    /// [`batched`](Self::batched), to read.
    fn batched_ref(&self) -> Option<&dyn BatchedSearch> {
        None
    }
}

/// The search's own nodes in the time of `budget` alpha-beta nodes (at
/// least one).
pub fn slice_nodes(search: &dyn Search, budget: u64) -> u64 {
    (budget / search.node_cost().max(1)).max(1)
}

/// Runs `search` for about the time of `budget` alpha-beta nodes.
pub fn step_for(search: &mut dyn Search, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
    let budget = slice_nodes(search, budget);
    search.step(budget, should_stop)
}
