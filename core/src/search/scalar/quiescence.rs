//! The scalar search's quiescence, static evaluation and repetition test:
//! what a node at the horizon asks.

use shakmaty::{Chess, Color, Position, Role};

use crate::search::history::{Scores, pick};
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::score_table::{INFINITE, MATE};
use crate::search::scalar::search::ScalarSearch;
use crate::search::see::{see_ge, see_value};
use crate::search::vocabulary::{MAX_PLY, child_hash};

impl<E: Evaluator> ScalarSearch<E> {
    /// Quiescence: the side to move stands pat on the static evaluation or
    /// plays a capture or queen promotion that does not lose material; in
    /// check, every evasion.
    pub(super) fn quiescence(&mut self, pos: &Chess, hash: u64, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.progress.nodes += 1;
        self.progress.seldepth = self.progress.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply as usize >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(pos, hash) };
        }
        let (mut moves, stand) = if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            (moves, None)
        } else {
            let stand = self.static_eval(pos, hash);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            let mut moves = pos.capture_moves();
            moves.extend(
                pos.promotion_moves().into_iter().filter(|m| !m.is_capture() && m.promotion() == Some(Role::Queen)),
            );
            moves.retain(|m| m.promotion().is_none_or(|role| role == Role::Queen));
            (moves, Some(stand))
        };
        let mut scores = Scores::new();
        self.history.scores(pos, &moves, None, ply as usize, None, &mut scores);
        let mut best = stand.unwrap_or(-INFINITE);
        for next in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, next);
            if let Some(stand) = stand {
                // Delta pruning: even winning the piece outright stays below α.
                let gain = m.capture().map_or(0, see_value) + m.promotion().map_or(0, |r| see_value(r) - 100);
                if stand + gain + 200 <= alpha || !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.evaluator.push(pos, m, &child);
            let score = -self.quiescence(&child, child_hash(pos, hash, m, &child), ply + 1, -beta, -alpha);
            self.evaluator.pop();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The evaluator's score of `pos` (the end of the path) from the side to
    /// move's point of view.
    pub(super) fn static_eval(&mut self, pos: &Chess, hash: u64) -> i32 {
        let cp = self.evaluator.evaluate(pos, hash);
        if pos.turn() == Color::White { cp } else { -cp }
    }

    /// Whether `pos`, the last position of the path, already occurred with
    /// the same side to move since the last capture or pawn move (and since
    /// `floor`, the last null move).
    pub(super) fn is_repetition(&self, pos: &Chess, floor: usize) -> bool {
        let last = self.progress.path.len() - 1;
        let hash = self.progress.path[last];
        let window = (pos.halfmoves() as usize).min(last.saturating_sub(floor));
        (4..=window).step_by(2).any(|back| self.progress.path[last - back] == hash)
    }
}
