//! The UCI engine's MCTS by batches, for a host that evaluates the AlphaZero
//! network on a batch device (the browser worker's WebGPU).
//!
//! Instead of [`UciEngine::think`], the host loops while
//! [`UciEngine::is_thinking`]:
//!
//! 1. [`gather_leaves`](UciEngine::gather_leaves) gives the input planes of
//!    a batch of leaves;
//! 2. the host evaluates them, reading input meanwhile: `stop` ends the
//!    search at once, and takes the batch back;
//! 3. [`apply_leaves`](UciEngine::apply_leaves) expands the leaves with the
//!    outputs (laid out as [`leaf_batch`](crate::alphazero::leaf_batch)
//!    says) and prints the `info` lines and `bestmove` that `think` would
//!    have printed. Outputs for a batch that `stop` took back are ignored.

use alloc::format;
use alloc::vec::Vec;

use crate::alphazero::leaf_batch::outputs_len;
use crate::search::types::Event;
use crate::uci::engine::UciEngine;

impl UciEngine {
    /// The input planes of up to `max` leaves of the running MCTS with the
    /// AlphaZero network, `PLANES × 64` values per leaf (empty when the
    /// batch is only finished games, which count at once); `None` unless
    /// such a search runs and has no batch in flight.
    pub fn gather_leaves(&mut self, max: usize) -> Option<Vec<f32>> {
        self.deadline()?;
        self.search.as_mut()?.batched()?.gather_planes(max)
    }

    /// Leaves in flight (0 if none).
    pub fn leaves_in_flight(&self) -> usize {
        self.search.as_ref().and_then(|s| s.batched_ref()).and_then(|b| b.in_flight()).unwrap_or(0)
    }

    /// Expands the batch in flight with `outputs` and reports as
    /// [`think`](Self::think) does (`clock` and `out` as there). Outputs of
    /// the wrong length take the batch back, with an error line; without a
    /// batch in flight (`stop` took it back) they are ignored.
    pub fn apply_leaves(&mut self, outputs: &[f32], clock: &dyn Fn() -> u64, out: &mut dyn FnMut(&str)) {
        let Some(search) = self.search.as_mut().and_then(|s| s.batched()) else { return };
        let Some(leaves) = search.in_flight() else { return };
        if !search.apply(outputs) {
            search.cancel();
            out(&format!(
                "info string error: {} outputs for a batch of {leaves} leaves (expected {})",
                outputs.len(),
                outputs_len(leaves)
            ));
        }
        // Every line of a MultiPV report, then the end if it is due.
        while let Some((started, hard)) = self.deadline() {
            let Some(search) = self.search.as_mut().and_then(|s| s.batched()) else { return };
            let event = search.poll(&mut |_| hard.is_some_and(|h| clock().saturating_sub(started) >= h));
            self.on_event(event, clock, out);
            if event != Event::Line {
                break;
            }
        }
    }

    /// Takes the batch in flight back unevaluated (the host lost its device);
    /// the search goes on by [`think`](Self::think).
    pub fn cancel_leaves(&mut self) {
        if let Some(search) = self.search.as_mut().and_then(|s| s.batched()) {
            search.cancel();
        }
    }
}
