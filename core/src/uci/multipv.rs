//! MultiPV lines as a GUI reads them: sorted by score within each depth,
//! `multipv 1` the best, and `bestmove` the first move of line 1.
//!
//! An alpha-beta search finds MultiPV lines one after another (the best
//! move, then the best of the rest, …), each in its own window, so a later
//! line can come out better than an earlier one. Stockfish sorts the lines
//! of an iteration before it prints them; so does [`IterationLines`]: it
//! holds an iteration's lines until the last one is in, then hands them out
//! sorted and renumbered. MCTS reports its lines by visits, not through this.

use alloc::vec::Vec;

use shakmaty::Move;

use crate::search::Report;

/// What `info` lines carry besides the report: the search's counters when
/// the latest line came in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Stats {
    pub nodes: u64,
    pub hashfull: u32,
    /// ms since `go`.
    pub elapsed: u64,
}

/// The lines of the iteration under way, and line 1's move as last printed.
#[derive(Clone, Debug, Default)]
pub(super) struct IterationLines {
    pending: Vec<Report>,
    stats: Stats,
    best: Option<Move>,
}

impl IterationLines {
    /// Adds a line that just completed (`expected` lines make an
    /// iteration); when it completes the iteration, returns its lines sorted
    /// best first and numbered from 1, with the counters to print them with.
    pub fn add(&mut self, report: Report, stats: Stats, expected: usize) -> Option<(Vec<Report>, Stats)> {
        // A line at a new depth starts a new iteration (the last one was cut short).
        if self.pending.first().is_some_and(|first| first.depth != report.depth) {
            self.pending.clear();
        }
        self.pending.push(report);
        self.stats = stats;
        (self.pending.len() >= expected).then(|| self.take())
    }

    /// The lines of an iteration that will not complete (the search
    /// stops), sorted and numbered as [`add`](Self::add) gives them; none
    /// if it had none.
    pub fn flush(&mut self) -> Option<(Vec<Report>, Stats)> {
        (!self.pending.is_empty()).then(|| self.take())
    }

    /// Line 1's first move, as last handed out.
    pub fn best(&self) -> Option<Move> {
        self.best
    }

    fn take(&mut self) -> (Vec<Report>, Stats) {
        let mut lines = core::mem::take(&mut self.pending);
        // Stable: equal scores keep the order they were found in.
        lines.sort_by_key(|line| core::cmp::Reverse(line.score.rank()));
        for (k, line) in lines.iter_mut().enumerate() {
            line.multipv = k + 1;
        }
        self.best = lines.first().and_then(|line| line.pv.first().copied()).or(self.best.take());
        (lines, self.stats)
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use shakmaty::{Chess, Position};

    use super::*;
    use crate::search::Score;

    fn line(depth: u32, multipv: usize, score: Score, m: &Move) -> Report {
        Report { depth, seldepth: depth, multipv, score, pv: vec![*m] }
    }

    #[test]
    fn an_iteration_comes_out_sorted_and_renumbered() {
        let moves = Chess::default().legal_moves();
        let mut lines = IterationLines::default();
        let stats = |elapsed| Stats { nodes: 10 * elapsed, hashfull: 1, elapsed };
        assert!(lines.add(line(5, 1, Score::Cp(10), &moves[0]), stats(1), 3).is_none());
        assert!(lines.add(line(5, 2, Score::Cp(-30), &moves[1]), stats(2), 3).is_none());
        let (sorted, at) = lines.add(line(5, 3, Score::Cp(25), &moves[2]), stats(3), 3).expect("complete");
        assert_eq!(at, stats(3));
        let order: Vec<(usize, Score, Move)> = sorted.iter().map(|l| (l.multipv, l.score, l.pv[0])).collect();
        assert_eq!(order, [(1, Score::Cp(25), moves[2]), (2, Score::Cp(10), moves[0]), (3, Score::Cp(-30), moves[1])]);
        assert_eq!(lines.best(), Some(moves[2]));
        assert!(lines.flush().is_none());
    }

    #[test]
    fn mates_rank_above_and_below_centipawns_and_a_cut_iteration_flushes() {
        let moves = Chess::default().legal_moves();
        let mut lines = IterationLines::default();
        lines.add(line(7, 1, Score::Cp(900), &moves[0]), Stats::default(), 3);
        lines.add(line(7, 2, Score::Mate(-2), &moves[1]), Stats::default(), 3);
        // Depth 8 begins before depth 7's third line: depth 7's lines are dropped.
        lines.add(line(8, 1, Score::Mate(-3), &moves[3]), Stats::default(), 3);
        lines.add(line(8, 2, Score::Mate(4), &moves[4]), Stats::default(), 3);
        let (sorted, _) = lines.flush().expect("two lines");
        let order: Vec<(usize, Score)> = sorted.iter().map(|l| (l.multipv, l.score)).collect();
        assert_eq!(order, [(1, Score::Mate(4)), (2, Score::Mate(-3))]);
        assert_eq!(lines.best(), Some(moves[4]));
    }
}
