//! A principal-variation search over a scalar evaluation, beside the
//! comparison search and run the same way: as resumable slices.
//!
//! Negamax with iterative deepening and aspiration windows; a transposition
//! table of score bounds ([`ScoreTable`], shareable for Lazy SMP); null-move
//! pruning with a zugzwang guard, late-move reductions, reverse-futility,
//! futility and late-move pruning (reverse futility sooner where the static
//! evaluation improves on the one two plies up, late-move pruning and
//! reductions more eager where it does not), internal iterative reductions
//! where the table has no move, SEE pruning and check extensions;
//! quiescence with stand-pat over captures and queen promotions, losing
//! captures pruned by SEE; move ordering by the hash move, SEE-ordered
//! captures, killers, countermoves and history. The rules
//! decide terminal positions: mate, stalemate, repetition (with the game's
//! history), the fifty-move rule and insufficient material.
//!
//! The main search keeps its recursion on an explicit stack of nodes
//! (`NodeStack`), so
//! [`ScalarSearch::step`] can stop after any node budget and continue exactly
//! where it stopped. Quiescence, which visits a handful of captures, recurses
//! natively inside one step.

use alloc::sync::Arc;
use alloc::vec::Vec;

use shakmaty::{Chess, Move, Position};

use crate::search::history::{History, has_non_pawn_material, pick};
use crate::search::interface::Search;
use crate::search::movegen::has_legal_move;
use crate::search::ordering::is_tactical;
use crate::search::progress::{Progress, PvLine};
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::node::{NodeStack, Pending};
use crate::search::scalar::pruning::{late_move_limit, late_move_reduction};
use crate::search::scalar::score_table::INFINITE;
use crate::search::scalar::score_table::{Bound, MATE, MATE_BOUND, ScoreTable, score_for_uci};
use crate::search::score::Score;
use crate::search::see::see_ge;
use crate::search::step_loop::Sliced;
use crate::search::types::{MAX_PLY, child_hash, null_move_hash, zobrist};

mod step_loop;

/// The first aspiration window's half-width, in centipawns.
pub(super) const ASPIRATION: i32 = 25;

/// A completed principal variation of the scalar search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalarLine {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached during the iteration, quiescence included.
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second best, …
    pub multipv: usize,
    /// The line's score from the side to move at the root: centipawns, or a
    /// mate distance.
    pub score: Score,
    /// The score as the search keeps it (mates are `±(MATE - ply)`).
    pub raw: i32,
    /// The moves, from the root.
    pub pv: Vec<Move>,
}

