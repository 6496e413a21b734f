//! Any input, split into lines, fed to the UCI engine: it must never panic,
//! and `stop` must end any search with exactly one `bestmove`. The options
//! `Search` (scalar, comparison) and `Threads` are in `uci_lines.dict`.
//! Lines with `perft` are left out: `go perft N` runs to the end by design,
//! so a deep count only times out (its parsing is tested in `core/tests/uci.rs`).
#![no_main]

use std::sync::{Mutex, OnceLock};

use deepchess_core::uci::UciEngine;
use deepchess_core::{Network, Shape, seeded};
use libfuzzer_sys::fuzz_target;

fn engine() -> &'static Mutex<UciEngine> {
    static ENGINE: OnceLock<Mutex<UciEngine>> = OnceLock::new();
    ENGINE.get_or_init(|| {
        // Both heads, so `setoption name Search` switches between the two searches.
        let shape = Shape::distilled().with_utility(true).unwrap();
        let net = Network::from_bytes(&seeded::network(&shape, 2.0, 1).to_bytes()).unwrap();
        let mut engine = UciEngine::new(Some(net));
        engine.set_max_threads(4);
        engine.handle("setoption name Hash value 1", 0, &mut |_| {});
        Mutex::new(engine)
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = engine().lock().unwrap_or_else(|e| e.into_inner());
    for line in text.lines().take(64).filter(|line| !line.contains("perft")) {
        engine.handle(line, 0, &mut |_| {});
        for _ in 0..8 {
            if !engine.is_thinking() {
                break;
            }
            engine.think(256, &|| 0, &mut |_| {});
        }
    }
    let mut bestmoves = 0;
    let searching = engine.is_searching();
    engine.handle("stop", 0, &mut |l| bestmoves += usize::from(l.starts_with("bestmove")));
    assert!(!engine.is_searching());
    assert_eq!(bestmoves, usize::from(searching));
});
