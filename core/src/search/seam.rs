//! The one interface every search implements ([`Search`]), so that the UCI
//! engine, the benchmarks and the tools drive any of them through a
//! `Box<dyn Search>` that [`factory::build`](super::factory::build) makes.
//!
//! A search runs in resumable slices: [`Search::start`], then
//! [`Search::step`] until it returns [`Event::Finished`], reading the
//! completed lines ([`Search::report`]) as [`Event::Line`]s come.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::str::FromStr;
use core::sync::atomic::AtomicU64;

use shakmaty::{Chess, Move};

use crate::deepchess::embedding::Embedding;
use crate::deepchess::network::Network;
use crate::search::scalar::score_table::ScoreTable;
use crate::search::vocabulary::{Event, Limits, Report};

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

/// What a host's helper threads need to join a scalar search (Lazy SMP):
/// each runs its own [`ScalarSearch`](super::ScalarSearch) of `root` over a copy of `network`,
/// sharing `table` with the main search, until the main search sends
/// `bestmove`.
pub struct HelperJob {
    /// Helper threads to start (`Threads` − 1).
    pub helpers: usize,
    /// The network, for each helper's evaluator.
    pub network: Network,
    /// The main search's transposition table.
    pub table: Arc<ScoreTable>,
    /// The position searched.
    pub root: Chess,
    /// Zobrist hashes of the game before `root`.
    pub game: Vec<u64>,
    /// Bytes of each helper's evaluation cache.
    pub cache_bytes: usize,
    /// Nodes the helpers have searched, added to the main search's in `info`.
    pub nodes: Arc<AtomicU64>,
    /// The main search's `FiftyMoveScale`, which the helpers share.
    pub fifty_scale: bool,
}

/// What the engine tells a search that hands out Lazy SMP helpers.
pub struct HelperContext<'a> {
    /// Helper threads to start (`Threads` − 1).
    pub helpers: usize,
    /// `Hash` in MiB: each helper's cache takes what this search's does.
    pub hash_mb: usize,
    /// The position searched.
    pub root: &'a Chess,
    /// Zobrist hashes of the game before `root`.
    pub game: &'a [u64],
    /// The counter of the helpers' nodes.
    pub nodes: &'a Arc<AtomicU64>,
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

    /// What Lazy SMP helpers need to join the running search, if it takes
    /// helpers.
    fn helper_job(&self, _context: HelperContext<'_>) -> Option<HelperJob> {
        None
    }

    /// Fills the search's cache with embeddings computed elsewhere (a GPU):
    /// `keys[i]` is the Zobrist hash of the position whose embedding is
    /// `embeddings[i]` and whether it is the colour mirror image; the
    /// positions come in pairs, each followed by its mirror image. Returns
    /// how many entries it wrote (0 for a search that keeps none).
    fn prefill(&mut self, _keys: &[(u64, bool)], _embeddings: &[Embedding]) -> usize {
        0
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

/// A search whose leaves a host evaluates in batches (MCTS with the
/// AlphaZero network): see [`crate::uci`]'s batched engine.
pub trait BatchedSearch {
    /// The input planes of up to `max` new leaves (`None` while a batch is
    /// in flight or none can be gathered).
    fn gather_planes(&mut self, max: usize) -> Option<Vec<f32>>;

    /// Leaves in flight (`None` if no batch is).
    fn in_flight(&self) -> Option<usize>;

    /// Expands the batch in flight with the network's `outputs` (laid out
    /// as [`leaf_batch`](crate::alphazero::leaf_batch) says); `false` if
    /// there is none or the outputs do not fit it (the batch stays).
    fn apply(&mut self, outputs: &[f32]) -> bool;

    /// Takes the batch in flight back unevaluated.
    fn cancel(&mut self);

    /// Between batches: the event a `step` would give before its next
    /// playout.
    fn poll(&mut self, should_stop: &mut dyn FnMut(u64) -> bool) -> Event;
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
