//! A chess engine in a child process, with timeouts: a crash or a hang is an
//! error the caller can act on (lose the game, restart), never a stuck run.
//!
//! Engines speak UCI, or the xboard protocol (version 2, as Phalanx and GNU
//! Chess do). For xboard the wrapper translates: each move it sets up the
//! game with `new`, `force` and the moves so far, gives the clocks (`level`,
//! `time`, `otim`) or a fixed time (`st`), sends `go`, and reads `move …`.

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

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The xboard (CECP) protocol, version 2.
    Xboard,
}

/// A running engine.
pub struct Engine {
    protocol: Protocol,
    /// Whether an xboard engine answers `ping` with `pong`.
    ping: bool,
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
    /// Starts a UCI engine: `command` (split on whitespace), `uci`, the
    /// options, and `readyok`.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<Engine, EngineError> {
        Engine::start_with(Protocol::Uci, command, options)
    }

    /// Starts an engine that speaks `protocol`. For xboard, options are sent
    /// as `option Name=Value`.
    pub fn start_with(protocol: Protocol, command: &str, options: &[(String, String)]) -> Result<Engine, EngineError> {
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
            protocol,
            ping: false,
            command: command.into(),
            options: options.to_vec(),
            name: command.into(),
            child,
            stdin,
            lines,
            limit_strength: None,
        };
        if protocol == Protocol::Xboard {
            engine.xboard_handshake()?;
            for (name, value) in options {
                engine.send(&format!("option {name}={value}"))?;
            }
            engine.ready()?;
            return Ok(engine);
        }
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
        *self = Engine::start_with(self.protocol, &self.command.clone(), &self.options.clone())?;
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Exited { name: self.name.clone() })
    }

    /// `isready` → `readyok` (xboard: `ping` → `pong`, where the engine
    /// offers it).
    pub fn ready(&mut self) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Uci => {
                self.send("isready")?;
                self.read_until("readyok", HANDSHAKE).map(|_| ())
            }
            Protocol::Xboard if self.ping => {
                self.send("ping 1")?;
                self.read_until("pong", HANDSHAKE).map(|_| ())
            }
            Protocol::Xboard => Ok(()),
        }
    }

    /// Tells the engine that a new game starts.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Uci => self.send("ucinewgame"),
            // Every move sets the game up again with `new`.
            Protocol::Xboard => Ok(()),
        }
    }

    /// `xboard`, `protover 2`, then the features up to `done=1`. Engines
    /// older than version 2 send none: after a short wait they are taken as
    /// they are.
    fn xboard_handshake(&mut self) -> Result<(), EngineError> {
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
        self.send("nopost")
    }

    /// Reads lines until one starts with `prefix` (returned last), or `timeout`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.read_until_line(prefix, |line| line.starts_with(prefix), timeout)
    }

    /// Reads lines until one satisfies `last` (returned last), or `timeout`;
    /// `expected` names it in the error.
    fn read_until_line(
        &mut self,
        expected: &str,
        last: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    let done = last(&line);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        name: self.name.clone(),
                        expected: expected.into(),
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
        if self.protocol == Protocol::Xboard {
            return self.xboard_move(moves, go, limit);
        }
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

impl Engine {
    /// [`best_move`](Self::best_move) for an xboard engine: `go` is the UCI
    /// command, translated (`movetime` to `st`, the clocks to `level`,
    /// `time` and `otim`; `nodes` is not supported by xboard and becomes 1 s).
    fn xboard_move(&mut self, moves: &[String], go: &str, limit: Duration) -> Result<(String, Duration), EngineError> {
        let words: Vec<&str> = go.split_whitespace().collect();
        let field = |key: &str| words.windows(2).find(|w| w[0] == key).and_then(|w| w[1].parse::<u64>().ok());
        let white = moves.len().is_multiple_of(2);
        self.send("new")?;
        self.send("force")?;
        for m in moves {
            self.send(m)?;
        }
        match (field("wtime"), field("btime")) {
            (Some(wtime), Some(btime)) => {
                let (mine, theirs) = if white { (wtime, btime) } else { (btime, wtime) };
                let inc = field(if white { "winc" } else { "binc" }).unwrap_or(0);
                let base = mine / 1000;
                self.send(&format!("level 0 {}:{:02} {}", base / 60, base % 60, inc / 1000))?;
                self.send(&format!("time {}", mine / 10))?;
                self.send(&format!("otim {}", theirs / 10))?;
            }
            _ => {
                let seconds = field("movetime").map_or(1, |ms| ms.div_ceil(1000).max(1));
                self.send(&format!("st {seconds}"))?;
            }
        }
        let start = Instant::now();
        self.send("go")?;
        let answer = |line: &str| line.starts_with("move ") || line.contains("move is: ") || line.starts_with("resign");
        let lines = self.read_until_line("move", answer, limit)?;
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
