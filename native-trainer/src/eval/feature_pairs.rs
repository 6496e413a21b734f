//! Position pairs that differ in one feature, for `eval understanding`.
//!
//! From a real position and a side, each [`Feature`] builds a second
//! position that is better or worse for that side in that feature alone:
//!
//! - the paper's static tests (§5.1): a piece of one role removed, or the
//!   castling rights taken away;
//! - the bishop pair: one of two bishops (on squares of both colours)
//!   becomes a knight on its square;
//! - mobility: one knight, bishop, rook or queen moved to another empty
//!   square where its side has at least [`MOBILITY_GAP`] more or fewer
//!   squares to go to (the other side's mobility unchanged, a bishop on its
//!   square colour);
//! - king safety: a pawn in front of a king on its back rank (castled, not
//!   on the d or e file) pushed two squares, the other side with a queen;
//! - passed, isolated and doubled pawns: one pawn moved along its rank to
//!   another file, where the side's count of that feature changes and every
//!   other pawn-structure count of both sides stays the same.
//!
//! Every moved piece is "quiet" on both squares (it attacks no enemy piece
//! and no enemy piece attacks it), moved pieces keep away from the kings,
//! and neither position has a side in check, so that the pair differs in
//! the feature and not in a tactic. A position may give no pair for a
//! feature; the report counts the pairs it has.

use deepchess_core::shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Piece, Position, Rank, Role, Setup,
    Square,
};

/// The fewest squares of mobility a mobility pair differs by.
pub const MOBILITY_GAP: usize = 6;

/// A feature the network should value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// A piece of this role (not the king).
    Piece(Role),
    /// The side's castling rights.
    CastlingRights,
    /// Two bishops on squares of both colours.
    BishopPair,
    /// Squares the pieces (knights to queens) can go to.
    Mobility,
    /// An unmoved pawn shelter in front of a castled king.
    KingSafety,
    /// A pawn with no enemy pawn ahead on its file or the adjacent ones.
    PassedPawn,
    /// A pawn with no pawn of its side on the adjacent files (fewer is better).
    IsolatedPawn,
    /// A second pawn on a file (fewer is better).
    DoubledPawn,
}

impl Feature {
    /// Every feature, in report order.
    pub const ALL: [Feature; 12] = [
        Feature::Piece(Role::Pawn),
        Feature::Piece(Role::Knight),
        Feature::Piece(Role::Bishop),
        Feature::Piece(Role::Rook),
        Feature::Piece(Role::Queen),
        Feature::CastlingRights,
        Feature::BishopPair,
        Feature::Mobility,
        Feature::KingSafety,
        Feature::PassedPawn,
        Feature::IsolatedPawn,
        Feature::DoubledPawn,
    ];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Piece(Role::Pawn) => "pawn",
            Feature::Piece(Role::Knight) => "knight",
            Feature::Piece(Role::Bishop) => "bishop",
            Feature::Piece(Role::Rook) => "rook",
            Feature::Piece(Role::Queen) => "queen",
            Feature::Piece(Role::King) => "king",
            Feature::CastlingRights => "castling right",
            Feature::BishopPair => "bishop pair",
            Feature::Mobility => "mobility",
            Feature::KingSafety => "king safety",
            Feature::PassedPawn => "passed pawn",
            Feature::IsolatedPawn => "isolated pawn",
            Feature::DoubledPawn => "doubled pawn",
        }
    }

    /// A position that differs from `pos` in this feature of `color`'s, and
    /// whether `pos` is the better of the two for `color`; `None` when `pos`
    /// gives no such pair.
    pub fn pair(self, pos: &Chess, color: Color) -> Option<(Chess, bool)> {
        match self {
            Feature::Piece(role) => Some((without_piece(pos, color, role)?, true)),
            Feature::CastlingRights => Some((without_castling(pos, color)?, true)),
            _ if !pos.checkers().is_empty() => None,
            Feature::BishopPair => Some((bishop_to_knight(pos, color)?, true)),
            Feature::Mobility => mobility_pair(pos, color),
            Feature::KingSafety => Some((pushed_shelter(pos, color)?, true)),
            Feature::PassedPawn | Feature::IsolatedPawn | Feature::DoubledPawn => pawn_pair(pos, color, self),
        }
    }
}

/// `pos` without a piece of `role` and `color`: the first (a1 to h8) whose
/// square carries no castling right; only when every such piece does (rooks
/// in their corners) does the right go with the rook. `None` if it has
/// none, or if the result is not a legal position.
pub fn without_piece(pos: &Chess, color: Color, role: Role) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let pieces = setup.board.by_piece(Piece { color, role });
    let square = (pieces & !setup.castling_rights).first().or_else(|| pieces.first())?;
    setup.board.discard_piece_at(square);
    legal(setup)
}

