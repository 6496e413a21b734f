//! What a `no_std` WebAssembly module needs and the bench gives it: an
//! allocator that never frees (the bench allocates a FEN or two a run; the
//! move lists live on the stack) and a panic that traps.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};

struct Bump;

static NEXT: AtomicUsize = AtomicUsize::new(0);

#[global_allocator]
static ALLOCATOR: Bump = Bump;

const PAGE: usize = 65_536;

// SAFETY: every block lies in pages grown for it and is never handed out
// twice; the module has one thread.
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let mut next = NEXT.load(Ordering::Relaxed);
        if next == 0 {
            next = core::arch::wasm32::memory_size(0) * PAGE;
        }
        let start = (next + layout.align() - 1) & !(layout.align() - 1);
        let end = start + layout.size();
        let have = core::arch::wasm32::memory_size(0) * PAGE;
        if end > have && core::arch::wasm32::memory_grow(0, (end - have).div_ceil(PAGE)) == usize::MAX {
            return core::ptr::null_mut();
        }
        NEXT.store(end, Ordering::Relaxed);
        start as *mut u8
    }

    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
