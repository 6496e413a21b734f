//! What an iterative-deepening search keeps about its root and its lines,
//! shared by the comparison and the scalar searches: the position and the
//! game before it, the limits, the counters, the lines of the last and the
//! current iteration, and from them the move to play.

use alloc::vec::Vec;

use shakmaty::{Chess, Move, MoveList, Position};

use crate::search::types::{Limits, MAX_DEPTH, POLL_NODES, zobrist};

/// A completed line of a search: its moves from the root.
pub(crate) trait PvLine {
    /// The line's first move.
    fn first_move(&self) -> Option<Move>;
}

/// A search's root, counters and lines.
pub(crate) struct Progress<L> {
    pub(crate) root: Chess,
    pub(crate) root_hash: u64,
    pub(crate) root_moves: MoveList,
    /// Zobrist hashes of the game before the root, then of the search path.
    pub(crate) path: Vec<u64>,
    pub(crate) game_len: usize,
    pub(crate) limits: Limits,
    pub(crate) nodes: u64,
    /// When the caller's `should_stop` is asked next (in nodes).
    pub(crate) next_poll: u64,
    pub(crate) seldepth: u32,
    /// The iteration under way.
    pub(crate) depth: u32,
    /// The MultiPV line under way (0 the best).
    pub(crate) pv_index: usize,
    /// Lines of the last completed iteration.
    pub(crate) lines: Vec<L>,
    /// Lines of the current iteration.
    pub(crate) current: Vec<L>,
    pub(crate) running: bool,
}

impl<L: PvLine> Progress<L> {
    /// No search yet.
    pub(crate) fn new() -> Progress<L> {
        Progress {
            root: Chess::default(),
            root_hash: 0,
            root_moves: MoveList::new(),
            path: Vec::new(),
            game_len: 0,
            limits: Limits::default(),
            nodes: 0,
            next_poll: 0,
            seldepth: 0,
            depth: 1,
            pv_index: 0,
            lines: Vec::new(),
            current: Vec::new(),
            running: false,
        }
    }

    /// A new search of `root` after the positions `game` (Zobrist hashes,
    /// oldest first), from depth 1; it runs unless `root` has no legal move.
    pub(crate) fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        self.root_hash = zobrist(&root);
        self.root_moves = root.legal_moves();
        self.root = root;
        self.path.clear();
        self.path.extend_from_slice(game);
        self.path.push(self.root_hash);
        self.game_len = game.len();
        self.limits = Limits { multipv: limits.multipv.max(1), ..limits };
        self.nodes = 0;
        self.next_poll = POLL_NODES;
        self.seldepth = 0;
        self.depth = 1;
        self.pv_index = 0;
        self.lines.clear();
        self.current.clear();
        self.running = !self.root_moves.is_empty();
    }

    /// Ends the search: the path goes back to the root.
    pub(crate) fn stop(&mut self) {
        self.path.truncate(self.game_len + 1);
        self.running = false;
    }

    /// Whether the iteration under way is deeper than the limit: the search is done.
    pub(crate) fn past_last_depth(&self) -> bool {
        self.depth > self.limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH)
    }

    /// The root moves of the iteration's next MultiPV line: those that no
    /// line of the iteration starts with. `None` once the iteration has all
    /// its lines (or no root move is left for another).
    pub(crate) fn next_line_moves(&self) -> Option<MoveList> {
        let excluded: Vec<Move> = self.current.iter().filter_map(PvLine::first_move).collect();
        let moves: MoveList = self.root_moves.iter().copied().filter(|m| !excluded.contains(m)).collect();
        (self.pv_index < self.limits.multipv && !moves.is_empty()).then_some(moves)
    }

    /// The first move of the last iteration's line in the slot under way,
    /// to search first.
    pub(crate) fn line_hint(&self) -> Option<Move> {
        self.lines.get(self.pv_index).and_then(PvLine::first_move)
    }

    /// The iteration's lines become the last completed ones; the next,
    /// one ply deeper, starts at its first line.
    pub(crate) fn next_iteration(&mut self) {
        self.lines = core::mem::take(&mut self.current);
        self.depth += 1;
        self.pv_index = 0;
    }

    /// The line that completed last.
    pub(crate) fn last_line(&self) -> Option<&L> {
        self.current.last().or(self.lines.last())
    }

    /// The best lines known: the current iteration's where it has them, else
    /// the last completed iteration's.
    pub(crate) fn lines(&self) -> impl Iterator<Item = &L> {
        let fresh = self.current.len();
        self.current.iter().chain(self.lines.iter().skip(fresh))
    }

    /// The move to play: the first move of the best line, or (if no
    /// iteration completed) the first legal move in search order.
    pub(crate) fn best_move(&self) -> Option<Move> {
        self.lines().next().and_then(PvLine::first_move).or_else(|| self.root_moves.first().copied())
    }
}
