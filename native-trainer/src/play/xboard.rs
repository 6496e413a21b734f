//! The xboard side of [`Engine`] (CECP version 2, as Phalanx and GNU Chess
//! speak it). Each move sets the game up again with `new`, `force` and the
//! moves so far, gives the clocks (`level`, `time`, `otim`) or a fixed time
//! (`st`), sends `go`, and reads `move …`.

use std::time::{Duration, Instant};

use crate::play::engine::{Engine, EngineError, GoLimit};

/// The xboard commands that set `limit` for the side to move (`white`):
/// the clocks as `level`, `time` and `otim` (centiseconds), a fixed time as
/// `st` (whole seconds, at least 1); xboard has no node limit, so `Nodes`
/// becomes `st 1`.
pub fn limit_commands(limit: &GoLimit, white: bool) -> Vec<String> {
    match *limit {
        GoLimit::Clock { white: wtime, black: btime, white_increment, black_increment } => {
            let (mine, theirs) = if white { (wtime, btime) } else { (btime, wtime) };
            let increment = if white { white_increment } else { black_increment };
            let base = mine.as_secs();
            vec![
                format!("level 0 {}:{:02} {}", base / 60, base % 60, increment.as_secs()),
                format!("time {}", mine.as_millis() / 10),
                format!("otim {}", theirs.as_millis() / 10),
            ]
        }
        GoLimit::MoveTime(t) => vec![format!("st {}", t.as_millis().div_ceil(1000).max(1))],
        GoLimit::Nodes(_) => vec!["st 1".to_string()],
        GoLimit::Depth(d) => vec![format!("sd {d}")],
    }
}

impl Engine {
    /// [`best_move`](Engine::best_move) for an xboard engine: `new`, `force`
    /// and the moves so far, the limit ([`limit_commands`]), `go`, then
    /// `move …`.
    pub(in crate::play) fn xboard_move(
        &mut self,
        moves: &[String],
        limit: &GoLimit,
        timeout: Duration,
    ) -> Result<(String, Duration), EngineError> {
        let white = moves.len().is_multiple_of(2);
        self.send("new")?;
        self.send("force")?;
        for m in moves {
            self.send(m)?;
        }
        for command in limit_commands(limit, white) {
            self.send(&command)?;
        }
        let start = Instant::now();
        self.send("go")?;
        let answer = |line: &str| line.starts_with("move ") || line.contains("move is: ") || line.starts_with("resign");
        let lines = self.read_until_line("move", answer, timeout)?;
        let elapsed = start.elapsed();
        // `move e2e4` (or `My move is: e2e4` from old engines); a resignation
        // is no move, which loses the game.
        let last = lines.last().map(String::as_str).unwrap_or_default();
        let best = match last.strip_prefix("move ").or_else(|| last.split_once("move is: ").map(|(_, m)| m)) {
            // Castling may come as O-O or O-O-O (Phalanx sends it so).
            Some(m) => match (m.trim().replace('0', "O").as_str(), white) {
                ("O-O", true) => "e1g1".to_string(),
                ("O-O-O", true) => "e1c1".to_string(),
                ("O-O", false) => "e8g8".to_string(),
                ("O-O-O", false) => "e8c8".to_string(),
                _ => m.trim().to_string(),
            },
            None => "(none)".to_string(),
        };
        Ok((best, elapsed))
    }

    /// `xboard`, `protover 2`, then the features up to `done=1`. Engines
    /// older than version 2 send none: after a short wait they are taken as
    /// they are. Then each of `options` as `option Name=Value`.
    pub(in crate::play) fn xboard_handshake(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let done = |line: &str| line.starts_with("feature ") && line.split_whitespace().any(|w| w == "done=1");
        let lines = match self.read_until_line("feature done=1", done, Duration::from_secs(5)) {
            Ok(lines) => lines,
            Err(EngineError::Timeout { .. }) => Vec::new(),
            Err(err) => return Err(err),
        };
        for line in lines.iter().filter(|l| l.starts_with("feature ")) {
            if let Some(name) = line.split("myname=\"").nth(1).and_then(|rest| rest.split('"').next()) {
                self.name = name.to_string();
            }
            if line.split_whitespace().any(|w| w == "ping=1") {
                self.ping = true;
            }
            // Accept every feature the engine asks for; none changes what we send.
            for feature in line.split_whitespace().skip(1).filter_map(|w| w.split('=').next()) {
                if feature != "done" {
                    let _ = self.send(&format!("accepted {feature}"));
                }
            }
        }
        // No pondering, and no thinking output to skip.
        self.send("easy")?;
        self.send("nopost")?;
        for (name, value) in options {
            self.send(&format!("option {name}={value}"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_in_xboard_terms() {
        let ms = Duration::from_millis;
        let clock = GoLimit::Clock {
            white: ms(95_000),
            black: ms(8_000),
            white_increment: ms(2_000),
            black_increment: ms(2_000),
        };
        assert_eq!(limit_commands(&clock, true), ["level 0 1:35 2", "time 9500", "otim 800"]);
        assert_eq!(limit_commands(&clock, false), ["level 0 0:08 2", "time 800", "otim 9500"]);
        assert_eq!(limit_commands(&GoLimit::MoveTime(ms(1_500)), true), ["st 2"]);
        assert_eq!(limit_commands(&GoLimit::MoveTime(ms(100)), true), ["st 1"]);
        assert_eq!(limit_commands(&GoLimit::Nodes(800), false), ["st 1"]);
        assert_eq!(limit_commands(&GoLimit::Depth(2), true), ["sd 2"]);
    }
}
