//! `deepchess uci` answers `stop` and `isready` promptly during `go
//! infinite`: within 250 ms every time over 20 searches, a bound that holds
//! on a loaded 2-core machine and in a test build (`cargo bench --bench
//! uci_latency` measures the release build, whose aim is a median under
//! 50 ms). Its own test binary, so that no other test of this crate runs
//! beside it.

use std::time::Duration;

use deepchess_tests::engine::{engine_with, latencies, random_weights};

#[test]
fn stop_and_isready_are_answered_within_250_ms() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = engine_with(&random_weights(dir.path(), 1));
    let measured = latencies(&mut engine, 20);
    assert!(engine.quit().unwrap().success());
    let bound = Duration::from_millis(250);
    for (name, times) in [("stop", &measured.stops), ("isready", &measured.readies)] {
        assert_eq!(times.len(), 20);
        let worst = times.iter().max().unwrap();
        assert!(worst <= &bound, "{name} answered in {worst:?} at worst: {times:?}");
    }
}
