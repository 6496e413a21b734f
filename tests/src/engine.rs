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

/// How long the engine took to answer, one entry per search.
#[derive(Debug, Default)]
pub struct Latencies {
    /// `stop` to `bestmove`.
    pub stops: Vec<std::time::Duration>,
    /// `isready` to `readyok`.
    pub readies: Vec<std::time::Duration>,
}

/// Times `isready` and `stop` during `go infinite` on the first `searches`
/// bench positions: 200 ms into each search `isready`, 100 ms later `stop`.
pub fn latencies(engine: &mut Engine, searches: usize) -> Latencies {
    use std::time::{Duration, Instant};
    let minute = Duration::from_secs(60);
    let mut measured = Latencies::default();
    for fen in deepchess_core::bench::BENCH_POSITIONS.iter().cycle().take(searches) {
        engine.send(&format!("position fen {fen}")).expect("the engine runs");
        engine.send("go infinite").expect("the engine runs");
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        engine.send("isready").expect("the engine runs");
        engine.read_until("readyok", minute).expect("readyok");
        measured.readies.push(t.elapsed());
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        engine.send("stop").expect("the engine runs");
        engine.read_until("bestmove", minute).expect("bestmove");
        measured.stops.push(t.elapsed());
    }
    measured
}
