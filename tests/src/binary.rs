//! Finds (building it if needed) the `deepchess` binary for end-to-end tests.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Path of the `deepchess` binary of the same profile as the running test.
///
/// The test executable lives in `target/<profile>/deps/`; the binary is
/// `target/<profile>/deepchess`. `cargo build` is run once per test process
/// so the binary is never stale.
pub fn deepchess() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test executable has a path");
        let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>");
        let release = profile_dir.file_name().is_some_and(|name| name == "release");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        // The CPU backend only, as `make test` builds the trainer: wgpu is
        // checked separately and takes far longer to compile.
        build.args(["build", "--quiet", "-p", "deepchess-trainer", "--bin", "deepchess"]);
        build.args(["--no-default-features", "--features", "flex"]);
        if release {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "cargo build of deepchess failed");
        let path = profile_dir.join(format!("deepchess{}", std::env::consts::EXE_SUFFIX));
        assert!(path.exists(), "{} was not built", path.display());
        path
    })
    .clone()
}
