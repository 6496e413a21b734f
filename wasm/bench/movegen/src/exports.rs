//! The WebAssembly module's exports, which `run.mjs` calls.

use crate::count::{Library, Work, count};
use crate::suite::{DEPTHS, depth, expected};

fn work(walk: u32) -> Work {
    if walk == 0 { Work::Perft } else { Work::Walk }
}

/// How many positions the bench searches.
#[unsafe(no_mangle)]
pub extern "C" fn positions() -> u32 {
    DEPTHS.len() as u32
}

/// The depth of the `index`th position for perft (`walk` 0) or the walk (1):
/// [`depth`].
#[unsafe(no_mangle)]
pub extern "C" fn search_depth(walk: u32, index: u32) -> u32 {
    depth(work(walk), index as usize)
}

/// The WebAssembly export: `library` 0 shakmaty, 1 cozy-chess; `walk` 0 perft,
/// 1 the walk; the `index`th position to `depth`.
#[unsafe(no_mangle)]
pub extern "C" fn run(library: u32, walk: u32, index: u32, depth: u32) -> u64 {
    let library = if library == 0 { Library::Shakmaty } else { Library::Cozy };
    count(library, work(walk), index as usize, depth)
}

/// The suite's perft count (the WebAssembly export of [`expected`]).
#[unsafe(no_mangle)]
pub extern "C" fn expected_count(index: u32, depth: u32) -> u64 {
    expected(index as usize, depth)
}
