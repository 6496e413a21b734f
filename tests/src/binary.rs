//! Finds (building them if needed) the binaries the end-to-end tests run.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Path of the fake UCI engine (`src/bin/fake_uci_engine.rs`).
///
/// Cargo builds a package's binaries before its integration tests and
/// benchmarks, into the profile directory above the test's `deps/`; a
/// `cargo build -p deepchess-tests` of its own would resolve features for
/// that package alone and compile core, the trainer's library and this crate
/// once more.
pub fn fake_engine() -> PathBuf {
    let path = profile_dir().join(format!("fake_uci_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built: cargo builds it for deepchess-tests' own tests", path.display());
    path
}

/// `target/<profile>`, from the running test executable (`target/<profile>/deps/<test>`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable has a path");
    exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>").to_path_buf()
}

/// Path of the `deepchess` binary of the same profile as the running test.
///
/// `cargo` is run once per test process so the binary is never stale.
pub fn deepchess() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    // Built as `make test` builds the trainer's own tests (the Makefile's
    // TRAINER_TEST: flex, MPI, wgpu and the fail points), by `cargo test --no-run`: that
    // resolves features with the trainer's dev-dependencies, as its test run
    // does (a `cargo build` of the binary leaves some out, bitflags' `std`
    // among them, and so builds the whole wgpu stack a second time).
    PATH.get_or_init(|| {
        let trainer = ["-p", "deepchess-trainer", "--no-default-features", "--features", "flex,mpi,wgpu,failpoints"];
        build(&[&["test", "--no-run"][..], &trainer].concat(), "deepchess")
    })
    .clone()
}

/// Runs `cargo <args>` in the running test's profile (`--release` under
/// `cargo test --release`) and returns the executable of the binary `bin`
/// that cargo reports having built (or found fresh).
fn build(args: &[&str], bin: &str) -> PathBuf {
    let release = profile_dir().file_name().is_some_and(|name| name == "release");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(args).args(["--quiet", "--message-format", "json"]);
    if release {
        command.arg("--release");
    }
    let output = command.stderr(std::process::Stdio::inherit()).output().expect("cargo runs");
    assert!(output.status.success(), "cargo {} failed", args.join(" "));
    let executable = String::from_utf8_lossy(&output.stdout).lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        let target = &message["target"];
        // The binary itself, not its unit tests' harness (`profile.test`).
        let is_bin = target["name"] == bin
            && target["kind"].as_array()?.iter().any(|kind| kind == "bin")
            && message["profile"]["test"] == false;
        (message["reason"] == "compiler-artifact" && is_bin)
            .then(|| message["executable"].as_str().map(PathBuf::from))?
    });
    let path = executable.unwrap_or_else(|| panic!("cargo {} reported no executable for {bin}", args.join(" ")));
    assert!(path.exists(), "{} was not built", path.display());
    path
}
