//! The two workloads with each library.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use crate::suite::suite_position;

fn shakmaty_perft(pos: &Chess, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_perft(&child, depth - 1)
        })
        .sum()
}

fn shakmaty_walk(pos: &Chess, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 0 {
        return 1;
    }
    let mut count = 1;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        count += u64::from(child.is_check()) + shakmaty_walk(&child, depth - 1);
    }
    count
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut count = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            count += moves.len() as u64;
            false
        });
        return count;
    }
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            count += cozy_perft(&child, depth - 1);
        }
        false
    });
    count
}

fn cozy_walk(board: &cozy_chess::Board, depth: u32) -> u64 {
    // A list, as shakmaty's `MoveList` and the search keep one (218 is the
    // most legal moves of any position).
    let none = cozy_chess::Move { from: cozy_chess::Square::A1, to: cozy_chess::Square::A1, promotion: None };
    let mut list = [none; 218];
    let mut len = 0;
    board.generate_moves(|moves| {
        for m in moves {
            list[len] = m;
            len += 1;
        }
        false
    });
    if depth == 0 {
        return 1;
    }
    let mut count = 1;
    for &m in &list[..len] {
        let mut child = board.clone();
        child.play_unchecked(m);
        count += u64::from(!child.checkers().is_empty()) + cozy_walk(&child, depth - 1);
    }
    count
}

/// Which library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// shakmaty 0.30.1 with its magic bitboards.
    Shakmaty,
    /// cozy-chess 0.3.4 (its fancy magic bitboards; no PEXT).
    Cozy,
}

/// Which workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// The move tree counted, the last ply in bulk.
    Perft,
    /// The search's pattern (see the crate's documentation).
    Walk,
}

/// `work` with `library` over the `index`th position of the suite to
/// `depth`: the count it returns.
pub fn count(library: Library, work: Work, index: usize, depth: u32) -> u64 {
    let (fen, _) = suite_position(index, depth);
    match library {
        Library::Shakmaty => {
            let fen: Fen = fen.parse().expect("the suite's FEN");
            let pos: Chess = fen.into_position(CastlingMode::Standard).expect("a legal position");
            match work {
                Work::Perft => shakmaty_perft(&pos, depth),
                Work::Walk => shakmaty_walk(&pos, depth),
            }
        }
        Library::Cozy => {
            let board = cozy_chess::Board::from_fen(&fen, false).expect("the suite's FEN");
            match work {
                Work::Perft => cozy_perft(&board, depth),
                Work::Walk => cozy_walk(&board, depth),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Library, Work, count};
    use crate::suite::{DEPTHS, expected};

    #[test]
    fn both_libraries_count_the_suite_and_walk_alike() {
        for (index, &depth) in DEPTHS.iter().enumerate() {
            let depth = depth.min(3);
            let want = expected(index, depth);
            assert!(want > 0);
            assert_eq!(count(Library::Shakmaty, Work::Perft, index, depth), want);
            assert_eq!(count(Library::Cozy, Work::Perft, index, depth), want);
            let walk = count(Library::Shakmaty, Work::Walk, index, depth);
            assert_eq!(count(Library::Cozy, Work::Walk, index, depth), walk);
        }
    }
}
