//! The perft suite of the chess programming wiki, as the repository keeps
//! it (read by core's suite reader), and how deep the bench searches each
//! position.

use alloc::string::{String, ToString};

use deepchess_core::search::perft::parse_perft_line;
use shakmaty::EnPassantMode;
use shakmaty::fen::Fen;

use crate::count::Work;

/// The suite: each line a FEN's first four fields, then `;Dn count`.
const SUITE: &str = include_str!("../../../../tests/fixtures/perft-wiki.epd");

/// How deep each of the suite's six positions is searched by perft: about
/// a second natively for each library.
pub const DEPTHS: [u32; 6] = [5, 5, 6, 5, 4, 4];

/// How deep `work` searches the `index`th position: [`DEPTHS`] for perft,
/// a ply less for the walk (which plays every move of every node).
pub fn depth(work: Work, index: usize) -> u32 {
    match work {
        Work::Perft => DEPTHS[index],
        Work::Walk => DEPTHS[index] - 1,
    }
}

/// The `index`th position of the suite as a full FEN, and its perft count at
/// `depth` from the suite (0 where it gives none).
pub(crate) fn suite_position(index: usize, depth: u32) -> (String, u64) {
    let line = SUITE.lines().filter(|line| !line.trim().is_empty()).nth(index).expect("six positions");
    let case = parse_perft_line(line).expect("the suite's line");
    let fen = Fen::from_position(&case.position, EnPassantMode::Legal).to_string();
    let count = depth.checked_sub(1).and_then(|d| case.leaves.get(d as usize)).copied().unwrap_or(0);
    (fen, count)
}

/// The perft count of the `index`th position at `depth`, in the suite (0
/// where it has none).
pub fn expected(index: usize, depth: u32) -> u64 {
    suite_position(index, depth).1
}
