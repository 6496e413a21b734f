//! A report command whose reader has gone ends quietly, killed by `SIGPIPE`,
//! as C tools do, not with a panic and a backtrace (`deepchess eval games x.pgn
//! | head -4` used to print "failed printing to stdout: Broken pipe").

#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use deepchess_tests::binary::deepchess;

/// `SIGPIPE`'s number on Linux, macOS and the BSDs (POSIX leaves the number
/// open).
const SIGPIPE: i32 = 13;

#[test]
fn a_closed_stdout_ends_a_report_command_quietly() {
    let mut child = Command::new(deepchess())
        .args(["encode", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the only read end before the command can write: its one line
    // then meets a pipe with no reader, whenever it comes.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(SIGPIPE), "{:?}: {stderr}", out.status);
}
