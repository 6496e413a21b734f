//! The WebAssembly module's exports, which `run.mjs` calls.

use crate::count::{Library, Work, count};
use crate::suite::expected;

/// The WebAssembly export: `library` 0 shakmaty, 1 cozy-chess; `walk` 0 perft,
/// 1 the walk; the `index`th position to `depth`.
#[unsafe(no_mangle)]
pub extern "C" fn run(library: u32, walk: u32, index: u32, depth: u32) -> u64 {
    let library = if library == 0 { Library::Shakmaty } else { Library::Cozy };
    let work = if walk == 0 { Work::Perft } else { Work::Walk };
    count(library, work, index as usize, depth)
}

/// The suite's perft count (the WebAssembly export of [`expected`]).
#[unsafe(no_mangle)]
pub extern "C" fn expected_count(index: u32, depth: u32) -> u64 {
    expected(index as usize, depth)
}
