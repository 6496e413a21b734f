//! The scalar search's quiescence, static evaluation and repetition test:
//! what a node at the horizon asks.

use shakmaty::{Chess, Color, Position};

use crate::search::history::{Scores, is_good_capture, pick};
use crate::search::movegen::tactical_moves;
use crate::search::scalar::evaluator::Evaluator;
use crate::search::scalar::score_table::{INFINITE, MATE};
use crate::search::scalar::search::ScalarSearch;
use crate::search::see::see_value;
use crate::search::types::{MAX_PLY, child_hash};

impl<E: Evaluator> ScalarSearch<E> {
    /// Quiescence: the side to move stands pat on the static evaluation or
    /// plays a capture or queen promotion that does not lose material; in
    /// check, every evasion.
    ///
    /// At the main search's horizon the node knows that `pos` is not in check
    /// (`horizon`); quiescence's own nodes test it. Out of check only the
    /// captures and queen promotions are generated ([`tactical_moves`]).
    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
        hash: u64,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        horizon: bool,
    ) -> i32 {
        self.progress.nodes += 1;
        self.progress.seldepth = self.progress.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = !horizon && pos.is_check();
        if ply as usize >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(pos, hash) };
        }
        let (mut moves, stand) = if in_check {
            let evasions = pos.legal_moves();
            if evasions.is_empty() {
                return -MATE + ply as i32;
            }
            (evasions, None)
        } else {
            let stand = self.static_eval(pos, hash);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            (tactical_moves(pos), Some(stand))
        };
        let mut scores = Scores::new();
        self.history.scores(pos, &moves, None, ply as usize, None, &mut scores);
        let mut best = stand.unwrap_or(-INFINITE);
        for next in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, next);
            if let Some(stand) = stand {
                // Delta pruning: even winning the piece outright stays below α.
                let gain = m.capture().map_or(0, see_value) + m.promotion().map_or(0, |r| see_value(r) - 100);
                // Out of check every move is tactical, so its ordering score
                // already says whether it loses material (`see_ge(pos, m, 0)`).
                if stand + gain + 200 <= alpha || !is_good_capture(scores[next]) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_hash = child_hash(pos, hash, m, &child);
            self.evaluator.prefetch(child_hash);
            self.evaluator.push(pos, m, &child);
            let score = -self.quiescence(&child, child_hash, ply + 1, -beta, -alpha, false);
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
        let cp = if self.fifty_scale { fifty_scaled(cp, pos.halfmoves()) } else { cp };
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

/// `cp × (200 − h) / 200` for the halfmove clock `h` (taken as at most
/// 100), rounded towards zero: half the score when the fifty-move draw can
/// be claimed.
pub(super) fn fifty_scaled(cp: i32, halfmoves: u32) -> i32 {
    let h = halfmoves.min(100) as i32;
    cp * (200 - h) / 200
}
