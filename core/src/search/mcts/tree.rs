//! Monte Carlo tree search with PUCT, as AlphaZero plays (the reimplementation's
//! formula, without its misprint).
//!
//! Each playout walks down the tree choosing the child with the largest
//! `Q + U`, where
//!
//! ```text
//! U = C(s) · P(s, a) · √N(s) / (1 + N(s, a))
//! C(s) = ln((1 + N(s) + c_base) / c_base) + c_init      c_base = 19,652, c_init = 1.25
//! ```
//!
//! `Q` is the mean value of the child from the point of view of the side
//! choosing it (0 for a child never visited), `P` its prior from the
//! network, `N` the visit counts. At a leaf the [`PolicyValue`] gives a value
//! and priors for every legal move; a finished game gives its result
//! instead (checkmate −1 for the side to move, any draw 0). The value goes
//! back up the path, its sign flipping at every ply.
//!
//! The search runs in slices ([`Mcts::run`]) so that a host can answer
//! `stop` between them, as the alpha-beta searches do.
//!
//! A host that evaluates positions in batches (a GPU) gathers leaves
//! instead ([`Mcts::gather`]): each selection walks down as a playout does
//! and leaves a *virtual loss* on its path (one more visit, valued as a
//! loss for the side choosing it), so that the next selection tries
//! another line; the leaves wait, unexpanded, for their evaluations
//! ([`Mcts::apply`]), which take the virtual losses back and back the real
//! values up. A selection that reaches a leaf already waiting is a
//! collision: it keeps its virtual loss until the batch is applied, so that
//! later selections avoid it too. Root noise for
//! self-play comes from the caller ([`Mcts::add_root_noise`]), which keeps
//! this crate free of a random-number generator.

use alloc::vec::Vec;

use shakmaty::{Chess, Move, MoveList, Position};

use crate::alphazero::leaf_batch::{Leaf, LeafBatch};
use crate::alphazero::planes::Repetitions;
use crate::search::mcts::policy_value::PolicyValue;

/// PUCT's exploration constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// `c_base`: how slowly exploration grows with the parent's visits.
    pub c_base: f32,
    /// `c_init`: exploration at few visits.
    pub c_init: f32,
}

impl Default for Puct {
    /// AlphaZero's: `c_base` 19,652, `c_init` 1.25.
    fn default() -> Puct {
        Puct { c_base: 19_652.0, c_init: 1.25 }
    }
}

impl Puct {
    /// `C(s)` for a parent visited `visits` times.
    pub fn exploration(&self, visits: u32) -> f32 {
        libm::logf((1.0 + visits as f32 + self.c_base) / self.c_base) + self.c_init
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// The move that leads here from the parent (none at the root).
    mv: Option<Move>,
    prior: f32,
    visits: u32,
    /// Sum of values from the point of view of the side that played `mv`.
    value_sum: f32,
    /// Children are `children..children + child_count` in the arena.
    children: u32,
    child_count: u32,
    expanded: bool,
    /// Selections in flight through this node ([`Mcts::gather`]): each
    /// counts as a visit with a loss until its batch is applied.
    virtual_losses: u32,
    /// Whether the node is a leaf waiting for its evaluation.
    waiting: bool,
}

impl Node {
    fn new(mv: Option<Move>, prior: f32) -> Node {
        Node {
            mv,
            prior,
            visits: 0,
            value_sum: 0.0,
            children: 0,
            child_count: 0,
            expanded: false,
            virtual_losses: 0,
            waiting: false,
        }
    }

    fn q(&self) -> f32 {
        if self.visits == 0 { 0.0 } else { self.value_sum / self.visits as f32 }
    }

    /// Visits, counting those in flight: what selection sees.
    fn seen_visits(&self) -> u32 {
        self.visits + self.virtual_losses
    }

