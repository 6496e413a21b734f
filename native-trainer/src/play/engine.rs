//! A UCI engine in a child process, with timeouts: a crash or a hang is an
//! error the caller can act on (lose the game, restart), never a stuck run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command could not be started.
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The engine closed its output (crashed or quit).
    #[error("{name} exited")]
    Exited {
        /// The engine.
        name: String,
    },
    /// The engine did not answer in time.
    #[error("{name} did not answer {expected:?} within {waited:?}")]
    Timeout {
        /// The engine.
        name: String,
        /// What it should have sent.
        expected: String,
        /// How long we waited.
        waited: Duration,
    },
}

/// A running UCI engine.
pub struct Engine {
    command: String,
    options: Vec<(String, String)>,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Whether the engine offers `UCI_LimitStrength` / `UCI_Elo`.
    pub limit_strength: Option<(u32, u32)>,
}

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE: Duration = Duration::from_secs(20);

impl Engine {
    /// Starts `command` (split on whitespace), sends `uci` and the options,
    /// and waits for `readyok`.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<Engine, EngineError> {
        let mut words = command.split_whitespace();
        let program = words.next().unwrap_or_default();
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Spawn { command: command.into(), source })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            command: command.into(),
            options: options.to_vec(),
            name: command.into(),
            child,
            stdin,
            lines,
            limit_strength: None,
        };
        engine.send("uci")?;
        let (mut min_elo, mut max_elo, mut limit) = (None, None, false);
        for line in engine.read_until("uciok", HANDSHAKE)? {
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
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
            engine.limit_strength = Some((min, max));
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// The engine's `id name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Options given at start.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// Sends `quit` and waits for the process to exit.
    pub fn quit(mut self) -> std::io::Result<std::process::ExitStatus> {
        let _ = self.send("quit");
        self.child.wait()
    }

    /// Kills the process and starts it again with the same options.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Engine::start(&self.command.clone(), &self.options.clone())?;
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Exited { name: self.name.clone() })
    }

    /// `isready` → `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.read_until("readyok", HANDSHAKE).map(|_| ())
    }

    /// Reads lines until one starts with `prefix` (returned last), or `timeout`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        name: self.name.clone(),
                        expected: prefix.into(),
                        waited: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited { name: self.name.clone() }),
            }
        }
    }

    /// Searches `moves` from the start position (or `fen`) with `go …`;
    /// returns the `bestmove` text and how long the search took.
    pub fn best_move(
        &mut self,
        moves: &[String],
        go: &str,
        limit: Duration,
    ) -> Result<(String, Duration), EngineError> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let start = Instant::now();
        self.send(go)?;
        let lines = self.read_until("bestmove", limit)?;
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("(none)").to_string();
        Ok((best, start.elapsed()))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(10));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
