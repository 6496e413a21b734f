//! The tiny game fixture as a training dataset.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::binary::deepchess;

/// `fixtures/games.pgn` built by `deepchess data build` into `dir/data`,
/// every position of every game (a few thousand), for short training runs.
pub fn fixture_dataset(dir: &Path) -> PathBuf {
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
