//! MCTS as a UCI search (`setoption name Engine value mcts`), judged by any
//! [`PolicyValue`]: the reimplementation's network ([`AzEvaluator`](super::AzEvaluator))
//! or DeepChess's utility head ([`UtilityEvaluator`](super::UtilityEvaluator)).
//!
//! It runs in the same resumable slices as the alpha-beta searches: `step`
//! spends a budget of playouts (one playout is one node) and returns, so a
//! host answers `stop` between slices. With MultiPV `k`, each report is `k`
//! lines in a row ([`Event::Line`] each): the `k` most visited root moves,
//! each with the most visited path below it.
//!
//! A host with a batch device (the browser's WebGPU) runs the same search
//! by batches instead: [`gather`](MctsSearch::gather) selects leaves,
//! the host evaluates them, [`apply`](MctsSearch::apply) expands them, and
//! [`poll`](MctsSearch::poll) gives the reports and the end that `step`
//! would have given. `stop` or a CPU `step` takes a batch in flight back.

use alloc::vec::Vec;

use shakmaty::{Chess, Color, Move, Position};

use crate::alphazero::leaf_batch::{Leaf, LeafBatch};
use crate::arch::AZ_VALUE_SCALE_CP;
use crate::search::abilities::BatchedSearch;
use crate::search::interface::{Search, SearchKind};
use crate::search::mcts::policy_value::PolicyValue;
use crate::search::mcts::tree::{Mcts, Puct, RootMove};
use crate::search::score::Score;
use crate::search::types::{Event, Limits, Report};

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
    /// Lines per report (MultiPV).
    multipv: usize,
    /// The line [`line`](Self::line) gives: 0 the best.
    line_index: usize,
    /// Lines of the current report still to give.
    pending: usize,
    /// Leaves a host is evaluating.
    in_flight: Option<LeafBatch>,
}

