//! The search an engine plays with: DeepChess's comparison search, the
//! scalar search over the utility head or over a learner's network
//! ([`crate::learned`]), or MCTS, behind one interface.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;
use core::str::FromStr;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::alphazero::{AzEvaluator, AzNet, MctsSearch, UtilitySearch};
use crate::learned::{LearnedEvaluator, LearnedNet};
use crate::network::Network;
use crate::search::{Event, Limits, Line, NetComparator, NetEvaluator, NetLeaf, ScalarSearch, Score, Search, Value};

/// Which search plays (`setoption name Search value scalar|comparison`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchKind {
    /// Negamax PVS over the utility head's centipawns ([`ScalarSearch`]).
    Scalar,
    /// DeepChess's comparison alpha-beta ([`Search`]).
    Comparison,
    /// MCTS over the utility head ([`UtilitySearch`]): `setoption name
    /// Engine value mcts`, not one of [`SearchKind::ALL`].
    Mcts,
}

impl SearchKind {
    /// The two alpha-beta kinds (`Search`), the default first.
    pub const ALL: [SearchKind; 2] = [SearchKind::Scalar, SearchKind::Comparison];

    /// The option value: `scalar` or `comparison` (`mcts` for MCTS).
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Scalar => "scalar",
            SearchKind::Comparison => "comparison",
            SearchKind::Mcts => "mcts",
        }
    }

    /// Whether `net` has the head this search needs.
    pub fn supported_by(self, net: &Network) -> bool {
        match self {
            SearchKind::Scalar | SearchKind::Mcts => net.has_utility(),
            SearchKind::Comparison => net.has_comparison(),
        }
    }
}

impl FromStr for SearchKind {
    type Err = ();

    fn from_str(s: &str) -> Result<SearchKind, ()> {
        SearchKind::ALL.into_iter().find(|kind| kind.name().eq_ignore_ascii_case(s.trim())).ok_or(())
    }
}

/// An MCTS playout over the utility head, in alpha-beta nodes' time.
const UTILITY_PLAYOUT_COST: u64 = 32;

/// The AlphaZero network's multiply-adds in one alpha-beta node's time.
const AZ_MULTIPLY_ADDS_PER_NODE: u64 = 51_200;

/// Either search, with what the UCI engine needs of it.
pub enum Searcher {
    /// The comparison search.
    Comparison(Box<Search<NetComparator>>),
    /// The scalar search.
    Scalar(Box<ScalarSearch<NetEvaluator>>),
    /// The scalar search over a learner's network.
    Learned(Box<ScalarSearch<LearnedEvaluator>>),
    /// MCTS over the utility head.
    Mcts(Box<UtilitySearch>),
    /// MCTS with the AlphaZero seed's network ([`crate::alphazero::AzNet`]).
    Az(Box<MctsSearch<AzEvaluator>>),
}

impl Searcher {
    /// A search of `kind` over `net` whose tables take `hash_mb` MiB (see
    /// [`split_hash`]).
    pub fn new(kind: SearchKind, net: Network, hash_mb: usize) -> Searcher {
        let (cache, tt) = split_hash(kind, hash_mb);
        match kind {
            SearchKind::Comparison => Searcher::Comparison(Box::new(Search::new(NetComparator::new(net, cache), tt))),
            SearchKind::Scalar => Searcher::Scalar(Box::new(ScalarSearch::new(NetEvaluator::new(net, cache), tt))),
            SearchKind::Mcts => Searcher::Mcts(Box::new(UtilitySearch::with_network(net))),
        }
    }

    /// The scalar search over a learner's network, whose tables take
    /// `hash_mb` MiB.
    pub fn learned(net: LearnedNet, hash_mb: usize) -> Searcher {
        let (cache, tt) = split_hash(SearchKind::Scalar, hash_mb);
        Searcher::Learned(Box::new(ScalarSearch::new(LearnedEvaluator::new(net, cache), tt)))
    }