/// `pos` without `color`'s castling rights; `None` if it has none.
pub fn without_castling(pos: &Chess, color: Color) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let before = setup.castling_rights;
    setup.castling_rights = before & !Bitboard::from_rank(color.relative_rank(Rank::First));
    (setup.castling_rights != before).then_some(())?;
    legal(setup)
}

/// `pos` with the first of `color`'s two bishops (on squares of both
/// colours) turned into a knight, both quiet.
fn bishop_to_knight(pos: &Chess, color: Color) -> Option<Chess> {
    let bishops = pos.board().by_piece(Piece { color, role: Role::Bishop });
    let pair =
        bishops.count() == 2 && (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any();
    let square = bishops.first().filter(|&s| pair && quiet(pos.board(), s))?;
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.board.set_piece_at(square, Piece { color, role: Role::Knight });
    quiet(&setup.board, square).then_some(())?;
    legal(setup).filter(|p| p.checkers().is_empty())
}

/// Squares `color`'s knights, bishops, rooks and queens can go to.
pub fn mobility(board: &Board, color: Color) -> usize {
    let own = board.by_color(color);
    let pieces = own & !board.pawns() & !board.kings();
    pieces.into_iter().map(|square| (board.attacks_from(square) & !own).count()).sum()
}

/// One of `color`'s pieces moved where its side's mobility differs most
/// (by [`MOBILITY_GAP`] at least): the first such piece, a1 to h8.
fn mobility_pair(pos: &Chess, color: Color) -> Option<(Chess, bool)> {
    let board = pos.board();
    let (own, theirs) = (mobility(board, color), mobility(board, !color));
    let pieces = board.by_color(color) & !board.pawns() & !board.kings();
    for from in pieces {
        if !quiet(board, from) || near_a_king(board, from) {
            continue;
        }
        let bishop = board.role_at(from) == Some(Role::Bishop);
        let mut best: Option<(usize, Square)> = None;
        for to in !board.occupied() {
            if near_a_king(board, to) || (bishop && to.is_light() != from.is_light()) {
                continue;
            }
            let moved = moved_on_board(board, from, to);
            let gap = mobility(&moved, color).abs_diff(own);
            if gap >= MOBILITY_GAP
                && mobility(&moved, !color) == theirs
                && quiet(&moved, to)
                && best.is_none_or(|(g, _)| gap > g)
            {
                best = Some((gap, to));
            }
        }
        if let Some(moved) = best.and_then(|(_, to)| relocated(pos, from, to)) {
            let original_better = own > mobility(moved.board(), color);
            return Some((moved, original_better));
        }
    }
    None
}

/// `pos` with a pawn of the shelter of `color`'s castled king (on its back
/// rank, not on the d or e file) pushed two squares: the first such pawn,
/// on its second rank, whose path is empty, quiet on both squares, with
/// every pawn-structure count unchanged, the other side having a queen.
fn pushed_shelter(pos: &Chess, color: Color) -> Option<Chess> {
    let board = pos.board();
    let king = board.king_of(color)?;
    let castled = king.rank() == color.relative_rank(Rank::First) && !matches!(king.file(), File::D | File::E);
    let queen = board.by_piece(Piece { color: !color, role: Role::Queen }).any();
    if !castled || !queen {
        return None;
    }
    let forward = if color == Color::White { 8 } else { -8 };
    let structure = PawnStructure::of(board);
    (-1..=1).filter_map(|df| king.file().offset(df)).find_map(|file| {
        let from = Square::from_coords(file, color.relative_rank(Rank::Second));
        let (middle, to) = (from.offset(forward)?, from.offset(2 * forward)?);
        let pawn = board.piece_at(from) == Some(Piece { color, role: Role::Pawn });
        if !pawn || board.occupied().contains(middle) || board.occupied().contains(to) || !quiet(board, from) {
            return None;
        }
        let moved = moved_on_board(board, from, to);
        (quiet(&moved, to) && PawnStructure::of(&moved) == structure).then_some(())?;
        relocated(pos, from, to)
    })
}

/// A pawn of `color`'s moved along its rank to another file, away from its
/// king, where `feature` (passed, isolated or doubled) changes for `color`
/// and no other pawn-structure count of either side does: the first such
/// move, pawns a1 to h8, files a to h.
fn pawn_pair(pos: &Chess, color: Color, feature: Feature) -> Option<(Chess, bool)> {
    let board = pos.board();
    let king = board.king_of(color)?;
    let away = |s: Square| s.file().distance(king.file()) >= 2;
    let before = PawnStructure::of(board);
    for from in board.by_piece(Piece { color, role: Role::Pawn }) {
        if !away(from) || !quiet(board, from) {
            continue;
        }
        for to in Bitboard::from_rank(from.rank()) & !board.occupied() {
            if !away(to) {
                continue;
            }
            let moved = moved_on_board(board, from, to);
            let after = PawnStructure::of(&moved);
            let Some(better) = before.only_change(&after, color, feature) else { continue };
            if !quiet(&moved, to) {
                continue;
            }
            if let Some(position) = relocated(pos, from, to) {
                return Some((position, better));
            }
        }
    }
    None
}

/// Counts of passed, isolated and doubled pawns, per side (White first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnStructure {
    /// Pawns with no enemy pawn ahead on their file or the adjacent ones.
    pub passed: [usize; 2],
    /// Pawns with no pawn of their side on the adjacent files.
    pub isolated: [usize; 2],
    /// Pawns beyond the first on each file.
    pub doubled: [usize; 2],
}

