//! MCTS as a UCI search (`setoption name Engine value mcts`), judged by any
//! [`Evaluator`]: the seed's network ([`AzEvaluator`](super::AzEvaluator))
//! or DeepChess's utility head ([`UtilityEvaluator`](super::UtilityEvaluator)).
//!
//! It runs in the same resumable slices as the alpha-beta searches: `step`
//! spends a budget of playouts (one playout is one node) and returns, so a
//! host answers `stop` between slices.

use alloc::vec::Vec;

use shakmaty::{Chess, Color, Move, Position};

use crate::alphazero::mcts::{Evaluator, Mcts, Puct, RootMove};
use crate::arch::AZ_VALUE_SCALE_CP;
use crate::search::{Event, Limits, Score};

/// Playouts per depth of `go depth N` (MCTS has no iterations).
pub const PLAYOUTS_PER_DEPTH: u64 = 100;

/// The most tree nodes a search grows (about 64 MiB): past it the search
/// ends as if its limit were reached, so that `go infinite` cannot exhaust
/// a browser tab's memory.
pub const MAX_TREE_NODES: usize = 1 << 21;

/// A UCI search by MCTS, judged by `E`.
pub struct MctsSearch<E> {
    evaluator: E,
    tree: Option<Mcts>,
    limit: Option<u64>,
    running: bool,
    /// Playouts at which the next `info` line is due.
    next_line: u64,
    /// Playouts at the last `info` line.
    reported: u64,
}

impl<E: Evaluator> MctsSearch<E> {
    /// A search judged by `evaluator`.
    pub fn new(evaluator: E) -> MctsSearch<E> {
        MctsSearch { evaluator, tree: None, limit: None, running: false, next_line: 0, reported: 0 }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Starts a search of `root`, reached after the positions `game`
    /// (Zobrist hashes, oldest first). `nodes` limits playouts; `depth` N
    /// means N × [`PLAYOUTS_PER_DEPTH`] playouts.
    pub fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        let by_depth = limits.depth.map(|d| u64::from(d.max(1)) * PLAYOUTS_PER_DEPTH);
        self.limit = match (limits.nodes, by_depth) {
            (Some(n), Some(d)) => Some(n.min(d)),
            (n, d) => n.or(d),
        };
        self.running = !root.legal_moves().is_empty();
        self.tree = Some(Mcts::new(root, game.to_vec(), Puct::default()));
        self.next_line = 64;
        self.reported = 0;
    }

    /// Whether a search is under way.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Runs about `budget` playouts; `should_stop` gets the playout count
    /// every 64 playouts.
    pub fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        if !self.running || self.tree.is_none() {
            self.running = false;
            return Event::Finished;
        }
        let end = self.nodes().saturating_add(budget.max(1));
        loop {
            let nodes = self.nodes();
            let full = self.tree.as_ref().is_some_and(|t| t.size() >= MAX_TREE_NODES);
            if full
                || self.limit.is_some_and(|limit| nodes >= limit)
                || (nodes > 0 && nodes.is_multiple_of(64) && should_stop(nodes))
            {
                // The last line first, then the end.
                if self.reported != nodes {
                    self.reported = nodes;
                    return Event::Line;
                }
                self.running = false;
                return Event::Finished;
            }
            if nodes >= self.next_line {
                self.next_line = nodes.saturating_mul(2);
                self.reported = nodes;
                return Event::Line;
            }
            if nodes >= end {
                return Event::Paused;
            }
            if let Some(tree) = self.tree.as_mut() {
                tree.run(&mut self.evaluator, 1);
            }
        }
    }

    /// Ends the search.
    pub fn stop(&mut self) {
        self.running = false;
    }

    /// The most visited move.
    pub fn best_move(&self) -> Option<Move> {
        self.tree.as_ref()?.best_move()
    }

    /// Playouts so far.
    pub fn nodes(&self) -> u64 {
        self.tree.as_ref().map_or(0, |t| u64::from(t.playouts()))
    }

    /// The root's moves with their statistics, most visited first.
    pub fn root_moves(&self) -> Vec<RootMove> {
        self.tree.as_ref().map_or_else(Vec::new, Mcts::root_moves)
    }

    /// The most visited path and its score for White: the best root move's
    /// mean value mapped back to centipawns.
    pub fn line(&self) -> Option<(Vec<Move>, Score)> {
        let tree = self.tree.as_ref()?;
        let best = tree.root_moves().into_iter().next()?;
        let q = best.q.clamp(-0.999, 0.999);
        let cp = (AZ_VALUE_SCALE_CP * libm::atanhf(q)) as i32;
        let white = if tree.root().turn() == Color::White { cp } else { -cp };
        Some((tree.pv(), Score::Cp(white)))
    }
}
