//! DeepChess for WebAssembly.
//!
//! - [`Engine`] (feature `browser`, the default): the UCI engine with the
//!   embedded network, driven by the module web worker in `web/engine/`,
//!   which speaks plain UCI over `postMessage` like stockfish.js.
//! - `Gpu` (feature `webgpu`, the default, wasm32 only): batched Pos2Vec
//!   embeddings on WebGPU, equal to the CPU's, that fill the engine's
//!   embedding cache before a search ([`Engine::first_positions`], [`Engine::prefill`]).
//! - `AzGpu` (feature `webgpu`, wasm32 only): the AlphaZero reimplementation's network
//!   on WebGPU, for MCTS leaves in batches ([`Engine::gather_leaves`],
//!   [`Engine::apply_leaves`]), held to the CPU's outputs.
//! - `threads` (threaded builds, `+atomics`): the helper side of Lazy SMP,
//!   run by helper web workers over the module's shared memory.
//! - [`bench`] (feature `bench`, built with `--no-default-features`): plain
//!   exports for node, the SIMD128 self-test and the inference benchmark
//!   (`wasm/tests`, `wasm/bench`).
//!
//! See `wasm/README.md` for the build pipeline.

#[cfg(all(feature = "webgpu", target_arch = "wasm32"))]
mod az_gpu;
#[cfg(feature = "browser")]
mod batch;
#[cfg(feature = "bench")]
pub mod bench;
#[cfg(feature = "browser")]
mod clock;
#[cfg(feature = "browser")]
mod engine;
#[cfg(all(feature = "webgpu", target_arch = "wasm32"))]
mod gpu;
#[cfg(feature = "browser")]
mod leaves;
#[cfg(all(feature = "browser", target_feature = "atomics"))]
pub mod threads;

#[cfg(all(feature = "webgpu", target_arch = "wasm32"))]
pub use az_gpu::AzGpu;
#[cfg(feature = "browser")]
pub use batch::Batch;
#[cfg(feature = "browser")]
pub use engine::Engine;
#[cfg(all(feature = "webgpu", target_arch = "wasm32"))]
pub use gpu::Gpu;
