//! Static exchange evaluation: does a capture win material once every
//! recapture on its square is played out, cheapest attacker first?
//!
//! A search heuristic (it orders captures and prunes losing ones), not an
//! evaluation: the network alone judges positions. The piece values are the
//! conventional ones; SEE needs only their order and rough ratios.

use shakmaty::attacks::{bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role};

/// Conventional piece values in centipawns, pawn to king, for exchanges.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The exchange value of `role`.
pub fn see_value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

/// Whether `m` wins at least `threshold` centipawns of material in the
/// exchange on its target square, both sides recapturing with their least
/// valuable piece and either side free to stop. Pins are ignored. Castling
/// counts as 0; en passant as winning a pawn.
///
/// ```
/// use deepchess_core::search::see_ge;
/// use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};
///
/// // Rook takes a pawn defended by a pawn: loses 400.
/// let pos: Chess = "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1".parse::<Fen>()?.into_position(CastlingMode::Standard)?;
/// let m = "d1d5".parse::<UciMove>()?.to_move(&pos)?;
/// assert!(see_ge(&pos, m, -400) && !see_ge(&pos, m, -399));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } => (from, to),
        Move::EnPassant { .. } => return see_value(Role::Pawn) >= threshold,
        Move::Castle { .. } | Move::Put { .. } => return 0 >= threshold,
    };
    let board = pos.board();
    let mut swap = m.capture().map_or(0, see_value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(m.role()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    let mut turn = pos.turn();
    let mut attackers = board.attacks_to(to, Color::White, occupied) | board.attacks_to(to, Color::Black, occupied);
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut result = true;
    loop {
        turn = !turn;
        attackers &= occupied;
        let ours = attackers & board.by_color(turn);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((role, square)) =
            Role::ALL.into_iter().find_map(|role| (ours & board.by_role(role)).first().map(|sq| (role, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only recapture if nothing can take it back.
            return if (attackers & !board.by_color(turn)).any() { !result } else { result };
        }
        swap = see_value(role) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= Bitboard::from_square(square);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}