    /// MCTS with the AlphaZero seed's network (it has no other search).
    pub fn az(net: AzNet) -> Searcher {
        Searcher::Az(Box::new(MctsSearch::new(AzEvaluator::new(net))))
    }

    /// Which search this is.
    pub fn kind(&self) -> SearchKind {
        match self {
            Searcher::Comparison(_) => SearchKind::Comparison,
            Searcher::Scalar(_) | Searcher::Learned(_) => SearchKind::Scalar,
            Searcher::Mcts(_) | Searcher::Az(_) => SearchKind::Mcts,
        }
    }

    /// The DeepChess network; `None` for a learner's network.
    pub fn network(&self) -> Option<&Network> {
        match self {
            Searcher::Comparison(s) => Some(s.comparator().network()),
            Searcher::Scalar(s) => Some(s.evaluator().network()),
            Searcher::Learned(_) | Searcher::Az(_) => None,
            Searcher::Mcts(s) => Some(s.network()),
        }
    }

    /// The AlphaZero network, if it plays.
    pub fn az_network(&self) -> Option<&AzNet> {
        match self {
            Searcher::Az(s) => Some(s.evaluator().network()),
            _ => None,
        }
    }

    /// The AlphaZero network's MCTS, if it plays: a host with a batch
    /// device evaluates its leaves ([`UciEngine::gather_leaves`](super::UciEngine::gather_leaves)).
    pub fn az_search_mut(&mut self) -> Option<&mut MctsSearch<AzEvaluator>> {
        match self {
            Searcher::Az(s) => Some(s),
            _ => None,
        }
    }

    /// The AlphaZero network's MCTS, if it plays.
    pub fn az_search(&self) -> Option<&MctsSearch<AzEvaluator>> {
        match self {
            Searcher::Az(s) => Some(s),
            _ => None,
        }
    }

    /// The learner's network, if one plays.
    pub fn learned_network(&self) -> Option<&LearnedNet> {
        match self {
            Searcher::Learned(s) => Some(s.evaluator().network()),
            _ => None,
        }
    }

    /// Resizes the caches and tables to `hash_mb` MiB (emptying them).
    pub fn resize(&mut self, hash_mb: usize) {
        let (cache, tt) = split_hash(self.kind(), hash_mb);
        match self {
            Searcher::Comparison(s) => {
                s.comparator_mut().resize_cache(cache);
                s.resize_tt(tt);
            }
            Searcher::Scalar(s) => {
                s.evaluator_mut().resize_cache(cache);
                s.resize_tt(tt);
            }
            Searcher::Learned(s) => {
                s.evaluator_mut().resize_cache(cache);
                s.resize_tt(tt);
            }
            // The tree lives for one search; it has no table to size.
            Searcher::Mcts(_) | Searcher::Az(_) => {}
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        match self {
            Searcher::Comparison(s) => s.clear(),
            Searcher::Scalar(s) => s.clear(),
            Searcher::Learned(s) => s.clear(),
            Searcher::Mcts(_) | Searcher::Az(_) => {}
        }
    }

    /// Starts a search of `root` after the game `game` (Zobrist hashes).
    pub fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        match self {
            Searcher::Comparison(s) => s.start(root, game, limits),
            Searcher::Scalar(s) => s.start(root, game, limits),
            Searcher::Learned(s) => s.start(root, game, limits),
            Searcher::Mcts(s) => s.start(root, game, limits),
            Searcher::Az(s) => s.start(root, game, limits),
        }
    }

    /// Whether a search is under way.
    pub fn is_running(&self) -> bool {
        match self {
            Searcher::Comparison(s) => s.is_running(),
            Searcher::Scalar(s) => s.is_running(),
            Searcher::Learned(s) => s.is_running(),
            Searcher::Mcts(s) => s.is_running(),
            Searcher::Az(s) => s.is_running(),
        }
    }

