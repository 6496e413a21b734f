//! A panic in a training step (as a GPU backend's, after the device is
//! chosen) ends the run with a clear error, its last checkpoint intact, and
//! `--resume` finishes the run from it. The panic is forced on flex by the
//! `train-step` fail point (the `failpoints` feature).

use super::*;
use std::process::Command;

/// `deepchess train value` on `data` into `out` (the smoke preset: 3 epochs
/// of 64 steps), with `extra` arguments and, if given, the fail points.
fn train_value(data: &Path, out: &Path, extra: &[&str], failpoints: Option<&str>) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_deepchess"));
    command.args(["train", "value", "--preset", "smoke", "--device", "flex", "--quiet", "--data"]);
    command.arg(data).arg("--out").arg(out).args(extra);
    command.env_remove("FAILPOINTS");
    if let Some(failpoints) = failpoints {
        command.env("FAILPOINTS", failpoints);
    }
    command.output().unwrap()
}

fn epochs_done(out: &Path) -> u64 {
    let state: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("state.json")).unwrap()).unwrap();
    state["epochs_done"].as_u64().unwrap()
}

#[test]
fn a_panic_in_a_step_ends_with_a_clear_error_and_the_checkpoint_resumes() {
    let Fixture { _turn, dir, data } = fixture(None, Sampling::default());
    let out = dir.path().join("run");

    // The first epoch completes and is saved.
    let first = train_value(&data, &out, &["--max-epochs", "1"], None);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(epochs_done(&out), 1);
    let model = std::fs::read(out.join("model.bpk")).unwrap();

    // The third step of the second epoch panics.
    let crashed = train_value(&data, &out, &["--resume"], Some("train-step=2*off->panic(device lost)"));
    let stderr = String::from_utf8_lossy(&crashed.stderr);
    assert_eq!(crashed.status.code(), Some(1), "an error, not an abort: {stderr}");
    let expected = format!(
        "error: training stopped by a panic in epoch 2: device lost; its checkpoint in {} holds the 1 completed \
         epoch and is intact: continue with the same command and --resume",
        out.display()
    );
    assert!(stderr.lines().any(|l| l == expected), "{stderr}");
    assert_eq!(epochs_done(&out), 1, "the checkpoint still holds epoch 1");
    assert_eq!(std::fs::read(out.join("model.bpk")).unwrap(), model, "the saved weights are untouched");

    // Resumed, the run finishes its three epochs.
    let resumed = train_value(&data, &out, &["--resume"], None);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(epochs_done(&out), 3);
    let metrics = std::fs::read_to_string(out.join("metrics.csv")).unwrap();
    assert_eq!(metrics.lines().count(), 4, "a header and three epochs: {metrics}");
}
