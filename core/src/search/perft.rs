//! The search's move path held to shakmaty, and both to counts found apart,
//! over perft trees.
//!
//! [`perft_checked`] walks a perft tree by shakmaty's legal moves and, at
//! every position, compares the search's staged path
//! ([`movegen`](super::movegen)) and its incremental keys with shakmaty.
//! Two sets of trees:
//!
//! - [`PERFT_POSITIONS`]: the chess programming wiki's six positions, with
//!   their published leaf counts;
//! - [`PERFT_SUITE`]: 300 positions from engine and master games, in EPD with
//!   their leaf counts to depth 3 (`;D1 … ;D3`), drawn in quotas for what
//!   move generators get wrong most (the side to move in check, a legal en
//!   passant capture, castling, a promotion, endgames) by
//!   `scripts/perft_suite.py`, which counts with python-chess, a rules
//!   library independent of shakmaty.
//!
//! The core's tests run both natively, `wasm/tests/movepath.test.mjs` in the
//! WebAssembly bench build (`dc_movepath_check`, `dc_perft_suite_check`).

use alloc::string::{String, ToString};
use core::fmt;

use arrayvec::ArrayVec;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::search::movegen::{has_legal_move, retain_tactical, tactical_moves};
use crate::search::types::{child_hash, null_move_hash, zobrist};

/// The chess programming wiki's perft positions, each with a depth and its
/// published leaf count at that depth.
pub const PERFT_POSITIONS: [(&str, u32, u64); 6] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197_281),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97_862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62_379),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89_890),
];

/// The perft suite: one position a line, `<FEN's first four fields> ;D1 n
/// ;D2 n ;D3 n`, written by `python3 scripts/perft_suite.py --out
/// core/src/search/perft.epd ../shared/data/tcec-public.pgn.zst
/// ../shared/data/masters.pgn.zst`.
pub const PERFT_SUITE: &str = include_str!("perft.epd");

/// The deepest count a suite line may give.
pub const MAX_SUITE_DEPTH: usize = 8;

/// One line of an EPD perft suite.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// The position.
    pub position: Chess,
    /// Its leaf counts: `leaves[d - 1]` at depth `d`.
    pub leaves: ArrayVec<u64, MAX_SUITE_DEPTH>,
}

/// Why a perft suite line could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftLineError {
    /// The part before the first `;` is not a FEN.
    Fen,
    /// The FEN is not a legal standard chess position.
    Position,
    /// No `;D1 n`, or a count out of order (`;D1`, `;D2`, … up to
    /// [`MAX_SUITE_DEPTH`]) or not a number.
    Count,
}

impl fmt::Display for PerftLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PerftLineError::Fen => "the position is not a FEN",
            PerftLineError::Position => "the FEN is not a legal chess position",
            PerftLineError::Count => "the counts are not `;D1 n ;D2 n …` in order",
        })
    }
}

impl core::error::Error for PerftLineError {}

/// Reads one suite line, `<FEN> ;D1 n ;D2 n …` (the FEN's move counters may
/// be left out).
pub fn parse_perft_line(line: &str) -> Result<PerftCase, PerftLineError> {
    let (fen, counts) = line.split_once(';').ok_or(PerftLineError::Count)?;
    let fen: Fen = fen.trim().parse().map_err(|_| PerftLineError::Fen)?;
    let position = fen.into_position(CastlingMode::Standard).map_err(|_| PerftLineError::Position)?;
    let mut leaves = ArrayVec::new();
    for (depth, field) in (1..).zip(counts.split(';')) {
        let (name, count) = field.trim().split_once(' ').ok_or(PerftLineError::Count)?;
        let count = count.trim().parse().map_err(|_| PerftLineError::Count)?;
        if name.strip_prefix('D').and_then(|d| d.parse::<usize>().ok()) != Some(depth) {
            return Err(PerftLineError::Count);
        }
        leaves.try_push(count).map_err(|_| PerftLineError::Count)?;
    }
    Ok(PerftCase { position, leaves })
}

/// A position where the search's move path and shakmaty disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub fen: String,
    /// What differs: `"has_legal_move"`, `"tactical_moves"`, `"key"` or
    /// `"null move key"`.
    pub what: &'static str,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the search's {} differs from shakmaty's in {}", self.what, self.fen)
    }
}

impl core::error::Error for Mismatch {}

/// Perft of `pos` to `depth` by shakmaty's legal moves, holding the search's
/// move path to shakmaty at every position of the tree, leaves included:
/// [`has_legal_move`] to a non-empty list, [`tactical_moves`] (out of check)
/// to [`retain_tactical`] of the list, and each child's incremental key (as
/// the search computes it, after a move and, out of check, after a null
/// move) to its key computed afresh. Returns the leaf count and the
/// positions checked.
pub fn perft_checked(pos: &Chess, depth: u32) -> Result<(u64, u64), Mismatch> {
    fn walk(pos: &Chess, hash: u64, depth: u32, checked: &mut u64) -> Result<u64, Mismatch> {
        let mismatch = |what| Mismatch { fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(), what };
        let legal = pos.legal_moves();
        *checked += 1;
        if has_legal_move(pos, pos.is_check()) == legal.is_empty() {
            return Err(mismatch("has_legal_move"));
        }
        if !pos.is_check() {
            if let Ok(passed) = pos.clone().swap_turn()
                && null_move_hash(pos, hash) != zobrist(&passed)
            {
                return Err(mismatch("null move key"));
            }
            let mut expected = legal.clone();
            retain_tactical(&mut expected);
            if tactical_moves(pos) != expected {
                return Err(mismatch("tactical_moves"));
            }
        }
        if depth == 0 {
            return Ok(1);
        }
        let mut leaves = 0;
        for &m in &legal {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let key = child_hash(pos, hash, m, &child);
            if key != zobrist(&child) {
                return Err(mismatch("key"));
            }
            leaves += walk(&child, key, depth - 1, checked)?;
        }
        Ok(leaves)
    }
    let mut checked = 0;
    let leaves = walk(pos, zobrist(pos), depth, &mut checked)?;
    Ok((leaves, checked))
}

