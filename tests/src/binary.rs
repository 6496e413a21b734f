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
    // The CPU backend only, as `make test` builds the trainer: wgpu is
    // checked separately and takes far longer to compile.
    PATH.get_or_init(|| build("deepchess-trainer", "deepchess", &["--no-default-features", "--features", "flex"]))
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
    if release {
        command.arg("--release");
    }
    let status = command.status().expect("cargo runs");
    assert!(status.success(), "cargo build of {bin} failed");
    let path = profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built", path.display());
    path
}
