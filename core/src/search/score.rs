//! The score UCI reports: centipawns from the network's confidence, or an
//! exact mate distance from the rules.

use core::fmt;

/// Largest centipawn score reported for a position.
pub const MAX_CP: i32 = 5000;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, on the scale of [`Score::cp_from_logit`].
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// A key that orders scores from the side to move's point of view:
    /// a mate it gives (sooner first) above any centipawn score, and a mate
    /// it suffers (later first) below any.
    ///
    /// ```
    /// use deepchess_core::search::Score;
    /// let order = [Score::Mate(1), Score::Mate(3), Score::Cp(5000), Score::Cp(-20), Score::Mate(-4), Score::Mate(-1)];
    /// assert!(order.windows(2).all(|w| w[0].rank() > w[1].rank()));
    /// ```
    pub fn rank(self) -> i64 {
        const MATE: i64 = 1 << 32;
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => MATE - i64::from(n),
            Score::Mate(n) => -MATE - i64::from(n),
        }
    }

    /// Maps the network's confidence onto centipawns.
    ///
    /// The comparison search has no centipawns. What it has is `p`, the
    /// network's probability that the principal variation's last position is
    /// better for White than a draw (than its own mirror image, see
    /// [`NetComparator`](super::NetComparator)). That is mapped with the
    /// logistic scale of Elo ratings, `cp = 400 · log10(p / (1 − p))`, so a
    /// 64% preference reads +100 and 91% reads +400. `logit` is
    /// `ln(p / (1 − p))`. The map is monotone and clamped to ±[`MAX_CP`].
    ///
    /// ```
    /// use deepchess_core::search::Score;
    ///
    /// assert_eq!(Score::cp_from_logit(0.0), 0);
    /// assert_eq!(Score::cp_from_logit((0.64f32 / 0.36).ln()), 100);
    /// assert_eq!(Score::cp_from_logit(1e9), 5000);
    /// ```
    pub fn cp_from_logit(logit: f32) -> i32 {
        let cp = 400.0 * logit / core::f32::consts::LN_10;
        if cp.is_nan() { 0 } else { (libm::roundf(cp) as i32).clamp(-MAX_CP, MAX_CP) }
    }
}

/// `cp 35` or `mate -3`, as in a UCI `info` line.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}
