//! Openings for matches and game generation: one line of UCI moves each.

use std::path::Path;

use anyhow::Context;
use deepchess_core::uci::parse_game;

/// Eight-ply lines of common openings, used when no `--openings` file is
/// given (each is checked for legality on load).
pub const DEFAULT_OPENINGS: &[&str] = &[
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7",
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7",
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8",
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5",
    "g1f3 d7d5 g2g3 g8f6 f1g2 c7c6 e1g1 c8g4",
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4 f8g7",
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4",
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6 g1f3 f8e7",
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3 g7g6",
];

/// Reads openings from `path` (blank lines and `#` comments skipped), or the
/// defaults; every line is checked.
pub fn load(path: Option<&Path>) -> anyhow::Result<Vec<Vec<String>>> {
    let text = match path {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?,
        None => DEFAULT_OPENINGS.join("\n"),
    };
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse_game(None, &moves).map_err(|err| anyhow::anyhow!("opening on line {}: {err}", n + 1))?;
        openings.push(moves);
    }
    anyhow::ensure!(!openings.is_empty(), "no openings");
    Ok(openings)
}
