//! DeepChess for WebAssembly.
//!
//! With the `bench` feature this crate exports plain functions that node
//! drives without any bindings generator: the SIMD128 self-test (every kernel
//! against the scalar oracle, [`bench::dc_selftest`]) and the inference
//! benchmark. See `wasm/README.md`. The browser engine (a UCI web worker)
//! joins it with the browser issue.

#[cfg(feature = "bench")]
pub mod bench;
