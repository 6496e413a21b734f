//! A hint to the CPU to bring a table slot into its cache before it is read.
//!
//! The transposition table and the evaluation cache are far larger than the
//! CPU's caches, so the first read of a slot waits on main memory. The search
//! knows a child's hash as soon as it plays the move; prefetching both slots
//! then lets the two reads overlap each other and the work done before them
//! (the child's move generation, the evaluator's update).

/// Asks the CPU to load the cache line holding `slot` (on x86-64; elsewhere,
/// wasm included, a no-op). Never faults and changes nothing observable.
#[inline(always)]
pub fn prefetch<T>(slot: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and has no observable
    // effect, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(slot.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}
