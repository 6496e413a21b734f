//! How long to think.

use shakmaty::Color;

use crate::uci::command::Go;

/// When to stop: `soft` is checked between iterations (no new iteration
/// starts after it), `hard` during the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Milliseconds after which no new iteration starts.
    pub soft: u64,
    /// Milliseconds after which the search stops.
    pub hard: u64,
}

/// Default moves to the next time control when the GUI gives none.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

impl TimeBudget {
    /// The budget for `go`, or `None` when it sets no time limit.
    ///
    /// With a clock: `overhead` is kept in reserve for the GUI and the pipe;
    /// of the rest, a `1 / movestogo` share (default
    /// [`DEFAULT_MOVES_TO_GO`]) plus three quarters of the increment is the
    /// soft limit, and the hard limit is four times that, never more than
    /// half of what remains.
    ///
    /// ```
    /// use deepchess_core::uci::{Go, TimeBudget};
    /// use shakmaty::Color;
    ///
    /// // 10 s + 0.1 s: about 0.4 s a move, 1.6 s at most.
    /// let go = Go { wtime: Some(10_000), winc: Some(100), ..Go::default() };
    /// assert_eq!(TimeBudget::new(&go, Color::White, 30), Some(TimeBudget { soft: 407, hard: 1_628 }));
    /// ```
    pub fn new(go: &Go, turn: Color, overhead: u64) -> Option<TimeBudget> {
        if go.infinite {
            return None;
        }
        if let Some(movetime) = go.movetime {
            let ms = movetime.saturating_sub(overhead).max(1);
            return Some(TimeBudget { soft: ms, hard: ms });
        }
        let (time, inc) = match turn {
            Color::White => (go.wtime?, go.winc.unwrap_or(0)),
            Color::Black => (go.btime?, go.binc.unwrap_or(0)),
        };
        let remaining = time.saturating_sub(overhead);
        let moves_to_go = go.movestogo.map_or(DEFAULT_MOVES_TO_GO, u64::from).clamp(1, 50);
        let hard_cap = remaining / 2;
        let soft = (remaining / moves_to_go + inc * 3 / 4).min(hard_cap).max(1);
        let hard = (soft * 4).min(hard_cap).max(soft);
        Some(TimeBudget { soft, hard })
    }
}
