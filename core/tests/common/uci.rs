//! Helpers shared by the UCI tests: an engine over a random network, one
//! per search, and a session driven line by line as a host drives it.

use deepchess_core::uci::{Request, UciEngine};
use deepchess_core::{Network, SearchKind, Shape, seeded};

/// An engine over a random network with both heads (the scalar search by
/// default).
pub fn engine() -> UciEngine {
    let shape = Shape::distilled().with_utility(true).unwrap();
    let net = Network::from_bytes(&seeded::network(&shape, 2.0, 5).to_bytes()).unwrap();
    UciEngine::new(Some(net))
}

/// One engine per search, chosen with `setoption name Search`.
pub fn engines() -> Vec<(SearchKind, UciEngine)> {
    SearchKind::ALL
        .into_iter()
        .map(|kind| {
            let mut e = engine();
            let mut out = Vec::new();
            e.handle(&format!("setoption name Search value {}", kind.name()), 0, &mut |l| out.push(l.to_string()));
            assert!(out.is_empty(), "{out:?}");
            assert_eq!(e.search_kind(), Some(kind));
            (kind, e)
        })
        .collect()
}

/// Sends `lines`, thinking to completion after each; returns the output.
pub fn session(engine: &mut UciEngine, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let clock = || 0;
    for line in lines {
        let request = engine.handle(line, 0, &mut |l| out.push(l.to_string()));
        assert_ne!(request, Request::Quit);
        let mut slices = 0;
        while engine.is_thinking() && slices < 100_000 {
            engine.think(1000, &clock, &mut |l| out.push(l.to_string()));
            slices += 1;
        }
    }
    out
}

pub fn bestmove(out: &[String]) -> &str {
    out.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line")
}
