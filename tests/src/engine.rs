//! Driving `deepchess uci` as a child process, through the match runner's
//! [`Engine`].

use std::path::{Path, PathBuf};

use deepchess_core::{Shape, seeded};
use deepchess_trainer::play::engine::Engine;

use crate::binary::deepchess;

/// Writes a seeded random distilled network to `dir` and returns its path.
pub fn random_weights(dir: &Path, seed: u64) -> PathBuf {
    let path = dir.join(format!("random-{seed}.dcnn"));
    std::fs::write(&path, seeded::network(&Shape::distilled(), 2.0, seed).to_bytes()).expect("temp dir is writable");
    path
}

/// Starts `deepchess uci --weights <weights>` (past the `uci` handshake).
pub fn engine_with(weights: &Path) -> Engine {
    Engine::start(&format!("{} uci --weights {}", deepchess().display(), weights.display()), &[])
        .expect("deepchess uci starts")
}
