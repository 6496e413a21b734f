//! Any input as a FEN, then as `position fen … moves …`: parsing, encoding
//! and mirroring must never panic.
#![no_main]

use deepchess_core::Features;
use deepchess_core::uci::parse_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (fen, moves) = text.split_once(" moves ").unwrap_or((&text, ""));
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    if let Ok((pos, _)) = parse_game(Some(fen), &moves) {
        let features = Features::from_position(&pos);
        assert!(features.len() <= 37);
        assert_eq!(features.mirrored().mirrored(), features);
    }
});