    /// The mean value selection sees: virtual losses count as −1. Without
    /// any it is [`q`](Self::q), bit for bit.
    fn seen_q(&self) -> f32 {
        if self.virtual_losses == 0 {
            self.q()
        } else {
            (self.value_sum - self.virtual_losses as f32) / self.seen_visits() as f32
        }
    }
}

/// How a walk down the tree ended ([`Mcts::descend`]).
// Returned once per playout and moved into the expansion: boxing the move
// list would cost an allocation per playout for nothing.
#[allow(clippy::large_enum_variant)]
enum End {
    /// A finished game, with its value for the side to move.
    Finished(f32),
    /// A node never expanded, with its legal moves.
    Leaf(MoveList),
    /// A leaf already waiting for its evaluation.
    Waiting,
}

/// A walk from the root down to a node that is not expanded.
struct Descent {
    /// Node indices from the root.
    path: Vec<usize>,
    pos: Chess,
    /// How often `pos` occurred before.
    repetitions: usize,
    end: End,
}

/// One move of the root with its statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u32,
    /// Mean value for the side to move at the root, `−1..=1` (0 if unvisited).
    pub q: f32,
    /// The (normalised, possibly noised) prior.
    pub prior: f32,
}

/// A search tree over one root position.
#[derive(Clone, Debug)]
pub struct Mcts {
    root: Chess,
    /// The game before the root, and during a playout the path from it.
    seen: Repetitions,
    nodes: Vec<Node>,
    puct: Puct,
    priors: Vec<f32>,
}

impl Mcts {
    /// A tree over `root`, reached after the positions whose keys are in
    /// `history` (oldest first; [`zobrist`](crate::search::zobrist) computes them), with the given
    /// constants.
    pub fn new(root: Chess, history: Vec<u64>, puct: Puct) -> Mcts {
        Mcts {
            root,
            seen: Repetitions::from_keys(history),
            nodes: alloc::vec![Node::new(None, 1.0)],
            puct,
            priors: Vec::new(),
        }
    }

    /// The root position.
    pub fn root(&self) -> &Chess {
        &self.root
    }

    /// Nodes in the tree (each expanded position adds one per legal move).
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Playouts so far (the root's visits).
    pub fn playouts(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Runs `playouts` more playouts.
    pub fn run(&mut self, evaluator: &mut impl PolicyValue, playouts: u32) {
        for _ in 0..playouts {
            self.playout(evaluator);
        }
    }

    /// Mixes `noise` into the root's priors, `P ← (1 − fraction) · P +
    /// fraction · noise` (AlphaZero: Dirichlet(0.3) noise, fraction 0.25).
    /// Expands the root first if needed; `noise` has one entry per legal
    /// move, in the order of `legal_moves()` of the root. Returns false (and
    /// changes nothing) if the lengths differ.
    pub fn add_root_noise(&mut self, evaluator: &mut impl PolicyValue, noise: &[f32], fraction: f32) -> bool {
        if !self.nodes[0].expanded {
            self.playout(evaluator);
        }
        let root = &self.nodes[0];
        let (start, count) = (root.children as usize, root.child_count as usize);
        if noise.len() != count {
            return false;
        }
        for (child, &n) in self.nodes[start..start + count].iter_mut().zip(noise) {
            child.prior = (1.0 - fraction) * child.prior + fraction * n;
        }
        true
    }

    /// The root's moves with their visits and values, most visited first
    /// (ties: higher prior first).
    pub fn root_moves(&self) -> Vec<RootMove> {
        self.ranked_root_children()
            .into_iter()
            .filter_map(|i| {
                let n = &self.nodes[i];
                Some(RootMove { mv: n.mv?, visits: n.visits, q: n.q(), prior: n.prior })
            })
            .collect()
    }

    /// The root's children, most visited first (ties: higher prior first).
    fn ranked_root_children(&self) -> Vec<usize> {
        let mut children: Vec<usize> = self.children(0).collect();
        children.sort_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            y.visits.cmp(&x.visits).then(y.prior.total_cmp(&x.prior))
        });
        children
    }

    /// The line of the root's `k`-th most visited move (0: the best, as in
    /// [`root_moves`](Self::root_moves)), for MultiPV: the move, then the
    /// most visited path below it, with the move's mean value for the side to
    /// move at the root. A move never visited has no value of its own: it
    /// gets the root's mean value. `None` past the last legal move.
    pub fn line(&self, k: usize) -> Option<(Vec<Move>, f32)> {
        let child = *self.ranked_root_children().get(k)?;
        let node = &self.nodes[child];
        let mut pv = alloc::vec![node.mv?];
        pv.extend(self.path_below(child));
        // The root's value_sum is from the other side's point of view.
        let q = if node.visits > 0 { node.q() } else { -self.nodes[0].q() };
        Some((pv, q))
    }

