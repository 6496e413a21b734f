//! The UCI side of [`Engine`]: the handshake (`uci`, the options it
//! offers, `setoption`) and a move (`position startpos moves …`, `go …`,
//! `bestmove`).

use std::time::{Duration, Instant};

use crate::data::Eval;
use crate::play::engine::{Engine, EngineError, GoLimit, HANDSHAKE, Reply};

impl GoLimit {
    /// The UCI `go` command.
    pub fn uci_command(&self) -> String {
        match self {
            GoLimit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            GoLimit::Nodes(n) => format!("go nodes {n}"),
            GoLimit::Depth(d) => format!("go depth {d}"),
            GoLimit::Clock { white, black, white_increment, black_increment } => format!(
                "go wtime {} btime {} winc {} binc {}",
                white.as_millis(),
                black.as_millis(),
                white_increment.as_millis(),
                black_increment.as_millis()
            ),
        }
    }
}

impl Engine {
    /// `uci` → `id name`, the `UCI_LimitStrength` / `UCI_Elo` options if
    /// offered, `uciok`; then `setoption` for each of `options`.
    pub(in crate::play) fn uci_handshake(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        self.send("uci")?;
        let (mut min_elo, mut max_elo, mut limit) = (None, None, false);
        for line in self.read_until("uciok", HANDSHAKE)? {
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            }
            if line.starts_with("option name UCI_LimitStrength") {
                limit = true;
            }
            if line.starts_with("option name UCI_Elo") {
                let number = |key: &str| {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    words.windows(2).find(|w| w[0] == key).and_then(|w| w[1].parse().ok())
                };
                (min_elo, max_elo) = (number("min"), number("max"));
            }
        }
        if let (true, Some(min), Some(max)) = (limit, min_elo, max_elo) {
            self.limit_strength = Some((min, max));
        }
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(())
    }

    /// [`best_move`](Engine::best_move) for a UCI engine.
    pub(in crate::play) fn uci_move(
        &mut self,
        moves: &[String],
        limit: &GoLimit,
        timeout: Duration,
    ) -> Result<Reply, EngineError> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let start = Instant::now();
        self.send(&limit.uci_command())?;
        let lines = self.read_until("bestmove", timeout)?;
        let elapsed = start.elapsed();
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("(none)").to_string();
        let last = lines.iter().rev().find_map(|line| Some((info_score(line)?, info_depth(line))));
        Ok(Reply { best, elapsed, score: last.map(|(score, _)| score), depth: last.and_then(|(_, depth)| depth) })
    }
}

/// The words of an `info` line; `None` for another line and for
/// `info string …`, which is free text.
fn info_words(line: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    (words.first() == Some(&"info") && words.get(1) != Some(&"string")).then_some(words)
}

/// The depth of an `info` line (`info depth 12 …`).
pub fn info_depth(line: &str) -> Option<u32> {
    let words = info_words(line)?;
    let at = words.iter().position(|&w| w == "depth")?;
    words.get(at + 1)?.parse().ok()
}

/// The score of an `info` line, side to move's view: `score cp 35`,
/// `score mate -3` (a `lowerbound` or `upperbound` after it is taken as
/// the score); centipawns beyond `i16` are clamped. `info string` lines are
/// text, not scores.
pub fn info_score(line: &str) -> Option<Eval> {
    let words = info_words(line)?;
    let at = words.iter().position(|&w| w == "score")?;
    let value: i64 = words.get(at + 2)?.parse().ok()?;
    let clamp = |v: i64| v.clamp(i64::from(i16::MIN) + 1, i64::from(i16::MAX)) as i16;
    match *words.get(at + 1)? {
        "cp" => Some(Eval::Cp(clamp(value))),
        "mate" => Some(Eval::Mate(clamp(value))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands() {
        let ms = Duration::from_millis;
        assert_eq!(GoLimit::MoveTime(ms(250)).uci_command(), "go movetime 250");
        assert_eq!(GoLimit::Nodes(800).uci_command(), "go nodes 800");
        assert_eq!(GoLimit::Depth(2).uci_command(), "go depth 2");
        let clock =
            GoLimit::Clock { white: ms(9_500), black: ms(8_000), white_increment: ms(100), black_increment: ms(100) };
        assert_eq!(clock.uci_command(), "go wtime 9500 btime 8000 winc 100 binc 100");
        let odds =
            GoLimit::Clock { white: ms(40_000), black: ms(10_000), white_increment: ms(400), black_increment: ms(100) };
        assert_eq!(odds.uci_command(), "go wtime 40000 btime 10000 winc 400 binc 100");
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(info_score("info depth 12 seldepth 20 score cp -35 nodes 1000 pv e2e4"), Some(Eval::Cp(-35)));
        assert_eq!(info_score("info depth 30 score mate 3 pv d1h5"), Some(Eval::Mate(3)));
        assert_eq!(info_score("info depth 9 score cp 120 lowerbound"), Some(Eval::Cp(120)));
        assert_eq!(info_score("info depth 9 score cp 99999"), Some(Eval::Cp(i16::MAX)));
        assert_eq!(info_score("info string score cp 10"), None);
        assert_eq!(info_score("info depth 3 nodes 40"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
        assert_eq!(info_score("info score wdl 1 2 3"), None);
        assert_eq!(info_depth("info depth 12 seldepth 20 score cp -35 nodes 1000 pv e2e4"), Some(12));
        assert_eq!(info_depth("info string depth 3"), None);
        assert_eq!(info_depth("info nodes 40"), None);
    }
}
