//! Which positions of a game become training records (the paper's rule).

use deepchess_core::shakmaty::Position;
use rand::rngs::SmallRng;
use rand::{SeedableRng, seq::index};

use crate::data::game::Game;
use crate::data::record::{GameResult, Record};

/// The sampling rule. The defaults are the paper's: up to 10 random
/// positions from each decisive game, none from the first 5 moves, none where
/// the move played is a capture.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Sampling {
    /// Positions drawn from each game.
    pub per_game: usize,
    /// Full moves at the start of each game that are never sampled.
    pub skip_moves: u32,
    /// Keep drawn games (for W/D/L objectives).
    pub include_draws: bool,
    /// Keep every eligible position instead of `per_game` random ones.
    pub all_positions: bool,
    /// Keep positions whose move played is a capture (the paper leaves them
    /// out; Deep Pink's triplets need them).
    pub include_captures: bool,
    /// Leave out positions whose side to move is in check, as the engines
    /// that learn from their own games do: a search never stands pat on
    /// one, so its static evaluation is never read (the paper keeps them).
    pub skip_checks: bool,
    /// Seed; the same seed and input give the same records.
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Sampling {
        Sampling {
            per_game: 10,
            skip_moves: 5,
            include_draws: false,
            all_positions: false,
            include_captures: false,
            skip_checks: false,
            seed: 2016,
        }
    }
}

impl Sampling {
    /// Indices (ascending) of the plies of `game` to keep. `game_index`
    /// seeds the draw, so a game's sample does not depend on the games before it.
    pub fn sample(&self, game_index: u32, game: &Game) -> Vec<usize> {
        if game.result == GameResult::Draw && !self.include_draws {
            return Vec::new();
        }
        let first = 2 * self.skip_moves as usize;
        let eligible: Vec<usize> = (first..game.plies.len())
            .filter(|&i| self.include_captures || !game.plies[i].played.is_capture())
            .filter(|&i| !self.skip_checks || !game.plies[i].position.is_check())
            .collect();
        if self.all_positions || eligible.len() <= self.per_game {
            return eligible;
        }
        let mut rng = SmallRng::seed_from_u64(mix(self.seed, u64::from(game_index)));
        let mut chosen: Vec<usize> =
            index::sample(&mut rng, eligible.len(), self.per_game).into_iter().map(|i| eligible[i]).collect();
        chosen.sort_unstable();
        chosen
    }
}

impl Sampling {
    /// The records of the plies [`sample`](Self::sample) keeps.
    pub fn records(&self, game_index: u32, game: &Game) -> Vec<Record> {
        self.sample(game_index, game)
            .into_iter()
            .map(|i| {
                let ply = &game.plies[i];
                Record::new(&ply.position, ply.played, i as u32, game.result, ply.eval, game_index)
            })
            .collect()
    }
}

/// A 64-bit mix of two values (splitmix64's finalizer), for per-game seeds
/// and the train/validation split.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
