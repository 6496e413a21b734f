//! How fast `deepchess uci` answers `stop` (with `bestmove`) and `isready`
//! during `go infinite`. `cargo bench -p deepchess-tests --bench uci_latency`
//!
//! The bound is 50 ms; this measures and prints, it asserts nothing.

use std::time::{Duration, Instant};

use deepchess_tests::engine::{Engine, random_weights};

fn main() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let weights = random_weights(dir.path(), 1);
    let mut engine = Engine::start(&["--weights", weights.to_str().expect("UTF-8 path")]);
    engine.send("uci");
    engine.read_until(Duration::from_secs(60), |l| l == "uciok");
    let (mut stops, mut readies) = (Vec::new(), Vec::new());
    for fen in deepchess_core::bench::BENCH_POSITIONS.iter().take(20) {
        engine.send(&format!("position fen {fen}"));
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        engine.send("isready");
        engine.read_until(Duration::from_secs(60), |l| l == "readyok");
        readies.push(t.elapsed());
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        engine.send("stop");
        engine.read_until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
        stops.push(t.elapsed());
    }
    engine.quit();
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
