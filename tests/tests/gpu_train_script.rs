//! `scripts/gpu-train.sh`, the script that continues the works' own-scale
//! runs a few minutes at a time on a GPU machine, run here on flex
//! (`DEVICE=flex`) with tiny epochs: a carried dataset (gzipped), the
//! DeepChess pipeline in its order (the Siamese run waits for Pos2Vec to
//! finish), the archives it brings back, and a second call that resumes
//! from them.

use std::path::Path;
use std::process::{Command, Output};

use deepchess_tests::binary::deepchess;
use deepchess_tests::fixture::fixture_dataset;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/gpu-train.sh");

/// One call of the script: `runs` with the tiny `args`, the dataset carried
/// in `carried`, the archives of an earlier call in `carried/runs`, a fresh
/// machine's work folder `work` and its `out`.
fn call(carried: &Path, work: &Path, out: &Path, runs: &str, args: &str) -> Output {
    let output = Command::new("bash")
        .arg(SCRIPT)
        .arg("5")
        .env("DEVICE", "flex")
        .env("BIN", deepchess())
        .env("DATA", carried.join("data"))
        .env("RUNS_FROM", carried.join("runs"))
        .env("WORK", work)
        .env("OUT", out)
        .env("RUNS", runs)
        .env("ARGS", args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn log(out: &Path) -> String {
    std::fs::read_to_string(out.join("log.txt")).unwrap()
}

#[test]
fn runs_in_order_come_back_as_archives_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture_dataset(dir.path());
    // The dataset as it travels: its .bin files gzipped beside meta.json.
    let carried = dir.path().join("carried");
    std::fs::create_dir_all(carried.join("data")).unwrap();
    std::fs::create_dir_all(carried.join("runs")).unwrap();
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name.ends_with(".bin") {
            let gz = std::fs::File::create(carried.join("data").join(format!("{name}.gz"))).unwrap();
            let status = Command::new("gzip").arg("-c").arg(&path).stdout(gz).status().unwrap();
            assert!(status.success());
        } else {
            std::fs::copy(&path, carried.join("data").join(&name)).unwrap();
        }
    }
    let tiny = "--epochs 1 --per-epoch 256 --batch-size 64";

    // First call: Pos2Vec runs all its layers; the Siamese run waits for it
    // only within the call, so it starts once Pos2Vec has finished.
    let (work, out) = (dir.path().join("work1"), dir.path().join("out1"));
    call(&carried, &work, &out, "siamese pos2vec", tiny);
    let first = log(&out);
    assert!(first.contains("siamese: waits for pos2vec to finish"), "{first}");
    assert!(out.join("pos2vec.tar.gz").exists(), "{first}");
    assert!(!out.join("siamese.tar.gz").exists(), "{first}");
    let state = std::fs::read_to_string(work.join("pos2vec/state.json")).unwrap();
    assert!(state.contains("\"epochs_done\""), "{state}");

    // Second call, on a fresh machine: the archive carried back resumes
    // Pos2Vec (finished, so it trains nothing more) and starts the Siamese
    // network from it.
    std::fs::copy(out.join("pos2vec.tar.gz"), carried.join("runs/pos2vec.tar.gz")).unwrap();
    let (work, out) = (dir.path().join("work2"), dir.path().join("out2"));
    call(&carried, &work, &out, "pos2vec siamese", tiny);
    let second = log(&out);
    assert!(second.contains("resuming pos2vec"), "{second}");
    assert!(second.contains("pos2vec: up to") && second.contains("--resume"), "{second}");
    assert!(out.join("siamese.tar.gz").exists(), "{second}");
    let metrics = std::fs::read_to_string(work.join("siamese/metrics.csv")).unwrap();
    assert_eq!(metrics.lines().count(), 2, "one epoch after the header: {metrics}");
    let config = std::fs::read_to_string(work.join("siamese/config.json")).unwrap();
    assert!(config.contains("pos2vec"), "the Siamese run starts from the pretrained tower: {config}");
}
