//! Helpers shared by the search tests: positions, mate proofs, games and a
//! material count that makes the right choice known in advance.
// Each test file uses its own part of these.
#![allow(dead_code)]

use deepchess_core::search::{Limits, zobrist};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, fen::Fen};

/// A position from its FEN.
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

/// A move in UCI, or `(none)`.
pub fn uci(m: Option<Move>) -> String {
    m.map_or("(none)".into(), |m| UciMove::from_standard(m).to_string())
}

/// Limits of a fixed-depth search.
pub fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// Whether the side to move in `pos` can force mate within `moves` moves.
pub fn forces_mate(pos: &Chess, moves: u32) -> bool {
    moves > 0
        && pos.legal_moves().into_iter().any(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
                || (!after.legal_moves().is_empty()
                    && after.legal_moves().into_iter().all(|reply| {
                        let mut next = after.clone();
                        next.play_unchecked(reply);
                        forces_mate(&next, moves - 1)
                    }))
        })
}

/// Material (pawn 1, minor 3, rook 5, queen 9), White's minus Black's. For
/// tests only: the engine never uses a hand-written judgement.
pub fn material(pos: &Chess) -> i32 {
    let values = [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)];
    let board = pos.board();
    values
        .iter()
        .map(|&(role, v)| {
            v * ((board.by_role(role) & board.white()).count() as i32
                - (board.by_role(role) & board.black()).count() as i32)
        })
        .sum()
}

/// The game so far: from `start`, the moves given; returns the position and
/// the hashes before it.
pub fn game(start: &str, moves: &[&str]) -> (Chess, Vec<u64>) {
    let mut pos = position(start);
    let mut hashes = Vec::new();
    for m in moves {
        hashes.push(zobrist(&pos));
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    (pos, hashes)
}