/// Why a suite position failed [`check_suite`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteFailure {
    /// Its line could not be read.
    Line(PerftLineError),
    /// The move path differs from shakmaty's somewhere in its tree.
    Path(Mismatch),
    /// shakmaty's leaf count differs from the suite's.
    Count {
        /// The depth.
        depth: u32,
        /// The suite's count.
        expected: u64,
        /// shakmaty's.
        counted: u64,
    },
}

impl fmt::Display for SuiteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteFailure::Line(e) => e.fmt(f),
            SuiteFailure::Path(e) => e.fmt(f),
            SuiteFailure::Count { depth, expected, counted } => {
                write!(f, "{counted} leaves at depth {depth}, the suite says {expected}")
            }
        }
    }
}

/// What [`check_suite`] counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteCounts {
    /// Positions whose counts held.
    pub positions: usize,
    /// Leaves counted, over every depth checked.
    pub leaves: u64,
    /// Nodes where the move path was held to shakmaty (0 by bulk counts).
    pub checked: u64,
}

/// Every position of `suite` (EPD lines, [`parse_perft_line`]) at each of
/// its depths up to `depth`, the leaf counts against the suite's: by
/// [`perft_checked`] where `check_path` is set, else by shakmaty's bulk
/// count. What was counted, or the first line (counted from 1) that fails
/// and why.
pub fn check_suite(suite: &str, depth: u32, check_path: bool) -> Result<SuiteCounts, (usize, SuiteFailure)> {
    let mut counts = SuiteCounts::default();
    for (number, line) in (1..).zip(suite.lines()) {
        if line.trim().is_empty() {
            continue;
        }
        let case = parse_perft_line(line).map_err(|e| (number, SuiteFailure::Line(e)))?;
        for (d, &expected) in (1..=depth).zip(&case.leaves) {
            let counted = if check_path {
                let (counted, checked) =
                    perft_checked(&case.position, d).map_err(|e| (number, SuiteFailure::Path(e)))?;
                counts.checked += checked;
                counted
            } else {
                shakmaty::perft(&case.position, d)
            };
            if counted != expected {
                return Err((number, SuiteFailure::Count { depth: d, expected, counted }));
            }
            counts.leaves += counted;
        }
        counts.positions += 1;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_path_equals_shakmaty_on_perft_trees() {
        // The published leaf counts, and at every position of each tree the
        // staged path and the keys as shakmaty's.
        for (fen, depth, leaves) in PERFT_POSITIONS {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let (counted, checked) = perft_checked(&pos, depth).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(counted, leaves, "{fen}");
            assert!(checked > leaves, "{fen}: {checked} positions checked");
        }
    }

    #[test]
    fn the_move_path_and_shakmaty_give_the_suites_counts() {
        let lines = PERFT_SUITE.lines().count();
        assert_eq!(lines, 300);
        match check_suite(PERFT_SUITE, 3, true) {
            Ok(counts) => assert_eq!(counts.positions, lines),
            Err((line, why)) => panic!("perft.epd line {line}: {why}"),
        }
    }

    #[test]
    fn the_suite_covers_what_move_generators_get_wrong() {
        let cases: alloc::vec::Vec<_> = PERFT_SUITE.lines().map(|l| parse_perft_line(l).unwrap()).collect();
        let count = |f: &dyn Fn(&Chess) -> bool| cases.iter().filter(|c| f(&c.position)).count();
        assert!(count(&|p| p.is_check()) >= 40);
        assert!(count(&|p| p.legal_ep_square().is_some()) >= 40);
        assert!(count(&|p| p.legal_moves().iter().any(|m| m.is_castle())) >= 40);
        assert!(count(&|p| p.legal_moves().iter().any(|m| m.is_promotion())) >= 40);
        assert!(count(&|p| p.board().occupied().count() <= 8) >= 40);
        assert!(cases.iter().all(|c| c.leaves.len() == 3));
    }

    #[test]
    fn bad_suite_lines_are_errors() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(parse_perft_line(&alloc::format!("{start} ;D1 20 ;D2 400")).unwrap().leaves.as_slice(), [20, 400]);
        for (line, error) in [
            (start.to_string(), PerftLineError::Count),
            (alloc::format!("{start} ;D2 400"), PerftLineError::Count),
            (alloc::format!("{start} ;D1 twenty"), PerftLineError::Count),
            (alloc::format!("{start} ;D1"), PerftLineError::Count),
            ("rnbqkbnr/pppppppp/8 w - - ;D1 20".into(), PerftLineError::Fen),
            ("8/8/8/8/8/8/8/8 w - - ;D1 0".into(), PerftLineError::Position),
        ] {
            assert_eq!(parse_perft_line(&line).unwrap_err(), error, "{line}");
        }
        let suite = alloc::format!("{start} ;D1 20 ;D2 401\n");
        assert_eq!(
            check_suite(&suite, 2, true),
            Err((1, SuiteFailure::Count { depth: 2, expected: 401, counted: 400 }))
        );
        assert_eq!(check_suite(&suite, 1, true).map(|c| c.positions), Ok(1));
        assert_eq!(check_suite(&suite, 1, false), Ok(SuiteCounts { positions: 1, leaves: 20, checked: 0 }));
    }
}