    /// Searches for about the time of `budget` alpha-beta nodes (see
    /// [`Search::step`]), so that a host's slices take a few milliseconds
    /// whatever plays: an MCTS playout costs a network evaluation, many
    /// alpha-beta nodes' time ([`slice_nodes`](Self::slice_nodes)).
    pub fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        let budget = self.slice_nodes(budget);
        match self {
            Searcher::Comparison(s) => s.step(budget, should_stop),
            Searcher::Scalar(s) => s.step(budget, should_stop),
            Searcher::Learned(s) => s.step(budget, should_stop),
            Searcher::Mcts(s) => s.step(budget, should_stop),
            Searcher::Az(s) => s.step(budget, should_stop),
        }
    }

    /// This search's own nodes in the time of `budget` alpha-beta nodes
    /// (at least one). Measured natively (the sixth and eleventh sessions'
    /// AMD EPYC, one thread): an alpha-beta node takes about 1.4 µs, an
    /// MCTS playout over the utility head about 50 µs (32 nodes' time),
    /// one with the AlphaZero network 0.75–0.9 ms at 6 × 64, its
    /// convolutions' multiply-adds at about 51,200 per node's time.
    pub fn slice_nodes(&self, budget: u64) -> u64 {
        let cost = match self {
            Searcher::Comparison(_) | Searcher::Scalar(_) | Searcher::Learned(_) => 1,
            Searcher::Mcts(_) => UTILITY_PLAYOUT_COST,
            Searcher::Az(s) => {
                let net = s.evaluator().network();
                // The input, 2 per block and the policy head's 3 × 3 convolutions.
                let convolutions = (2 * net.blocks() + 2) as u64;
                let filters = net.filters() as u64;
                (convolutions * filters * filters * 9 * 64 / AZ_MULTIPLY_ADDS_PER_NODE).max(1)
            }
        };
        (budget / cost).max(1)
    }

    /// Ends the search now.
    pub fn stop(&mut self) {
        match self {
            Searcher::Comparison(s) => s.stop(),
            Searcher::Scalar(s) => s.stop(),
            Searcher::Learned(s) => s.stop(),
            Searcher::Mcts(s) => s.stop(),
            Searcher::Az(s) => s.stop(),
        }
    }

    /// The move to play.
    pub fn best_move(&self) -> Option<Move> {
        match self {
            Searcher::Comparison(s) => s.best_move(),
            Searcher::Scalar(s) => s.best_move(),
            Searcher::Learned(s) => s.best_move(),
            Searcher::Mcts(s) => s.best_move(),
            Searcher::Az(s) => s.best_move(),
        }
    }

    /// Nodes searched since the start.
    pub fn nodes(&self) -> u64 {
        match self {
            Searcher::Comparison(s) => s.nodes(),
            Searcher::Scalar(s) => s.nodes(),
            Searcher::Learned(s) => s.nodes(),
            Searcher::Mcts(s) => s.nodes(),
            Searcher::Az(s) => s.nodes(),
        }
    }

    /// Permille of the transposition table in use.
    pub fn hashfull(&self) -> u32 {
        match self {
            Searcher::Comparison(s) => s.hashfull(),
            Searcher::Scalar(s) => s.hashfull(),
            Searcher::Learned(s) => s.hashfull(),
            Searcher::Mcts(_) | Searcher::Az(_) => 0,
        }
    }

    /// The line that completed last: its MultiPV index and its UCI `info`
    /// line, `elapsed` ms after the start; `helper_nodes` (Lazy SMP
    /// helpers' nodes) count in `nodes` and `nps`, as Stockfish counts every
    /// thread's.
    pub fn last_info(&mut self, root: &Chess, elapsed: u64, helper_nodes: u64) -> Option<(usize, String)> {
        let nodes = self.nodes() + helper_nodes;
        let hashfull = self.hashfull();
        let (depth, seldepth, multipv, score, pv) = match self {
            Searcher::Comparison(s) => {
                let line = s.last_line()?.clone();
                let score = comparison_score(s, root, &line);
                (line.depth, line.seldepth, line.multipv, score, line.pv)
            }
            Searcher::Scalar(s) => {
                let line = s.last_line()?;
                (line.depth, line.seldepth, line.multipv, line.score, line.pv.clone())
            }
            Searcher::Learned(s) => {
                let line = s.last_line()?;
                (line.depth, line.seldepth, line.multipv, line.score, line.pv.clone())
            }
            // Depth: the most visited path's length.
            Searcher::Mcts(s) => {
                let (multipv, pv, score) = s.line()?;
                (pv.len() as u32, pv.len() as u32, multipv, score, pv)
            }
            Searcher::Az(s) => {
                let (multipv, pv, score) = s.line()?;
                (pv.len() as u32, pv.len() as u32, multipv, score, pv)
            }
        };
        let nps = nodes * 1000 / elapsed.max(1);
        let mut text = format!(
            "info depth {depth} seldepth {} multipv {multipv} score {score} nodes {nodes} nps {nps} hashfull {hashfull} time {elapsed} pv",
            seldepth.max(depth),
        );
        for &m in &pv {
            let _ = write!(text, " {}", UciMove::from_move(m, CastlingMode::Standard));
        }
        Some((multipv, text))
    }

    /// A progress line for the iteration under way: `info depth D nodes N nps
    /// N hashfull H time T`, without a score or a `pv`; `helper_nodes` as in
    /// [`last_info`](Self::last_info).
    pub fn stats_info(&self, elapsed: u64, helper_nodes: u64) -> String {
        let nodes = self.nodes() + helper_nodes;
        let depth = match self {
            Searcher::Comparison(s) => s.iteration(),
            Searcher::Scalar(s) => s.iteration(),
            Searcher::Learned(s) => s.iteration(),
            Searcher::Mcts(s) => s.depth(),
            Searcher::Az(s) => s.depth(),
        };
        format!(
            "info depth {depth} nodes {nodes} nps {} hashfull {} time {elapsed}",
            nodes * 1000 / elapsed.max(1),
            self.hashfull()
        )
    }
}

