//! The 22 input planes of the AlphaZero reimplementation (see [the module](super) for
//! their order and meaning).

use alloc::vec::Vec;

use shakmaty::{CastlingSide, Chess, EnPassantMode, Position};

use crate::alphazero::view::view;
use crate::search::types::zobrist;

/// Number of input planes.
pub const PLANES: usize = crate::arch::AZ_PLANES;

/// The planes of one position, plane by plane, each rank by rank from the
/// side to move's first rank: `values()[plane * 64 + square]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Planes {
    values: [f32; PLANES * 64],
}

impl Planes {
    /// Encodes `pos`, which occurred `repetitions` times before in its game
    /// ([`Repetitions::push`] counts them).
    ///
    /// ```
    /// use deepchess_core::alphazero::{Planes, PLANES};
    /// use deepchess_core::shakmaty::Chess;
    ///
    /// let planes = Planes::new(&Chess::default(), 0);
    /// assert_eq!(planes.get(0, 8), 1.0); // own pawn on a2
    /// assert_eq!(planes.get(6, 48), 1.0); // the opponent's pawn on a7
    /// assert_eq!(planes.get(14, 0), 1.0); // White to move
    /// assert_eq!(planes.values().len(), PLANES * 64);
    /// ```
    pub fn new(pos: &Chess, repetitions: usize) -> Planes {
        let mut values = [0.0; PLANES * 64];
        let turn = pos.turn();
        for (square, piece) in pos.board().clone() {
            let side = if piece.color == turn { 0 } else { 6 };
            let plane = side + usize::from(piece.role) - 1;
            values[plane * 64 + view(square, turn)] = 1.0;
        }
        let castles = pos.castles();
        let fill = [
            (12, repetitions >= 1),
            (13, repetitions >= 2),
            (14, turn.is_white()),
            (16, castles.has(turn, CastlingSide::KingSide)),
            (17, castles.has(turn, CastlingSide::QueenSide)),
            (18, castles.has(!turn, CastlingSide::KingSide)),
            (19, castles.has(!turn, CastlingSide::QueenSide)),
        ];
        for (plane, on) in fill {
            if on {
                values[plane * 64..(plane + 1) * 64].fill(1.0);
            }
        }
        values[15 * 64..16 * 64].fill(pos.fullmoves().get() as f32 / 100.0);
        values[20 * 64..21 * 64].fill(pos.halfmoves() as f32 / 100.0);
        if let Some(square) = pos.ep_square(EnPassantMode::Legal) {
            values[21 * 64 + view(square, turn)] = 1.0;
        }
        Planes { values }
    }

    /// Planes from their values, plane by plane (`PLANES × 64` of them, or
    /// `None`), as a host hands back [`values`](Self::values).
    pub fn from_values(values: &[f32]) -> Option<Planes> {
        Some(Planes { values: values.try_into().ok()? })
    }

    /// All values, plane by plane.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The value of one plane at one square (in the side to move's view).
    pub fn get(&self, plane: usize, square: usize) -> f32 {
        self.values[plane * 64 + square]
    }
}

/// The positions of a game so far, to count repetitions for planes 12 and 13.
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    keys: Vec<u64>,
}

impl Repetitions {
    /// No positions yet.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// The positions with these Zobrist keys ([`zobrist`]), oldest first.
    pub fn from_keys(keys: Vec<u64>) -> Repetitions {
        Repetitions { keys }
    }

    /// Positions recorded.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no position is recorded.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Forgets every position after the first `len` (a search going back up
    /// its path).
    pub fn truncate(&mut self, len: usize) {
        self.keys.truncate(len);
    }

    /// Records that the game reached `pos`, and returns how many times it
    /// had reached it before: the same pieces, side to move, castling rights
    /// and legal en-passant square (the rule of threefold repetition).
    ///
    /// ```
    /// use deepchess_core::alphazero::Repetitions;
    /// use deepchess_core::shakmaty::{Chess, Position, uci::UciMove};
    ///
    /// let mut seen = Repetitions::new();
    /// let mut pos = Chess::default();
    /// assert_eq!(seen.push(&pos), 0);
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     pos.play_unchecked(m.parse::<UciMove>()?.to_move(&pos)?);
    ///     seen.push(&pos);
    /// }
    /// assert_eq!(seen.push(&pos), 2); // the start position, a third time
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn push(&mut self, pos: &Chess) -> usize {
        let key = zobrist(pos);
        let before = self.keys.iter().filter(|&&k| k == key).count();
        self.keys.push(key);
        before
    }
}
