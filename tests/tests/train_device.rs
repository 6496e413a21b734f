//! `--device` on the command line: every choice trains or ends with a clear
//! error, never an abort. The tests' binary is built as `make test` builds the
//! trainer's tests (flex, MPI and wgpu; no cuda), so what each choice must do
//! follows from the adapters `train devices` lists: where the only wgpu
//! adapter is a software one (CI's lavapipe, which `make test-tools`
//! installs), `auto` trains on the CPU and says why, and `wgpu` and `wgpu:cpu`
//! train on it; where there is a GPU, `auto` takes it.

use std::path::Path;
use std::process::{Command, Output};

use deepchess_tests::binary::deepchess;
use deepchess_tests::fixture::fixture_dataset;

/// One small epoch of the Siamese network's smoke preset on `device`.
fn train(data: &Path, out: &Path, device: &str) -> Output {
    Command::new(deepchess())
        .args(["train", "siamese", "--preset", "smoke", "--max-epochs", "1", "--per-epoch", "2048", "--device", device])
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The wgpu adapters `train devices` lists: (index, type) of each line
/// `  wgpu:N  TYPE  name (backend…)`.
fn adapters() -> Vec<(usize, String)> {
    let out = Command::new(deepchess()).args(["train", "devices"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut words = line.trim().strip_prefix("wgpu:")?.split_whitespace();
            Some((words.next()?.parse().ok()?, words.next()?.to_string()))
        })
        .collect()
}

/// Asserts that `device` trained: exit 0, `expected` in what it said, and
/// the run's metrics written.
fn trained(out: &Output, dir: &Path, device: &str, expected: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{device}: {stderr}");
    assert!(stderr.contains(expected), "{device}: expected `{expected}` in:\n{stderr}");
    assert!(dir.join("metrics.csv").is_file(), "{device}: no metrics.csv");
}

/// Asserts that `device` failed with an exit code (an abort has none, only a
/// signal) of `code`, saying `expected`.
fn refused(out: &Output, device: &str, code: i32, expected: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{device}: {stderr}");
    assert!(stderr.contains(expected), "{device}: expected `{expected}` in:\n{stderr}");
}

#[test]
fn every_device_choice_trains_or_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture_dataset(dir.path());
    let found = adapters();
    let software = found.iter().any(|(_, kind)| kind == "cpu");
    let hardware = found.iter().any(|(_, kind)| ["discrete", "integrated", "virtual"].contains(&kind.as_str()));
    let run = |device: &str| {
        let out_dir = dir.path().join(device.replace(':', "-"));
        let out = train(&data, &out_dir, device);
        (out, out_dir)
    };

    // auto: a hardware adapter if there is one, else the CPU, saying why.
    let (auto, auto_dir) = run("auto");
    let why = if hardware {
        "the best adapter found"
    } else if software {
        "wgpu offers only software adapters"
    } else {
        "no wgpu adapter found"
    };
    trained(&auto, &auto_dir, "auto", why);
    if !hardware {
        trained(&auto, &auto_dir, "auto", "training on the CPU with burn's flex backend");
    }

    // wgpu: the best adapter, a software one included; wgpu:cpu: the first
    // software one. Each trains where it exists and is refused where not.
    for (device, exists, expected) in
        [("wgpu", !found.is_empty(), "training through wgpu on wgpu:"), ("wgpu:cpu", software, "a software rasterizer")]
    {
        let (out, out_dir) = run(device);
        if exists {
            trained(&out, &out_dir, device, expected);
        } else {
            refused(&out, device, 1, &format!("no wgpu adapter matches `--device {device}`"));
        }
    }
    // One past the last adapter.
    let past = format!("wgpu:{}", found.len());
    refused(&run(&past).0, &past, 1, &format!("no wgpu adapter matches `--device {past}`"));

    for device in ["cuda", "cuda:1"] {
        refused(&run(device).0, device, 1, "this build lacks the cuda feature");
    }
    let (bad, _) = run("wgpu:gpu");
    refused(&bad, "wgpu:gpu", 2, "unknown wgpu adapter `gpu`");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("wgpu:cpu"));
}

#[test]
fn devices_lists_what_the_build_can_use() {
    let out = Command::new(deepchess()).args(["train", "devices"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("flex: the CPU") && text.contains("wgpu adapters"), "{text}");
    assert!(text.contains("`--device auto` t"), "{text}");
    assert!(text.contains("cuda: not in this build"), "{text}");
}
