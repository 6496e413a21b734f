//! Finds (building them if needed) the binaries the end-to-end tests run.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Path of the fake UCI engine (`src/bin/fake_uci_engine.rs`), built once.
pub fn fake_engine() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| build("deepchess-tests", "fake_uci_engine", &[])).clone()
}

/// Path of the `deepchess` binary of the same profile as the running test.
///
/// The test executable lives in `target/<profile>/deps/`; the binary is
/// `target/<profile>/deepchess`. `cargo build` is run once per test process
/// so the binary is never stale.
pub fn deepchess() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    // The features `make test` tests the trainer with (the Makefile's
    // TRAINER_TEST): the same binary as the trainer's own tests, built once.
    PATH.get_or_init(|| {
        build("deepchess-trainer", "deepchess", &["--no-default-features", "--features", "flex,mpi,wgpu"])
    })
    .clone()
}

/// Builds `bin` of `package` with the running test's profile.
fn build(package: &str, bin: &str, flags: &[&str]) -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable has a path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>");
    let release = profile_dir.file_name().is_some_and(|name| name == "release");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "--quiet", "-p", package, "--bin", bin]).args(flags);
    // The test profile under `cargo test` (a debug build): its artifacts are
    // those `cargo test` builds for the packages' own tests, so `make test`
    // builds the trainer and its backends once, not once per profile.
    command.args(["--profile", if release { "release" } else { "test" }]);
    let status = command.status().expect("cargo runs");
    assert!(status.success(), "cargo build of {bin} failed");
    let path = profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built", path.display());
    path
}
