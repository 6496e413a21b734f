//! The search's staged move path: what a node asks before it needs every
//! legal move.
//!
//! shakmaty generates legal moves whole: its `capture_moves` generates every
//! legal move and keeps the captures, and a position has a move only if
//! `legal_moves` is not empty. Most nodes never need the whole list: a
//! quiescence node plays only its captures and queen promotions, and a node
//! that the table or pruning settles needs only to know that it is not mate
//! or stalemate. So the search asks this module, built on shakmaty's
//! attack tables:
//!
//! - [`tactical_moves`]: the legal captures and queen promotions of a
//!   position not in check, in exactly the order in which filtering
//!   `legal_moves` would give them (so the search's tree is the same, ties
//!   of the move ordering included);
//! - [`has_legal_move`]: whether the side to move has a move, answered by the
//!   king's or a knight's first free square in most positions, by the whole
//!   list only where those have none.
//!
//! [`perft`](super::perft) holds both, and the search's incremental keys,
//! to shakmaty at every position of perft trees.

use arrayvec::ArrayVec;
use shakmaty::attacks::{aligned, between, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Color, File, Move, MoveList, Position, Role, Square};

/// The squares of our pieces that shield our king from an enemy slider (a
/// pinned piece may move only along its pin).
fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let snipers = (rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers & pos.them() {
        let between = between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// The captures and queen promotions of `pos`, which must not be in check,
/// in the order of `legal_moves` filtered to them: en passant, then pawn
/// captures (towards the a-file, then the h-file, each with those that
/// promote last, to a queen), knights', bishops', rooks', queens' and the king's
/// captures, then the queen promotions that capture nothing.
pub fn tactical_moves(pos: &Chess) -> MoveList {
    debug_assert!(!pos.is_check());
    let mut moves = pos.en_passant_moves();
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(turn) else { return moves };
    let (them, occupied) = (pos.them(), board.occupied());
    let pawns = pos.our(Role::Pawn);
    let blockers = pinned(pos, king);
    let push = |moves: &mut MoveList, role, from: Square, to: Square, promotion| {
        if !blockers.contains(from) || aligned(from, to, king) {
            moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion });
        }
    };
    // Towards the a-file, then the h-file: the offsets of a step forward and
    // aside, for White (+7, +9) and Black (−9, −7).
    let (forward, sides) = match turn {
        Color::White => (8, [(7, File::A), (9, File::H)]),
        Color::Black => (-8, [(-9, File::A), (-7, File::H)]),
    };
    for (offset, edge) in sides {
        let captures = (pawns & !Bitboard::from_file(edge)).shift(offset) & them;
        // Those that do not promote first, as shakmaty generates them.
        for (targets, promotion) in
            [(captures & !Bitboard::BACKRANKS, None), (captures & Bitboard::BACKRANKS, Some(Role::Queen))]
        {
            for to in targets {
                let from = Square::new((i32::from(to) - offset) as u32);
                push(&mut moves, Role::Pawn, from, to, promotion);
            }
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in pos.our(role) {
            let attacks = match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, occupied),
                Role::Rook => rook_attacks(from, occupied),
                _ => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
            };
            for to in attacks & them {
                push(&mut moves, role, from, to, None);
            }
        }
    }
    for to in king_attacks(king) & them {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            moves.push(Move::Normal { role: Role::King, from: king, capture: board.role_at(to), to, promotion: None });
        }
    }
    let pushes = pawns.shift(forward) & !occupied & Bitboard::BACKRANKS;
    for to in pushes {
        let from = Square::new((i32::from(to) - forward) as u32);
        push(&mut moves, Role::Pawn, from, to, Some(Role::Queen));
    }
    moves
}

/// Whether the side to move has a legal move, `in_check` saying whether it
/// is in check (the caller knows; shakmaty would find the checkers again):
/// out of check, a free square for the king or for a knight that no pin
/// holds settles it; otherwise the whole list.
pub fn has_legal_move(pos: &Chess, in_check: bool) -> bool {
    debug_assert_eq!(in_check, pos.is_check());
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(turn) else { return !pos.legal_moves().is_empty() };
    if !in_check {
        let occupied = board.occupied();
        if (king_attacks(king) & !pos.us()).into_iter().any(|to| board.attacks_to(to, !turn, occupied).is_empty()) {
            return true;
        }
        let knights = pos.our(Role::Knight) & !pinned(pos, king);
        if knights.into_iter().any(|from| (knight_attacks(from) & !pos.us()).any()) {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

/// The oracle of [`tactical_moves`]: of `moves` (all legal moves of a
/// position), what quiescence searches out of check, in their order: the
/// captures (promoting to a queen, if they promote), then the queen
/// promotions that capture nothing.
pub fn retain_tactical(moves: &mut MoveList) {
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
    fn the_oracle_gives_shakmatys_captures_then_queen_promotions() {
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
            assert_eq!(tactical_moves(&pos), moves, "{fen}");
        }
    }

    #[test]
    fn stalemates_and_pins_are_seen() {
        // Each answer of `has_legal_move` by each of its ways: the king's free
        // square, a free knight, and the whole list where the king is boxed
        // in and the knight pinned (a pawn's push left, or nothing).
        for (fen, moves) in [
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),
            ("KN5r/2q5/8/8/8/8/8/7k w - - 0 1", 0),
            ("KN5r/2q5/8/8/8/P7/8/7k w - - 0 1", 1),
            ("KN6/2q5/8/8/8/8/8/7k w - - 0 1", 3),
            ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 0),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 5),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            assert_eq!(pos.legal_moves().len(), moves, "{fen}: the case itself");
            assert_eq!(has_legal_move(&pos, pos.is_check()), moves > 0, "{fen}");
            if !pos.is_check() {
                let mut legal = pos.legal_moves();
                retain_tactical(&mut legal);
                assert_eq!(tactical_moves(&pos), legal, "{fen}");
            }
        }
    }
}
