//! The perft suite of the chess programming wiki, as the repository keeps
//! it, and how deep the bench searches each position.

use alloc::format;
use alloc::string::String;

/// The suite: each line a FEN's first four fields, then `;Dn count`.
const SUITE: &str = include_str!("../../../../tests/fixtures/perft-wiki.epd");

/// How deep each of the suite's six positions is searched: about a second
/// of perft natively for each library (the walk goes a ply less).
pub const DEPTHS: [u32; 6] = [5, 5, 6, 5, 4, 4];

/// The `index`th position of the suite as a full FEN, and its perft count at
/// `depth` from the suite.
pub(crate) fn suite_position(index: usize, depth: u32) -> (String, u64) {
    let line = SUITE.lines().filter(|line| !line.trim().is_empty()).nth(index).expect("six positions");
    let mut fields = line.split(';');
    let fen = format!("{} 0 1", fields.next().expect("a FEN").trim());
    let key = format!("D{depth} ");
    let count = fields
        .map(str::trim)
        .find_map(|field| field.strip_prefix(key.as_str()))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or(0);
    (fen, count)
}

/// The perft count of the `index`th position at `depth`, in the suite (0
/// where it has none).
pub fn expected(index: usize, depth: u32) -> u64 {
    suite_position(index, depth).1
}
