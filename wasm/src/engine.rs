//! The UCI engine, for a web worker.
//!
//! The worker (`web/engine/worker.js`) passes each line it receives to
//! [`Engine::handle`] and posts back the lines it returns. While
//! [`Engine::thinking`] it calls [`Engine::think`] with a node budget and
//! yields to its event loop between calls, so that `stop` and `isready` are
//! read within one slice, a few milliseconds.

use deepchess_core::search::first_positions;
use deepchess_core::uci::{HelperPool, Request, UciEngine};
use deepchess_core::{DEFAULT_NETWORK, Features, Network};
use wasm_bindgen::prelude::*;

use crate::batch::Batch;
use crate::clock::now;

/// A UCI engine with the embedded default network.
#[wasm_bindgen]
pub struct Engine {
    pub(crate) uci: UciEngine,
    /// `setoption name EvalFile value <url>`, for the worker to fetch.
    eval_file: Option<String>,
    quit: bool,
    /// Lazy SMP helpers (threaded builds; with one thread it never starts any).
    helpers: HelperPool,
    /// Helper tasks for the worker to hand to its helper workers
    /// ([`take_helper_tasks`](Self::take_helper_tasks)).
    tasks: Vec<u32>,
}

#[wasm_bindgen]
impl Engine {
    /// An engine that plays with the embedded network.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Engine, JsError> {
        let (_, net) = embedded().map_err(|e| JsError::new(&e))?;
        Ok(Engine {
            uci: UciEngine::new(Some(net)),
            eval_file: None,
            quit: false,
            helpers: HelperPool::new(),
            tasks: Vec::new(),
        })
    }

    /// Lets `Threads` go up to `max`: the worker calls it where it can run
    /// helper workers over this module's shared memory (a threaded build in
    /// a cross-origin isolated page).
    #[cfg(target_feature = "atomics")]
    #[wasm_bindgen(js_name = setMaxThreads)]
    pub fn set_max_threads(&mut self, max: usize) {
        self.uci.set_max_threads(max);
    }

    /// The helper tasks of a search that has just started with `Threads`
    /// above 1, as pointers into this module's memory: the worker passes
    /// each to `runHelper` (the `threads` module) on a helper
    /// worker, once. Helpers of a search that has ended are already told to
    /// stop.
    #[wasm_bindgen(js_name = takeHelperTasks)]
    pub fn take_helper_tasks(&mut self) -> Vec<u32> {
        core::mem::take(&mut self.tasks)
    }

    /// Starts and stops helpers after each call into the engine.
    fn sync_helpers(&mut self) {
        let sync = self.helpers.sync(&self.uci);
        self.tasks.extend(sync.start.into_iter().map(|task| Box::into_raw(Box::new(task)) as usize as u32));
    }

    /// Handles one line of UCI and returns the lines to send back.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let mut lines = Vec::new();
        match self.uci.handle(line, now(), &mut |l: &str| lines.push(l.to_string())) {
            Request::Continue => {}
            Request::Quit => {
                self.quit = true;
                self.helpers.stop();
            }
            Request::LoadEvalFile(source) => self.eval_file = Some(source),
        }
        self.sync_helpers();
        lines
    }

    /// Searches about `nodes` nodes and returns the lines to send back
    /// (`info`, and `bestmove` when the search ends).
    pub fn think(&mut self, nodes: u32) -> Vec<String> {
        let mut lines = Vec::new();
        self.uci.think(u64::from(nodes), &now, &mut |l: &str| lines.push(l.to_string()));
        self.sync_helpers();
        lines
    }

    /// Whether a search runs and wants [`think`](Self::think) calls.
    #[wasm_bindgen(getter)]
    pub fn thinking(&self) -> bool {
        self.uci.is_thinking()
    }

    /// Whether `quit` was received.
    #[wasm_bindgen(getter)]
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// The URL of an `EvalFile` the worker must fetch and pass to
    /// [`load_network`](Self::load_network), once.
    #[wasm_bindgen(js_name = takeEvalFile)]
    pub fn take_eval_file(&mut self) -> Option<String> {
        self.eval_file.take()
    }

    /// Loads a network of any family (the bytes of an `EvalFile`), or
    /// reports why not; `error` is a fetch error, which keeps the current network.
    #[wasm_bindgen(js_name = loadNetwork)]
    pub fn load_network(&mut self, bytes: Option<Vec<u8>>, source: &str, error: Option<String>) -> Vec<String> {
        let mut lines = Vec::new();
        let bytes = bytes.ok_or_else(|| error.unwrap_or_else(|| "no data".to_string()));
        self.uci.load_network(bytes.as_deref().map_err(Clone::clone), source, &mut |l: &str| lines.push(l.to_string()));
        lines
    }

    /// The inference kernel in use: `relaxed`, `simd128` or `scalar`.
    #[wasm_bindgen(getter)]
    pub fn kernel(&self) -> String {
        self.uci.weights().map_or("none", |w| w.kernel().name()).to_string()
    }

    /// The `.dcnn` bytes of the network in use, to build a GPU copy.
    #[wasm_bindgen(js_name = networkBytes)]
    pub fn network_bytes(&self) -> Option<Vec<u8>> {
        self.uci.network().map(Network::to_bytes)
    }

    /// The positions a search of the current position meets first (`plies`
    /// deep, at most `limit`) and their mirror images, as one batch to embed
    /// elsewhere.
    #[wasm_bindgen(js_name = firstPositions)]
    pub fn first_positions(&self, plies: u32, limit: usize) -> Batch {
        let positions = first_positions(self.uci.position(), plies, limit);
        Batch::new(positions.iter().map(|(hash, pos)| (*hash, Features::from_position(pos))))
    }

    /// Fills the search's cache from a batch's embeddings: the comparison
    /// search's embedding cache, or the scalar search's evaluations (each
    /// position's and its mirror image's embeddings give its evaluation;
    /// see [`Prefill`](deepchess_core::search::Prefill)). Returns
    /// how many entries it wrote.
    pub fn prefill(&mut self, batch: &Batch, embeddings: &[u8]) -> Result<usize, JsError> {
        let embeddings = batch.embeddings(embeddings)?;
        let search = self.uci.search_mut().and_then(|search| search.prefiller());
        Ok(search.map_or(0, |search| search.prefill(batch.keys(), &embeddings)))
    }

    /// The batch's embeddings computed on the CPU (the same layout as a GPU
    /// result), to check one against the other.
    #[wasm_bindgen(js_name = embedOnCpu)]
    pub fn embed_on_cpu(&self, batch: &Batch) -> Vec<u8> {
        self.uci.network().map(|net| batch.embed_on_cpu(net)).unwrap_or_default()
    }
}

