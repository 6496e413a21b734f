//! The helper side of the browser's Lazy SMP (threaded builds only: built
//! with `+atomics`, so that the module's memory is shared).
//!
//! The engine worker (`web/engine/worker.js`) starts helper workers
//! (`web/engine/helper.js`), each of which instantiates this module over the
//! engine's memory ([`thread_share`]) and runs the tasks the engine hands out
//! ([`Engine::take_helper_tasks`](crate::Engine::take_helper_tasks)) with
//! [`run_helper`]. Rust's `std::thread` cannot start threads on the web;
//! workers are the threads.

use deepchess_core::search::HelperTask;
use wasm_bindgen::prelude::*;

/// The module and its shared memory, for a helper worker's `initSync`.
#[wasm_bindgen(js_name = threadShare)]
pub fn thread_share() -> js_sys::Array {
    js_sys::Array::of2(&wasm_bindgen::module(), &wasm_bindgen::memory())
}

/// Runs one helper task until its search stops; returns the nodes it
/// searched. `task` must be a pointer from
/// [`Engine::take_helper_tasks`](crate::Engine::take_helper_tasks), passed
/// here once: the worker guarantees both.
#[wasm_bindgen(js_name = runHelper)]
pub fn run_helper(task: u32) -> f64 {
    // SAFETY: `task` came from `Box::into_raw` of a boxed `Box<dyn
    // HelperTask>` (one thin pointer) in `Engine::sync_helpers`, in
    // this same shared memory, and the worker hands each pointer out once.
    let task: Box<Box<dyn HelperTask>> = unsafe { Box::from_raw(task as usize as *mut Box<dyn HelperTask>) };
    (*task).run() as f64
}
