//! The encoder against `tests/fixtures/encoding.txt`: FENs and their active
//! indices computed with python-chess straight from the spec
//! (`tests/fixtures/make_encoding.py`), an implementation independent of
//! shakmaty and of this crate. Both the library and `deepchess encode` must
//! reproduce every line.

use std::process::Command;

use deepchess_core::Features;
use deepchess_tests::binary::deepchess;
use shakmaty::{CastlingMode, Chess, fen::Fen};

fn fixture() -> Vec<(String, String)> {
    let text = include_str!("../fixtures/encoding.txt");
    let cases: Vec<_> = text
        .lines()
        .map(|line| {
            let (fen, indices) = line.split_once(';').expect("FEN;indices");
            (fen.to_owned(), indices.to_owned())
        })
        .collect();
    assert!(cases.len() > 500);
    cases
}

#[test]
fn library_matches_independent_encoding() {
    for (fen, expected) in fixture() {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        assert_eq!(Features::from_position(&pos).to_string(), expected, "{fen}");
    }
}

#[test]
fn cli_matches_independent_encoding() {
    let bin = deepchess();
    for (fen, expected) in fixture().into_iter().step_by(25) {
        let out = Command::new(&bin).args(["encode", "--fen", &fen]).output().unwrap();
        assert!(out.status.success(), "{fen}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{expected}\n"), "{fen}");
    }
}

#[test]
fn cli_rejects_bad_fens_clearly() {
    let bin = deepchess();
    for (fen, message) in [
        ("not a fen", "invalid FEN"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "invalid FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "illegal position"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "invalid FEN"),
        ("kk6/8/8/8/8/8/8/K7 w - - 0 1", "illegal position"),
    ] {
        let out = Command::new(&bin).args(["encode", "--fen", fen]).output().unwrap();
        assert!(!out.status.success(), "{fen} accepted");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("error: ") && stderr.contains(message), "{fen}: {stderr}");
    }
}