/// The network embedded at build time (`weights/DEFAULT`).
fn embedded() -> Result<(&'static str, Network), String> {
    let (name, bytes) = DEFAULT_NETWORK.ok_or("this build has no embedded network")?;
    let net = Network::from_bytes(bytes).map_err(|e| format!("embedded network {name}: {e}"))?;
    Ok((name, net))
}

/// The same tests natively (`cargo test`) and in headless chromium
/// (`cargo test --target wasm32-unknown-unknown`, with wasm-bindgen-test).
#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    fn run(engine: &mut Engine, line: &str) -> Vec<String> {
        let mut lines = engine.handle(line);
        while engine.thinking() {
            lines.extend(engine.think(2048));
        }
        lines
    }

    #[test]
    fn answers_uci_and_searches() {
        let mut engine = Engine::new().unwrap();
        assert!(run(&mut engine, "uci").iter().any(|l| l == "uciok"));
        assert_eq!(run(&mut engine, "isready"), ["readyok"]);
        run(&mut engine, "position startpos moves e2e4");
        let lines = run(&mut engine, "go depth 3");
        assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }

    #[test]
    fn kernel_matches_the_build() {
        let expected = if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
            "relaxed"
        } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            "simd128"
        } else if cfg!(target_arch = "wasm32") {
            "scalar"
        } else {
            deepchess_core::Kernel::detect().name()
        };
        assert_eq!(Engine::new().unwrap().kernel(), expected);
    }

    #[test]
    fn stop_ends_infinite_search() {
        let mut engine = Engine::new().unwrap();
        engine.handle("go infinite");
        assert!(engine.thinking());
        engine.think(1000);
        let lines = engine.handle("stop");
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert!(!engine.thinking());
    }

    #[test]
    fn eval_file_is_handed_to_the_host() {
        let mut engine = Engine::new().unwrap();
        assert!(engine.handle("setoption name EvalFile value nets/x.dcnn").is_empty());
        assert_eq!(engine.take_eval_file().as_deref(), Some("nets/x.dcnn"));
        assert_eq!(engine.take_eval_file(), None);
        let lines = engine.load_network(Some(vec![1, 2, 3]), "nets/x.dcnn", None);
        assert!(lines[0].starts_with("info string error: cannot load network nets/x.dcnn"), "{lines:?}");
        let lines = engine.load_network(None, "nets/y.dcnn", Some("HTTP 404".into()));
        assert!(lines[0].contains("HTTP 404"), "{lines:?}");
        let bytes = engine.network_bytes().unwrap();
        let lines = engine.load_network(Some(bytes), "copy", None);
        assert!(lines[0].starts_with("info string loaded network copy"), "{lines:?}");
        assert!(engine.handle("setoption name EvalFile value <embedded>")[0].starts_with("info string loaded"));
    }

    #[test]
    fn prefilled_embeddings_give_the_same_search() {
        // The comparison search runs the network once per comparison: depth 3
        // reads the prefilled first positions (two plies) and the plies after it in
        // about 6 s of the test build's wasm, where depth 4 took 22 s.
        for (search, per_position, depth) in [("comparison", 2, 3), ("scalar", 1, 4)] {
            let mut plain = Engine::new().unwrap();
            let mut filled = Engine::new().unwrap();
            for engine in [&mut plain, &mut filled] {
                // The embedded default is a value network: the comparison search
                // plays one with both heads.
                if search == "comparison" {
                    let shape = deepchess_core::Shape::distilled().with_utility(true).unwrap();
                    let bytes = deepchess_core::seeded::network(&shape, 2.0, 5).to_bytes();
                    assert!(engine.load_network(Some(bytes), "both.dcnn", None)[0].starts_with("info string loaded"));
                }
                run(engine, &format!("setoption name Search value {search}"));
                run(engine, "position startpos moves d2d4 d7d5");
            }
            let batch = filled.first_positions(2, 2000);
            assert_eq!(batch.len(), 2 * batch.positions());
            let embeddings = filled.embed_on_cpu(&batch);
            assert_eq!(filled.prefill(&batch, &embeddings).unwrap(), per_position * batch.positions());
            let go = format!("go depth {depth}");
            let a = run(&mut plain, &go);
            let b = run(&mut filled, &go);
            // Progress lines (`info depth 3 nodes …`, no score) come once a
            // second, at whatever node count the clock says: left out.
            let strip = |lines: &[String]| -> Vec<String> {
                lines
                    .iter()
                    .filter(|l| l.contains(" score ") || l.starts_with("bestmove"))
                    .map(|l| l.split(" nps ").next().unwrap().to_string())
                    .collect()
            };
            assert_eq!(strip(&a), strip(&b), "{search}");
            assert_eq!(a.last(), b.last());
        }
    }
}
