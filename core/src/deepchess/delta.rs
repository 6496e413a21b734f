//! The change in active input bits made by one move.

use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use crate::arch::SIDE_TO_MOVE_INDEX;
use crate::deepchess::features::{CASTLING_BITS, castling_index, mirror_index, piece_index};

/// Most bits a move can add: king and rook of a castle, and the side-to-move bit.
pub const MAX_ADDED: usize = 4;
/// Most bits a move can remove: the mover, a captured piece, three castling
/// rights (a king capturing a rook in its corner) and the side-to-move bit.
pub const MAX_REMOVED: usize = 8;

/// The input bits a move sets and clears.
///
/// It covers captures, promotions, castling, en passant, lost castling rights
/// and the side-to-move bit, so that an [`Accumulator`](crate::Accumulator)
/// can follow a game by adding and subtracting a few weight rows.
///
/// ```
/// use deepchess_core::{FeatureDelta, Features};
/// use shakmaty::{Chess, Position, uci::UciMove};
///
/// let before = Chess::default();
/// let m = "e2e4".parse::<UciMove>()?.to_move(&before)?;
/// let mut after = before.clone();
/// after.play_unchecked(m);
/// let delta = FeatureDelta::new(&before, m, &after);
/// assert_eq!(delta.added(), &[28]); // white pawn on e4
/// assert_eq!(delta.removed(), &[12, 768]); // white pawn on e2, White to move
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDelta {
    added: [u16; MAX_ADDED],
    removed: [u16; MAX_REMOVED],
    n_added: u8,
    n_removed: u8,
}

impl FeatureDelta {
    /// The delta of `m`, played in `before`, which led to `after`.
    ///
    /// `after` supplies the castling rights that remain, so the rules for
    /// losing them stay in shakmaty.
    pub fn new(before: &Chess, m: Move, after: &Chess) -> FeatureDelta {
        let mut delta = FeatureDelta { added: [0; MAX_ADDED], removed: [0; MAX_REMOVED], n_added: 0, n_removed: 0 };
        let us = before.turn();
        let ours = |role| Piece { color: us, role };
        let theirs = |role| Piece { color: !us, role };
        match m {
            Move::Normal { role, from, capture, to, promotion } => {
                delta.remove(piece_index(ours(role), from));
                if let Some(captured) = capture {
                    delta.remove(piece_index(theirs(captured), to));
                }
                delta.add(piece_index(ours(promotion.unwrap_or(role)), to));
            }
            Move::EnPassant { from, to } => {
                delta.remove(piece_index(ours(Role::Pawn), from));
                delta.remove(piece_index(theirs(Role::Pawn), Square::from_coords(to.file(), from.rank())));
                delta.add(piece_index(ours(Role::Pawn), to));
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                delta.remove(piece_index(ours(Role::King), king));
                delta.remove(piece_index(ours(Role::Rook), rook));
                delta.add(piece_index(ours(Role::King), side.king_to(us)));
                delta.add(piece_index(ours(Role::Rook), side.rook_to(us)));
            }
            // Drops exist only in Crazyhouse, which `Chess` never generates.
            Move::Put { role, to } => delta.add(piece_index(ours(role), to)),
        }
        match us {
            Color::White => delta.remove(SIDE_TO_MOVE_INDEX),
            Color::Black => delta.add(SIDE_TO_MOVE_INDEX),
        }
        let (had, has) = (before.castles(), after.castles());
        for (color, side) in CASTLING_BITS {
            match (had.has(color, side), has.has(color, side)) {
                (true, false) => delta.remove(castling_index(color, side)),
                (false, true) => delta.add(castling_index(color, side)),
                _ => {}
            }
        }
        delta.cancel_common();
        delta
    }

    /// The delta of a null move (the side to move passes) by `turn`: only
    /// the side-to-move bit changes. The scalar search's null-move pruning
    /// uses it.
    ///
    /// ```
    /// use deepchess_core::FeatureDelta;
    /// use shakmaty::Color;
    ///
    /// assert_eq!(FeatureDelta::null(Color::White).removed(), &[768]);
    /// assert_eq!(FeatureDelta::null(Color::Black).added(), &[768]);
    /// ```
    pub fn null(turn: Color) -> FeatureDelta {
        let mut delta = FeatureDelta { added: [0; MAX_ADDED], removed: [0; MAX_REMOVED], n_added: 0, n_removed: 0 };
        match turn {
            Color::White => delta.remove(SIDE_TO_MOVE_INDEX),
            Color::Black => delta.add(SIDE_TO_MOVE_INDEX),
        }
        delta
    }

    /// The same move seen in the colour mirror images of the positions (see
    /// [`Features::mirrored`](crate::Features::mirrored)): pieces and
    /// castling rights change colour and rank, and since the mirror's side to
    /// move is the other one, the side-to-move bit is set where the move
    /// cleared it and cleared where the move set it.
    ///
    /// ```
    /// use deepchess_core::{FeatureDelta, Features};
    /// use shakmaty::{Chess, Position, uci::UciMove};
    ///
    /// let before = Chess::default();
    /// let m = "e2e4".parse::<UciMove>()?.to_move(&before)?;
    /// let mut after = before.clone();
    /// after.play_unchecked(m);
    /// let delta = FeatureDelta::new(&before, m, &after).mirrored();
    /// // Black's pawn leaves e7 for e5, and White is now to move.
    /// let mut added = delta.added().to_vec();
    /// added.sort();
    /// assert_eq!(added, [384 + 36, 768]);
    /// assert_eq!(delta.removed(), &[384 + 52]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn mirrored(&self) -> FeatureDelta {
        let mut delta = FeatureDelta { added: [0; MAX_ADDED], removed: [0; MAX_REMOVED], n_added: 0, n_removed: 0 };
        for &index in self.added() {
            match mirror_index(index) {
                None => delta.remove(SIDE_TO_MOVE_INDEX),
                Some(flipped) => delta.add(flipped),
            }
        }
        for &index in self.removed() {
            match mirror_index(index) {
                None => delta.add(SIDE_TO_MOVE_INDEX),
                Some(flipped) => delta.remove(flipped),
            }
        }
        delta
    }

    fn add(&mut self, index: u16) {
        if let Some(slot) = self.added.get_mut(usize::from(self.n_added)) {
            *slot = index;
            self.n_added += 1;
        }
    }

    fn remove(&mut self, index: u16) {
        if let Some(slot) = self.removed.get_mut(usize::from(self.n_removed)) {
            *slot = index;
            self.n_removed += 1;
        }
    }

    /// A Chess960 castle can leave the king or the rook where it stood;
    /// such a bit is both removed and added, so drop it from both lists.
    fn cancel_common(&mut self) {
        let mut i = 0;
        while i < usize::from(self.n_added) {
            let index = self.added[i];
            if let Some(j) = self.removed().iter().position(|&r| r == index) {
                self.n_added -= 1;
                self.added[i] = self.added[usize::from(self.n_added)];
                self.n_removed -= 1;
                self.removed[j] = self.removed[usize::from(self.n_removed)];
            } else {
                i += 1;
            }
        }
    }

    /// Bits the move sets.
    pub fn added(&self) -> &[u16] {
        &self.added[..usize::from(self.n_added)]
    }

    /// Bits the move clears.
    pub fn removed(&self) -> &[u16] {
        &self.removed[..usize::from(self.n_removed)]
    }
}
