//! The slice loop both alpha-beta searches run: `step` searches until a
//! node budget is spent, a line completes, a limit is reached or the caller
//! says stop, and can be called again to continue exactly where it stopped.

use crate::search::progress::{Progress, PvLine};
use crate::search::types::{Event, POLL_NODES};

/// What the slice loop needs of a search kept on an explicit stack.
pub(crate) trait Sliced {
    /// The search's completed lines.
    type Line: PvLine;
    /// The root, counters and lines.
    fn progress(&mut self) -> &mut Progress<Self::Line>;
    /// Whether the stack is empty (between root searches).
    fn at_root(&self) -> bool;
    /// Pushes the next root search; `false` when every iteration is done.
    fn begin_root(&mut self) -> bool;
    /// One move of the top node; `true` when a root search completed a line.
    fn advance(&mut self) -> bool;
    /// Ends the search.
    fn stop(&mut self);
}

/// Runs `search` for about `budget` nodes; `should_stop` gets the node count
/// every [`POLL_NODES`] nodes, and the search stops when it answers `true`.
pub(crate) fn step<S: Sliced>(search: &mut S, budget: u64, should_stop: &mut dyn FnMut(u64) -> bool) -> Event {
    let end = search.progress().nodes.saturating_add(budget.max(1));
    loop {
        if !search.progress().running {
            return Event::Finished;
        }
        if search.at_root() && !search.begin_root() {
            search.stop();
            return Event::Finished;
        }
        let progress = search.progress();
        let nodes = progress.nodes;
        if progress.limits.nodes.is_some_and(|limit| nodes >= limit) {
            search.stop();
            return Event::Finished;
        }
        if nodes >= progress.next_poll {
            progress.next_poll = nodes + POLL_NODES;
            if should_stop(nodes) {
                search.stop();
                return Event::Finished;
            }
        }
        if nodes >= end {
            return Event::Paused;
        }
        if search.advance() {
            return Event::Line;
        }
    }
}