impl PvLine for ScalarLine {
    fn first_move(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

/// A scalar principal-variation search over an [`Evaluator`].
pub struct ScalarSearch<E: Evaluator> {
    pub(super) evaluator: E,
    pub(super) table: Arc<ScoreTable>,
    pub(super) history: History,
    stack: NodeStack,
    pub(super) window: (i32, i32),
    pub(super) delta: i32,
    pub(super) progress: Progress<ScalarLine>,
    pub(super) fifty_scale: bool,
}

impl<E: Evaluator> ScalarSearch<E> {
    /// A search that evaluates with `evaluator` and keeps a transposition
    /// table of at most `tt_bytes`.
    pub fn new(evaluator: E, tt_bytes: usize) -> ScalarSearch<E> {
        ScalarSearch::with_table(evaluator, Arc::new(ScoreTable::with_bytes(tt_bytes)))
    }

    /// A search that shares `table` with other searches (Lazy SMP: helper
    /// threads search the same root and fill the same table).
    pub fn with_table(evaluator: E, table: Arc<ScoreTable>) -> ScalarSearch<E> {
        ScalarSearch {
            evaluator,
            table,
            history: History::new(),
            stack: NodeStack::new(),
            window: (-INFINITE, INFINITE),
            delta: ASPIRATION,
            progress: Progress::new(),
            fifty_scale: false,
        }
    }

    /// With `on`, every static evaluation is scaled by `(200 − h) / 200`,
    /// `h` the position's halfmove clock (at most 100): a winning score
    /// fades as the fifty-move draw nears, so that the search prefers the
    /// lines that make progress (a capture or a pawn move resets the clock)
    /// to shuffling in a won position. Off by default (the UCI option
    /// `FiftyMoveScale`); a term from the rules, not from chess knowledge.
    pub fn with_fifty_scale(mut self, on: bool) -> ScalarSearch<E> {
        self.fifty_scale = on;
        self
    }

    /// Whether [`with_fifty_scale`](Self::with_fifty_scale) is on.
    pub fn fifty_scale(&self) -> bool {
        self.fifty_scale
    }

    /// Empties the explicit stack (a new search, or the end of one).
    pub(super) fn clear_stack(&mut self) {
        self.stack.clear();
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The evaluator, mutable (for example to resize its cache).
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// The transposition table, to share with helper searches.
    pub fn table(&self) -> &Arc<ScoreTable> {
        &self.table
    }

    /// Replaces the transposition table (with a new, empty one of at most
    /// `bytes`).
    pub fn resize_tt(&mut self, bytes: usize) {
        self.table = Arc::new(ScoreTable::with_bytes(bytes));
    }

    /// The depth of the iteration under way.
    pub fn iteration(&self) -> u32 {
        self.progress.depth
    }

    /// The line that completed last.
    pub fn last_line(&self) -> Option<&ScalarLine> {
        self.progress.last_line()
    }

    /// The best lines known: the current iteration's where it has them, else
    /// the last completed iteration's.
    pub fn lines(&self) -> impl Iterator<Item = &ScalarLine> {
        self.progress.lines()
    }

    /// The window of the next root search: ±[`ASPIRATION`] around the last
    /// iteration's score for this line from depth 4 on, else infinite.
    fn aspiration_window(&self) -> (i32, i32) {
        match self.progress.lines.get(self.progress.pv_index) {
            Some(line) if self.progress.depth >= 4 && line.raw.abs() < MATE_BOUND => {
                (line.raw - ASPIRATION, line.raw + ASPIRATION)
            }
            _ => (-INFINITE, INFINITE),
        }
    }

    /// The root node finished with `best` and `pv`. Inside the window the
    /// line is recorded (`true`); outside it the window widens and the root
    /// is searched again.
    fn root_done(&mut self, best: i32, pv: Vec<Move>) -> bool {
        let (alpha, beta) = self.window;
        if best <= alpha && alpha > -INFINITE {
            self.window = ((best - self.delta).max(-INFINITE), beta);
            self.delta *= 2;
            return false;
        }
        if best >= beta && beta < INFINITE {
            self.window = (alpha, (best + self.delta).min(INFINITE));
            self.delta *= 2;
            return false;
        }
        self.progress.pv_index += 1;
        let line = ScalarLine {
            depth: self.progress.depth,
            seldepth: self.progress.seldepth,
            multipv: self.progress.pv_index,
            score: score_for_uci(best),
            raw: best,
            pv,
        };
        self.progress.current.push(line);
        self.window = self.aspiration_window();
        self.delta = ASPIRATION;
        true
    }

    /// Plays `m` (reaching `child`, in check if `gives_check`) from the top
    /// node and searches it: the child's score comes back through
    /// [`resume`](Self::resume), at once or when its node finishes.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        m: Move,
        child: Chess,
        gives_check: bool,
        depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        zero: bool,
    ) {
        let Some(node) = self.stack.top_mut() else { return };
        node.pending = Pending::Move { m, gives_check, depth, reduction, zero_window: zero };
        let hash = child_hash(&node.pos, node.hash, m, &child);
        self.table.prefetch(hash);
        self.evaluator.prefetch(hash);
        let (ply, floor) = (node.ply + 1, node.floor);
        self.evaluator.push(&node.pos, m, &child);
        self.progress.path.push(hash);
        if let Some(score) = self.enter(child, gives_check, hash, Some(m), depth, ply, alpha, beta, floor) {
            self.evaluator.pop();
            self.progress.path.pop();
            self.resume(score, &[]);
        }
    }

    /// The top node's pending child is worth `child_score` (from the
    /// child's side), with principal variation `child_pv`.
    fn resume(&mut self, child_score: i32, child_pv: &[Move]) {
        let Some(node) = self.stack.top_mut() else { return };
        let score = -child_score;
        match core::mem::replace(&mut node.pending, Pending::None) {
            Pending::None => {}
            Pending::Null => {
                if score >= node.beta {
                    // Mate scores found after a pass are not proven.
                    node.best = if score >= MATE_BOUND { node.beta } else { score };
                    node.best_move = None;
                    node.next = node.moves.len();
                }
            }
            Pending::Move { m, gives_check, depth, reduction, zero_window } => {
                if reduction > 0 && score > node.alpha {
                    let mut child = node.pos.clone();
                    child.play_unchecked(m);
                    let alpha = node.alpha;
                    self.descend(m, child, gives_check, depth + reduction, 0, -alpha - 1, -alpha, true);
                    return;
                }
                if zero_window && node.pv_node && score > node.alpha && score < node.beta {
                    let mut child = node.pos.clone();
                    child.play_unchecked(m);
                    let (alpha, beta) = (node.alpha, node.beta);
                    self.descend(m, child, gives_check, depth, 0, -beta, -alpha, false);
                    return;
                }
                node.searched += 1;
                if score > node.best {
                    node.best = score;
                    if score > node.alpha {
                        node.alpha = score;
                        node.best_move = Some(m);
                        node.pv.clear();
                        node.pv.push(m);
                        node.pv.extend_from_slice(child_pv);
                        if score >= node.beta {
                            if !is_tactical(m) {
                                let turn = node.pos.turn();
                                let (ply, depth, previous) = (node.ply as usize, node.depth, node.previous);
                                self.history.record_cutoff(turn, m, &node.quiets, ply, depth, previous);
                            }
                            node.next = node.moves.len();
                        }
                    }
                }
            }
        }
    }

    /// Pops the finished top node, stores it in the table and returns its
    /// score to its parent; `true` when the root completed a line.
    fn finish_node(&mut self) -> bool {
        let Some(node) = self.stack.pop() else { return false };
        let bound = if node.best >= node.beta {
            Bound::Lower
        } else if node.best > node.alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A MultiPV line past the first searched only part of the root's moves.
        if node.ply > 0 || self.progress.pv_index == 0 {
            self.table.store(node.hash, node.ply, node.depth, node.best, node.eval, bound, node.best_move);
        }
        let (ply, best, pv) = (node.ply, node.best, core::mem::take(&mut node.pv));
        if ply == 0 {
            return self.root_done(best, pv);
        }
        self.evaluator.pop();
        self.progress.path.pop();
        self.resume(best, &pv);
        false
    }

    /// Evaluates a new node (`in_check` says whether its side to move is):
    /// returns its score if the rules, the table, pruning or quiescence
    /// settle it at once, otherwise pushes it.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        pos: Chess,
        in_check: bool,
        hash: u64,
        previous: Option<Move>,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        floor: usize,
    ) -> Option<i32> {
        self.progress.nodes += 1;
        self.progress.seldepth = self.progress.seldepth.max(ply);
        if self.is_repetition(&pos, floor) || pos.is_insufficient_material() {
            return Some(0);
        }
        // Mate-distance pruning: no score here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Some(alpha);
        }
        // In check the evasions are generated now; otherwise a quick test
        // says whether the node is stalemate, and its moves wait until the
        // table, pruning and quiescence have had their say.
        let evasions = in_check.then(|| pos.legal_moves());
        if !evasions.as_ref().map_or_else(|| has_legal_move(&pos, false), |moves| !moves.is_empty()) {
            return Some(if in_check { -MATE + ply as i32 } else { 0 });
        }
        if pos.halfmoves() >= 100 {
            return Some(0);
        }
        if ply as usize >= MAX_PLY - 2 {
            return Some(if in_check { 0 } else { self.static_eval(&pos, hash) });
        }
        // Check extension: a side in check searches every evasion one ply deeper.
        let depth = if in_check { depth.max(0) + 1 } else { depth };
        if depth <= 0 {
            // Not in check here (a check extends to depth 1), with a move.
            return Some(self.quiescence(&pos, hash, ply, alpha, beta, true));
        }
        let pv_node = beta - alpha > 1;
        let hit = self.table.probe(hash, ply);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth
        {
            let cutoff = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if cutoff {
                return Some(hit.score);
            }
        }
        let eval = match (in_check, hit) {
            (true, _) => -INFINITE,
            (false, Some(hit)) if hit.eval.abs() < MATE_BOUND => hit.eval,
            (false, _) => self.static_eval(&pos, hash),
        };
        // Improving: the static evaluation is above the one two plies up,
        // where the same side was to move.
        let improving = !in_check && self.stack.ancestor(1).is_some_and(|up| up.eval != -INFINITE && eval > up.eval);
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far enough above β that a move cannot drop it.
            if depth <= 7 && eval - 90 * (depth - i32::from(improving)) >= beta {
                return Some(eval);
            }
        }
        let try_null = !pv_node
            && !in_check
            && previous.is_some()
            && depth >= 3
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && has_non_pawn_material(&pos);
        let moves = evasions.unwrap_or_else(|| pos.legal_moves());
        let hash_move = hit.and_then(|hit| hit.best_move(&moves));
        // Internal iterative reduction: with no move from the table to try
        // first, the node's ordering is a guess, so it searches a ply less.
        let searched_depth = if depth >= 4 && hash_move.is_none() { depth - 1 } else { depth };
        let node = self.stack.push(pos, hash, ply, searched_depth, (alpha, beta), in_check, eval, &moves);
        (node.previous, node.floor, node.improving) = (previous, floor, improving);
        self.history.scores(&node.pos, &node.moves, hash_move, ply as usize, previous, &mut node.scores);
        if try_null {
            self.null_move(depth, eval, beta);
        }
        None
    }

    /// Searches the top node's null move: the side to move passes, and the
    /// opponent searches to a reduced depth with a zero window at β.
    fn null_move(&mut self, depth: i32, eval: i32, beta: i32) {
        let Some(node) = self.stack.top_mut() else { return };
        let Ok(child) = node.pos.clone().swap_turn() else { return };
        let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
        node.pending = Pending::Null;
        let hash = null_move_hash(&node.pos, node.hash);
        debug_assert_eq!(hash, zobrist(&child));
        let ply = node.ply + 1;
        self.evaluator.push_null(&node.pos);
        self.progress.path.push(hash);
        // Repetitions are not looked for across the pass.
        let floor = self.progress.path.len() - 1;
        let in_check = child.is_check();
        if let Some(score) =
            self.enter(child, in_check, hash, None, depth - 1 - reduction, ply, -beta, -beta + 1, floor)
        {
            self.evaluator.pop();
            self.progress.path.pop();
            self.resume(score, &[]);
        }
    }
}
