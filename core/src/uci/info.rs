//! The UCI `info` lines that a search's progress is printed as: a
//! completed line ([`info_line`], [`info_text`]) and the progress of the
//! iteration under way ([`stats_line`]), the lines of a MultiPV iteration
//! ([`print_lines`]) and what a network is ([`network_text`]). The searches report plain records
//! ([`Report`]); only the UCI layer words them.

use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

use super::multipv::Stats;
use crate::search::factory;
use crate::search::interface::Search;
use crate::search::types::Report;
use crate::weights::Weights;

/// The line that completed last as a UCI `info` line, `elapsed` ms after the
/// start, with its MultiPV index; `helper_nodes` (Lazy SMP helpers' nodes)
/// count in `nodes` and `nps`, as Stockfish counts every thread's.
pub(super) fn info_line(
    search: &mut dyn Search,
    root: &Chess,
    elapsed: u64,
    helper_nodes: u64,
) -> Option<(usize, String)> {
    let nodes = search.nodes() + helper_nodes;
    let hashfull = search.hashfull();
    let report = search.report(root)?;
    Some((report.multipv, info_text(&report, nodes, hashfull, elapsed)))
}

/// `report` as a UCI `info` line, with the search's `nodes` (helpers'
/// included) and `hashfull` at `elapsed` ms.
fn info_text(report: &Report, nodes: u64, hashfull: u32, elapsed: u64) -> String {
    let Report { depth, seldepth, multipv, score, pv } = report;
    let nps = nodes * 1000 / elapsed.max(1);
    let mut text = format!(
        "info depth {depth} seldepth {} multipv {multipv} score {score} nodes {nodes} nps {nps} hashfull {hashfull} time {elapsed} pv",
        seldepth.max(depth),
    );
    for &m in pv {
        let _ = write!(text, " {}", UciMove::from_move(m, CastlingMode::Standard));
    }
    text
}

/// A progress line for the iteration under way: `info depth D nodes N nps N
/// hashfull H time T`, without a score or a `pv`; `helper_nodes` as in
/// [`info_line`].
pub(super) fn stats_line(search: &dyn Search, elapsed: u64, helper_nodes: u64) -> String {
    let nodes = search.nodes() + helper_nodes;
    format!(
        "info depth {} nodes {nodes} nps {} hashfull {} time {elapsed}",
        search.depth(),
        nodes * 1000 / elapsed.max(1),
        search.hashfull()
    )
}

/// Prints `lines` as `info` lines with the counters of `stats`.
pub(super) fn print_lines(lines: &[Report], stats: Stats, out: &mut dyn FnMut(&str)) {
    for line in lines {
        out(&info_text(line, stats.nodes, stats.hashfull, stats.elapsed));
    }
}

/// `network <source>: <shape> (plays …)`: what a load reports and what `uci`
/// says of the network it starts with.
pub(super) fn network_text(source: &str, weights: &Weights) -> String {
    format!("network {source}: {} {}", weights.summary(), factory::plays(weights))
}
