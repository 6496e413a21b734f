//! Driving `deepchess uci` as a child process.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use deepchess_core::{Shape, random};

use crate::binary::deepchess;

/// Writes a seeded random distilled network to `dir` and returns its path.
pub fn random_weights(dir: &Path, seed: u64) -> std::path::PathBuf {
    let path = dir.join(format!("random-{seed}.dcnn"));
    std::fs::write(&path, random::network(&Shape::distilled(), 2.0, seed).to_bytes()).expect("temp dir is writable");
    path
}

/// A running `deepchess uci` with its output read on a thread.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `deepchess uci` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(deepchess())
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("deepchess starts");
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
        Engine { child, stdin, lines }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).expect("the engine reads its input");
    }

    /// Reads lines until one satisfies `done` (returned last), or `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no matching line within {timeout:?}; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited; got {seen:#?}"),
            }
        }
    }

    /// Sends `quit` and waits for the process to exit successfully.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("the engine exits");
        assert!(status.success(), "{status}");
    }
}
