//! DeepChess's comparison alpha-beta (paper §4), with iterative deepening,
//! quiescence and MultiPV, run as resumable slices.
//!
//! α and β are *positions*: the best that White (α) and Black (β) can force
//! so far. A leaf is compared with them through the network; a position
//! better for the side to move than the bound it must stay under prunes the
//! node. White maximises and Black minimises in the comparator's order, so
//! the network's White-relative comparison is reversed for Black.
//!
//! Quiescence resolves exchanges without judging material: at the horizon
//! every capture and promotion is tried, and after that only recaptures on
//! the square of the previous capture, until the side to move stands pat on
//! a position the network prefers, or no recapture is left.
//!
//! The recursion is kept on an explicit stack of frames. That lets
//! [`ComparisonSearch::step`] stop after any node budget and continue exactly where it
//! stopped, so a single-threaded browser worker can read `stop` between
//! slices, and it lets the caller poll its own `should_stop` every
//! [`POLL_NODES`] nodes.

use alloc::vec::Vec;
use core::cmp::Ordering;

use shakmaty::{Chess, Color, Move, MoveList, Position};

use crate::search::comparison::comparator::Comparator;
use crate::search::comparison::tt::TranspositionTable;
use crate::search::comparison::value::{Value, compare};
use crate::search::ordering::{MoveOrdering, is_tactical};
use crate::search::score::Score;
use crate::search::slices::{self, Sliced};
use crate::search::vocabulary::{Event, Limits, MAX_DEPTH, MAX_PLY, POLL_NODES, child_hash, zobrist};

/// Quiescence searches at most this many plies past the nominal depth.
pub const QUIESCENCE_PLIES: i32 = 12;

/// A completed principal variation.
#[derive(Clone, Debug)]
pub struct Line<L> {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached during the iteration, quiescence included.
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second best, …
    pub multipv: usize,
    /// What the line is worth, from White's point of view.
    pub value: Value<L>,
    /// The moves, from the root.
    pub pv: Vec<Move>,
}

struct Frame<L> {
    pos: Chess,
    hash: u64,
    /// The move that led here from the parent frame.
    entered_by: Option<Move>,
    ply: u32,
    depth: i32,
    alpha: Value<L>,
    beta: Value<L>,
    best: Option<Value<L>>,
    pv: Vec<Move>,
    moves: MoveList,
    next: usize,
    quiescence: bool,
}

/// A comparison search over a [`Comparator`].
pub struct ComparisonSearch<C: Comparator> {
    comparator: C,
    tt: TranspositionTable,
    ordering: MoveOrdering,
    root: Chess,
    root_hash: u64,
    root_moves: MoveList,
    /// Zobrist hashes of the game before the root, then of the search path.
    history: Vec<u64>,
    game_len: usize,
    limits: Limits,
    frames: Vec<Frame<C::Leaf>>,
    nodes: u64,
    next_poll: u64,
    seldepth: u32,
    depth: u32,
    pv_index: usize,
    /// Lines of the last completed iteration.
    lines: Vec<Line<C::Leaf>>,
    /// Lines of the current iteration.
    current: Vec<Line<C::Leaf>>,
    running: bool,
}

