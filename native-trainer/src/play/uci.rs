//! The UCI side of [`Engine`]: the handshake (`uci`, the options it
//! offers, `setoption`) and a move (`position startpos moves …`, `go …`,
//! `bestmove`).

use std::time::{Duration, Instant};

use crate::play::engine::{Engine, EngineError, GoLimit, HANDSHAKE};

impl GoLimit {
    /// The UCI `go` command.
    pub fn uci_command(&self) -> String {
        match self {
            GoLimit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            GoLimit::Nodes(n) => format!("go nodes {n}"),
            GoLimit::Clock { white, black, increment } => format!(
                "go wtime {} btime {} winc {} binc {}",
                white.as_millis(),
                black.as_millis(),
                increment.as_millis(),
                increment.as_millis()
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
    ) -> Result<(String, Duration), EngineError> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let start = Instant::now();
        self.send(&limit.uci_command())?;
        let lines = self.read_until("bestmove", timeout)?;
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("(none)").to_string();
        Ok((best, start.elapsed()))
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
        let clock = GoLimit::Clock { white: ms(9_500), black: ms(8_000), increment: ms(100) };
        assert_eq!(clock.uci_command(), "go wtime 9500 btime 8000 winc 100 binc 100");
    }
}
