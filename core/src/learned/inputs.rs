//! A learner's input encoding: which of its inputs a position turns on.

use alloc::vec::Vec;

use shakmaty::{Chess, Color, Position};

use crate::arch::{CASTLING_INDEX, SIDE_TO_MOVE_INDEX};
use crate::deepchess::features::Features;

/// How a position becomes the network's inputs. Every kind starts from the
/// paper's 773 bits ([`Features`]): 768 piece bits (`colour * 384 + role *
/// 64 + square`), the side to move, four castling rights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// The paper's 773 bits, White's view.
    Full773,
    /// 768 piece bits and 4 castling rights (inputs 768–771), without the
    /// side to move: Herud–Mueller's encoding. White's view.
    Castling772,
    /// The 768 piece bits, White's view.
    Pieces768,
    /// The 768 piece bits of the position seen from the side to move (the
    /// colour mirror image when Black is to move): Deep Pink's. The value
    /// is then for the side to move.
    SideToMove768,
}

impl InputKind {
    /// Every kind, by code.
    pub const ALL: [InputKind; 4] =
        [InputKind::Full773, InputKind::Castling772, InputKind::Pieces768, InputKind::SideToMove768];

    /// The number of inputs.
    pub const fn inputs(self) -> usize {
        match self {
            InputKind::Full773 => 773,
            InputKind::Castling772 => 772,
            InputKind::Pieces768 | InputKind::SideToMove768 => 768,
        }
    }

    /// Its code in a `.dcsn` file.
    pub const fn code(self) -> u32 {
        match self {
            InputKind::Full773 => 0,
            InputKind::Castling772 => 1,
            InputKind::Pieces768 => 2,
            InputKind::SideToMove768 => 3,
        }
    }

    /// The kind of a code.
    pub fn from_code(code: u32) -> Option<InputKind> {
        InputKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Whether the network's value is for the side to move (else for White).
    pub const fn is_relative(self) -> bool {
        matches!(self, InputKind::SideToMove768)
    }

    /// The short name (`773`, `772`, `768`, `768-stm`).
    pub const fn name(self) -> &'static str {
        match self {
            InputKind::Full773 => "773",
            InputKind::Castling772 => "772",
            InputKind::Pieces768 => "768",
            InputKind::SideToMove768 => "768-stm",
        }
    }

    /// The active inputs of `pos`.
    pub fn active(self, pos: &Chess) -> Vec<u16> {
        self.active_of(&Features::from_position(pos), pos.turn())
    }

    /// The active inputs of a position with the paper's bits `features`
    /// and `turn` to move.
    pub fn active_of(self, features: &Features, turn: Color) -> Vec<u16> {
        let bits = features.as_slice();
        match self {
            InputKind::Full773 => bits.to_vec(),
            InputKind::Castling772 => bits
                .iter()
                .filter(|&&b| b != SIDE_TO_MOVE_INDEX)
                .map(|&b| if b >= CASTLING_INDEX { b - 1 } else { b })
                .collect(),
            InputKind::Pieces768 => bits.iter().copied().filter(|&b| b < SIDE_TO_MOVE_INDEX).collect(),
            InputKind::SideToMove768 => {
                let seen = if turn == Color::White { *features } else { features.mirrored() };
                seen.as_slice().iter().copied().filter(|&b| b < SIDE_TO_MOVE_INDEX).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Piece, Role, Square};

    use crate::deepchess::features::piece_index;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn encodings_of_the_start_and_a_black_move() {
        let start = Chess::default();
        assert_eq!(InputKind::Full773.active(&start).len(), 32 + 1 + 4);
        let castling = InputKind::Castling772.active(&start);
        assert_eq!(castling.len(), 36);
        assert!(castling.iter().all(|&b| b < 772) && castling.contains(&771) && castling.contains(&768));
        assert_eq!(InputKind::Pieces768.active(&start).len(), 32);
        // White to move: the side-to-move view is the board itself.
        let mut own = InputKind::SideToMove768.active(&start);
        let mut plain = InputKind::Pieces768.active(&start);
        own.sort_unstable();
        plain.sort_unstable();
        assert_eq!(own, plain);

        // Black to move after 1. e4: Black's e7 pawn is "White's e2 pawn" in its view.
        let after = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let view = InputKind::SideToMove768.active(&after);
        let white_pawn = |sq| piece_index(Piece { color: Color::White, role: Role::Pawn }, sq);
        let black_pawn = |sq| piece_index(Piece { color: Color::Black, role: Role::Pawn }, sq);
        assert!(view.contains(&white_pawn(Square::E2)), "Black's own e7 pawn, seen from Black");
        assert!(view.contains(&black_pawn(Square::E5)), "White's e4 pawn, seen from Black");
        assert!(InputKind::ALL.iter().all(|k| InputKind::from_code(k.code()) == Some(*k)));
    }
}
