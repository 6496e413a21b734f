//! Self-play games of a learner's network through core's scalar search (as
//! the engine plays it), for NeuroChess's TD(0) ([`crate::train::learned::neurochess`]).

use deepchess_core::Search;
use deepchess_core::learned::LearnedNet;
use deepchess_core::search::{Event, LearnedEvaluator, Limits, ScalarSearch, zobrist};
use deepchess_core::shakmaty::{Chess, KnownOutcome, Outcome, Position};

/// Bytes of the search's transposition table and of the evaluation cache
/// (small: a self-play search is a few hundred nodes).
const TABLE_BYTES: usize = 1 << 20;

/// A finished self-play game.
#[derive(Clone, Debug)]
pub struct SelfPlayGame {
    /// `s_0` (the start) … `s_T` (the final position).
    pub positions: Vec<Chess>,
    /// The result for White: +1, 0, −1.
    pub white_result: f32,
}

/// Plays `net` against itself from `start`, `nodes` nodes a move, until
/// checkmate, stalemate, insufficient material, the fifty-move rule, a
/// threefold repetition or `max_plies` half-moves (a draw).
pub fn play(net: &LearnedNet, start: Chess, nodes: u64, max_plies: usize) -> SelfPlayGame {
    let mut search = ScalarSearch::new(LearnedEvaluator::new(net.clone(), TABLE_BYTES), TABLE_BYTES);
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    let mut positions = vec![start];
    let mut hashes: Vec<u64> = Vec::new();
    let white_result = loop {
        let pos = positions.last().expect("the start").clone();
        let hash = zobrist(&pos);
        match pos.outcome() {
            Outcome::Known(KnownOutcome::Decisive { winner }) => break if winner.is_white() { 1.0 } else { -1.0 },
            Outcome::Known(KnownOutcome::Draw) => break 0.0,
            Outcome::Unknown => {}
        }
        let repeated = hashes.iter().filter(|&&h| h == hash).count() >= 2;
        if repeated || pos.halfmoves() >= 100 || positions.len() > max_plies {
            break 0.0;
        }
        search.start(pos.clone(), &hashes, limits);
        while search.step(u64::MAX, &mut |_| false) != Event::Finished {}
        let Some(m) = search.best_move() else { break 0.0 };
        hashes.push(hash);
        positions.push(pos.play(m).expect("the search plays legal moves"));
    };
    SelfPlayGame { positions, white_result }
}

#[cfg(test)]
mod tests {
    use deepchess_core::learned::{InputKind, OutputKind};
    use deepchess_core::seeded;

    use super::*;

    /// Every move is legal, and a game ends by the rules (its result then
    /// matches the final position) or at the cap as a draw.
    #[test]
    fn games_follow_the_rules_to_their_end() {
        for seed in 0..6 {
            let net = seeded::learned_net(InputKind::SideToMove768, OutputKind::Tanh, seed);
            let game = play(&net, Chess::default(), 64, 60);
            for pair in game.positions.windows(2) {
                let legal = pair[0].legal_moves().iter().any(|&m| {
                    let mut next = pair[0].clone();
                    next.play_unchecked(m);
                    next.board() == pair[1].board() && next.turn() == pair[1].turn()
                });
                assert!(legal, "seed {seed}: an illegal move");
            }
            let last = game.positions.last().unwrap();
            match last.outcome() {
                Outcome::Known(KnownOutcome::Decisive { winner }) => {
                    assert_eq!(game.white_result, if winner.is_white() { 1.0 } else { -1.0 })
                }
                _ => assert_eq!(game.white_result, 0.0, "seed {seed}"),
            }
            assert!(game.positions.len() <= 61, "seed {seed}: {} positions", game.positions.len());
        }
    }
}
