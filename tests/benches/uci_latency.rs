//! How fast `deepchess uci` answers `stop` (with `bestmove`) and `isready`
//! during `go infinite`. `cargo bench -p deepchess-tests --bench uci_latency`
//! measures a seeded random network; `… --bench uci_latency -- FILE` the
//! weights in FILE (an absolute path: `.dcnn`, `.dcsn`, or `.dcaz`, which
//! plays MCTS). The aim is a median under 50 ms; `tests/uci_latency.rs`
//! asserts a looser bound that holds on a loaded machine.

use std::time::Duration;

use deepchess_tests::engine::{engine_with, latencies, random_weights};

fn main() {
    let dir = tempfile::tempdir().expect("a temp dir");
    // cargo passes `--bench`; the file is the first other argument.
    let weights = match std::env::args().skip(1).find(|a| !a.starts_with("--")) {
        Some(file) => std::path::PathBuf::from(file),
        None => random_weights(dir.path(), 1),
    };
    println!("weights: {}", weights.display());
    let mut engine = engine_with(&weights);
    let measured = latencies(&mut engine, 20);
    assert!(engine.quit().expect("the engine exits").success());
    for (name, mut times) in [("stop -> bestmove", measured.stops), ("isready -> readyok", measured.readies)] {
        times.sort();
        println!(
            "{name:<20} min {:>6.2} ms  median {:>6.2} ms  max {:>6.2} ms  ({} searches)",
            ms(times[0]),
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1]),
            times.len()
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
