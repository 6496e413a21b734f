//! A chess engine in a child process, with timeouts: a crash or a hang is an
//! error the caller can act on (lose the game, restart), never a stuck run.
//!
//! Engines speak UCI ([`crate::play::uci`]) or the xboard protocol
//! ([`crate::play::xboard`]); games ask for a move with a typed [`GoLimit`],
//! which each protocol writes its own way.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::data::Eval;

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

/// An engine's answer to one `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move, in UCI notation (`(none)` if the engine gave none).
    pub best: String,
    /// How long the search took.
    pub elapsed: Duration,
    /// The last score the engine reported (`info … score cp|mate …`), from
    /// the side to move's point of view; `None` when it reported none (or
    /// speaks xboard).
    pub score: Option<Eval>,
    /// The depth of the `info` line that gave `score`.
    pub depth: Option<u32>,
}

/// How long an engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A node budget (UCI only; an xboard engine gets 1 s).
    Nodes(u64),
    /// A depth (`go depth N`; xboard's `sd N`).
    Depth(u32),
    /// Both clocks and both increments (they differ in a time-odds match).
    Clock {
        /// White's remaining time.
        white: Duration,
        /// Black's remaining time.
        black: Duration,
        /// White's increment per move.
        white_increment: Duration,
        /// Black's increment per move.
        black_increment: Duration,
    },
}

/// A running engine.
pub struct Engine {
    pub(in crate::play) protocol: Protocol,
    /// Whether an xboard engine answers `ping` with `pong`.
    pub(in crate::play) ping: bool,
    pub(in crate::play) command: String,
    pub(in crate::play) options: Vec<(String, String)>,
    pub(in crate::play) name: String,
    pub(in crate::play) child: Child,
    pub(in crate::play) stdin: ChildStdin,
    pub(in crate::play) lines: Receiver<String>,
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
        let mut child = Command::new(program);
        // An engine started by one MPI rank is not a rank itself.
        for (name, _) in std::env::vars_os() {
            if crate::cluster::is_launcher_variable(&name.to_string_lossy()) {
                child.env_remove(name);
            }
        }
        let mut child = child
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
            engine.xboard_handshake(options)?;
            engine.ready()?;
            return Ok(engine);
        }
        engine.uci_handshake(options)?;
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

    /// Reads lines until one starts with `prefix` (returned last), or `timeout`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.read_until_line(prefix, |line| line.starts_with(prefix), timeout)
    }

    /// Reads lines until one satisfies `last` (returned last), or `timeout`;
    /// `expected` names it in the error.
    pub(in crate::play) fn read_until_line(
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

    /// Searches `moves` from the start position within `limit`: the move,
    /// how long the search took and the last score reported. An engine that
    /// does not answer within `timeout` is an error.
    pub fn best_move(&mut self, moves: &[String], limit: &GoLimit, timeout: Duration) -> Result<Reply, EngineError> {
        match self.protocol {
            Protocol::Uci => self.uci_move(moves, limit, timeout),
            Protocol::Xboard => {
                let (best, elapsed) = self.xboard_move(moves, limit, timeout)?;
                Ok(Reply { best, elapsed, score: None, depth: None })
            }
        }
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
