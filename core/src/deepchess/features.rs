//! The paper's 773-bit position encoding, as a sparse list of active indices.

use core::fmt;

use shakmaty::{CastlingSide, Chess, Color, Piece, Position, Role, Square};

use crate::arch::{CASTLING_INDEX, MAX_ACTIVE, SIDE_TO_MOVE_INDEX};

/// Index of a piece on a square: `colour * 384 + role * 64 + square`, with
/// White 0, Black 1; pawn 0 … king 5; a1 0 … h8 63.
///
/// ```
/// use deepchess_core::deepchess::features::piece_index;
/// use shakmaty::{Color, Piece, Role, Square};
///
/// assert_eq!(piece_index(Piece { color: Color::White, role: Role::Pawn }, Square::A1), 0);
/// assert_eq!(piece_index(Piece { color: Color::Black, role: Role::King }, Square::H8), 767);
/// ```
pub const fn piece_index(piece: Piece, square: Square) -> u16 {
    let colour = match piece.color {
        Color::White => 0,
        Color::Black => 1,
    };
    let role = piece.role as u16 - 1; // shakmaty's roles start at Pawn = 1
    colour * 384 + role * 64 + square as u16
}

/// Index of a castling right: K 769, Q 770, k 771, q 772.
pub const fn castling_index(color: Color, side: CastlingSide) -> u16 {
    let colour = match color {
        Color::White => 0,
        Color::Black => 2,
    };
    let side = match side {
        CastlingSide::KingSide => 0,
        CastlingSide::QueenSide => 1,
    };
    CASTLING_INDEX + colour + side
}

/// The castling bits in index order (K, Q, k, q).
pub(crate) const CASTLING_BITS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

/// The active input bits of one position, in ascending order.
///
/// ```
/// use deepchess_core::Features;
/// use shakmaty::Chess;
///
/// let features = Features::from_position(&Chess::default());
/// assert_eq!(features.len(), 32 + 1 + 4);
/// assert_eq!(&features.as_slice()[..3], &[8, 9, 10]); // white pawns a2, b2, c2
/// assert_eq!(&features.as_slice()[32..], &[768, 769, 770, 771, 772]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features {
    len: u8,
    indices: [u16; MAX_ACTIVE],
}

impl Features {
    /// Encodes a legal position.
    ///
    /// A validated [`Chess`] has at most 32 pieces, so the list never
    /// overflows; pieces beyond [`MAX_ACTIVE`] in a position built with
    /// shakmaty's `ignore_too_much_material` are not encoded.
    pub fn from_position(pos: &Chess) -> Features {
        let mut features = Features { len: 0, indices: [0; MAX_ACTIVE] };
        let board = pos.board();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for square in board.by_piece(piece) {
                    features.push(piece_index(piece, square));
                }
            }
        }
        if pos.turn() == Color::White {
            features.push(SIDE_TO_MOVE_INDEX);
        }
        let castles = pos.castles();
        for (color, side) in CASTLING_BITS {
            if castles.has(color, side) {
                features.push(castling_index(color, side));
            }
        }
        features
    }

    fn push(&mut self, index: u16) {
        if let Some(slot) = self.indices.get_mut(usize::from(self.len)) {
            *slot = index;
            self.len += 1;
        }
    }

    /// The active indices, ascending.
    pub fn as_slice(&self) -> &[u16] {
        &self.indices[..usize::from(self.len)]
    }

    /// Number of active indices.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether no index is active (never true for a legal position).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same position with the colours swapped and the board flipped
    /// top to bottom: White's pieces become Black's on the mirrored squares,
    /// the other side moves, and castling rights swap colour. A position and
    /// its mirror are equally good, each for its own side.
    ///
    /// ```
    /// use deepchess_core::Features;
    /// use shakmaty::Chess;
    ///
    /// let start = Features::from_position(&Chess::default());
    /// let mirrored = start.mirrored();
    /// assert!(!mirrored.contains(768)); // Black to move
    /// assert_eq!(mirrored.mirrored(), start);
    /// ```
    pub fn mirrored(&self) -> Features {
        let mut mirrored = Features { len: 0, indices: [0; MAX_ACTIVE] };
        let mut indices = [0u16; MAX_ACTIVE + 1];
        let mut n = 0;
        let mut white_to_move = false;
        for &index in self.as_slice() {
            let Some(flipped) = mirror_index(index) else {
                white_to_move = true;
                continue;
            };
            indices[n] = flipped;
            n += 1;
        }
        if !white_to_move {
            indices[n] = SIDE_TO_MOVE_INDEX;
            n += 1;
        }
        indices[..n].sort_unstable();
        for &index in &indices[..n] {
            mirrored.push(index);
        }
        mirrored
    }

    /// The men on the board (kings included): the active piece bits, what
    /// picks a utility head's output bucket ([`crate::arch::output_bucket`]).
    /// A position and its colour mirror image have the same.
    pub fn men(&self) -> u32 {
        self.as_slice().iter().filter(|&&index| index < SIDE_TO_MOVE_INDEX).count() as u32
    }

    /// Whether bit `index` is set.
    pub fn contains(&self, index: u16) -> bool {
        self.as_slice().binary_search(&index).is_ok()
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Prints the indices ascending, separated by single spaces, as
/// `deepchess encode` does.
impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, index) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{index}")?;
        }
        Ok(())
    }
}

/// Where a piece or castling bit goes in the colour mirror image: pieces
/// swap colour and flip rank (square ^ 56), K ↔ k and Q ↔ q. `None` for the
/// side-to-move bit, which the mirror toggles instead of moving.
pub fn mirror_index(index: u16) -> Option<u16> {
    match index {
        SIDE_TO_MOVE_INDEX => None,
        // K <-> k, Q <-> q.
        i if i >= CASTLING_INDEX => Some(CASTLING_INDEX + (i - CASTLING_INDEX + 2) % 4),
        // Swap the colour, flip the rank.
        i => Some(((i + 384) % 768) ^ 56),
    }
}
