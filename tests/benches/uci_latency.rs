//! How fast `deepchess uci` answers `stop` (with `bestmove`) and `isready`
//! during `go infinite`. `cargo bench -p deepchess-tests --bench uci_latency`
//! measures a seeded random network; `… --bench uci_latency -- FILE` the
//! weights in FILE (an absolute path: `.dcnn`, `.dcsn`, or `.dcaz`, which
//! plays MCTS).
//!
//! The bound is 50 ms; this measures and prints, it asserts nothing.

use std::time::{Duration, Instant};

use deepchess_tests::engine::{engine_with, random_weights};

fn main() {
    let dir = tempfile::tempdir().expect("a temp dir");
    // cargo passes `--bench`; the file is the first other argument.
    let weights = match std::env::args().skip(1).find(|a| !a.starts_with("--")) {
        Some(file) => std::path::PathBuf::from(file),
        None => random_weights(dir.path(), 1),
    };
    println!("weights: {}", weights.display());
    let mut engine = engine_with(&weights);
    let minute = Duration::from_secs(60);
    let (mut stops, mut readies) = (Vec::new(), Vec::new());
    for fen in deepchess_core::bench::BENCH_POSITIONS.iter().take(20) {
        engine.send(&format!("position fen {fen}")).expect("the engine runs");
        engine.send("go infinite").expect("the engine runs");
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        engine.send("isready").expect("the engine runs");
        engine.read_until("readyok", minute).expect("readyok");
        readies.push(t.elapsed());
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        engine.send("stop").expect("the engine runs");
        engine.read_until("bestmove", minute).expect("bestmove");
        stops.push(t.elapsed());
    }
    assert!(engine.quit().expect("the engine exits").success());
    for (name, mut times) in [("stop -> bestmove", stops), ("isready -> readyok", readies)] {
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
