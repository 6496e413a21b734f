//! Native threads for Lazy SMP: the helper searches a [`UciEngine`] asks for
//! when `Threads` is above 1, each on its own thread (`deepchess uci`, and
//! `deepchess bench --threads`). The browser runs the same tasks on web
//! workers (`web/engine/worker.js`).

use std::thread::JoinHandle;

use deepchess_core::uci::{HelperPool, UciEngine};

/// Helper threads of Lazy SMP searches: the engine's [`HelperPool`] says
/// when to start and stop them; stopped threads are joined at once.
#[derive(Default)]
pub struct HelperThreads {
    pool: HelperPool,
    threads: Vec<JoinHandle<u64>>,
}

impl HelperThreads {
    /// Brings the threads in step with `engine`; call after every call into it.
    pub fn sync(&mut self, engine: &UciEngine) {
        let sync = self.pool.sync(engine);
        if sync.stopped {
            self.join();
        }
        self.threads.extend(sync.start.into_iter().map(|task| std::thread::spawn(move || task.run())));
    }

    /// Stops and joins every helper.
    pub fn stop(&mut self) {
        self.pool.stop();
        self.join();
    }

    fn join(&mut self) {
        for thread in self.threads.drain(..) {
            // A helper that panicked has nothing left to stop.
            let _ = thread.join();
        }
    }
}
