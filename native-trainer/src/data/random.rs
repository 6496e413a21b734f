//! Records of random play, for benchmarks and tests that need positions
//! without a game collection.

use deepchess_core::seeded;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::record::{GameResult, Record};

/// `count` positions reached by random legal play from the start (core's
/// [`seeded::playout`], 10 to 99 plies), each with the move played from it
/// and a random decisive result.
pub fn random_records(count: usize, seed: u64) -> Vec<Record> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut records = Vec::with_capacity(count);
    while records.len() < count {
        let game = seeded::playout(rng.random_range(10..100), rng.random());
        // The last position of the game that has a move played from it.
        if let Some((ply, pos, played)) =
            game.iter().enumerate().rev().find_map(|(ply, (pos, played))| played.map(|m| (ply, pos, m)))
        {
            let result = if rng.random_bool(0.5) { GameResult::WhiteWins } else { GameResult::BlackWins };
            records.push(Record::new(pos, played, ply as u32, result, None, records.len() as u32));
        }
    }
    records
}