impl PawnStructure {
    /// The counts of `board`.
    pub fn of(board: &Board) -> PawnStructure {
        let mut counts = PawnStructure::default();
        for color in [Color::White, Color::Black] {
            let side = usize::from(color == Color::Black);
            let (own, theirs) = (
                board.by_piece(Piece { color, role: Role::Pawn }),
                board.by_piece(Piece { color: !color, role: Role::Pawn }),
            );
            for file in File::ALL {
                let on_file = (own & Bitboard::from_file(file)).count();
                counts.doubled[side] += on_file.saturating_sub(1);
                if on_file > 0 && (own & neighbours(file)).is_empty() {
                    counts.isolated[side] += on_file;
                }
            }
            for pawn in own {
                let ahead: Bitboard = Rank::ALL
                    .into_iter()
                    .filter(|&r| if color == Color::White { r > pawn.rank() } else { r < pawn.rank() })
                    .map(Bitboard::from_rank)
                    .fold(Bitboard::EMPTY, |a, b| a | b);
                let span = neighbours(pawn.file()) | Bitboard::from_file(pawn.file());
                counts.passed[side] += usize::from((theirs & ahead & span).is_empty());
            }
        }
        counts
    }

    /// If `after` differs from `self` only in `color`'s count of `feature`
    /// (passed, isolated or doubled pawns): whether `self` is the better for
    /// `color` (more passed pawns, fewer isolated or doubled ones).
    fn only_change(&self, after: &PawnStructure, color: Color, feature: Feature) -> Option<bool> {
        let side = usize::from(color == Color::Black);
        let mut before = *self;
        let was = before.count(feature)[side];
        // `after` with `self`'s count of the feature put back: equal to `self`
        // when nothing else changed.
        let mut expected = *after;
        let is = std::mem::replace(&mut expected.count(feature)[side], was);
        (was != is && expected == *self).then_some(if feature == Feature::PassedPawn { was > is } else { was < is })
    }

    /// Both sides' count of `feature` (passed, isolated, else doubled pawns).
    fn count(&mut self, feature: Feature) -> &mut [usize; 2] {
        match feature {
            Feature::PassedPawn => &mut self.passed,
            Feature::IsolatedPawn => &mut self.isolated,
            _ => &mut self.doubled,
        }
    }
}

/// The files beside `file`.
fn neighbours(file: File) -> Bitboard {
    [-1, 1].into_iter().filter_map(|d| file.offset(d)).map(Bitboard::from_file).fold(Bitboard::EMPTY, |a, b| a | b)
}

/// Whether the piece on `square` attacks no enemy piece and no enemy piece
/// attacks it.
fn quiet(board: &Board, square: Square) -> bool {
    let Some(color) = board.color_at(square) else { return false };
    (board.attacks_from(square) & board.by_color(!color)).is_empty()
        && board.attacks_to(square, !color, board.occupied()).is_empty()
}

/// Whether `square` is within two king steps of either king.
fn near_a_king(board: &Board, square: Square) -> bool {
    board.kings().into_iter().any(|king| king.distance(square) <= 2)
}

/// `board` with the piece on `from` moved to `to`.
fn moved_on_board(board: &Board, from: Square, to: Square) -> Board {
    let mut board = board.clone();
    if let Some(piece) = board.remove_piece_at(from) {
        board.set_piece_at(to, piece);
    }
    board
}

/// `pos` with the piece on `from` moved to the empty square `to` (the same
/// side to move), if that is a legal position with no side in check; a
/// piece that carries a castling right stays.
fn relocated(pos: &Chess, from: Square, to: Square) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if setup.castling_rights.contains(from) || setup.board.occupied().contains(to) {
        return None;
    }
    setup.board = moved_on_board(&setup.board, from, to);
    legal(setup).filter(|p| p.checkers().is_empty())
}

/// `setup` (with no en passant square) as a legal position; castling
/// rights a change made invalid (a rook taken from its corner) are dropped.
fn legal(mut setup: Setup) -> Option<Chess> {
    setup.ep_square = None;
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        Err(err) => err.ignore_invalid_castling_rights().ok(),
    }
}
