//! The board as the side to move sees it.

use shakmaty::{Color, Square};

/// A square in the view of `turn`, as planes and policy read the board:
/// turned upside down for Black.
pub(crate) fn view(square: Square, turn: Color) -> usize {
    if turn.is_white() { usize::from(square) } else { usize::from(square) ^ 56 }
}