impl<C: Comparator> ComparisonSearch<C> {
    /// A search that judges positions with `comparator` and keeps a
    /// transposition table of at most `tt_bytes`.
    pub fn new(comparator: C, tt_bytes: usize) -> ComparisonSearch<C> {
        ComparisonSearch {
            comparator,
            tt: TranspositionTable::with_bytes(tt_bytes),
            ordering: MoveOrdering::new(),
            root: Chess::default(),
            root_hash: 0,
            root_moves: MoveList::new(),
            history: Vec::new(),
            game_len: 0,
            limits: Limits::default(),
            frames: Vec::new(),
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

    /// The comparator.
    pub fn comparator(&self) -> &C {
        &self.comparator
    }

    /// The comparator, mutable (for example to resize its cache).
    pub fn comparator_mut(&mut self) -> &mut C {
        &mut self.comparator
    }

    /// Resizes the transposition table (emptying it).
    pub fn resize_tt(&mut self, bytes: usize) {
        self.tt = TranspositionTable::with_bytes(bytes);
    }

    /// Permille of the transposition table in use.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Forgets everything learnt in earlier searches (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
        self.comparator.clear();
    }

    /// Starts searching `root`. `game` holds the Zobrist hashes of the
    /// positions before it in the game, oldest first, for repetitions.
    pub fn start(&mut self, root: Chess, game: &[u64], limits: Limits) {
        self.root_hash = zobrist(&root);
        self.root_moves = root.legal_moves();
        self.root = root;
        self.history.clear();
        self.history.extend_from_slice(game);
        self.history.push(self.root_hash);
        self.game_len = game.len();
        self.limits = Limits { multipv: limits.multipv.max(1), ..limits };
        self.frames.clear();
        self.nodes = 0;
        self.next_poll = POLL_NODES;
        self.seldepth = 0;
        self.depth = 1;
        self.pv_index = 0;
        self.lines.clear();
        self.current.clear();
        self.running = !self.root_moves.is_empty();
    }

    /// Whether a search is under way.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Ends the search now; [`best_move`](Self::best_move) stays available.
    pub fn stop(&mut self) {
        self.frames.clear();
        self.history.truncate(self.game_len + 1);
        self.running = false;
    }

    /// Nodes searched since [`start`](Self::start).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The depth of the iteration under way.
    pub fn iteration(&self) -> u32 {
        self.depth
    }

    /// The line that completed last.
    pub fn last_line(&self) -> Option<&Line<C::Leaf>> {
        self.current.last().or(self.lines.last())
    }

    /// The best lines known: the current iteration's where it has them, else
    /// the last completed iteration's.
    pub fn lines(&self) -> impl Iterator<Item = &Line<C::Leaf>> {
        let fresh = self.current.len();
        self.current.iter().chain(self.lines.iter().skip(fresh))
    }

    /// The move to play: the first move of the best line, or (if no
    /// iteration completed) the first legal move in search order.
    pub fn best_move(&self) -> Option<Move> {
        self.lines().next().and_then(|line| line.pv.first().copied()).or_else(|| self.root_moves.first().copied())
    }

    /// The score UCI reports for `value`, from the side to move at the root.
    pub fn score(&mut self, value: &Value<C::Leaf>) -> Score {
        let us = self.root.turn();
        match value {
            Value::Mate { winner, ply } => {
                let moves = (*ply as i32 + 1) / 2;
                Score::Mate(if *winner == us { moves } else { -moves })
            }
            Value::Position(leaf) => {
                let logit = self.comparator.draw_logit(leaf);
                let cp = Score::cp_from_logit(logit);
                Score::Cp(if us == Color::White { cp } else { -cp })
            }
            Value::Draw | Value::Lowest | Value::Highest => Score::Cp(0),
        }
    }

    /// Runs for about `budget` nodes. `should_stop` gets the node count every
    /// [`POLL_NODES`] nodes; when it answers `true` the search stops.
    pub fn step(&mut self, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
        slices::step(self, budget, should_stop)
    }

    /// One move of the top frame: enter a child, or return the frame's value
    /// to its parent. Returns `true` when a root search completed a line.
    fn advance(&mut self) -> bool {
        let Some(frame) = self.frames.last_mut() else { return false };
        if frame.next < frame.moves.len() {
            let m = frame.moves[frame.next];
            frame.next += 1;
            let mut child = frame.pos.clone();
            child.play_unchecked(m);
            let hash = child_hash(&frame.pos, frame.hash, m, &child);
            let (depth, ply) = (frame.depth - 1, frame.ply + 1);
            let (alpha, beta) = (frame.alpha.clone(), frame.beta.clone());
            self.comparator.push(&frame.pos, m, &child, hash);
            self.history.push(hash);
            if let Some(value) = self.enter(child, hash, m, depth, ply, alpha, beta) {
                self.comparator.pop();
                self.history.pop();
                self.backup(value, m, &[]);
            }
            return false;
        }
        let Some(frame) = self.frames.pop() else { return false };
        if !frame.quiescence
            && let Some(&best) = frame.pv.first()
        {
            self.tt.store(frame.hash, best);
        }
        let value = frame.best.unwrap_or(Value::Draw);
        match frame.entered_by {
            None => {
                self.root_done(value, frame.pv);
                true
            }
            Some(m) => {
                self.comparator.pop();
                self.history.pop();
                self.backup(value, m, &frame.pv);
                false
            }
        }
    }

    /// Evaluates a new node: returns its value if the rules or quiescence
    /// settle it at once, otherwise pushes a frame for its moves.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        pos: Chess,
        hash: u64,
        entered_by: Move,
        depth: i32,
        ply: u32,
        mut alpha: Value<C::Leaf>,
        mut beta: Value<C::Leaf>,
    ) -> Option<Value<C::Leaf>> {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.is_repetition(&pos) || pos.is_insufficient_material() {
            return Some(Value::Draw);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(if pos.is_check() { Value::Mate { winner: !pos.turn(), ply } } else { Value::Draw });
        }
        if pos.halfmoves() >= 100 {
            return Some(Value::Draw);
        }
        let in_check = pos.is_check();
        let white = pos.turn() == Color::White;
        if ply as usize >= MAX_PLY - 1 || depth <= -QUIESCENCE_PLIES {
            return Some(Value::Position(self.comparator.leaf(&pos, hash)));
        }
        let (moves, best, quiescence) = if depth <= 0 && !in_check {
            // Quiescence: the side to move may stand pat on the position, or
            // resolve the exchanges on the board: every capture and promotion
            // at the first quiescence ply, then only recaptures on the square
            // of the last capture.
            let stand = Value::Position(self.comparator.leaf(&pos, hash));
            let exchange_square = (depth < 0).then(|| entered_by.to());
            let mut tactical: MoveList = moves
                .into_iter()
                .filter(|&m| match exchange_square {
                    None => is_tactical(m),
                    Some(square) => m.is_capture() && m.to() == square,
                })
                .collect();
            if tactical.is_empty() {
                return Some(stand);
            }
            if white {
                if compare(&mut self.comparator, &stand, &beta) != Ordering::Less {
                    return Some(stand);
                }
                if compare(&mut self.comparator, &stand, &alpha) == Ordering::Greater {
                    alpha = stand.clone();
                }
            } else {
                if compare(&mut self.comparator, &stand, &alpha) != Ordering::Greater {
                    return Some(stand);
                }
                if compare(&mut self.comparator, &stand, &beta) == Ordering::Less {
                    beta = stand.clone();
                }
            }
            self.ordering.sort(&mut tactical, None, pos.turn(), ply as usize);
            (tactical, Some(stand), true)
        } else {
            // A full-width node; in check at the horizon every evasion is tried.
            let mut moves = moves;
            self.ordering.sort(&mut moves, self.tt.probe(hash), pos.turn(), ply as usize);
            (moves, None, depth <= 0)
        };
        self.frames.push(Frame {
            pos,
            hash,
            entered_by: Some(entered_by),
            ply,
            depth,
            alpha,
            beta,
            best,
            pv: Vec::new(),
            moves,
            next: 0,
            quiescence,
        });
        None
    }

