//! What a search node is worth: a position, or an outcome the rules decide.

use core::cmp::Ordering;

use shakmaty::Color;

use crate::search::comparison::comparator::Comparator;

/// A node's worth, ordered from White's point of view.
///
/// The comparison search has no scores. A node is worth the position that
/// play reaches from it (`Position`), or an outcome the rules decide. From
/// worst to best for White:
///
/// `Lowest` < White mated (a quicker mate is worse) < {draws and positions,
/// ordered by the network} < Black mated (a quicker mate is better) < `Highest`.
///
/// A draw's place among positions is defined by the comparator
/// ([`Comparator::versus_draw`]).
#[derive(Clone, Debug)]
pub enum Value<L> {
    /// Below everything: the initial α.
    Lowest,
    /// `winner` checkmates the other side `ply` half-moves from the root.
    Mate {
        /// The side that gives mate.
        winner: Color,
        /// Half-moves from the root to the mated position.
        ply: u32,
    },
    /// A draw by the rules: stalemate, repetition, the 50-move rule or
    /// insufficient material.
    Draw,
    /// A quiet position, judged by the network.
    Position(L),
    /// Above everything: the initial β.
    Highest,
}

impl<L> Value<L> {
    /// Coarse rank; values of different rank compare without the network.
    fn rank(&self) -> u8 {
        match self {
            Value::Lowest => 0,
            Value::Mate { winner: Color::Black, .. } => 1,
            Value::Draw | Value::Position(_) => 2,
            Value::Mate { winner: Color::White, .. } => 3,
            Value::Highest => 4,
        }
    }

    /// Whether the rules decided this value (a mate or a draw).
    pub fn is_decided(&self) -> bool {
        matches!(self, Value::Mate { .. } | Value::Draw)
    }
}

/// Orders two values from White's point of view (`Greater`: `a` is better
/// for White), asking the comparator only when both are draws or positions.
pub fn compare<C: Comparator>(comparator: &mut C, a: &Value<C::Leaf>, b: &Value<C::Leaf>) -> Ordering {
    match a.rank().cmp(&b.rank()) {
        Ordering::Equal => {}
        unequal => return unequal,
    }
    match (a, b) {
        // White is mated in both: the later mate is better for White.
        (Value::Mate { winner: Color::Black, ply: x }, Value::Mate { ply: y, .. }) => x.cmp(y),
        // Black is mated in both: the quicker mate is better for White.
        (Value::Mate { winner: Color::White, ply: x }, Value::Mate { ply: y, .. }) => y.cmp(x),
        (Value::Position(x), Value::Position(y)) => comparator.compare(x, y),
        (Value::Position(x), Value::Draw) => comparator.versus_draw(x),
        (Value::Draw, Value::Position(y)) => comparator.versus_draw(y).reverse(),
        _ => Ordering::Equal,
    }
}
