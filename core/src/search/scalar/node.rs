//! The scalar search's explicit stack: a node's state while its moves are
//! searched, and a stack that keeps its nodes' memory from one node to the
//! next.

use alloc::vec::Vec;

use shakmaty::{Chess, Move, MoveList};

use crate::search::gives_check::CheckInfo;
use crate::search::history::Scores;
use crate::search::scalar::score_table::INFINITE;

/// What the node waits for: the child it is searching.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Pending {
    #[default]
    None,
    /// The null-move search, with a zero window at β.
    Null,
    /// `m` (which gives check or not), searched to `depth` (`reduction`
    /// below the full depth), with a zero window or the full one.
    Move { m: Move, gives_check: bool, depth: i32, reduction: i32, zero_window: bool },
}

/// A node of the main search on the explicit stack. A new slot starts as
/// the default node, which [`NodeStack::push`] overwrites field by field.
#[derive(Default)]
pub(super) struct Node {
    pub(super) pos: Chess,
    pub(super) hash: u64,
    pub(super) ply: u32,
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) alpha_orig: i32,
    pub(super) pv_node: bool,
    pub(super) in_check: bool,
    /// Static evaluation, side to move's view; `-INFINITE` in check.
    pub(super) eval: i32,
    /// Whether `eval` is above the static evaluation two plies up (the same
    /// side to move); `false` in check, where that node was in check, and
    /// where there is none (the root and its children).
    pub(super) improving: bool,
    pub(super) moves: MoveList,
    /// The moves' ordering scores ([`History::scores`](crate::search::History::scores)),
    /// picked with them.
    pub(super) scores: Scores,
    pub(super) next: usize,
    pub(super) searched: usize,
    pub(super) quiets: MoveList,
    pub(super) best: i32,
    pub(super) best_move: Option<Move>,
    pub(super) pv: Vec<Move>,
    pub(super) pending: Pending,
    /// The move that led here (for countermoves).
    pub(super) previous: Option<Move>,
    /// Index in the history below which repetitions are not looked for
    /// (the position after a null move).
    pub(super) floor: usize,
    /// Which moves give check, computed when the first move is considered.
    pub(super) check_info: Option<CheckInfo>,
}

/// The nodes from the root to the one being searched.
///
/// A node holds two move lists and their scores (about 5 KiB), so pushing a
/// fresh one copied that much several times per node, a twentieth of the
/// search's time. The stack keeps its nodes instead and overwrites the one
/// it pushes onto: only the moves are copied in.
pub(super) struct NodeStack {
    nodes: Vec<Node>,
    live: usize,
}

impl NodeStack {
    /// An empty stack.
    pub(super) fn new() -> NodeStack {
        NodeStack { nodes: Vec::new(), live: 0 }
    }

    /// Empties the stack (its memory is kept).
    pub(super) fn clear(&mut self) {
        self.live = 0;
    }

    /// Whether no node is being searched.
    pub(super) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The node being searched.
    pub(super) fn top_mut(&mut self) -> Option<&mut Node> {
        self.nodes[..self.live].last_mut()
    }

    /// The node `up` plies above the top one (`0`: the top node itself).
    pub(super) fn ancestor(&self, up: usize) -> Option<&Node> {
        self.nodes[..self.live].iter().rev().nth(up)
    }

    /// Takes the top node off; it stays readable until the next push.
    pub(super) fn pop(&mut self) -> Option<&mut Node> {
        self.live = self.live.checked_sub(1)?;
        self.nodes.get_mut(self.live)
    }

    /// A node about to search `moves` (in the order their scores, which
    /// the caller fills, give) with the window `(alpha, beta)`, entered from
    /// nowhere (the root) until the caller says otherwise.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push(
        &mut self,
        pos: Chess,
        hash: u64,
        ply: u32,
        depth: i32,
        window: (i32, i32),
        in_check: bool,
        eval: i32,
        moves: &MoveList,
    ) -> &mut Node {
        let (alpha, beta) = window;
        if self.live == self.nodes.len() {
            self.nodes.push(Node::default());
        }
        let node = &mut self.nodes[self.live];
        self.live += 1;
        node.pos = pos;
        node.hash = hash;
        node.ply = ply;
        node.depth = depth;
        node.alpha = alpha;
        node.beta = beta;
        node.alpha_orig = alpha;
        node.pv_node = beta - alpha > 1;
        node.in_check = in_check;
        node.eval = eval;
        node.improving = false;
        node.check_info = None;
        // Only the moves, not the list's whole capacity (2 KiB).
        node.moves.clear();
        let _ = node.moves.try_extend_from_slice(moves);
        node.scores.clear();
        node.next = 0;
        node.searched = 0;
        node.quiets.clear();
        node.best = -INFINITE;
        node.best_move = None;
        node.pv.clear();
        node.pending = Pending::None;
        node.previous = None;
        node.floor = 0;
        node
    }
}
