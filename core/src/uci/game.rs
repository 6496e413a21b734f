//! A game as UCI gives it: a start position and moves, checked move by
//! move ([`parse_game`]), and moves written back ([`uci_move`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::search::types::zobrist;

/// `e2e4`, `e7e8q`, `e1g1` (castling as the king's two-square move).
pub fn uci_move(m: Move) -> UciMove {
    UciMove::from_move(m, CastlingMode::Standard)
}

/// Why a game from UCI (`position …`) or from a file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The FEN does not parse.
    InvalidFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        error: ParseFenError,
    },
    /// The FEN parses but the position is not legal.
    IllegalPosition {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it (shakmaty's words).
        reason: String,
    },
    /// A move is not UCI notation.
    InvalidMove(String),
    /// A move is not legal where it is played.
    IllegalMove(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::InvalidFen { fen, error } => write!(f, "invalid FEN {fen:?}: {error}"),
            GameError::IllegalPosition { fen, reason } => write!(f, "illegal position {fen:?}: {reason}"),
            GameError::InvalidMove(text) => write!(f, "invalid move {text:?}"),
            GameError::IllegalMove(text) => write!(f, "illegal move {text:?}"),
        }
    }
}

impl core::error::Error for GameError {}

/// A position and the moves played from it, checked move by move; returns the
/// final position and the Zobrist hashes of the positions before it.
pub fn parse_game(fen: Option<&str>, moves: &[String]) -> Result<(Chess, Vec<u64>), GameError> {
    let mut pos = match fen {
        None => Chess::default(),
        Some(text) => {
            let parsed: Fen = text.parse().map_err(|error| GameError::InvalidFen { fen: text.into(), error })?;
            // Castling rights on other files than a and h are Chess960's.
            let mode = if parsed.clone().into_position::<Chess>(CastlingMode::Standard).is_ok() {
                CastlingMode::Standard
            } else {
                CastlingMode::Chess960
            };
            parsed
                .into_position(mode)
                .map_err(|e| GameError::IllegalPosition { fen: text.into(), reason: format!("{e}") })?
        }
    };
    let mut game = Vec::with_capacity(moves.len());
    for text in moves {
        let m = text
            .parse::<UciMove>()
            .map_err(|_| GameError::InvalidMove(text.clone()))?
            .to_move(&pos)
            .map_err(|_| GameError::IllegalMove(text.clone()))?;
        game.push(zobrist(&pos));
        pos.play_unchecked(m);
    }
    Ok((pos, game))
}
