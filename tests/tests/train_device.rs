//! `--device` on the command line: every choice trains or ends with a clear
//! error, never an abort. The tests' binary is built without wgpu (as `make
//! test` builds the trainer), so `auto` must train on the CPU and any `wgpu`
//! or `cuda` choice must say that the build lacks it; a wgpu build is checked
//! on a machine whose only adapter is lavapipe by hand (docs/training.md).

use std::path::Path;
use std::process::{Command, Output};

use deepchess_tests::binary::deepchess;

fn dataset(dir: &Path) -> std::path::PathBuf {
    let pgn = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/games.pgn"));
    let data = dir.join("data");
    let out = Command::new(deepchess())
        .args(["data", "build", "--quiet", "--all-positions", "--skip-moves", "0", "--keep-duplicates", "--pgn"])
        .arg(pgn)
        .arg("--out")
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    data
}

fn train(data: &Path, out: &Path, device: &str) -> Output {
    Command::new(deepchess())
        .args(["train", "siamese", "--preset", "smoke", "--max-epochs", "1", "--device", device, "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn every_device_choice_trains_or_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());

    let auto = train(&data, &dir.path().join("auto"), "auto");
    let stderr = String::from_utf8_lossy(&auto.stderr);
    assert!(auto.status.success(), "{stderr}");
    assert!(stderr.contains("training on the CPU with burn's flex backend"), "{stderr}");
    assert!(dir.path().join("auto/metrics.csv").is_file());

    for device in ["wgpu", "wgpu:cpu", "wgpu:0"] {
        let out = train(&data, &dir.path().join(device.replace(':', "-")), device);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // An exit code (not a signal: an abort has none) and a sentence.
        assert_eq!(out.status.code(), Some(1), "{device}: {stderr}");
        assert!(stderr.contains("this build lacks the wgpu feature"), "{device}: {stderr}");
    }
    for device in ["cuda", "cuda:1"] {
        let out = train(&data, &dir.path().join(device.replace(':', "-")), device);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{device}: {stderr}");
        assert!(stderr.contains("this build lacks the cuda feature"), "{device}: {stderr}");
    }

    let bad = train(&data, &dir.path().join("bad"), "wgpu:gpu");
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unknown wgpu adapter `gpu`") && stderr.contains("wgpu:cpu"), "{stderr}");
}

#[test]
fn devices_lists_what_the_build_can_use() {
    let out = Command::new(deepchess()).args(["train", "devices"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("flex: the CPU") && text.contains("lacks the wgpu feature"), "{text}");
    assert!(text.contains("cuda: not in this build"), "{text}");
}
