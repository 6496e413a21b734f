//! The AlphaZero policy index: 8 × 8 from-squares × 73 move kinds (see [the
//! module](super) for the kinds).

use shakmaty::{Chess, Move, Position, Role};

use crate::alphazero::view::view;

/// Number of policy outputs: 64 × 73.
pub const POLICY_SIZE: usize = 64 * KINDS;

const KINDS: usize = crate::arch::AZ_POLICY_KINDS;

/// Queen-like directions as (file, rank) steps: N, NE, E, SE, S, SW, W, NW.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Knight steps as (file, rank).
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Underpromotion pieces, in kind order.
const UNDERPROMOTIONS: [Role; 3] = [Role::Knight, Role::Bishop, Role::Rook];

/// The policy index of `m`, a legal move of `pos`.
///
/// ```
/// use deepchess_core::alphazero::move_index;
/// use deepchess_core::shakmaty::{Chess, uci::UciMove};
///
/// let pos = Chess::default();
/// let e4 = "e2e4".parse::<UciMove>()?.to_move(&pos)?;
/// assert_eq!(move_index(&pos, &e4), 12 * 73 + 1); // from e2, north, two squares
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn move_index(pos: &Chess, m: &Move) -> usize {
    let turn = pos.turn();
    let (from, to, promotion) = match *m {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        // The king's move two squares towards the rook.
        Move::Castle { king, rook } => {
            let to = if rook.file() > king.file() { king.offset(2) } else { king.offset(-2) };
            (king, to.unwrap_or(king), None)
        }
        Move::Put { to, .. } => (to, to, None),
    };
    let (from, to) = (view(from, turn), view(to, turn));
    let step = ((to % 8) as i32 - (from % 8) as i32, (to / 8) as i32 - (from / 8) as i32);
    let kind = if let Some(piece) = promotion.filter(|&r| r != Role::Queen) {
        let piece = UNDERPROMOTIONS.iter().position(|&r| r == piece).unwrap_or(0);
        64 + (step.0 + 1) as usize * 3 + piece
    } else if let Some(k) = KNIGHT.iter().position(|&s| s == step) {
        56 + k
    } else {
        let distance = step.0.abs().max(step.1.abs()).max(1);
        let unit = (step.0 / distance, step.1 / distance);
        let direction = DIRECTIONS.iter().position(|&d| d == unit).unwrap_or(0);
        direction * 7 + distance as usize - 1
    };
    from * KINDS + kind
}

/// The legal move of `pos` with policy index `index`, if there is one.
///
/// ```
/// use deepchess_core::alphazero::{move_from_index, move_index};
/// use deepchess_core::shakmaty::{Chess, Position};
///
/// let pos = Chess::default();
/// for m in pos.legal_moves() {
///     assert_eq!(move_from_index(&pos, move_index(&pos, &m)), Some(m));
/// }
/// assert_eq!(move_from_index(&pos, 0), None); // a1 north: the rook cannot move
/// ```
pub fn move_from_index(pos: &Chess, index: usize) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| move_index(pos, m) == index)
}
