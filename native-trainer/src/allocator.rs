//! The process's memory allocator: mimalloc, set never to hand freed memory
//! back to the operating system.
//!
//! A training step allocates and frees tensors of tens to hundreds of
//! megabytes (the full network's first layer gathers `[2 × batch × 37, 600]`
//! rows). The system allocator (glibc) returns such blocks to the kernel on
//! `free` and faults them back in, zeroed, on the next step: measured with
//! `perf` on the full network, the kernel's page-fault and page-clearing
//! code took as much CPU time as the whole step in user space, and training
//! ran at half speed. mimalloc with purging off keeps the blocks for reuse.
//!
//! The binary installs it (`#[global_allocator]` in `main.rs`) and calls
//! [`keep_freed_memory`] first thing.

use libmimalloc_sys::{mi_option_get, mi_option_set, mi_option_t};

/// `mi_option_purge_delay` of the bundled mimalloc (v3's `mimalloc.h`;
/// `libmimalloc-sys` does not name it). A test checks the index against
/// what mimalloc reads from `MIMALLOC_PURGE_DELAY`.
const PURGE_DELAY: mi_option_t = 15;

/// Turns off purging: freed memory stays with the process for reuse.
pub fn keep_freed_memory() {
    // SAFETY: setting an option has no preconditions; mimalloc reads it at
    // each purge decision.
    unsafe { mi_option_set(PURGE_DELAY, -1) }
}

/// The purge delay in force (ms; -1: never).
#[allow(clippy::useless_conversion)] // `c_long` is `i32` on some targets.
pub fn purge_delay() -> i64 {
    // SAFETY: reading an option has no preconditions.
    i64::from(unsafe { mi_option_get(PURGE_DELAY) })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPECT: &str = "DEEPCHESS_TEST_EXPECT_PURGE_DELAY";

    #[test]
    fn the_purge_delay_index_names_the_purge_delay() {
        // mimalloc reads `MIMALLOC_<OPTION>` at start-up: run this test again
        // in a child process with the variable set, and read it back.
        if let Ok(expected) = std::env::var(EXPECT) {
            assert_eq!(purge_delay().to_string(), expected);
            keep_freed_memory();
            assert_eq!(purge_delay(), -1);
            return;
        }
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "allocator::tests::the_purge_delay_index_names_the_purge_delay", "--quiet"])
            .env("MIMALLOC_PURGE_DELAY", "37")
            .env(EXPECT, "37")
            .status()
            .unwrap();
        assert!(status.success(), "the child test failed: {status}");
    }
}
