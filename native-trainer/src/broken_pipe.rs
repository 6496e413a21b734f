//! What a command does when the reader of its standard output goes away.
//!
//! Rust starts every program with `SIGPIPE` ignored, so a write to a closed
//! pipe returns `EPIPE`, and `println!` panics on it: `deepchess eval games
//! x.pgn | head -4` used to end with "failed printing to stdout: Broken pipe"
//! and a backtrace. Commands that only print a report restore the default
//! action, as C tools have it: the process ends quietly, killed by the
//! signal, once nobody reads.
//!
//! The commands that talk to other engines over pipes (`match`, `datagen`)
//! keep `SIGPIPE` ignored: an opponent that crashes closes its standard
//! input, and writing to it must be an error the runner reports as the
//! opponent's forfeit, not the runner's death. `uci` keeps it ignored too: it
//! drops write errors itself and ends when its input closes.
//!
//! Hand-written (one `libc::signal` call) rather than a crate: the
//! `sigpipe` crate does exactly this, and `libc` is already in the build.

/// Restores the default action of `SIGPIPE` (terminate) for this process.
pub fn end_quietly_when_nobody_reads() {
    #[cfg(unix)]
    // SAFETY: `signal` with `SIG_DFL` only changes this process's
    // disposition; `main` calls it right after parsing the arguments,
    // before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
