//! `go perft <depth>`, as Stockfish answers it: one line a legal first move
//! with the leaf count of the tree under it (`e2e4: 20`), an empty line,
//! then `Nodes searched: <total>`. The counts are shakmaty's (bulk-counted
//! at the last ply); the search's own move path is held to them by the
//! tests of [`perft`](crate::search::perft). It runs to the end once
//! started: a deep count takes long, and `stop` does not end it.

use alloc::format;

use shakmaty::{Chess, Position, perft};

use crate::uci::game::uci_move;

/// Writes the divided perft of `pos` to `depth` (at least 1) through `out`.
pub fn perft_divide(pos: &Chess, depth: u32, out: &mut dyn FnMut(&str)) {
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let leaves = perft(&child, depth.saturating_sub(1));
        total += leaves;
        out(&format!("{}: {leaves}", uci_move(m)));
    }
    out("");
    out(&format!("Nodes searched: {total}"));
}
