// A Lazy SMP helper thread of the engine worker (web/engine/worker.js), in
// the threaded builds: it instantiates the engine's module over the engine's
// shared memory, then runs each helper task it is sent (a search of the
// current position over the shared transposition table) until the engine
// tells that search to stop. Tasks queue as messages while one runs.
//
//   → { glue, module, memory }   the build's wasm-bindgen JS, its module and memory
//   → { task }                   a pointer from engine.takeHelperTasks()
//   ← { nodes } after each task, or { error }
/** Resolves to the build's glue, instantiated over the shared memory. */
let ready = null;

self.onmessage = ({ data }) => {
  if (data.glue) {
    ready = import(data.glue).then((glue) => {
      glue.initSync({ module: data.module, memory: data.memory });
      return glue;
    });
    ready.catch((error) => self.postMessage({ error: `helper start: ${error?.message ?? error}` }));
    return;
  }
  ready.then((glue) => {
    try {
      self.postMessage({ nodes: glue.runHelper(data.task) });
    } catch (error) {
      self.postMessage({ error: `helper: ${error?.message ?? error}` });
    }
  });
};
