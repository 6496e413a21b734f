//! A node of the scalar search's main search, on its explicit stack.

use alloc::vec::Vec;

use shakmaty::{Chess, Move, MoveList};

use crate::search::scalar::score_table::INFINITE;

/// What the node waits for: the child it is searching.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pending {
    None,
    /// The null-move search, with a zero window at β.
    Null,
    /// `m`, searched to `depth` (`reduction` below the full depth), with a
    /// zero window or the full one.
    Move {
        m: Move,
        depth: i32,
        reduction: i32,
        zero_window: bool,
    },
}

/// A node of the main search on the explicit stack.
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
    pub(super) moves: MoveList,
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
}

impl Node {
    /// A node about to search its moves (none yet: the caller sets them),
    /// with the window `(alpha, beta)`, entered from nowhere (the root).
    pub(super) fn new(
        pos: Chess,
        hash: u64,
        ply: u32,
        depth: i32,
        window: (i32, i32),
        in_check: bool,
        eval: i32,
    ) -> Node {
        let (alpha, beta) = window;
        Node {
            pos,
            hash,
            ply,
            depth,
            alpha,
            beta,
            alpha_orig: alpha,
            pv_node: beta - alpha > 1,
            in_check,
            eval,
            moves: MoveList::new(),
            next: 0,
            searched: 0,
            quiets: MoveList::new(),
            best: -INFINITE,
            best_move: None,
            pv: Vec::new(),
            pending: Pending::None,
            previous: None,
            floor: 0,
        }
    }
}
