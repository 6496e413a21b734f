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
//! [`POLL_NODES`](crate::search::POLL_NODES) nodes.

use alloc::vec::Vec;
use core::cmp::Ordering;

use shakmaty::{Chess, Color, Move, MoveList, Position};

use crate::search::comparison::comparator::Comparator;
use crate::search::comparison::tt::TranspositionTable;
use crate::search::comparison::value::{Value, compare};
use crate::search::interface::Search;
use crate::search::ordering::{MoveOrdering, is_tactical};
use crate::search::progress::{Progress, PvLine};
use crate::search::score::Score;
use crate::search::step_loop::Sliced;
use crate::search::types::{MAX_PLY, child_hash};

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

pub(super) struct Frame<L> {
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
    pub(super) comparator: C,
    pub(super) tt: TranspositionTable,
    pub(super) ordering: MoveOrdering,
    pub(super) frames: Vec<Frame<C::Leaf>>,
    pub(super) progress: Progress<Line<C::Leaf>>,
}

impl<C: Comparator> ComparisonSearch<C> {
    /// A search that judges positions with `comparator` and keeps a
    /// transposition table of at most `tt_bytes`.
    pub fn new(comparator: C, tt_bytes: usize) -> ComparisonSearch<C> {
        ComparisonSearch {
            comparator,
            tt: TranspositionTable::with_bytes(tt_bytes),
            ordering: MoveOrdering::new(),
            frames: Vec::new(),
            progress: Progress::new(),
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

    /// The depth of the iteration under way.
    pub fn iteration(&self) -> u32 {
        self.progress.depth
    }

    /// The line that completed last.
    pub fn last_line(&self) -> Option<&Line<C::Leaf>> {
        self.progress.last_line()
    }

    /// The best lines known: the current iteration's where it has them, else
    /// the last completed iteration's.
    pub fn lines(&self) -> impl Iterator<Item = &Line<C::Leaf>> {
        self.progress.lines()
    }

    /// The score UCI reports for `value`, from the side to move at the root.
    pub fn score(&mut self, value: &Value<C::Leaf>) -> Score {
        let us = self.progress.root.turn();
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
        self.progress.nodes += 1;
        self.progress.seldepth = self.progress.seldepth.max(ply);
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

    fn root_done(&mut self, value: Value<C::Leaf>, pv: Vec<Move>) {
        if let Some(&best) = pv.first() {
            self.tt.store(self.progress.root_hash, best);
        }
        self.progress.pv_index += 1;
        self.progress.current.push(Line {
            depth: self.progress.depth,
            seldepth: self.progress.seldepth,
            multipv: self.progress.pv_index,
            value,
            pv,
        });
    }

    /// Whether `pos`, the last position of the path, already occurred with
    /// the same side to move since the last capture or pawn move.
    fn is_repetition(&self, pos: &Chess) -> bool {
        let last = self.progress.path.len() - 1;
        let hash = self.progress.path[last];
        let window = (pos.halfmoves() as usize).min(last);
        (4..=window).step_by(2).any(|back| self.progress.path[last - back] == hash)
    }
}

impl<L> PvLine for Line<L> {
    fn first_move(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

impl<C: Comparator> Sliced for ComparisonSearch<C> {
    type Line = Line<C::Leaf>;

    fn progress(&mut self) -> &mut Progress<Line<C::Leaf>> {
        &mut self.progress
    }

    fn at_root(&self) -> bool {
        self.frames.is_empty()
    }

    fn stop(&mut self) {
        Search::stop(self)
    }

    /// Pushes the root frame of the next (depth, MultiPV index); `false` when
    /// every iteration is done.
    fn begin_root(&mut self) -> bool {
        loop {
            if self.progress.past_last_depth() {
                return false;
            }
            let Some(mut moves) = self.progress.next_line_moves() else {
                if self.progress.current.is_empty() {
                    return false;
                }
                self.progress.next_iteration();
                continue;
            };
            // The last iteration's line for this slot goes first.
            let hint = self.progress.line_hint();
            self.ordering.sort(
                &mut moves,
                hint.or(self.tt.probe(self.progress.root_hash)),
                self.progress.root.turn(),
                0,
            );
            if self.progress.pv_index == 0 {
                self.progress.seldepth = 0;
            }
            self.comparator.set_root(&self.progress.root, self.progress.root_hash);
            self.progress.path.truncate(self.progress.game_len + 1);
            self.frames.push(Frame {
                pos: self.progress.root.clone(),
                hash: self.progress.root_hash,
                entered_by: None,
                ply: 0,
                depth: self.progress.depth as i32,
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
            self.progress.path.push(hash);
            if let Some(value) = self.enter(child, hash, m, depth, ply, alpha, beta) {
                self.comparator.pop();
                self.progress.path.pop();
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
                self.progress.path.pop();
                self.backup(value, m, &frame.pv);
                false
            }
        }
    }
}
