//! Whether a move gives check, told from the position before it.
//!
//! The search asks this of every move it considers, before it decides to
//! prune the move; playing the move to ask the child ([`Position::is_check`])
//! costs a copy of the position, the move and an attack lookup on the king,
//! even for the moves then pruned. [`CheckInfo`] is computed once a node, as
//! engines do (Stockfish's `StateInfo::checkSquares` and `blockersForKing`):
//! the squares from which each kind of piece would attack the enemy king,
//! and the side to move's pieces that alone stand between one of its sliders
//! and that king. A plain move then gives check if it lands on one of its
//! piece's squares (direct) or takes a lone blocker off its line
//! (discovered). Castling, en passant and promotions, which move or remove
//! a second piece or change the first, are left to the caller.

use shakmaty::attacks::{aligned, between, bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Move, Position, Role, Square};

/// What [`gives_check`](CheckInfo::gives_check) needs of a position, computed
/// once.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king.
    king: Square,
    /// The side to move's pieces that are the only piece between one of its
    /// sliders and the enemy king.
    discoverers: Bitboard,
    /// For each role (`Role as usize - 1`), the squares from which a piece
    /// of that role of the side to move attacks the enemy king.
    squares: [Bitboard; 6],
}

impl CheckInfo {
    /// The check information of `pos` for moves of its side to move.
    pub fn new(pos: &Chess) -> CheckInfo {
        let board = pos.board();
        // shakmaty's `Chess` always has both kings; without one nothing could give check.
        let Some(king) = pos.their(Role::King).first() else {
            return CheckInfo { king: Square::A1, discoverers: Bitboard::EMPTY, squares: [Bitboard::EMPTY; 6] };
        };
        let (us, occupied) = (pos.us(), board.occupied());
        let snipers = ((rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & us;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                discoverers |= blockers & us;
            }
        }
        let (bishop, rook) = (bishop_attacks(king, occupied), rook_attacks(king, occupied));
        let squares =
            [pawn_attacks(!pos.turn(), king), knight_attacks(king), bishop, rook, bishop | rook, Bitboard::EMPTY];
        CheckInfo { king, discoverers, squares }
    }

    /// Whether `m` (legal in the position this was made from) gives check;
    /// `None` for castling, en passant and promotions, which the caller
    /// tells by playing them.
    #[inline]
    pub fn gives_check(&self, m: Move) -> Option<bool> {
        match m {
            Move::Normal { role, from, to, promotion: None, .. } => Some(
                self.squares[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !aligned(from, to, self.king)),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    use super::*;
    use crate::bench::BENCH_POSITIONS;

    /// Every legal move of every position within two plies of the bench
    /// positions and of positions built for discovered checks, double
    /// checks, pins and promotions: the answer, where there is one, is the
    /// child's.
    #[test]
    fn the_answer_is_the_childs() {
        let extra = [
            // Discovered checks by a knight, a bishop, a pawn and the king.
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4R1K1 w - - 0 1",
            "k7/8/8/8/8/8/K7/R7 w - - 0 1",
            "8/8/8/k2K3R/8/8/8/8 w - - 0 1",
            // Promotions with and without a file opening behind, en passant through a line, castling into check.
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "2k5/P7/8/8/8/8/8/R3K3 w Q - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        let (mut told, mut positions) = (0usize, 0usize);
        for fen in BENCH_POSITIONS.iter().copied().chain(extra) {
            let root: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).expect(fen);
            let mut frontier = alloc::vec![root];
            for _ in 0..3 {
                let mut next = alloc::vec::Vec::new();
                for pos in &frontier {
                    positions += 1;
                    let info = CheckInfo::new(pos);
                    for m in pos.legal_moves() {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        if let Some(checks) = info.gives_check(m) {
                            told += 1;
                            let fen = Fen::from_position(pos, EnPassantMode::Legal);
                            assert_eq!(checks, child.is_check(), "{fen} {m}");
                        }
                        if next.len() < 4000 {
                            next.push(child);
                        }
                    }
                }
                frontier = next;
            }
        }
        assert!(told > 100_000, "{told} moves told in {positions} positions");
    }
}
