//! Temporal-difference steps from whole games, for NeuroChess's TD(0)
//! ([`crate::train::learned::neurochess`]).
//!
//! A game is its positions `s_0 … s_T` (`s_T` the final one) and its result.
//! As in Thrun's NeuroChess, a position's value is fitted to the discounted
//! value of the position two plies later, where the same side is to move:
//! `V(s_t) ← γ V(s_{t+2})`, and the final outcome is the only reward. Values
//! are from the side to move's point of view (+1 a win, 0 a draw, −1 a loss):
//!
//! - `t + 2 < T`: the target is `γ V(s_{t+2})`, read from the network;
//! - `t + 2 = T`: `γ z`, `z` the result for the side to move at `s_t`
//!   (the final position's value is its outcome, not the network's);
//! - `t ≥ T − 1`: `z` itself (the game ends within a ply).
//!
//! Each step also says whether `s_t` is quiescent ([`quiescent`]): NeuroChess
//! can learn from quiescent boards only.

use std::ops::Range;

use deepchess_core::learned::InputKind;
use deepchess_core::search::see_ge;
use deepchess_core::shakmaty::{Chess, Color, Move, Position};

use crate::data::{GameResult, Record};

/// One TD(0) step.
#[derive(Clone, Debug)]
pub struct Step {
    /// The position `s_t`'s active inputs.
    pub now: Vec<u16>,
    /// `s_{t+2}`'s, when the game lasts that long (the chess model of EBNN
    /// learns to predict it).
    pub later: Option<Vec<u16>>,
    /// The target when the game's outcome gives it (see the module docs);
    /// `None`: `γ V(later)`.
    pub outcome: Option<f32>,
    /// The game's result for the side to move at `s_t`: +1, 0 or −1.
    pub result: f32,
    /// Whether `s_t` is [`quiescent`].
    pub quiescent: bool,
}

/// Whether `pos` is quiescent: the side to move is not in check, cannot
/// promote, and no capture wins material by static exchange (nothing
/// hangs), so that a static judgement of it is not about to be overturned
/// by an exchange.
pub fn quiescent(pos: &Chess) -> bool {
    let unsettled = |m: &Move| m.is_promotion() || (m.is_capture() && see_ge(pos, *m, 1));
    !pos.is_check() && !pos.legal_moves().iter().any(unsettled)
}

/// The TD steps of the game `positions` (`s_0 … s_T`), whose result for
/// White is `white_result` (+1, 0, −1), each position encoded as `input` says.
pub fn game_steps(positions: &[Chess], white_result: f32, gamma: f32, input: InputKind) -> Vec<Step> {
    let Some(last) = positions.len().checked_sub(1) else { return Vec::new() };
    let active: Vec<Vec<u16>> = positions.iter().map(|p| input.active(p)).collect();
    (0..=last)
        .map(|t| {
            let result = if positions[t].turn() == Color::White { white_result } else { -white_result };
            let outcome = match t + 2 {
                u if u < last => None,
                u if u == last => Some(gamma * result),
                _ => Some(result),
            };
            let quiescent = quiescent(&positions[t]);
            Step { now: active[t].clone(), later: active.get(t + 2).cloned(), outcome, result, quiescent }
        })
        .collect()
}

/// A game's result for White: +1, 0, −1.
pub fn white_result(result: GameResult) -> f32 {
    match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => -1.0,
        GameResult::Draw => 0.0,
    }
}

/// The whole games of a dataset split: runs of records of one game, one
/// ply after another, that reach the game's end.
#[derive(Clone, Debug, Default)]
pub struct Games {
    spans: Vec<Range<usize>>,
    /// Games left out because their records have a gap (a dataset built
    /// without `--all-positions --include-captures`).
    pub with_gaps: usize,
}