    /// A child of the top frame, reached by `m`, is worth `value` (with the
    /// child's principal variation `child_pv`).
    fn backup(&mut self, value: Value<C::Leaf>, m: Move, child_pv: &[Move]) {
        let Some(frame) = self.frames.last_mut() else { return };
        let comparator = &mut self.comparator;
        let white = frame.pos.turn() == Color::White;
        let better = if white { Ordering::Greater } else { Ordering::Less };
        let improves = frame.best.as_ref().is_none_or(|best| compare(comparator, &value, best) == better);
        let bound = if white { &mut frame.alpha } else { &mut frame.beta };
        let bound_moved = compare(comparator, &value, bound) == better;
        if bound_moved {
            *bound = value.clone();
        }
        if improves {
            frame.pv.clear();
            frame.pv.push(m);
            frame.pv.extend_from_slice(child_pv);
            frame.best = Some(value);
        }
        if bound_moved && compare(comparator, &frame.alpha, &frame.beta) != Ordering::Less {
            if !frame.quiescence {
                self.ordering.record_cutoff(frame.pos.turn(), m, frame.ply as usize, frame.depth);
            }
            frame.next = frame.moves.len();
        }
    }

    /// Pushes the root frame of the next (depth, MultiPV index); `false` when
    /// every iteration is done.
    fn begin_root(&mut self) -> bool {
        loop {
            if self.depth > self.limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH) {
                return false;
            }
            let excluded: Vec<Move> = self.current.iter().filter_map(|line| line.pv.first().copied()).collect();
            let mut moves: MoveList = self.root_moves.iter().copied().filter(|m| !excluded.contains(m)).collect();
            if self.pv_index >= self.limits.multipv || moves.is_empty() {
                if self.current.is_empty() {
                    return false;
                }
                self.lines = core::mem::take(&mut self.current);
                self.depth += 1;
                self.pv_index = 0;
                continue;
            }
            // The last iteration's line for this slot goes first.
            let hint = self.lines.get(self.pv_index).and_then(|line| line.pv.first().copied());
            self.ordering.sort(&mut moves, hint.or(self.tt.probe(self.root_hash)), self.root.turn(), 0);
            if self.pv_index == 0 {
                self.seldepth = 0;
            }
            self.comparator.set_root(&self.root, self.root_hash);
            self.history.truncate(self.game_len + 1);
            self.frames.push(Frame {
                pos: self.root.clone(),
                hash: self.root_hash,
                entered_by: None,
                ply: 0,
                depth: self.depth as i32,
                alpha: Value::Lowest,
                beta: Value::Highest,
                best: None,
                pv: Vec::new(),
                moves,
                next: 0,
                quiescence: false,
            });
            return true;
        }
    }

    fn root_done(&mut self, value: Value<C::Leaf>, pv: Vec<Move>) {
        if let Some(&best) = pv.first() {
            self.tt.store(self.root_hash, best);
        }
        self.pv_index += 1;
        self.current.push(Line { depth: self.depth, seldepth: self.seldepth, multipv: self.pv_index, value, pv });
    }

    /// Whether `pos`, the last position of the path, already occurred with
    /// the same side to move since the last capture or pawn move.
    fn is_repetition(&self, pos: &Chess) -> bool {
        let last = self.history.len() - 1;
        let hash = self.history[last];
        let window = (pos.halfmoves() as usize).min(last);
        (4..=window).step_by(2).any(|back| self.history[last - back] == hash)
    }
}

impl<C: Comparator> Sliced for ComparisonSearch<C> {
    fn is_running(&self) -> bool {
        self.running
    }

    fn at_root(&self) -> bool {
        self.frames.is_empty()
    }

    fn begin_root(&mut self) -> bool {
        ComparisonSearch::begin_root(self)
    }

    fn advance(&mut self) -> bool {
        ComparisonSearch::advance(self)
    }

    fn stop(&mut self) {
        ComparisonSearch::stop(self)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn node_limit(&self) -> Option<u64> {
        self.limits.nodes
    }

    fn next_poll(&mut self) -> &mut u64 {
        &mut self.next_poll
    }
}
