//! The DeepChess learners' shape flags on the command line: Pos2Vec
//! pretrains the tower of the shape asked for (the paper pretrains its small
//! network too), a Siamese run of that shape starts from it, and one of
//! another shape is refused.

use std::path::Path;
use std::process::{Command, Output};

use deepchess_tests::binary::deepchess;
use deepchess_tests::fixture::fixture_dataset;

const SHAPE: [&str; 4] = ["--tower", "773,32,16", "--head", "32,16,2"];

fn run(args: &[&str], data: &Path, out: &Path) -> Output {
    Command::new(deepchess())
        .args(args)
        .args(["--device", "flex", "--quiet", "--per-epoch", "512", "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn pos2vec_pretrains_the_shape_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture_dataset(dir.path());

    let pos2vec = dir.path().join("pos2vec");
    let out = run(&[&["train", "pos2vec", "--preset", "smoke", "--epochs", "1"][..], &SHAPE].concat(), &data, &pos2vec);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let config = std::fs::read_to_string(pos2vec.join("config.json")).unwrap();
    let config: serde_json::Value = serde_json::from_str(&config).unwrap();
    assert_eq!(config["model"]["tower"], serde_json::json!([773, 32, 16]), "{config}");
    let metrics = std::fs::read_to_string(pos2vec.join("metrics.csv")).unwrap();
    assert_eq!(metrics.lines().count(), 1 + 2, "a header and one epoch for each of two layers: {metrics}");

    let init = pos2vec.to_str().unwrap();
    let siamese = ["train", "siamese", "--preset", "smoke", "--max-epochs", "1", "--init", init];
    let out = run(&[&siamese[..], &SHAPE].concat(), &data, &dir.path().join("siamese"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // The preset's shape (the distilled one) does not match the tower.
    let out = run(&siamese, &data, &dir.path().join("other"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("has the shape"), "{}", String::from_utf8_lossy(&out.stderr));
}
