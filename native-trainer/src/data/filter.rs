//! Which replayed games a build keeps: one copy of each game across all the
//! inputs, players above a rating where the headers give one, and games long
//! enough to matter.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::data::game::{Game, SkipReason};

/// The filters of `data build`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GameFilter {
    /// Both players rated at least this, where the game's `WhiteElo` and
    /// `BlackElo` tags hold ratings; games without them are kept (engine
    /// games, old games).
    pub min_elo: Option<u32>,
    /// At least this many half-moves.
    pub min_plies: usize,
    /// Keep one copy of each game (the same moves and result), across inputs.
    pub dedup: bool,
}

/// Applies a [`GameFilter`] game by game; remembers the games kept so far.
#[derive(Debug, Default)]
pub struct Filtering {
    filter: GameFilter,
    seen: HashSet<u64>,
}

impl Filtering {
    /// A filter with no game seen yet.
    pub fn new(filter: GameFilter) -> Filtering {
        Filtering { filter, seen: HashSet::new() }
    }

    /// Why `game` is left out, or `None` to keep it (and, with dedup,
    /// remember it). Rating and length are checked before duplicates, so a
    /// game left out for those does not hide a later copy.
    pub fn check(&mut self, game: &Game) -> Option<SkipReason> {
        if let Some(min) = self.filter.min_elo
            && game.elo.iter().flatten().any(|&elo| elo < min)
        {
            return Some(SkipReason::LowElo);
        }
        if game.plies.len() < self.filter.min_plies {
            return Some(SkipReason::TooShort);
        }
        if self.filter.dedup && !self.seen.insert(game_key(game)) {
            return Some(SkipReason::Duplicate);
        }
        None
    }
}

/// A 64-bit key of a game's moves and result. SipHash with fixed keys
/// (`DefaultHasher::new`), so the key is the same in every run; a false
/// duplicate among a million games has a probability of about 3 × 10⁻⁸.
pub fn game_key(game: &Game) -> u64 {
    let mut hasher = DefaultHasher::new();
    game.result.hash(&mut hasher);
    for ply in &game.plies {
        let m = ply.played;
        (m.from().map(u8::from), u8::from(m.to()), m.promotion().map(|r| r as u8)).hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::game::GameReader;
    use pgn_reader::Reader;

    fn read(pgn: &str) -> Vec<Game> {
        let mut reader = Reader::new(pgn.as_bytes());
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut GameReader).unwrap() {
            games.push(game.unwrap());
        }
        games
    }

    const GAMES: &str = r#"[WhiteElo "2500"]
[BlackElo "2100"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[WhiteElo "?"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"#;

    #[test]
    fn ratings_are_read_where_the_tags_hold_them() {
        let games = read(GAMES);
        assert_eq!(games[0].elo, [Some(2500), Some(2100)]);
        assert_eq!(games[1].elo, [None, None]);
    }

    #[test]
    fn duplicates_rating_and_length_filters() {
        let games = read(GAMES);
        let verdicts = |filter| {
            let mut filtering = Filtering::new(filter);
            games.iter().map(|g| filtering.check(g)).collect::<Vec<_>>()
        };
        assert_eq!(verdicts(GameFilter::default()), [None, None, None, None], "no filter keeps everything");
        let dedup = GameFilter { dedup: true, ..GameFilter::default() };
        assert_eq!(
            verdicts(dedup),
            [None, Some(SkipReason::Duplicate), None, Some(SkipReason::Duplicate)],
            "the same moves and result are one game, whatever the tags"
        );
        // A game under the rating limit is left out, and does not hide its copy.
        let elo = GameFilter { min_elo: Some(2200), dedup: true, ..GameFilter::default() };
        assert_eq!(verdicts(elo), [Some(SkipReason::LowElo), None, None, Some(SkipReason::Duplicate)]);
        let short = GameFilter { min_plies: 5, ..GameFilter::default() };
        assert_eq!(verdicts(short), [None, None, Some(SkipReason::TooShort), None]);
    }

    #[test]
    fn the_key_depends_on_moves_and_result() {
        let games = read(GAMES);
        assert_eq!(game_key(&games[0]), game_key(&games[1]));
        assert_ne!(game_key(&games[0]), game_key(&games[2]));
        let mut drawn = games[0].clone();
        drawn.result = crate::data::GameResult::Draw;
        assert_ne!(game_key(&games[0]), game_key(&drawn));
    }
}