    /// The most visited move, if the root has a legal move.
    pub fn best_move(&self) -> Option<Move> {
        self.root_moves().into_iter().next().map(|m| m.mv)
    }

    /// The principal variation: the most visited child, from the root down,
    /// while nodes have visits.
    pub fn pv(&self) -> Vec<Move> {
        self.path_below(0)
    }

    /// The most visited path below `node`, while nodes have visits.
    fn path_below(&self, mut node: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        while let Some(best) = self.children(node).filter(|&i| self.nodes[i].visits > 0).max_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            x.visits.cmp(&y.visits).then(x.prior.total_cmp(&y.prior))
        }) {
            pv.extend(self.nodes[best].mv);
            node = best;
        }
        pv
    }

    fn children(&self, node: usize) -> impl Iterator<Item = usize> + use<> {
        let n = &self.nodes[node];
        n.children as usize..(n.children + n.child_count) as usize
    }

    /// Index of the child of `node` with the largest `Q + U` (none if it
    /// has no children).
    fn select(&self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        let visits = parent.seen_visits();
        let scale = self.puct.exploration(visits) * libm::sqrtf(visits as f32);
        let score = |i: usize| {
            let child = &self.nodes[i];
            child.seen_q() + scale * child.prior / (1.0 + child.seen_visits() as f32)
        };
        self.children(node).max_by(|&a, &b| score(a).total_cmp(&score(b)))
    }

    fn playout(&mut self, evaluator: &mut impl PolicyValue) {
        let Descent { path, pos, repetitions, end } = self.descend();
        let value = match end {
            End::Finished(value) => value,
            End::Leaf(moves) => {
                self.priors.clear();
                let value = evaluator.evaluate(&pos, repetitions, &moves, &mut self.priors);
                let priors = core::mem::take(&mut self.priors);
                self.expand(path[path.len() - 1], moves, &priors);
                self.priors = priors;
                value
            }
            // Not reached: no leaf waits unless a batch is in flight, and
            // hosts do not run playouts then (`MctsSearch` cancels it first).
            End::Waiting => return,
        };
        self.backup(&path, value);
    }

    /// Walks down from the root by `Q + U` to a node that is not expanded.
    fn descend(&mut self) -> Descent {
        let mut pos = self.root.clone();
        let history = self.seen.len();
        let mut path = alloc::vec![0usize];
        let mut node = 0;
        let (repetitions, end) = loop {
            let repetitions = self.seen.push(&pos);
            // Only a node never expanded can be a finished game: one that was
            // expanded was not finished, and its position and history are fixed.
            if !self.nodes[node].expanded {
                if self.nodes[node].waiting {
                    break (repetitions, End::Waiting);
                }
                let moves = pos.legal_moves();
                break match terminal(&pos, repetitions, &moves) {
                    Some(value) => (repetitions, End::Finished(value)),
                    None => (repetitions, End::Leaf(moves)),
                };
            }
            match self.select(node).and_then(|c| Some((c, self.nodes[c].mv?))) {
                Some((child, m)) => {
                    pos.play_unchecked(m);
                    path.push(child);
                    node = child;
                }
                // Not reached: an expanded node has children.
                None => break (repetitions, End::Finished(0.0)),
            }
        };
        self.seen.truncate(history);
        Descent { path, pos, repetitions, end }
    }

    /// Selects up to `max` leaves for a host to evaluate in one batch, while
    /// the playouts done and in flight stay below `limit`: each leaf's path
    /// carries a virtual loss until [`apply`](Self::apply) or
    /// [`cancel`](Self::cancel) takes the batch back. A finished game met on
    /// the way is backed up at once, a playout like any other. Stops early
    /// when a selection comes back to the root's own waiting evaluation, and
    /// after `2 · max` selections.
    pub fn gather(&mut self, max: usize, limit: u32) -> LeafBatch {
        let mut batch = LeafBatch::default();
        for _ in 0..max.saturating_mul(2) {
            let in_flight = batch.leaves.len();
            if in_flight >= max || u64::from(self.playouts()) + in_flight as u64 >= u64::from(limit) {
                break;
            }
            let Descent { path, pos, repetitions, end } = self.descend();
            match end {
                End::Finished(value) => self.backup(&path, value),
                End::Leaf(moves) => {
                    self.add_virtual_loss(&path, 1);
                    let node = path[path.len() - 1];
                    self.nodes[node].waiting = true;
                    batch.leaves.push(Leaf { node, path, pos, repetitions, moves });
                }
                End::Waiting => {
                    let at_root = path.len() == 1;
                    self.add_virtual_loss(&path, 1);
                    batch.collisions.push(path);
                    if at_root {
                        break;
                    }
                }
            }
        }
        batch
    }

    /// Expands each leaf of `batch` with its evaluation and backs its value
    /// up, after taking the batch's virtual losses back. `evaluate(i, leaf,
    /// priors)` returns the value of the `i`-th leaf for its side to move
    /// and writes a prior for each of its moves to `priors` (cleared), as
    /// [`PolicyValue::evaluate`] does.
    pub fn apply(&mut self, batch: LeafBatch, mut evaluate: impl FnMut(usize, &Leaf, &mut Vec<f32>) -> f32) {
        let mut priors = core::mem::take(&mut self.priors);
        for path in &batch.collisions {
            self.add_virtual_loss(path, -1);
        }
        for (i, leaf) in batch.leaves.into_iter().enumerate() {
            self.add_virtual_loss(&leaf.path, -1);
            self.nodes[leaf.node].waiting = false;
            priors.clear();
            let value = evaluate(i, &leaf, &mut priors);
            let Leaf { node, path, moves, .. } = leaf;
            self.expand(node, moves, &priors);
            self.backup(&path, value);
        }
        self.priors = priors;
    }

    /// Takes a batch back unevaluated: the tree is as if it had never been
    /// gathered, but for the finished games backed up meanwhile.
    pub fn cancel(&mut self, batch: LeafBatch) {
        for path in batch.collisions.iter().chain(batch.leaves.iter().map(|l| &l.path)) {
            self.add_virtual_loss(path, -1);
        }
        for leaf in &batch.leaves {
            self.nodes[leaf.node].waiting = false;
        }
    }

    /// Adds `count` (or takes it back, negative) virtual losses along `path`.
    fn add_virtual_loss(&mut self, path: &[usize], count: i32) {
        for &i in path {
            let n = &mut self.nodes[i];
            n.virtual_losses = n.virtual_losses.saturating_add_signed(count);
        }
    }

    /// Adds a child to `node` for each of its legal `moves`, with `priors`
    /// (one per move; see [`PolicyValue::evaluate`]) normalised.
    fn expand(&mut self, node: usize, moves: MoveList, priors: &[f32]) {
        let uniform = 1.0 / moves.len().max(1) as f32;
        let total: f32 = priors.iter().take(moves.len()).map(|p| p.max(0.0)).sum();
        let start = self.nodes.len() as u32;
        for (i, m) in moves.into_iter().enumerate() {
            let p = priors.get(i).map_or(0.0, |p| p.max(0.0));
            // Priors that are missing, negative or all zero count as uniform.
            let prior = if total > 0.0 && total.is_finite() { p / total } else { uniform };
            self.nodes.push(Node::new(Some(m), prior));
        }
        let count = self.nodes.len() as u32 - start;
        let n = &mut self.nodes[node];
        n.children = start;
        n.child_count = count;
        n.expanded = true;
    }

    /// Adds `value` (for the side to move at the path's end) along `path`.
    fn backup(&mut self, path: &[usize], value: f32) {
        let value = value.clamp(-1.0, 1.0);
        // The last node's value_sum is from the point of view of the side
        // that moved into it: the opponent of the side to move there.
        let mut v = -value;
        for &i in path.iter().rev() {
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.value_sum += v;
            v = -v;
        }
    }
}

/// The value of a finished game for the side to move, or `None`, given its
/// legal `moves`. Threefold repetition (two earlier occurrences) and the
/// 50-move rule count as draws, as in the rules; then checkmate (−1),
/// stalemate and insufficient material (0), as `Position::outcome` decides.
fn terminal(pos: &Chess, repetitions: usize, moves: &MoveList) -> Option<f32> {
    if repetitions >= 2 || pos.halfmoves() >= 100 {
        Some(0.0)
    } else if moves.is_empty() {
        Some(if pos.is_check() { -1.0 } else { 0.0 })
    } else if pos.is_insufficient_material() {
        Some(0.0)
    } else {
        None
    }
}

#[cfg(test)]
#[path = "tree_tests.rs"]
mod tests;
