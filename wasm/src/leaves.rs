//! The engine's MCTS leaves for a batch device (core's
//! [`batched`](deepchess_core::uci::UciEngine::gather_leaves) host
//! interface): the worker gathers a batch, evaluates it on WebGPU
//! ([`AzGpu`](crate::AzGpu)) while it reads messages, and applies it.

use deepchess_core::alphazero::evaluate_leaves;
use wasm_bindgen::prelude::*;

use crate::Engine;
use crate::clock::now;

#[wasm_bindgen]
impl Engine {
    /// The input planes of up to `max` leaves of the running MCTS with the
    /// AlphaZero network (`PLANES × 64` values each; empty when the batch is
    /// only finished games: apply it all the same), or `undefined` unless
    /// such a search runs and has no batch in flight.
    #[wasm_bindgen(js_name = gatherLeaves)]
    pub fn gather_leaves(&mut self, max: usize) -> Option<Vec<f32>> {
        self.uci.gather_leaves(max)
    }

    /// Expands the batch in flight with `outputs` (values, then
    /// `[kind][square]` logits) and returns the lines to send back, as
    /// [`think`](Self::think) does. Outputs of a batch that `stop` took back
    /// are ignored.
    #[wasm_bindgen(js_name = applyLeaves)]
    pub fn apply_leaves(&mut self, outputs: &[f32]) -> Vec<String> {
        let mut lines = Vec::new();
        self.uci.apply_leaves(outputs, &now, &mut |l: &str| lines.push(l.to_string()));
        lines
    }

    /// Takes the batch in flight back unevaluated (the device failed); the
    /// search goes on by [`think`](Self::think).
    #[wasm_bindgen(js_name = cancelLeaves)]
    pub fn cancel_leaves(&mut self) {
        self.uci.cancel_leaves();
    }

    /// The `.dcaz` bytes of the AlphaZero network in use, to build a GPU copy.
    #[wasm_bindgen(js_name = azNetworkBytes)]
    pub fn az_network_bytes(&self) -> Option<Vec<u8>> {
        self.uci.az_network().map(|net| net.to_bytes())
    }

    /// The outputs for `planes` on the CPU, laid out as a GPU's, to check
    /// one against the other; `undefined` without an AlphaZero network or
    /// for planes that are not whole positions.
    #[wasm_bindgen(js_name = evaluateLeavesOnCpu)]
    pub fn evaluate_leaves_on_cpu(&self, planes: &[f32]) -> Option<Vec<f32>> {
        evaluate_leaves(self.uci.az_network()?, planes)
    }
}
