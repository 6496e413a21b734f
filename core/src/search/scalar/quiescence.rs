//! The scalar search's quiescence, static evaluation and repetition test:
//! what a node at the horizon asks.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use crate::search::history::{Scores, is_good_capture, pick};
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
    /// At the main search's horizon the node has already generated its moves:
    /// it passes them as `legal` (consumed), and then `pos` is not in check
    /// and has a move; quiescence's own nodes pass `None` and generate them.
    /// Either way the moves are generated once (shakmaty's `capture_moves`
    /// and `promotion_moves` would each generate every legal move again).
    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
        hash: u64,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        legal: Option<&mut MoveList>,
    ) -> i32 {
        self.progress.nodes += 1;
        self.progress.seldepth = self.progress.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = legal.is_none() && pos.is_check();
        if ply as usize >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(pos, hash) };
        }
        let mut generated = MoveList::new();
        let (moves, stand) = if in_check {
            generated = pos.legal_moves();
            if generated.is_empty() {
                return -MATE + ply as i32;
            }
            (&mut generated, None)
        } else {
            let stand = self.static_eval(pos, hash);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            let moves = legal.unwrap_or_else(|| {
                generated = pos.legal_moves();
                &mut generated
            });
            retain_tactical(moves);
            (moves, Some(stand))
        };
        let mut scores = Scores::new();
        self.history.scores(pos, moves, None, ply as usize, None, &mut scores);
        let mut best = stand.unwrap_or(-INFINITE);
        for next in 0..moves.len() {
            let m = pick(moves, &mut scores, next);
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
            let score = -self.quiescence(&child, child_hash, ply + 1, -beta, -alpha, None);
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

/// Keeps of `moves` (all legal moves of a position) what quiescence
/// searches out of check, in their order: the captures (promoting to a queen,
/// if they promote), then the queen promotions that capture nothing.
///
/// Shakmaty's `capture_moves` and `promotion_moves` each generate every
/// legal move again and filter it; this filters the one generation in place.
pub(super) fn retain_tactical(moves: &mut MoveList) {
    // One pawn per file can promote by a push: at most 8.
    let mut quiet_queens = ArrayVec::<Move, 8>::new();
    moves.retain(|m| {
        if m.is_capture() {
            m.promotion().is_none_or(|role| role == Role::Queen)
        } else {
            if m.promotion() == Some(Role::Queen) {
                let _ = quiet_queens.try_push(*m);
            }
            false
        }
    });
    moves.extend(quiet_queens);
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    /// The moves quiescence searched before [`retain_tactical`]: shakmaty's
    /// captures, then its non-capturing queen promotions, under-promotions
    /// dropped.
    fn two_generations(pos: &Chess) -> MoveList {
        let mut moves = pos.capture_moves();
        moves.extend(
            pos.promotion_moves().into_iter().filter(|m| !m.is_capture() && m.promotion() == Some(Role::Queen)),
        );
        moves.retain(|m| m.promotion().is_none_or(|role| role == Role::Queen));
        moves
    }

    #[test]
    fn one_generation_gives_the_same_moves_in_the_same_order() {
        for fen in [
            // Promotions with and without captures, both sides.
            "r1b1k3/1P4P1/8/8/8/8/1p4p1/R3K1NR w KQq - 0 1",
            "r1b1k3/1P4P1/8/8/8/8/1p4p1/R3K1NR b KQq - 0 1",
            // En passant, a pinned piece, many captures.
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 0 7",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // No capture at all.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let mut moves = pos.legal_moves();
            retain_tactical(&mut moves);
            assert_eq!(moves, two_generations(&pos), "{fen}");
        }
    }
}