/// The comparison search's score for `line`: where the network has a
/// utility head, its centipawns for the line's last position, as the scalar
/// search reports; otherwise the comparison network's confidence against a
/// draw ([`Score::cp_from_logit`]). Mates are exact either way.
fn comparison_score(search: &mut Search<NetComparator>, root: &Chess, line: &Line<NetLeaf>) -> Score {
    let net = search.comparator().network();
    if let Value::Position(leaf) = &line.value
        && net.has_utility()
        && let Some(cp) = net.evaluate(leaf.embedding(), &mirror_embedding(net, root, leaf))
    {
        let cp = cp.clamp(-crate::search::MAX_CP, crate::search::MAX_CP);
        return Score::Cp(if root.turn() == Color::White { cp } else { -cp });
    }
    search.score(&line.value)
}

/// The embedding of the colour mirror image of `leaf`'s position.
fn mirror_embedding(net: &Network, root: &Chess, leaf: &NetLeaf) -> crate::Embedding {
    let mut acc = net.accumulator(root);
    acc.refresh(net, &leaf.features().mirrored());
    net.embed(&acc)
}

/// How `Hash` is split. The comparison search gives three quarters to its
/// embedding cache and a quarter to its move table; the scalar search three
/// quarters to its transposition table and a quarter to its evaluation
/// cache. Returns (cache bytes, table bytes).
pub fn split_hash(kind: SearchKind, mb: usize) -> (usize, usize) {
    let bytes = mb << 20;
    match kind {
        SearchKind::Comparison => (bytes / 4 * 3, bytes / 4),
        SearchKind::Scalar | SearchKind::Mcts => (bytes / 4, bytes / 4 * 3),
    }
}