impl<E: PolicyValue> MctsSearch<E> {
    /// A search judged by `evaluator`.
    pub fn new(evaluator: E) -> MctsSearch<E> {
        MctsSearch {
            evaluator,
            tree: None,
            limit: None,
            running: false,
            next_line: 0,
            reported: 0,
            multipv: 1,
            line_index: 0,
            pending: 0,
            in_flight: None,
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Begins a report: its first line now, the others at the next steps.
    fn begin_report(&mut self, nodes: u64) -> Event {
        self.reported = nodes;
        self.line_index = 0;
        self.pending = self.multipv - 1;
        Event::Line
    }

    /// What is due before the next playout, if anything: the rest of a
    /// report, the end (a full tree, the limit or `should_stop`), or a report.
    fn check(&mut self, should_stop: &mut dyn FnMut(u64) -> bool) -> Option<Event> {
        if !self.running || self.tree.is_none() {
            self.running = false;
            return Some(Event::Finished);
        }
        if self.pending > 0 {
            self.pending -= 1;
            self.line_index += 1;
            return Some(Event::Line);
        }
        let nodes = self.nodes();
        let full = self.tree.as_ref().is_some_and(|t| t.size() >= MAX_TREE_NODES);
        if full || self.limit.is_some_and(|limit| nodes >= limit) || (nodes > 0 && should_stop(nodes)) {
            // The last line first, then the end.
            if self.reported != nodes {
                return Some(self.begin_report(nodes));
            }
            self.running = false;
            return Some(Event::Finished);
        }
        if nodes >= self.next_line {
            self.next_line = nodes.saturating_mul(2);
            return Some(self.begin_report(nodes));
        }
        None
    }

    /// Selects up to `max` leaves for the host to evaluate, and keeps them
    /// until [`apply`](Self::apply): `None` while no search runs or a batch
    /// is already in flight. Finished games met on the way count at once,
    /// so a batch may be empty (apply it all the same). The limit and the
    /// next report count the leaves in flight: `go nodes 800` plays 800
    /// playouts, not more, and reports come at the same counts as by `step`.
    pub fn gather(&mut self, max: usize) -> Option<&LeafBatch> {
        if !self.running || self.in_flight.is_some() {
            return None;
        }
        // A batch stops at the next report, so reports come where `step` gives them.
        let limit = self.limit.unwrap_or(u64::MAX).min(self.next_line).min(u64::from(u32::MAX)) as u32;
        let tree = self.tree.as_mut()?;
        if tree.size() >= MAX_TREE_NODES {
            return None;
        }
        self.in_flight = Some(tree.gather(max, limit));
        self.in_flight.as_ref()
    }

    /// The batch in flight, if any.
    pub fn in_flight(&self) -> Option<&LeafBatch> {
        self.in_flight.as_ref()
    }

    /// Expands the batch in flight with its evaluations (see
    /// [`Mcts::apply`]); false if there is none (`stop` took it back).
    pub fn apply(&mut self, evaluate: impl FnMut(usize, &Leaf, &mut Vec<f32>) -> f32) -> bool {
        match (self.in_flight.take(), self.tree.as_mut()) {
            (Some(batch), Some(tree)) => {
                tree.apply(batch, evaluate);
                true
            }
            _ => false,
        }
    }

    /// Takes the batch in flight back unevaluated.
    pub fn cancel(&mut self) {
        if let (Some(batch), Some(tree)) = (self.in_flight.take(), self.tree.as_mut()) {
            tree.cancel(batch);
        }
    }

    /// Between batches: the event `step` would give before its next
    /// playout ([`Event::Paused`] if none); `should_stop` is asked every time.
    pub fn poll(&mut self, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        self.check(should_stop).unwrap_or(Event::Paused)
    }

    /// The root's moves with their statistics, most visited first.
    pub fn root_moves(&self) -> Vec<RootMove> {
        self.tree.as_ref().map_or_else(Vec::new, Mcts::root_moves)
    }

    /// The line of the last [`Event::Line`]: its MultiPV index (1 the
    /// best), the root move and the most visited path below it, and its
    /// score for White, the move's mean value mapped back to centipawns.
    pub fn line(&self) -> Option<(usize, Vec<Move>, Score)> {
        let tree = self.tree.as_ref()?;
        let (pv, q) = tree.line(self.line_index)?;
        let cp = (AZ_VALUE_SCALE_CP * libm::atanhf(q.clamp(-0.999, 0.999))) as i32;
        let white = if tree.root().turn() == Color::White { cp } else { -cp };
        Some((self.line_index + 1, pv, Score::Cp(white)))
    }
}

impl<E: PolicyValue> Search for MctsSearch<E> {
    fn kind(&self) -> SearchKind {
        SearchKind::Mcts
    }

    fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        let by_depth = limits.depth.map(|d| u64::from(d.max(1)) * PLAYOUTS_PER_DEPTH);
        self.limit = match (limits.nodes, by_depth) {
            (Some(n), Some(d)) => Some(n.min(d)),
            (n, d) => n.or(d),
        };
        let legal = root.legal_moves().len();
        self.running = legal > 0;
        self.multipv = limits.multipv.clamp(1, legal.max(1));
        self.tree = Some(Mcts::new(root, game.to_vec(), Puct::default()));
        self.in_flight = None;
        self.next_line = 64;
        self.reported = 0;
        self.line_index = 0;
        self.pending = 0;
    }

    fn is_running(&self) -> bool {
        self.running
    }

    fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        self.cancel();
        let end = self.nodes().saturating_add(budget.max(1));
        // The clock is read about every 64 alpha-beta nodes' work: every
        // playout of a network as costly as the AlphaZero one (a playout
        // there is milliseconds in wasm; every 64th overran `movetime` by
        // over 100 ms), every 64th of the cheapest.
        let every = (64 / self.node_cost().max(1)).max(1);
        loop {
            if let Some(event) = self.check(&mut |nodes| nodes.is_multiple_of(every) && should_stop(nodes)) {
                return event;
            }
            if self.nodes() >= end {
                return Event::Paused;
            }
            if let Some(tree) = self.tree.as_mut() {
                tree.run(&mut self.evaluator, 1);
            }
        }
    }

    fn stop(&mut self) {
        self.cancel();
        self.running = false;
    }

    fn best_move(&self) -> Option<Move> {
        self.tree.as_ref()?.best_move()
    }

    fn nodes(&self) -> u64 {
        self.tree.as_ref().map_or(0, |t| u64::from(t.playouts()))
    }

    fn depth(&self) -> u32 {
        self.tree.as_ref().map_or(0, |t| t.pv().len() as u32)
    }

    /// Depth: the most visited path's length.
    fn report(&mut self, _root: &Chess) -> Option<Report> {
        let (multipv, pv, score) = self.line()?;
        let depth = pv.len() as u32;
        Some(Report { depth, seldepth: depth, multipv, score, pv })
    }

    fn node_cost(&self) -> u64 {
        self.evaluator().playout_cost()
    }

    fn batched(&mut self) -> Option<&mut dyn BatchedSearch> {
        if self.evaluator().batches_on_device() { Some(self) } else { None }
    }

    fn batched_ref(&self) -> Option<&dyn BatchedSearch> {
        if self.evaluator().batches_on_device() { Some(self) } else { None }
    }
}
