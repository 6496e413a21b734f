//! `deepchess perft`: one position divided by first move, and EPD perft
//! suites against their counts, with and without the search's move path held
//! to shakmaty; a wrong count or a bad line is an error.

use std::process::Command;

use deepchess_tests::binary::deepchess;

const WIKI: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/perft-wiki.epd");
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/src/search/perft.epd");

fn perft(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(deepchess()).arg("perft").args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn one_position_is_divided_by_first_move() {
    let (ok, text, err) = perft(&["--depth", "3"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{text}");
    assert!(lines.contains(&"e2e4: 600") && lines.contains(&"g1f3: 440"), "{text}");
    assert_eq!(lines[21], "Nodes searched: 8902");
    assert!(lines[22].starts_with("Time: "), "{text}");
    let (ok, _, err) = perft(&["--fen", "not a fen"]);
    assert!(!ok && err.contains("invalid FEN"), "{err}");
}

#[test]
fn suites_are_checked_against_their_counts() {
    // The wiki's positions to depth 3, node by node, and the game suite to
    // depth 2 by bulk counts.
    let (ok, text, err) = perft(&["--epd", WIKI, "--depth", "3", "--check-path"]);
    assert!(ok, "{err}");
    assert!(text.starts_with("6 positions, every count equal: 277949 leaves counted in "), "{text}");
    assert!(text.contains("the move path held to shakmaty at "), "{text}");
    let (ok, text, err) = perft(&["--epd", SUITE, "--depth", "2"]);
    assert!(ok, "{err}");
    assert!(text.starts_with("300 positions, every count equal: "), "{text}");
    // A right count passes; a wrong count and a bad line name the line.
    let dir = tempfile::tempdir().unwrap();
    let kings = "8/8/8/8/8/8/8/K6k w - -";
    for (content, error) in [
        (format!("{kings} ;D1 3 ;D2 9\n"), None),
        (format!("{kings} ;D1 3 ;D2 10\n"), Some("bad.epd:1: 9 leaves at depth 2, the suite says 10")),
        (format!("\n{kings} ;D2 9\n"), Some("bad.epd:2: ")),
    ] {
        let path = dir.path().join("bad.epd");
        std::fs::write(&path, &content).unwrap();
        let (ok, _, err) = perft(&["--epd", path.to_str().unwrap(), "--check-path"]);
        match error {
            None => assert!(ok, "{content}: {err}"),
            Some(error) => assert!(!ok && err.contains(error), "{content}: {err}"),
        }
    }
}