impl Games {
    /// The games of `records` (as `data build --all-positions
    /// --include-captures` writes them: each game's records together, in
    /// order). A game whose records skip a ply keeps only its last run,
    /// which ends at the game's end, and counts in [`Games::with_gaps`].
    pub fn new(records: &[Record]) -> Games {
        let mut games = Games::default();
        let (mut start, mut gap) = (0, false);
        for i in 1..=records.len() {
            if i == records.len() || records[i].game() != records[start].game() {
                games.spans.push(start..i);
                games.with_gaps += usize::from(gap);
                (start, gap) = (i, false);
            } else if records[i].ply() != records[i - 1].ply() + 1 {
                // A gap: what came before it cannot reach the game's end.
                (start, gap) = (i, true);
            }
        }
        games
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Game `index`'s positions `s_0 … s_T`, the final one after the last
    /// move played, and its result for White; `None` for a damaged record.
    pub fn positions(&self, records: &[Record], index: usize) -> Option<(Vec<Chess>, f32)> {
        let span = &records[self.spans[index].clone()];
        let mut positions: Vec<Chess> = span.iter().map(Record::position).collect::<Option<_>>()?;
        let last = positions.last()?.clone();
        let played = span.last()?.played().to_move(&last).ok()?;
        positions.push(last.play(played).ok()?);
        Some((positions, white_result(span.last()?.result()?)))
    }
}

#[cfg(test)]
mod tests {
    use deepchess_core::seeded;

    use super::*;

    fn game(plies: usize, seed: u64) -> Vec<Chess> {
        seeded::playout(plies, seed).into_iter().map(|(pos, _)| pos).collect()
    }

    #[test]
    fn steps_look_two_plies_ahead_and_end_at_the_outcome() {
        let positions = game(8, 3);
        let last = positions.len() - 1;
        let steps = game_steps(&positions, 1.0, 0.5, InputKind::SideToMove768);
        assert_eq!(steps.len(), positions.len());
        for (t, step) in steps.iter().enumerate() {
            let white = positions[t].turn() == Color::White;
            assert_eq!(step.result, if white { 1.0 } else { -1.0 });
            assert_eq!(step.now, InputKind::SideToMove768.active(&positions[t]));
            assert_eq!(step.later.is_some(), t + 2 <= last);
            let expected = match t + 2 {
                u if u < last => None,
                u if u == last => Some(0.5 * step.result),
                _ => Some(step.result),
            };
            assert_eq!(step.outcome, expected, "ply {t} of {last}");
        }
    }

    #[test]
    fn quiescent_boards_have_no_check_and_nothing_hanging() {
        use deepchess_core::shakmaty::CastlingMode;
        use deepchess_core::shakmaty::fen::Fen;
        let pos = |fen: &str| -> Chess { fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap() };
        // The start; a pawn defended by a pawn (taking it loses the rook).
        assert!(quiescent(&Chess::default()));
        assert!(quiescent(&pos("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1")));
        // An undefended pawn on d5 hangs to the rook.
        assert!(!quiescent(&pos("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1")));
        // Equal trades are quiet: a knight takes a knight defended by a pawn.
        assert!(quiescent(&pos("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1")));
        // In check; a promotion.
        assert!(!quiescent(&pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")));
        assert!(!quiescent(&pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")));
        let steps = game_steps(&[Chess::default()], 0.0, 0.98, InputKind::SideToMove768);
        assert!(steps[0].quiescent);
    }

    #[test]
    fn games_are_whole_runs_of_plies_and_gaps_are_counted() {
        let mut records = Vec::new();
        for (g, plies) in [(0u32, 12usize), (1, 9), (2, 14)] {
            let line = seeded::playout(plies, u64::from(g));
            for (ply, (pos, m)) in line.iter().enumerate() {
                let Some(m) = m else { break };
                // Game 2 loses ply 4: only what follows the gap is kept.
                if g == 2 && ply == 4 {
                    continue;
                }
                records.push(Record::new(pos, *m, ply as u32, GameResult::BlackWins, None, g));
            }
        }
        let games = Games::new(&records);
        assert_eq!((games.len(), games.with_gaps), (3, 1));
        let (positions, result) = games.positions(&records, 0).unwrap();
        assert_eq!(result, -1.0);
        let line = game(12, 0);
        assert_eq!(positions.len(), line.len());
        assert_eq!(positions.last().unwrap().board(), line.last().unwrap().board());
        let (positions, _) = games.positions(&records, 2).unwrap();
        assert_eq!(positions[0].board(), game(14, 2)[5].board());
    }
}
